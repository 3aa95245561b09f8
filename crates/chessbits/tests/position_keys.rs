//! Zobrist keys equal Polyglot keys: the reference keys of the Polyglot specification, and a walk
//! through a real Polyglot book in which our keys must find the book's entries.

use crate::common;

use std::path::Path;

use chessbits::lists::MoveList;
use chessbits::notation::uci::parse_uci;
use chessbits::position::Position;
use common::{shared_path, testdata_path};

fn play(uci: &str) -> Position {
    let mut pos = Position::startpos();
    for text in uci.split_whitespace() {
        let m = parse_uci(&pos, text).unwrap();
        pos.play_unchecked(m);
        assert_eq!(pos.key(), pos.compute_key(), "incremental key after {text}");
    }
    pos
}

#[test]
fn polyglot_reference_keys() {
    let cases = [
        ("", 0x463b96181691fc9c),
        ("e2e4", 0x823c9b50fd114196),
        ("e2e4 d7d5", 0x0756b94461c50fb0),
        ("e2e4 d7d5 e4e5", 0x662fafb965db29d4),
        ("e2e4 d7d5 e4e5 f7f5", 0x22a48b5a8e47ff78),
        ("e2e4 d7d5 e4e5 f7f5 e1e2", 0x652a607ca3f242c1),
        ("e2e4 d7d5 e4e5 f7f5 e1e2 e8f7", 0x00fdd303c946bdd9),
        ("a2a4 b7b5 h2h4 b5b4 c2c4", 0x3c8123ea7b067637),
        ("a2a4 b7b5 h2h4 b5b4 c2c4 b4c3 a1a3", 0x5c3f9b829b279560),
    ];
    for (moves, key) in cases {
        assert_eq!(play(moves).key(), key, "after {moves:?}");
    }
}

/// A Polyglot book: 16-byte big-endian entries (key, move, weight, learn), sorted by key.
struct Book(Vec<u8>);

impl Book {
    fn load(root: &Path, name: &str) -> Book {
        Book(common::read_data(root, &format!("books/{name}")))
    }

    fn key_at(&self, i: usize) -> u64 {
        u64::from_be_bytes(self.0[16 * i..16 * i + 8].try_into().unwrap())
    }

    /// The raw Polyglot moves stored for `key`.
    fn moves(&self, key: u64) -> Vec<u16> {
        let n = self.0.len() / 16;
        let first = (0..n).collect::<Vec<_>>().partition_point(|&i| self.key_at(i) < key);
        (first..n)
            .take_while(|&i| self.key_at(i) == key)
            .map(|i| u16::from_be_bytes([self.0[16 * i + 8], self.0[16 * i + 9]]))
            .collect()
    }
}

/// A Polyglot move in UCI (castling is king-takes-rook, which `parse_uci` accepts).
fn polyglot_uci(m: u16) -> String {
    let sq = |file: u16, rank: u16| format!("{}{}", (b'a' + file as u8) as char, rank + 1);
    let promo = ["", "n", "b", "r", "q"]
        .get((m >> 12 & 7) as usize)
        .copied()
        .unwrap_or("?");
    format!("{}{}{promo}", sq(m >> 6 & 7, m >> 9 & 7), sq(m & 7, m >> 3 & 7))
}

/// Walks the book from the start position: the first three moves of each position found, ten
/// plies deep. The bundled book holds the entries of the positions this walk visits (cut by
/// `scripts/make_testdata.py` with python-chess's keys), so it finds what the whole book finds.
fn keys_find_entries_of(root: &Path) {
    let book = Book::load(root, "python-chess_performance.bin");
    let (mut visited, mut found) = (0, 0);
    let mut stack = vec![(Position::startpos(), 0)];
    while let Some((pos, depth)) = stack.pop() {
        visited += 1;
        let moves = book.moves(pos.key());
        if moves.is_empty() {
            continue;
        }
        found += 1;
        let mut legal = MoveList::new();
        pos.legal_moves_into(&mut legal);
        for &raw in moves.iter().take(3) {
            let m = parse_uci(&pos, &polyglot_uci(raw)).unwrap_or_else(|e| panic!("book move in {pos:?}: {e}"));
            if depth < 10 {
                let mut child = pos.clone();
                child.play_unchecked(m);
                stack.push((child, depth + 1));
            }
        }
    }
    // With wrong keys almost nothing would be found. Some deep lines leave the book: python-chess's
    // `zobrist_hash` finds the same 619 of 700 on this walk.
    assert_eq!((found, visited), (619, 700));
}

#[test]
fn keys_find_book_entries() {
    keys_find_entries_of(&testdata_path());
}

#[test]
#[ignore = "needs ../shared/data (see testdata/README.md); run: cargo test --workspace -- --ignored shared_data_"]
fn shared_data_keys_find_book_entries() {
    keys_find_entries_of(&shared_path());
}
