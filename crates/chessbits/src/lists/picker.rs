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
use crate::attacks;
use crate::lists::MoveList;
use crate::moves::{ExtendedMove, Move, MoveKind};
use crate::position::Position;
use crate::types::{Bitboard, Rank, Role};

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

impl<'a, Q: Fn(ExtendedMove) -> i32> MovePicker<'a, Q> {
    /// A picker for `pos` with an optional hash move, up to two killers, and `quiet_key` to
    /// order quiet moves (larger first; see [`ScoredMoveList::fill_scaled`] for the mapping).
    ///
    /// ```
    /// use chessbits::lists::MovePicker;
    /// use chessbits::position::Position;
    /// let pos = Position::startpos();
    /// // Prefer advancing moves.
    /// let picker = MovePicker::new(&pos, None, [None, None], |xm| xm.mv().to().rank().index() as i32);
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
        !killer.is_tactical() && !duplicate && is_legal_fast(self.pos, killer)
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
    ) -> MovePicker<'a, impl Fn(ExtendedMove) -> i32 + 'a> {
        MovePicker::new(pos, hash_move, killers, move |xm: ExtendedMove| {
            history.get(xm.mv().butterfly_index()).copied().unwrap_or(0)
        })
    }
}

impl<Q: Fn(ExtendedMove) -> i32> Iterator for MovePicker<'_, Q> {
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
                        if is_legal_fast(self.pos, m) {
                            self.stage = Stage::HashMove;
                            return Some(m);
                        }
                        self.hash_move = None;
                    }
                }
                State::GenerateCaptures => {
                    let mut list = MoveList::new();
                    self.pos.tactical_moves(&mut list);
                    self.list
                        .get_or_insert_with(ScoredMoveList::new)
                        .fill_with(&list, self.pos, mvv_lva);
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
                    self.pos.quiet_moves(&mut list);
                    let quiet_key = &self.quiet_key;
                    self.list
                        .get_or_insert_with(ScoredMoveList::new)
                        .fill_scaled(&list, self.pos, quiet_key);
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

/// Whether `m` is legal in `pos`, decided without generating moves (except for castles and
/// en passant). Agrees with [`Position::is_legal`] on every 16-bit pattern (see the tests).
pub(crate) fn is_legal_fast(pos: &Position, m: Move) -> bool {
    let board = pos.board();
    let us = pos.turn();
    let (from, to, kind) = (m.from(), m.to(), m.kind());
    let Some(piece) = board.piece_at(from) else {
        return false;
    };
    if piece.color != us {
        return false;
    }
    if m.is_castle() || m.is_en_passant() {
        let right_mover = if m.is_castle() { Role::King } else { Role::Pawn };
        return piece.role == right_mover && pos.is_legal(m);
    }
    let target = board.piece_at(to);
    if target.is_some_and(|t| t.color == us || t.role == Role::King) || kind.is_capture() != target.is_some() {
        return false;
    }
    let occupied = board.occupied();
    let reaches = match piece.role {
        Role::Pawn => {
            let last_rank = to.rank() == Rank::EIGHTH.relative_to(us);
            let up = us.fold(8, -8);
            let one_up = from.offset(up);
            if kind.is_promotion() != last_rank {
                false
            } else if kind.is_capture() {
                attacks::pawn(us, from).contains(to)
            } else if kind == MoveKind::DoublePush {
                from.rank() == Rank::SECOND.relative_to(us)
                    && one_up.is_some_and(|mid| !occupied.contains(mid) && mid.offset(up) == Some(to))
            } else {
                // A push or a promotion; `to` is empty (not a capture, checked above).
                one_up == Some(to)
            }
        }
        _ => {
            matches!(kind, MoveKind::Quiet | MoveKind::Capture) && attacks::attacks(piece, from, occupied).contains(to)
        }
    };
    if !reaches {
        return false;
    }
    // Legal iff no enemy piece attacks our king once the move is made: the mover has left
    // `from` and stands on `to`, and a captured piece (on `to`) attacks nothing any more.
    let after = (occupied - Bitboard::from_square(from)) | Bitboard::from_square(to);
    let king = if piece.role == Role::King { to } else { pos.king(us) };
    (board.attackers_to(king, !us, after) - Bitboard::from_square(to)).is_empty()
}

#[cfg(test)]
mod tests {
    use super::*;

    const FENS: &[&str] = &[
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "8/2p5/3p4/KP5r/1R2Pp1k/8/6P1/8 b - e3 0 1",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        "4k3/8/8/8/8/8/4q3/4K3 w - - 0 1",
        "4k3/8/8/1b6/8/8/8/R3K2R w KQ - 0 1",
        "4k3/8/8/8/1b2r3/8/3N4/4K3 w - - 0 1",
        "3k4/8/8/K1Pp3r/8/8/8/8 w - d6 0 1",
        "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
        "kBQQQQQQ/BR5Q/Q6Q/Q6Q/Q6Q/Q6Q/Q6Q/KQQQQQQQ w - - 0 1",
        "2r1k3/1P6/8/8/8/8/6p1/4K2R b K - 0 1",
    ];

    #[test]
    fn fast_legality_agrees_with_the_generator_on_every_bit_pattern() {
        for fen in FENS {
            let pos = Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
            let mut legal = MoveList::new();
            pos.legal_moves(&mut legal);
            let mut accepted = 0;
            for bits in 0..=u16::MAX {
                let Some(m) = Move::from_bits(bits) else { continue };
                let fast = is_legal_fast(&pos, m);
                assert_eq!(fast, legal.contains(&m), "{fen}: {m} ({bits:#06x})");
                accepted += usize::from(fast);
            }
            assert_eq!(accepted, legal.len(), "{fen}");
        }
    }
}
