//! Positions of one decided game have no `explorer` rows (format 2): their `positions` row is
//! `solo`, and queries answer from it and the game's row exactly as the explorer rows did.

use crate::common;

use std::collections::BTreeSet;
use std::path::Path;

use arrow_array::{Array, BinaryArray, BooleanArray, Int64Array};
use chessbits_index::{
    resolve_position, BuildOptions, ExploreOptions, Filters, Index, IndexBuilder, PositionKey, SearchOptions,
    SourceInfo,
};
use common::keys_per_file;

const DECIDED_0: &str = "[UTCDate \"2024.03.01\"]\n[WhiteElo \"1500\"]\n[BlackElo \"1700\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Nf3 Nc6 1-0\n\n";
const DECIDED_1: &str = "[UTCDate \"2024.04.01\"]\n[Result \"0-1\"]\n\n1. e4 e5 2. Nc3 Nf6 0-1\n\n";
const UNDECIDED: &str = "[Result \"*\"]\n\n1. e4 e5 2. Nf3 Nc6 *\n\n";
const DECIDED_3: &str =
    "[UTCDate \"2023.12.24\"]\n[TimeControl \"60+0\"]\n[Result \"1/2-1/2\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 1/2-1/2\n\n";

/// An index of `parts` (the first built, each next one added), each a list of sources.
fn build(out: &Path, parts: &[&[&str]]) -> Index {
    let mut source = 0;
    for (i, sources) in parts.iter().enumerate() {
        let mut builder = match i {
            0 => IndexBuilder::create(out, BuildOptions::default()).unwrap(),
            _ => IndexBuilder::append(out, BuildOptions::default()).unwrap(),
        };
        for pgn in sources.iter() {
            builder
                .add_reader(pgn.as_bytes(), SourceInfo::named(&format!("source{source}.pgn")))
                .unwrap();
            source += 1;
        }
        builder.finish().unwrap();
    }
    Index::open(out).unwrap()
}

fn key(moves: &str) -> u128 {
    PositionKey::of(&resolve_position(None, moves).unwrap()).0
}

/// The (key, game, ply) of every `solo` row of the index.
fn solo_rows(index: &Index) -> BTreeSet<(u128, i64)> {
    let mut out = BTreeSet::new();
    // The rows with full keys (format 3 stores key prefixes; replay recovers the keys).
    for batch in index.wide_positions().unwrap() {
        {
            let keys = batch.column_by_name("key").unwrap();
            let keys = keys.as_any().downcast_ref::<BinaryArray>().unwrap();
            let games = batch.column_by_name("game").unwrap();
            let games = games.as_any().downcast_ref::<Int64Array>().unwrap();
            let solo = batch.column_by_name("solo").unwrap();
            let solo = solo.as_any().downcast_ref::<BooleanArray>().unwrap();
            for i in 0..batch.num_rows() {
                if solo.value(i) {
                    out.insert((u128::from_be_bytes(keys.value(i).try_into().unwrap()), games.value(i)));
                }
            }
        }
    }
    out
}

/// Every query kind that sums explorer rows, as text.
fn answers(index: &Index, moves: &str) -> String {
    let pos = resolve_position(None, moves).unwrap();
    let mut out = String::new();
    let month = Filters {
        since: Some(2024 * 12),
        ..Filters::default()
    };
    for filters in [Filters::default(), month] {
        let options = ExploreOptions {
            filters,
            ..ExploreOptions::default()
        };
        let e = index.explore(&pos, &options).unwrap();
        let s = index.explore_scan(&pos, &options).unwrap();
        assert_eq!(e, s, "{moves}");
        out.push_str(&format!("{e:?}\n"));
    }
    let all = SearchOptions {
        limit: usize::MAX,
        ..SearchOptions::default()
    };
    out.push_str(&format!("{:?}\n", index.search(&pos, &all).unwrap()));
    out
}

#[test]
fn keys_of_one_decided_game_have_a_solo_row_and_no_explorer_rows() {
    let dir = tempfile::tempdir().unwrap();
    let index = build(
        &dir.path().join("index"),
        &[&[&format!("{DECIDED_0}{DECIDED_1}{UNDECIDED}")]],
    );
    let explorer: BTreeSet<u128> = keys_per_file(&index, "explorer").into_iter().flatten().collect();
    // Two decided games: explorer rows, no solo row.
    assert!(explorer.contains(&key("e4 e5")));
    // Game 0 (decided) and game 2 (undecided) after 2. Nf3: one decided game.
    for moves in ["e4 e5 Nf3", "e4 e5 Nf3 Nc6"] {
        assert!(!explorer.contains(&key(moves)), "{moves}");
    }
    // Game 1 alone after 2. Nc3.
    assert!(!explorer.contains(&key("e4 e5 Nc3")));
    let want: BTreeSet<(u128, i64)> = [
        (key("e4 e5 Nf3"), 0),
        (key("e4 e5 Nf3 Nc6"), 0),
        (key("e4 e5 Nc3"), 1),
        (key("e4 e5 Nc3 Nf6"), 1),
    ]
    .into();
    assert_eq!(solo_rows(&index), want);

    let pos = resolve_position(None, "e4 e5 Nf3").unwrap();
    let e = index.explore(&pos, &ExploreOptions::default()).unwrap();
    assert_eq!((e.white, e.draws, e.black), (1, 0, 0));
    assert_eq!(e.moves.len(), 1);
    assert_eq!((e.moves[0].san.as_str(), e.moves[0].games()), ("Nc6", 1));
    assert_eq!(e.moves[0].average_rating, Some(1600));
    assert_eq!(e.moves[0].last_date.as_deref(), Some("2024.03.01"));
    // The move's only game, with the tags the move table shows (read without the other columns).
    let shown = e.moves[0].game.clone().expect("a move of one game shows it");
    let whole = index.game_rows(&[shown.game as u64]).unwrap().remove(0);
    assert_eq!(
        (&shown.white, &shown.black, shown.white_elo, shown.black_elo),
        (&whole.white, &whole.black, whole.white_elo, whole.black_elo)
    );
    assert_eq!(
        (&shown.result, shown.date, shown.speed),
        (&whole.result, whole.date, whole.speed)
    );
    assert_eq!((&shown.event, &shown.site), (&whole.event, &whole.site));
    assert!(whole.plies > 0 && shown.plies == 0, "the other columns are not read");
    // The month filter leaves the game out; the search still finds both games.
    let later = ExploreOptions {
        filters: Filters {
            since: Some(2024 * 12 + 3),
            ..Filters::default()
        },
        ..ExploreOptions::default()
    };
    assert_eq!(index.explore(&pos, &later).unwrap().games(), 0);
    assert_eq!(index.search(&pos, &SearchOptions::default()).unwrap().total, 2);
}

#[test]
fn parts_answer_as_one_build() {
    // Built in two parts, the position after 3 plies has one decided game in each (two solo
    // rows, no explorer rows); built at once, two decided games (explorer rows).
    let dir = tempfile::tempdir().unwrap();
    let (first, second) = (format!("{DECIDED_0}{DECIDED_1}"), format!("{UNDECIDED}{DECIDED_3}"));
    let parts = build(&dir.path().join("parts"), &[&[&first], &[&second]]);
    let whole = build(&dir.path().join("whole"), &[&[&first, &second]]);
    assert_eq!(
        solo_rows(&parts).iter().filter(|(k, _)| *k == key("e4 e5 Nf3")).count(),
        2
    );
    assert!(!solo_rows(&whole).iter().any(|(k, _)| *k == key("e4 e5 Nf3")));
    for moves in [
        "",
        "e4 e5",
        "e4 e5 Nf3",
        "e4 e5 Nf3 Nc6",
        "e4 e5 Nf3 Nc6 Bb5",
        "e4 e5 Nc3 Nf6",
        "d4",
    ] {
        assert_eq!(answers(&parts, moves), answers(&whole, moves), "{moves}");
    }
    let pos = resolve_position(None, "e4 e5 Nf3 Nc6").unwrap();
    let e = parts.explore(&pos, &ExploreOptions::default()).unwrap();
    assert_eq!((e.white, e.draws, e.black), (1, 1, 0));
}

#[test]
fn an_index_of_format_1_is_refused_with_a_rebuild_message() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("index");
    build(&out, &[&[DECIDED_0]]);
    let manifest = out.join("manifest.json");
    let text = std::fs::read_to_string(&manifest).unwrap();
    assert!(text.contains("\"version\": 3"), "{text}");
    std::fs::write(&manifest, text.replace("\"version\": 3", "\"version\": 1")).unwrap();
    let error = Index::open(&out)
        .err()
        .expect("a version 1 index is refused")
        .to_string();
    assert!(error.contains("version 1") && error.contains("rebuild"), "{error}");
}
