//! Where generated moves go: counted by popcount, or expanded into a move list.

use crate::lists::MoveList;
use crate::moves::{Move, MoveKind};
use crate::types::{Bitboard, Role, Square};

/// What a set of pawn moves does; every move of the set is of one kind.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub(crate) enum PawnMoves {
    Push,
    DoublePush,
    Capture,
    Promotion,
    PromotionCapture,
}

/// Receives moves as sets of targets, so that counting can popcount and listing can expand.
pub(crate) trait Sink {
    /// Moves of a non-pawn piece from `from` to every square of `to`; targets in `theirs`
    /// are captures.
    fn piece(&mut self, role: Role, from: Square, to: Bitboard, theirs: Bitboard);
    /// Pawn moves of one kind: to every square `t` of `to`, from `t - delta`.
    fn pawns(&mut self, to: Bitboard, delta: i8, kind: PawnMoves);
    /// A single move (castle or en passant).
    fn single(&mut self, m: Move);
}

/// Counts moves.
#[derive(Default)]
pub(crate) struct Counter(pub usize);

impl Sink for Counter {
    #[inline(always)]
    fn piece(&mut self, _role: Role, _from: Square, to: Bitboard, _theirs: Bitboard) {
        self.0 += to.count() as usize;
    }
    #[inline(always)]
    fn pawns(&mut self, to: Bitboard, _delta: i8, kind: PawnMoves) {
        let per_target = match kind {
            PawnMoves::Promotion | PawnMoves::PromotionCapture => 4,
            _ => 1,
        };
        self.0 += per_target * to.count() as usize;
    }
    #[inline(always)]
    fn single(&mut self, _m: Move) {
        self.0 += 1;
    }
}

impl Sink for MoveList {
    #[inline(always)]
    fn piece(&mut self, _role: Role, from: Square, to: Bitboard, theirs: Bitboard) {
        for sq in to & theirs {
            self.push(Move::new(from, sq, MoveKind::Capture));
        }
        for sq in to - theirs {
            self.push(Move::new(from, sq, MoveKind::Quiet));
        }
    }
    #[inline(always)]
    fn pawns(&mut self, to: Bitboard, delta: i8, kind: PawnMoves) {
        for sq in to {
            let from = Square::from_index_masked((sq.index() as i32 - delta as i32) as u32);
            match kind {
                PawnMoves::Push => self.push(Move::new(from, sq, MoveKind::Quiet)),
                PawnMoves::DoublePush => self.push(Move::new(from, sq, MoveKind::DoublePush)),
                PawnMoves::Capture => self.push(Move::new(from, sq, MoveKind::Capture)),
                PawnMoves::Promotion | PawnMoves::PromotionCapture => {
                    let capture = kind == PawnMoves::PromotionCapture;
                    // Queen first: the usual best move leads the list.
                    for role in [Role::Queen, Role::Knight, Role::Rook, Role::Bishop] {
                        self.push(Move::new(from, sq, MoveKind::promotion(role, capture)));
                    }
                }
            }
        }
    }
    #[inline(always)]
    fn single(&mut self, m: Move) {
        self.push(m);
    }
}
