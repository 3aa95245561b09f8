//! Perft: counting the leaves of the legal move tree, the standard proof of a move generator.

use crate::moves::Move;
use crate::moves::MoveList;
use crate::position::Position;

/// The deepest perft the library runs; deeper calls panic (the CLI and the suite parser reject
/// such depths first, with a message).
///
/// Perft recurses once per ply with a move list on the stack, so an unbounded depth (say 5,000
/// on a bare-kings position) overflows the stack. 32 plies take well under 100 KiB of stack, and
/// no real search gets near it: a position averaging 4 legal moves per ply already has
/// 4^32 = 2^64 leaves at depth 32, more than a `u64` counts, and at 10^9 leaves a second even
/// depth 11 of the start position (2.1 × 10^15 leaves) takes weeks. Forced lines go deeper
/// cheaply: the deepest count in the shared suites is the tricky suite's `prison` position (one
/// legal move per ply), 1 leaf at depth 32, which this limit still allows.
pub const MAX_PERFT_DEPTH: u32 = 32;

/// Stops a depth the recursion must not reach (see [`MAX_PERFT_DEPTH`]).
#[inline]
fn check_depth(depth: u32) {
    assert!(
        depth <= MAX_PERFT_DEPTH,
        "perft depth {depth} is above the maximum of {MAX_PERFT_DEPTH} (movegen::MAX_PERFT_DEPTH)"
    );
}

/// How the leaves are counted.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum PerftMode {
    /// At depth 1, count the legal moves without listing them (popcount of target sets).
    Bulk,
    /// Make and unmake every leaf move.
    MakeLeaves,
    /// At depth 1, list the legal moves into a move list and count the list.
    ListLeaves,
}

/// Leaf count at `depth` with bulk counting.
///
/// ```
/// use chessbits::movegen::perft;
/// use chessbits::position::Position;
/// assert_eq!(perft(&Position::startpos(), 3), 8_902);
/// ```
///
/// # Panics
///
/// If `depth` is above [`MAX_PERFT_DEPTH`] (instead of overflowing the stack).
pub fn perft(pos: &Position, depth: u32) -> u64 {
    perft_with(pos, depth, PerftMode::Bulk)
}

/// Leaf count at `depth`, counting leaves as `mode` says.
///
/// # Panics
///
/// If `depth` is above [`MAX_PERFT_DEPTH`] (instead of overflowing the stack).
pub fn perft_with(pos: &Position, depth: u32, mode: PerftMode) -> u64 {
    check_depth(depth);
    let mut pos = pos.clone();
    match mode {
        PerftMode::Bulk => bulk(&mut pos, depth),
        PerftMode::MakeLeaves => make_leaves(&mut pos, depth),
        PerftMode::ListLeaves => list_leaves(&mut pos, depth),
    }
}

/// The leaf count below each legal move at `depth` (depth ≥ 1), in move-list order.
///
/// ```
/// use chessbits::movegen::perft_divide;
/// use chessbits::position::Position;
/// let divide = perft_divide(&Position::startpos(), 2);
/// assert_eq!(divide.len(), 20);
/// assert!(divide.iter().all(|&(_, n)| n == 20));
/// ```
///
/// # Panics
///
/// If `depth` is above [`MAX_PERFT_DEPTH`] (instead of overflowing the stack).
pub fn perft_divide(pos: &Position, depth: u32) -> Vec<(Move, u64)> {
    check_depth(depth);
    let mut list = MoveList::new();
    pos.legal_moves_into(&mut list);
    let mut pos = pos.clone();
    list.iter()
        .map(|&m| {
            let undo = pos.play_unchecked(m);
            let n = if depth <= 1 { 1 } else { bulk(&mut pos, depth - 1) };
            pos.unmake_move(m, undo);
            (m, n)
        })
        .collect()
}

fn bulk(pos: &mut Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_legal_moves() as u64,
        _ => {
            let mut list = MoveList::new();
            pos.legal_moves_into(&mut list);
            let mut nodes = 0;
            for &m in list.iter() {
                let undo = pos.play_unchecked(m);
                nodes += bulk(pos, depth - 1);
                pos.unmake_move(m, undo);
            }
            nodes
        }
    }
}

fn make_leaves(pos: &mut Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut list = MoveList::new();
    pos.legal_moves_into(&mut list);
    let mut nodes = 0;
    for &m in list.iter() {
        let undo = pos.play_unchecked(m);
        nodes += if depth == 1 { 1 } else { make_leaves(pos, depth - 1) };
        pos.unmake_move(m, undo);
    }
    nodes
}

fn list_leaves(pos: &mut Position, depth: u32) -> u64 {
    let mut list = MoveList::new();
    pos.legal_moves_into(&mut list);
    if depth <= 1 {
        return if depth == 0 { 1 } else { list.len() as u64 };
    }
    let mut nodes = 0;
    for &m in list.iter() {
        let undo = pos.play_unchecked(m);
        nodes += list_leaves(pos, depth - 1);
        pos.unmake_move(m, undo);
    }
    nodes
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn max_depth_is_accepted() {
        // The tricky suite's `prison`: one legal move per ply, so the full depth is cheap.
        let prison = Position::from_fen("2b5/kpPp4/1p1P4/1P6/6p1/4p1P1/4PpPK/5B2 w - -").unwrap();
        for mode in [PerftMode::Bulk, PerftMode::MakeLeaves, PerftMode::ListLeaves] {
            assert_eq!(perft_with(&prison, MAX_PERFT_DEPTH, mode), 1, "{mode:?}");
        }
        assert_eq!(perft_divide(&prison, MAX_PERFT_DEPTH).len(), 1);
    }

    #[test]
    #[should_panic(expected = "above the maximum")]
    fn deeper_than_max_panics_instead_of_overflowing_the_stack() {
        let bare_kings = Position::from_fen("8/8/8/4k3/8/8/8/4K3 w - - 0 1").unwrap();
        perft(&bare_kings, 5000);
    }

    #[test]
    #[should_panic(expected = "above the maximum")]
    fn divide_deeper_than_max_panics() {
        perft_divide(&Position::startpos(), MAX_PERFT_DEPTH + 1);
    }
}
