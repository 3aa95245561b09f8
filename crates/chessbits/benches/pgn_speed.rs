//! Single-threaded PGN throughput on the shared game files, concatenated in memory:
//! parse + replay ([`Validator`]), owned games ([`GameBuilder`]), and lexing with SAN parsing
//! alone.
//!
//! ```text
//! cargo bench -p chessbits --bench pgn_speed [-- --validate]
//! ```
//!
//! Times are the best of several rounds in CPU time of this thread (`support/clock.rs`; wall
//! time where unavailable): on a shared machine wall time mostly measures the neighbours. Without
//! `../shared/data` it reads the bundled `testdata/`.

#[path = "support/clock.rs"]
mod clock;
#[path = "../tests/common/mod.rs"]
mod common;

use chessbits::pgn::{GameBuilder, PgnReader, SanToken, Validator, Visitor};

use clock::best_of;

/// Counts move tokens: the lexer and the SAN parser, no replay.
struct TokenCounter(u64);

impl Visitor for TokenCounter {
    type Output = ();
    fn san(&mut self, _token: SanToken<'_>) {
        self.0 += 1;
    }
    fn end_game(&mut self) {}
}

fn main() {
    if !clock::benchmarking("pgn_speed") {
        return;
    }
    let dir = common::data_path().join("pgn");
    let mut paths: Vec<_> = std::fs::read_dir(dir)
        .expect("data directory")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "pgn"))
        .collect();
    paths.sort();
    let mut data = Vec::new();
    for path in paths {
        data.extend(std::fs::read(path).expect("readable file"));
        data.push(b'\n');
    }
    let only_validate = std::env::args().any(|a| a == "--validate");
    let rounds = if only_validate { 30 } else { 5 };
    let megabytes = data.len() as f64 / 1e6;

    let (mut games, mut plies) = (0u64, 0u64);
    let validate = best_of(rounds, || {
        let mut reader = PgnReader::new(&data[..]);
        let mut validator = Validator::new();
        (games, plies) = (0, 0);
        while let Some(result) = reader.read_game(&mut validator).expect("in memory") {
            games += 1;
            plies += u64::from(result.expect("valid games").plies);
        }
    });
    println!(
        "parse + replay: {games} games, {plies} plies, {megabytes:.1} MB in {:.1} ms: {:.1} MB/s, {:.2} M moves/s",
        validate * 1e3,
        megabytes / validate,
        plies as f64 / 1e6 / validate
    );
    if only_validate {
        return;
    }
    let owned = best_of(rounds, || {
        let mut reader = PgnReader::new(&data[..]);
        let mut builder = GameBuilder::new();
        while let Some(result) = reader.read_game(&mut builder).expect("in memory") {
            result.expect("valid games");
        }
    });
    println!(
        "owned games:    {:.1} ms: {:.1} MB/s, {:.2} M moves/s",
        owned * 1e3,
        megabytes / owned,
        plies as f64 / 1e6 / owned
    );
    let lex = best_of(rounds, || {
        let mut reader = PgnReader::new(&data[..]);
        let mut counter = TokenCounter(0);
        while reader.read_game(&mut counter).expect("in memory").is_some() {}
    });
    println!("lex + SAN parse: {:.1} ms: {:.1} MB/s", lex * 1e3, megabytes / lex);
}
