//! Moves as the generator produces them: sets of targets that can be counted by popcount or
//! expanded into moves.

use crate::moves::MoveList;
use crate::moves::{Move, MoveKind};
use crate::types::{Bitboard, Role, Square};

/// What every move of a pawn set does.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Hash)]
pub enum PawnMoveKind {
    Push,
    DoublePush,
    Capture,
    /// A push to the last rank: four moves per target.
    Promotion,
    /// A capture onto the last rank: four moves per target.
    PromotionCapture,
}

/// A set of legal (or pseudo-legal) moves sharing their origin or their shape.
///
/// ```
/// use chessbits::movegen::MoveSet;
/// use chessbits::position::Position;
/// let pos = Position::startpos();
/// let (mut sets, mut moves) = (0, 0);
/// pos.for_each_legal_set(|set: MoveSet| {
///     sets += 1;
///     moves += set.len();
/// });
/// assert_eq!(moves, 20);
/// assert!(sets < 20);
/// ```
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum MoveSet {
    /// A piece other than a pawn moving from `from` to every square of `to`; the targets in
    /// `captures` (a subset of `to`) hold an enemy piece.
    Piece {
        role: Role,
        from: Square,
        to: Bitboard,
        captures: Bitboard,
    },
    /// Pawns moving to every square `t` of `to`, each from `t - delta` (square indices).
    Pawns {
        to: Bitboard,
        delta: i8,
        kind: PawnMoveKind,
    },
    /// A single move: en passant or castling.
    Single(Move),
}

/// Promotion order in lists: queen first, the usual best move.
const PROMOTION_ORDER: [Role; 4] = [Role::Queen, Role::Knight, Role::Rook, Role::Bishop];

impl MoveSet {
    /// The number of moves in the set (popcount; four per promotion target).
    #[inline(always)]
    pub fn len(&self) -> usize {
        match *self {
            MoveSet::Piece { to, .. } => to.count() as usize,
            MoveSet::Pawns {
                to,
                kind: PawnMoveKind::Promotion | PawnMoveKind::PromotionCapture,
                ..
            } => 4 * to.count() as usize,
            MoveSet::Pawns { to, .. } => to.count() as usize,
            MoveSet::Single(_) => 1,
        }
    }

    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Calls `f` with every move of the set, in list order (captures first for pieces).
    #[inline(always)]
    pub fn for_each(&self, mut f: impl FnMut(Move)) {
        match *self {
            MoveSet::Piece { from, to, captures, .. } => {
                for sq in captures {
                    f(Move::new(from, sq, MoveKind::Capture));
                }
                for sq in to - captures {
                    f(Move::new(from, sq, MoveKind::Quiet));
                }
            }
            MoveSet::Pawns { to, delta, kind } => {
                for sq in to {
                    let from = Square::from_index_masked((sq.index() as i32 - delta as i32) as u32);
                    match kind {
                        PawnMoveKind::Push => f(Move::new(from, sq, MoveKind::Quiet)),
                        PawnMoveKind::DoublePush => f(Move::new(from, sq, MoveKind::DoublePush)),
                        PawnMoveKind::Capture => f(Move::new(from, sq, MoveKind::Capture)),
                        PawnMoveKind::Promotion | PawnMoveKind::PromotionCapture => {
                            let capture = kind == PawnMoveKind::PromotionCapture;
                            for role in PROMOTION_ORDER {
                                f(Move::new(from, sq, MoveKind::promotion(role, capture)));
                            }
                        }
                    }
                }
            }
            MoveSet::Single(m) => f(m),
        }
    }

    /// Whether `m` is one of the moves of the set, decided without expanding it.
    #[inline]
    pub fn contains(&self, m: Move) -> bool {
        match *self {
            MoveSet::Piece { from, to, captures, .. } => {
                let kind = if captures.contains(m.to()) {
                    MoveKind::Capture
                } else {
                    MoveKind::Quiet
                };
                m.from() == from && to.contains(m.to()) && m.kind() == kind
            }
            MoveSet::Pawns { to, delta, kind } => {
                let from_matches = m.from().index() as i32 == m.to().index() as i32 - delta as i32;
                let kind_matches = match kind {
                    PawnMoveKind::Push => m.kind() == MoveKind::Quiet,
                    PawnMoveKind::DoublePush => m.kind() == MoveKind::DoublePush,
                    PawnMoveKind::Capture => m.kind() == MoveKind::Capture,
                    PawnMoveKind::Promotion => m.is_promotion() && !m.is_capture(),
                    PawnMoveKind::PromotionCapture => m.is_promotion() && m.is_capture(),
                };
                to.contains(m.to()) && from_matches && kind_matches
            }
            MoveSet::Single(single) => single == m,
        }
    }

    /// Appends every move of the set to `list`.
    #[inline(always)]
    pub fn push_into(&self, list: &mut MoveList) {
        list.append(|out| self.for_each(|m| out.push(m)));
    }
}
