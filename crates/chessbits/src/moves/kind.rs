//! The 4-bit move kind of the seed's table.
//!
//! | code | promotion | capture | special 1 | special 0 | kind |
//! |---:|:-:|:-:|:-:|:-:|---|
//! | 0 | 0 | 0 | 0 | 0 | quiet move |
//! | 1 | 0 | 0 | 0 | 1 | double pawn push |
//! | 2 | 0 | 0 | 1 | 0 | king castle |
//! | 3 | 0 | 0 | 1 | 1 | queen castle |
//! | 4 | 0 | 1 | 0 | 0 | capture |
//! | 5 | 0 | 1 | 0 | 1 | en passant capture |
//! | 8–11 | 1 | 0 | x | x | promotion to knight, bishop, rook, queen |
//! | 12–15 | 1 | 1 | x | x | capture with promotion to knight, bishop, rook, queen |
//!
//! Codes 6 and 7 are unused and never decode.

use crate::types::{CastlingSide, Role};

/// What a move does besides going from one square to another.
///
/// ```
/// use chessbits::moves::MoveKind;
/// use chessbits::types::Role;
/// assert_eq!(MoveKind::promotion(Role::Queen, true), MoveKind::QueenPromoCapture);
/// assert_eq!(MoveKind::QueenPromoCapture as u8, 15);
/// assert!(MoveKind::EnPassant.is_capture());
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum MoveKind {
    Quiet = 0,
    DoublePush = 1,
    KingCastle = 2,
    QueenCastle = 3,
    Capture = 4,
    EnPassant = 5,
    KnightPromo = 8,
    BishopPromo = 9,
    RookPromo = 10,
    QueenPromo = 11,
    KnightPromoCapture = 12,
    BishopPromoCapture = 13,
    RookPromoCapture = 14,
    QueenPromoCapture = 15,
}

impl MoveKind {
    const PROMOTION_FLAG: u8 = 8;
    const CAPTURE_FLAG: u8 = 4;

    /// The kind with 4-bit code `code`; `None` for the unused codes 6 and 7 and above 15.
    pub const fn from_code(code: u8) -> Option<MoveKind> {
        Some(match code {
            0 => MoveKind::Quiet,
            1 => MoveKind::DoublePush,
            2 => MoveKind::KingCastle,
            3 => MoveKind::QueenCastle,
            4 => MoveKind::Capture,
            5 => MoveKind::EnPassant,
            8 => MoveKind::KnightPromo,
            9 => MoveKind::BishopPromo,
            10 => MoveKind::RookPromo,
            11 => MoveKind::QueenPromo,
            12 => MoveKind::KnightPromoCapture,
            13 => MoveKind::BishopPromoCapture,
            14 => MoveKind::RookPromoCapture,
            15 => MoveKind::QueenPromoCapture,
            _ => return None,
        })
    }

    /// The 4-bit code.
    #[inline(always)]
    pub const fn code(self) -> u8 {
        self as u8
    }

    /// The promotion kind for `role` (knight to queen), with or without capture.
    /// Other roles give a queen promotion.
    pub const fn promotion(role: Role, capture: bool) -> MoveKind {
        let base = match role {
            Role::Knight => 8,
            Role::Bishop => 9,
            Role::Rook => 10,
            _ => 11,
        };
        match MoveKind::from_code(base | if capture { MoveKind::CAPTURE_FLAG } else { 0 }) {
            Some(kind) => kind,
            None => MoveKind::QueenPromo,
        }
    }

    /// The castling kind for `side`.
    pub const fn castle(side: CastlingSide) -> MoveKind {
        match side {
            CastlingSide::KingSide => MoveKind::KingCastle,
            CastlingSide::QueenSide => MoveKind::QueenCastle,
        }
    }

    #[inline(always)]
    pub const fn is_capture(self) -> bool {
        self as u8 & MoveKind::CAPTURE_FLAG != 0
    }

    #[inline(always)]
    pub const fn is_promotion(self) -> bool {
        self as u8 & MoveKind::PROMOTION_FLAG != 0
    }

    #[inline(always)]
    pub const fn is_castle(self) -> bool {
        matches!(self, MoveKind::KingCastle | MoveKind::QueenCastle)
    }

    /// The piece promoted to, if a promotion.
    #[inline]
    pub const fn promotion_role(self) -> Option<Role> {
        if self.is_promotion() {
            Some(Role::PROMOTIONS[(self as u8 & 3) as usize])
        } else {
            None
        }
    }

    /// The castling side, if a castle.
    #[inline]
    pub const fn castling_side(self) -> Option<CastlingSide> {
        match self {
            MoveKind::KingCastle => Some(CastlingSide::KingSide),
            MoveKind::QueenCastle => Some(CastlingSide::QueenSide),
            _ => None,
        }
    }
}
