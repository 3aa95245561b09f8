//! Format 3: the `positions` table by key prefix, its candidates checked by replaying the games'
//! stored moves. An index built with very few key bits (so that many keys share a prefix) must
//! answer every query exactly as one with the default bits; an index of format 2 is refused
//! with a typed error naming its version; the stored rows are one per game and key.

use crate::common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use arrow_array::{Array, Int32Array, Int64Array};
use chessbits::position::Position;
use chessbits_index::{
    BuildOptions, ExploreOptions, Filters, Index, IndexBuilder, IndexError, PositionKey, SearchOptions, SortOrder,
};
use common::{bundled, positions, read_parquet};

/// An index of `files` whose positions file has `bits` key bits (`None`: the default).
fn build(out: &Path, files: &[PathBuf], bits: Option<u32>) -> Index {
    let mut builder = IndexBuilder::create(out, BuildOptions::default()).unwrap();
    if let Some(bits) = bits {
        builder.set_key_bits(bits);
    }
    for file in files {
        builder.add_file(file).unwrap();
    }
    builder.finish().unwrap();
    Index::open(out).unwrap()
}

/// Every answer a position gets (move tables with and without filters, lists, searches sorted
/// and paged, a player's games), as text.
fn answers(index: &Index, pos: &Position, player: Option<&str>) -> String {
    let mut out = String::new();
    let lists = ExploreOptions {
        top_games: 4,
        recent_games: 4,
        ..ExploreOptions::default()
    };
    let month = ExploreOptions {
        filters: Filters {
            since: Some(2000 * 12),
            ..Filters::default()
        },
        ..lists.clone()
    };
    let mut options = vec![ExploreOptions::default(), lists, month];
    if let Some(player) = player {
        options.push(ExploreOptions {
            filters: Filters {
                player: Some(player.to_string()),
                ..Filters::default()
            },
            ..ExploreOptions::default()
        });
    }
    for o in &options {
        out.push_str(&format!("{:?}\n", index.explore(pos, o).unwrap()));
    }
    out.push_str(&format!("{:?}\n", index.explore_scan(pos, &options[1]).unwrap()));
    for sort in [SortOrder::Index, SortOrder::Date] {
        let search = SearchOptions {
            sort,
            limit: 7,
            offset: 1,
            ..SearchOptions::default()
        };
        out.push_str(&format!("{:?}\n", index.search(pos, &search).unwrap()));
    }
    let all = SearchOptions {
        limit: usize::MAX,
        ..SearchOptions::default()
    };
    out.push_str(&format!("{:?}\n", index.search(pos, &all).unwrap()));
    out
}

/// Per positions file, rows whose `key_rank` is not 0 (keys that share a prefix with another).
fn ranked_rows(index: &Index) -> usize {
    let mut ranked = 0;
    for entry in index.manifest().files("positions") {
        for batch in read_parquet(&index.dir().join(&entry.file)) {
            let rank = batch.column_by_name("key_rank").unwrap();
            let rank = rank.as_any().downcast_ref::<Int32Array>().unwrap();
            ranked += rank.iter().filter(|r| r.unwrap() > 0).count();
        }
    }
    ranked
}

#[test]
fn few_key_bits_give_the_same_answers() {
    let dir = tempfile::tempdir().unwrap();
    let files = bundled();
    let normal = build(&dir.path().join("normal"), &files, None);
    // 10 bits: 1,024 prefixes for tens of thousands of keys, so nearly every prefix is shared
    // by many keys (and some query keys that no game reaches share one too).
    let few = build(&dir.path().join("few"), &files, Some(10));
    assert!(
        ranked_rows(&few) > 1000,
        "{} rows of a shared prefix",
        ranked_rows(&few)
    );
    assert!(
        ranked_rows(&normal) * 20 < ranked_rows(&few),
        "{}",
        ranked_rows(&normal)
    );
    let all = positions(&files);
    assert!(all.len() > 500, "{} positions", all.len());
    // A player of the bundled games, for the repertoire query.
    let player = normal.game_rows(&[0]).unwrap()[0].white.clone();
    let mut compared = 0;
    // Every 12th position's move table and search, the heavier answers for every 84th: each
    // query of the 10-bit index replays several games (its prefix's other keys), so a sample
    // (each position's prefix shared; the 1-bit test below covers the extreme).
    let sample: Vec<&Position> = all.iter().step_by(12).collect();
    assert!(sample.len() > 40, "{} positions", sample.len());
    for (i, &pos) in sample.iter().enumerate() {
        if i % 7 == 0 {
            assert_eq!(
                answers(&few, pos, player.as_deref()),
                answers(&normal, pos, player.as_deref()),
                "{}",
                pos.fen()
            );
        } else {
            let (a, b) = (&few, &normal);
            let options = SearchOptions {
                limit: usize::MAX,
                ..SearchOptions::default()
            };
            assert_eq!(
                a.search(pos, &options).unwrap(),
                b.search(pos, &options).unwrap(),
                "{}",
                pos.fen()
            );
            assert_eq!(
                a.explore(pos, &ExploreOptions::default()).unwrap(),
                b.explore(pos, &ExploreOptions::default()).unwrap(),
                "{}",
                pos.fen()
            );
        }
        compared += 1;
    }
    assert_eq!(compared, sample.len());
    // A position no game reaches: empty in both, whatever shares its prefix.
    let absent = Position::from_fen("8/8/8/3k4/8/3K4/8/7R w - - 0 1").unwrap();
    let found = few.search(&absent, &SearchOptions::default()).unwrap();
    assert_eq!(found.total, 0);
}

#[test]
fn one_key_bit_still_answers_exactly() {
    // Two prefixes for all keys: every lookup replays games until its key's rank is found.
    let dir = tempfile::tempdir().unwrap();
    let files: Vec<PathBuf> = bundled().into_iter().take(2).collect();
    let normal = build(&dir.path().join("normal"), &files, None);
    let one = build(&dir.path().join("one"), &files, Some(1));
    let all = positions(&files);
    assert!(all.len() > 50, "{} positions", all.len());
    for pos in all.iter().step_by(9) {
        assert_eq!(answers(&one, pos, None), answers(&normal, pos, None), "{}", pos.fen());
    }
}

#[test]
fn a_position_repeated_in_a_game_has_one_row_and_all_its_plies() {
    let dir = tempfile::tempdir().unwrap();
    let pgn = dir.path().join("repeat.pgn");
    // The start position stands again after 1. Nf3 Nf6 2. Ng1 Ng8 (ply 4) and 4. Ng1 Ng8 (ply 8).
    std::fs::write(
        &pgn,
        "[Result \"1/2-1/2\"]\n\n1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 1/2-1/2\n",
    )
    .unwrap();
    let index = build(&dir.path().join("index"), &[pgn], None);
    let start = Position::startpos();
    let found = index.search(&start, &SearchOptions::default()).unwrap();
    assert_eq!(found.total, 1);
    assert_eq!(found.games[0].plies, [0, 4, 8]);
    assert_eq!(found.games[0].uci.as_deref(), Some("g1f3"));
    // Four distinct positions (the start, after Nf3, after Nf6, after Ng1): four rows.
    let manifest = index.manifest();
    let rows: u64 = manifest.files("positions").iter().map(|f| f.rows).sum();
    assert_eq!(rows, 4);
    let mut games = BTreeMap::new();
    for batch in read_parquet(&index.dir().join(&manifest.files("positions")[0].file)) {
        let game = batch.column_by_name("game").unwrap();
        let game = game.as_any().downcast_ref::<Int64Array>().unwrap();
        for g in game.iter() {
            *games.entry(g.unwrap()).or_insert(0) += 1;
        }
    }
    assert_eq!(games, BTreeMap::from([(0, 4)]));
    // The wide rows give back every ply.
    let wide = index.wide_positions().unwrap();
    assert_eq!(wide.iter().map(|b| b.num_rows()).sum::<usize>(), 9);
    // The start position's key is the file's smallest or not: either way its rows are found.
    assert_eq!(PositionKey::of(&start), found.key);
}

#[test]
fn an_index_of_format_2_is_refused_with_its_version() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("index");
    build(&out, &bundled()[..1], None);
    let manifest = out.join("manifest.json");
    let text = std::fs::read_to_string(&manifest).unwrap();
    assert!(text.contains("\"version\": 3"), "{text}");
    std::fs::write(&manifest, text.replace("\"version\": 3", "\"version\": 2")).unwrap();
    let error = Index::open(&out).err().expect("a format-2 index is refused");
    match &error {
        IndexError::Version { version, reads, path } => {
            assert_eq!((*version, *reads), (2, 3));
            assert_eq!(path, &manifest);
        }
        other => panic!("not a version error: {other:?}"),
    }
    let text = error.to_string();
    assert!(text.contains("format version 2") && text.contains("rebuild"), "{text}");
}

#[test]
fn positions_files_record_their_key_bits() {
    // The footer's `chessbits.positions.key_bits` says how to cut a query key (a file without
    // it does not open: `model::positions::key_bits_of`).
    use chessbits_index::model::positions::{key_bits_for, key_prefix};
    assert_eq!(key_bits_for(1 << 20), 24);
    assert_eq!(key_prefix(u128::MAX, 24), (1 << 24) - 1);
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("index");
    let index = build(&out, &bundled()[..1], Some(12));
    let file = index.dir().join(&index.manifest().files("positions")[0].file);
    let meta = parquet::file::reader::SerializedFileReader::new(std::fs::File::open(&file).unwrap()).unwrap();
    use parquet::file::reader::FileReader;
    let kv = meta.metadata().file_metadata().key_value_metadata().unwrap();
    let bits = kv.iter().find(|kv| kv.key == "chessbits.positions.key_bits").unwrap();
    assert_eq!(bits.value.as_deref(), Some("12"));
}
