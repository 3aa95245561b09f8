//! The vocabulary: squares, files, ranks, colors, roles, pieces, bitboards and castling rights.
//!
//! Small newtypes that hide their bit tricks; everything else in the crate is built from them.

mod bitboard;
mod castling;
mod color;
pub(crate) mod geometry;
mod padded;
mod piece;
mod role;
mod square;

pub use bitboard::{Bitboard, BitboardIter};
pub use castling::{CastlingRights, CastlingSide};
pub use color::Color;
pub use piece::Piece;
pub use role::Role;
pub use square::{File, ParseSquareError, Rank, Square};

pub(crate) use padded::display_padded;
