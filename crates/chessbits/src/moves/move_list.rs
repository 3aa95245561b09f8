//! A fixed-capacity list of moves that lives on the stack.

use core::mem::MaybeUninit;
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
pub struct MoveList {
    len: usize,
    /// `moves[..len]` is initialized; the rest is not. Leaving it uninitialized saves zeroing
    /// 1.5 KB at every node of a search (measured: see BENCHMARKS.md).
    moves: [MaybeUninit<Move>; MAX_MOVES],
}

/// Pushes moves at the end of a [`MoveList`] for [`MoveList::append`].
pub struct Appender<'a> {
    moves: &'a mut [MaybeUninit<Move>; MAX_MOVES],
    len: usize,
}

impl Appender<'_> {
    /// Appends a move; pushing more than [`MAX_MOVES`] in all panics.
    #[inline(always)]
    pub fn push(&mut self, m: Move) {
        self.moves[self.len] = MaybeUninit::new(m);
        self.len += 1;
    }
}

impl MoveList {
    #[inline(always)]
    pub const fn new() -> MoveList {
        MoveList {
            len: 0,
            moves: [MaybeUninit::uninit(); MAX_MOVES],
        }
    }

    /// Appends a move. The capacity bound above makes overflow impossible for generated moves;
    /// pushing more than [`MAX_MOVES`] by hand panics.
    #[inline(always)]
    pub fn push(&mut self, m: Move) {
        self.moves[self.len] = MaybeUninit::new(m);
        self.len += 1;
    }

    /// Appends the moves that `fill` pushes into the [`Appender`] it gets. Faster than
    /// [`push`](MoveList::push) in a loop: the length stays in a register until `fill` returns,
    /// where through `push` it goes to memory and back for every move (the compiler cannot tell
    /// the move written from the length).
    ///
    /// ```
    /// use chessbits::lists::MoveList;
    /// use chessbits::moves::{Move, MoveKind};
    /// use chessbits::types::Square;
    /// let mut list = MoveList::new();
    /// list.push(Move::new(Square::E2, Square::E4, MoveKind::DoublePush));
    /// list.append(|out| {
    ///     out.push(Move::new(Square::G1, Square::F3, MoveKind::Quiet));
    ///     out.push(Move::new(Square::B1, Square::C3, MoveKind::Quiet));
    /// });
    /// assert_eq!(list.len(), 3);
    /// assert_eq!(list[2].to(), Square::C3);
    /// ```
    #[inline(always)]
    pub fn append(&mut self, fill: impl FnOnce(&mut Appender<'_>)) {
        let mut appender = Appender {
            moves: &mut self.moves,
            len: self.len,
        };
        fill(&mut appender);
        self.len = appender.len;
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
            let m = self[i];
            if keep(m) {
                self.moves[j] = MaybeUninit::new(m);
                j += 1;
            }
        }
        self.len = j;
    }

    /// Removes and returns the move at `index`, replacing it with the last one (O(1)).
    pub fn swap_remove(&mut self, index: usize) -> Move {
        let m = self[index];
        let last = self[self.len - 1];
        self.len -= 1;
        if index < self.len {
            self.moves[index] = MaybeUninit::new(last);
        }
        m
    }
}

impl Clone for MoveList {
    fn clone(&self) -> MoveList {
        let mut copy = MoveList::new();
        copy.extend(self.iter().copied());
        copy
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
        let init = &self.moves[..self.len];
        // SAFETY: `moves[..len]` is initialized (every push writes before incrementing `len`,
        // nothing else raises `len`), and `MaybeUninit<Move>` has the layout of `Move`.
        unsafe { &*(init as *const [MaybeUninit<Move>] as *const [Move]) }
    }
}

impl DerefMut for MoveList {
    #[inline(always)]
    fn deref_mut(&mut self) -> &mut [Move] {
        let init = &mut self.moves[..self.len];
        // SAFETY: as in `deref`; writes through the slice keep the elements initialized.
        unsafe { &mut *(init as *mut [MaybeUninit<Move>] as *mut [Move]) }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::moves::MoveKind;
    use crate::types::Square;
    use proptest::prelude::*;

    fn mv(i: u16) -> Move {
        Move::new(
            Square::from_index_masked(i as u32),
            Square::from_index_masked(i as u32 / 64 + 1),
            MoveKind::Quiet,
        )
    }

    #[derive(Debug, Clone)]
    enum Op {
        Push(u16),
        Clear,
        Truncate(usize),
        RetainEven,
        SwapRemove(usize),
        Sort,
    }

    fn op() -> impl Strategy<Value = Op> {
        prop_oneof![
            8 => any::<u16>().prop_map(Op::Push),
            1 => Just(Op::Clear),
            1 => (0usize..40).prop_map(Op::Truncate),
            1 => Just(Op::RetainEven),
            2 => any::<usize>().prop_map(Op::SwapRemove),
            1 => Just(Op::Sort),
        ]
    }

    proptest! {
        /// The list behaves exactly like a `Vec` (the model) under every operation, which is
        /// what the unsafe slice views rely on.
        #[test]
        fn behaves_like_vec(ops in proptest::collection::vec(op(), 0..300)) {
            let mut list = MoveList::new();
            let mut model: Vec<Move> = Vec::new();
            for op in ops {
                match op {
                    Op::Push(i) => { list.push(mv(i)); model.push(mv(i)); }
                    Op::Clear => { list.clear(); model.clear(); }
                    Op::Truncate(n) => { list.truncate(n); model.truncate(n); }
                    Op::RetainEven => { list.retain(|m| m.bits() % 2 == 0); model.retain(|m| m.bits() % 2 == 0); }
                    Op::SwapRemove(i) => if !model.is_empty() {
                        let i = i % model.len();
                        prop_assert_eq!(list.swap_remove(i), model.swap_remove(i));
                    }
                    Op::Sort => { list.sort(); model.sort(); }
                }
                prop_assert_eq!(&list[..], &model[..]);
                prop_assert_eq!(&list.clone()[..], &model[..]);
            }
        }
    }

    #[test]
    fn fills_to_capacity() {
        let mut list = MoveList::new();
        for i in 0..MAX_MOVES {
            list.push(mv(i as u16));
        }
        assert_eq!(list.len(), MAX_MOVES);
        assert_eq!(list[MAX_MOVES - 1], mv(MAX_MOVES as u16 - 1));
    }
}
