//! Move codes on real positions: the perft suites (standard, tricky, random and Chess960
//! positions; bundled in `testdata/perft/`, whole in `../shared/data/perft/` for the
//! `shared_data_` tests) and random playouts from them.
//!
//! For every legal move of every position, each code must decode back to the move; codes of
//! different moves must differ; the entropy coder's symbol of the move is the same whether the
//! moves are scored from the list or set by set. On a subset of positions every possible code is decoded: the
//! moves that decode successfully must be exactly the legal moves, each from one code only —
//! so the codes are complete (every legal move has one) and sound (nothing else decodes).

use crate::common;

use std::collections::{HashMap, HashSet};
use std::path::Path;

use chessbits::codec::bits::{BitReader, BitWriter};
use chessbits::codec::moves::entropy::model::MoveModel;
use chessbits::codec::moves::enumeration::{self, EnumeratedMove, CODE_COUNT};
use chessbits::codec::moves::index::{self, bits_for, MoveListKind};
use chessbits::codec::moves::per_square::{self, PerSquareCode};
use chessbits::codec::moves::{direction_target, MoveCodeError};
use chessbits::lists::{MoveList, MAX_MOVES};
use chessbits::moves::Move;
use chessbits::position::Position;
use common::{shared_path, testdata_path};

const MAX_LEGALS: &str = "kBQQQQQQ/BR5Q/Q6Q/Q6Q/Q6Q/Q6Q/Q6Q/KQQQQQQQ w - - 0 1";

fn suite(root: &Path, name: &str) -> Vec<Position> {
    common::perft_suite(root, name)
        .iter()
        .map(|case| common::composed_position(&case.fen))
        .collect()
}

fn legal(pos: &Position) -> MoveList {
    let mut list = MoveList::new();
    pos.legal_moves_into(&mut list);
    list
}

/// Every codec round-trips every legal move of `pos`, with distinct codes per move.
fn check_all_codecs(pos: &Position) {
    let moves = legal(pos);
    let mut pseudo = MoveList::new();
    pos.pseudo_legal_moves_into(&mut pseudo);
    let mut enum_codes = HashSet::new();
    let mut per_square_codes = HashSet::new();
    let mut direction_codes = HashSet::new();
    let fits = per_square::fits_in_byte(pos);
    let (mut listed, mut by_sets) = (MoveModel::new(), MoveModel::new());
    for (index, &m) in moves.iter().enumerate() {
        let ctx = || format!("{} in {}", m.uci(true), pos.fen());

        // The entropy coder's symbol, from the moves scored set by set and from the list.
        assert_eq!(
            by_sets.symbol_of(pos, m),
            listed.symbol(pos, &moves, index),
            "{}",
            ctx()
        );

        let e = EnumeratedMove::from_position_move(pos, m).unwrap_or_else(|err| panic!("{err}: {}", ctx()));
        assert_eq!(EnumeratedMove::decode(e.encode()), Ok(e), "{}", ctx());
        assert_eq!(e.to_move(pos), Ok(m), "{}", ctx());
        assert_eq!(e.color(), pos.turn());
        assert_eq!(e.castling_side(), m.castling_side());
        assert!(enum_codes.insert(e.encode()), "duplicate enumeration code: {}", ctx());

        let code = per_square::encode(pos, m).unwrap_or_else(|err| panic!("{err}: {}", ctx()));
        match code {
            PerSquareCode::Byte(b) => assert!(fits && u32::from(b) < per_square::total_bound(pos), "{}", ctx()),
            PerSquareCode::Wide(w) => assert!(!fits && w == m.bits(), "{}", ctx()),
        }
        assert_eq!(per_square::decode(pos, code), Ok(m), "{}", ctx());
        assert!(per_square_codes.insert(code), "duplicate per-square code: {}", ctx());

        let code = direction_target::encode(pos, m).unwrap_or_else(|err| panic!("{err}: {}", ctx()));
        assert!(code < direction_target::CODE_LIMIT);
        assert_eq!(direction_target::decode(pos, code), Ok(m), "{}", ctx());
        assert!(
            direction_codes.insert(code),
            "duplicate direction-target code: {}",
            ctx()
        );

        let mut bytes = Vec::new();
        index::write_byte_index(pos, m, &mut bytes).unwrap();
        assert_eq!(
            bytes.len() == 1,
            moves.len() <= 256 || index::index_of(pos, MoveListKind::Legal, m).unwrap() < 255
        );
        assert_eq!(index::read_byte_index(pos, &bytes), Ok((m, bytes.len())), "{}", ctx());

        for (set, n) in [
            (MoveListKind::Legal, moves.len()),
            (MoveListKind::PseudoLegal, pseudo.len()),
        ] {
            let mut w = BitWriter::new();
            assert_eq!(index::write_bit_index(pos, set, m, &mut w), Ok(bits_for(n)));
            assert_eq!(w.bit_len(), u64::from(bits_for(n)));
            let bytes = w.finish();
            assert_eq!(
                index::read_bit_index(pos, set, &mut BitReader::new(&bytes)),
                Ok(m),
                "{}",
                ctx()
            );
        }
    }
}

/// Decodes every code of every scheme in `pos`: what decodes must be the legal moves, each once.
fn check_every_code(pos: &Position) {
    let expected: HashSet<Move> = legal(pos).iter().copied().collect();
    let tally = |decoded: Vec<Move>, scheme: &str| {
        let mut counts: HashMap<Move, usize> = HashMap::new();
        for m in decoded {
            *counts.entry(m).or_default() += 1;
        }
        assert!(
            counts.values().all(|&n| n == 1),
            "{scheme}: a move with two codes in {}",
            pos.fen()
        );
        let got: HashSet<Move> = counts.into_keys().collect();
        assert_eq!(got, expected, "{scheme} in {}", pos.fen());
    };
    tally(
        (0..=u16::MAX)
            .filter_map(|c| enumeration::decode_move(pos, c).ok())
            .collect(),
        "enumeration",
    );
    tally(
        (0..=u16::MAX)
            .filter_map(|c| direction_target::decode(pos, c).ok())
            .collect(),
        "direction-target",
    );
    let per_square: Vec<Move> = if per_square::fits_in_byte(pos) {
        (0..=u8::MAX)
            .filter_map(|b| per_square::decode(pos, PerSquareCode::Byte(b)).ok())
            .collect()
    } else {
        (0..=u16::MAX)
            .filter_map(|w| per_square::decode(pos, PerSquareCode::Wide(w)).ok())
            .collect()
    };
    tally(per_square, "per-square");
    for set in [MoveListKind::Legal, MoveListKind::PseudoLegal] {
        tally(
            (0..MAX_MOVES)
                .filter_map(|i| index::move_at(pos, set, i).ok())
                .collect(),
            "index",
        );
    }
}

/// A small deterministic generator for playouts.
struct XorShift(u64);

impl XorShift {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

/// Plays `plies` random legal moves from `start`, checking every position on the way.
fn playout(start: &Position, plies: usize, rng: &mut XorShift, check: impl Fn(&Position)) {
    let mut pos = start.clone();
    for _ in 0..plies {
        check(&pos);
        let moves = legal(&pos);
        if moves.is_empty() {
            break;
        }
        let m = moves[(rng.next() % moves.len() as u64) as usize];
        pos.play_unchecked(m);
    }
}

/// Returns the number of positions.
fn suites_round_trip(root: &Path) -> usize {
    let mut positions = 0;
    for name in [
        "shakmaty_tricky.perft",
        "ethereal_standard.epd",
        "ethereal_fischer.epd",
        "shakmaty_random.perft",
    ] {
        for pos in suite(root, name) {
            check_all_codecs(&pos);
            positions += 1;
        }
    }
    positions
}

#[test]
fn suites_round_trip_every_legal_move() {
    // The bundled files' positions: 26 + 128 + 100 + 300 (`grep -c '^id '` for the .perft files,
    // `grep -c ';D'` for the .epd files).
    assert_eq!(suites_round_trip(&testdata_path()), 554);
}

#[test]
#[ignore = "needs ../shared/data (see testdata/README.md); run: cargo test --workspace -- --ignored shared_data_"]
fn shared_data_suites_round_trip_every_legal_move() {
    let positions = suites_round_trip(&shared_path());
    assert!(positions > 7_000, "{positions}");
}

fn playouts_round_trip(root: &Path) {
    let mut rng = XorShift(0x9e37_79b9_7f4a_7c15);
    let starts: Vec<Position> = ["shakmaty_tricky.perft", "ethereal_standard.epd", "ethereal_fischer.epd"]
        .iter()
        .flat_map(|name| suite(root, name))
        .collect();
    for start in &starts {
        playout(start, 60, &mut rng, check_all_codecs);
    }
}

#[test]
fn playouts_round_trip_every_legal_move() {
    playouts_round_trip(&testdata_path());
}

#[test]
#[ignore = "needs ../shared/data (see testdata/README.md); run: cargo test --workspace -- --ignored shared_data_"]
fn shared_data_playouts_round_trip_every_legal_move() {
    playouts_round_trip(&shared_path());
}

/// Every code decoded from a sample of the suites: every `fischer_step`-th Chess960 position and
/// every `random_step`-th random one (the full suites are 10 and 23 times the bundled ones).
fn every_code_decodes(root: &Path, fischer_step: usize, random_step: usize) {
    let mut rng = XorShift(0x2545_f491_4f6c_dd1d);
    let mut starts = suite(root, "shakmaty_tricky.perft");
    starts.extend(suite(root, "ethereal_fischer.epd").into_iter().step_by(fischer_step));
    starts.extend(suite(root, "shakmaty_random.perft").into_iter().step_by(random_step));
    for start in &starts {
        playout(start, 6, &mut rng, check_every_code);
    }
}

#[test]
fn every_code_decodes_to_exactly_the_legal_moves() {
    every_code_decodes(&testdata_path(), 8, 20);
}

#[test]
#[ignore = "needs ../shared/data (see testdata/README.md); run: cargo test --workspace -- --ignored shared_data_"]
fn shared_data_every_code_decodes_to_exactly_the_legal_moves() {
    every_code_decodes(&shared_path(), 64, 400);
}

#[test]
fn the_270_move_position_uses_the_fallbacks() {
    let pos = common::composed_position(MAX_LEGALS);
    let moves = legal(&pos);
    assert_eq!(moves.len(), 270);
    assert!(per_square::total_bound(&pos) > 256);
    check_all_codecs(&pos);
    check_every_code(&pos);
    // Per-square: two bytes, the 16-bit move.
    let mut bytes = Vec::new();
    for &m in moves.iter() {
        bytes.clear();
        per_square::write(&pos, m, &mut bytes).unwrap();
        assert_eq!(bytes, m.bits().to_be_bytes());
        assert_eq!(per_square::read(&pos, &bytes), Ok((m, 2)));
    }
    assert!(matches!(
        per_square::decode(&pos, PerSquareCode::Byte(0)),
        Err(MoveCodeError::CodeOutOfRange { .. })
    ));
    // Index byte: escape 255 for the last 15 moves.
    let escaped = moves
        .iter()
        .filter(|&&m| {
            let mut out = Vec::new();
            index::write_byte_index(&pos, m, &mut out).unwrap();
            out.len() == 2 && out[0] == 255
        })
        .count();
    assert_eq!(escaped, 270 - 255);
    assert_eq!(
        index::read_byte_index(&pos, &[255, 15]),
        Err(MoveCodeError::IndexOutOfRange { index: 270, len: 270 })
    );
    assert_eq!(index::read_byte_index(&pos, &[255]), Err(MoveCodeError::UnexpectedEnd));
}

#[test]
fn queens_decide_between_one_and_two_bytes() {
    // Four queens and five pawns, no castling: 5*12 + 2*8 + 2*13 + 2*14 + 4*27 + 8 = 246.
    let four_queens = common::composed_position("4k3/8/8/8/8/QQQQ4/PPPPP3/RNBNBRK1 w - - 0 1");
    assert_eq!(per_square::total_bound(&four_queens), 246);
    // All eight pawns promoted, four queens and seven rooks: the seed's f(3) = 217 + 13 * 3 = 256,
    // the largest one-byte bound.
    let at_limit = common::composed_position("7k/8/8/8/8/RRRRRRR1/QQQQ4/1NBNB1K1 w - - 0 1");
    assert_eq!(per_square::total_bound(&at_limit), 256);
    // One rook more a queen: 269, two bytes.
    let over = common::composed_position("7k/8/8/8/8/RRRRRR2/QQQQQ3/1NBNB1K1 w - - 0 1");
    assert_eq!(per_square::total_bound(&over), 256 - 14 + 27);
    // Castling rights count the king's two castles: the same army as `four_queens` plus two.
    let castling = common::composed_position("4k3/8/8/8/8/QQQQ4/PPPPP3/RNBNBK1R w K - 0 1");
    assert_eq!(per_square::total_bound(&castling), 246 + 2);
    assert!(per_square::fits_in_byte(&four_queens) && per_square::fits_in_byte(&at_limit));
    assert!(!per_square::fits_in_byte(&over));
    for pos in [four_queens, at_limit, over, castling] {
        check_all_codecs(&pos);
        check_every_code(&pos);
        let wide = !per_square::fits_in_byte(&pos);
        for &m in legal(&pos).iter() {
            let code = per_square::encode(&pos, m).unwrap();
            assert_eq!(matches!(code, PerSquareCode::Wide(_)), wide);
        }
    }
}

fn chess960_castles(root: &Path) {
    let mut castles = 0;
    let mut rng = XorShift(7);
    let starts = suite(root, "ethereal_fischer.epd");
    for start in &starts {
        let mut pos = start.clone();
        for _ in 0..12 {
            let moves = legal(&pos);
            for &m in moves.iter().filter(|m| m.is_castle()) {
                let e = EnumeratedMove::from_position_move(&pos, m).unwrap();
                let side = m.castling_side().unwrap();
                assert_eq!(e, EnumeratedMove::castle(pos.turn(), side));
                assert_eq!(e.to_move(&pos), Ok(m));
                castles += 1;
            }
            if moves.is_empty() {
                break;
            }
            pos.play_unchecked(moves[(rng.next() % moves.len() as u64) as usize]);
        }
    }
    // More than one castle per ten starts (the full suite: 960 starts, over 100 castles).
    assert!(castles * 10 > starts.len(), "{castles}");
    // Without the right, the castle code is an illegal move.
    let pos = Position::from_fen("4k3/8/8/8/8/8/8/R3K2R w - - 0 1").unwrap();
    let castle = EnumeratedMove::castle(chessbits::types::Color::White, chessbits::types::CastlingSide::KingSide);
    assert!(matches!(castle.to_move(&pos), Err(MoveCodeError::IllegalMove(_))));
    assert!(castle.encode() < CODE_COUNT);
}

#[test]
fn chess960_castles_map_onto_the_two_castle_codes() {
    chess960_castles(&testdata_path());
}

#[test]
#[ignore = "needs ../shared/data (see testdata/README.md); run: cargo test --workspace -- --ignored shared_data_"]
fn shared_data_chess960_castles_map_onto_the_two_castle_codes() {
    chess960_castles(&shared_path());
}
