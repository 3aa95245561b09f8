//! Encode and decode speed of the entropy and lichess move codes on the shared games (the bundled
//! `testdata/` when `../shared/data` is missing), single
//! thread, measured in thread CPU time (the machine may be shared).
//!
//! ```text
//! cargo bench -p chessbits --bench move_code_speed [-- OPTIONS]
//! ```
//!
//! Options: `--games N` keeps the first N games of every file (default: all); `--rounds N` repeats
//! every measurement (default 3; the best round counts); `--only entropy-encode|entropy-decode|
//! lichess-encode|lichess-decode|replay` runs one measurement (for `valgrind --tool=callgrind`).

#[path = "support/clock.rs"]
mod clock;
#[path = "../tests/common/mod.rs"]
mod common;

use chessbits::codec::moves::{entropy, lichess};
use chessbits::lists::MoveList;
use chessbits::moves::Move;
use chessbits::position::Position;

fn arg(name: &str) -> Option<String> {
    let args: Vec<String> = std::env::args().collect();
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1).cloned())
}

/// Runs `work` `rounds` times and returns the best rate in plies per second.
fn best_rate(rounds: usize, plies: usize, work: impl FnMut()) -> f64 {
    plies as f64 / clock::best_of(rounds, work)
}

fn main() {
    if !clock::benchmarking("move_code_speed") {
        return;
    }
    let limit: usize = arg("--games").and_then(|s| s.parse().ok()).unwrap_or(usize::MAX);
    let rounds: usize = arg("--rounds").and_then(|s| s.parse().ok()).unwrap_or(3);
    let only = arg("--only");
    let run = |name: &str| only.as_deref().is_none_or(|o| o == name);
    let mut games: Vec<Vec<Move>> = Vec::new();
    for (name, _) in common::PGN_FILES {
        games.extend(
            common::load_pgn(&common::data_path(), name)
                .into_iter()
                .take(limit)
                .map(|g| g.moves),
        );
    }
    let plies: usize = games.iter().map(Vec::len).sum();
    let start = Position::startpos();
    println!(
        "{} games, {plies} plies, best of {rounds} rounds, thread CPU time",
        games.len()
    );

    let mut encoder = entropy::GameEncoder::new();
    let mut decoder = entropy::GameDecoder::new();
    // Only what the chosen measurements need, so that a profile of one shows just that one.
    let encoded: Vec<Vec<u8>> = games
        .iter()
        .filter(|_| run("entropy-decode"))
        .map(|moves| {
            let mut out = Vec::new();
            encoder.encode_into(&start, moves, &mut out).expect("legal game");
            out
        })
        .collect();
    let lichess_encoded: Vec<Vec<u8>> = games
        .iter()
        .filter(|_| run("lichess-decode"))
        .map(|moves| lichess::encode_game(&start, moves).expect("legal game"))
        .collect();
    if run("entropy-decode") {
        // FNV-1a of every code: equal before and after a change that must keep the format.
        let hash = encoded.iter().flatten().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| {
            (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
        });
        let size: usize = encoded.iter().map(Vec::len).sum();
        println!("entropy codes: {size} bytes, FNV-1a {hash:016x}");
    }
    let mut bytes = Vec::new();
    let mut decoded = Vec::new();
    let report = |name: &str, rate: f64| println!("{name:<16} {:.3} M plies/s", rate / 1e6);

    if run("replay") {
        let mut list = MoveList::new();
        report(
            "replay",
            best_rate(rounds, plies, || {
                for moves in &games {
                    let mut pos = start.clone();
                    for &m in moves {
                        pos.legal_moves_into(&mut list);
                        pos.play_unchecked(m);
                    }
                }
            }),
        );
    }
    if run("entropy-encode") {
        report(
            "entropy encode",
            best_rate(rounds, plies, || {
                for moves in &games {
                    bytes.clear();
                    encoder.encode_into(&start, moves, &mut bytes).expect("legal game");
                }
            }),
        );
    }
    if run("entropy-decode") {
        report(
            "entropy decode",
            best_rate(rounds, plies, || {
                for (moves, code) in games.iter().zip(&encoded) {
                    decoded.clear();
                    decoder
                        .decode_into(&start, code, moves.len(), &mut decoded)
                        .expect("decodes");
                    assert_eq!(&decoded, moves);
                }
            }),
        );
    }
    if run("lichess-encode") {
        report(
            "lichess encode",
            best_rate(rounds, plies, || {
                for moves in &games {
                    std::hint::black_box(lichess::encode_game(&start, moves).expect("legal game"));
                }
            }),
        );
    }
    if run("lichess-decode") {
        report(
            "lichess decode",
            best_rate(rounds, plies, || {
                for (moves, code) in games.iter().zip(&lichess_encoded) {
                    let out = lichess::decode_game(&start, code, moves.len()).expect("decodes");
                    assert_eq!(&out, moves);
                }
            }),
        );
    }
}
