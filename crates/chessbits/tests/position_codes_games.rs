//! Every position of real games through every position code: round trips, bounds (on the bundled
//! games, and in an ignored `shared_data_` test on the full corpora), and (in ignored tests, on the
//! full corpora) the statistics and the training of the compact code's model.

use crate::common;

use std::path::Path;
use std::time::Instant;

use chessbits::codec::position::{self, compact::ModelTrainer, PositionCodec};
use chessbits::position::Setup;
use common::{file_setups, shared_path, testdata_path, PGN_FILES};

/// The worst case each code documents for positions of real games (clocks below 127), in bits.
const BOUNDS: [(&str, u64); 5] = [
    ("stream", 272),
    ("huffman", 204),
    ("huffman-multi", 203),
    ("huffman-tuned", 190),
    ("compact", 201),
];

fn bound(codec: &dyn PositionCodec) -> u64 {
    BOUNDS
        .iter()
        .find(|(name, _)| *name == codec.name())
        .map(|&(_, b)| b)
        .expect("bound")
}

fn without_fullmove(setup: &Setup) -> Setup {
    Setup {
        fullmove_number: 1,
        ..setup.clone()
    }
}

/// Returns the number of positions.
fn first_300_games_round_trip(root: &Path) -> usize {
    let mut checked = 0;
    for (name, _) in PGN_FILES {
        for game in file_setups(root, name, 300) {
            for setup in &game {
                for codec in position::all() {
                    let bytes = codec.encode(setup).unwrap_or_else(|e| panic!("{}: {e}", codec.name()));
                    let bits = codec.encoded_bits(setup).unwrap();
                    assert!(bits <= bound(codec), "{} takes {bits} bits for {setup:?}", codec.name());
                    assert!(bits <= 8 * bytes.len() as u64);
                    assert_eq!(
                        codec.decode(&bytes).as_ref(),
                        Ok(&without_fullmove(setup)),
                        "{}",
                        codec.name()
                    );
                }
                checked += 1;
            }
        }
    }
    checked
}

#[test]
fn first_300_games_of_each_file_round_trip_within_the_bounds() {
    // Every bundled game (fewer than 300 a file): 420 start positions and 33,173 plies
    // (python-chess 1.11.2, as in `pgn_shared.rs`).
    assert_eq!(first_300_games_round_trip(&testdata_path()), 420 + 33_173);
}

#[test]
#[ignore = "needs ../shared/data (see testdata/README.md); run: cargo test --workspace -- --ignored shared_data_"]
fn shared_data_first_300_games_of_each_file_round_trip_within_the_bounds() {
    let checked = first_300_games_round_trip(&shared_path());
    assert!(checked > 50_000, "only {checked} positions");
}

/// Statistics over all positions of the games of `../shared/data`, each checked to round-trip within its bound:
/// `cargo test --test integration -- --ignored --nocapture position_codes_games::stats`.
#[test]
#[ignore]
fn stats() {
    let groups = [("lichess", true), ("masters", false)];
    for (group, lichess) in groups {
        let setups: Vec<Setup> = PGN_FILES
            .iter()
            .filter(|(_, is_lichess)| *is_lichess == lichess)
            .flat_map(|(name, _)| file_setups(&shared_path(), name, usize::MAX).into_iter().flatten())
            .collect();
        println!("{group}: {} positions", setups.len());
        // Reference: lichess's binary FEN board, 64 occupancy bits and 4 bits a piece (turn,
        // castling and en passant ride on the piece codes; clocks apart).
        let binary_fen = |s: &Setup| 64 + 4 * u64::from(s.board.occupied().count());
        let (total, worst) = setups
            .iter()
            .fold((0, 0), |(t, w), s| (t + binary_fen(s), w.max(binary_fen(s))));
        println!(
            "  {:14} avg {:6.2} bits, worst {:3} bits (reference, not a code here)",
            "lichess-binfen",
            total as f64 / setups.len() as f64,
            worst
        );
        for codec in position::all() {
            let mut total_bits = 0u64;
            let mut total_bytes = 0u64;
            let mut worst = 0;
            let start = Instant::now();
            let encoded: Vec<Vec<u8>> = setups.iter().map(|s| codec.encode(s).unwrap()).collect();
            let encode_time = start.elapsed();
            let start = Instant::now();
            let decoded: Vec<Setup> = encoded.iter().map(|bytes| codec.decode(bytes).unwrap()).collect();
            let decode_time = start.elapsed();
            for ((setup, bytes), back) in setups.iter().zip(&encoded).zip(&decoded) {
                assert_eq!(back, &without_fullmove(setup));
                let bits = codec.encoded_bits(setup).unwrap();
                assert!(setup.halfmove_clock >= 127 || bits <= bound(codec));
                total_bits += bits;
                total_bytes += bytes.len() as u64;
                worst = worst.max(bits);
            }
            let n = setups.len() as f64;
            println!(
                "  {:14} avg {:6.2} bits ({:5.2} bytes), worst {:3} bits; encode {:5.0} ns, decode {:5.0} ns",
                codec.name(),
                total_bits as f64 / n,
                total_bytes as f64 / n,
                worst,
                encode_time.as_nanos() as f64 / n,
                decode_time.as_nanos() as f64 / n,
            );
            if codec.name() == "compact" {
                // The fallback form starts with a 1 bit.
                let fallback = encoded
                    .iter()
                    .filter(|b| b.first().is_some_and(|b| b >> 7 == 1))
                    .count();
                println!("  {:14} fallback form for {fallback} positions", "");
            }
        }
    }
}

/// Regenerates the compact code's tables from the master files (the lichess file stays unseen):
/// `CHESSBITS_MODEL_OUT=src/codec/position/compact_model.rs cargo test --test integration
/// -- --ignored position_codes_games::train_compact_model`.
#[test]
#[ignore]
fn train_compact_model() {
    let mut trainer = ModelTrainer::new();
    for (name, lichess) in PGN_FILES {
        if !lichess {
            for setup in file_setups(&shared_path(), name, usize::MAX).iter().flatten() {
                trainer.add(setup);
            }
        }
    }
    let source = trainer.rust_source();
    match std::env::var("CHESSBITS_MODEL_OUT") {
        Ok(path) => std::fs::write(path, source).expect("write the model"),
        Err(_) => println!("{source}"),
    }
}
