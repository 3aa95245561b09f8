//! One move array shared by every ply of a depth-first search path.
//!
//! Instead of a [`MoveList`] of [`MAX_MOVES`] moves per ply on the processor stack, the whole
//! path shares one array, allocated once. Each ply owns the slice that starts where its parent's
//! generated moves end, and keeps two indices into the array:
//!
//! ```text
//!              shared array                     per ply
//!            +---------------+
//!  ply 0  {  | 0  (played)   |
//!         {  | 1  (played)   |        +-----------------+
//!         {  | 2            <---------| next to play    |  ply 0
//!         {  | …             |   +----| next to generate|
//!            +---------------+   |    +-----------------+
//!  ply 1  {  | i            <----+----| next to play    |  ply 1
//!         {  | …             |        | next to generate|--+
//!            +---------------+        +-----------------+  |
//!  ply 2     | j            <-----------------------------+  (next to play = next to generate
//!            | …             |                                 of ply 1 on entry)
//!            +---------------+
//! ```
//!
//! - generation appends at `next_to_generate` of the current ply (and advances it);
//! - [`SearchStack::pick_best`] selection-sorts within `[next_to_play, next_to_generate)`: it
//!   swaps the best-scored move to `next_to_play` and advances `next_to_play`;
//! - [`SearchStack::enter_ply`] starts ply + 1 with
//!   `next_to_generate[ply + 1] = next_to_play[ply + 1] = next_to_generate[ply]`;
//! - [`SearchStack::leave_ply`] drops the child's frame; its slots become free again.
//!
//! When a ply runs out of moves it may generate the next stage (say, quiet moves after the
//! captures), appending behind what it generated before: its children have been left, so those
//! slots are free.
//!
//! ## Capacity
//!
//! The default is `DEFAULT_MAX_PLY × AVERAGE_BRANCHING + MAX_MOVES` = 128 × 40 + 768 = 5,888
//! moves (23 KiB): average chess positions have 30–40 legal moves, staged generation and
//! hash/killer cut-offs often generate fewer, and the margin fits one worst-case position on
//! top. A path of positions with hundreds of moves each can still exceed it. The stack never
//! panics then: a generation that does not fit returns [`SearchStackError::Full`] and appends
//! nothing (all or none), so the caller can fall back — search the node with a [`MoveList`] of
//! its own, or treat it as a leaf. Entering a ply beyond the maximum ply returns
//! [`SearchStackError::TooDeep`]. [`SearchStack::with_capacity`] picks other sizes.
//!
//! A small perft over the stack:
//!
//! ```
//! use chessbits::lists::{SearchStack, SearchStackError};
//! use chessbits::position::Position;
//!
//! fn perft(pos: &mut Position, stack: &mut SearchStack, depth: u32) -> Result<u64, SearchStackError> {
//!     let generated = stack.generate_legal(pos)?;
//!     if depth <= 1 {
//!         return Ok(if depth == 0 { 1 } else { generated as u64 });
//!     }
//!     let mut nodes = 0;
//!     while let Some(xm) = stack.pick_best() {
//!         let undo = pos.play_unchecked(xm.mv());
//!         stack.enter_ply()?;
//!         nodes += perft(pos, stack, depth - 1)?;
//!         stack.leave_ply()?;
//!         pos.unmake_move(xm.mv(), undo);
//!     }
//!     Ok(nodes)
//! }
//!
//! let mut stack = SearchStack::new();
//! assert_eq!(perft(&mut Position::startpos(), &mut stack, 3), Ok(8_902));
//! assert_eq!(stack.ply(), 0);
//! ```

use core::fmt;

use super::scored::{mvv_lva, select_front};
use crate::moves::{ExtendedMove, Move};
use crate::moves::{MoveList, MAX_MOVES};
use crate::position::Position;

/// The indices of one ply into the shared array.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
struct PlyFrame {
    /// Where this ply's moves begin (the parent's `next_to_generate` on entry).
    start: usize,
    next_to_play: usize,
    next_to_generate: usize,
}

/// What went wrong on a [`SearchStack`]: it reports instead of panicking.
///
/// ```
/// use chessbits::lists::{SearchStack, SearchStackError};
/// let mut stack = SearchStack::new();
/// assert_eq!(stack.leave_ply(), Err(SearchStackError::AtRoot));
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum SearchStackError {
    /// The moves to append do not fit; nothing was appended.
    Full {
        /// The ply that generated.
        ply: usize,
        /// How many moves were to be appended.
        needed: usize,
        /// How many slots were free.
        free: usize,
    },
    /// [`SearchStack::enter_ply`] at the deepest ply.
    TooDeep {
        /// The number of plies the stack holds.
        max_ply: usize,
    },
    /// [`SearchStack::leave_ply`] at ply 0.
    AtRoot,
}

impl fmt::Display for SearchStackError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            SearchStackError::Full { ply, needed, free } => {
                write!(
                    f,
                    "search stack full at ply {ply}: {needed} moves to add, {free} slots free"
                )
            }
            SearchStackError::TooDeep { max_ply } => write!(f, "search stack holds only {max_ply} plies"),
            SearchStackError::AtRoot => write!(f, "cannot leave ply 0"),
        }
    }
}

impl std::error::Error for SearchStackError {}

/// A move array shared by all plies of a search path, with `next to play` and `next to
/// generate` per ply (see the [module docs](crate::lists::search_stack)).
///
/// ```
/// use chessbits::lists::SearchStack;
/// use chessbits::position::Position;
/// let mut stack = SearchStack::new();
/// let pos = Position::startpos();
/// assert_eq!(stack.generate_legal(&pos), Ok(20));
/// let first = stack.pick_best().unwrap();
/// stack.enter_ply().unwrap();
/// assert_eq!(stack.to_play().len(), 0); // the child starts behind the parent's 20 moves
/// stack.leave_ply().unwrap();
/// assert_eq!(stack.played(), &[first]);
/// assert_eq!(stack.to_play().len(), 19);
/// ```
#[derive(Clone)]
pub struct SearchStack {
    moves: Box<[ExtendedMove]>,
    plies: Vec<PlyFrame>,
    max_ply: usize,
}

impl SearchStack {
    /// Plies of the default stack.
    ///
    /// ```
    /// use chessbits::lists::SearchStack;
    /// assert_eq!(SearchStack::new().max_ply(), SearchStack::DEFAULT_MAX_PLY);
    /// ```
    pub const DEFAULT_MAX_PLY: usize = 128;
    /// The branching factor the default capacity assumes per ply.
    ///
    /// ```
    /// use chessbits::lists::{SearchStack, MAX_MOVES};
    /// let per_ply = (SearchStack::DEFAULT_CAPACITY - MAX_MOVES) / SearchStack::DEFAULT_MAX_PLY;
    /// assert_eq!(per_ply, SearchStack::AVERAGE_BRANCHING);
    /// ```
    pub const AVERAGE_BRANCHING: usize = 40;
    /// `DEFAULT_MAX_PLY × AVERAGE_BRANCHING + MAX_MOVES`: see the [module docs](crate::lists::search_stack).
    ///
    /// ```
    /// use chessbits::lists::SearchStack;
    /// assert_eq!(SearchStack::new().capacity(), SearchStack::DEFAULT_CAPACITY);
    /// ```
    pub const DEFAULT_CAPACITY: usize = Self::DEFAULT_MAX_PLY * Self::AVERAGE_BRANCHING + MAX_MOVES;

    /// A stack of [`Self::DEFAULT_CAPACITY`] moves and [`Self::DEFAULT_MAX_PLY`] plies, at ply 0.
    ///
    /// ```
    /// use chessbits::lists::SearchStack;
    /// let stack = SearchStack::new();
    /// assert_eq!(stack.capacity(), 5_888);
    /// assert_eq!(stack.ply(), 0);
    /// ```
    pub fn new() -> SearchStack {
        SearchStack::with_capacity(Self::DEFAULT_CAPACITY, Self::DEFAULT_MAX_PLY)
    }

    /// A stack of `capacity` moves and `max_ply` plies (at least one: the root).
    ///
    /// ```
    /// use chessbits::lists::SearchStack;
    /// let stack = SearchStack::with_capacity(1000, 16);
    /// assert_eq!((stack.capacity(), stack.max_ply()), (1000, 16));
    /// ```
    pub fn with_capacity(capacity: usize, max_ply: usize) -> SearchStack {
        let max_ply = max_ply.max(1);
        let mut plies = Vec::with_capacity(max_ply);
        plies.push(PlyFrame {
            start: 0,
            next_to_play: 0,
            next_to_generate: 0,
        });
        SearchStack {
            moves: vec![ExtendedMove::default(); capacity].into_boxed_slice(),
            plies,
            max_ply,
        }
    }

    /// The number of move slots.
    ///
    /// ```
    /// use chessbits::lists::SearchStack;
    /// assert_eq!(SearchStack::with_capacity(300, 4).capacity(), 300);
    /// ```
    #[inline]
    pub fn capacity(&self) -> usize {
        self.moves.len()
    }

    /// The number of plies the stack holds (ply indices `0..max_ply`).
    ///
    /// ```
    /// use chessbits::lists::SearchStack;
    /// assert_eq!(SearchStack::new().max_ply(), SearchStack::DEFAULT_MAX_PLY);
    /// ```
    #[inline]
    pub fn max_ply(&self) -> usize {
        self.max_ply
    }

    /// The current ply, 0 at the root.
    ///
    /// ```
    /// use chessbits::lists::SearchStack;
    /// let mut stack = SearchStack::new();
    /// stack.enter_ply().unwrap();
    /// assert_eq!(stack.ply(), 1);
    /// ```
    #[inline]
    pub fn ply(&self) -> usize {
        self.plies.len() - 1
    }

    /// Slots in use: the current ply's `next to generate`.
    ///
    /// ```
    /// use chessbits::lists::SearchStack;
    /// use chessbits::position::Position;
    /// let mut stack = SearchStack::new();
    /// stack.generate_legal(&Position::startpos()).unwrap();
    /// assert_eq!(stack.used(), 20);
    /// ```
    #[inline]
    pub fn used(&self) -> usize {
        self.frame().next_to_generate
    }

    /// Back to ply 0 with no moves.
    ///
    /// ```
    /// use chessbits::lists::SearchStack;
    /// use chessbits::position::Position;
    /// let mut stack = SearchStack::new();
    /// stack.generate_legal(&Position::startpos()).unwrap();
    /// stack.enter_ply().unwrap();
    /// stack.reset();
    /// assert_eq!((stack.ply(), stack.used()), (0, 0));
    /// ```
    pub fn reset(&mut self) {
        self.plies.truncate(1);
        if let Some(root) = self.plies.first_mut() {
            *root = PlyFrame {
                start: 0,
                next_to_play: 0,
                next_to_generate: 0,
            };
        }
    }

    #[inline(always)]
    fn frame(&self) -> PlyFrame {
        // `plies` always holds the root frame: only `leave_ply` pops, and never the root.
        self.plies.last().copied().unwrap_or(PlyFrame {
            start: 0,
            next_to_play: 0,
            next_to_generate: 0,
        })
    }

    #[inline(always)]
    fn frame_mut(&mut self) -> Option<&mut PlyFrame> {
        self.plies.last_mut()
    }

    /// Starts ply + 1: its moves begin where the current ply's generated moves end.
    ///
    /// ```
    /// use chessbits::lists::{SearchStack, SearchStackError};
    /// let mut stack = SearchStack::with_capacity(100, 2);
    /// assert_eq!(stack.enter_ply(), Ok(()));
    /// assert_eq!(stack.enter_ply(), Err(SearchStackError::TooDeep { max_ply: 2 }));
    /// ```
    pub fn enter_ply(&mut self) -> Result<(), SearchStackError> {
        if self.plies.len() >= self.max_ply {
            return Err(SearchStackError::TooDeep { max_ply: self.max_ply });
        }
        let end = self.frame().next_to_generate;
        self.plies.push(PlyFrame {
            start: end,
            next_to_play: end,
            next_to_generate: end,
        });
        Ok(())
    }

    /// Returns to the parent ply, freeing the current ply's slots.
    ///
    /// ```
    /// use chessbits::lists::SearchStack;
    /// let mut stack = SearchStack::new();
    /// stack.enter_ply().unwrap();
    /// stack.leave_ply().unwrap();
    /// assert_eq!(stack.ply(), 0);
    /// ```
    pub fn leave_ply(&mut self) -> Result<(), SearchStackError> {
        if self.plies.len() <= 1 {
            return Err(SearchStackError::AtRoot);
        }
        self.plies.pop();
        Ok(())
    }

    /// Appends one move at the current ply.
    ///
    /// ```
    /// use chessbits::lists::{SearchStack, SearchStackError};
    /// use chessbits::moves::ExtendedMove;
    /// let mut stack = SearchStack::with_capacity(1, 4);
    /// assert_eq!(stack.push(ExtendedMove::default()), Ok(()));
    /// assert!(matches!(stack.push(ExtendedMove::default()), Err(SearchStackError::Full { .. })));
    /// ```
    pub fn push(&mut self, xm: ExtendedMove) -> Result<(), SearchStackError> {
        let frame = self.frame();
        let Some(slot) = self.moves.get_mut(frame.next_to_generate) else {
            return Err(self.full_error(1));
        };
        *slot = xm;
        if let Some(frame) = self.frame_mut() {
            frame.next_to_generate += 1;
        }
        Ok(())
    }

    fn full_error(&self, needed: usize) -> SearchStackError {
        SearchStackError::Full {
            ply: self.ply(),
            needed,
            free: self.capacity().saturating_sub(self.frame().next_to_generate),
        }
    }

    /// Appends the moves of `list` at the current ply, each scored by `score` (clamped to the
    /// 16-bit range of [`ExtendedMove::score`]); all of them or, if they do not fit, none.
    /// Returns how many were appended.
    ///
    /// ```
    /// use chessbits::lists::{MoveList, SearchStack};
    /// use chessbits::position::Position;
    /// let pos = Position::startpos();
    /// let mut list = MoveList::new();
    /// pos.legal_moves_into(&mut list);
    /// let mut stack = SearchStack::new();
    /// assert_eq!(stack.append_with(&list, |m| m.to().rank().index() as i32), Ok(20));
    /// assert_eq!(stack.pick_best().unwrap().mv().to().rank().index(), 3); // a double push
    /// ```
    pub fn append_with(
        &mut self,
        list: &MoveList,
        mut score: impl FnMut(Move) -> i32,
    ) -> Result<usize, SearchStackError> {
        let start = self.frame().next_to_generate;
        let end = start.saturating_add(list.len());
        let Some(slots) = self.moves.get_mut(start..end) else {
            return Err(self.full_error(list.len()));
        };
        for (slot, &m) in slots.iter_mut().zip(list.iter()) {
            *slot = ExtendedMove::new(m).with_score(score(m));
        }
        if let Some(frame) = self.frame_mut() {
            frame.next_to_generate = end;
        }
        Ok(list.len())
    }

    /// Generates the legal moves of `pos` at the current ply, scored by [`mvv_lva`].
    ///
    /// ```
    /// use chessbits::lists::SearchStack;
    /// use chessbits::position::Position;
    /// let mut stack = SearchStack::new();
    /// assert_eq!(stack.generate_legal(&Position::startpos()), Ok(20));
    /// ```
    pub fn generate_legal(&mut self, pos: &Position) -> Result<usize, SearchStackError> {
        let mut list = MoveList::new();
        pos.legal_moves_into(&mut list);
        self.append_with(&list, |m| mvv_lva(pos.board(), m))
    }

    /// Generates the legal captures and promotions of `pos` (a first stage), scored by
    /// [`mvv_lva`].
    ///
    /// ```
    /// use chessbits::lists::SearchStack;
    /// use chessbits::position::Position;
    /// let mut stack = SearchStack::new();
    /// assert_eq!(stack.generate_tactical(&Position::startpos()), Ok(0));
    /// ```
    pub fn generate_tactical(&mut self, pos: &Position) -> Result<usize, SearchStackError> {
        let mut list = MoveList::new();
        pos.tactical_moves_into(&mut list);
        self.append_with(&list, |m| mvv_lva(pos.board(), m))
    }

    /// Generates the legal quiet moves of `pos` (a later stage), scored by [`mvv_lva`] (which
    /// for quiet moves only prefers cheaper movers).
    ///
    /// ```
    /// use chessbits::lists::SearchStack;
    /// use chessbits::position::Position;
    /// let mut stack = SearchStack::new();
    /// assert_eq!(stack.generate_quiet(&Position::startpos()), Ok(20));
    /// ```
    pub fn generate_quiet(&mut self, pos: &Position) -> Result<usize, SearchStackError> {
        let mut list = MoveList::new();
        pos.quiet_moves_into(&mut list);
        self.append_with(&list, |m| mvv_lva(pos.board(), m))
    }

    /// Selection pick at the current ply: swaps the best-scored move of `[next to play, next
    /// to generate)` to `next to play`, advances `next to play` and returns the move; `None`
    /// when this ply has nothing left to play.
    ///
    /// ```
    /// use chessbits::lists::SearchStack;
    /// use chessbits::position::Position;
    /// let pos = Position::from_fen("4k3/8/8/2n1q3/3P4/8/8/2R4K w - - 0 1").unwrap();
    /// let mut stack = SearchStack::new();
    /// stack.generate_legal(&pos).unwrap();
    /// assert_eq!(stack.pick_best().unwrap().mv().to_string(), "d4e5");
    /// ```
    pub fn pick_best(&mut self) -> Option<ExtendedMove> {
        let frame = self.frame();
        let best = select_front(self.moves.get_mut(frame.next_to_play..frame.next_to_generate)?)?;
        if let Some(frame) = self.frame_mut() {
            frame.next_to_play += 1;
        }
        Some(best)
    }

    /// Keeps only the moves still to play at the current ply for which `keep` is true (in
    /// their present order) and frees the others' slots: a search that stops trying quiet
    /// moves drops them at once instead of picking past each of them.
    ///
    /// ```
    /// use chessbits::lists::SearchStack;
    /// use chessbits::position::Position;
    /// let pos = Position::startpos();
    /// let mut stack = SearchStack::new();
    /// stack.generate_legal(&pos).unwrap();
    /// let first = stack.pick_best().unwrap();
    /// stack.retain_to_play(|xm| xm.mv().to_string().starts_with('g'));
    /// // g1f3 and g1h3 (and g2g3, g2g4) remain; the move played stays played.
    /// assert_eq!(stack.to_play().len(), 4);
    /// assert_eq!(stack.played(), &[first]);
    /// ```
    pub fn retain_to_play(&mut self, mut keep: impl FnMut(ExtendedMove) -> bool) {
        let frame = self.frame();
        let (from, end) = (frame.next_to_play, frame.next_to_generate);
        let Some(slice) = self.moves.get_mut(from..end) else {
            return;
        };
        let mut kept = 0;
        for i in 0..slice.len() {
            let xm = slice[i];
            if keep(xm) {
                slice[kept] = xm;
                kept += 1;
            }
        }
        if let Some(frame) = self.frame_mut() {
            frame.next_to_generate = from + kept;
        }
    }

    /// The next move at the current ply in generation order, without selection.
    ///
    /// ```
    /// use chessbits::lists::{MoveList, SearchStack};
    /// use chessbits::position::Position;
    /// let pos = Position::startpos();
    /// let mut list = MoveList::new();
    /// pos.legal_moves_into(&mut list);
    /// let mut stack = SearchStack::new();
    /// stack.generate_legal(&pos).unwrap();
    /// assert_eq!(stack.next_move().unwrap().mv(), list[0]);
    /// ```
    pub fn next_move(&mut self) -> Option<ExtendedMove> {
        let frame = self.frame();
        if frame.next_to_play >= frame.next_to_generate {
            return None;
        }
        let xm = self.moves.get(frame.next_to_play).copied()?;
        if let Some(frame) = self.frame_mut() {
            frame.next_to_play += 1;
        }
        Some(xm)
    }

    /// The moves of the current ply not played yet: `[next to play, next to generate)`.
    ///
    /// ```
    /// use chessbits::lists::SearchStack;
    /// use chessbits::position::Position;
    /// let mut stack = SearchStack::new();
    /// stack.generate_legal(&Position::startpos()).unwrap();
    /// stack.pick_best();
    /// assert_eq!(stack.to_play().len(), 19);
    /// ```
    pub fn to_play(&self) -> &[ExtendedMove] {
        let frame = self.frame();
        self.moves
            .get(frame.next_to_play..frame.next_to_generate)
            .unwrap_or(&[])
    }

    /// The moves the current ply has played, in play order.
    ///
    /// ```
    /// use chessbits::lists::SearchStack;
    /// use chessbits::position::Position;
    /// let mut stack = SearchStack::new();
    /// stack.generate_legal(&Position::startpos()).unwrap();
    /// let a = stack.pick_best().unwrap();
    /// let b = stack.pick_best().unwrap();
    /// assert_eq!(stack.played(), &[a, b]);
    /// ```
    pub fn played(&self) -> &[ExtendedMove] {
        let frame = self.frame();
        self.moves.get(frame.start..frame.next_to_play).unwrap_or(&[])
    }

    /// Every move the current ply has generated, played ones first.
    ///
    /// ```
    /// use chessbits::lists::SearchStack;
    /// use chessbits::position::Position;
    /// let mut stack = SearchStack::new();
    /// stack.generate_legal(&Position::startpos()).unwrap();
    /// stack.pick_best();
    /// assert_eq!(stack.generated().len(), 20);
    /// ```
    pub fn generated(&self) -> &[ExtendedMove] {
        let frame = self.frame();
        self.moves.get(frame.start..frame.next_to_generate).unwrap_or(&[])
    }
}

impl Default for SearchStack {
    fn default() -> SearchStack {
        SearchStack::new()
    }
}

impl fmt::Debug for SearchStack {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SearchStack")
            .field("capacity", &self.capacity())
            .field("ply", &self.ply())
            .field("plies", &self.plies)
            .finish()
    }
}
