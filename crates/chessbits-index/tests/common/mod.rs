//! Helpers shared by the index's integration tests: the bundled PGN files, query positions
//! drawn from games, indexes built in parts, Parquet files read back, and seeded synthetic games.

// Each test file uses some of these.
#![allow(dead_code)]

use std::collections::BTreeSet;
use std::fs::File;
use std::path::{Path, PathBuf};

use arrow_array::{BinaryArray, RecordBatch};
use chessbits::pgn::PgnReader;
use chessbits::position::Position;
use chessbits_index::{BuildOptions, Index, IndexBuilder, PositionKey};
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;

/// Every `.pgn` file below `dir`, sorted.
pub fn pgn_files(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files.extend(pgn_files(&path));
        } else if path.extension().is_some_and(|e| e == "pgn") {
            files.push(path);
        }
    }
    files.sort();
    files
}

/// The bundled PGN files (`testdata/pgn`, subdirectories included).
pub fn bundled() -> Vec<PathBuf> {
    pgn_files(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/pgn"))
}

/// The distinct positions of the games of `files`: every position of the first 10 plies, and
/// the last of each game.
pub fn positions(files: &[PathBuf]) -> Vec<Position> {
    let mut seen = BTreeSet::new();
    let mut out = Vec::new();
    for path in files {
        let mut reader = PgnReader::new(File::open(path).unwrap());
        while let Some(game) = reader.read_owned_game().unwrap() {
            let Ok(game) = game else { continue };
            let mut pos = game.start.clone();
            for (ply, m) in game.mainline().enumerate() {
                if ply <= 10 && seen.insert(PositionKey::of(&pos).0) {
                    out.push(pos.clone());
                }
                if m.is_null() {
                    break;
                }
                pos.play_unchecked(m);
            }
            if seen.insert(PositionKey::of(&pos).0) {
                out.push(pos);
            }
        }
    }
    out
}

/// A deterministic sample of `positions` for the tests that compare `explore` with
/// `explore_scan` (a scan reads every game of a position, so comparing all of them took
/// minutes): every position whose key is in `keys` (those a precomputed table answers: the
/// popular positions, where the tables and the scan differ most in work), and of the others
/// the first and every `every`-th after it, in the order of `positions`.
pub fn sample_positions(positions: Vec<Position>, keys: &BTreeSet<u128>, every: usize) -> Vec<Position> {
    let mut others = 0;
    positions
        .into_iter()
        .filter(|pos| {
            keys.contains(&PositionKey::of(pos).0) || {
                others += 1;
                (others - 1) % every == 0
            }
        })
        .collect()
}

/// An index of `parts`: the first built, each next one added with `index add`.
pub fn build_parts(out: &Path, parts: &[&[PathBuf]]) -> Index {
    let mut builder = IndexBuilder::create(out, BuildOptions::default()).unwrap();
    for (i, files) in parts.iter().enumerate() {
        if i > 0 {
            builder.finish().unwrap();
            builder = IndexBuilder::append(out, BuildOptions::default()).unwrap();
        }
        for file in files.iter() {
            builder.add_file(file).unwrap();
        }
    }
    builder.finish().unwrap();
    Index::open(out).unwrap()
}

/// Every record batch of a Parquet file.
pub fn read_parquet(path: &Path) -> Vec<RecordBatch> {
    let reader = ParquetRecordBatchReaderBuilder::try_new(File::open(path).unwrap()).unwrap();
    reader.build().unwrap().map(Result::unwrap).collect()
}

/// The keys of each file of `table`, in the manifest's order.
pub fn keys_per_file(index: &Index, table: &str) -> Vec<BTreeSet<u128>> {
    let mut files = Vec::new();
    for entry in index.manifest().files(table) {
        let mut keys = BTreeSet::new();
        for batch in read_parquet(&index.dir().join(&entry.file)) {
            let column = batch.column_by_name("key").unwrap();
            let column = column.as_any().downcast_ref::<BinaryArray>().unwrap();
            keys.extend(
                column
                    .iter()
                    .map(|k| u128::from_be_bytes(k.unwrap().try_into().unwrap())),
            );
        }
        files.push(keys);
    }
    files
}

/// A seeded linear congruential generator: `next(m)` is uniform-ish in `0..m`.
pub struct Lcg(pub u64);

impl Lcg {
    pub fn next(&mut self, m: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) % m as u64) as usize
    }
}

/// Appends a game: its tag lines, then the first `plies` moves of `line` (SAN, separated by
/// spaces) numbered, then the result.
pub fn push_game(out: &mut String, tags: &str, line: &[&str], plies: usize, result: &str) {
    out.push_str(tags);
    out.push('\n');
    for (i, san) in line[..plies].iter().enumerate() {
        if i % 2 == 0 {
            out.push_str(&format!("{}. ", i / 2 + 1));
        }
        out.push_str(san);
        out.push(' ');
    }
    out.push_str(result);
    out.push_str("\n\n");
}
