//! Polyglot opening books: reading `.bin` files and probing them by position.
//!
//! A Polyglot book is a sequence of 16-byte big-endian entries sorted by key:
//!
//! ```text
//!  0        8      10       12        16
//! +--------+------+--------+---------+
//! |  key   | move | weight |  learn  |
//! +--------+------+--------+---------+
//! ```
//!
//! The key is the Polyglot Zobrist key, which is [`Position::key`]. The move packs the target
//! file (bits 0–2) and rank (3–5), the origin file (6–8) and rank (9–11), and a promotion
//! (12–14: 0 none, 1 knight … 4 queen); castles are written king-takes-rook (`e1h1`), as our
//! [`Move`] stores them. Entries read here equal those of python-chess's `chess.polyglot`.
//!
//! ```
//! use chessbits::book::{Book, BookEntry};
//! use chessbits::position::Position;
//! let pos = Position::startpos();
//! // One entry: 1. e4 with weight 10 (e2 = file 4 rank 1, e4 = file 4 rank 3).
//! let raw: u16 = (1 << 9) | (4 << 6) | (3 << 3) | 4;
//! let mut bytes = pos.key().to_be_bytes().to_vec();
//! bytes.extend(raw.to_be_bytes());
//! bytes.extend(10u16.to_be_bytes());
//! bytes.extend(0u32.to_be_bytes());
//! let book = Book::from_bytes(&bytes).unwrap();
//! let moves = book.moves(&pos);
//! assert_eq!(moves[0].0.to_string(), "e2e4");
//! assert_eq!(book.best_move(&pos).unwrap().to_string(), "e2e4");
//! ```

use core::fmt;
use std::path::Path;

use crate::moves::Move;
use crate::moves::MoveList;
use crate::position::Position;
use crate::types::Role;

/// One book entry as stored.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct BookEntry {
    /// The Polyglot key of the position.
    pub key: u64,
    /// The Polyglot move code (see the [module docs](self)).
    pub raw_move: u16,
    /// The weight; larger is more often played.
    pub weight: u16,
    /// The learn field (unused by most books).
    pub learn: u32,
}

impl BookEntry {
    /// The entry's move in `pos`, if it is legal there.
    pub fn to_move(&self, pos: &Position) -> Option<Move> {
        decode_move(pos, self.raw_move)
    }
}

/// A book file whose length is not a multiple of 16 bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BookError {
    /// The byte length read.
    pub len: usize,
}

impl fmt::Display for BookError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "a Polyglot book holds 16-byte entries; {} bytes is not a multiple",
            self.len
        )
    }
}

impl std::error::Error for BookError {}

/// The legal move of `pos` that the Polyglot code `raw` denotes.
///
/// ```
/// use chessbits::book::decode_move;
/// use chessbits::position::Position;
/// let pos = Position::from_fen("4k3/8/8/8/8/8/8/4K2R w K - 0 1").unwrap();
/// // e1h1: castling king side, king takes rook.
/// let raw = (4 << 6) | 7;
/// assert!(decode_move(&pos, raw).unwrap().is_castle());
/// ```
pub fn decode_move(pos: &Position, raw: u16) -> Option<Move> {
    let to = (raw & 0x3f) as usize;
    let from = ((raw >> 6) & 0x3f) as usize;
    let promotion = match (raw >> 12) & 7 {
        0 => None,
        1 => Some(Role::Knight),
        2 => Some(Role::Bishop),
        3 => Some(Role::Rook),
        4 => Some(Role::Queen),
        _ => return None,
    };
    let mut list = MoveList::new();
    pos.legal_moves_into(&mut list);
    list.iter()
        .copied()
        .find(|m| m.from().index() == from && m.to().index() == to && m.promotion() == promotion)
}

/// A Polyglot book held in memory.
#[derive(Clone, Debug, Default)]
pub struct Book {
    entries: Vec<BookEntry>,
}

impl Book {
    /// Parses the bytes of a `.bin` file.
    pub fn from_bytes(bytes: &[u8]) -> Result<Book, BookError> {
        if bytes.len() % 16 != 0 {
            return Err(BookError { len: bytes.len() });
        }
        let mut entries: Vec<BookEntry> = bytes
            .chunks_exact(16)
            .map(|c| {
                let word = |r: core::ops::Range<usize>| c[r].iter().fold(0u64, |acc, &b| acc << 8 | b as u64);
                BookEntry {
                    key: word(0..8),
                    raw_move: word(8..10) as u16,
                    weight: word(10..12) as u16,
                    learn: word(12..16) as u32,
                }
            })
            .collect();
        // Books are sorted by key; a stable sort keeps the file's order within a key and makes
        // an unsorted file probe correctly too.
        entries.sort_by_key(|e| e.key);
        Ok(Book { entries })
    }

    /// Reads a `.bin` file.
    pub fn open(path: impl AsRef<Path>) -> std::io::Result<Book> {
        let bytes = std::fs::read(path)?;
        Book::from_bytes(&bytes).map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidData, e))
    }

    /// All entries, sorted by key.
    pub fn entries(&self) -> &[BookEntry] {
        &self.entries
    }

    /// The entries for `key`, in file order.
    pub fn entries_for(&self, key: u64) -> &[BookEntry] {
        let start = self.entries.partition_point(|e| e.key < key);
        let end = self.entries.partition_point(|e| e.key <= key);
        &self.entries[start..end]
    }

    /// The legal book moves of `pos` with their weights, in file order (entries whose move is
    /// not legal here, from a key collision, are skipped).
    pub fn moves(&self, pos: &Position) -> Vec<(Move, u16)> {
        self.entries_for(pos.key())
            .iter()
            .filter_map(|e| e.to_move(pos).map(|m| (m, e.weight)))
            .collect()
    }

    /// The book move of largest weight (the first one on ties).
    pub fn best_move(&self, pos: &Position) -> Option<Move> {
        let moves = self.moves(pos);
        let max = moves.iter().map(|&(_, w)| w).max()?;
        moves.iter().find(|&&(_, w)| w == max).map(|&(m, _)| m)
    }

    /// A book move chosen with probability proportional to its weight, by `seed` (any 64-bit
    /// number: equal seeds choose equally). With all weights 0, the first move.
    pub fn weighted_move(&self, pos: &Position, seed: u64) -> Option<Move> {
        let moves = self.moves(pos);
        let total: u64 = moves.iter().map(|&(_, w)| w as u64).sum();
        if total == 0 {
            return moves.first().map(|&(m, _)| m);
        }
        // SplitMix64 spreads nearby seeds.
        let mut z = seed.wrapping_add(0x9e37_79b9_7f4a_7c15);
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        let mut pick = (z ^ (z >> 31)) % total;
        for &(m, w) in &moves {
            if pick < w as u64 {
                return Some(m);
            }
            pick -= w as u64;
        }
        moves.last().map(|&(m, _)| m)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(key: u64, raw: u16, weight: u16) -> Vec<u8> {
        let mut b = key.to_be_bytes().to_vec();
        b.extend(raw.to_be_bytes());
        b.extend(weight.to_be_bytes());
        b.extend(7u32.to_be_bytes());
        b
    }

    #[test]
    fn probes_weights_and_rejects_bad_lengths() {
        let pos = Position::startpos();
        let e4: u16 = (1 << 9) | (4 << 6) | (3 << 3) | 4;
        let d4: u16 = (1 << 9) | (3 << 6) | (3 << 3) | 3;
        let illegal: u16 = (4 << 6) | 4; // e1e1
        let mut bytes = entry(1, e4, 5);
        bytes.extend(entry(pos.key(), e4, 10));
        bytes.extend(entry(pos.key(), d4, 30));
        bytes.extend(entry(pos.key(), illegal, 99));
        bytes.extend(entry(u64::MAX, d4, 1));
        let book = Book::from_bytes(&bytes).unwrap();
        assert_eq!(book.entries().len(), 5);
        assert_eq!(book.entries_for(pos.key()).len(), 3);
        assert_eq!(book.entries_for(pos.key())[0].learn, 7);
        let moves: Vec<String> = book.moves(&pos).iter().map(|(m, _)| m.to_string()).collect();
        assert_eq!(moves, ["e2e4", "d2d4"]);
        assert_eq!(book.best_move(&pos).unwrap().to_string(), "d2d4");
        let mut counts = [0; 2];
        for seed in 0..4000 {
            let m = book.weighted_move(&pos, seed).unwrap().to_string();
            counts[(m == "d2d4") as usize] += 1;
        }
        assert!(counts[1] > counts[0] * 2, "{counts:?}");
        assert!(Book::from_bytes(&bytes[..17]).is_err());
        assert!(Book::default().best_move(&pos).is_none());
    }
}
