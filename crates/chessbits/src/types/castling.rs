//! Castling rights, for standard chess and Chess960.
//!
//! A right is stored as the square of the rook it belongs to. That one representation serves both
//! games: the side of a right is the side of the king its rook is on, and losing a right is clearing
//! the rook's square whenever a move touches it.

use super::{Bitboard, Color, File, Rank, Square};

/// King side (towards the h-file) or queen side (towards the a-file).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum CastlingSide {
    KingSide,
    QueenSide,
}

impl CastlingSide {
    pub const ALL: [CastlingSide; 2] = [CastlingSide::KingSide, CastlingSide::QueenSide];

    /// 0 for king side, 1 for queen side.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The file the king lands on: g or c.
    pub const fn king_to_file(self) -> File {
        match self {
            CastlingSide::KingSide => File::G,
            CastlingSide::QueenSide => File::C,
        }
    }

    /// The file the rook lands on: f or d.
    pub const fn rook_to_file(self) -> File {
        match self {
            CastlingSide::KingSide => File::F,
            CastlingSide::QueenSide => File::D,
        }
    }

    /// The king's destination for `color`.
    pub const fn king_to(self, color: Color) -> Square {
        Square::from_coords(self.king_to_file(), Rank::FIRST.relative_to(color))
    }

    /// The rook's destination for `color`.
    pub const fn rook_to(self, color: Color) -> Square {
        Square::from_coords(self.rook_to_file(), Rank::FIRST.relative_to(color))
    }
}

/// The rooks that may still castle, as a set of their squares on the back ranks.
///
/// ```
/// use chessbits::types::{CastlingRights, CastlingSide, Color, Square};
/// let rights = CastlingRights::STANDARD;
/// assert_eq!(rights.rook(Color::White, CastlingSide::KingSide, Square::E1), Some(Square::H1));
/// let rights = rights.without_color(Color::Black);
/// assert!(!rights.has_color(Color::Black));
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct CastlingRights(Bitboard);

impl CastlingRights {
    pub const NONE: CastlingRights = CastlingRights(Bitboard::EMPTY);
    /// All four rights of the standard start position (rooks a1, h1, a8, h8).
    pub const STANDARD: CastlingRights = CastlingRights(Bitboard(0x8100_0000_0000_0081));

    /// Rights from a set of rook squares; squares off the back ranks are dropped.
    #[inline]
    pub const fn from_rooks(rooks: Bitboard) -> CastlingRights {
        CastlingRights(Bitboard(rooks.0 & Bitboard::BACKRANKS.0))
    }

    /// The rook squares.
    #[inline(always)]
    pub const fn rooks(self) -> Bitboard {
        self.0
    }

    /// The rook squares of one color.
    #[inline(always)]
    pub const fn rooks_of(self, color: Color) -> Bitboard {
        Bitboard(self.0 .0 & Bitboard::relative_rank(color, Rank::FIRST).0)
    }

    #[inline(always)]
    pub const fn is_empty(self) -> bool {
        self.0.is_empty()
    }

    /// Whether any right belongs to a rook on one of `squares`.
    #[inline(always)]
    pub const fn any_of(self, squares: Bitboard) -> bool {
        self.0 .0 & squares.0 != 0
    }

    #[inline(always)]
    pub const fn has_color(self, color: Color) -> bool {
        self.rooks_of(color).any()
    }

    /// The rook of `color` on `side` of a king on `king`. With two candidates (never in a legal
    /// game), the outermost.
    #[inline]
    pub fn rook(self, color: Color, side: CastlingSide, king: Square) -> Option<Square> {
        let rooks = self.rooks_of(color);
        let king_bit = 1u64 << king.index();
        match side {
            CastlingSide::KingSide => Bitboard(rooks.0 & !(king_bit | (king_bit - 1))).last(),
            CastlingSide::QueenSide => Bitboard(rooks.0 & (king_bit - 1)).first(),
        }
    }

    /// Whether `color` may castle on `side` of a king on `king`.
    #[inline]
    pub fn has(self, color: Color, side: CastlingSide, king: Square) -> bool {
        self.rook(color, side, king).is_some()
    }

    /// These rights with the right of the rook on `sq` (if any) removed.
    #[inline(always)]
    pub const fn without_square(self, sq: Square) -> CastlingRights {
        CastlingRights(self.0.without(sq))
    }

    /// These rights with every square of `squares` removed.
    #[inline(always)]
    pub const fn without(self, squares: Bitboard) -> CastlingRights {
        CastlingRights(Bitboard(self.0 .0 & !squares.0))
    }

    /// These rights with the rook on `sq` added.
    #[inline]
    pub const fn with_square(self, sq: Square) -> CastlingRights {
        CastlingRights::from_rooks(self.0.with(sq))
    }

    #[inline]
    pub const fn without_color(self, color: Color) -> CastlingRights {
        CastlingRights(Bitboard(self.0 .0 & !Bitboard::relative_rank(color, Rank::FIRST).0))
    }
}
