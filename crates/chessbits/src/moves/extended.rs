//! The 32-bit extended move.
//!
//! Bit layout (bit 0 is the least significant):
//!
//! ```text
//!  31                16 15                0
//! +--------------------+------------------+
//! | score + 32768      |   16-bit Move    |
//! +--------------------+------------------+
//! ```
//!
//! - bits 0–15: the [`Move`] exactly;
//! - bits 16–31: a signed ordering score, −32768 to 32767, stored with a bias of 32768 (so
//!   0x8000 is score 0).
//!
//! With the biased score on top, comparing two extended moves as unsigned integers orders them
//! by score first, so a selection pick is a plain `max`. Sixteen signed bits hold what a search
//! orders by directly: MVV-LVA values, SEE bands and history counters (kept within ±16384 by
//! the usual "gravity" update) without rescaling. The moving and captured pieces are not stored:
//! they are one board lookup away ([`Board::role_at`](crate::position::Board::role_at)), and
//! the devlog's flagged 32-bit move ([`codec::moves::flagged`](crate::codec::moves::flagged))
//! is the form that carries them. Equality with a [`Move`] compares the low 16 bits only.

use super::Move;

/// A move with a signed 16-bit ordering score, in 32 bits.
///
/// ```
/// use chessbits::moves::{ExtendedMove, Move, MoveKind};
/// use chessbits::types::Square;
/// let m = Move::new(Square::D1, Square::D8, MoveKind::Capture);
/// let x = ExtendedMove::new(m).with_score(-700);
/// assert_eq!(x.mv(), m);
/// assert_eq!(x.score(), -700);
/// assert!(x == m);
/// assert!(ExtendedMove::new(m).with_score(3) > x); // integer order is score order
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ExtendedMove(u32);

/// The bias that makes the unsigned integer order the signed score order.
const BIAS: i32 = 0x8000;

impl ExtendedMove {
    /// The largest score (`i16::MAX`).
    pub const MAX_SCORE: i32 = i16::MAX as i32;
    /// The smallest score (`i16::MIN`).
    pub const MIN_SCORE: i32 = i16::MIN as i32;

    /// `mv` with score 0.
    ///
    /// ```
    /// use chessbits::moves::{ExtendedMove, Move};
    /// assert_eq!(ExtendedMove::new(Move::NULL).score(), 0);
    /// ```
    #[inline(always)]
    pub const fn new(mv: Move) -> ExtendedMove {
        ExtendedMove(mv.bits() as u32 | (BIAS as u32) << 16)
    }

    /// The raw 32 bits.
    ///
    /// ```
    /// use chessbits::moves::{ExtendedMove, Move};
    /// assert_eq!(ExtendedMove::new(Move::NULL).with_score(1).bits(), 0x8001 << 16);
    /// ```
    #[inline(always)]
    pub const fn bits(self) -> u32 {
        self.0
    }

    /// Rebuilds from raw bits; `None` if the move's kind code is invalid.
    ///
    /// ```
    /// use chessbits::moves::ExtendedMove;
    /// assert_eq!(ExtendedMove::from_bits(0x8000_0000).map(|x| x.score()), Some(0));
    /// ```
    pub const fn from_bits(bits: u32) -> Option<ExtendedMove> {
        if Move::from_bits(bits as u16).is_some() {
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

    /// The ordering score, [`ExtendedMove::MIN_SCORE`] to [`ExtendedMove::MAX_SCORE`].
    #[inline(always)]
    pub const fn score(self) -> i32 {
        (self.0 >> 16) as i32 - BIAS
    }

    /// The same move with `score`, clamped to [`ExtendedMove::MIN_SCORE`]..=[`ExtendedMove::MAX_SCORE`].
    ///
    /// ```
    /// use chessbits::moves::{ExtendedMove, Move};
    /// assert_eq!(ExtendedMove::new(Move::NULL).with_score(100_000).score(), ExtendedMove::MAX_SCORE);
    /// ```
    #[inline(always)]
    pub const fn with_score(self, score: i32) -> ExtendedMove {
        let score = if score > Self::MAX_SCORE {
            Self::MAX_SCORE
        } else if score < Self::MIN_SCORE {
            Self::MIN_SCORE
        } else {
            score
        };
        ExtendedMove((self.0 & 0xffff) | ((score + BIAS) as u32) << 16)
    }
}

impl Default for ExtendedMove {
    /// The null move with score 0.
    fn default() -> ExtendedMove {
        ExtendedMove::new(Move::NULL)
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
        let x = ExtendedMove::new(m).with_score(5);
        assert_eq!(x.bits(), (0x8005 << 16) | m.bits() as u32);
        assert_eq!(
            ExtendedMove::new(m).with_score(-1).bits(),
            (0x7fff << 16) | m.bits() as u32
        );
        assert_eq!(ExtendedMove::from_bits(x.bits()), Some(x));
        assert_eq!(x.with_score(50_000).score(), 32_767);
        assert_eq!(x.with_score(-50_000).score(), -32_768);
        assert_eq!(x.with_score(-50_000).mv(), m);
    }

    #[test]
    fn integer_order_is_score_order() {
        let a = ExtendedMove::new(Move::new(Square::H7, Square::H8, MoveKind::Quiet)).with_score(-2);
        let b = ExtendedMove::new(Move::new(Square::A1, Square::A2, MoveKind::Quiet)).with_score(-1);
        let c = ExtendedMove::new(Move::new(Square::A1, Square::A2, MoveKind::Quiet)).with_score(16_000);
        assert!(a < b && b < c);
        for score in [-32_768, -16_384, -1, 0, 1, 16_384, 32_767] {
            let x = ExtendedMove::new(Move::NULL).with_score(score);
            assert_eq!(x.score(), score);
            assert!(x < x.with_score(score.saturating_add(1).min(ExtendedMove::MAX_SCORE)) || score == 32_767);
        }
    }
}
