//! Move codes: ways to write a move in fewer bits, with and without a position.
//!
//! | module | size per move | needs | idea |
//! |---|---|---|---|
//! | [`enumeration`] | 16 bits (45,356 codes) | nothing (position only to check legality) | every (color, piece, from, to, captured, promotion) numbered |
//! | [`per_square`] | 8 bits (16 in rare positions) | the board, no move generation | per-piece upper bounds of moves, offsets by piece type (BCGN) |
//! | [`index`] | 8 bits, or ⌈log₂ n⌉ bits | legal or pseudo-legal move generation | index into the deterministic move list |
//! | [`direction_target`] | 12 bits | the board (ray lookup and bitscan) | target square and direction instead of from-square |
//! | [`flagged`] | 24 bits in a `u32` | nothing to read (the board to check) | from, to, piece, promoted piece and four flags, as bitboard engines keep moves |
//!
//! All decoders validate: garbage gives a [`MoveCodeError`], never a panic, and every decoded
//! move is checked to be legal in its position.
//!
//! ```
//! use chessbits::codec::moves::{direction_target, enumeration, index, per_square};
//! use chessbits::lists::MoveList;
//! use chessbits::position::Position;
//! let pos = Position::startpos();
//! let mut moves = MoveList::new();
//! pos.legal_moves_into(&mut moves);
//! for &m in moves.iter() {
//!     assert_eq!(enumeration::decode_move(&pos, enumeration::encode_move(&pos, m).unwrap()), Ok(m));
//!     assert_eq!(per_square::decode(&pos, per_square::encode(&pos, m).unwrap()), Ok(m));
//!     assert_eq!(index::move_at(&pos, index::MoveListKind::Legal, index::index_of(&pos, index::MoveListKind::Legal, m).unwrap()), Ok(m));
//!     assert_eq!(direction_target::decode(&pos, direction_target::encode(&pos, m).unwrap()), Ok(m));
//! }
//! ```

pub mod direction_target;
pub mod entropy;
pub mod enumeration;
mod error;
pub mod flagged;
pub mod index;
pub mod lichess;
pub mod per_square;
mod tables;

pub use error::MoveCodeError;
