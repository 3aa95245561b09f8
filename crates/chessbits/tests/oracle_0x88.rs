//! The library's move generator against an independent oracle (`tests/oracle/`: a 0x88 board
//! with piece lists that shares no attack or move-generation code with the library, see its
//! module docs). Both must give the same perft counts on the perft suites, the same legal move
//! sets (as UCI strings) at every node of random games, the asserted counts on hand-picked tricky
//! positions, and the oracle alone must match the suites' expected counts, so that one bug in both
//! cannot pass unseen. A mismatch names the FEN and the moves only one side has.

use crate::common;
#[path = "oracle/mod.rs"]
mod oracle;

use std::path::Path;

use chessbits::lists::MoveList;
use chessbits::movegen::perft;
use chessbits::movegen::suite::PerftCase;
use chessbits::position::{Position, Validation};
use common::{perft_suite as suite, shared_path, testdata_path};
use oracle::Board;
use rayon::prelude::*;

const SUITES: [&str; 4] = [
    "ethereal_standard.epd",
    "ethereal_fischer.epd",
    "shakmaty_tricky.perft",
    "shakmaty_random.perft",
];

/// Both sides of one position, each read by its own FEN parser.
fn load(fen: &str) -> (Board, Position) {
    let board = Board::from_fen(fen).unwrap_or_else(|e| panic!("oracle: {e}"));
    // The suites hold composed positions too.
    let pos = Position::from_fen_with(fen, Validation::Composed).unwrap_or_else(|e| panic!("library: {fen}: {e}"));
    assert_eq!(board.chess960, pos.is_chess960(), "Chess960 mode differs: {fen}");
    (board, pos)
}

/// The library's legal moves in UCI, sorted.
fn library_uci(pos: &Position) -> Vec<String> {
    let mut list = MoveList::new();
    pos.legal_moves_into(&mut list);
    let mut moves: Vec<String> = list.iter().map(|m| m.uci(pos.is_chess960()).to_string()).collect();
    moves.sort();
    moves
}

/// Equal legal move sets, or a report with the FEN and the moves only one side has.
fn compare_moves(board: &Board, pos: &Position) -> Result<usize, String> {
    let ours = board.legal_uci();
    let theirs = library_uci(pos);
    if ours == theirs {
        return Ok(ours.len());
    }
    let only = |a: &[String], b: &[String]| -> Vec<String> { a.iter().filter(|m| !b.contains(m)).cloned().collect() };
    Err(format!(
        "move sets differ at {}\n  only the oracle: {:?}\n  only the library: {:?}\n  (oracle {} moves, library {})",
        pos.fen(),
        only(&ours, &theirs),
        only(&theirs, &ours),
        ours.len(),
        theirs.len()
    ))
}

/// Both sides after the library's move written `uci`.
fn play_both(board: &Board, pos: &Position, uci: &str) -> (Board, Position) {
    let mut list = MoveList::new();
    pos.legal_moves_into(&mut list);
    let m = *list
        .iter()
        .find(|m| m.uci(pos.is_chess960()).to_string() == uci)
        .unwrap_or_else(|| panic!("library has no {uci} at {}", pos.fen()));
    let om = board
        .find_uci(uci)
        .unwrap_or_else(|| panic!("oracle has no {uci} at {}", pos.fen()));
    let mut child = pos.clone();
    child.play_unchecked(m);
    (board.play(om), child)
}

/// Below a perft mismatch at `depth`: follows a move whose subtree counts differ down to a node
/// whose move sets differ, and reports it with the path.
fn locate(board: &Board, pos: &Position, depth: u32) -> String {
    if let Err(report) = compare_moves(board, pos) {
        return report;
    }
    if depth > 1 {
        for uci in library_uci(pos) {
            let (b, p) = play_both(board, pos, &uci);
            let (ours, theirs) = (b.perft(depth - 1), perft(&p, depth - 1));
            if ours != theirs {
                return format!(
                    "{uci} (oracle {ours}, library {theirs}) > {}",
                    locate(&b, &p, depth - 1)
                );
            }
        }
    }
    format!("no differing move below {} at depth {depth}", pos.fen())
}

/// Oracle and library perft at the deepest listed depth with at most `max_nodes` leaves (the
/// shallowest if none is that small), both checked against the file; returns (positions, leaves).
fn perft_against_library(root: &Path, name: &str, max_nodes: u64) -> (usize, u64) {
    let cases = suite(root, name);
    let mut checks: Vec<(&PerftCase, u32, u64)> = cases
        .iter()
        .map(|case| {
            let fits = case
                .expected
                .iter()
                .filter(|&&(_, n)| n <= max_nodes)
                .max_by_key(|&&(_, n)| n);
            let &(depth, nodes) = fits
                .or_else(|| case.expected.iter().min_by_key(|&&(_, n)| n))
                .unwrap_or_else(|| panic!("{name} {}: no counts", case.id));
            (case, depth, nodes)
        })
        .collect();
    checks.sort_by_key(|&(_, _, nodes)| std::cmp::Reverse(nodes));
    let failures: Vec<String> = checks
        .par_iter()
        .filter_map(|&(case, depth, expected)| {
            let (board, pos) = load(&case.fen);
            let (ours, theirs) = (board.perft(depth), perft(&pos, depth));
            if ours == theirs && ours == expected {
                return None;
            }
            let mut report = format!(
                "{name} {} ({}) depth {depth}: expected {expected}, oracle {ours}, library {theirs}",
                case.id, case.fen
            );
            if ours != theirs {
                report += &format!("\n  {}", locate(&board, &pos, depth));
            }
            Some(report)
        })
        .collect();
    assert!(
        failures.is_empty(),
        "{} mismatches:\n{}",
        failures.len(),
        failures.join("\n")
    );
    let leaves = checks.iter().map(|&(_, _, n)| n).sum();
    println!("{name}: {} positions, {leaves} leaves each side", checks.len());
    (checks.len(), leaves)
}

/// Every suite of `root` with its leaf limit per position.
fn perft_all_against_library(root: &Path) {
    for (name, max_nodes) in [
        ("ethereal_standard.epd", 2_000_000),
        ("ethereal_fischer.epd", 300_000),
        ("shakmaty_tricky.perft", 2_000_000),
        ("shakmaty_random.perft", 30_000),
    ] {
        perft_against_library(root, name, max_nodes);
    }
}

#[test]
fn perft_suites_against_library() {
    perft_all_against_library(&testdata_path());
}

#[test]
#[ignore = "needs ../shared/data (see testdata/README.md); run: cargo test --workspace -- --ignored shared_data_"]
fn shared_data_perft_suites_against_library() {
    perft_all_against_library(&shared_path());
}

/// Compares the move sets at every node of a random game (the library's random-game helper) from
/// `fen`; returns the number of nodes compared.
fn playout(fen: &str, seed: u64, plies: usize) -> Result<usize, String> {
    let (mut board, mut pos) = load(fen);
    let moves = common::random_moves(&pos, &mut common::Rng::new(seed), plies, true);
    let mut path = Vec::new();
    for m in moves.iter().map(Some).chain([None]) {
        compare_moves(&board, &pos).map_err(|e| format!("from {fen} after {path:?}:\n{e}"))?;
        let Some(m) = m else { break };
        let uci = m.uci(pos.is_chess960()).to_string();
        (board, pos) = play_both(&board, &pos, &uci);
        path.push(uci);
    }
    Ok(moves.len() + 1)
}

fn move_sets_in_random_games(root: &Path) {
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    let mut games: Vec<(String, u64, usize)> = (0..100).map(|seed| (start.to_string(), seed, 300)).collect();
    for name in SUITES {
        // Every position of the small suites, every other one of the large random one.
        let step = if name == "shakmaty_random.perft" { 2 } else { 1 };
        for (i, case) in suite(root, name).into_iter().enumerate().step_by(step) {
            games.push((case.fen, 1000 + i as u64, 40));
        }
    }
    let results: Vec<Result<usize, String>> = games
        .par_iter()
        .map(|(fen, seed, plies)| playout(fen, *seed, *plies))
        .collect();
    let failures: Vec<&String> = results.iter().filter_map(|r| r.as_ref().err()).collect();
    assert!(failures.is_empty(), "{} games differ:\n{:?}", failures.len(), failures);
    let nodes: usize = results.iter().flatten().sum();
    println!("{} games, {nodes} positions compared", games.len());
    assert!(nodes > 5_000, "only {nodes} positions compared");
}

#[test]
fn move_sets_in_random_games_from_the_suites() {
    move_sets_in_random_games(&testdata_path());
}

#[test]
#[ignore = "needs ../shared/data (see testdata/README.md); run: cargo test --workspace -- --ignored shared_data_"]
fn shared_data_move_sets_in_random_games_from_the_suites() {
    move_sets_in_random_games(&shared_path());
}

/// Hand-picked positions: (FEN, legal move count, moves that must be there, moves that must not).
const TRICKY: [(&str, usize, &[&str], &[&str]); 7] = [
    // En passant would clear the rank between the king and the rook: illegal.
    ("8/8/8/KPp4r/8/8/8/4k3 w - c6 0 1", 4, &["b5b6", "a5a6"], &["b5c6"]),
    // The same with the rook on the other side and Black capturing.
    ("8/8/8/8/R2Pp2k/8/8/4K3 b - d3 0 1", 6, &["e4e3"], &["e4d3"]),
    // En passant that removes the checking pawn is legal, and the only non-king answer.
    ("8/8/8/2k5/3Pp3/8/8/4K3 b - d3 0 1", 9, &["e4d3", "c5d4"], &[]),
    // Chess960: the rook stands on the king's destination, the king on the rook's.
    ("4k3/8/8/8/8/8/8/5KR1 w G - 0 1", 13, &["f1g1"], &["f1h1"]),
    // Chess960: the king stays on g1, only the rook moves; written king takes rook.
    ("6k1/8/8/8/8/8/8/6KR w H - 0 1", 12, &["g1h1"], &[]),
    // Chess960: once the b1 rook has left, the a1 rook would check the king on c1 (the b1 rook
    // is pinned to the rank, too).
    (
        "4k3/8/8/8/8/8/8/rR3K2 w B - 0 1",
        9,
        &["b1a1", "b1e1"],
        &["f1b1", "b1b2"],
    ),
    // Standard castling written as the king's two-step; through an attacked f1 it is illegal.
    (
        "r3k2r/8/8/8/8/8/5r2/R3K2R w KQkq - 0 1",
        22,
        &["e1c1"],
        &["e1g1", "e1a1", "e1h1"],
    ),
];

#[test]
fn tricky_positions() {
    for (fen, count, present, absent) in TRICKY {
        let (board, pos) = load(fen);
        let ours = board.legal_uci();
        let theirs = library_uci(&pos);
        for (side, moves) in [("oracle", &ours), ("library", &theirs)] {
            assert_eq!(moves.len(), count, "{side} at {fen}: {moves:?}");
            for m in present {
                assert!(moves.iter().any(|x| x == m), "{side} lacks {m} at {fen}: {moves:?}");
            }
            for m in absent {
                assert!(!moves.iter().any(|x| x == m), "{side} has {m} at {fen}: {moves:?}");
            }
        }
    }
    // Without the a1 rook the castle is legal, written king takes rook.
    let (board, pos) = load("4k3/8/8/8/8/8/8/1R3K2 w B - 0 1");
    assert!(board.legal_uci().contains(&"f1b1".to_string()));
    assert_eq!(board.legal_uci(), library_uci(&pos));
    assert_eq!(board.legal_uci().len(), 17);
}

/// The oracle alone against the files at every listed depth up to `max_nodes` leaves.
fn oracle_against_files(root: &Path, name: &str, max_nodes: u64) -> usize {
    let cases = suite(root, name);
    let checks: Vec<(&PerftCase, u32, u64)> = cases
        .iter()
        .flat_map(|case| case.expected.iter().map(move |&(d, n)| (case, d, n)))
        .filter(|&(_, _, n)| n <= max_nodes)
        .collect();
    let failures: Vec<String> = checks
        .par_iter()
        .filter_map(|&(case, depth, expected)| {
            let board = Board::from_fen(&case.fen).unwrap_or_else(|e| panic!("{name} {}: {e}", case.id));
            let ours = board.perft(depth);
            (ours != expected).then(|| {
                format!(
                    "{name} {} ({}) depth {depth}: expected {expected}, oracle {ours}",
                    case.id, case.fen
                )
            })
        })
        .collect();
    assert!(
        failures.is_empty(),
        "{} mismatches:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(!checks.is_empty(), "{name}: nothing checked");
    let leaves: u64 = checks.iter().map(|&(_, _, n)| n).sum();
    println!("{name}: {} counts, {leaves} leaves", checks.len());
    checks.len()
}

fn oracle_matches_counts_of(root: &Path) {
    for name in SUITES {
        oracle_against_files(root, name, 20_000);
    }
}

#[test]
fn oracle_matches_suite_counts() {
    oracle_matches_counts_of(&testdata_path());
}

#[test]
#[ignore = "needs ../shared/data (see testdata/README.md); run: cargo test --workspace -- --ignored shared_data_"]
fn shared_data_oracle_matches_suite_counts() {
    oracle_matches_counts_of(&shared_path());
}
