//! The 32-bit extended move.
//!
//! Bit layout (bit 0 is the least significant):
//!
//! ```text
//!  31          22 21   19 18   16 15            0
//! +--------------+-------+-------+---------------+
//! |    score     | capt. | mover |  16-bit Move  |
//! +--------------+-------+-------+---------------+
//! ```
//!
//! - bits 0–15: the [`Move`] exactly;
//! - bits 16–18: the moving role (0 pawn … 5 king);
//! - bits 19–21: the captured role plus one (0 = nothing captured, 1 pawn … 5 queen);
//! - bits 22–31: an unsigned ordering score, 0–1023.
//!
//! With the score on top, comparing two extended moves as integers orders them by score first,
//! so a selection pick is a plain `max`. Equality with a [`Move`] compares the low 16 bits only.

use super::Move;
use crate::types::Role;

/// A move with its moving piece, captured piece and ordering score, in 32 bits.
///
/// ```
/// use chessbits::moves::{ExtendedMove, Move, MoveKind};
/// use chessbits::types::{Role, Square};
/// let m = Move::new(Square::D1, Square::D8, MoveKind::Capture);
/// let x = ExtendedMove::new(m, Role::Queen, Some(Role::Rook)).with_score(700);
/// assert_eq!(x.mv(), m);
/// assert_eq!(x.captured(), Some(Role::Rook));
/// assert_eq!(x.score(), 700);
/// assert!(x == m);
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct ExtendedMove(u32);

impl ExtendedMove {
    /// The largest score that fits (10 bits).
    pub const MAX_SCORE: u32 = 1023;

    /// Packs `mv` with the role that moves and the role it captures (score 0).
    #[inline(always)]
    pub const fn new(mv: Move, mover: Role, captured: Option<Role>) -> ExtendedMove {
        let captured = match captured {
            Some(role) => role as u32 + 1,
            None => 0,
        };
        ExtendedMove(mv.bits() as u32 | (mover as u32) << 16 | captured << 19)
    }

    /// The raw 32 bits.
    #[inline(always)]
    pub const fn bits(self) -> u32 {
        self.0
    }

    /// Rebuilds from raw bits; `None` if the move's kind code or a role code is invalid.
    pub const fn from_bits(bits: u32) -> Option<ExtendedMove> {
        let ok = Move::from_bits(bits as u16).is_some() && (bits >> 16) & 7 <= 5 && (bits >> 19) & 7 <= 6;
        if ok {
            Some(ExtendedMove(bits))
        } else {
            None
        }
    }

    /// The 16-bit move.
    #[inline(always)]
    pub const fn mv(self) -> Move {
        match Move::from_bits(self.0 as u16) {
            Some(m) => m,
            None => Move::NULL,
        }
    }

    /// The role that moves.
    #[inline(always)]
    pub const fn mover(self) -> Role {
        match Role::from_index(((self.0 >> 16) & 7) as usize) {
            Some(role) => role,
            None => Role::Pawn,
        }
    }

    /// The role captured, if any (a pawn for en passant).
    #[inline(always)]
    pub const fn captured(self) -> Option<Role> {
        match (self.0 >> 19) & 7 {
            0 => None,
            n => Role::from_index(n as usize - 1),
        }
    }

    /// The ordering score, 0 to [`ExtendedMove::MAX_SCORE`].
    #[inline(always)]
    pub const fn score(self) -> u32 {
        self.0 >> 22
    }

    /// The same move with `score` (clamped to [`ExtendedMove::MAX_SCORE`]).
    #[inline(always)]
    pub const fn with_score(self, score: u32) -> ExtendedMove {
        let score = if score > Self::MAX_SCORE {
            Self::MAX_SCORE
        } else {
            score
        };
        ExtendedMove((self.0 & 0x003f_ffff) | score << 22)
    }
}

impl PartialEq<Move> for ExtendedMove {
    #[inline(always)]
    fn eq(&self, other: &Move) -> bool {
        self.0 as u16 == other.bits()
    }
}

impl From<ExtendedMove> for Move {
    #[inline(always)]
    fn from(x: ExtendedMove) -> Move {
        x.mv()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::moves::MoveKind;
    use crate::types::Square;

    #[test]
    fn layout_is_pinned() {
        let m = Move::new(Square::E5, Square::D6, MoveKind::EnPassant);
        let x = ExtendedMove::new(m, Role::Pawn, Some(Role::Pawn)).with_score(5);
        assert_eq!(x.bits(), (5 << 22) | (1 << 19) | m.bits() as u32);
        assert_eq!(ExtendedMove::from_bits(x.bits()), Some(x));
        assert_eq!(x.with_score(5000).score(), 1023);
        assert!(ExtendedMove::from_bits(7 << 16).is_none());
    }

    #[test]
    fn integer_order_is_score_order() {
        let a = ExtendedMove::new(Move::new(Square::H7, Square::H8, MoveKind::Quiet), Role::King, None).with_score(1);
        let b = ExtendedMove::new(Move::new(Square::A1, Square::A2, MoveKind::Quiet), Role::Rook, None).with_score(2);
        assert!(b > a);
    }
}
