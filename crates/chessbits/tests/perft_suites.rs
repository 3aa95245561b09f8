//! Perft suites from `../shared/data/perft/`: every position at the depths that fit CI, all
//! depths in the ignored tests (`cargo test --release -p chessbits --test perft_suites -- --ignored`).

use chessbits::movegen::suite::{parse_suite, PerftCase};
use chessbits::movegen::{perft, perft_with, PerftMode};
use chessbits::position::Position;

fn suite(name: &str) -> Vec<PerftCase> {
    let path = format!("{}/../../../shared/data/perft/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    parse_suite(&text).unwrap()
}

/// Runs every case up to `max_nodes` expected leaves per depth; returns the number of checks.
fn run(name: &str, max_nodes: u64) -> usize {
    let mut checked = 0;
    for case in suite(name) {
        let pos = Position::from_fen(&case.fen).unwrap_or_else(|e| panic!("{name} {}: {e}", case.id));
        for &(depth, nodes) in &case.expected {
            if nodes <= max_nodes {
                assert_eq!(
                    perft(&pos, depth),
                    nodes,
                    "{name} {} ({}) depth {depth}",
                    case.id,
                    case.fen
                );
                checked += 1;
            }
        }
    }
    assert!(checked > 0);
    checked
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
#[ignore = "all depths: minutes in release"]
fn all_suites_all_depths() {
    for name in [
        "shakmaty_tricky.perft",
        "ethereal_standard.epd",
        "ethereal_fischer.epd",
        "shakmaty_chess960.perft",
        "python-chess_chess960.perft",
        "shakmaty_random.perft",
    ] {
        run(name, u64::MAX);
    }
}
