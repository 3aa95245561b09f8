//! Position: piece placement plus side to move, castling rights, en passant square, clocks and
//! an incrementally updated Zobrist key.

mod board;
mod setup;

pub use board::Board;
pub use setup::Setup;
