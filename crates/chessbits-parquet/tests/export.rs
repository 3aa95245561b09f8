//! Exports the bundled PGN files and reads them back with the `parquet`/`arrow` readers: every
//! column against what `chessbits::pgn` reads from the same games.

use std::fs::{self, File};
use std::path::{Path, PathBuf};

use arrow_array::cast::AsArray;
use arrow_array::types::{Date32Type, Int16Type, Int32Type};
use arrow_array::{Array, RecordBatch};
use chessbits::codec::moves::entropy::decode_game;
use chessbits::pgn::{GameTree, PgnReader, RawGame};
use chessbits::position::Position;
use chessbits_parquet::{
    ExportOptions, ExportSummary, GameRow, MovesCode, ParquetExporter, DEFAULT_PARTITION, MATE_BASE, MOVES_CODE_KEY,
    TAG_COLUMNS, TEXT_TAG_COLUMNS,
};
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use parquet::basic::Encoding;

use crate::common;
use common::pgn_files;

/// A game of the input: where it came from, its bytes, and what the reader made of it.
struct Input {
    source: String,
    raw: RawGame,
    bytes: Vec<u8>,
    game: Result<GameTree, String>,
}

fn bundled() -> Vec<PathBuf> {
    pgn_files(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/pgn"))
}

fn read_inputs(files: &[PathBuf]) -> Vec<Input> {
    let mut inputs = Vec::new();
    for path in files {
        let mut reader = PgnReader::new(File::open(path).unwrap());
        let mut bytes = Vec::new();
        while let Some(raw) = reader.read_raw_game(&mut bytes).unwrap() {
            let game = if raw.too_long {
                Err("too long".to_string())
            } else {
                match raw.reader(&bytes).read_owned_game().unwrap() {
                    Some(Ok(game)) => Ok(game),
                    Some(Err(e)) => Err(e.to_string()),
                    None => Err("no game".to_string()),
                }
            };
            let bytes = std::mem::take(&mut bytes);
            inputs.push(Input {
                source: path.display().to_string(),
                raw,
                bytes,
                game,
            });
        }
    }
    inputs
}

fn export(inputs: &[Input], out: &Path, options: ExportOptions) -> ExportSummary {
    let mut exporter = ParquetExporter::create(out, options).unwrap();
    let mut sources: Vec<(String, u32)> = Vec::new();
    for input in inputs {
        let source = match sources.iter().find(|(name, _)| *name == input.source) {
            Some((_, id)) => *id,
            None => {
                let id = exporter.add_source(&input.source);
                sources.push((input.source.clone(), id));
                id
            }
        };
        exporter.add_raw_game(source, input.bytes.clone(), input.raw).unwrap();
    }
    exporter.finish().unwrap()
}

/// Every Parquet file below `dir` (relative path) with its batches.
fn read_back(dir: &Path) -> Vec<(PathBuf, Vec<RecordBatch>, usize)> {
    let mut files = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in fs::read_dir(&d).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "parquet") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
        .into_iter()
        .map(|path| {
            let builder = ParquetRecordBatchReaderBuilder::try_new(File::open(&path).unwrap()).unwrap();
            // The schema's fields, as the Parquet types give them (no embedded Arrow schema: the
            // `moves` field's metadata is the file's, in the schema's metadata).
            let plain = |fields: &arrow_schema::Fields| -> Vec<arrow_schema::Field> {
                fields
                    .iter()
                    .map(|f| f.as_ref().clone().with_metadata(Default::default()))
                    .collect()
            };
            assert_eq!(
                plain(builder.schema().fields()),
                plain(chessbits_parquet::schema().fields())
            );
            assert!(builder.schema().metadata().contains_key(MOVES_CODE_KEY));
            let groups = builder.metadata().num_row_groups();
            // Batches with the file's schema metadata (the moves code), which Arrow's reader
            // gives the builder's schema but not the batches'.
            let schema = builder.schema().clone();
            let batches = builder
                .build()
                .unwrap()
                .map(|b| b.unwrap().with_schema(schema.clone()).unwrap())
                .collect();
            (path.strip_prefix(dir).unwrap().to_path_buf(), batches, groups)
        })
        .collect()
}

fn text(batch: &RecordBatch, column: &str, row: usize) -> Option<String> {
    let array = batch.column_by_name(column).unwrap().as_string::<i32>();
    array.is_valid(row).then(|| array.value(row).to_string())
}

fn int_list(batch: &RecordBatch, column: &str, row: usize) -> Option<Vec<Option<i32>>> {
    let array = batch.column_by_name(column).unwrap().as_list::<i32>();
    array
        .is_valid(row)
        .then(|| array.value(row).as_primitive::<Int32Type>().iter().collect())
}

/// The first `[%name ...]` argument of a comment, parsed independently of the crate.
fn comment_command(comment: &str, name: &str) -> Option<String> {
    let start = comment.find(&format!("[%{name} "))? + name.len() + 3;
    let end = comment[start..].find(']')? + start;
    Some(comment[start..end].trim().to_string())
}

fn expected_clock(comment: &str) -> Option<i32> {
    let text = comment_command(comment, "clk")?;
    let parts: Vec<f64> = text.split(':').map(|p| p.parse().unwrap()).collect();
    Some((parts[0] * 3600.0 + parts[1] * 60.0 + parts[2]).floor() as i32)
}

fn expected_eval(comment: &str) -> Option<i32> {
    let text = comment_command(comment, "eval")?;
    let text = text.split(',').next().unwrap();
    Some(match text.strip_prefix('#') {
        Some(n) => {
            let n: i32 = n.parse().unwrap();
            n.signum() * (MATE_BASE - n.abs())
        }
        None => (text.parse::<f64>().unwrap() * 100.0).round() as i32,
    })
}

fn tag<'a>(game: &'a GameTree, name: &str) -> Option<std::borrow::Cow<'a, str>> {
    game.tag(name)
}

/// Checks one row against the game it came from.
fn check_row(batch: &RecordBatch, row: usize, input: &Input) {
    let game = input.game.as_ref().unwrap();
    let at = format!("{}:{}", input.source, input.raw.first_line);
    for name in TEXT_TAG_COLUMNS {
        assert_eq!(
            text(batch, name, row).as_deref(),
            tag(game, name).as_deref(),
            "{at} {name}"
        );
    }
    // A typed column holds its tag when the tag's text is the one written back (canonical);
    // else it is null and the tag is in `other_tags` (checked below).
    let mut typed_in_column = Vec::new();
    for name in ["WhiteElo", "BlackElo", "WhiteRatingDiff", "BlackRatingDiff"] {
        let array = batch.column_by_name(name).unwrap().as_primitive::<Int16Type>();
        let canonical = |v: i16| match name {
            "WhiteElo" | "BlackElo" => v.to_string(),
            _ if v < 0 => v.to_string(),
            _ => format!("+{v}"),
        };
        let expected = tag(game, name).and_then(|value| {
            let v = value.trim_start_matches('+').parse::<i16>().ok()?;
            (canonical(v) == value).then_some(v)
        });
        assert_eq!(array.is_valid(row).then(|| array.value(row)), expected, "{at} {name}");
        if expected.is_some() {
            typed_in_column.push(name);
        }
    }
    let date = batch.column_by_name("UTCDate").unwrap().as_primitive::<Date32Type>();
    match tag(game, "UTCDate") {
        Some(value) if date.is_valid(row) => {
            let days = date.value(row) as i64;
            // Back to a civil date by counting from 1970 (plain arithmetic, not the crate's).
            let (y, m, d) = civil_from_days(days);
            assert_eq!(format!("{y:04}.{m:02}.{d:02}"), value, "{at} UTCDate");
            typed_in_column.push("UTCDate");
        }
        Some(value) => {
            let shape = value.len() == 10
                && value
                    .bytes()
                    .enumerate()
                    .all(|(i, b)| matches!(i, 4 | 7) == (b == b'.'));
            assert!(
                !shape || value.contains('?') || value.ends_with(".00"),
                "{at} UTCDate {value}"
            );
        }
        None => assert!(date.is_null(row), "{at} UTCDate"),
    }
    // UTCTime: the tag's text when it is `hh:mm:ss` (zero-padded), else null.
    let time = tag(game, "UTCTime").filter(|v| {
        let parts: Vec<&str> = v.split(':').collect();
        let fields = [24, 60, 61];
        parts.len() == 3
            && parts
                .iter()
                .zip(fields)
                .all(|(p, below)| p.len() == 2 && p.parse::<u32>().is_ok_and(|n| n < below))
    });
    assert_eq!(text(batch, "UTCTime", row).as_deref(), time.as_deref(), "{at} UTCTime");
    if time.is_some() {
        typed_in_column.push("UTCTime");
    }

    // No movetext column by default; annotations: null, the movetext as in the file, or the
    // whole game (starting with `[`), its clock and eval comments left out (0x01 each): the
    // rebuild gives the movetext back as in the file.
    assert!(batch.column_by_name("movetext").is_none());
    let movetext = chessbits::pgn::decode_text(chessbits_parquet::movetext(&input.bytes));
    if let Some(annotations) = text(batch, "annotations", row) {
        assert!(
            !annotations.contains("[%clk 0:0"),
            "{at} annotations keep lichess clocks"
        );
        let code = chessbits_parquet::moves_code_of(&batch.schema()).unwrap();
        let rows = chessbits_parquet::rows_from_batch(&batch.slice(row, 1)).unwrap();
        let pgn = rows[0].to_pgn(code).unwrap();
        let pgn = chessbits::pgn::decode_text(&pgn);
        assert!(pgn.trim_end().ends_with(movetext.trim_end()), "{at} annotations");
        assert!(
            annotations.len() <= movetext.len() || annotations.starts_with('['),
            "{at} annotations"
        );
    } else {
        // Only games without other annotations have none.
        assert!(!movetext.contains('(') && !movetext.contains('$'), "{at} annotations");
    }

    // moves and plies: the main line.
    let mainline: Vec<_> = game.mainline().collect();
    let plies = batch
        .column_by_name("plies")
        .unwrap()
        .as_primitive::<Int32Type>()
        .value(row);
    assert_eq!(plies as usize, mainline.len(), "{at} plies");
    let moves = batch.column_by_name("moves").unwrap().as_binary::<i32>();
    if mainline.iter().any(|m| m.is_null()) {
        assert!(moves.is_null(row));
    } else {
        let fen = text(batch, "start_fen", row);
        let mut start = match &fen {
            Some(fen) => Position::from_fen(fen).unwrap(),
            None => Position::startpos(),
        };
        start.set_chess960(game.start.is_chess960());
        assert_eq!(fen.is_none(), game.start == Position::startpos(), "{at} start_fen");
        assert_eq!(
            decode_game(&start, moves.value(row), mainline.len()).unwrap(),
            mainline,
            "{at} moves"
        );
    }

    // clocks and evals: the comment after each move.
    let comments: Vec<String> = game
        .moves
        .nodes
        .iter()
        .map(|n| {
            n.comments_after
                .iter()
                .map(|c| c.text().into_owned())
                .collect::<Vec<_>>()
                .join("}{")
        })
        .collect();
    let per_ply = |f: fn(&str) -> Option<i32>| {
        let values: Vec<Option<i32>> = comments.iter().map(|c| f(c)).collect();
        values.iter().any(Option::is_some).then_some(values)
    };
    let clocks = int_list(batch, "clock_deltas", row).map(|d| chessbits_parquet::clocks_from_deltas(&d));
    assert_eq!(clocks, per_ply(expected_clock), "{at} clocks");
    assert_eq!(int_list(batch, "evals", row), per_ply(expected_eval), "{at} evals");

    // other_tags: every tag but the first of each column's name, in order.
    let map = batch.column_by_name("other_tags").unwrap().as_map();
    let entries = map.value(row);
    let keys = entries.column(0).as_string::<i32>();
    let values = entries.column(1).as_string::<i32>();
    let got: Vec<(String, String)> = (0..keys.len())
        .map(|i| (keys.value(i).to_string(), values.value(i).to_string()))
        .collect();
    let mut seen = Vec::new();
    let mut expected = Vec::new();
    for t in &game.tags {
        let name = chessbits::pgn::decode_text(t.name()).into_owned();
        let typed = [
            "WhiteElo",
            "BlackElo",
            "WhiteRatingDiff",
            "BlackRatingDiff",
            "UTCDate",
            "UTCTime",
        ];
        let first = !seen.contains(&name);
        if first && TAG_COLUMNS.contains(&name.as_str()) {
            seen.push(name.clone());
        }
        if first
            && TAG_COLUMNS.contains(&name.as_str())
            && (!typed.contains(&name.as_str()) || typed_in_column.contains(&name.as_str()))
        {
        } else {
            expected.push((name, t.value().into_owned()));
        }
    }
    assert_eq!(got, expected, "{at} other_tags");
    let non_utf8 = batch.column_by_name("non_utf8").unwrap().as_boolean().value(row);
    assert_eq!(non_utf8, std::str::from_utf8(&input.bytes).is_err(), "{at} non_utf8");
}

fn civil_from_days(days: i64) -> (i64, i64, i64) {
    let (mut y, mut d) = (1970, days);
    let leap = |y: i64| (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    loop {
        let len = if leap(y) { 366 } else { 365 };
        if d < 0 {
            y -= 1;
            d += if leap(y) { 366 } else { 365 };
        } else if d >= len {
            d -= len;
            y += 1;
        } else {
            break;
        }
    }
    let months = [
        31,
        if leap(y) { 29 } else { 28 },
        31,
        30,
        31,
        30,
        31,
        31,
        30,
        31,
        30,
        31,
    ];
    let mut m = 0;
    while d >= months[m] {
        d -= months[m];
        m += 1;
    }
    (y, m as i64 + 1, d + 1)
}

/// The whole round trip on `files`: rows, columns, row groups, rejected games.
fn round_trip(files: &[PathBuf], row_group_size: usize) {
    let inputs = read_inputs(files);
    let ok: Vec<&Input> = inputs.iter().filter(|i| i.game.is_ok()).collect();
    let bad: Vec<&Input> = inputs.iter().filter(|i| i.game.is_err()).collect();
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("export");
    let options = ExportOptions {
        row_group_size,
        threads: 2,
        ..ExportOptions::default()
    };
    let summary = export(&inputs, &out, options);
    assert_eq!(summary.games, ok.len() as u64);
    assert_eq!(summary.rejected, bad.len() as u64);

    let files = read_back(&out);
    assert_eq!(files.len(), 1);
    let (name, batches, groups) = &files[0];
    assert_eq!(name, Path::new("part-0.parquet"));
    // Bounded memory: rows go out a row group at a time.
    assert_eq!(*groups, ok.len().div_ceil(row_group_size), "row groups");
    assert_eq!(summary.row_groups, *groups as u64);
    let mut games = ok.iter();
    let (mut rows, mut with_clocks, mut with_evals, mut with_fen) = (0, 0, 0, 0);
    for batch in batches {
        for row in 0..batch.num_rows() {
            check_row(batch, row, games.next().unwrap());
            rows += 1;
            with_clocks += usize::from(batch.column_by_name("clock_deltas").unwrap().is_valid(row));
            with_evals += usize::from(batch.column_by_name("evals").unwrap().is_valid(row));
            with_fen += usize::from(batch.column_by_name("start_fen").unwrap().is_valid(row));
        }
    }
    assert_eq!(rows, ok.len());
    if row_group_size > 1 {
        // The checks above saw clocks, evals and set-up positions (all in the bundled files).
        assert!(
            with_clocks > 0 && with_evals > 0 && with_fen > 0,
            "{with_clocks} {with_evals} {with_fen}"
        );
    }

    // Rejected games: their original bytes, where _rejected.tsv says.
    if bad.is_empty() {
        assert!(!out.join("_rejected.pgn").exists());
        return;
    }
    let pgn = fs::read(out.join("_rejected.pgn")).unwrap();
    let tsv = fs::read_to_string(out.join("_rejected.tsv")).unwrap();
    let lines: Vec<&str> = tsv.lines().skip(1).collect();
    assert_eq!(lines.len(), bad.len());
    for (line, input) in lines.iter().zip(&bad) {
        let fields: Vec<&str> = line.split('\t').collect();
        assert_eq!(fields[0], input.source);
        assert_eq!(fields[1], input.raw.first_line.to_string());
        let (offset, length): (usize, usize) = (fields[3].parse().unwrap(), fields[4].parse().unwrap());
        assert_eq!(&pgn[offset..offset + length], &input.bytes[..], "{line}");
    }
}

#[test]
fn bundled_round_trip() {
    let files = bundled();
    assert!(files.len() >= 10);
    round_trip(&files, 100);
}

/// The index-byte moves code: named in the field's and the file's metadata, one byte a ply, the
/// same main lines as the entropy code.
#[test]
fn index_byte_moves_code() {
    let inputs = read_inputs(&bundled());
    let dir = tempfile::tempdir().unwrap();
    let mut columns = Vec::new();
    for code in MovesCode::ALL {
        let out = dir.path().join(code.name());
        let options = ExportOptions {
            moves_code: code,
            ..ExportOptions::default()
        };
        export(&inputs, &out, options);
        let builder =
            ParquetRecordBatchReaderBuilder::try_new(File::open(out.join("part-0.parquet")).unwrap()).unwrap();
        // The code is a file-level entry (no embedded Arrow schema, `ARROW:schema`, to give the
        // field metadata), which Arrow's reader puts in the schema's metadata.
        assert_eq!(builder.schema().metadata()[MOVES_CODE_KEY], code.name());
        assert_eq!(chessbits_parquet::moves_code_of(builder.schema()), Ok(code));
        let kv = builder.metadata().file_metadata().key_value_metadata().unwrap();
        assert!(kv
            .iter()
            .any(|e| e.key == MOVES_CODE_KEY && e.value.as_deref() == Some(code.name())));
        assert!(!kv.iter().any(|e| e.key == "ARROW:schema"));
        // Clock deltas go through a dictionary, evaluations are plain.
        let group = builder.metadata().row_group(0);
        let encodings_of = |path: &str| -> Vec<Encoding> {
            let column = group.columns().iter().find(|c| c.column_path().string() == path);
            column.unwrap().encodings().collect()
        };
        for (path, dictionary) in [("clock_deltas.list.item", true), ("evals.list.item", false)] {
            let encodings = encodings_of(path);
            assert!(encodings.contains(&Encoding::PLAIN), "{path}: {encodings:?}");
            assert_eq!(
                encodings.contains(&Encoding::RLE_DICTIONARY),
                dictionary,
                "{path}: {encodings:?}"
            );
        }
        // Ratings and ply counts as deltas; names and moves plain, never
        // DELTA_LENGTH_BYTE_ARRAY, which PySpark 3.5.3 misreads (SPARK-52240).
        for (path, want) in [
            ("WhiteElo", Encoding::DELTA_BINARY_PACKED),
            ("BlackElo", Encoding::DELTA_BINARY_PACKED),
            ("plies", Encoding::DELTA_BINARY_PACKED),
            ("White", Encoding::PLAIN),
            ("Black", Encoding::PLAIN),
            ("moves", Encoding::PLAIN),
        ] {
            let encodings = encodings_of(path);
            assert!(encodings.contains(&want), "{path}: {encodings:?}");
            for unwanted in [Encoding::RLE_DICTIONARY, Encoding::DELTA_LENGTH_BYTE_ARRAY] {
                assert!(!encodings.contains(&unwanted), "{path}: {encodings:?}");
            }
        }
        let batches: Vec<RecordBatch> = builder.build().unwrap().map(Result::unwrap).collect();
        columns.push(batches);
    }
    let mut compared = 0;
    assert_eq!(columns[0].len(), columns[1].len());
    for (entropy, index) in columns[0].iter().zip(&columns[1]) {
        compared += same_main_lines(entropy, index);
    }
    assert!(compared > 100, "{compared}");
}

/// Checks that two batches of the same games, entropy-coded and index-byte-coded, hold the same
/// main lines; the number of games compared.
fn same_main_lines(entropy: &RecordBatch, index: &RecordBatch) -> usize {
    assert_eq!(entropy.num_rows(), index.num_rows());
    let plies = entropy.column_by_name("plies").unwrap().as_primitive::<Int32Type>();
    let (a, b) = (
        entropy.column_by_name("moves").unwrap().as_binary::<i32>(),
        index.column_by_name("moves").unwrap().as_binary::<i32>(),
    );
    let mut compared = 0;
    for row in 0..entropy.num_rows() {
        assert_eq!(a.is_null(row), b.is_null(row), "row {row}");
        if a.is_null(row) {
            continue;
        }
        let mut start = match text(entropy, "start_fen", row) {
            Some(fen) => Position::from_fen(&fen).unwrap(),
            None => Position::startpos(),
        };
        let tags = entropy.column_by_name("other_tags").unwrap().as_map();
        let entries = tags.value(row);
        let (keys, values) = (
            entries.column(0).as_string::<i32>(),
            entries.column(1).as_string::<i32>(),
        );
        if (0..keys.len()).any(|i| keys.value(i) == "Variant" && values.value(i).contains("960")) {
            start.set_chess960(true);
        }
        let n = plies.value(row) as usize;
        assert_eq!(b.value(row).len(), n, "row {row}: one byte a ply");
        let moves = MovesCode::Entropy.decode(&start, a.value(row), n).unwrap();
        assert_eq!(
            MovesCode::IndexByte.decode(&start, b.value(row), n).unwrap(),
            moves,
            "row {row}"
        );
        compared += 1;
    }
    compared
}

#[test]
fn bundled_round_trip_one_row_group_per_game() {
    round_trip(&bundled()[..1], 1);
}

#[test]
fn some_games_are_rejected() {
    let inputs = read_inputs(&bundled());
    assert!(
        inputs.iter().any(|i| i.game.is_err()),
        "the bundled files have variants"
    );
}

#[test]
fn partitions_by_year_and_month() {
    let inputs = read_inputs(&bundled());
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("export");
    let options = ExportOptions {
        row_group_size: 50,
        partition: true,
        ..ExportOptions::default()
    };
    let summary = export(&inputs, &out, options);
    let mut rows = 0;
    let files = read_back(&out);
    assert!(files.len() > 2);
    assert_eq!(summary.files, files.iter().map(|f| f.0.clone()).collect::<Vec<_>>());
    for (path, batches, _) in &files {
        let parts: Vec<String> = path.iter().map(|p| p.to_string_lossy().into_owned()).collect();
        assert_eq!(parts.len(), 3, "{path:?}");
        assert_eq!(parts[2], "part-0.parquet");
        let year = parts[0].strip_prefix("year=").unwrap();
        let month = parts[1].strip_prefix("month=").unwrap();
        for batch in batches {
            let map = batch.column_by_name("other_tags").unwrap().as_map();
            for row in 0..batch.num_rows() {
                rows += 1;
                let date = match text_date(batch, row) {
                    Some(date) => date,
                    None => {
                        let entries = map.value(row);
                        let keys = entries.column(0).as_string::<i32>();
                        let values = entries.column(1).as_string::<i32>();
                        (0..keys.len())
                            .find(|&i| keys.value(i) == "Date")
                            .map(|i| values.value(i).to_string())
                            .unwrap_or_default()
                    }
                };
                let mut fields = date.split('.');
                let want_year = fields
                    .next()
                    .filter(|y| y.len() == 4 && y.bytes().all(|b| b.is_ascii_digit()) && *y != "0000");
                let want_month = fields.next().filter(|m| m.len() == 2 && ("01"..="12").contains(m));
                assert_eq!(year, want_year.unwrap_or(DEFAULT_PARTITION), "{path:?} {date}");
                assert_eq!(month, want_month.unwrap_or(DEFAULT_PARTITION), "{path:?} {date}");
            }
        }
    }
    assert_eq!(rows as u64, summary.games);
}

/// The UTCDate of a row as `yyyy.mm.dd`.
fn text_date(batch: &RecordBatch, row: usize) -> Option<String> {
    let date = batch.column_by_name("UTCDate").unwrap().as_primitive::<Date32Type>();
    date.is_valid(row).then(|| {
        let (y, m, d) = civil_from_days(date.value(row) as i64);
        format!("{y:04}.{m:02}.{d:02}")
    })
}

#[test]
fn refuses_a_directory_that_is_not_empty_unless_forced() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("export");
    fs::create_dir(&out).unwrap();
    fs::write(out.join("keep.txt"), b"mine").unwrap();
    let error = ParquetExporter::create(&out, ExportOptions::default()).err().unwrap();
    assert!(error.to_string().contains("not an empty directory"), "{error}");
    // Dropping an unfinished export leaves nothing behind.
    let exporter = ParquetExporter::create(&dir.path().join("other"), ExportOptions::default()).unwrap();
    drop(exporter);
    let names: Vec<_> = fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names, ["export"]);
    // --force replaces it once the export is complete.
    let inputs = read_inputs(&bundled()[..1]);
    let summary = export(
        &inputs,
        &out,
        ExportOptions {
            force: true,
            ..ExportOptions::default()
        },
    );
    assert!(summary.games > 0);
    assert!(!out.join("keep.txt").exists());
    assert!(out.join("part-0.parquet").exists());
    let names: Vec<_> = fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names, ["export"]);
}

#[test]
fn an_empty_input_is_an_empty_table() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("export");
    let summary = export(&[], &out, ExportOptions::default());
    assert_eq!(summary.games, 0);
    let files = read_back(&out);
    assert_eq!(files.len(), 1);
    assert_eq!(files[0].1.iter().map(RecordBatch::num_rows).sum::<usize>(), 0);
}

#[test]
#[ignore = "reads ../shared/data"]
fn shared_data_export_round_trip() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data/pgn");
    round_trip(&pgn_files(&dir), 1000);
}

#[test]
fn latin1_tags_are_read_as_latin1_and_flagged() {
    let pgn =
        b"[Event \"Caf\xe9\"]\n[White \"M\xfcller\"]\n[Black \"Ren\xc3\xa9\"]\n[Annotator \"x\"]\n\n1. e4 {\xe9} *";
    let mut reader = PgnReader::new(&pgn[..]);
    let mut bytes = Vec::new();
    let raw = reader.read_raw_game(&mut bytes).unwrap().unwrap();
    let row = chessbits_parquet::GameRow::from_raw(&bytes, &raw).unwrap();
    assert!(row.non_utf8);
    assert_eq!(row.event.as_deref(), Some("Café"));
    assert_eq!(row.white.as_deref(), Some("Müller"));
    assert_eq!(row.black.as_deref(), Some("René"), "UTF-8 values stay UTF-8");
    assert_eq!(row.movetext, "1. e4 {é} *");
    // Latin-1: every character is one byte, so the bytes come back.
    let back: Vec<u8> = row.white.unwrap().chars().map(|c| c as u8).collect();
    assert_eq!(back, b"M\xfcller");
    let clean = b"[White \"Ann\"]\n\n1. e4 *";
    let mut reader = PgnReader::new(&clean[..]);
    bytes.clear();
    let raw = reader.read_raw_game(&mut bytes).unwrap().unwrap();
    assert!(!chessbits_parquet::GameRow::from_raw(&bytes, &raw).unwrap().non_utf8);
}

#[test]
fn null_moves_leave_moves_null() {
    let pgn = b"1. e4 -- 2. d4 *";
    let game = PgnReader::new(&pgn[..]).read_owned_game().unwrap().unwrap().unwrap();
    let row = chessbits_parquet::GameRow::from_game(&game, pgn);
    assert_eq!((row.plies, row.moves), (3, None));
}

/// The export reads rows with `MainLineReader` (no tree): every bundled game, the hostile ones
/// included, gives the row (or the error) the tree gives, in both moves codes.
#[test]
fn rows_read_without_the_tree_equal_rows_from_the_tree() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata");
    let mut files = pgn_files(&root.join("pgn"));
    files.extend(pgn_files(&root.join("pgn-edgecases")));
    let (mut rows, mut errors) = (0, 0);
    for input in read_inputs(&files) {
        if input.raw.too_long {
            continue;
        }
        for code in [MovesCode::Entropy, MovesCode::IndexByte] {
            let fast = GameRow::from_raw_with(&input.bytes, &input.raw, code).map_err(|e| e.to_string());
            match &input.game {
                Ok(game) => {
                    let slow = GameRow::from_game_with(game, chessbits_parquet::movetext(&input.bytes), code);
                    assert_eq!(fast, Ok(slow), "{}", input.source);
                    rows += 1;
                }
                Err(e) => {
                    assert_eq!(fast.as_ref().err(), Some(e), "{}", input.source);
                    errors += 1;
                }
            }
        }
    }
    assert!(rows > 800 && errors > 10, "{rows} rows, {errors} errors");
}
