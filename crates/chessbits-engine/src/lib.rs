//! # chessbits-engine
//!
//! A UCI chess engine built on the [`chessbits`] library's moves and lists: the 16-bit move
//! in the transposition table ([`tt`]), killer slots, butterfly history and countermove
//! tables ([`history`]), the triangular PV table, one [`SearchStack`](chessbits::lists::SearchStack)
//! per thread with staged generation ([`search::picker`]), the 32-bit extended move with its
//! ordering score, and per-thread copies of the game's signature list for Lazy SMP
//! ([`search`]).
//!
//! - [`search`]: iterative deepening, aspiration windows, PVS, quiescence, pruning, Lazy SMP;
//! - [`eval`]: tapered evaluation, and the NNUE network and its file format ([`eval::nnue`]);
//! - [`tt`]: the lock-free transposition table;
//! - [`time`]: time management;
//! - [`uci`]: the protocol loop;
//! - [`bench`](mod@bench): the fixed-depth benchmark;
//! - [`book`]: opening book moves;
//! - [`datagen`]: self-play training data, its file format and reader;
//! - [`tune`]: Texel tuning of the evaluation weights;
//! - [`tune_pst`]: gradient-descent tuning of the piece-square tables.
//!
//! ```
//! use chessbits::game::Game;
//! use chessbits_engine::search::{run, Control, Limits, SearchThreads};
//! use chessbits_engine::tt::TranspositionTable;
//! let game = Game::new();
//! let limits = Limits { depth: Some(3), ..Limits::default() };
//! let result = run(&game, &limits, &TranspositionTable::new(1), &Control::new(), &mut SearchThreads::new(1), &mut |_| {});
//! assert!(result.best_move.is_some());
//! ```

// Denied, not forbidden: the AVX2 paths of `eval::nnue::accumulator` (behind run-time feature
// detection) and the transposition table's prefetch hint are the places allowed `unsafe`.
#![deny(unsafe_code)]
#![warn(missing_docs)]

pub mod bench;
pub mod book;
pub mod datagen;
pub mod eval;
pub mod history;
pub mod rng;
pub mod search;
pub mod time;
pub mod tt;
pub mod tune;
pub mod tune_pst;
pub mod uci;
