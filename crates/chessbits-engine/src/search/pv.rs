//! The triangular principal-variation table.

use chessbits::moves::Move;

use super::score::MAX_PLY;

/// Row `ply` holds the best line found from `ply` on; a new best move at `ply` copies the
/// child's row behind it.
///
/// ```
/// use chessbits::moves::{Move, MoveKind};
/// use chessbits::types::Square;
/// use chessbits_engine::search::pv::PvTable;
/// let mut pv = PvTable::new();
/// let a = Move::new(Square::E2, Square::E4, MoveKind::DoublePush);
/// let b = Move::new(Square::E7, Square::E5, MoveKind::DoublePush);
/// pv.clear(1);
/// pv.update(1, b);
/// pv.update(0, a);
/// assert_eq!(pv.line(0), &[a, b]);
/// ```
pub struct PvTable {
    moves: Box<[[Move; MAX_PLY + 1]]>,
    len: [usize; MAX_PLY + 2],
}

impl Default for PvTable {
    fn default() -> PvTable {
        PvTable::new()
    }
}

impl PvTable {
    /// An empty table.
    pub fn new() -> PvTable {
        PvTable {
            moves: vec![[Move::NULL; MAX_PLY + 1]; MAX_PLY + 1].into_boxed_slice(),
            len: [0; MAX_PLY + 2],
        }
    }

    /// Empties the line at `ply` (entering a node).
    #[inline]
    pub fn clear(&mut self, ply: usize) {
        if let Some(len) = self.len.get_mut(ply) {
            *len = 0;
        }
    }

    /// `m` is the new best move at `ply`: the line becomes `m` and the child's line.
    pub fn update(&mut self, ply: usize, m: Move) {
        if ply >= MAX_PLY {
            return;
        }
        let child_len = self.len[ply + 1].min(MAX_PLY - ply);
        let (head, tail) = self.moves.split_at_mut(ply + 1);
        let row = &mut head[ply];
        row[0] = m;
        if let Some(child) = tail.first() {
            row[1..=child_len].copy_from_slice(&child[..child_len]);
        }
        self.len[ply] = child_len + 1;
    }

    /// The line from `ply`.
    pub fn line(&self, ply: usize) -> &[Move] {
        &self.moves[ply][..self.len[ply]]
    }
}
