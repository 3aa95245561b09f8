//! Property tests over random legal games: make/unmake restores everything, incremental keys
//! equal keys from scratch, FEN round-trips, `gives_check` agrees with the position after the
//! move, and the move classes partition the legal moves.

use chessbits::lists::MoveList;
use chessbits::position::{Position, Validation};
use proptest::prelude::*;

const STARTS: [&str; 5] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
];

fn check_position(pos: &Position) {
    let mut legal = MoveList::new();
    pos.legal_moves_into(&mut legal);
    assert_eq!(pos.count_legal_moves(), legal.len());
    assert_eq!(pos.key(), pos.compute_key());

    let reparsed = Position::from_fen(&pos.fen()).unwrap();
    assert_eq!(reparsed.to_setup(), pos.to_setup(), "FEN round trip of {}", pos.fen());
    assert_eq!(reparsed.key(), pos.key());

    let (mut tactical, mut quiet, mut pseudo) = (MoveList::new(), MoveList::new(), MoveList::new());
    pos.tactical_moves_into(&mut tactical);
    pos.quiet_moves_into(&mut quiet);
    pos.pseudo_legal_moves_into(&mut pseudo);
    assert_eq!(tactical.len() + quiet.len(), legal.len());
    for m in tactical.iter() {
        assert!(m.is_tactical() && legal.contains(m));
    }
    for m in quiet.iter() {
        assert!(!m.is_tactical() && legal.contains(m));
    }
    // Legal = pseudo-legal moves that do not leave the own king attacked.
    let mut filtered = 0;
    for &m in pseudo.iter() {
        let mut child = pos.clone();
        child.play_unchecked(m);
        let mover = pos.turn();
        let safe = !child.is_attacked(child.king(mover), !mover, child.board().occupied());
        assert_eq!(safe, legal.contains(&m), "{m:?} in {}", pos.fen());
        filtered += safe as usize;
    }
    assert_eq!(filtered, legal.len());

    for &m in legal.iter() {
        let mut child = pos.clone();
        let undo = child.play_unchecked(m);
        assert_eq!(child.key(), child.compute_key(), "key after {m:?} in {}", pos.fen());
        assert_eq!(
            pos.gives_check(m),
            child.is_check(),
            "gives_check {m:?} in {}",
            pos.fen()
        );
        child.unmake_move(m, undo);
        assert_eq!(&child, pos, "unmake {m:?}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]
    #[test]
    fn random_games(start in 0..STARTS.len(), choices in proptest::collection::vec(any::<u16>(), 1..120)) {
        let mut pos = Position::from_fen(STARTS[start]).unwrap();
        let mut list = MoveList::new();
        for choice in choices {
            check_position(&pos);
            pos.legal_moves_into(&mut list);
            if list.is_empty() {
                break;
            }
            let m = list[choice as usize % list.len()];
            pos.play_unchecked(m);
        }
    }
}

#[test]
fn null_move_round_trip() {
    let mut pos = Position::from_fen(STARTS[1]).unwrap();
    let before = pos.clone();
    let undo = pos.make_null_move();
    assert_eq!(pos.key(), pos.compute_key());
    assert_ne!(pos.key(), before.key());
    pos.unmake_null_move(undo);
    assert_eq!(pos, before);
}

#[test]
fn max_moves_position_fits() {
    // Composed: far more queens than promotions give.
    let pos =
        Position::from_fen_with("kBQQQQQQ/BR5Q/Q6Q/Q6Q/Q6Q/Q6Q/Q6Q/KQQQQQQQ w - -", Validation::Composed).unwrap();
    let mut list = MoveList::new();
    pos.legal_moves_into(&mut list);
    assert_eq!(list.len(), 270);
    pos.pseudo_legal_moves_into(&mut list);
    assert!(list.len() >= 270);
}
