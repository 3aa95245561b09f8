//! Move-ordering memory: killer slots per ply, butterfly history, countermoves.
//!
//! - **killers**: two quiet moves per ply that caused a cut-off in a sibling node;
//! - **history**: a butterfly board per side, indexed by `from × 64 + to`
//!   ([`Move::butterfly_index`]), raised for quiet moves that cut off and lowered for the
//!   quiet moves tried before them ("history gravity" keeps values within ±[`HISTORY_MAX`]);
//! - **countermoves**: the quiet move that refuted a previous move, indexed by that move's
//!   butterfly index, so one table serves both sides;
//! - **capture history**: per (piece, to-square) and captured role, raised for captures that
//!   cut off and lowered for captures tried before a cut-off; it orders captures of the same
//!   victim class;
//! - **continuation history**: indexed by the (piece, to-square) of a move one or two plies
//!   back and the (piece, to-square) of the quiet move now: which replies work after which
//!   moves, finer than the butterfly board, which ignores what came before.

use chessbits::moves::Move;
use chessbits::types::Color;

use crate::search::score::MAX_PLY;

/// History values stay within `-HISTORY_MAX..=HISTORY_MAX`.
pub const HISTORY_MAX: i32 = 16_384;

/// Killers, history and countermoves of one search thread.
///
/// ```
/// use chessbits::moves::{Move, MoveKind};
/// use chessbits::types::{Color, Square};
/// use chessbits_engine::history::History;
/// let mut h = History::new();
/// let m = Move::new(Square::G1, Square::F3, MoveKind::Quiet);
/// h.update_quiet(Color::White, 3, m, None, 5, &[]);
/// assert_eq!(h.killers(3)[0], Some(m));
/// assert!(h.score(Color::White, m) > 0);
/// ```
#[derive(Clone)]
pub struct History {
    killers: Vec<[Option<Move>; 2]>,
    butterfly: Box<[[i32; 4096]; 2]>,
    countermoves: Box<[Option<Move>; 4096]>,
    /// `[context][captured role]` (a promotion without capture counts as role 5).
    capture: Box<[[i32; 6]; CONTEXTS]>,
    /// `[previous context × 768 + current context]`, a context being `piece × 64 + to`.
    continuation: Box<[i32]>,
}

/// The number of (piece, to-square) contexts: 12 pieces × 64 squares.
pub const CONTEXTS: usize = 768;

/// The continuation context of a move: the moving piece (index 0..12) and its target square.
#[inline]
pub fn context(piece: usize, m: Move) -> usize {
    piece * 64 + m.to().index()
}

impl Default for History {
    fn default() -> History {
        History::new()
    }
}

impl History {
    /// Empty tables.
    pub fn new() -> History {
        History {
            killers: vec![[None; 2]; MAX_PLY + 2],
            butterfly: Box::new([[0; 4096]; 2]),
            countermoves: Box::new([None; 4096]),
            continuation: vec![0; CONTEXTS * CONTEXTS].into_boxed_slice(),
            capture: Box::new([[0; 6]; CONTEXTS]),
        }
    }

    /// Forgets everything (a new game).
    pub fn clear(&mut self) {
        self.killers.iter_mut().for_each(|k| *k = [None; 2]);
        self.butterfly.iter_mut().for_each(|side| side.fill(0));
        self.countermoves.fill(None);
        self.continuation.fill(0);
        self.capture.iter_mut().for_each(|c| c.fill(0));
    }

    /// The capture history of a tactical move with context `current` taking `victim` (a role
    /// index; 5 for a promotion without capture).
    #[inline]
    pub fn capture_score(&self, current: usize, victim: usize) -> i32 {
        self.capture[current][victim]
    }

    /// A tactical move `best` (context, victim) cut off at `depth`: raise it, lower the
    /// tactical moves in `tried` (searched before it without a cut-off). `best` is `None` when
    /// a quiet move cut off: then the captures tried before it are only lowered.
    pub fn update_captures(&mut self, best: Option<(usize, usize)>, tried: &[(usize, usize)], depth: i32) {
        let bonus = (depth * depth * 16).min(1600);
        if let Some((c, v)) = best {
            Self::bump(&mut self.capture[c][v], bonus);
        }
        for &(c, v) in tried.iter().filter(|&&t| Some(t) != best) {
            Self::bump(&mut self.capture[c][v], -bonus);
        }
    }

    /// Forgets the killers only (between searches: they belong to plies of the old root).
    pub fn clear_killers(&mut self) {
        self.killers.iter_mut().for_each(|k| *k = [None; 2]);
    }

    /// The killer slots of `ply`.
    pub fn killers(&self, ply: usize) -> [Option<Move>; 2] {
        self.killers.get(ply).copied().unwrap_or([None; 2])
    }

    /// The history value of a quiet move of `side`.
    pub fn score(&self, side: Color, m: Move) -> i32 {
        self.butterfly[side.index()][m.butterfly_index()]
    }

    /// The butterfly board of `side`.
    pub fn board(&self, side: Color) -> &[i32; 4096] {
        &self.butterfly[side.index()]
    }

    /// The continuation history of a move with context `current` after a move with context
    /// `previous` (0 without one).
    #[inline]
    pub fn continuation(&self, previous: Option<usize>, current: usize) -> i32 {
        previous.map_or(0, |p| self.continuation[p * CONTEXTS + current])
    }

    /// The ordering score of a quiet move: butterfly and both continuation histories,
    /// averaged so the sum stays within ±[`HISTORY_MAX`].
    #[inline]
    pub fn quiet_score(&self, side: Color, m: Move, current: usize, conts: [Option<usize>; 2]) -> i32 {
        (self.score(side, m) + self.continuation(conts[0], current) + self.continuation(conts[1], current)) / 3
    }

    /// The countermove stored for the reply to `previous`.
    pub fn countermove(&self, previous: Option<Move>) -> Option<Move> {
        previous.and_then(|p| self.countermoves[p.butterfly_index()])
    }

    fn bump(entry: &mut i32, bonus: i32) {
        // Gravity: the closer to the limit, the smaller the step, so values saturate smoothly.
        *entry += bonus - *entry * bonus.abs() / HISTORY_MAX;
    }

    /// A quiet move `m` of `side` cut off at `ply` after `previous` at `depth`; the quiet
    /// moves in `tried` were searched before it without a cut-off.
    pub fn update_quiet(
        &mut self,
        side: Color,
        ply: usize,
        m: Move,
        previous: Option<Move>,
        depth: i32,
        tried: &[Move],
    ) {
        if let Some(slot) = self.killers.get_mut(ply) {
            if slot[0] != Some(m) {
                slot[1] = slot[0];
                slot[0] = Some(m);
            }
        }
        let bonus = (depth * depth * 16).min(1600);
        let board = &mut self.butterfly[side.index()];
        Self::bump(&mut board[m.butterfly_index()], bonus);
        for t in tried.iter().filter(|&&t| t != m) {
            Self::bump(&mut board[t.butterfly_index()], -bonus);
        }
        if let Some(p) = previous {
            self.countermoves[p.butterfly_index()] = Some(m);
        }
    }

    /// The continuation part of a cut-off: `best` (a context) raised after each previous
    /// context in `conts`, the contexts in `tried` lowered.
    pub fn update_continuation(&mut self, conts: [Option<usize>; 2], best: usize, tried: &[usize], depth: i32) {
        let bonus = (depth * depth * 16).min(1600);
        for p in conts.into_iter().flatten() {
            let row = &mut self.continuation[p * CONTEXTS..(p + 1) * CONTEXTS];
            Self::bump(&mut row[best], bonus);
            for &t in tried.iter().filter(|&&t| t != best) {
                Self::bump(&mut row[t], -bonus);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chessbits::moves::MoveKind;
    use chessbits::types::Square;

    #[test]
    fn history_saturates_and_punishes_tried_moves() {
        let mut h = History::new();
        let good = Move::new(Square::G1, Square::F3, MoveKind::Quiet);
        let bad = Move::new(Square::B1, Square::A3, MoveKind::Quiet);
        let prev = Move::new(Square::E7, Square::E5, MoveKind::DoublePush);
        for _ in 0..1000 {
            h.update_quiet(Color::White, 0, good, Some(prev), 20, &[bad]);
        }
        assert!(h.score(Color::White, good) <= HISTORY_MAX);
        assert!(h.score(Color::White, good) > HISTORY_MAX / 2);
        assert!(h.score(Color::White, bad) >= -HISTORY_MAX && h.score(Color::White, bad) < 0);
        assert_eq!(h.score(Color::Black, good), 0);
        assert_eq!(h.countermove(Some(prev)), Some(good));
        h.update_quiet(Color::White, 0, bad, None, 1, &[]);
        assert_eq!(h.killers(0), [Some(bad), Some(good)]);
    }
}
