//! The error shared by every move code.

use core::fmt;

use crate::codec::bits::EndOfInput;
use crate::moves::Move;
use crate::types::Square;

/// Why a move could not be encoded or a code could not be decoded.
///
/// Decoding never panics: garbage input ends in one of these.
///
/// ```
/// use chessbits::codec::moves::{enumeration::EnumeratedMove, MoveCodeError};
/// assert!(matches!(EnumeratedMove::decode(60_000), Err(MoveCodeError::CodeOutOfRange { .. })));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum MoveCodeError {
    /// A code outside the range the scheme uses (or with reserved bits set).
    CodeOutOfRange { code: u32, limit: u32 },
    /// The parts given do not make a move the scheme can describe (e.g. a bishop moving
    /// orthogonally, a pawn capturing a king); the text says which rule failed.
    InvalidParts(&'static str),
    /// The move is not legal in the position (for decoders: the code names an illegal move).
    IllegalMove(Move),
    /// The board does not hold what the code says on this square (wrong, missing or own piece).
    PieceMismatch(Square),
    /// The code is for the other side than the one to move.
    WrongSide,
    /// An index at or past the end of the move list it indexes.
    IndexOutOfRange { index: usize, len: usize },
    /// The position has no legal move, so there is nothing to index.
    NoMoves,
    /// The input ended in the middle of a code.
    UnexpectedEnd,
    /// Input left over after the last code (more than the zero padding of the last byte).
    TrailingData,
}

impl fmt::Display for MoveCodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveCodeError::CodeOutOfRange { code, limit } => {
                write!(f, "move code {code} out of range (limit {limit})")
            }
            MoveCodeError::InvalidParts(why) => write!(f, "not an encodable move: {why}"),
            MoveCodeError::IllegalMove(m) => write!(f, "illegal move {}", m.uci(true)),
            MoveCodeError::PieceMismatch(sq) => write!(f, "the board does not match the move code on {sq}"),
            MoveCodeError::WrongSide => f.write_str("move code for the side not to move"),
            MoveCodeError::IndexOutOfRange { index, len } => {
                write!(f, "move index {index} out of range for {len} moves")
            }
            MoveCodeError::NoMoves => f.write_str("no move to encode: the position has no legal move"),
            MoveCodeError::UnexpectedEnd => f.write_str("move codes end in the middle of a code"),
            MoveCodeError::TrailingData => f.write_str("data left after the last move code"),
        }
    }
}

impl std::error::Error for MoveCodeError {}

impl From<EndOfInput> for MoveCodeError {
    fn from(_: EndOfInput) -> MoveCodeError {
        MoveCodeError::UnexpectedEnd
    }
}
