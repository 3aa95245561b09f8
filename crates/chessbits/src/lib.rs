//! # chessbits
//!
//! How a chess program represents its world: boards, moves, move lists, positions and whole games.
//!
//! The modules follow the concepts, from the bottom up:
//!
//! - [`types`]: squares, files, ranks, colors, roles, pieces, bitboards, castling rights;
//! - [`attacks`]: attack tables for every piece (magic bitboards; PEXT with the `pext` feature);
//! - [`moves`]: the 16-bit [`Move`](moves::Move) and 32-bit [`ExtendedMove`](moves::ExtendedMove);
//! - [`position`]: [`Position`](position::Position): bitboards, square lookup, state, make/unmake,
//!   Polyglot Zobrist keys;
//! - [`movegen`]: legal and pseudo-legal generation, `gives_check`, perft;
//! - [`lists`]: fixed-capacity move lists, scored lists, the search stack, staged generation;
//! - [`book`]: Polyglot opening books;
//! - [`game`]: the game list with its signature list: repetition, fifty-move rule, outcome;
//! - [`notation`]: FEN, UCI, SAN and LAN;
//! - [`pgn`]: streaming PGN reader, owned game tree, writer;
//! - [`codec`]: compact move and position codes.
//!
//! No dependencies: the `.cbits` archive (zstd, checksums, parallel encoding) is the crate
//! `chessbits-archive`.
//!
//! ```
//! use chessbits::position::Position;
//! use chessbits::lists::MoveList;
//!
//! let pos = Position::startpos();
//! let mut moves = MoveList::new();
//! pos.legal_moves(&mut moves);
//! assert_eq!(moves.len(), 20);
//! ```

#![forbid(unsafe_op_in_unsafe_fn)]

pub mod attacks;
pub mod book;
pub mod codec;
pub mod game;
pub mod lists;
pub mod movegen;
pub mod moves;
pub mod notation;
pub mod pgn;
pub mod position;
pub mod types;
