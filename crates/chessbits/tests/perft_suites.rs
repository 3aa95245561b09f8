//! Perft suites (`perft/` of the data directories): every position at the depths that fit CI, on
//! the bundled subsets and (ignored) on the full suites of `../shared/data`; all depths of the full
//! suites in the ignored tests, one per suite (about 6 × 10^12 leaves in all: hours on two cores;
//! see the README for how to run one).

use crate::common;

use std::path::Path;

use chessbits::movegen::suite::PerftCase;
use chessbits::movegen::{perft, perft_with, PerftMode};
use chessbits::position::Position;
use common::{perft_suite, shared_path, testdata_path};
use rayon::prelude::*;

/// Checks every case of `perft/<name>` in `root` up to `max_nodes` expected leaves per depth, on
/// all cores (largest first, so the cores finish together); returns the number of checks.
fn run(root: &Path, name: &str, max_nodes: u64) -> usize {
    let cases = perft_suite(root, name);
    let mut checks: Vec<(&PerftCase, u32, u64)> = cases
        .iter()
        .flat_map(|case| case.expected.iter().map(move |&(depth, nodes)| (case, depth, nodes)))
        .filter(|&(_, _, nodes)| nodes <= max_nodes)
        .collect();
    checks.sort_by_key(|&(_, _, nodes)| std::cmp::Reverse(nodes));
    checks.par_iter().for_each(|&(case, depth, nodes)| {
        let pos = common::composed_position(&case.fen);
        assert_eq!(
            perft(&pos, depth),
            nodes,
            "{name} {} ({}) depth {depth}",
            case.id,
            case.fen
        );
    });
    assert!(!checks.is_empty());
    checks.len()
}

/// Every suite with the most leaves a check may have in CI.
const SUITES: [(&str, u64); 6] = [
    ("shakmaty_tricky.perft", 2_000_000),
    ("ethereal_standard.epd", 2_000_000),
    ("ethereal_fischer.epd", 200_000),
    ("shakmaty_chess960.perft", 100_000),
    ("python-chess_chess960.perft", 100_000),
    ("shakmaty_random.perft", 20_000),
];

fn every_suite(root: &Path) {
    for (name, max_nodes) in SUITES {
        run(root, name, max_nodes);
    }
}

#[test]
fn suites() {
    every_suite(&testdata_path());
}

#[test]
#[ignore = "needs ../shared/data (see testdata/README.md); run: cargo test --workspace -- --ignored shared_data_"]
fn shared_data_suites() {
    every_suite(&shared_path());
}

#[test]
fn leaf_modes_agree() {
    let pos = Position::from_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq -").unwrap();
    for mode in [PerftMode::Bulk, PerftMode::MakeLeaves, PerftMode::ListLeaves] {
        assert_eq!(perft_with(&pos, 3, mode), 97_862, "{mode:?}");
    }
}

#[test]
#[ignore = "all depths of ../shared/data: about 5 × 10^9 leaves, seconds in release"]
fn all_depths_standard() {
    run(&shared_path(), "shakmaty_tricky.perft", u64::MAX);
    run(&shared_path(), "ethereal_standard.epd", u64::MAX);
}

#[test]
#[ignore = "all depths of ../shared/data: about 5 × 10^11 leaves, a quarter of an hour on two cores"]
fn all_depths_chess960() {
    run(&shared_path(), "ethereal_fischer.epd", u64::MAX);
}

/// shakmaty's and python-chess's Chess960 suites hold the same 960 positions and counts as
/// Ethereal's (from the same source); for completeness.
#[test]
#[ignore = "all depths of ../shared/data: about 10^12 leaves, half an hour on two cores"]
fn all_depths_chess960_copies() {
    run(&shared_path(), "shakmaty_chess960.perft", u64::MAX);
    run(&shared_path(), "python-chess_chess960.perft", u64::MAX);
}

#[test]
#[ignore = "all depths of ../shared/data: about 4 × 10^12 leaves, hours on two cores"]
fn all_depths_random() {
    run(&shared_path(), "shakmaty_random.perft", u64::MAX);
}
