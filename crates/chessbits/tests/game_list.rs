//! The game list and signature list over random legal games: push/pop restore positions and
//! keys exactly, the key list equals the positions' keys, illegal moves are refused, and the
//! repetition count equals a naive scan of the whole history.

use chessbits::game::Game;
use chessbits::lists::MoveList;
use chessbits::moves::Move;
use chessbits::position::{Board, Position};
use chessbits::types::{CastlingRights, Color, Square};
use proptest::prelude::*;

const STARTS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
    "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 37 60",
];

/// The identity of a position under the repetition rules (FIDE 9.2.2): placement, side to move,
/// castling rights, and the en passant square only if an en passant capture is legal.
fn identity(pos: &Position) -> (Board, Color, CastlingRights, Option<Square>) {
    let mut legal = MoveList::new();
    pos.legal_moves_into(&mut legal);
    let ep = legal.iter().find(|m| m.is_en_passant()).map(|m| m.to());
    (pos.board().clone(), pos.turn(), pos.castling(), ep)
}

/// Plays `choices` as indices into the legal moves. With `reversible_bias`, mostly takes back
/// the side's own previous move when it can, else plays a move that is neither a capture nor a
/// pawn move: shuffles that provoke repetitions.
fn random_game(start: &str, choices: &[u16], reversible_bias: bool) -> (Game, Vec<Position>) {
    let mut game = Game::from_fen(start).unwrap();
    let mut positions = vec![game.position().clone()];
    for &choice in choices {
        let pos = game.position();
        let mut legal = MoveList::new();
        pos.legal_moves_into(&mut legal);
        if legal.is_empty() {
            break;
        }
        let reversible: Vec<Move> = legal
            .iter()
            .copied()
            .filter(|m| !m.is_tactical() && pos.board().role_at(m.from()) != Some(chessbits::types::Role::Pawn))
            .collect();
        let back = game.moves().len().checked_sub(2).map(|i| game.moves()[i]);
        let take_back = back
            .map(|b| Move::new(b.to(), b.from(), chessbits::moves::MoveKind::Quiet))
            .filter(|m| reversible.contains(m));
        let m = if let Some(m) = take_back.filter(|_| reversible_bias && choice % 4 != 0) {
            m
        } else if reversible_bias && choice % 8 != 0 && !reversible.is_empty() {
            reversible[(choice as usize / 8) % reversible.len()]
        } else {
            legal[choice as usize % legal.len()]
        };
        game.push(m).unwrap();
        positions.push(game.position().clone());
    }
    (game, positions)
}

fn naive_repetition_count(positions: &[Position]) -> usize {
    let Some((current, earlier)) = positions.split_last() else {
        return 0;
    };
    let id = identity(current);
    1 + earlier.iter().filter(|p| identity(p) == id).count()
}

fn check_game(game: &mut Game, positions: &mut Vec<Position>) -> Result<(), TestCaseError> {
    prop_assert_eq!(game.keys().len(), game.moves().len() + 1);
    prop_assert_eq!(game.keys().len(), positions.len());
    for (key, pos) in game.keys().iter().zip(positions.iter()) {
        prop_assert_eq!(*key, pos.key());
        prop_assert_eq!(*key, pos.compute_key());
    }
    // An illegal move changes nothing.
    let before = game.clone();
    let bogus = Move::new(Square::A1, Square::H8, chessbits::moves::MoveKind::Quiet);
    if !game.position().is_legal(bogus) {
        prop_assert!(game.push(bogus).is_err());
        prop_assert_eq!(&*game, &before);
    }
    // Pop everything: each step restores the previous position and key list exactly.
    while let Some(m) = game.pop() {
        let popped_to = positions.len() - 1;
        positions.pop();
        let expected = positions
            .last()
            .ok_or_else(|| TestCaseError::fail("history too short"))?;
        prop_assert_eq!(game.position(), expected);
        prop_assert_eq!(game.keys().len(), popped_to);
        prop_assert_eq!(game.keys().last().copied(), Some(expected.key()));
        prop_assert!(game.position().is_legal(m));
    }
    prop_assert_eq!(game.position(), game.start());
    prop_assert_eq!(game.keys(), &[game.start().key()]);
    Ok(())
}

proptest! {
    #[test]
    fn push_pop_restores_positions_and_keys(
        start in 0..STARTS.len(),
        choices in prop::collection::vec(any::<u16>(), 0..150),
    ) {
        let (mut game, mut positions) = random_game(STARTS[start], &choices, false);
        check_game(&mut game, &mut positions)?;
    }

    #[test]
    fn repetition_count_equals_a_scan_of_the_whole_history(
        start in 0..STARTS.len(),
        choices in prop::collection::vec(any::<u16>(), 0..120),
    ) {
        let (mut game, mut positions) = random_game(STARTS[start], &choices, true);
        while !positions.is_empty() {
            prop_assert_eq!(game.repetition_count(), naive_repetition_count(&positions), "{}", game.position().fen());
            game.pop();
            positions.pop();
            if game.is_empty() && positions.len() == 1 {
                prop_assert_eq!(game.repetition_count(), 1);
                break;
            }
        }
    }
}

/// The property above is only worth something if repetitions happen: count them on a fixed
/// sample of biased games.
#[test]
fn biased_random_games_do_repeat_positions() {
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed as u16
    };
    let (mut twofold, mut threefold, mut fivefold) = (0, 0, 0);
    for i in 0..60 {
        let choices: Vec<u16> = (0..200).map(|_| next()).collect();
        let (mut game, mut positions) = random_game(STARTS[i % STARTS.len()], &choices, true);
        while game.pop().is_some() {
            positions.pop();
            let count = game.repetition_count();
            assert_eq!(count, naive_repetition_count(&positions));
            twofold += usize::from(count >= 2);
            threefold += usize::from(count >= 3);
            fivefold += usize::from(count >= 5);
        }
    }
    assert!(
        twofold > 100 && threefold > 20 && fivefold > 0,
        "{twofold} {threefold} {fivefold}"
    );
}
