//! A fixed-capacity list of moves that lives on the stack.

use core::ops::{Deref, DerefMut};

use crate::moves::Move;

/// Capacity of a [`MoveList`]: more than any position can have, legal or pseudo-legal.
///
/// Why 768 suffices for every FEN the parser accepts (one king a side, any other material):
/// count (from, to) pairs. A target square is reached by at most 16 pieces (the nearest piece on
/// each of the 8 rays — pawns and kings only ever move to such squares — and 8 knights), and a
/// piece reaches at most 27 squares (a queen). With `n` own pieces and `64 - n` other squares,
/// pairs ≤ min(27n, 16(64 - n)) ≤ 640. Promotions turn one pair into four moves: at most 8 target
/// squares × 3 pawns, so +72; castling adds 2. Total ≤ 714. The most known is 270
/// (`kBQQQQQQ/BR5Q/Q6Q/Q6Q/Q6Q/Q6Q/Q6Q/KQQQQQQQ w - -`); 218 with legal material.
pub const MAX_MOVES: usize = 768;

/// A list of up to [`MAX_MOVES`] moves, with no heap allocation.
///
/// ```
/// use chessbits::lists::MoveList;
/// use chessbits::moves::{Move, MoveKind};
/// use chessbits::types::Square;
/// let mut list = MoveList::new();
/// list.push(Move::new(Square::G1, Square::F3, MoveKind::Quiet));
/// assert_eq!(list.len(), 1);
/// assert_eq!(list[0].to(), Square::F3);
/// ```
#[derive(Clone)]
pub struct MoveList {
    len: usize,
    moves: [Move; MAX_MOVES],
}

impl MoveList {
    #[inline(always)]
    pub const fn new() -> MoveList {
        MoveList {
            len: 0,
            moves: [Move::NULL; MAX_MOVES],
        }
    }

    /// Appends a move. The capacity bound above makes overflow impossible for generated moves;
    /// pushing more than [`MAX_MOVES`] by hand panics.
    #[inline(always)]
    pub fn push(&mut self, m: Move) {
        self.moves[self.len] = m;
        self.len += 1;
    }

    #[inline(always)]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// Keeps the first `len` moves.
    #[inline]
    pub fn truncate(&mut self, len: usize) {
        self.len = self.len.min(len);
    }

    /// Keeps the moves for which `keep` is true, in order.
    pub fn retain(&mut self, mut keep: impl FnMut(Move) -> bool) {
        let mut j = 0;
        for i in 0..self.len {
            let m = self.moves[i];
            if keep(m) {
                self.moves[j] = m;
                j += 1;
            }
        }
        self.len = j;
    }

    /// Removes and returns the move at `index`, replacing it with the last one (O(1)).
    pub fn swap_remove(&mut self, index: usize) -> Move {
        let m = self.moves[..self.len][index];
        self.len -= 1;
        self.moves[index] = self.moves[self.len];
        m
    }
}

impl Default for MoveList {
    fn default() -> MoveList {
        MoveList::new()
    }
}

impl Deref for MoveList {
    type Target = [Move];
    #[inline(always)]
    fn deref(&self) -> &[Move] {
        &self.moves[..self.len]
    }
}

impl DerefMut for MoveList {
    #[inline(always)]
    fn deref_mut(&mut self) -> &mut [Move] {
        &mut self.moves[..self.len]
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = core::slice::Iter<'a, Move>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl core::fmt::Debug for MoveList {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl Extend<Move> for MoveList {
    fn extend<I: IntoIterator<Item = Move>>(&mut self, iter: I) {
        for m in iter {
            self.push(m);
        }
    }
}
