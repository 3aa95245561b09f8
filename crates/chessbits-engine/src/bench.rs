//! `bench`: a fixed-depth search over fixed positions, for node counts and speed.
//!
//! With one thread the node count is deterministic (the table and history start empty, and
//! no decision depends on the clock), so it fingerprints the search: a change of the count
//! means a change of behaviour.

use std::sync::Arc;
use std::time::Instant;

use chessbits::game::Game;

use crate::eval::nnue::Network;
use crate::search::{run, Control, Limits, SearchThreads};
use crate::tt::TranspositionTable;

/// The default depth of `bench`.
pub const DEFAULT_DEPTH: i32 = 12;

/// Bench positions: openings, middlegames with tactics, endgames (the first six are the
/// chessprogramming wiki's perft positions).
pub const POSITIONS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4",
    "2r3k1/pp3ppp/2n1p3/3pP3/3P4/P1q2N2/2Q2PPP/R4RK1 w - - 0 20",
    "8/8/4k3/3p4/3P4/4K3/8/8 w - - 0 1",
    "6k1/5p2/6p1/8/7p/8/6PP/6K1 b - - 0 1",
    "r1b2rk1/2q1bppp/p2p1n2/np2p3/3PP3/5N1P/PPBN1PP1/R1BQR1K1 w - - 0 13",
    "4rrk1/pp1n3p/3q2pQ/2p1pb2/2PP4/2P3N1/P2B2PP/4RRK1 b - - 7 19",
];

/// The outcome of a bench run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BenchResult {
    /// Nodes over all positions.
    pub nodes: u64,
    /// Wall time in milliseconds.
    pub millis: u64,
}

impl BenchResult {
    /// Nodes per second.
    pub fn nps(&self) -> u64 {
        self.nodes * 1000 / self.millis.max(1)
    }
}

/// Searches every bench position to `depth` with `threads` threads and a `hash_mb` table, both
/// fresh, with the engine's default evaluation (the [embedded](crate::eval::nnue::embedded)
/// network); returns the totals.
pub fn run_bench(depth: i32, threads: usize, hash_mb: usize) -> BenchResult {
    run_bench_with(depth, threads, hash_mb, Some(crate::eval::nnue::embedded::network()))
}

/// [`run_bench`] evaluating with `network`, or with the hand-tuned evaluation when it is `None`
/// (UCI `bench` after `EvalFile` or with `Use NNUE` off).
pub fn run_bench_with(depth: i32, threads: usize, hash_mb: usize, network: Option<Arc<Network>>) -> BenchResult {
    let tt = TranspositionTable::new(hash_mb);
    let mut state = SearchThreads::new(threads);
    let start = Instant::now();
    let mut nodes = 0;
    for fen in POSITIONS {
        let Ok(game) = Game::from_fen(fen) else { continue };
        let limits = Limits {
            depth: Some(depth),
            quiet: true,
            network: network.clone(),
            ..Limits::default()
        };
        let result = run(&game, &limits, &tt, &Control::new(), &mut state, &mut |_| {});
        nodes += result.nodes;
    }
    BenchResult {
        nodes,
        millis: start.elapsed().as_millis() as u64,
    }
}

/// [`run_bench`] as text, in Stockfish's format.
pub fn bench(depth: i32, threads: usize, hash_mb: usize) -> String {
    report(&run_bench(depth, threads, hash_mb))
}

/// A [`BenchResult`] as text, in Stockfish's format.
pub fn report(result: &BenchResult) -> String {
    format!(
        "===========================\nTotal time (ms) : {}\nNodes searched  : {}\nNodes/second    : {}",
        result.millis,
        result.nodes,
        result.nps()
    )
}
