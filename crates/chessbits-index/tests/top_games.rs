//! The `top_games` table against the scan: `explore` answers from the precomputed lists exactly
//! what it answers reading every game of the position (`explore_scan`): the same games in the
//! same order, ties included; after `index add` (lists per part, merged at query time) as a
//! fresh build of all the games; and `top_games_of_positions` writes the file the build writes.
//!
//! Compared positions (see [`common::sample_positions`]): every position with `top_games` rows
//! (in either index compared) and every [`EVERY`]-th of the others (positions of one game, of
//! few, games' last positions), each with the 3 list lengths of [`ASKED`].

use crate::common;

use std::collections::BTreeSet;
use std::path::PathBuf;

use chessbits::position::Position;
use chessbits_index::model::top_games::{top_games_of_positions, LISTED};
use chessbits_index::{ExploreOptions, Index, PositionKey};
use common::{build_parts, bundled, keys_per_file, positions, push_game, read_parquet, sample_positions, Lcg};

/// Opening lines the synthetic games follow (cut at random lengths): transpositions, and a
/// line that comes back to the start position (reached twice in one game).
const LINES: [&str; 6] = [
    "e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6",
    "e4 c5 Nf3 d6 d4 cxd4 Nxd4 Nf6",
    "d4 d5 c4 e6 Nc3 Nf6 Nf3 Be7",
    "Nf3 d5 d4 Nf6 c4 e6 Nc3 Be7",
    "Nf3 Nf6 Ng1 Ng8 e4 e5 Nf3 Nc6",
    "e4 e5 Nf3 Nc6 d4 exd4",
];

/// `n` games drawn (seeded) from [`LINES`], with few distinct ratings and dates so that the
/// lists' orders have many ties, and some games without a result.
fn synthetic_pgn(n: usize, seed: u64) -> String {
    let mut rng = Lcg(seed);
    let mut next = |m: usize| rng.next(m);
    let mut out = String::new();
    for _ in 0..n {
        let line: Vec<&str> = LINES[next(LINES.len())].split(' ').collect();
        let plies = 1 + next(line.len());
        let result = ["1-0", "0-1", "1/2-1/2", "*"][next(4)];
        let elo = |i: usize| [None, Some(1500), Some(1600), Some(2000)][i];
        let date = ["2024.01.01", "2024.01.??", "????.??.??", "2023.12.31", "2024.02.15"][next(5)];
        let mut tags = format!("[Date \"{date}\"]\n[TimeControl \"180+0\"]\n[Result \"{result}\"]\n");
        for (tag, elo) in [("WhiteElo", elo(next(4))), ("BlackElo", elo(next(4)))] {
            if let Some(elo) = elo {
                tags.push_str(&format!("[{tag} \"{elo}\"]\n"));
            }
        }
        push_game(&mut out, &tags, &line, plies, result);
    }
    out
}

/// The keys the index's `top_games` files have rows for.
fn listed_keys(index: &Index) -> BTreeSet<u128> {
    keys_per_file(index, "top_games").into_iter().flatten().collect()
}

/// Of the positions without `top_games` rows, one in this many is compared.
const EVERY: usize = 100;

/// The list lengths compared: the default, the longest the table answers, and uneven.
const ASKED: [(usize, usize); 3] = [(4, 4), (LISTED, LISTED), (1, LISTED)];

/// Compares `explore` with `explore_scan` (and with `other`'s explore, when given) for every
/// position; returns how many positions the table answered.
fn compare(index: &Index, other: Option<&Index>, positions: &[Position]) -> usize {
    let listed = listed_keys(index);
    let mut answered = 0;
    for pos in positions {
        for (top, recent) in ASKED {
            let options = ExploreOptions {
                top_games: top,
                recent_games: recent,
                ..ExploreOptions::default()
            };
            let fast = index.explore(pos, &options).unwrap();
            let scan = index.explore_scan(pos, &options).unwrap();
            assert_eq!(fast, scan, "{} with {top} top and {recent} recent games", pos.fen());
            assert_eq!(fast.top_games.len(), (top as u64).min(fast.games()) as usize);
            if let Some(other) = other {
                assert_eq!(fast, other.explore(pos, &options).unwrap(), "{}", pos.fen());
            }
        }
        answered += listed.contains(&PositionKey::of(pos).0) as usize;
    }
    answered
}

#[test]
fn the_table_answers_as_the_scan() {
    let temp = tempfile::tempdir().unwrap();
    let synthetic = temp.path().join("synthetic.pgn");
    std::fs::write(&synthetic, synthetic_pgn(400, 7)).unwrap();
    let mut files = bundled();
    files.push(synthetic);
    let index = build_parts(&temp.path().join("index"), &[&files]);
    let positions = positions(&files);
    assert!(positions.len() > 1000, "{} positions", positions.len());
    let sample = sample_positions(positions, &listed_keys(&index), EVERY);
    let answered = compare(&index, None, &sample);
    assert!(answered >= 30, "{answered} positions answered from the table");
    assert!(listed_keys(&index).contains(&PositionKey::of(&Position::startpos()).0));
}

#[test]
fn an_added_part_merges_to_a_fresh_build() {
    let temp = tempfile::tempdir().unwrap();
    let [a, b, tiny] = ["a.pgn", "b.pgn", "tiny.pgn"].map(|n| temp.path().join(n));
    std::fs::write(&a, synthetic_pgn(300, 1)).unwrap();
    std::fs::write(&b, synthetic_pgn(200, 2)).unwrap();
    // Too few games for lists of its own: its games are read from its positions file.
    std::fs::write(&tiny, synthetic_pgn(9, 3)).unwrap();
    let real = bundled();
    let first: Vec<PathBuf> = vec![a, real[0].clone()];
    let second: Vec<PathBuf> = vec![b, real[1].clone()];
    let third: Vec<PathBuf> = vec![tiny];
    let added = build_parts(&temp.path().join("added"), &[&first, &second, &third]);
    assert_eq!(added.manifest().files("top_games").len(), 3);
    let all: Vec<PathBuf> = first.iter().chain(&second).chain(&third).cloned().collect();
    let fresh = build_parts(&temp.path().join("fresh"), &[&all]);
    assert_eq!(added.games(), fresh.games());
    let listed: BTreeSet<u128> = listed_keys(&added).union(&listed_keys(&fresh)).copied().collect();
    let sample = sample_positions(positions(&all), &listed, EVERY);
    let answered = compare(&added, Some(&fresh), &sample);
    assert!(answered >= 20, "{answered} positions answered from the table");
}

#[test]
fn top_games_of_positions_writes_the_built_file() {
    let temp = tempfile::tempdir().unwrap();
    let synthetic = temp.path().join("synthetic.pgn");
    std::fs::write(&synthetic, synthetic_pgn(300, 11)).unwrap();
    let index = build_parts(&temp.path().join("index"), &[&[synthetic]]);
    let file = |table: &str| index.dir().join(&index.manifest().files(table)[0].file);
    let out = temp.path().join("top.parquet");
    // It reads the wide positions rows (what another tool writes; format 3 stores prefixes).
    let wide = temp.path().join("wide.parquet");
    let batch = index.wide_positions_of_file(0).unwrap();
    let mut writer =
        parquet::arrow::ArrowWriter::try_new(std::fs::File::create(&wide).unwrap(), batch.schema(), None).unwrap();
    writer.write(&batch).unwrap();
    writer.close().unwrap();
    let rows = top_games_of_positions(&wide, &[&file("games")], &out).unwrap();
    assert!(rows > 0);
    assert_eq!(rows, index.manifest().files("top_games")[0].rows);
    assert_eq!(read_parquet(&out), read_parquet(&file("top_games")));
}

/// A manifest without the table, or with another number of its files than of positions files,
/// is refused with the reason (an index of an older build, or a hand-made one).
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
        ("remove", "the table `top_games` is missing"),
        ("empty", "one file per file of the positions table"),
    ] {
        let mut value = original.clone();
        let tables = value["tables"].as_object_mut().unwrap();
        match edit {
            "remove" => drop(tables.remove("top_games")),
            _ => tables["top_games"] = serde_json::json!([]),
        }
        std::fs::write(&manifest, serde_json::to_vec(&value).unwrap()).unwrap();
        let error = Index::open(&out).err().expect("refused").to_string();
        assert!(error.contains(reason), "{edit}: {error}");
    }
}
