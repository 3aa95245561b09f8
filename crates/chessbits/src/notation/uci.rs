//! UCI move notation: `e2e4`, `e7e8q`, `0000`; castling as `e1g1` (standard) or `e1h1` (Chess960,
//! king takes own rook). Both castling forms are accepted whatever the position's mode.

use core::fmt;

use crate::moves::Move;
use crate::moves::MoveList;
use crate::position::Position;
use crate::types::{Role, Square};

/// Why a UCI move could not be read.
///
/// ```
/// use chessbits::notation::uci::{parse_uci, UciError};
/// use chessbits::position::Position;
/// let pos = Position::startpos();
/// assert!(matches!(parse_uci(&pos, "e2e5"), Err(UciError::Illegal(_))));
/// assert!(matches!(parse_uci(&pos, "e2"), Err(UciError::Syntax(_))));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum UciError {
    /// Not of the form `<from><to>[promotion]` or `0000`.
    Syntax(String),
    /// Well formed, but not a legal move here.
    Illegal(String),
}

impl fmt::Display for UciError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UciError::Syntax(s) => write!(f, "invalid UCI move {s:?}"),
            UciError::Illegal(s) => write!(f, "illegal UCI move {s:?}"),
        }
    }
}

impl std::error::Error for UciError {}

/// The parts of a UCI move, before looking at a position. `Display` writes the UCI text.
///
/// ```
/// use chessbits::notation::uci::parse_parts;
/// let parts = parse_parts("e7e8q").unwrap().unwrap();
/// assert_eq!(parts.to_string(), "e7e8q");
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct UciParts {
    /// The square the piece leaves.
    pub from: Square,
    /// The square written second (for a castle, the king's or the rook's square).
    pub to: Square,
    /// The piece a pawn promotes to.
    pub promotion: Option<Role>,
}

impl fmt::Display for UciParts {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from, self.to)?;
        match self.promotion {
            Some(role) => write!(f, "{}", role.char()),
            None => Ok(()),
        }
    }
}

/// Splits `text` into from, to and promotion; `None` for the null move `0000`.
pub fn parse_parts(text: &str) -> Result<Option<UciParts>, UciError> {
    let err = || UciError::Syntax(text.to_string());
    if text == "0000" {
        return Ok(None);
    }
    if !text.is_ascii() || !(4..=5).contains(&text.len()) {
        return Err(err());
    }
    let from: Square = text[0..2].parse().map_err(|_| err())?;
    let to: Square = text[2..4].parse().map_err(|_| err())?;
    let promotion = match text[4..].chars().next() {
        None => None,
        Some(c) => match Role::from_char(c) {
            Some(role) if c.is_ascii_lowercase() && Role::PROMOTIONS.contains(&role) => Some(role),
            _ => return Err(err()),
        },
    };
    Ok(Some(UciParts { from, to, promotion }))
}

/// Finds the legal move `text` names in `pos`. `0000` gives [`Move::NULL`].
///
/// ```
/// use chessbits::notation::uci::parse_uci;
/// use chessbits::position::Position;
/// let pos = Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").unwrap();
/// let standard = parse_uci(&pos, "e1g1").unwrap();
/// let chess960 = parse_uci(&pos, "e1h1").unwrap();
/// assert_eq!(standard, chess960);
/// assert!(standard.is_castle());
/// ```
pub fn parse_uci(pos: &Position, text: &str) -> Result<Move, UciError> {
    let Some(parts) = parse_parts(text)? else {
        return Ok(Move::NULL);
    };
    let mut list = MoveList::new();
    pos.legal_moves_into(&mut list);
    find_move(&list, parts).ok_or_else(|| UciError::Illegal(text.to_string()))
}

/// Finds the move of `list` that `parts` names (see [`parse_uci`]).
pub fn find_move(list: &[Move], parts: UciParts) -> Option<Move> {
    let direct = list
        .iter()
        .copied()
        .find(|m| m.from() == parts.from && m.to() == parts.to && m.promotion() == parts.promotion && !m.is_castle());
    direct.or_else(|| {
        // King takes own rook, or the king's castling destination.
        list.iter().copied().find(|m| {
            m.is_castle()
                && m.from() == parts.from
                && parts.promotion.is_none()
                && (m.to() == parts.to || m.king_to() == parts.to)
        })
    })
}
