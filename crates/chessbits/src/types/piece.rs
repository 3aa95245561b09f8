//! A colored piece.

use super::{Color, Role};

/// A piece: a role of a color.
///
/// ```
/// use chessbits::types::{Color, Piece, Role};
/// let p = Piece::from_char('n').unwrap();
/// assert_eq!(p, Piece::new(Color::Black, Role::Knight));
/// assert_eq!(Piece::new(Color::White, Role::Queen).char(), 'Q');
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    pub color: Color,
    pub role: Role,
}

impl Piece {
    #[inline(always)]
    pub const fn new(color: Color, role: Role) -> Piece {
        Piece { color, role }
    }

    /// 0..12: `color * 6 + role`, an array index.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self.color.index() * 6 + self.role.index()
    }

    /// The piece with index `i` (see [`Piece::index`]).
    pub const fn from_index(i: usize) -> Option<Piece> {
        let color = if i < 6 { Color::White } else { Color::Black };
        match Role::from_index(i % 6) {
            Some(role) if i < 12 => Some(Piece { color, role }),
            _ => None,
        }
    }

    /// FEN letter: upper case for White.
    pub const fn char(self) -> char {
        match self.color {
            Color::White => self.role.upper_char(),
            Color::Black => self.role.char(),
        }
    }

    /// Parses a FEN letter.
    pub const fn from_char(c: char) -> Option<Piece> {
        let color = if c.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        match Role::from_char(c) {
            Some(role) => Some(Piece { color, role }),
            None => None,
        }
    }
}
