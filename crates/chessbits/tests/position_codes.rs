//! The five position codes on chosen positions, constructed worst cases, random setups, random
//! games and bad input.

use crate::common;

use chessbits::codec::position::{
    self, compact, huffman, huffman_multi, huffman_tuned, stream, PositionCodeError, PositionCodec,
};
use chessbits::notation::fen::parse_board;
use chessbits::position::{Board, Position, Setup};
use chessbits::types::{Bitboard, CastlingRights, Color, Piece, Role, Square};
use common::setup;
use proptest::prelude::*;

fn without_fullmove(setup: &Setup) -> Setup {
    Setup {
        fullmove_number: 1,
        ..setup.clone()
    }
}

/// Encodes and decodes with every code, which must all accept the setup.
fn round_trip_all(setup: &Setup) {
    for codec in position::all() {
        let bytes = codec
            .encode(setup)
            .unwrap_or_else(|e| panic!("{}: {e} for {setup:?}", codec.name()));
        assert_eq!(codec.decode(&bytes), Ok(without_fullmove(setup)), "{}", codec.name());
        let bits = codec.encoded_bits(setup).unwrap();
        assert!(
            bits <= 8 * bytes.len() as u64 && 8 * bytes.len() as u64 <= bits + 8,
            "{}",
            codec.name()
        );
    }
}

const FENS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
    "rnbqkbnr/pp1ppppp/8/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2",
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "r3k2r/8/8/8/3pPp2/8/8/R3K1R1 b Qkq e3 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "4k3/8/8/8/8/8/8/4K2R w K - 0 1",
    "4k3/8/8/8/8/8/8/4K3 b - - 75 120",
    "7k/8/8/8/8/8/8/K7 w - - 150 200",
    "8/8/8/8/8/8/6k1/4K2R b K - 3 30",
    "1Q2Q3/8/8/3k4/8/8/8/K1Q4Q b - - 0 80",
    "rnbqkbnr/ppp1pppp/8/8/3pP3/2P5/PP1P1PPP/RNBQKBNR b KQkq e3 0 3",
];

#[test]
fn chosen_positions_round_trip_in_every_code() {
    for fen in FENS {
        round_trip_all(&setup(fen));
    }
}

#[test]
fn the_fullmove_number_is_not_kept_but_large_clocks_are() {
    let mut s = setup(FENS[4]);
    for clock in [0, 99, 100, 101, 126, 127, 1000, u32::MAX] {
        s.halfmove_clock = clock;
        s.fullmove_number = 77;
        for codec in position::all() {
            let decoded = codec.decode(&codec.encode(&s).unwrap()).unwrap();
            assert_eq!(decoded.halfmove_clock, clock, "{}", codec.name());
            assert_eq!(decoded.fullmove_number, 1, "{}", codec.name());
        }
    }
}

#[test]
fn start_position_sizes() {
    let start = Setup::standard();
    // The seed: the stream board takes exactly 18 bytes; two bytes of state follow.
    assert_eq!(stream::encoded_bits(&start), Ok(18 * 8 + 16));
    assert_eq!(stream::encode(&start).unwrap().len(), 20);
    // Huffman: 8 header + 32 empty + 132 piece bits + 4 castling bits.
    assert_eq!(huffman::encoded_bits(&start), Ok(176));
    // Tuned: 24 header bits + 4 count bits, 118 piece bits less 15 implied color bits, one 32-run.
    assert_eq!(huffman_tuned::encoded_bits(&start), Ok(24 + 4 + 118 - 15 + 8));
    // Compact: about half a bit a square, each square holding its most likely piece.
    assert_eq!(compact::encoded_bits(&start), Ok(34));
}

#[test]
fn chess960_rights_only_in_the_compact_and_multi_table_codes() {
    let s = setup("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9");
    assert_eq!(compact::decode(&compact::encode(&s).unwrap()), Ok(without_fullmove(&s)));
    assert_eq!(
        huffman_multi::decode(&huffman_multi::encode(&s).unwrap()),
        Ok(without_fullmove(&s))
    );
    for codec in [
        &position::Stream as &dyn PositionCodec,
        &position::Huffman,
        &position::HuffmanTuned,
    ] {
        assert!(
            matches!(codec.encode(&s), Err(PositionCodeError::Unsupported(_))),
            "{}",
            codec.name()
        );
    }
}

#[test]
fn stream_worst_case_is_alternating_pieces_and_gaps() {
    let mut s = Setup::standard();
    s.board = parse_board("q1q1q1q1/q1q1q1q1/q1q1q1q1/q1q1q1q1/Q1Q1Q1Q1/Q1Q1Q1Q1/Q1Q1Q1Q1/Q1Q1Q1Q1").unwrap();
    s.castling = CastlingRights::NONE;
    assert_eq!(stream::encoded_bits(&s), Ok(32 * 8 + 16));
    // A full board takes one nibble per square too, and nothing takes more.
    s.board = parse_board("qqqqqqqq/qqqqqqqq/qqqqqqqq/qqqqqqqq/QQQQQQQQ/QQQQQQQQ/QQQQQQQQ/QQQQQQQQ").unwrap();
    assert_eq!(stream::encoded_bits(&s), Ok(32 * 8 + 16));
    assert_eq!(stream::decode(&stream::encode(&s).unwrap()), Ok(without_fullmove(&s)));
}

/// Four pawn-takes-pawn captures free the other twelve pawns, which become queens: the most bits a
/// reachable board can take in the Huffman code (see its module documentation), with both sides
/// still able to castle.
const MAX_MATERIAL: &str = "rnbqkbnr/qqqqqq2/8/8/8/8/QQQQQQ2/RNBQKBNR w KQkq - 0 1";

#[test]
fn huffman_reaches_exactly_the_seeds_204_bits() {
    let s = setup(MAX_MATERIAL);
    assert_eq!(huffman::encoded_bits(&s), Ok(204));
    round_trip_all(&s);
    // Three freed pairs of files and an en passant capture possible (both castlings kept).
    let ep = setup("rnbqkbnr/qqq1p3/8/3pP3/8/8/QQQQ1P2/RNBQKBNR w KQkq d6 0 1");
    assert_eq!(ep.ep_square, Some(Square::D6));
    assert!(huffman::encoded_bits(&ep).unwrap() <= 202);
    round_trip_all(&ep);
}

#[test]
fn huffman_tuned_bound_on_maximal_material() {
    let s = setup(MAX_MATERIAL);
    assert!(huffman_tuned::encoded_bits(&s).unwrap() <= 190);
    // Twelve promotions but one: a black pawn is left, so the long codes stay. Kings on a1 and h8;
    // on the 62 other squares pieces alternate in color with gaps of one or two squares up to g8,
    // so neither runs nor the count help: the straightforward size, 24 header bits + 36 empty
    // squares + 25 five-bit pieces + a three-bit pawn.
    use Role::*;
    let white = [
        Rook, Rook, Bishop, Bishop, Knight, Knight, Queen, Queen, Queen, Queen, Queen, Queen, Queen,
    ];
    let black = [
        Rook, Rook, Bishop, Bishop, Knight, Knight, Pawn, Queen, Queen, Queen, Queen, Queen, Queen,
    ];
    let mut worst = Setup::standard();
    worst.castling = CastlingRights::NONE;
    worst.board = Board::empty();
    worst.board.put(Square::A1, Piece::new(Color::White, King));
    worst.board.put(Square::H8, Piece::new(Color::Black, King));
    let squares: Vec<Square> = Square::all()
        .filter(|&sq| sq != Square::A1 && sq != Square::H8)
        .collect();
    let mut at = 0;
    for k in 0..26 {
        let piece = if k % 2 == 0 {
            Piece::new(Color::White, white[k / 2])
        } else {
            Piece::new(Color::Black, black[k / 2])
        };
        worst.board.put(squares[at], piece);
        at += if k < 11 { 3 } else { 2 };
    }
    assert_eq!(worst.board.occupied().count(), 28);
    assert!(worst.board.by_piece(Piece::new(Color::Black, Pawn)).any());
    assert!(worst.board.occupied().contains(Square::G8));
    assert_eq!(huffman_tuned::encoded_bits(&worst), Ok(24 + 36 + 25 * 5 + 3));
    assert_eq!(
        huffman_tuned::decode(&huffman_tuned::encode(&worst).unwrap()),
        Ok(without_fullmove(&worst))
    );
    assert!(huffman_tuned::encode(&worst).unwrap().len() <= 24);
}

#[test]
fn compact_never_exceeds_its_fallback() {
    // Pieces where games never put them: the model is poor, the fallback takes over.
    let mut s = Setup::standard();
    s.castling = CastlingRights::NONE;
    s.board = parse_board("QQQQQQQQ/NNNNNNNK/8/8/8/8/nnnnnnnk/qqqqqqqq").unwrap();
    let bits = compact::encoded_bits(&s).unwrap();
    assert!(bits <= 2 + 64 + 4 * 32 + 7, "{bits}");
    let bytes = compact::encode(&s).unwrap();
    assert_eq!(bytes[0] >> 7, 1, "the fallback form is used");
    assert_eq!(compact::decode(&bytes), Ok(without_fullmove(&s)));
    // A piece on every square, two kings a side, pawns on the back ranks: still codable.
    s.board = parse_board("pppppkkp/PPPPPPPP/QQQQQQQQ/qqqqqqqq/nnnnnnnn/NNNNNNNN/bbbbbbbb/RRKKRRPP").unwrap();
    let bits = compact::encoded_bits(&s).unwrap();
    assert!(bits <= 2 + 64 + 4 * 64 + 7, "{bits}");
    assert_eq!(compact::decode(&compact::encode(&s).unwrap()), Ok(without_fullmove(&s)));
    // Real positions use the modeled form.
    assert_eq!(compact::encode(&setup(FENS[4])).unwrap()[0] >> 7, 0);
}

#[test]
fn unsupported_setups_are_refused_with_a_reason() {
    let mut s = Setup::standard();
    s.ep_square = Some(Square::E3); // White to move: must be on the sixth rank
    for codec in position::all() {
        assert!(
            matches!(codec.encode(&s), Err(PositionCodeError::Unsupported(_))),
            "{}",
            codec.name()
        );
    }
    let mut s = Setup::standard();
    s.castling = CastlingRights::NONE.with_square(Square::D1); // no rook there
    for codec in position::all() {
        assert!(
            matches!(codec.encode(&s), Err(PositionCodeError::Unsupported(_))),
            "{}",
            codec.name()
        );
    }
    let mut s = Setup::standard();
    s.board.put(Square::E4, Piece::new(Color::White, Role::King)); // two white kings
    assert!(huffman_tuned::encode(&s).is_err());
    assert!(stream::encode(&s).is_ok() && huffman::encode(&s).is_ok() && compact::encode(&s).is_ok());
    // Beside a king the castling rights imply, through the multi-table code's fallback form.
    assert_eq!(
        huffman_multi::decode(&huffman_multi::encode(&s).unwrap()),
        Ok(without_fullmove(&s))
    );
}

#[test]
fn truncated_and_extended_codes_are_refused() {
    for fen in FENS {
        let s = setup(fen);
        for codec in position::all() {
            let bytes = codec.encode(&s).unwrap();
            for len in 0..bytes.len() {
                let cut = &bytes[..len];
                match codec.decode(cut) {
                    Err(_) => {}
                    Ok(other) => assert_eq!(codec.encode(&other).as_deref(), Ok(cut), "{}", codec.name()),
                }
            }
            for extra in [0u8, 1, 0x80, 0xff] {
                let mut longer = bytes.clone();
                longer.push(extra);
                match codec.decode(&longer) {
                    Err(_) => {}
                    Ok(other) => {
                        assert_ne!(other, without_fullmove(&s));
                        assert_eq!(codec.encode(&other).as_deref(), Ok(&longer[..]), "{}", codec.name());
                    }
                }
            }
        }
    }
}

/// Random legal games, preferring captures and promotions to reach the many-queens endgames:
/// every position in every code, within the bounds.
fn random_game(seed: u64, plies: usize) -> Vec<Setup> {
    common::random_setups(&Position::startpos(), seed, plies, true)
}

const BOUNDS: [(&str, u64); 5] = [
    ("stream", 272),
    ("huffman", 204),
    ("huffman-multi", 203),
    ("huffman-tuned", 190),
    ("compact", 201),
];

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn random_games_round_trip_within_bounds(seed in any::<u64>()) {
        for s in random_game(seed, 300) {
            round_trip_all(&s);
            if s.halfmove_clock < 127 {
                for (codec, (name, bound)) in position::all().into_iter().zip(BOUNDS) {
                    prop_assert_eq!(codec.name(), name);
                    let bits = codec.encoded_bits(&s).unwrap();
                    prop_assert!(bits <= bound, "{} takes {} bits for {:?}", name, bits, s);
                }
            }
        }
    }
}

/// A random board: each square empty with probability about 1/2, otherwise any piece.
fn arb_board() -> impl Strategy<Value = Board> {
    prop::collection::vec(prop_oneof![Just(None), (0..12usize).prop_map(Piece::from_index)], 64).prop_map(|squares| {
        let mut board = Board::empty();
        for (sq, piece) in Square::all().zip(squares) {
            if let Some(piece) = piece {
                board.put(sq, piece);
            }
        }
        board
    })
}

fn arb_setup() -> impl Strategy<Value = Setup> {
    (
        arb_board(),
        any::<bool>(),
        any::<u16>(),
        prop::option::of(0..64u8),
        prop_oneof![0..130u32, any::<u32>()],
        any::<u32>(),
    )
        .prop_map(|(board, black, rights, ep, halfmove_clock, fullmove_number)| {
            let rooks = Bitboard(u64::from(rights as u8) | u64::from(rights >> 8) << 56);
            Setup {
                board,
                turn: if black { Color::Black } else { Color::White },
                castling: CastlingRights::from_rooks(rooks),
                ep_square: ep.and_then(Square::new),
                halfmove_clock,
                fullmove_number,
            }
        })
}

/// A random board with one king a side, apart, and at most eight pawns a side (the tuned code's
/// requirements).
fn arb_kinged_board() -> impl Strategy<Value = Board> {
    (arb_board(), 0..64u8, 0..64u8).prop_filter_map("kings touch", |(board, wk, bk)| {
        let (wk, bk) = (Square::new(wk)?, Square::new(bk)?);
        if wk.distance(bk) < 2 {
            return None;
        }
        let mut out = Board::empty();
        let mut pawns = [0; 2];
        for (sq, piece) in board.pieces() {
            let extra_pawn = piece.role == Role::Pawn && pawns[piece.color.index()] == 8;
            if piece.role == Role::King || sq == wk || sq == bk || extra_pawn {
                continue;
            }
            pawns[piece.color.index()] += usize::from(piece.role == Role::Pawn);
            out.put(sq, piece);
        }
        out.put(wk, Piece::new(Color::White, Role::King));
        out.put(bk, Piece::new(Color::Black, Role::King));
        Some(out)
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    /// Any setup: each code either refuses it as unsupported or gives it back.
    #[test]
    fn random_setups_round_trip_or_are_unsupported(s in arb_setup()) {
        for codec in position::all() {
            match codec.encode(&s) {
                Ok(bytes) => prop_assert_eq!(codec.decode(&bytes), Ok(without_fullmove(&s)), "{}", codec.name()),
                Err(e) => prop_assert!(matches!(e, PositionCodeError::Unsupported(_)), "{}: {}", codec.name(), e),
            }
        }
    }

    /// Any board without castling or en passant: stream, Huffman, multi-table and compact accept it.
    #[test]
    fn any_board_round_trips(board in arb_board(), black in any::<bool>(), clock in 0..200u32) {
        let s = Setup {
            board,
            turn: if black { Color::Black } else { Color::White },
            castling: CastlingRights::NONE,
            ep_square: None,
            halfmove_clock: clock,
            fullmove_number: 1,
        };
        for codec in [
            &position::Stream as &dyn PositionCodec,
            &position::Huffman,
            &position::HuffmanMulti,
            &position::Compact,
        ] {
            let bytes = codec.encode(&s).unwrap();
            prop_assert_eq!(codec.decode(&bytes), Ok(s.clone()), "{}", codec.name());
        }
    }

    /// Boards with two apart kings: all five codes accept them.
    #[test]
    fn kinged_boards_round_trip_in_all_codes(board in arb_kinged_board(), black in any::<bool>(), clock in any::<u32>()) {
        let s = Setup {
            board,
            turn: if black { Color::Black } else { Color::White },
            castling: CastlingRights::NONE,
            ep_square: None,
            halfmove_clock: clock,
            fullmove_number: 1,
        };
        round_trip_all(&s);
        prop_assert!(huffman_tuned::encoded_bits(&s).unwrap() <= 27 + 62 * 5 + 32);
    }

    /// Garbage never panics, and whatever decodes is exactly what the encoder writes.
    #[test]
    fn garbage_is_refused_or_canonical(bytes in prop::collection::vec(any::<u8>(), 0..48)) {
        for codec in position::all() {
            if let Ok(s) = codec.decode(&bytes) {
                prop_assert_eq!(codec.encode(&s), Ok(bytes.clone()), "{}", codec.name());
            }
        }
    }

    /// A flipped bit in a real code: refused, or another position's canonical code.
    #[test]
    fn flipped_bits_are_refused_or_canonical(seed in any::<u64>(), ply in 0..120usize, bit in any::<usize>()) {
        let game = random_game(seed, 120);
        let s = &game[ply % game.len()];
        for codec in position::all() {
            let mut bytes = codec.encode(s).unwrap();
            let i = bit % (bytes.len() * 8);
            bytes[i / 8] ^= 0x80 >> (i % 8);
            if let Ok(other) = codec.decode(&bytes) {
                prop_assert_ne!(&other, &without_fullmove(s));
                prop_assert_eq!(codec.encode(&other), Ok(bytes.clone()), "{}", codec.name());
            }
        }
    }
}
