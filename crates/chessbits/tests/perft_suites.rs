//! Perft suites from `../shared/data/perft/`: every position at the depths that fit CI; all depths
//! in the ignored tests, one per suite (about 6 × 10^12 leaves in all: hours on two cores; see the
//! README for how to run one).

use chessbits::movegen::suite::{parse_suite, PerftCase};
use chessbits::movegen::{perft, perft_with, PerftMode};
use chessbits::position::Position;
use rayon::prelude::*;

fn suite(name: &str) -> Vec<PerftCase> {
    let path = format!("{}/../../../shared/data/perft/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    parse_suite(&text).unwrap()
}

/// Checks every case up to `max_nodes` expected leaves per depth, on all cores (largest first, so
/// the cores finish together); returns the number of checks.
fn run(name: &str, max_nodes: u64) -> usize {
    let cases = suite(name);
    let mut checks: Vec<(&PerftCase, u32, u64)> = cases
        .iter()
        .flat_map(|case| case.expected.iter().map(move |&(depth, nodes)| (case, depth, nodes)))
        .filter(|&(_, _, nodes)| nodes <= max_nodes)
        .collect();
    checks.sort_by_key(|&(_, _, nodes)| std::cmp::Reverse(nodes));
    checks.par_iter().for_each(|&(case, depth, nodes)| {
        let pos = Position::from_fen(&case.fen).unwrap_or_else(|e| panic!("{name} {}: {e}", case.id));
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

#[test]
fn tricky() {
    run("shakmaty_tricky.perft", 2_000_000);
}

#[test]
fn ethereal_standard() {
    run("ethereal_standard.epd", 2_000_000);
}

#[test]
fn ethereal_fischer() {
    run("ethereal_fischer.epd", 200_000);
}

#[test]
fn shakmaty_chess960() {
    run("shakmaty_chess960.perft", 100_000);
}

#[test]
fn python_chess_chess960() {
    run("python-chess_chess960.perft", 100_000);
}

#[test]
fn shakmaty_random() {
    run("shakmaty_random.perft", 20_000);
}

#[test]
fn leaf_modes_agree() {
    let pos = Position::from_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq -").unwrap();
    for mode in [PerftMode::Bulk, PerftMode::MakeLeaves, PerftMode::ListLeaves] {
        assert_eq!(perft_with(&pos, 3, mode), 97_862, "{mode:?}");
    }
}

#[test]
#[ignore = "all depths: about 5 × 10^9 leaves, seconds in release"]
fn all_depths_standard() {
    run("shakmaty_tricky.perft", u64::MAX);
    run("ethereal_standard.epd", u64::MAX);
}

#[test]
#[ignore = "all depths: about 5 × 10^11 leaves, a quarter of an hour on two cores"]
fn all_depths_chess960() {
    run("ethereal_fischer.epd", u64::MAX);
}

/// shakmaty's and python-chess's Chess960 suites hold the same 960 positions and counts as
/// Ethereal's (from the same source); for completeness.
#[test]
#[ignore = "all depths: about 10^12 leaves, half an hour on two cores"]
fn all_depths_chess960_copies() {
    run("shakmaty_chess960.perft", u64::MAX);
    run("python-chess_chess960.perft", u64::MAX);
}

#[test]
#[ignore = "all depths: about 4 × 10^12 leaves, hours on two cores"]
fn all_depths_random() {
    run("shakmaty_random.perft", u64::MAX);
}
