//! The shared search stack: perft over it equals `movegen::perft` (with selection picks, in
//! generation order, and with staged generation), deep paths of 270-move positions end in an
//! error and never a panic, the plies' slices stay intact under random paths,
//! and dropping moves still to play (`retain_to_play`) touches only the current ply.

use crate::common;

use std::path::Path;

use chessbits::lists::{MoveList, SearchStack, SearchStackError};
use chessbits::movegen::perft;
use chessbits::moves::{ExtendedMove, Move};
use chessbits::position::Position;
use chessbits::types::Role;
use common::{perft_suite, shared_path, testdata_path};
use proptest::prelude::*;

/// 270 legal moves for White.
const MOST_MOVES: &str = "kBQQQQQQ/BR5Q/Q6Q/Q6Q/Q6Q/Q6Q/Q6Q/KQQQQQQQ w - - 0 1";

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Order {
    /// Selection picks.
    Best,
    /// Generation order.
    Generated,
    /// Captures first, quiet moves generated once the captures are used up.
    Staged,
}

/// Perft over the shared stack.
fn stack_perft(pos: &mut Position, stack: &mut SearchStack, depth: u32, order: Order) -> Result<u64, SearchStackError> {
    if depth == 0 {
        return Ok(1);
    }
    let mut nodes = 0;
    let mut stage = 0;
    match order {
        Order::Staged => {
            stack.generate_tactical(pos)?;
        }
        _ => {
            stack.generate_legal(pos)?;
        }
    }
    loop {
        let next = match order {
            Order::Generated => stack.next_move(),
            _ => stack.pick_best(),
        };
        let Some(xm) = next else {
            if order == Order::Staged && stage == 0 {
                // Next stage: appended behind the captures, in the same ply's range.
                stage = 1;
                stack.generate_quiet(pos)?;
                continue;
            }
            break;
        };
        if depth == 1 {
            nodes += 1;
            continue;
        }
        let undo = pos.play_unchecked(xm.mv());
        stack.enter_ply()?;
        nodes += stack_perft(pos, stack, depth - 1, order)?;
        stack.leave_ply()?;
        pos.unmake_move(xm.mv(), undo);
    }
    Ok(nodes)
}

fn check_suite(root: &Path, name: &str, max_nodes: u64, step: usize) -> usize {
    let mut stack = SearchStack::new();
    let mut checked = 0;
    for (i, case) in perft_suite(root, name).into_iter().step_by(step).enumerate() {
        let pos = common::composed_position(&case.fen);
        let order = [Order::Best, Order::Generated, Order::Staged][i % 3];
        for &(depth, expected) in case.expected.iter().filter(|&&(_, n)| n <= max_nodes) {
            let mut work = pos.clone();
            let nodes = stack_perft(&mut work, &mut stack, depth, order).unwrap();
            assert_eq!(nodes, expected, "{name} {} depth {depth} {order:?}", case.fen);
            assert_eq!(nodes, perft(&pos, depth));
            assert_eq!(work, pos);
            assert_eq!(stack.ply(), 0);
            stack.reset();
            checked += 1;
        }
    }
    checked
}

/// `fischer_step`: every how many Chess960 positions one is checked (the bundled file holds the
/// first 100 of the 960).
fn stack_perft_on_the_suites(root: &Path, fischer_step: usize) {
    assert!(check_suite(root, "shakmaty_tricky.perft", 300_000, 1) > 40);
    assert!(check_suite(root, "ethereal_standard.epd", 300_000, 1) > 300);
    assert!(check_suite(root, "ethereal_fischer.epd", 100_000, fischer_step) > 150);
}

#[test]
fn stack_perft_equals_movegen_perft_on_the_suites() {
    stack_perft_on_the_suites(&testdata_path(), 1);
}

#[test]
#[ignore = "needs ../shared/data (see testdata/README.md); run: cargo test --workspace -- --ignored shared_data_"]
fn shared_data_stack_perft_equals_movegen_perft_on_the_suites() {
    stack_perft_on_the_suites(&shared_path(), 10);
}

#[test]
fn a_deep_path_of_270_move_positions_overflows_into_an_error() {
    let pos = common::composed_position(MOST_MOVES);
    assert_eq!(pos.count_legal_moves(), 270);
    let mut stack = SearchStack::new();
    let full_plies = SearchStack::DEFAULT_CAPACITY / 270;
    for ply in 0..full_plies {
        assert_eq!(stack.generate_legal(&pos), Ok(270), "ply {ply}");
        stack.pick_best();
        stack.enter_ply().unwrap();
    }
    assert_eq!(stack.used(), full_plies * 270);
    let err = stack.generate_legal(&pos).unwrap_err();
    assert_eq!(
        err,
        SearchStackError::Full {
            ply: full_plies,
            needed: 270,
            free: SearchStack::DEFAULT_CAPACITY - full_plies * 270,
        }
    );
    assert!(err.to_string().contains("full"));
    // All or nothing: the failed generation left no moves behind.
    assert_eq!(stack.used(), full_plies * 270);
    assert!(stack.to_play().is_empty());
    assert_eq!(stack.pick_best(), None);
    // A smaller stage still fits (this position has no captures: an empty one).
    assert_eq!(stack.generate_tactical(&pos), Ok(0));

    // Unwinding finds every ply as it was: one move played, 269 to play.
    for _ in 0..full_plies {
        stack.leave_ply().unwrap();
        assert_eq!(stack.played().len(), 1);
        assert_eq!(stack.to_play().len(), 269);
    }
    assert_eq!(stack.leave_ply(), Err(SearchStackError::AtRoot));
}

#[test]
fn entering_beyond_the_maximum_ply_is_an_error() {
    let mut stack = SearchStack::with_capacity(10_000, 3);
    assert_eq!(stack.enter_ply(), Ok(()));
    assert_eq!(stack.enter_ply(), Ok(()));
    assert_eq!(stack.enter_ply(), Err(SearchStackError::TooDeep { max_ply: 3 }));
    assert_eq!(stack.ply(), 2);
}

/// The fallback the module docs describe: when the stack is full, search the node with a
/// move list of its own. The counts still match perft.
fn perft_with_fallback(pos: &mut Position, stack: &mut SearchStack, depth: u32, fallbacks: &mut u64) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves: Vec<Move> = match stack.generate_legal(pos) {
        Ok(_) => std::iter::from_fn(|| stack.pick_best())
            .map(|xm: ExtendedMove| xm.mv())
            .collect(),
        Err(SearchStackError::Full { .. }) => {
            *fallbacks += 1;
            let mut list = MoveList::new();
            pos.legal_moves_into(&mut list);
            list.to_vec()
        }
        Err(e) => panic!("{e}"),
    };
    let mut nodes = 0;
    for m in moves {
        let undo = pos.play_unchecked(m);
        let entered = stack.enter_ply().is_ok();
        nodes += perft_with_fallback(pos, stack, depth - 1, fallbacks);
        if entered {
            stack.leave_ply().unwrap();
        }
        pos.unmake_move(m, undo);
    }
    nodes
}

#[test]
fn a_tiny_stack_falls_back_without_losing_nodes() {
    let fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    let pos = Position::from_fen(fen).unwrap();
    let mut stack = SearchStack::with_capacity(100, 8);
    let mut fallbacks = 0;
    let nodes = perft_with_fallback(&mut pos.clone(), &mut stack, 3, &mut fallbacks);
    assert_eq!(nodes, perft(&pos, 3));
    assert!(fallbacks > 0);
}

proptest! {
    /// Down a random path: generate, pick a few moves, descend after the last pick. Back up:
    /// every ply's moves are still the legal moves of its position, and its picks are intact.
    #[test]
    fn plies_keep_their_moves_along_random_paths(
        path in prop::collection::vec((any::<u16>(), 1usize..4), 1..60),
    ) {
        let mut stack = SearchStack::new();
        let mut pos = Position::startpos();
        let mut trail: Vec<(Position, Vec<ExtendedMove>, Move, chessbits::position::Undo)> = Vec::new();
        for (choice, picks) in path {
            prop_assert!(stack.generate_legal(&pos).is_ok());
            let picked: Vec<ExtendedMove> = (0..picks).map_while(|_| stack.pick_best()).collect();
            let Some(&last) = picked.last() else { break };
            // Scores of successive picks never increase.
            prop_assert!(picked.windows(2).all(|w| w[0].score() >= w[1].score()));
            let to_play = stack.to_play().to_vec();
            let m = if to_play.is_empty() { last.mv() } else { to_play[choice as usize % to_play.len()].mv() };
            let undo = pos.play_unchecked(m);
            trail.push((pos.clone(), picked, m, undo));
            prop_assert!(stack.enter_ply().is_ok());
        }
        while let Some((after, picked, m, undo)) = trail.pop() {
            prop_assert_eq!(&pos, &after);
            prop_assert!(stack.leave_ply().is_ok());
            pos.unmake_move(m, undo);
            prop_assert_eq!(stack.played(), &picked[..]);
            let mut generated: Vec<u16> = stack.generated().iter().map(|xm| xm.mv().bits()).collect();
            let mut legal = MoveList::new();
            pos.legal_moves_into(&mut legal);
            let mut expected: Vec<u16> = legal.iter().map(|m| m.bits()).collect();
            generated.sort_unstable();
            expected.sort_unstable();
            prop_assert_eq!(generated, expected);
        }
        prop_assert_eq!(stack.ply(), 0);
    }
}

#[test]
fn retain_to_play_drops_moves_of_the_current_ply_only_and_frees_their_slots() {
    let pos = Position::startpos();
    let mut stack = SearchStack::new();
    assert_eq!(stack.generate_legal(&pos), Ok(20));
    let first = stack.pick_best().unwrap();
    stack.enter_ply().unwrap();
    assert_eq!(stack.generate_legal(&pos), Ok(20));
    let child_first = stack.pick_best().unwrap();
    // Keep the child ply's moves other than the knights', in their order.
    let remaining: Vec<ExtendedMove> = stack.to_play().to_vec();
    let is_knight = |xm: ExtendedMove| pos.board().piece_at(xm.mv().from()).map(|p| p.role) == Some(Role::Knight);
    stack.retain_to_play(|xm| !is_knight(xm));
    let kept: Vec<ExtendedMove> = remaining.iter().copied().filter(|xm| !is_knight(*xm)).collect();
    assert_eq!(stack.to_play(), &kept[..], "the kept moves, in their order");
    assert_eq!(stack.played(), &[child_first]);
    // The freed slots are free: the ply uses one slot for each move played or kept.
    assert_eq!(stack.used(), 20 + 1 + kept.len());
    // Dropping everything leaves nothing to pick.
    stack.retain_to_play(|_| false);
    assert_eq!(stack.pick_best(), None);
    // The parent ply is untouched.
    stack.leave_ply().unwrap();
    assert_eq!(stack.played(), &[first]);
    assert_eq!(stack.to_play().len(), 19);
}
