//! # chessbits
//!
//! How a chess program represents its world: boards, moves, move lists, positions and whole games.
//!
//! The modules follow the concepts, from the bottom up:
//!
//! - [`types`]: squares, files, ranks, colors, roles, pieces, bitboards, castling rights;
//! - [`attacks`]: attack tables for every piece (magic bitboards; PEXT with the `pext` feature);
//! - [`moves`]: the 16-bit [`Move`] and 32-bit [`ExtendedMove`];
//! - [`position`]: [`Position`]: bitboards, square lookup, state, make/unmake,
//!   Polyglot Zobrist keys;
//! - [`movegen`]: legal and pseudo-legal generation, `gives_check`, perft;
//! - [`lists`]: fixed-capacity move lists, scored lists, the search stack, staged generation;
//! - [`book`]: Polyglot opening books;
//! - [`game`]: the game list with its signature list: repetition, fifty-move rule, outcome;
//! - [`notation`]: FEN, UCI, SAN and LAN;
//! - [`pgn`]: streaming PGN reader, owned game tree, writer;
//! - [`codec`]: compact move and position codes;
//! - [`diagram`]: board diagrams as standalone SVG ([`Diagram`]: orientation, last move, check,
//!   `%cal`/`%csl` arrows and squares);
//! - `eco` (cargo feature `eco`, off by default): ECO classification by the lichess opening tables.
//!
//! Cargo features, all off by default: `gzip` and `zstd` (compressed PGN input, see
//! [`pgn::read_file`]), `serde` (the value types as strings: see below), `pext` (PEXT slider
//! lookup). Without them, no dependencies: the `.cbits` archive (zstd, checksums, parallel encoding) is the crate
//! `chessbits-archive`.
//!
//! The types used everywhere are re-exported at the root:
//!
//! ```
//! use chessbits::{Move, Position, Square};
//!
//! let mut pos = Position::startpos();
//! assert_eq!(pos.legal_moves().len(), 20);
//! let m: Move = pos.play_san("Nf3").unwrap();
//! assert_eq!(m.to(), Square::F3);
//! println!("{}", pos.board()); // a diagram with coordinates
//! ```

#![forbid(unsafe_op_in_unsafe_fn)]

pub mod attacks;
pub mod book;
pub mod codec;
pub mod diagram;
#[cfg(feature = "eco")]
pub mod eco;
pub mod game;
pub mod lists;
pub mod movegen;
pub mod moves;
pub mod notation;
pub mod pgn;
pub mod position;
#[cfg(feature = "serde")]
mod serde_impls;
pub mod types;

pub use diagram::Diagram;
pub use moves::{ExtendedMove, Move, MoveKind, MoveList};
pub use notation::san::{San, SanPlus};
pub use position::{Board, Position, Setup};
pub use types::{Bitboard, CastlingRights, CastlingSide, Color, File, Piece, Rank, Role, Square};
