//! Builds an index of PGN files (or `.cbits` archives) and prints where its bytes went: per
//! table, rows and bytes, and per game. For measuring the format (`docs/index-format-3.md`)
//! without building the CLI.
//!
//! `cargo run --profile test -p chessbits-index --example build_index -- OUT INPUT...`

use std::path::PathBuf;

use chessbits_index::{BuildOptions, Index, IndexBuilder};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args_os().skip(1).map(PathBuf::from);
    let out = args.next().ok_or("usage: build_index OUT INPUT...")?;
    let options = BuildOptions {
        force: true,
        ..BuildOptions::default()
    };
    let mut builder = IndexBuilder::create(&out, options)?;
    for input in args {
        builder.add_file(&input)?;
    }
    let summary = builder.finish()?;
    let index = Index::open(&out)?;
    let games = index.games().max(1) as f64;
    println!(
        "{} games, {} positions, {:.1} s",
        summary.games,
        summary.positions,
        summary.seconds.iter().map(|s| s.1).sum::<f64>()
    );
    let mut total = 0;
    for (table, files) in chessbits_index::manifest::TABLES.iter().zip(&index.manifest().tables) {
        let (rows, bytes): (u64, u64) = files.iter().fold((0, 0), |(r, b), f| (r + f.rows, b + f.bytes));
        total += bytes;
        println!(
            "{table:>17}: {rows:>10} rows {bytes:>12} bytes {:>8.1} bytes/game",
            bytes as f64 / games
        );
    }
    println!(
        "{:>17}: {total:>23} bytes {:>8.1} bytes/game",
        "total",
        total as f64 / games
    );
    Ok(())
}
