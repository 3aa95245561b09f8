//! Perft: counting the leaves of the legal move tree, the standard proof of a move generator.

use crate::lists::MoveList;
use crate::moves::Move;
use crate::position::Position;

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
pub fn perft(pos: &Position, depth: u32) -> u64 {
    perft_with(pos, depth, PerftMode::Bulk)
}

/// Leaf count at `depth`, counting leaves as `mode` says.
pub fn perft_with(pos: &Position, depth: u32, mode: PerftMode) -> u64 {
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
pub fn perft_divide(pos: &Position, depth: u32) -> Vec<(Move, u64)> {
    let mut list = MoveList::new();
    pos.legal_moves(&mut list);
    let mut pos = pos.clone();
    list.iter()
        .map(|&m| {
            let undo = pos.make_move(m);
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
            pos.legal_moves(&mut list);
            let mut nodes = 0;
            for &m in list.iter() {
                let undo = pos.make_move(m);
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
    pos.legal_moves(&mut list);
    let mut nodes = 0;
    for &m in list.iter() {
        let undo = pos.make_move(m);
        nodes += if depth == 1 { 1 } else { make_leaves(pos, depth - 1) };
        pos.unmake_move(m, undo);
    }
    nodes
}

fn list_leaves(pos: &mut Position, depth: u32) -> u64 {
    let mut list = MoveList::new();
    pos.legal_moves(&mut list);
    if depth <= 1 {
        return if depth == 0 { 1 } else { list.len() as u64 };
    }
    let mut nodes = 0;
    for &m in list.iter() {
        let undo = pos.make_move(m);
        nodes += list_leaves(pos, depth - 1);
        pos.unmake_move(m, undo);
    }
    nodes
}
