//! A position as plain data, before validation.

use super::Board;
use crate::types::{CastlingRights, Color, Square};

/// Everything a FEN says, unchecked: the input to [`Position::from_setup`](super::Position::from_setup)
/// and the output of [`Position::to_setup`](super::Position::to_setup).
///
/// ```
/// use chessbits::position::{Position, Setup};
/// let setup = Setup::standard();
/// let pos = Position::from_setup(setup.clone()).unwrap();
/// assert_eq!(pos.to_setup(), setup);
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Setup {
    pub board: Board,
    pub turn: Color,
    /// The rooks that may castle (see [`CastlingRights`]).
    pub castling: CastlingRights,
    /// The square a pawn skipped with a double push, as in FEN.
    pub ep_square: Option<Square>,
    /// Half-moves since the last capture or pawn move.
    pub halfmove_clock: u32,
    /// Starts at 1, incremented after each Black move.
    pub fullmove_number: u32,
}

impl Setup {
    /// The standard start position.
    pub fn standard() -> Setup {
        Setup {
            board: Board::standard(),
            turn: Color::White,
            castling: CastlingRights::STANDARD,
            ep_square: None,
            halfmove_clock: 0,
            fullmove_number: 1,
        }
    }
}

impl Default for Setup {
    fn default() -> Setup {
        Setup::standard()
    }
}
