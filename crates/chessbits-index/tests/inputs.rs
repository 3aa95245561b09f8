//! The same games through every kind of input: an index built from the bundled PGN files, one
//! from their `.cbits` archive (packed as `chessbits pack` packs) and ones from their Parquet
//! export (flat and partitioned by year and month, each moves code) answer the same: explorer
//! tables summed exactly, and the same games (by their tags and plies) for hundreds of
//! positions. Hostile inputs (a truncated part file, a Parquet file that is not an export, an
//! archive with a damaged block) give errors, never a panic.

use crate::common;

use std::collections::BTreeMap;
use std::fs::File;
use std::path::{Path, PathBuf};

use arrow_array::{Array, BinaryArray, BooleanArray, Int32Array, Int64Array, StringArray};
use chessbits::pgn::{GameTree, PgnReader, WriteOptions};
use chessbits::position::Position;
use chessbits_archive::{ArchiveReader, ArchiveWriter, WriterOptions};
use chessbits_index::model::game::month_of;
use chessbits_index::{
    export_parts, rating_band, BuildOptions, ExploreOptions, GameRow, Index, IndexBuilder, IndexError, Outcome,
    SearchOptions, SourceFormat,
};
use chessbits_parquet::{ExportOptions, MovesCode, ParquetExporter};
use common::bundled;
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;

fn options() -> BuildOptions {
    BuildOptions {
        threads: 2,
        memory: 1 << 20,
        force: false,
    }
}

/// Packs the files into one archive, game by game as `chessbits pack` does.
fn pack(files: &[PathBuf], out: &Path) {
    let file = File::create(out).unwrap();
    let options = WriterOptions {
        max_games_per_block: 50,
        ..WriterOptions::default()
    };
    let mut writer = ArchiveWriter::new(file, options).unwrap();
    for (source, path) in files.iter().enumerate() {
        let mut reader = PgnReader::new(File::open(path).unwrap());
        let mut text = Vec::new();
        while let Some(raw) = reader.read_raw_game(&mut text).unwrap() {
            writer.add_pgn(std::mem::take(&mut text), raw, source as u32).unwrap();
        }
    }
    writer.finish().unwrap();
}

fn export(files: &[PathBuf], out: &Path, partition: bool, code: MovesCode) {
    let options = ExportOptions {
        partition,
        moves_code: code,
        row_group_size: 64,
        ..ExportOptions::default()
    };
    let mut exporter = ParquetExporter::create(out, options).unwrap();
    for path in files {
        let source = exporter.add_source(&path.display().to_string());
        exporter.add_pgn(source, File::open(path).unwrap()).unwrap();
    }
    exporter.finish().unwrap();
}

fn build(out: &Path, add: impl FnOnce(&mut IndexBuilder) -> Result<(), IndexError>) -> Index {
    let mut builder = IndexBuilder::create(out, options()).unwrap();
    add(&mut builder).unwrap();
    builder.finish().unwrap();
    Index::open(out).unwrap()
}

/// The explorer table summed per key, move, speed, rating band and month (the counts, the rated
/// games and their rating sum, the last date): what every query reads, whatever the numbering.
type Sums = BTreeMap<(Vec<u8>, Option<String>, Option<String>, Option<i32>, Option<String>), [i64; 5]>;

fn explorer_sums(index: &Path) -> Sums {
    let opened = Index::open(index).unwrap();
    let mut sums = Sums::new();
    for entry in opened.manifest().files("explorer") {
        let file = File::open(index.join(&entry.file)).unwrap();
        for batch in ParquetRecordBatchReaderBuilder::try_new(file).unwrap().build().unwrap() {
            let batch = batch.unwrap();
            let col = |name: &str| batch.column_by_name(name).unwrap().clone();
            let key = col("key");
            let key = key.as_any().downcast_ref::<BinaryArray>().unwrap();
            let text = |name: &str| col(name).as_any().downcast_ref::<StringArray>().unwrap().clone();
            let (uci, speed, month) = (text("uci"), text("speed"), text("month"));
            let rating = col("rating");
            let rating = rating.as_any().downcast_ref::<Int32Array>().unwrap();
            let counts: Vec<Int64Array> = ["white", "draws", "black", "rated", "rating_sum"]
                .iter()
                .map(|n| col(n).as_any().downcast_ref::<Int64Array>().unwrap().clone())
                .collect();
            let opt = |a: &StringArray, i: usize| (!a.is_null(i)).then(|| a.value(i).to_string());
            for i in 0..batch.num_rows() {
                let group = (
                    key.value(i).to_vec(),
                    opt(&uci, i),
                    opt(&speed, i),
                    (!rating.is_null(i)).then(|| rating.value(i)),
                    opt(&month, i),
                );
                let sum = sums.entry(group).or_default();
                for (s, c) in sum.iter_mut().zip(&counts) {
                    *s += c.value(i);
                }
            }
        }
    }
    // The keys of one decided game have no explorer rows: their `solo` positions rows stand for
    // them, with the game's counts (the union the crate documents for DuckDB).
    let mut solo = Vec::new();
    // The rows with full keys and moves (format 3 stores key prefixes; replay recovers them).
    for batch in opened.wide_positions().unwrap() {
        {
            let col = |name: &str| batch.column_by_name(name).unwrap().clone();
            let (key, game, uci, flag) = (col("key"), col("game"), col("uci"), col("solo"));
            let key = key.as_any().downcast_ref::<BinaryArray>().unwrap();
            let game = game.as_any().downcast_ref::<Int64Array>().unwrap();
            let uci = uci.as_any().downcast_ref::<StringArray>().unwrap();
            let flag = flag.as_any().downcast_ref::<BooleanArray>().unwrap();
            for i in (0..batch.num_rows()).filter(|&i| flag.value(i)) {
                let uci = (!uci.is_null(i)).then(|| uci.value(i).to_string());
                solo.push((game.value(i) as u64, key.value(i).to_vec(), uci));
            }
        }
    }
    solo.sort();
    let ids: Vec<u64> = solo.iter().map(|s| s.0).collect();
    let mut ids_distinct = ids.clone();
    ids_distinct.dedup();
    let rows: BTreeMap<u64, GameRow> = opened
        .game_rows(&ids_distinct)
        .unwrap()
        .into_iter()
        .map(|r| (r.game as u64, r))
        .collect();
    for (game, key, uci) in solo {
        let row = &rows[&game];
        let average = row.average_rating();
        let group = (
            key,
            uci,
            row.speed.map(|s| s.name().to_string()),
            average.map(|a| rating_band(a) as i32),
            month_of(row.date),
        );
        let outcome = row.outcome().expect("a solo row's game is decided");
        let counts = [
            (outcome == Outcome::WhiteWins) as i64,
            (outcome == Outcome::Draw) as i64,
            (outcome == Outcome::BlackWins) as i64,
            average.is_some() as i64,
            average.unwrap_or(0) as i64,
        ];
        let sum = sums.entry(group).or_default();
        for (s, c) in sum.iter_mut().zip(counts) {
            *s += c;
        }
    }
    sums
}

/// Positions to query: every 5th position of every game's main line (start positions
/// included), at most `limit`.
fn query_positions(files: &[PathBuf], limit: usize) -> Vec<Position> {
    let mut out = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for path in files {
        let mut reader = PgnReader::new(File::open(path).unwrap());
        while let Some(game) = reader.read_owned_game().unwrap() {
            let Ok(game) = game else { continue };
            let mut pos = game.start.clone();
            for (ply, mv) in std::iter::once(None).chain(game.mainline().map(Some)).enumerate() {
                if let Some(mv) = mv {
                    if mv.is_null() {
                        break;
                    }
                    pos.play_unchecked(mv);
                }
                if ply % 5 == 0 && seen.insert(pos.fen()) {
                    out.push(pos.clone());
                }
            }
        }
    }
    // Spread over the files rather than the first ones only.
    let step = (out.len() / limit).max(1);
    out.into_iter().step_by(step).take(limit).collect()
}

/// A game as the index describes it, without its number and place in the source.
type GameId = (
    Option<String>,
    Option<String>,
    String,
    u32,
    u16,
    Option<String>,
    Option<String>,
    Vec<u32>,
);

/// What the queries say of a position: the explorer's counts and moves, the games found.
type Answer = (u64, u64, u64, Vec<(String, u64, u64, u64)>, Vec<GameId>);

fn found(index: &Index, pos: &Position) -> Answer {
    let explorer = index.explore(pos, &ExploreOptions::default()).unwrap();
    let moves = explorer
        .moves
        .iter()
        .map(|m| (m.uci.clone(), m.white, m.draws, m.black))
        .collect();
    let options = SearchOptions {
        limit: usize::MAX,
        ..SearchOptions::default()
    };
    let result = index.search(pos, &options).unwrap();
    assert_eq!(result.total as usize, result.games.len());
    let mut games: Vec<GameId> = result
        .games
        .into_iter()
        .map(|hit| {
            let r = hit.row;
            (r.white, r.black, r.result, r.date, r.plies, r.event, r.site, hit.plies)
        })
        .collect();
    games.sort();
    (explorer.white, explorer.draws, explorer.black, moves, games)
}

#[test]
fn pgn_archive_and_export_indexes_answer_alike() {
    let files = bundled();
    assert!(files.len() >= 4, "{files:?}");
    let dir = tempfile::tempdir().unwrap();
    let from_pgn = build(&dir.path().join("pgn"), |b| {
        files.iter().try_for_each(|f| b.add_file(f))
    });
    let archive = dir.path().join("all.cbits");
    pack(&files, &archive);
    let from_archive = build(&dir.path().join("cbits"), |b| b.add_archive(&archive, &mut |_| {}));
    let mut exports = Vec::new();
    for (name, partition, code) in [
        ("flat", false, MovesCode::Entropy),
        ("partitioned", true, MovesCode::IndexByte),
    ] {
        let out = dir.path().join(format!("export-{name}"));
        export(&files, &out, partition, code);
        let parts = export_parts(&out).unwrap();
        assert_eq!(parts.len() > 1, partition, "{name}: {} parts", parts.len());
        let index = build(&dir.path().join(name), |b| b.add_export(&out, &mut |_| {}));
        exports.push((name, out, index));
    }

    // The games that read: the same number everywhere (an export keeps every game the PGN
    // reader reads, and rejects the others to _rejected.pgn).
    assert!(from_pgn.games() > 400, "{}", from_pgn.games());
    assert_eq!(from_archive.games(), from_pgn.games());
    for (name, _, index) in &exports {
        assert_eq!(index.games(), from_pgn.games(), "{name}");
        assert!(index.sources().iter().all(|s| s.format == SourceFormat::Parquet));
    }
    assert_eq!(from_archive.sources()[0].format, SourceFormat::Cbits);
    assert_eq!(from_pgn.sources()[0].format, SourceFormat::Pgn);

    // The explorer tables, summed per group: equal.
    let sums = explorer_sums(&dir.path().join("pgn"));
    assert!(sums.len() > 10_000, "{}", sums.len());
    assert!(sums == explorer_sums(&dir.path().join("cbits")), "archive");
    for (name, ..) in &exports {
        assert!(sums == explorer_sums(&dir.path().join(name)), "{name}");
    }

    // Queries: counts, moves and the games found (by tags and plies).
    let positions = query_positions(&files, 400);
    assert!(positions.len() >= 300, "{}", positions.len());
    let mut nonempty = 0;
    for pos in &positions {
        let expected = found(&from_pgn, pos);
        nonempty += !expected.4.is_empty() as usize;
        assert_eq!(found(&from_archive, pos), expected, "archive, {}", pos.fen());
        for (name, _, index) in &exports {
            assert_eq!(found(index, pos), expected, "{name}, {}", pos.fen());
        }
    }
    assert_eq!(nonempty, positions.len(), "every position is one of a game");

    // Game texts: the archive's is what unpack writes, the same game as the PGN's; the
    // export's is rebuilt from its row: the same main line and tags.
    let pos = &positions[positions.len() / 2];
    let all = SearchOptions {
        limit: usize::MAX,
        ..SearchOptions::default()
    };
    let mut reader = ArchiveReader::open(File::open(&archive).unwrap()).unwrap();
    for hit in from_archive.search(pos, &all).unwrap().games {
        let text = from_archive.game_text(&hit.row).unwrap();
        let mut unpacked = Vec::new();
        reader
            .game(hit.row.offset)
            .unwrap()
            .write_pgn(&mut unpacked, &WriteOptions::default())
            .unwrap();
        assert_eq!(text, unpacked);
        let original = from_pgn.search(pos, &all).unwrap().games;
        let twin = original
            .iter()
            .find(|o| {
                (&o.row.white, &o.row.black, o.row.date, o.row.plies, &o.row.event)
                    == (
                        &hit.row.white,
                        &hit.row.black,
                        hit.row.date,
                        hit.row.plies,
                        &hit.row.event,
                    )
            })
            .unwrap();
        let original_text = from_pgn.game_text(&twin.row).unwrap();
        let (a, b) = (
            GameTree::from_pgn(&text).unwrap(),
            GameTree::from_pgn(&original_text).unwrap(),
        );
        assert_eq!(a, b, "{}", String::from_utf8_lossy(&text));
    }
    for (name, _, index) in &exports {
        for hit in index.search(pos, &all).unwrap().games {
            let text = index.game_text(&hit.row).unwrap();
            let game = GameTree::from_pgn(&text).unwrap();
            assert_eq!(game.moves.nodes.len(), hit.row.plies as usize, "{name}");
            assert_eq!(game.tag("White").map(|t| t.into_owned()), hit.row.white, "{name}");
            assert_eq!(game.tag("Site").map(|t| t.into_owned()), hit.row.site, "{name}");
        }
    }
}

#[test]
fn adding_an_archive_and_an_export_to_a_pgn_index() {
    let files = bundled();
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("index");
    let first = &files[..1];
    build(&out, |b| b.add_file(&first[0]));
    let archive = dir.path().join("a.cbits");
    pack(&files[1..2], &archive);
    let exported = dir.path().join("export");
    export(&files[2..3], &exported, true, MovesCode::Entropy);
    let mut adding = IndexBuilder::append(&out, options()).unwrap();
    adding.add_archive(&archive, &mut |_| {}).unwrap();
    adding.add_export(&exported, &mut |_| {}).unwrap();
    adding.finish().unwrap();

    let whole = dir.path().join("whole");
    let from_pgn = build(&whole, |b| files[..3].iter().try_for_each(|f| b.add_file(f)));
    let index = Index::open(&out).unwrap();
    assert_eq!(index.games(), from_pgn.games());
    assert!(explorer_sums(&out) == explorer_sums(&whole));
    let formats: Vec<SourceFormat> = index.sources().iter().map(|s| s.format).collect();
    assert_eq!(formats[..2], [SourceFormat::Pgn, SourceFormat::Cbits]);
    assert!(formats[2..].iter().all(|f| *f == SourceFormat::Parquet));
    // Every game's text reads back, whatever its source.
    let all: Vec<u64> = (0..index.games()).collect();
    for row in index.game_rows(&all).unwrap() {
        let text = index.game_text(&row).unwrap();
        assert!(GameTree::from_pgn(&text).is_ok(), "{}", String::from_utf8_lossy(&text));
    }
}

/// The error of building from `add`, which must be an error (not a panic).
fn build_error(dir: &Path, add: impl FnOnce(&mut IndexBuilder) -> Result<(), IndexError>) -> String {
    std::fs::create_dir_all(dir).unwrap();
    let mut builder = IndexBuilder::create(&dir.join("index"), options()).unwrap();
    let error = add(&mut builder).unwrap_err().to_string();
    assert!(!dir.join("index").exists());
    error
}

#[test]
fn hostile_inputs_are_errors() {
    let files = bundled();
    let dir = tempfile::tempdir().unwrap();
    let exported = dir.path().join("export");
    export(&files[..1], &exported, false, MovesCode::Entropy);
    let part = exported.join("part-0.parquet");

    // A part file cut short: its footer is gone.
    let truncated = dir.path().join("truncated");
    std::fs::create_dir(&truncated).unwrap();
    let bytes = std::fs::read(&part).unwrap();
    std::fs::write(truncated.join("part-0.parquet"), &bytes[..bytes.len() / 2]).unwrap();
    let error = build_error(&dir.path().join("t1"), |b| b.add_export(&truncated, &mut |_| {}));
    assert!(error.contains("part-0.parquet"), "{error}");

    // A Parquet file that is not an export: an index's own table.
    let other = dir.path().join("other");
    let index_dir = dir.path().join("an-index");
    build(&index_dir, |b| b.add_file(&files[0]));
    std::fs::create_dir(&other).unwrap();
    std::fs::copy(index_dir.join("games/part-00000.parquet"), other.join("games.parquet")).unwrap();
    let error = build_error(&dir.path().join("t2"), |b| b.add_export(&other, &mut |_| {}));
    assert!(error.contains("no column `movetext`"), "{error}");

    // A directory without part files.
    let empty = dir.path().join("empty");
    std::fs::create_dir(&empty).unwrap();
    let error = build_error(&dir.path().join("t3"), |b| b.add_export(&empty, &mut |_| {}));
    assert!(error.contains("not a Parquet export"), "{error}");

    // An archive with a byte of a block changed: its checksum fails.
    let archive = dir.path().join("a.cbits");
    pack(&files[..1], &archive);
    let mut bytes = std::fs::read(&archive).unwrap();
    let block = bytes.windows(4).position(|w| w == b"CBLK").unwrap();
    bytes[block + 100] ^= 0x55;
    let damaged = dir.path().join("damaged.cbits");
    std::fs::write(&damaged, &bytes).unwrap();
    let error = build_error(&dir.path().join("t4"), |b| b.add_archive(&damaged, &mut |_| {}));
    assert!(error.contains("damaged archive"), "{error}");

    // An archive cut short.
    let cut = dir.path().join("cut.cbits");
    std::fs::write(&cut, &bytes[..bytes.len() / 3]).unwrap();
    let error = build_error(&dir.path().join("t5"), |b| b.add_archive(&cut, &mut |_| {}));
    assert!(error.contains("damaged archive"), "{error}");

    // A part file changed after indexing: its games cannot be read back.
    let index = build(&dir.path().join("changed"), |b| b.add_export(&exported, &mut |_| {}));
    let row = index.game_rows(&[0]).unwrap().remove(0);
    assert!(index.game_text(&row).is_ok());
    std::fs::write(&part, b"PAR1").unwrap();
    assert!(matches!(index.game_text(&row), Err(IndexError::SourceChanged { .. })));
}
