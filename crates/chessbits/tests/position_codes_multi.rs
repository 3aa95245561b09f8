//! The Huffman multi-table code: every position of real games, every category, constructed
//! worst cases, Chess960 through the fallback form, and garbage input.

use crate::common;

use std::path::Path;

use chessbits::codec::position::{huffman, huffman_multi, PositionCodeError};
use chessbits::position::{Position, Setup};
use chessbits::types::{CastlingRights, Color, Piece, Role, Square};
use common::{file_setups, setup, shared_path, testdata_path, PGN_FILES};
use proptest::prelude::*;

/// The documented bound for positions reachable from the standard start (clock below 127).
const BOUND: u64 = 203;
/// The documented bound of the fallback form for Chess960 positions.
const FALLBACK_BOUND: u64 = 227;

fn without_fullmove(setup: &Setup) -> Setup {
    Setup {
        fullmove_number: 1,
        ..setup.clone()
    }
}

fn round_trip(s: &Setup) -> u64 {
    let bytes = huffman_multi::encode(s).unwrap_or_else(|e| panic!("{e} for {s:?}"));
    assert_eq!(huffman_multi::decode(&bytes), Ok(without_fullmove(s)));
    let bits = huffman_multi::encoded_bits(s).unwrap();
    assert!(bits < 8 * bytes.len() as u64 && 8 * bytes.len() as u64 <= bits + 8);
    bits
}

/// Every position of every game of `root` round-trips within the bound; prints the average bits
/// next to the plain Huffman code's (`--nocapture` to see them). Returns the positions of the
/// lichess and the master games.
fn every_game_position_round_trips(root: &Path) -> [u64; 2] {
    let mut counts = [0; 2];
    for group in [true, false] {
        let (mut positions, mut multi_bits, mut plain_bits, mut worst) = (0u64, 0u64, 0u64, 0u64);
        for (name, lichess) in PGN_FILES {
            if lichess != group {
                continue;
            }
            for s in file_setups(root, name, usize::MAX).iter().flatten() {
                let bits = round_trip(s);
                if s.halfmove_clock < 127 {
                    assert!(bits <= BOUND, "{bits} bits for {s:?}");
                }
                positions += 1;
                multi_bits += bits;
                plain_bits += huffman::encoded_bits(s).unwrap();
                worst = worst.max(bits);
            }
        }
        counts[usize::from(!group)] = positions;
        let n = positions as f64;
        println!(
            "{}: {positions} positions, huffman-multi avg {:.2} bits (max {worst}), huffman avg {:.2} bits",
            if group { "lichess" } else { "masters" },
            multi_bits as f64 / n,
            plain_bits as f64 / n,
        );
        // The categories pay off on real games.
        assert!(multi_bits < plain_bits);
    }
    counts
}

#[test]
fn every_game_position_round_trips_within_the_bound() {
    // Start positions and plies of the bundled games (python-chess 1.11.2, as in
    // `move_codes_games.rs`): lichess 120 + 7,567; masters 300 + 9,208 + 8,619 + 7,779.
    assert_eq!(
        every_game_position_round_trips(&testdata_path()),
        [120 + 7_567, 300 + 9_208 + 8_619 + 7_779]
    );
}

#[test]
#[ignore = "needs ../shared/data (see testdata/README.md); run: cargo test --workspace -- --ignored shared_data_"]
fn shared_data_every_game_position_round_trips_within_the_bound() {
    let counts = every_game_position_round_trips(&shared_path());
    assert!(counts.iter().all(|&n| n > 20_000), "only {counts:?} positions");
}

/// The start position with each of the 81 categories (home rooks removed, kept without or with
/// their right), either side to move.
#[test]
fn every_category_round_trips_and_saves_what_it_implies() {
    let homes = [Square::A1, Square::H1, Square::A8, Square::H8];
    for category in 0..81u32 {
        let mut s = Setup::standard();
        s.castling = CastlingRights::NONE;
        let mut rooks_home = 0;
        for (i, &sq) in homes.iter().enumerate() {
            match category / 3u32.pow(i as u32) % 3 {
                0 => {
                    s.board.take(sq);
                }
                1 => rooks_home += 1,
                _ => {
                    rooks_home += 1;
                    s.castling = s.castling.with_square(sq);
                }
            }
        }
        for turn in [Color::White, Color::Black] {
            s.turn = turn;
            let bits = round_trip(&s);
            let plain = huffman::encoded_bits(&s).unwrap();
            // Each rook at home saves its 5 bits and the plain code's castling bit for it; the
            // category costs 1 or 8 bits; an implied king saves 6 more and a queen bit.
            let kings = Color::ALL.into_iter().filter(|&c| s.castling.has_color(c)).count() as u64;
            assert!(bits + 6 * rooks_home + 7 * kings <= plain + if category == 0 { 1 } else { 8 });
        }
    }
}

#[test]
fn start_position_saves_the_seeds_38_bits_less_the_category() {
    let start = Setup::standard();
    assert_eq!(huffman::encoded_bits(&start), Ok(176));
    // The seed: four rooks, two kings, two queen bits and the four castling bits: 38 bits; the
    // category takes 8 of them back.
    assert_eq!(huffman_multi::encoded_bits(&start), Ok(176 - 38 + 8));
}

#[test]
fn constructed_worst_case_takes_exactly_the_bound() {
    // Twelve queens promoted (the Huffman worst case), one rook at home without its right, the
    // other rooks off their home squares, h8 occupied by a queen so no square is left off.
    let worst = setup("1nbqkbnq/qqqqqrr1/8/8/8/8/QQQQQQR1/RNBQKBN1 w - - 0 1");
    assert_eq!(round_trip(&worst), BOUND);
    // With all four rooks away and no category the code is shorter: 8 + 1 + 192.
    let none_home = setup("1nbqkbnq/qqqqqrr1/8/8/8/8/QQQQQQRR/1NBQKBN1 w - - 0 1");
    assert_eq!(round_trip(&none_home), 201);
    // En passant possible: 14 promotions at most, both the field and the category.
    let ep = setup("rnbqkbnr/qqq1p3/8/3pP3/8/8/QQQQ1P2/RNBQKBNR w - d6 0 1");
    assert_eq!(ep.ep_square, Some(Square::D6));
    assert!(round_trip(&ep) <= 201);
}

#[test]
fn chess960_and_odd_setups_take_the_fallback_form() {
    // Chess960 rights: the kings are not on e1/e8.
    for fen in [
        "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
        "rk2r3/8/8/8/8/8/8/RK2R3 b AEae - 0 1",
        "1r2k1r1/8/8/8/8/8/8/1R2K1R1 w GBgb - 0 1",
    ] {
        let s = setup(fen);
        let bytes = huffman_multi::encode(&s).unwrap();
        // Turn and clock fill the first byte; then the category escape, 1 and the value 80.
        assert_eq!(bytes[1], 0b1000_0000 | 80, "{fen}");
        assert!(round_trip(&s) <= FALLBACK_BOUND);
    }
    // Two white kings beside castling rights: the implied king would hide the second one.
    let mut s = Setup::standard();
    s.board.put(Square::E4, Piece::new(Color::White, Role::King));
    round_trip(&s);
    // A right without a rook (a queen on d1) is refused.
    let mut s = Setup::standard();
    s.castling = CastlingRights::NONE.with_square(Square::D1);
    assert!(matches!(
        huffman_multi::encode(&s),
        Err(PositionCodeError::Unsupported(_))
    ));
}

/// Random Chess960 games from random start positions: the fallback form round-trips within its
/// bound, and positions without rights use a category.
fn chess960_game(seed: u64, plies: usize) -> Vec<Setup> {
    let mut rng = common::Rng::new(seed);
    let mut next = || rng.next();
    // Bishops on opposite colors, queen, knights, then rook-king-rook in the free files.
    let mut files: Vec<usize> = (0..8).collect();
    let mut back = ['.'; 8];
    let dark = 2 * (next() % 4) as usize;
    let light = 2 * (next() % 4) as usize + 1;
    back[dark] = 'b';
    back[light] = 'b';
    files.retain(|&f| f != dark && f != light);
    for piece in ['q', 'n', 'n'] {
        let f = files.remove(next() as usize % files.len());
        back[f] = piece;
    }
    let mut rights = String::new();
    for (&f, piece) in files.iter().zip(['r', 'k', 'r']) {
        back[f] = piece;
        if piece == 'r' {
            rights.push(char::from(b'a' + f as u8));
        }
    }
    let black: String = back.iter().collect();
    let white = black.to_uppercase();
    let fen = format!(
        "{black}/pppppppp/8/8/8/8/PPPPPPPP/{white} w {}{rights} - 0 1",
        rights.to_uppercase()
    );
    let start = Position::from_fen(&fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    common::random_setups(&start, next(), plies, false)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn chess960_games_round_trip(seed in any::<u64>()) {
        for s in chess960_game(seed, 200) {
            let bits = round_trip(&s);
            if s.halfmove_clock < 127 {
                prop_assert!(bits <= FALLBACK_BOUND, "{} bits for {:?}", bits, s);
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2048, ..ProptestConfig::default() })]

    /// Garbage never panics, and whatever decodes is exactly what the encoder writes.
    #[test]
    fn garbage_is_refused_or_canonical(bytes in prop::collection::vec(any::<u8>(), 0..40)) {
        if let Ok(s) = huffman_multi::decode(&bytes) {
            prop_assert_eq!(huffman_multi::encode(&s), Ok(bytes.clone()));
        }
    }

    /// Garbage behind a valid header (a category code, then random board bits).
    #[test]
    fn garbage_boards_are_refused_or_canonical(category in 0..128u8, board in prop::collection::vec(any::<u8>(), 0..30)) {
        let mut bytes = vec![0, 0x80 | category];
        bytes.extend(board);
        if let Ok(s) = huffman_multi::decode(&bytes) {
            prop_assert_eq!(huffman_multi::encode(&s), Ok(bytes.clone()));
        }
    }
}
