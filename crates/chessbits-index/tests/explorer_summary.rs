//! The `explorer_summary` table against the `explorer` rows: `explore` answers from the rows
//! summed over months exactly what it answers summing the `explorer` rows (`explore_scan`),
//! with and without speed and rating filters (counts, average ratings, last dates and games,
//! move order); after `index add` (a summary per part, one part too small to have any) as a
//! fresh build of all the games; and `explorer_summary_of_explorer` writes the file the build
//! writes.
//!
//! Compared positions (see [`common::sample_positions`]): every position with
//! `explorer_summary` rows (in either index compared) and every [`EVERY`]-th of the others, each
//! with the 5 filter sets of [`filter_sets`].

use crate::common;

use std::collections::BTreeSet;
use std::path::PathBuf;

use chessbits::position::Position;
use chessbits_index::model::explorer_summary::explorer_summary_of_explorer;
use chessbits_index::{ExploreOptions, Filters, Index, PositionKey};
use common::{build_parts, bundled, keys_per_file, positions, push_game, read_parquet, sample_positions, Lcg};

/// Opening lines the synthetic games follow (cut at random lengths), with transpositions.
const LINES: [&str; 5] = [
    "e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6",
    "e4 c5 Nf3 d6 d4 cxd4 Nxd4 Nf6",
    "d4 d5 c4 e6 Nc3 Nf6 Nf3 Be7",
    "Nf3 d5 d4 Nf6 c4 e6 Nc3 Be7",
    "c4 e5 Nc3 Nf6 g3 d5",
];

/// `n` games drawn (seeded) from [`LINES`], spread over speeds, rating bands and 30 months (some
/// unknown) so that popular positions have many more than `THRESHOLD` explorer rows; some
/// games without a result, some without ratings.
fn synthetic_pgn(n: usize, seed: u64) -> String {
    let mut rng = Lcg(seed);
    let mut next = |m: usize| rng.next(m);
    let mut out = String::new();
    for _ in 0..n {
        let line: Vec<&str> = LINES[next(LINES.len())].split(' ').collect();
        let plies = 1 + next(line.len());
        let result = ["1-0", "0-1", "1/2-1/2", "*", "1-0"][next(5)];
        let month = next(31);
        let date = match month {
            30 => "????.??.??".to_string(),
            m => format!("{}.{:02}.{:02}", 2022 + m / 12, m % 12 + 1, 1 + next(28)),
        };
        let time_control = ["60+0", "180+2", "600+5", "1800+0", "-"][next(5)];
        let mut tags = format!("[Date \"{date}\"]\n[TimeControl \"{time_control}\"]\n[Result \"{result}\"]\n");
        for tag in ["WhiteElo", "BlackElo"] {
            if next(8) > 0 {
                tags.push_str(&format!("[{tag} \"{}\"]\n", 900 + 100 * next(18)));
            }
        }
        push_game(&mut out, &tags, &line, plies, result);
    }
    out
}

/// The compared positions of the games of `files` (see [`positions`]): those with rows in the
/// `explorer_summary` files of `indexes`, and every [`EVERY`]-th of the others.
fn compared_positions(files: &[PathBuf], indexes: &[&Index]) -> Vec<Position> {
    let all = positions(files);
    assert!(all.len() > 1000, "{} positions", all.len());
    let summed: BTreeSet<u128> = indexes.iter().flat_map(|i| summed_keys(i)).flatten().collect();
    sample_positions(all, &summed, EVERY)
}

/// Of the positions without `explorer_summary` rows, one in this many is compared.
const EVERY: usize = 100;

/// The keys of each `explorer_summary` file of the index, in the manifest's order.
fn summed_keys(index: &Index) -> Vec<BTreeSet<u128>> {
    keys_per_file(index, "explorer_summary")
}

/// The filters compared: none, speeds, rating bands, both; and a month range (which the
/// summary cannot answer: both ways sum explorer rows).
fn filter_sets() -> Vec<Filters> {
    let none = Filters::default();
    vec![
        none.clone(),
        none.clone().speeds("blitz,rapid").unwrap(),
        none.clone().ratings("1600,1800,2500").unwrap(),
        none.clone().speeds("bullet").unwrap().ratings("1000,2000").unwrap(),
        none.since("2023-03").unwrap().until("2023-11").unwrap(),
    ]
}

/// Compares `explore` with `explore_scan` (and with `other`'s explore, when given) for every
/// position and filter set; returns how many positions the summary answered.
fn compare(index: &Index, other: Option<&Index>, positions: &[Position]) -> usize {
    let summed: BTreeSet<u128> = summed_keys(index).into_iter().flatten().collect();
    let filters = filter_sets();
    let mut answered = 0;
    let mut nonempty = 0;
    for pos in positions {
        for filters in &filters {
            let options = ExploreOptions {
                filters: filters.clone(),
                top_games: 0,
                recent_games: 0,
                ..ExploreOptions::default()
            };
            let fast = index.explore(pos, &options).unwrap();
            let scan = index.explore_scan(pos, &options).unwrap();
            assert_eq!(fast, scan, "{} with {filters:?}", pos.fen());
            nonempty += (fast.games() > 0) as usize;
            if let Some(other) = other {
                assert_eq!(fast, other.explore(pos, &options).unwrap(), "{}", pos.fen());
            }
        }
        answered += summed.contains(&PositionKey::of(pos).0) as usize;
    }
    assert!(nonempty >= positions.len(), "{nonempty} non-empty answers");
    answered
}

#[test]
fn the_summary_answers_as_the_explorer_rows() {
    let temp = tempfile::tempdir().unwrap();
    let synthetic = temp.path().join("synthetic.pgn");
    std::fs::write(&synthetic, synthetic_pgn(1500, 7)).unwrap();
    // The synthetic games first: their positions are among the compared ones.
    let files: Vec<PathBuf> = std::iter::once(synthetic).chain(bundled()).collect();
    let index = build_parts(&temp.path().join("index"), &[&files]);
    let positions = compared_positions(&files, &[&index]);
    let answered = compare(&index, None, &positions);
    assert!(answered >= 20, "{answered} positions answered from the summary");
    assert!(summed_keys(&index)[0].contains(&PositionKey::of(&Position::startpos()).0));
    // Summed over months, the start position's rows are far fewer than its explorer rows.
    let summary = &index.manifest().files("explorer_summary")[0];
    assert!(summary.rows > 0 && summary.rows < index.manifest().files("explorer")[0].rows);
}

#[test]
fn an_added_part_answers_as_a_fresh_build() {
    let temp = tempfile::tempdir().unwrap();
    let [a, b, tiny] = ["a.pgn", "b.pgn", "tiny.pgn"].map(|n| temp.path().join(n));
    std::fs::write(&a, synthetic_pgn(800, 1)).unwrap();
    std::fs::write(&b, synthetic_pgn(600, 2)).unwrap();
    // Too few games for a key with more than THRESHOLD rows: its part has no summary rows.
    std::fs::write(&tiny, synthetic_pgn(12, 3)).unwrap();
    let real = bundled();
    let (half, rest) = real.split_at(real.len() / 2);
    let first: Vec<PathBuf> = std::iter::once(a).chain(half.iter().cloned()).collect();
    let second: Vec<PathBuf> = std::iter::once(b).chain(rest.iter().cloned()).collect();
    let third: Vec<PathBuf> = vec![tiny];
    let added = build_parts(&temp.path().join("added"), &[&first, &second, &third]);
    let per_file = summed_keys(&added);
    assert_eq!(per_file.len(), 3);
    assert!(!per_file[0].is_empty() && !per_file[1].is_empty());
    assert!(
        per_file[2].is_empty(),
        "{} keys summed in the tiny part",
        per_file[2].len()
    );
    let all: Vec<PathBuf> = first.iter().chain(&second).chain(&third).cloned().collect();
    let fresh = build_parts(&temp.path().join("fresh"), &[&all]);
    assert_eq!(added.games(), fresh.games());
    let positions = compared_positions(&all, &[&added, &fresh]);
    let answered = compare(&added, Some(&fresh), &positions);
    assert!(answered >= 20, "{answered} positions answered from the summary");
}

#[test]
fn explorer_summary_of_explorer_writes_the_built_file() {
    let temp = tempfile::tempdir().unwrap();
    let synthetic = temp.path().join("synthetic.pgn");
    std::fs::write(&synthetic, synthetic_pgn(500, 11)).unwrap();
    let index = build_parts(&temp.path().join("index"), &[&[synthetic]]);
    let file = |table: &str| index.dir().join(&index.manifest().files(table)[0].file);
    let out = temp.path().join("summary.parquet");
    let rows = explorer_summary_of_explorer(&file("explorer"), &out).unwrap();
    assert!(rows > 0);
    assert_eq!(rows, index.manifest().files("explorer_summary")[0].rows);
    assert_eq!(read_parquet(&out), read_parquet(&file("explorer_summary")));
    // A file that is not an explorer file is a typed error, not a panic.
    let error = explorer_summary_of_explorer(&file("games"), &temp.path().join("x.parquet"))
        .expect_err("refused")
        .to_string();
    assert!(error.contains("column `key` is missing"), "{error}");
}

/// A manifest without the table (an index of an older build), or with another number of its
/// files than of explorer files, is refused with the reason.
#[test]
fn a_manifest_without_the_table_is_refused() {
    let temp = tempfile::tempdir().unwrap();
    let pgn = temp.path().join("g.pgn");
    std::fs::write(&pgn, synthetic_pgn(40, 5)).unwrap();
    let out = temp.path().join("index");
    build_parts(&out, &[&[pgn]]);
    let manifest = out.join("manifest.json");
    let original: serde_json::Value = serde_json::from_slice(&std::fs::read(&manifest).unwrap()).unwrap();
    for (edit, reason) in [
        (
            "remove",
            "the table `explorer_summary` is missing (an index of an older build: rebuild it)",
        ),
        ("empty", "one file per file of the explorer table"),
    ] {
        let mut value = original.clone();
        let tables = value["tables"].as_object_mut().unwrap();
        match edit {
            "remove" => drop(tables.remove("explorer_summary")),
            _ => tables["explorer_summary"] = serde_json::json!([]),
        }
        std::fs::write(&manifest, serde_json::to_vec(&value).unwrap()).unwrap();
        let error = Index::open(&out).err().expect("refused").to_string();
        assert!(error.contains(reason), "{edit}: {error}");
    }
}
