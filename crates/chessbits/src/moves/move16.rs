//! The 16-bit move.
//!
//! Bit layout (bit 0 is the least significant):
//!
//! ```text
//!  15  12 11        6 5         0
//! +------+-----------+-----------+
//! | kind |   from    |    to     |
//! +------+-----------+-----------+
//! ```
//!
//! `from` and `to` are square indices (a1 = 0 … h8 = 63); `kind` is the 4-bit code of
//! [`MoveKind`]. The low 12 bits are the butterfly index `from * 64 + to`.
//!
//! **Castling** stores the king's square in `from` and the castling **rook's** square in `to`
//! (kind 2 = king side, 3 = queen side). "King takes own rook" identifies every Chess960 castle
//! uniquely — even when the king does not move, or lands where the rook stood — and turns back
//! into both UCI forms: `e1g1` (standard) and `e1h1` (Chess960).
//!
//! The **null move** is the all-zero word (a1a1, quiet); no real move has `from == to`.

use core::fmt;

use super::MoveKind;
use crate::types::{display_padded, CastlingSide, Color, File, Rank, Role, Square};

/// A move in 16 bits: from, to and kind.
///
/// ```
/// use chessbits::moves::{Move, MoveKind};
/// use chessbits::types::Square;
/// let m = Move::new(Square::E2, Square::E4, MoveKind::DoublePush);
/// assert_eq!(m.bits(), (1 << 12) | (12 << 6) | 28);
/// assert_eq!(m.to_string(), "e2e4");
/// assert_eq!(Move::from_bits(m.bits()), Some(m));
/// ```
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Move(u16);

impl Move {
    /// The null move: passes the turn. All bits zero.
    pub const NULL: Move = Move(0);

    #[inline(always)]
    pub const fn new(from: Square, to: Square, kind: MoveKind) -> Move {
        Move(((kind as u16) << 12) | ((from.index() as u16) << 6) | to.index() as u16)
    }

    /// A castle of the king on `king` with the rook on `rook`.
    #[inline]
    pub const fn castle(king: Square, rook: Square, side: CastlingSide) -> Move {
        Move::new(king, rook, MoveKind::castle(side))
    }

    /// The move with these 16 bits, or `None` if the kind code is unused (6 or 7).
    /// The bits are not checked against any position.
    #[inline]
    pub const fn from_bits(bits: u16) -> Option<Move> {
        match MoveKind::from_code((bits >> 12) as u8) {
            Some(_) => Some(Move(bits)),
            None => None,
        }
    }

    /// The 16 bits.
    #[inline(always)]
    pub const fn bits(self) -> u16 {
        self.0
    }

    #[inline(always)]
    pub const fn from(self) -> Square {
        Square::from_index_masked((self.0 >> 6) as u32)
    }

    /// The target square; for a castle, the rook's square (see the module docs).
    #[inline(always)]
    pub const fn to(self) -> Square {
        Square::from_index_masked(self.0 as u32)
    }

    #[inline(always)]
    pub const fn kind(self) -> MoveKind {
        // One load from a 16-entry table indexed by the top four bits (always in range), rather
        // than a validating match that compiles to compare-and-branch on every call.
        KINDS[(self.0 >> 12) as usize]
    }

    /// `from * 64 + to`, an index into a 4096-entry butterfly table.
    #[inline(always)]
    pub const fn butterfly_index(self) -> usize {
        (self.0 & 0x0fff) as usize
    }

    #[inline(always)]
    pub const fn is_null(self) -> bool {
        self.0 == 0
    }

    #[inline(always)]
    pub const fn is_capture(self) -> bool {
        self.0 & (4 << 12) != 0
    }

    #[inline(always)]
    pub const fn is_promotion(self) -> bool {
        self.0 & (8 << 12) != 0
    }

    /// A capture or a promotion: what quiescence search looks at.
    #[inline(always)]
    pub const fn is_tactical(self) -> bool {
        self.0 & (12 << 12) != 0
    }

    #[inline(always)]
    pub const fn is_castle(self) -> bool {
        self.kind().is_castle()
    }

    #[inline(always)]
    pub const fn is_en_passant(self) -> bool {
        matches!(self.kind(), MoveKind::EnPassant)
    }

    #[inline(always)]
    pub const fn is_double_push(self) -> bool {
        matches!(self.kind(), MoveKind::DoublePush)
    }

    /// The role promoted to.
    #[inline(always)]
    pub const fn promotion(self) -> Option<Role> {
        self.kind().promotion_role()
    }

    #[inline(always)]
    pub const fn castling_side(self) -> Option<CastlingSide> {
        self.kind().castling_side()
    }

    /// Where the king lands, for any move: for a castle the g- or c-file square, else `to`.
    #[inline]
    pub const fn king_to(self) -> Square {
        match self.castling_side() {
            Some(side) => Square::from_coords(side.king_to_file(), self.from().rank()),
            None => self.to(),
        }
    }

    /// The move in UCI notation; castles as king-to-rook when `chess960`, as the king's two-step
    /// otherwise.
    ///
    /// ```
    /// use chessbits::moves::Move;
    /// use chessbits::types::{CastlingSide, Square};
    /// let castle = Move::castle(Square::E1, Square::H1, CastlingSide::KingSide);
    /// assert_eq!(castle.uci(false).to_string(), "e1g1");
    /// assert_eq!(castle.uci(true).to_string(), "e1h1");
    /// ```
    pub const fn uci(self, chess960: bool) -> UciMove {
        UciMove { mv: self, chess960 }
    }

    /// The color of the mover as far as a castle tells it (its back rank), if a castle.
    pub const fn castling_color(self) -> Option<Color> {
        if !self.is_castle() {
            return None;
        }
        match self.from().rank() {
            r if r.index() == Rank::FIRST.index() => Some(Color::White),
            _ => Some(Color::Black),
        }
    }

    /// Whether this castle is written the same in standard chess: king on the e-file, rook in
    /// a corner.
    pub const fn is_standard_castle(self) -> bool {
        self.is_castle()
            && self.from().file().index() == File::E.index()
            && (self.to().file().index() == File::A.index() || self.to().file().index() == File::H.index())
    }
}

/// A move displayed in UCI notation (see [`Move::uci`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct UciMove {
    mv: Move,
    chess960: bool,
}

impl fmt::Display for UciMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mv = self.mv;
        if mv.is_null() {
            return f.pad("0000");
        }
        let to = if mv.is_castle() && !self.chess960 {
            mv.king_to()
        } else {
            mv.to()
        };
        display_padded(f, |w| {
            write!(w, "{}{}", mv.from(), to)?;
            match mv.promotion() {
                Some(role) => w.write_char(role.char()),
                None => Ok(()),
            }
        })
    }
}

/// UCI notation, castles as the king's two-step (`e1g1`).
impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.uci(false).fmt(f)
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Move({} {:?})", self.uci(true), self.kind())
    }
}

/// [`MoveKind`] by code; the unused codes 6 and 7 (never constructed) map to `Quiet`.
const KINDS: [MoveKind; 16] = {
    let mut kinds = [MoveKind::Quiet; 16];
    let mut code = 0;
    while code < 16 {
        if let Some(kind) = MoveKind::from_code(code as u8) {
            kinds[code] = kind;
        }
        code += 1;
    }
    kinds
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kind_table_agrees_with_codes() {
        for code in 0..16u16 {
            let m = Move::from_bits(code << 12 | 0o1234);
            assert_eq!(m.map(Move::kind), MoveKind::from_code(code as u8), "code {code}");
        }
    }

    #[test]
    fn bit_layout_is_pinned() {
        let m = Move::new(Square::G7, Square::H8, MoveKind::QueenPromoCapture);
        assert_eq!(m.bits(), 0b1111_110110_111111);
        assert_eq!(m.from(), Square::G7);
        assert_eq!(m.to(), Square::H8);
        assert_eq!(m.butterfly_index(), 54 * 64 + 63);
        assert_eq!(m.promotion(), Some(Role::Queen));
        assert!(m.is_capture() && m.is_promotion() && m.is_tactical());
        assert_eq!(m.to_string(), "g7h8q");
        let castle = Move::castle(Square::E8, Square::A8, CastlingSide::QueenSide);
        assert_eq!(castle.bits(), (3 << 12) | (60 << 6) | 56);
        assert_eq!(castle.king_to(), Square::C8);
        assert_eq!(castle.castling_color(), Some(Color::Black));
        assert_eq!(castle.to_string(), "e8c8");
        assert_eq!(Move::NULL.bits(), 0);
        assert_eq!(Move::NULL.to_string(), "0000");
    }

    #[test]
    fn every_valid_word_round_trips() {
        let mut valid = 0;
        for bits in 0..=u16::MAX {
            if let Some(m) = Move::from_bits(bits) {
                valid += 1;
                assert_eq!(m.bits(), bits);
                assert_eq!(Move::new(m.from(), m.to(), m.kind()), m);
            }
        }
        assert_eq!(valid, 14 * 4096);
    }

    #[test]
    fn chess960_castle_where_king_stays() {
        // King on g1, rook on h1: the king does not move but the move stays unique.
        let m = Move::castle(Square::G1, Square::H1, CastlingSide::KingSide);
        assert_eq!(m.king_to(), Square::G1);
        assert_eq!(m.uci(true).to_string(), "g1h1");
        assert!(!m.is_standard_castle());
    }
}
