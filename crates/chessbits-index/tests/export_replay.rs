//! An index built from a Parquet export stores the same replays (`games.replay_moves`,
//! `replay_plies`, `start_fen`, `chess960`) as one built from the PGN it was exported from, row
//! by row, whatever the export's moves code: the build takes an entropy-coded `moves` as the
//! replay's code as it is (the decoder is canonical) and encodes the others. Chess960 games, a
//! FEN start and a null move in the main line (an export row without `moves`) included. And the
//! thread count of a build changes no byte of any of its files.

use crate::common;

use std::fs::File;
use std::path::Path;

use arrow_array::cast::AsArray;
use arrow_array::{Array, RecordBatch};
use chessbits_index::{BuildOptions, Index, IndexBuilder};
use chessbits_parquet::{ExportOptions, MovesCode, ParquetExporter};
use common::{bundled, read_parquet};

/// Games whose replays are easy to get wrong: a null move (the replay stops before it), a FEN
/// start, Chess960 castling, a game without moves.
const TRICKY: &str = "[Result \"0-1\"]\n\n1. e4 -- 2. d4 e5 0-1\n\n\
    [Variant \"Chess960\"]\n[FEN \"1k5r/8/8/8/8/8/8/RK2R3 w AE - 0 1\"]\n[Result \"1/2-1/2\"]\n\n1. O-O Kc8 2. Rf7 Kb8 1/2-1/2\n\n\
    [FEN \"4k3/8/8/8/8/8/8/4K2R w K - 0 1\"]\n[Result \"1-0\"]\n\n1. O-O Kd7 2. Rd1+ 1-0\n\n\
    [Result \"*\"]\n\n*\n\n\
    [Result \"1-0\"]\n\n1. e4 e5 2. Nf3 -- 3. Bc4 1-0\n\n";

fn build(out: &Path, add: impl FnOnce(&mut IndexBuilder)) -> Index {
    let options = BuildOptions {
        threads: 2,
        memory: 1 << 20,
        force: false,
    };
    let mut builder = IndexBuilder::create(out, options).unwrap();
    add(&mut builder);
    builder.finish().unwrap();
    Index::open(out).unwrap()
}

/// Per row of the `games` table: the replay's columns.
type Replays = Vec<(Vec<u8>, i32, Option<String>, bool)>;

fn replays(index: &Index) -> Replays {
    let mut out = Vec::new();
    for entry in index.manifest().files("games") {
        for batch in read_parquet(&index.dir().join(&entry.file)) {
            let moves = batch.column_by_name("replay_moves").unwrap().as_binary::<i32>();
            let plies = batch
                .column_by_name("replay_plies")
                .unwrap()
                .as_primitive::<arrow_array::types::Int32Type>();
            let fen = batch.column_by_name("start_fen").unwrap().as_string::<i32>();
            let chess960 = batch.column_by_name("chess960").unwrap().as_boolean();
            for i in 0..batch.num_rows() {
                out.push((
                    moves.value(i).to_vec(),
                    plies.value(i),
                    (!fen.is_null(i)).then(|| fen.value(i).to_string()),
                    chess960.value(i),
                ));
            }
        }
    }
    out
}

/// Every row of the export's part files, in the index's numbering.
fn export_rows(dir: &Path) -> Vec<RecordBatch> {
    chessbits_index::export_parts(dir)
        .unwrap()
        .iter()
        .flat_map(|part| read_parquet(Path::new(&part.info.path)))
        .collect()
}

#[test]
fn an_export_gives_the_replays_of_its_pgn() {
    let dir = tempfile::tempdir().unwrap();
    let pgn = dir.path().join("games.pgn");
    let mut text = TRICKY.as_bytes().to_vec();
    for path in bundled() {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if name == "cutechess-fischerrandom.pgn" || name == "notnil_Carlsen.pgn" {
            text.extend(std::fs::read(&path).unwrap());
            text.extend_from_slice(b"\n\n");
        }
    }
    std::fs::write(&pgn, &text).unwrap();
    let from_pgn = replays(&build(&dir.path().join("pgn"), |b| b.add_file(&pgn).unwrap()));
    assert!(from_pgn.len() > 50, "{}", from_pgn.len());
    assert!(from_pgn.iter().filter(|r| r.3).count() >= 3, "Chess960 games");
    assert_eq!(from_pgn[0].1, 1, "the replay stops at the null move");
    assert_eq!(from_pgn[4].1, 3, "the replay stops at the null move");

    for code in MovesCode::ALL {
        let export = dir.path().join(format!("export-{code}"));
        let options = ExportOptions {
            moves_code: code,
            row_group_size: 16,
            ..ExportOptions::default()
        };
        let mut exporter = ParquetExporter::create(&export, options).unwrap();
        let source = exporter.add_source("games.pgn");
        exporter.add_pgn(source, File::open(&pgn).unwrap()).unwrap();
        exporter.finish().unwrap();
        let index = build(&dir.path().join(format!("index-{code}")), |b| {
            b.add_export(&export, &mut |_| {}).unwrap()
        });
        let from_export = replays(&index);
        assert_eq!(from_export.len(), from_pgn.len(), "{code}");
        for (row, (a, b)) in from_export.iter().zip(&from_pgn).enumerate() {
            assert_eq!(a, b, "{code}: games row {row}");
        }
        // An entropy-coded `moves` is the replay's code itself (null: a null move, the row
        // read as PGN).
        if code == MovesCode::Entropy {
            let mut row = 0;
            let mut nulls = 0;
            for batch in export_rows(&export) {
                let moves = batch.column_by_name("moves").unwrap().as_binary::<i32>();
                for i in 0..batch.num_rows() {
                    match moves.is_null(i) {
                        true => nulls += 1,
                        false => assert_eq!(moves.value(i), from_pgn[row].0, "row {row}"),
                    }
                    row += 1;
                }
            }
            assert_eq!((row, nulls), (from_pgn.len(), 2));
        }
    }
}

/// Every file of an index, by its path in the index, and its bytes.
fn files(dir: &Path) -> std::collections::BTreeMap<String, Vec<u8>> {
    let mut out = std::collections::BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(at) = stack.pop() {
        for entry in std::fs::read_dir(&at).unwrap() {
            let path = entry.unwrap().path();
            match path.is_dir() {
                true => stack.push(path),
                false => {
                    let name = path.strip_prefix(dir).unwrap().to_string_lossy().into_owned();
                    out.insert(name, std::fs::read(&path).unwrap());
                }
            }
        }
    }
    out
}

#[test]
fn the_thread_count_does_not_change_a_byte() {
    let dir = tempfile::tempdir().unwrap();
    let inputs = bundled();
    let mut built = Vec::new();
    for threads in [1, 2] {
        let out = dir.path().join(format!("threads-{threads}"));
        let options = BuildOptions {
            threads,
            // Small: several sorted runs spilled and merged.
            memory: 1 << 18,
            force: false,
        };
        let mut builder = IndexBuilder::create(&out, options).unwrap();
        for path in &inputs {
            builder.add_file(path).unwrap();
        }
        builder.finish().unwrap();
        built.push(files(&out));
    }
    assert!(built[0].len() >= 13, "{:?}", built[0].keys());
    assert_eq!(built[0].keys().collect::<Vec<_>>(), built[1].keys().collect::<Vec<_>>());
    for (name, bytes) in &built[0] {
        assert!(built[1][name] == *bytes, "{name} differs");
    }
}
