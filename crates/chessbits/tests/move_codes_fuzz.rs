//! Property tests of the move codes: garbage never panics and anything that decodes is a legal
//! move that encodes back to the same code; random games round-trip through every game format.

use chessbits::codec::moves::enumeration::{self, EnumeratedMove, CODE_COUNT};
use chessbits::codec::moves::index::{self, MoveListKind};
use chessbits::codec::moves::per_square::{self, PerSquareCode};
use chessbits::codec::moves::{direction_target, MoveCodeError};
use chessbits::lists::MoveList;
use chessbits::moves::Move;
use chessbits::position::{Position, Validation};
use chessbits::types::{Color, Role, Square};
use proptest::prelude::*;

/// Positions with castles (standard and Chess960), en passant, promotions, many queens.
const FENS: [&str; 8] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
    "kBQQQQQQ/BR5Q/Q6Q/Q6Q/Q6Q/Q6Q/Q6Q/KQQQQQQQ w - - 0 1",
    "7k/8/8/8/8/RRRRRR2/QQQQQ3/1NBNB1K1 w - - 0 1",
    "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
];

fn position(i: usize) -> Position {
    // Two of them are composed (more material than promotions give).
    Position::from_fen_with(FENS[i % FENS.len()], Validation::Composed).unwrap()
}

fn role(i: u8) -> Option<Role> {
    Role::from_index(usize::from(i))
}

fn square(i: u8) -> Square {
    Square::new(i % 64).unwrap()
}

/// Plays the move `choice % n` at each step from `start`, stopping when no move is left.
fn game(start: &Position, choices: &[u8]) -> Vec<Move> {
    let mut pos = start.clone();
    let mut list = MoveList::new();
    let mut moves = Vec::new();
    for &choice in choices {
        pos.legal_moves_into(&mut list);
        if list.is_empty() {
            break;
        }
        let m = list[usize::from(choice) % list.len()];
        pos.play_unchecked(m);
        moves.push(m);
    }
    moves
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn enumeration_decodes_exactly_the_codes_below_the_count(code in any::<u16>()) {
        match EnumeratedMove::decode(code) {
            Ok(m) => {
                prop_assert!(code < CODE_COUNT);
                prop_assert_eq!(m.encode(), code);
            }
            Err(e) => {
                prop_assert!(code >= CODE_COUNT);
                prop_assert!(
                    matches!(e, MoveCodeError::CodeOutOfRange { .. }),
                    "unexpected error {:?}",
                    e
                );
            }
        }
    }

    #[test]
    fn enumeration_constructors_accept_only_encodable_parts(
        white in any::<bool>(), r in 0u8..6, from in 0u8..64, to in 0u8..64, captured in 0u8..7, promo in 0u8..7,
    ) {
        let color = if white { Color::White } else { Color::Black };
        if let Some(r) = role(r) {
            if let Ok(m) = EnumeratedMove::new(color, r, square(from), square(to), role(captured), role(promo)) {
                prop_assert_eq!(EnumeratedMove::decode(m.encode()), Ok(m));
                prop_assert_eq!((m.color(), m.role(), m.from(), m.to()), (color, r, square(from), square(to)));
                prop_assert_eq!((m.captured(), m.promotion()), (role(captured), role(promo)));
            }
        }
        if let Ok(m) = EnumeratedMove::en_passant(color, square(from), square(to)) {
            prop_assert_eq!(EnumeratedMove::decode(m.encode()), Ok(m));
        }
    }

    #[test]
    fn position_codes_decode_to_legal_moves_that_encode_back(p in 0usize..FENS.len(), code in any::<u16>()) {
        let pos = position(p);
        if let Ok(m) = enumeration::decode_move(&pos, code) {
            prop_assert!(pos.is_legal(m));
            prop_assert_eq!(enumeration::encode_move(&pos, m), Ok(code));
        }
        if let Ok(m) = direction_target::decode(&pos, code) {
            prop_assert!(pos.is_legal(m));
            prop_assert_eq!(direction_target::encode(&pos, m), Ok(code));
        }
        for c in [PerSquareCode::Byte(code as u8), PerSquareCode::Wide(code)] {
            if let Ok(m) = per_square::decode(&pos, c) {
                prop_assert!(pos.is_legal(m));
                prop_assert_eq!(per_square::encode(&pos, m), Ok(c));
            }
        }
    }

    #[test]
    fn garbage_streams_fail_cleanly_or_are_canonical(
        p in 0usize..FENS.len(), bytes in proptest::collection::vec(any::<u8>(), 0..24),
    ) {
        let start = position(p);
        if let Ok(moves) = index::decode_game_bytes(&start, &bytes) {
            prop_assert_eq!(index::encode_game_bytes(&start, &moves), Ok(bytes.clone()));
        }
        for set in [MoveListKind::Legal, MoveListKind::PseudoLegal] {
            if let Ok(moves) = index::decode_game_bits(&start, set, &bytes) {
                prop_assert_eq!(index::encode_game_bits(&start, set, &moves), Ok(bytes.clone()));
            }
        }
        if let Ok(moves) = per_square::decode_game(&start, &bytes) {
            prop_assert_eq!(per_square::encode_game(&start, &moves), Ok(bytes.clone()));
        }
        if let Ok((m, used)) = index::read_byte_index(&start, &bytes) {
            prop_assert!(used <= bytes.len() && start.is_legal(m));
        }
    }

    #[test]
    fn random_games_round_trip(p in 0usize..FENS.len(), choices in proptest::collection::vec(any::<u8>(), 0..80)) {
        let start = position(p);
        let moves = game(&start, &choices);
        let bytes = index::encode_game_bytes(&start, &moves).unwrap();
        prop_assert_eq!(index::decode_game_bytes(&start, &bytes), Ok(moves.clone()));
        for set in [MoveListKind::Legal, MoveListKind::PseudoLegal] {
            let bits = index::encode_game_bits(&start, set, &moves).unwrap();
            prop_assert_eq!(index::decode_game_bits(&start, set, &bits), Ok(moves.clone()));
            // Cutting the stream short never panics and never yields the game.
            if let Some((_, shorter)) = bits.split_last() {
                prop_assert_ne!(index::decode_game_bits(&start, set, shorter), Ok(moves.clone()));
            }
        }
        let bytes = per_square::encode_game(&start, &moves).unwrap();
        prop_assert_eq!(per_square::decode_game(&start, &bytes), Ok(moves.clone()));
        let mut pos = start.clone();
        for &m in &moves {
            prop_assert_eq!(enumeration::decode_move(&pos, enumeration::encode_move(&pos, m).unwrap()), Ok(m));
            prop_assert_eq!(direction_target::decode(&pos, direction_target::encode(&pos, m).unwrap()), Ok(m));
            pos.play_unchecked(m);
        }
    }
}

#[test]
fn illegal_moves_are_refused_by_the_game_encoders() {
    let start = Position::startpos();
    let bogus = Move::new(Square::E2, Square::E5, chessbits::moves::MoveKind::Quiet);
    assert_eq!(
        index::encode_game_bytes(&start, &[bogus]),
        Err(MoveCodeError::IllegalMove(bogus))
    );
    for set in [MoveListKind::Legal, MoveListKind::PseudoLegal] {
        assert_eq!(
            index::encode_game_bits(&start, set, &[bogus]),
            Err(MoveCodeError::IllegalMove(bogus))
        );
    }
    assert_eq!(
        per_square::encode_game(&start, &[bogus]),
        Err(MoveCodeError::IllegalMove(bogus))
    );
    assert_eq!(
        EnumeratedMove::from_position_move(&start, bogus),
        Err(MoveCodeError::IllegalMove(bogus))
    );
    // Pseudo-legal but illegal: the pinned knight (Black bishop b4 pins c3 to the e1 king).
    let pinned = Position::from_fen("4k3/8/8/8/1b6/2N5/8/4K3 w - - 0 1").unwrap();
    let m = Move::new(Square::C3, Square::E4, chessbits::moves::MoveKind::Quiet);
    assert!(index::index_of(&pinned, MoveListKind::PseudoLegal, m).is_ok());
    let i = index::index_of(&pinned, MoveListKind::PseudoLegal, m).unwrap();
    assert_eq!(
        index::move_at(&pinned, MoveListKind::PseudoLegal, i),
        Err(MoveCodeError::IllegalMove(m))
    );
    assert_eq!(
        index::encode_game_bits(&pinned, MoveListKind::PseudoLegal, &[m]),
        Err(MoveCodeError::IllegalMove(m))
    );
    // Overlong ply count.
    assert!(index::decode_game_bits(&start, MoveListKind::Legal, &[0x80, 0x00]).is_err());
    assert_eq!(index::decode_game_bits(&start, MoveListKind::Legal, &[0]), Ok(vec![]));
}
