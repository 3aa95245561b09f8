//! Fidelity of the export, read back from Parquet: the bytes of every string of rows that mix
//! UTF-8 and Latin-1, and clocks and evals read by the library's own parsers.

use std::fs::{self, File};
use std::path::{Path, PathBuf};

use arrow_array::cast::AsArray;
use arrow_array::types::Int32Type;
use arrow_array::{Array, RecordBatch};
use chessbits::pgn::{GameTree, PgnReader};
use chessbits_parquet::{ExportOptions, GameRow, ParquetExporter, MATE_BASE, TAG_COLUMNS, TEXT_TAG_COLUMNS};
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;

use crate::common;
use common::pgn_files;

/// A game to write: tags (name, value as meant, unescaped) and the movetext, as bytes.
struct Game {
    tags: Vec<(&'static [u8], &'static [u8])>,
    movetext: &'static [u8],
}

/// The games as one PGN file's bytes (values escaped as PGN wants).
fn pgn(games: &[Game]) -> Vec<u8> {
    let mut out = Vec::new();
    for game in games {
        for (name, value) in &game.tags {
            out.push(b'[');
            out.extend_from_slice(name);
            out.extend_from_slice(b" \"");
            for &b in *value {
                if b == b'"' || b == b'\\' {
                    out.push(b'\\');
                }
                out.push(b);
            }
            out.extend_from_slice(b"\"]\n");
        }
        out.push(b'\n');
        out.extend_from_slice(game.movetext);
        out.extend_from_slice(b"\n\n");
    }
    out
}

/// Exports `pgn` (one file, no partitions) into `dir` and reads the rows back as one batch.
fn export_and_read(pgn: &[u8], dir: &Path) -> RecordBatch {
    let out = dir.join("out");
    // With `movetext`, whose Latin-1 recovery these tests check too.
    let options = ExportOptions {
        movetext: true,
        ..ExportOptions::default()
    };
    let mut exporter = ParquetExporter::create(&out, options).unwrap();
    let source = exporter.add_source("mixed.pgn");
    exporter.add_pgn(source, pgn).unwrap();
    let summary = exporter.finish().unwrap();
    assert_eq!(summary.rejected, 0);
    let files: Vec<PathBuf> = fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "parquet"))
        .collect();
    assert_eq!(files.len(), 1, "{files:?}");
    let reader = ParquetRecordBatchReaderBuilder::try_new(File::open(&files[0]).unwrap())
        .unwrap()
        .build()
        .unwrap();
    let mut batches: Vec<RecordBatch> = reader.map(Result::unwrap).collect();
    assert_eq!(batches.len(), 1, "a few rows: one batch");
    batches.pop().unwrap()
}

/// What each string of a game's row must give back: (field, original bytes), field named as
/// `latin1_fields` names it.
fn expected_strings(game: &Game) -> Vec<(String, Vec<u8>)> {
    let mut out = vec![("movetext".to_string(), game.movetext.to_vec())];
    let mut seen: Vec<&[u8]> = Vec::new();
    let mut other = 0;
    for (name, value) in &game.tags {
        let column = TAG_COLUMNS.iter().find(|c| c.as_bytes() == *name);
        match column {
            // A typed column (a number, date, time) holds only the text it writes back: these
            // tests' typed values are not UTF-8, so they go to `other_tags`.
            Some(column)
                if !seen.contains(name)
                    && (TEXT_TAG_COLUMNS.contains(column) || std::str::from_utf8(value).is_ok()) =>
            {
                seen.push(name);
                if TEXT_TAG_COLUMNS.contains(column) {
                    out.push((column.to_string(), value.to_vec()));
                }
            }
            _ => {
                out.push((format!("other_tags[{other}].key"), name.to_vec()));
                out.push((format!("other_tags[{other}].value"), value.to_vec()));
                other += 1;
            }
        }
    }
    out
}

/// A string of the export back to its bytes: Latin-1 (each character one byte) when
/// `latin1_fields` names it, else its UTF-8 bytes.
fn to_bytes(text: &str, latin1: bool) -> Vec<u8> {
    if latin1 {
        text.chars()
            .map(|c| u8::try_from(u32::from(c)).expect("a Latin-1 string holds U+0000 to U+00FF only"))
            .collect()
    } else {
        text.as_bytes().to_vec()
    }
}

/// Every string of row `row` as (field, bytes recovered by the documented rule).
fn recovered_strings(batch: &RecordBatch, row: usize) -> Vec<(String, Vec<u8>)> {
    let fields = batch.column_by_name("latin1_fields").unwrap().as_list::<i32>();
    let non_utf8 = batch.column_by_name("non_utf8").unwrap().as_boolean().value(row);
    assert_eq!(
        fields.is_valid(row),
        non_utf8,
        "row {row}: latin1_fields null exactly when all UTF-8"
    );
    let latin1: Vec<String> = match fields.is_valid(row) {
        true => {
            let names = fields.value(row);
            let names = names.as_string::<i32>();
            (0..names.len()).map(|i| names.value(i).to_string()).collect()
        }
        false => Vec::new(),
    };
    let mut out = Vec::new();
    let mut push = |field: String, text: &str| {
        let is_latin1 = latin1.contains(&field);
        out.push((field, to_bytes(text, is_latin1)));
    };
    push(
        "movetext".to_string(),
        batch.column_by_name("movetext").unwrap().as_string::<i32>().value(row),
    );
    for column in TEXT_TAG_COLUMNS {
        let array = batch.column_by_name(column).unwrap().as_string::<i32>();
        if array.is_valid(row) {
            push(column.to_string(), array.value(row));
        }
    }
    let map = batch.column_by_name("other_tags").unwrap().as_map();
    let entries = map.value(row);
    let (keys, values) = (
        entries.column(0).as_string::<i32>(),
        entries.column(1).as_string::<i32>(),
    );
    for i in 0..keys.len() {
        push(format!("other_tags[{i}].key"), keys.value(i));
        push(format!("other_tags[{i}].value"), values.value(i));
    }
    let annotations = batch.column_by_name("annotations").unwrap().as_string::<i32>();
    if annotations.is_valid(row) {
        push("annotations".to_string(), annotations.value(row));
    }
    // Every field named must be one of the row's strings.
    for name in &latin1 {
        assert!(
            out.iter().any(|(field, _)| field == name),
            "row {row}: {name} named but absent"
        );
    }
    out
}

fn sorted(mut v: Vec<(String, Vec<u8>)>) -> Vec<(String, Vec<u8>)> {
    v.sort();
    v
}

/// Item 7 of the fidelity issue: a UTF-8 `café` and a Latin-1 `café` in one row were both
/// `café`, and the Latin-1 rule gave `caf\xe9` for both. Every string of mixed rows now comes
/// back as the bytes of the input, field by field.
#[test]
fn mixed_encoding_rows_round_trip_to_the_input_bytes() {
    let games = [
        // The game: a UTF-8 White, a Latin-1 Black.
        Game {
            tags: vec![(b"White", b"caf\xc3\xa9"), (b"Black", b"Polg\xe1r"), (b"Result", b"*")],
            movetext: b"1. e4 e5 *",
        },
        // The same name in each encoding in one row, in columns and in other_tags (a second
        // White, a Latin-1 Annotator, a UTF-8 Round), an escaped Latin-1 value, a UTF-8
        // movetext.
        Game {
            tags: vec![
                (b"Event", b"\"Caf\xe9\" \\ open"),
                (b"Site", b"caf\xc3\xa9"),
                (b"White", b"caf\xe9"),
                (b"Round", b"caf\xc3\xa9"),
                (b"Annotator", b"J\xfcrgen"),
                (b"White", b"caf\xc3\xa9"),
                (b"Opening", b"Sicilian"),
            ],
            movetext: "1. d4 { café } d5 *".as_bytes(),
        },
        // UTF-8 tags, a movetext that mixes both (so it is Latin-1 as a whole).
        Game {
            tags: vec![(b"White", "René".as_bytes()), (b"Black", b"Ann")],
            movetext: b"1. c4 { \xe9chec } e5 { caf\xc3\xa9 } *",
        },
        // Only a tag stored as a number is not UTF-8: not a number, it is kept in `other_tags`
        // (it was dropped before), named there.
        Game {
            tags: vec![(b"White", b"Ann"), (b"WhiteElo", b"15\xe90")],
            movetext: b"1. Nf3 *",
        },
        // All UTF-8, non-ASCII included: unchanged (non_utf8 false, latin1_fields null).
        Game {
            tags: vec![(b"White", "Müller".as_bytes()), (b"Site", "Göteborg".as_bytes())],
            movetext: "1. e4 { très bien } *".as_bytes(),
        },
        Game {
            tags: vec![(b"Event", b"Plain")],
            movetext: b"1. g3 *",
        },
    ];
    let dir = tempfile::tempdir().unwrap();
    let batch = export_and_read(&pgn(&games), dir.path());
    assert_eq!(batch.num_rows(), games.len());
    let non_utf8 = batch.column_by_name("non_utf8").unwrap().as_boolean();
    let latin1 = batch.column_by_name("latin1_fields").unwrap().as_list::<i32>();
    for (row, game) in games.iter().enumerate() {
        let (annotations, strings): (Vec<_>, Vec<_>) = recovered_strings(&batch, row)
            .into_iter()
            .partition(|(f, _)| f == "annotations");
        assert_eq!(sorted(strings), sorted(expected_strings(game)), "row {row}");
        // The annotations (the movetext, or the whole game, its moves marked) give back the
        // movetext's bytes.
        if !annotations.is_empty() {
            let rows = chessbits_parquet::rows_from_batch(&batch.slice(row, 1)).unwrap();
            let pgn = rows[0].to_pgn(chessbits_parquet::MovesCode::default()).unwrap();
            assert!(pgn.ends_with(&[game.movetext, b"\n\n"].concat()), "row {row}");
        }
        let any_latin1 = std::str::from_utf8(game.movetext).is_err()
            || game.tags.iter().any(|(_, v)| std::str::from_utf8(v).is_err());
        assert_eq!(non_utf8.value(row), any_latin1, "row {row} non_utf8");
    }
    let names = |row: usize| -> Option<Vec<String>> {
        latin1.is_valid(row).then(|| {
            let list = latin1.value(row);
            let list = list.as_string::<i32>();
            (0..list.len()).map(|i| list.value(i).to_string()).collect()
        })
    };
    // Only the invalid fields were read as Latin-1; the UTF-8 ones stay as they are.
    assert_eq!(names(0), Some(vec!["Black".to_string()]));
    let white = batch.column_by_name("White").unwrap().as_string::<i32>();
    assert_eq!((white.value(0), white.value(1)), ("café", "café"), "the same text...");
    assert_ne!(
        to_bytes(white.value(0), false),
        to_bytes(white.value(1), true),
        "...told apart by latin1_fields"
    );
    assert_eq!(
        names(1),
        Some(vec![
            "Event".to_string(),
            "White".to_string(),
            "other_tags[1].value".to_string(),
            // Its comment is not a clock or eval, and its tags are not in the rebuild's order:
            // `annotations` holds the whole game, Latin-1 tags included.
            "annotations".to_string()
        ])
    );
    assert_eq!(names(2), Some(vec!["movetext".to_string(), "annotations".to_string()]));
    assert_eq!(names(3), Some(vec!["other_tags[0].value".to_string()]));
    assert_eq!((names(4), names(5)), (None, None), "all-UTF-8 rows unchanged");
}

/// The export's rows name the same fields whether read with the tree or without it.
#[test]
fn latin1_fields_are_the_same_with_and_without_the_tree() {
    let games = [Game {
        tags: vec![
            (b"White", b"caf\xc3\xa9"),
            (b"Black", b"Polg\xe1r"),
            (b"Black", b"Polg\xe1r"),
            (b"Event", b"x"),
        ],
        movetext: b"1. e4 {\xe9} *",
    }];
    let bytes = pgn(&games);
    let mut reader = PgnReader::new(&bytes[..]);
    let mut raw_bytes = Vec::new();
    let raw = reader.read_raw_game(&mut raw_bytes).unwrap().unwrap();
    let fast = GameRow::from_raw(&raw_bytes, &raw).unwrap();
    let tree = PgnReader::new(&bytes[..]).read_owned_game().unwrap().unwrap().unwrap();
    let slow = GameRow::from_game(&tree, chessbits_parquet::movetext(&raw_bytes));
    assert_eq!(fast, slow);
    // The movetext's comment is not a clock or eval: `annotations` holds the movetext, read as
    // Latin-1 too.
    assert_eq!(
        fast.latin1_fields,
        ["Black", "other_tags[0].value", "movetext", "annotations"]
    );
}

/// The export's clocks of a row, read back.
fn int_list(batch: &RecordBatch, column: &str, row: usize) -> Option<Vec<Option<i32>>> {
    let array = batch.column_by_name(column).unwrap().as_list::<i32>();
    array
        .is_valid(row)
        .then(|| array.value(row).as_primitive::<Int32Type>().iter().collect())
}

/// Item 8 of the fidelity issue: signed or out-of-range clocks were read (`-0:00:01` as 1,
/// `0:-1:00` as -60, `0:61:00` as 3660) where the library's `parse_clock` and python-chess read
/// none. The export now uses the library's parsers for clocks and evals.
#[test]
fn signed_or_out_of_range_clocks_are_null() {
    let movetext = b"1. e4 { [%clk -0:00:01] [%eval -1.5] } e5 { [%clk 0:-1:00] [%eval #-2] } \
        2. Nf3 { [%clk 0:61:00] [%eval 1e3] } Nc6 { [%clk 0:03:00] [%eval #-0] } \
        3. Bb5 { [%clk 1:02:03.4] [%eval 0.999,20] } a6 { [%clk +0:01:00] [%eval 7.5] } \
        4. Ba4 { [%clk 0:00:60] } Nf6 { [%clk 0:02:59] } 5. O-O { [%clk 596524:00:00] } *";
    let games = [Game {
        tags: vec![(b"Event", b"clocks")],
        movetext,
    }];
    let dir = tempfile::tempdir().unwrap();
    let batch = export_and_read(&pgn(&games), dir.path());
    let clocks = chessbits_parquet::clocks_from_deltas(&int_list(&batch, "clock_deltas", 0).unwrap());
    assert_eq!(
        clocks,
        [None, None, None, Some(180), Some(3723), None, None, Some(179), None]
    );
    let evals = int_list(&batch, "evals", 0).unwrap();
    assert_eq!(
        evals,
        [
            Some(-150),
            Some(-(MATE_BASE - 2)),
            None,
            Some(-MATE_BASE),
            Some(99),
            Some(750),
            None,
            None,
            None
        ]
    );
    // The same as the library reads each node.
    let tree = GameTree::from_pgn(std::str::from_utf8(movetext).unwrap()).unwrap();
    for (ply, node) in tree.moves.nodes.iter().take(clocks.len()).enumerate() {
        let clock = node.clock().and_then(|d| i32::try_from(d.as_secs()).ok());
        assert_eq!(clocks[ply], clock, "ply {ply}");
    }
}

/// On every bundled game, the export's clocks are the library's `Node::clock` in whole seconds,
/// and its evals are `Node::eval` (one parser for each).
#[test]
fn bundled_clocks_and_evals_are_the_librarys() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata");
    let mut files = pgn_files(&root.join("pgn"));
    files.extend(pgn_files(&root.join("pgn-edgecases")));
    let (mut clocks_seen, mut evals_seen) = (0, 0);
    for path in files {
        let mut reader = PgnReader::new(File::open(&path).unwrap());
        let mut bytes = Vec::new();
        while let Some(raw) = reader.read_raw_game(&mut bytes).unwrap() {
            if raw.too_long {
                bytes.clear();
                continue;
            }
            let Ok(Some(Ok(game))) = raw.reader(&bytes).read_owned_game() else {
                bytes.clear();
                continue;
            };
            let row = GameRow::from_game(&game, chessbits_parquet::movetext(&bytes));
            let mainline = game.mainline().count();
            let nodes = &game.moves.nodes[..mainline];
            let clocks: Vec<Option<i32>> = nodes
                .iter()
                .map(|n| n.clock().and_then(|d| i32::try_from(d.as_secs()).ok()))
                .collect();
            let evals: Vec<Option<i32>> = nodes
                .iter()
                .map(|n| {
                    n.eval().map(|e| match e.score {
                        chessbits::pgn::Score::Centipawns(cp) => cp.clamp(-99_000, 99_000) as i32,
                        chessbits::pgn::Score::Mate(n) => chessbits_parquet::mate_score(n.clamp(-999, 999) as i32),
                    })
                })
                .collect();
            clocks_seen += clocks.iter().flatten().count();
            evals_seen += evals.iter().flatten().count();
            let some = |v: Vec<Option<i32>>| v.iter().any(Option::is_some).then_some(v);
            assert_eq!(row.clocks, some(clocks), "{}:{}", path.display(), raw.first_line);
            assert_eq!(row.evals, some(evals), "{}:{}", path.display(), raw.first_line);
            bytes.clear();
        }
    }
    assert!(
        clocks_seen > 1000 && evals_seen > 100,
        "{clocks_seen} clocks, {evals_seen} evals"
    );
}
