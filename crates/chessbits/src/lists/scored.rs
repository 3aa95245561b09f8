//! A scored move list with selection picking: the move-ordering half of a search list.
//!
//! Entries are 32-bit [`ExtendedMove`]s: the 16-bit move with a signed 16-bit ordering score
//! in the top bits. Scores come from [`mvv_lva`] by default, or from a caller's function (a
//! history table's values fit as they are).
//!
//! Moves are not sorted up front. [`ScoredMoveList::pick_best`] does one step of a selection
//! sort: it scans the moves not yet picked, swaps the best to the front of that range and
//! advances past it — O(n) per pick. At a cut node the first one or two picks usually end the
//! search of the node, so a full O(n log n) sort would mostly order moves nobody looks at.

use crate::moves::{ExtendedMove, Move};
use crate::moves::{MoveList, MAX_MOVES};
use crate::position::{Board, Position};
use crate::types::Role;

/// The role `m` captures on `board`: the piece on the target square for captures, a pawn for
/// en passant, nothing otherwise (a castle's target square holds the own rook, which is not
/// captured).
///
/// ```
/// use chessbits::lists::captured_role;
/// use chessbits::notation::uci::parse_uci;
/// use chessbits::position::Position;
/// use chessbits::types::Role;
/// let pos = Position::from_fen("4k3/8/8/3p4/4N3/8/8/4K3 w - - 0 1").unwrap();
/// assert_eq!(captured_role(pos.board(), parse_uci(&pos, "e4d6").unwrap()), None);
/// let pos = Position::from_fen("4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1").unwrap();
/// assert_eq!(captured_role(pos.board(), parse_uci(&pos, "e4d5").unwrap()), Some(Role::Pawn));
/// ```
#[inline]
pub fn captured_role(board: &Board, m: Move) -> Option<Role> {
    if m.is_en_passant() {
        Some(Role::Pawn)
    } else if m.is_capture() {
        board.role_at(m.to())
    } else {
        None
    }
}

/// The default ordering score: Most Valuable Victim, then Least Valuable Attacker, read from
/// the board before `m` is made.
///
/// `16 × (victim + promotion) + (7 − attacker)`, with victim 0 (none), 1 (pawn) … 5 (queen),
/// promotion 0 (none), 1 (knight) … 4 (queen) and attacker 0 (pawn) … 5 (king). Every capture
/// scores above every non-capture (at most 7), a queen promotion counts like winning a rook and
/// a bit, and among equal victims the cheaper attacker goes first. The range is 2 to 151.
///
/// ```
/// use chessbits::lists::mvv_lva;
/// use chessbits::notation::uci::parse_uci;
/// use chessbits::position::Position;
/// // The pawn and the queen can both take the queen on e5; the pawn can take the rook on c5.
/// let pos = Position::from_fen("4k3/8/8/2r1q3/3P4/8/4Q3/7K w - - 0 1").unwrap();
/// let score = |uci| mvv_lva(pos.board(), parse_uci(&pos, uci).unwrap());
/// assert!(score("d4e5") > score("e2e5"));
/// assert!(score("e2e5") > score("d4c5"));
/// ```
#[inline]
pub fn mvv_lva(board: &Board, m: Move) -> i32 {
    let victim = match captured_role(board, m) {
        Some(role) => role as i32 + 1,
        None => 0,
    };
    let promotion = match m.promotion() {
        Some(role) => role as i32,
        None => 0,
    };
    let attacker = board.role_at(m.from()).unwrap_or(Role::Pawn) as i32;
    16 * (victim + promotion) + (7 - attacker)
}

/// Moves the best-scored move of `moves` to index 0 (swapping the move there into its place)
/// and returns it; of equal scores the first in the current arrangement wins. `None` if
/// `moves` is empty.
#[inline]
pub(crate) fn select_front(moves: &mut [ExtendedMove]) -> Option<ExtendedMove> {
    let mut best = 0;
    let mut best_score = moves.first()?.score();
    for (i, xm) in moves.iter().enumerate().skip(1) {
        if xm.score() > best_score {
            best = i;
            best_score = xm.score();
        }
    }
    moves.swap(0, best);
    moves.first().copied()
}

/// A list of up to [`MAX_MOVES`] scored moves on the stack, picked best first.
///
/// The moves before the cursor have been picked (in pick order); the ones after it remain.
///
/// ```
/// use chessbits::lists::{MoveList, ScoredMoveList};
/// use chessbits::position::Position;
/// // White can take the queen with the pawn, or the knight with the pawn or the rook.
/// let pos = Position::from_fen("4k3/8/8/2n1q3/3P4/8/8/2R4K w - - 0 1").unwrap();
/// let mut captures = MoveList::new();
/// pos.tactical_moves_into(&mut captures);
/// let mut scored = ScoredMoveList::from_moves(&captures, &pos);
/// assert_eq!(scored.pick_best().unwrap().mv().to_string(), "d4e5"); // pawn takes queen
/// assert_eq!(scored.pick_best().unwrap().mv().to_string(), "d4c5"); // least valuable attacker first
/// assert_eq!(scored.pick_best().unwrap().mv().to_string(), "c1c5");
/// assert_eq!(scored.pick_best(), None);
/// ```
#[derive(Clone)]
pub struct ScoredMoveList {
    len: usize,
    next: usize,
    moves: [ExtendedMove; MAX_MOVES],
}

/// [`ScoredMoveList::push`] on a full list.
///
/// ```
/// use chessbits::lists::{ListFull, ScoredMoveList, MAX_MOVES};
/// use chessbits::moves::ExtendedMove;
/// let mut list = ScoredMoveList::new();
/// for _ in 0..MAX_MOVES {
///     list.push(ExtendedMove::default()).unwrap();
/// }
/// assert_eq!(list.push(ExtendedMove::default()), Err(ListFull));
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct ListFull;

impl core::fmt::Display for ListFull {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "scored move list is full ({MAX_MOVES} moves)")
    }
}

impl std::error::Error for ListFull {}

impl ScoredMoveList {
    /// An empty list.
    ///
    /// ```
    /// use chessbits::lists::ScoredMoveList;
    /// assert!(ScoredMoveList::new().is_empty());
    /// ```
    #[inline]
    pub const fn new() -> ScoredMoveList {
        ScoredMoveList {
            len: 0,
            next: 0,
            moves: [ExtendedMove::new(Move::NULL); MAX_MOVES],
        }
    }

    /// The moves of `list`, extended from `pos` and scored by [`mvv_lva`].
    ///
    /// ```
    /// use chessbits::lists::{MoveList, ScoredMoveList};
    /// use chessbits::position::Position;
    /// let pos = Position::startpos();
    /// let mut list = MoveList::new();
    /// pos.legal_moves_into(&mut list);
    /// assert_eq!(ScoredMoveList::from_moves(&list, &pos).len(), 20);
    /// ```
    pub fn from_moves(list: &MoveList, pos: &Position) -> ScoredMoveList {
        let mut scored = ScoredMoveList::new();
        scored.fill(list, pos);
        scored
    }

    /// Replaces the content with the moves of `list` scored by [`mvv_lva`].
    ///
    /// ```
    /// use chessbits::lists::{MoveList, ScoredMoveList};
    /// use chessbits::position::Position;
    /// let pos = Position::startpos();
    /// let mut list = MoveList::new();
    /// pos.legal_moves_into(&mut list);
    /// let mut scored = ScoredMoveList::new();
    /// scored.fill(&list, &pos);
    /// // No captures: pawn moves (cheapest attacker) score highest.
    /// let first = scored.pick_best().unwrap().mv();
    /// assert_eq!(pos.board().role_at(first.from()), Some(chessbits::types::Role::Pawn));
    /// ```
    pub fn fill(&mut self, list: &MoveList, pos: &Position) {
        let board = pos.board();
        self.fill_with(list, |m| mvv_lva(board, m));
    }

    /// Replaces the content with the moves of `list`, each scored by `score` (clamped to
    /// [`ExtendedMove::MIN_SCORE`]..=[`ExtendedMove::MAX_SCORE`]): a history table's values,
    /// for example, as they are.
    ///
    /// ```
    /// use chessbits::lists::{MoveList, ScoredMoveList};
    /// use chessbits::position::Position;
    /// let pos = Position::startpos();
    /// let mut list = MoveList::new();
    /// pos.quiet_moves_into(&mut list);
    /// let mut history = [0i32; 4096];
    /// history[list[7].butterfly_index()] = -5_000;
    /// history[list[3].butterfly_index()] = 9_000;
    /// let mut scored = ScoredMoveList::new();
    /// scored.fill_with(&list, |m| history[m.butterfly_index()]);
    /// assert_eq!(scored.pick_best().unwrap().mv(), list[3]);
    /// assert_eq!(scored.pick_best().unwrap().score(), 0);
    /// ```
    pub fn fill_with(&mut self, list: &MoveList, mut score: impl FnMut(Move) -> i32) {
        self.clear();
        // `list` holds at most MAX_MOVES moves, so the zip covers all of them.
        for (slot, &m) in self.moves.iter_mut().zip(list.iter()) {
            *slot = ExtendedMove::new(m).with_score(score(m));
        }
        self.len = list.len();
    }

    /// Appends a move as it is (score included).
    ///
    /// ```
    /// use chessbits::lists::ScoredMoveList;
    /// use chessbits::moves::{ExtendedMove, Move, MoveKind};
    /// use chessbits::types::Square;
    /// let mut list = ScoredMoveList::new();
    /// let m = Move::new(Square::G1, Square::F3, MoveKind::Quiet);
    /// list.push(ExtendedMove::new(m).with_score(3)).unwrap();
    /// assert_eq!(list.pick_best().unwrap().score(), 3);
    /// ```
    #[inline]
    pub fn push(&mut self, xm: ExtendedMove) -> Result<(), ListFull> {
        let slot = self.moves.get_mut(self.len).ok_or(ListFull)?;
        *slot = xm;
        self.len += 1;
        Ok(())
    }

    /// Selection pick: swaps the highest-scored remaining move to the front of the remaining
    /// range, steps past it and returns it. O(remaining). Of equal scores the first in the
    /// current arrangement wins: deterministic, but since each pick swaps the front move back
    /// into the range, not always the original list order.
    ///
    /// ```
    /// use chessbits::lists::ScoredMoveList;
    /// use chessbits::moves::{ExtendedMove, Move, MoveKind};
    /// use chessbits::types::Square;
    /// let mut list = ScoredMoveList::new();
    /// for (to, score) in [(Square::A3, 5), (Square::B3, 9), (Square::C3, 1)] {
    ///     let m = Move::new(Square::B1, to, MoveKind::Quiet);
    ///     list.push(ExtendedMove::new(m).with_score(score)).unwrap();
    /// }
    /// let picked: Vec<i32> = std::iter::from_fn(|| list.pick_best()).map(|xm| xm.score()).collect();
    /// assert_eq!(picked, [9, 5, 1]);
    /// ```
    #[inline]
    pub fn pick_best(&mut self) -> Option<ExtendedMove> {
        let remaining = self.moves.get_mut(self.next..self.len)?;
        let best = select_front(remaining)?;
        self.next += 1;
        Some(best)
    }

    /// The moves not picked yet (in no particular order).
    ///
    /// ```
    /// use chessbits::lists::{MoveList, ScoredMoveList};
    /// use chessbits::position::Position;
    /// let pos = Position::startpos();
    /// let mut list = MoveList::new();
    /// pos.legal_moves_into(&mut list);
    /// let mut scored = ScoredMoveList::from_moves(&list, &pos);
    /// scored.pick_best();
    /// assert_eq!(scored.remaining().len(), 19);
    /// ```
    #[inline]
    pub fn remaining(&self) -> &[ExtendedMove] {
        self.moves.get(self.next..self.len).unwrap_or(&[])
    }

    /// The moves picked so far, in pick order.
    ///
    /// ```
    /// use chessbits::lists::{MoveList, ScoredMoveList};
    /// use chessbits::position::Position;
    /// let pos = Position::startpos();
    /// let mut list = MoveList::new();
    /// pos.legal_moves_into(&mut list);
    /// let mut scored = ScoredMoveList::from_moves(&list, &pos);
    /// let first = scored.pick_best().unwrap();
    /// assert_eq!(scored.picked(), &[first]);
    /// ```
    #[inline]
    pub fn picked(&self) -> &[ExtendedMove] {
        self.moves.get(..self.next).unwrap_or(&[])
    }

    /// All moves, picked ones first.
    ///
    /// ```
    /// use chessbits::lists::ScoredMoveList;
    /// assert!(ScoredMoveList::new().as_slice().is_empty());
    /// ```
    #[inline]
    pub fn as_slice(&self) -> &[ExtendedMove] {
        self.moves.get(..self.len).unwrap_or(&[])
    }

    /// The number of moves, picked or not.
    ///
    /// ```
    /// use chessbits::lists::ScoredMoveList;
    /// assert_eq!(ScoredMoveList::new().len(), 0);
    /// ```
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the list holds no moves at all.
    ///
    /// ```
    /// use chessbits::lists::ScoredMoveList;
    /// assert!(ScoredMoveList::new().is_empty());
    /// ```
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Removes every move.
    ///
    /// ```
    /// use chessbits::lists::{MoveList, ScoredMoveList};
    /// use chessbits::position::Position;
    /// let pos = Position::startpos();
    /// let mut list = MoveList::new();
    /// pos.legal_moves_into(&mut list);
    /// let mut scored = ScoredMoveList::from_moves(&list, &pos);
    /// scored.clear();
    /// assert_eq!(scored.pick_best(), None);
    /// ```
    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
        self.next = 0;
    }
}

impl Default for ScoredMoveList {
    fn default() -> ScoredMoveList {
        ScoredMoveList::new()
    }
}

impl core::fmt::Debug for ScoredMoveList {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("ScoredMoveList")
            .field("picked", &self.picked())
            .field("remaining", &self.remaining())
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn select_front_prefers_the_first_of_equal_scores() {
        let xm = |to: u8, score| {
            let to = crate::types::Square::new(to).unwrap_or(crate::types::Square::A1);
            let m = Move::new(crate::types::Square::H8, to, crate::moves::MoveKind::Quiet);
            ExtendedMove::new(m).with_score(score)
        };
        let mut moves = [xm(1, 4), xm(2, 7), xm(3, 7), xm(4, 2)];
        assert_eq!(select_front(&mut moves), Some(xm(2, 7)));
        assert_eq!(moves[1], xm(1, 4));
        assert_eq!(select_front(&mut []), None);
    }
}
