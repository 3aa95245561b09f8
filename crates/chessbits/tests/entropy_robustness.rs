//! Random games from varied start positions round-trip through both move coders; damaged, cut,
//! extended or arbitrary bytes never panic, and the entropy decoder accepts only what the encoder
//! writes.

use crate::common;

use chessbits::codec::moves::{entropy, lichess};
use chessbits::lists::MoveList;
use chessbits::moves::{Move, MoveKind};
use chessbits::position::Position;
use chessbits::types::Square;
use proptest::prelude::*;

const STARTS: [&str; 7] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    "8/2P5/8/8/8/8/5kp1/K7 b - - 0 1",
    "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
    "2nnrbkr/p1qppppp/8/1ppb4/6PP/3PP3/PPP2P2/BQNNRBKR w HEhe - 1 9",
    "4k3/1P6/8/8/8/8/6p1/4K2R w K - 0 60",
];

/// A random game of at most `max_plies` from start position `start`, choosing moves with `seed`.
fn random_game(start: usize, seed: u64, max_plies: usize) -> (Position, Vec<Move>) {
    let start = Position::from_fen(STARTS[start % STARTS.len()]).unwrap();
    let moves = common::random_moves(&start, &mut common::Rng::new(seed), max_plies, false);
    (start, moves)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn random_games_round_trip(start in 0usize..7, seed in any::<u64>(), plies in 0usize..160) {
        let (start, moves) = random_game(start, seed, plies);
        let bytes = entropy::encode_game(&start, &moves).unwrap();
        prop_assert_eq!(entropy::decode_game(&start, &bytes, moves.len()).unwrap(), moves.clone());
        let bits = lichess::encode_game(&start, &moves).unwrap();
        prop_assert_eq!(lichess::decode_game(&start, &bits, moves.len()).unwrap(), moves);
    }

    #[test]
    fn cut_or_extended_codes_never_decode_to_the_game(start in 0usize..7, seed in any::<u64>(), plies in 1usize..60,
                                                      extra in any::<u8>()) {
        let (start, moves) = random_game(start, seed, plies);
        let bytes = entropy::encode_game(&start, &moves).unwrap();
        for cut in 0..bytes.len() {
            prop_assert_ne!(entropy::decode_game(&start, &bytes[..cut], moves.len()), Ok(moves.clone()));
        }
        let mut longer = bytes.clone();
        longer.push(extra);
        prop_assert_ne!(entropy::decode_game(&start, &longer, moves.len()), Ok(moves.clone()));
        // Fewer or more plies than encoded: no panic (a forced last move costs no bits, so the
        // shorter game may well decode).
        let _ = entropy::decode_game(&start, &bytes, moves.len() - 1);
        let _ = entropy::decode_game(&start, &bytes, moves.len() + 3);
    }

    #[test]
    fn damaged_codes_never_panic(start in 0usize..7, seed in any::<u64>(), plies in 1usize..100,
                                 at in any::<usize>(), flip in 1u8..=255) {
        let (start, moves) = random_game(start, seed, plies);
        let mut bytes = entropy::encode_game(&start, &moves).unwrap();
        if !bytes.is_empty() {
            let i = at % bytes.len();
            bytes[i] ^= flip;
            prop_assert_ne!(entropy::decode_game(&start, &bytes, moves.len()), Ok(moves.clone()));
        }
        let mut bits = lichess::encode_game(&start, &moves).unwrap();
        if !bits.is_empty() {
            let i = at % bits.len();
            bits[i] ^= flip;
            let _ = lichess::decode_game(&start, &bits, moves.len());
        }
    }

    #[test]
    fn arbitrary_bytes_decode_only_to_their_own_code(start in 0usize..7, bytes in prop::collection::vec(any::<u8>(), 0..64),
                                                     plies in 0usize..300) {
        let start = Position::from_fen(STARTS[start]).unwrap();
        if let Ok(moves) = entropy::decode_game(&start, &bytes, plies) {
            // Whatever decodes is a legal game whose code is exactly these bytes.
            prop_assert_eq!(moves.len(), plies);
            prop_assert_eq!(entropy::encode_game(&start, &moves).unwrap(), bytes.clone());
        }
        if let Ok(moves) = lichess::decode_game(&start, &bytes, plies) {
            prop_assert_eq!(moves.len(), plies);
            let again = lichess::encode_game(&start, &moves).unwrap();
            prop_assert!(bytes.starts_with(&again[..again.len().saturating_sub(1)]));
        }
    }
}

#[test]
fn illegal_moves_are_rejected_and_leave_the_output_alone() {
    let start = Position::startpos();
    let bad = Move::new(Square::E2, Square::E5, MoveKind::Quiet);
    let mut out = vec![1, 2, 3];
    let err = entropy::GameEncoder::new().encode_into(&start, &[bad], &mut out);
    assert_eq!(err, Err(entropy::EntropyError::IllegalMove { ply: 0, mv: bad }));
    assert_eq!(out, [1, 2, 3]);
    assert_eq!(
        lichess::encode_game(&start, &[bad]),
        Err(lichess::LichessError::IllegalMove { ply: 0, mv: bad })
    );
}

#[test]
fn decoding_past_the_end_of_the_game_is_an_error() {
    // Fool's mate: after four plies White is mated.
    let start = Position::startpos();
    let mut pos = start.clone();
    let mut moves = Vec::new();
    for uci in ["f2f3", "e7e5", "g2g4", "d8h4"] {
        let m = chessbits::notation::uci::parse_uci(&pos, uci).unwrap();
        pos.play_unchecked(m);
        moves.push(m);
    }
    assert!(pos.is_checkmate());
    let bytes = entropy::encode_game(&start, &moves).unwrap();
    assert_eq!(
        entropy::decode_game(&start, &bytes, 5),
        Err(entropy::EntropyError::NoLegalMove { ply: 4 })
    );
    let bits = lichess::encode_game(&start, &moves).unwrap();
    assert!(lichess::decode_game(&start, &bits, 5).is_err());
}

#[test]
fn forced_moves_cost_nothing() {
    // Every black move is forced (a lone king in the corner with one square): the code does not
    // grow with them.
    let start = Position::from_fen("7k/8/6K1/8/8/8/8/1R6 b - - 0 1").unwrap();
    let mut list = MoveList::new();
    start.legal_moves_into(&mut list);
    assert_eq!(list.len(), 1);
    let bytes = entropy::encode_game(&start, &list[..1]).unwrap();
    assert!(bytes.is_empty());
    assert_eq!(entropy::decode_game(&start, &bytes, 1).unwrap(), list[..1]);
}

/// How often bytes that are not a game's code pass for another game's code: a code cut by one
/// byte, by more, and the whole code decoded with one or two plies more than it holds (accepted,
/// tried). Each case that decodes must be, exactly, the code of the game it decodes to (no
/// decoder can tell it from that game's code: the code stores no length); every other case is a
/// typed error.
fn wrong_length_outcomes(games: &[(Position, Vec<Move>)]) -> [(usize, usize); 4] {
    let mut outcomes = [(0, 0); 4];
    let mut decoder = entropy::GameDecoder::new();
    let mut out = Vec::new();
    for (start, moves) in games {
        let bytes = entropy::encode_game(start, moves).unwrap();
        assert_eq!(entropy::decode_game(start, &bytes, moves.len()).as_ref(), Ok(moves));
        let n = bytes.len();
        let mut cases = Vec::new();
        if n > 0 {
            cases.push((0, &bytes[..n - 1], moves.len()));
        }
        cases.extend((0..n.saturating_sub(1)).map(|len| (1, &bytes[..len], moves.len())));
        cases.push((2, &bytes[..], moves.len() + 1));
        cases.push((3, &bytes[..], moves.len() + 2));
        for (kind, code, plies) in cases {
            out.clear();
            let result = decoder.decode_into(start, code, plies, &mut out);
            outcomes[kind].1 += 1;
            match result {
                Ok(()) => {
                    outcomes[kind].0 += 1;
                    assert_ne!(&out, moves);
                    assert_eq!(entropy::encode_game(start, &out).unwrap(), code, "another game's code");
                }
                Err(e) => assert!(
                    matches!(
                        e,
                        entropy::EntropyError::Truncated { .. }
                            | entropy::EntropyError::NonCanonical
                            | entropy::EntropyError::Corrupt { .. }
                            | entropy::EntropyError::NoLegalMove { .. }
                    ),
                    "{e}"
                ),
            }
        }
    }
    outcomes
}

#[test]
fn cut_codes_and_extra_plies_are_errors_unless_they_are_another_games_code() {
    let root = common::testdata_path();
    let games: Vec<(Position, Vec<Move>)> = common::PGN_FILES
        .iter()
        .flat_map(|(name, _)| common::load_pgn(&root, name))
        .map(|game| (game.start, game.moves))
        .collect();
    let real = wrong_length_outcomes(&games);
    let random: Vec<(Position, Vec<Move>)> = (0..300).map(|seed| random_game(seed as usize, seed, 80)).collect();
    let random = wrong_length_outcomes(&random);
    eprintln!(
        "accepted / tried (cut by one byte, by more, one ply more, two plies more): real {real:?}, random {random:?}"
    );
    for (accepted, tried) in real.into_iter().chain(random) {
        // Every kind of damage is caught in part (most cuts by more than a byte), and none is
        // caught always: the final flush leaves up to a byte's worth of room in which a
        // further move, or a shorter code's last moves, may fit.
        assert!(tried >= 300 && accepted > 0 && accepted < tried, "{real:?} {random:?}");
    }
    assert!(real[1].0 * 40 < real[1].1, "cut by more than a byte: {real:?}");
    assert!(random[1].0 * 40 < random[1].1, "cut by more than a byte: {random:?}");
}
