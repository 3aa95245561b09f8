//! Staged move generation: the hash move, then captures, then killers, then quiet moves.
//!
//! A search that cuts off after the first move or two should not pay for generating and
//! ordering everything. [`MovePicker`] hands out moves in stages and generates each stage only
//! when the previous one is used up:
//!
//! 1. **hash move** — the best move from the transposition table, checked for legality first
//!    (a stale or colliding entry may hold anything) and yielded without any generation;
//! 2. **captures** — legal captures and promotions (the tactical moves), picked best-first by
//!    [`mvv_lva`] with a selection pick;
//! 3. **killers** — up to two quiet moves that caused cut-offs at this ply elsewhere in the
//!    tree, each checked for legality, yielded without generating quiet moves;
//! 4. **quiet moves** — the rest, picked best-first by a caller-supplied key such as a
//!    butterfly history table (`history[from × 64 + to]`).
//!
//! Every legal move comes exactly once: the later stages skip the hash move and killers that
//! were yielded, an illegal hash move or killer is dropped silently, and a tactical killer is
//! left to the capture stage. In check, the generated stages are the legal evasions (the
//! generator is legal), so the picker works unchanged there.
//!
//! Legality of the hash move and killers is decided without generating: the moving piece, the
//! move kind against the board, the piece's attack set, and then whether any enemy piece
//! attacks the king with the occupancy after the move. Castles and en passant (rare, and with
//! special cases of their own) are left to [`Position::is_legal`], which runs the generator.

use super::scored::{mvv_lva, ScoredMoveList};
use crate::moves::MoveList;
use crate::moves::{ExtendedMove, Move};
use crate::position::Position;

/// The stage a [`MovePicker`] yielded its last move from.
///
/// ```
/// use chessbits::lists::{MovePicker, Stage};
/// use chessbits::position::Position;
/// let pos = Position::startpos();
/// let mut picker = MovePicker::new(&pos, None, [None, None], |_| 0);
/// picker.next();
/// assert_eq!(picker.stage(), Stage::Quiets); // no hash move, captures or killers here
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Stage {
    /// The transposition-table move.
    HashMove,
    /// Captures and promotions.
    Captures,
    /// Killer moves.
    Killers,
    /// The remaining quiet moves.
    Quiets,
    /// Nothing yielded yet, or everything yielded.
    Done,
}

/// Where the picker stands; `Generate*` states generate a stage on the next call.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum State {
    HashMove,
    GenerateCaptures,
    Captures,
    Killer(usize),
    GenerateQuiets,
    Quiets,
    Done,
}

/// Yields the legal moves of a position in stages: hash move, captures (MVV-LVA), killers,
/// quiet moves (by a caller's key). See the [module docs](crate::lists::picker).
///
/// `Q` orders the quiet moves: a larger key goes first; it sees the move with its mover set.
///
/// ```
/// use chessbits::lists::{MovePicker, Stage};
/// use chessbits::notation::uci::parse_uci;
/// use chessbits::position::Position;
/// let pos = Position::from_fen("4k3/8/8/3q4/8/2N5/8/4K3 w - - 0 1").unwrap();
/// let hash = parse_uci(&pos, "e1f2").ok();
/// let killer = parse_uci(&pos, "c3b5").ok();
/// let mut picker = MovePicker::new(&pos, hash, [killer, None], |_| 0);
/// assert_eq!(picker.next(), hash);
/// assert_eq!(picker.next().map(|m| m.to_string()), Some("c3d5".to_string())); // the capture
/// assert_eq!(picker.stage(), Stage::Captures);
/// assert_eq!(picker.next(), killer);
/// assert_eq!(picker.count() + 3, pos.count_legal_moves());
/// ```
pub struct MovePicker<'a, Q> {
    pos: &'a Position,
    /// The hash move; `None` once it proved illegal.
    hash_move: Option<Move>,
    /// The killers; each becomes `None` once it proved illegal, tactical or a duplicate.
    killers: [Option<Move>; 2],
    quiet_key: Q,
    state: State,
    stage: Stage,
    skip_quiets: bool,
    /// Created at the first generation: a hash-move cut-off never pays for its 3 KiB.
    list: Option<ScoredMoveList>,
}

impl<'a, Q: Fn(Move) -> i32> MovePicker<'a, Q> {
    /// A picker for `pos` with an optional hash move, up to two killers, and `quiet_key` to
    /// order quiet moves (larger first; clamped to the 16-bit range of [`ExtendedMove::score`]).
    ///
    /// ```
    /// use chessbits::lists::MovePicker;
    /// use chessbits::position::Position;
    /// let pos = Position::startpos();
    /// // Prefer advancing moves.
    /// let picker = MovePicker::new(&pos, None, [None, None], |m| m.to().rank().index() as i32);
    /// let first = picker.into_iter().next().unwrap();
    /// assert!(first.is_double_push());
    /// ```
    pub fn new(pos: &'a Position, hash_move: Option<Move>, killers: [Option<Move>; 2], quiet_key: Q) -> Self {
        MovePicker {
            pos,
            hash_move,
            killers,
            quiet_key,
            state: State::HashMove,
            stage: Stage::Done,
            skip_quiets: false,
            list: None,
        }
    }

    /// The stage of the move yielded last ([`Stage::Done`] before the first and after the last).
    ///
    /// ```
    /// use chessbits::lists::{MovePicker, Stage};
    /// use chessbits::position::Position;
    /// let pos = Position::startpos();
    /// let mut picker = MovePicker::new(&pos, None, [None, None], |_| 0);
    /// assert_eq!(picker.stage(), Stage::Done);
    /// picker.by_ref().for_each(drop);
    /// assert_eq!(picker.stage(), Stage::Done);
    /// ```
    pub fn stage(&self) -> Stage {
        self.stage
    }

    /// Stops after the tactical moves: killers and quiet moves are not yielded (quiescence
    /// search, late-move pruning). A hash move is yielded whatever it is.
    ///
    /// ```
    /// use chessbits::lists::MovePicker;
    /// use chessbits::position::Position;
    /// let pos = Position::from_fen("4k3/8/8/3q4/8/2N5/8/4K3 w - - 0 1").unwrap();
    /// let mut picker = MovePicker::new(&pos, None, [None, None], |_| 0);
    /// picker.skip_quiets();
    /// assert_eq!(picker.map(|m| m.to_string()).collect::<Vec<_>>(), ["c3d5"]);
    /// ```
    pub fn skip_quiets(&mut self) {
        self.skip_quiets = true;
    }

    /// Whether `killer` (the one at `index`) is worth yielding: legal, quiet (tactical moves
    /// belong to the capture stage) and not a move yielded before.
    fn killer_is_new_and_legal(&self, index: usize, killer: Move) -> bool {
        let duplicate = Some(killer) == self.hash_move || (index == 1 && Some(killer) == self.killers[0]);
        !killer.is_tactical() && !duplicate && self.pos.is_legal(killer)
    }

    /// Whether a generated move was already yielded as hash move or killer.
    fn already_yielded(&self, m: Move) -> bool {
        Some(m) == self.hash_move || Some(m) == self.killers[0] || Some(m) == self.killers[1]
    }
}

impl<'a> MovePicker<'a, fn(ExtendedMove) -> i32> {
    /// A picker ordering quiet moves by a butterfly history table indexed by
    /// [`Move::butterfly_index`] (`from × 64 + to`).
    ///
    /// ```
    /// use chessbits::lists::MovePicker;
    /// use chessbits::notation::uci::parse_uci;
    /// use chessbits::position::Position;
    /// let pos = Position::startpos();
    /// let mut history = [0i32; 4096];
    /// let good = parse_uci(&pos, "b1c3").unwrap();
    /// history[good.butterfly_index()] = 700;
    /// let mut picker = MovePicker::with_history(&pos, None, [None, None], &history);
    /// assert_eq!(picker.next(), Some(good));
    /// ```
    pub fn with_history(
        pos: &'a Position,
        hash_move: Option<Move>,
        killers: [Option<Move>; 2],
        history: &'a [i32; 4096],
    ) -> MovePicker<'a, impl Fn(Move) -> i32 + 'a> {
        MovePicker::new(pos, hash_move, killers, move |m: Move| {
            history.get(m.butterfly_index()).copied().unwrap_or(0)
        })
    }
}

impl<Q: Fn(Move) -> i32> Iterator for MovePicker<'_, Q> {
    type Item = Move;

    fn next(&mut self) -> Option<Move> {
        loop {
            if self.skip_quiets && matches!(self.state, State::Killer(_) | State::GenerateQuiets | State::Quiets) {
                self.state = State::Done;
            }
            match self.state {
                State::HashMove => {
                    self.state = State::GenerateCaptures;
                    if let Some(m) = self.hash_move {
                        if self.pos.is_legal(m) {
                            self.stage = Stage::HashMove;
                            return Some(m);
                        }
                        self.hash_move = None;
                    }
                }
                State::GenerateCaptures => {
                    let mut list = MoveList::new();
                    self.pos.tactical_moves_into(&mut list);
                    self.list
                        .get_or_insert_with(ScoredMoveList::new)
                        .fill_with(&list, |m| mvv_lva(self.pos.board(), m));
                    self.state = State::Captures;
                }
                State::Captures => {
                    while let Some(xm) = self.list.as_mut().and_then(ScoredMoveList::pick_best) {
                        if Some(xm.mv()) != self.hash_move {
                            self.stage = Stage::Captures;
                            return Some(xm.mv());
                        }
                    }
                    self.state = State::Killer(0);
                }
                State::Killer(index) => {
                    self.state = if index == 0 {
                        State::Killer(1)
                    } else {
                        State::GenerateQuiets
                    };
                    if let Some(killer) = self.killers.get(index).copied().flatten() {
                        if self.killer_is_new_and_legal(index, killer) {
                            self.stage = Stage::Killers;
                            return Some(killer);
                        }
                        if let Some(slot) = self.killers.get_mut(index) {
                            *slot = None;
                        }
                    }
                }
                State::GenerateQuiets => {
                    let mut list = MoveList::new();
                    self.pos.quiet_moves_into(&mut list);
                    let quiet_key = &self.quiet_key;
                    self.list
                        .get_or_insert_with(ScoredMoveList::new)
                        .fill_with(&list, quiet_key);
                    self.state = State::Quiets;
                }
                State::Quiets => {
                    while let Some(xm) = self.list.as_mut().and_then(ScoredMoveList::pick_best) {
                        if !self.already_yielded(xm.mv()) {
                            self.stage = Stage::Quiets;
                            return Some(xm.mv());
                        }
                    }
                    self.state = State::Done;
                }
                State::Done => {
                    self.stage = Stage::Done;
                    return None;
                }
            }
        }
    }
}

impl<Q> core::fmt::Debug for MovePicker<'_, Q> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("MovePicker")
            .field("position", self.pos)
            .field("hash_move", &self.hash_move)
            .field("killers", &self.killers)
            .field("state", &self.state)
            .field("list", &self.list)
            .finish()
    }
}
