//! PGN rebuilt from an export's rows (`GameRow::to_pgn`, `ExportReader`), `movetext` unread,
//! compared with the input as parsed games: tags in order, moves, comments (clocks and evals
//! among them), NAGs, variations, result; `annotations`, typed tags and export versions.

use crate::common;

use std::fs;
use std::path::Path;

use chessbits::pgn::{GameResult, GameTree, PgnReader};
use chessbits_parquet::{
    part_files, rows_from_batch, rows_to_batch_with, schema_with, ExportOptions, ExportReader, GameRow,
    ParquetExporter, RebuildError,
};
use common::pgn_files;
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;

/// The parsed games of a PGN text that the reader accepts (the export's rows), in order.
pub(crate) fn games(pgn: &[u8]) -> Vec<GameTree> {
    let mut reader = PgnReader::new(pgn);
    let mut out = Vec::new();
    while let Some(game) = reader.read_owned_game().unwrap() {
        out.extend(game.ok());
    }
    out
}

/// Exports `pgn` into `dir` with `options` and reads every game back rebuilt.
pub(crate) fn export_and_rebuild(pgn: &[u8], dir: &Path, options: ExportOptions) -> Vec<Result<Vec<u8>, RebuildError>> {
    let mut exporter = ParquetExporter::create(dir, options).unwrap();
    let source = exporter.add_source("input.pgn");
    exporter.add_pgn(source, pgn).unwrap();
    exporter.finish().unwrap();
    ExportReader::open(dir).unwrap().map(|game| game.unwrap().pgn).collect()
}

/// The rows of every part file of the export in `dir`, in part order.
pub(crate) fn export_rows(dir: &Path) -> Vec<GameRow> {
    let mut rows = Vec::new();
    for part in part_files(dir).unwrap() {
        let file = fs::File::open(&part.path).unwrap();
        let reader = ParquetRecordBatchReaderBuilder::try_new(file).unwrap().build().unwrap();
        for batch in reader {
            rows.extend(rows_from_batch(&batch.unwrap()).unwrap());
        }
    }
    rows
}

/// The bundled PGN files, and the shared ones when they are there.
fn test_files() -> Vec<std::path::PathBuf> {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = pgn_files(&manifest.join("../../testdata/pgn"));
    let shared = manifest.join("../../../shared/data/pgn");
    if shared.is_dir() {
        files.extend(pgn_files(&shared));
    }
    files
}

/// Every game of every bundled (and shared) PGN file comes back from its row equal to the
/// input as parsed: tags in order, start, main line, comments (clocks and evals among them),
/// NAGs, variations, result. Most rows of the lichess files need no `annotations`.
#[test]
fn every_game_rebuilds_equal_to_the_input() {
    let files = test_files();
    assert!(files.len() >= 5, "{files:?}");
    let (mut total, mut annotated, mut lichess, mut lichess_annotated) = (0, 0, 0, 0);
    for file in files {
        let pgn = fs::read(&file).unwrap();
        let originals = games(&pgn);
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("export");
        let rebuilt = export_and_rebuild(&pgn, &out, ExportOptions::default());
        let rows = export_rows(&out);
        assert_eq!(rebuilt.len(), originals.len(), "{}", file.display());
        let name = file.file_name().unwrap().to_string_lossy().into_owned();
        let file_annotated = rows.iter().filter(|r| r.annotations.is_some()).count();
        for (i, (original, rebuilt)) in originals.iter().zip(rebuilt).enumerate() {
            let text = rebuilt.unwrap_or_else(|e| panic!("{name} game {i}: {e}"));
            let back = GameTree::from_pgn(&text).unwrap_or_else(|e| panic!("{name} game {i}: {e}"));
            assert!(
                original == &back,
                "{name} game {i} differs:\n{}",
                String::from_utf8_lossy(&text)
            );
        }
        // A row without `annotations` is written straight from its columns: the bytes the
        // game tree's writer writes.
        let code = chessbits_parquet::MovesCode::default();
        for (i, row) in rows.iter().enumerate().filter(|(_, r)| r.annotations.is_none()) {
            let tree = row.to_game_tree(code).unwrap_or_else(|e| panic!("{name} row {i}: {e}"));
            assert!(row.to_pgn(code).unwrap() == tree.to_pgn(), "{name} row {i}");
        }
        total += originals.len();
        annotated += file_annotated;
        if name.contains("lichess") {
            lichess += originals.len();
            lichess_annotated += file_annotated;
        }
        eprintln!("{name}: {} games, {file_annotated} with annotations", originals.len());
    }
    eprintln!("{total} games rebuilt equal, {annotated} of them from `annotations`");
    assert!(lichess >= 100, "{lichess}");
    // Only the lichess games with other annotations (NAGs, analysis comments) need the column.
    assert!(lichess_annotated * 4 < lichess, "{lichess_annotated} of {lichess}");
    assert!(annotated > 0);
}

#[test]
fn tags_out_of_the_rebuild_order_come_back_as_written() {
    let pgn = "[Site \"s\"]\n[Event \"e\"]\n[Annotator \"me\"]\n[Round \"3\"]\n[White \"w\"]\n[WhiteElo \"1500\"]\n\
               [Black \"b\"]\n[BlackRatingDiff \"-4\"]\n[Custom \"x\"]\n[White \"second\"]\n[Result \"0-1\"]\n\n1. e4 e5 0-1\n";
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("export");
    let rebuilt = export_and_rebuild(pgn.as_bytes(), &out, ExportOptions::default());
    let text = String::from_utf8(rebuilt[0].clone().unwrap()).unwrap();
    // Not the order the columns give (`Event` first): `annotations` holds the whole game.
    assert_eq!(text, format!("{pgn}\n"));
    let row = &export_rows(&out)[0];
    // ... its moves marked (0x05: a move with its number, 0x04: a move).
    let marked = pgn.trim_end().replace("1. e4 e5", "\u{5} \u{4}");
    assert_eq!(row.annotations.as_deref(), Some(marked.as_str()));
    // The columns still hold the tags.
    assert_eq!((row.event.as_deref(), row.white_elo), (Some("e"), Some(1500)));
}

/// Issue 31, part 1: a typed column (number, date, time) holds a tag only when its text is the
/// one written back; any other text goes to `other_tags` under its own name, so the rebuild
/// writes it unchanged.
#[test]
fn typed_tags_that_are_not_canonical_come_back_unchanged() {
    let mut pgn = Vec::new();
    pgn.extend_from_slice(
        b"[Event \"e\"]\n[Site \"s\"]\n[Date \"2024.??.??\"]\n[White \"w\"]\n[Black \"b\"]\n[Result \"1-0\"]\n\
          [UTCDate \"2024.??.??\"]\n[UTCTime \"1:2:3\"]\n[WhiteElo \"?\"]\n[BlackElo \"+1500\"]\n\
          [WhiteRatingDiff \"11\"]\n[BlackRatingDiff \"+0\"]\n\n1. e4 e5 1-0\n\n",
    );
    // A second tag of a typed name after a first that was not canonical; a Latin-1 number; a
    // date that does not exist; a time out of range; a padded number.
    pgn.extend_from_slice(
        b"[Event \"e\"]\n[UTCDate \"2023.02.29\"]\n[UTCTime \"24:00:00\"]\n[WhiteElo \"\"]\n[WhiteElo \"1600\"]\n\
          [BlackElo \"15\xe90\"]\n[WhiteRatingDiff \" -4\"]\n[BlackRatingDiff \"-0\"]\n\n1. d4 *\n\n",
    );
    // All canonical: every typed column set, nothing in `other_tags`.
    pgn.extend_from_slice(
        b"[UTCDate \"2024.01.31\"]\n[UTCTime \"09:05:00\"]\n[WhiteElo \"1500\"]\n[BlackElo \"-7\"]\n\
          [WhiteRatingDiff \"+11\"]\n[BlackRatingDiff \"-4\"]\n\n1. c4 *\n\n",
    );
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("export");
    let rebuilt = export_and_rebuild(&pgn, &out, ExportOptions::default());
    let rows = export_rows(&out);
    let originals = games(&pgn);
    assert_eq!((rebuilt.len(), rows.len()), (3, 3));
    for (i, (original, text)) in originals.iter().zip(&rebuilt).enumerate() {
        let back = GameTree::from_pgn(text.as_ref().unwrap()).unwrap();
        assert_eq!(original.tags, back.tags, "game {i}");
        assert!(original == &back, "game {i}");
    }
    let typed = |r: &GameRow| {
        (
            r.white_elo,
            r.black_elo,
            r.white_rating_diff,
            r.black_rating_diff,
            r.utc_date,
            r.utc_time,
        )
    };
    let others = |r: &GameRow| -> Vec<(String, String)> { r.other_tags.clone() };
    let pair = |n: &str, v: &str| (n.to_string(), v.to_string());
    assert_eq!(typed(&rows[0]), (None, None, None, Some(0), None, None));
    assert_eq!(
        others(&rows[0]),
        [
            pair("Date", "2024.??.??"),
            pair("UTCDate", "2024.??.??"),
            pair("UTCTime", "1:2:3"),
            pair("WhiteElo", "?"),
            pair("BlackElo", "+1500"),
            pair("WhiteRatingDiff", "11"),
        ]
    );
    // The columns' order is the file's: no `annotations` needed.
    assert_eq!(rows[0].annotations, None);
    assert_eq!(typed(&rows[1]), (None, None, None, None, None, None));
    assert_eq!(
        others(&rows[1]),
        [
            pair("UTCDate", "2023.02.29"),
            pair("UTCTime", "24:00:00"),
            pair("WhiteElo", ""),
            pair("WhiteElo", "1600"),
            pair("BlackElo", "15\u{e9}0"),
            pair("WhiteRatingDiff", " -4"),
            pair("BlackRatingDiff", "-0"),
        ]
    );
    assert_eq!(rows[1].latin1_fields, ["other_tags[4].value"]);
    assert!(rebuilt[1].as_ref().unwrap().windows(8).any(|w| w == b"\"15\xe90\"]\n"));
    assert_eq!(
        typed(&rows[2]),
        (Some(1500), Some(-7), Some(11), Some(-4), Some(19_753), Some(32_700))
    );
    assert!(rows[2].other_tags.is_empty());
}

#[test]
fn fen_starts_chess960_latin1_and_evals_rebuild() {
    let mut pgn = Vec::new();
    pgn.extend_from_slice(
        b"[Variant \"Chess960\"]\n[FEN \"1k5r/8/8/8/8/8/8/RK2R3 w AE - 0 1\"]\n[Result \"1/2-1/2\"]\n\n\
          1. O-O { [%eval #-3] [%clk 1:00:00] } Kc8 { [%eval -0.09] } 2. Rf7 { [%clk 0:00:01] } 1/2-1/2\n\n",
    );
    // A Latin-1 player name and a tag with a quote and a backslash.
    pgn.extend_from_slice(b"[White \"M\xfcller\"]\n[Event \"a \\\"b\\\" \\\\ c\"]\n\n1. d4 *\n\n");
    // A start position given without SetUp.
    pgn.extend_from_slice(b"[FEN \"4k3/8/8/8/8/8/8/4K2R w K - 0 1\"]\n\n1. O-O Kd7 2. Rd1+ 1-0\n");
    for code in chessbits_parquet::MovesCode::ALL {
        let dir = tempfile::tempdir().unwrap();
        let options = ExportOptions {
            moves_code: code,
            ..ExportOptions::default()
        };
        let rebuilt = export_and_rebuild(&pgn, &dir.path().join("export"), options);
        let originals = games(&pgn);
        assert_eq!(rebuilt.len(), 3);
        // The third game has no `Result` tag: its `1-0` token comes from `annotations`.
        for (original, text) in originals.iter().zip(&rebuilt) {
            let text = text.as_ref().unwrap();
            let back = GameTree::from_pgn(text).unwrap();
            assert!(original == &back, "{}", String::from_utf8_lossy(text));
        }
        // The Latin-1 name comes back as its byte.
        // (Its tags are not in the rebuild's order: the game comes back as written.)
        assert!(rebuilt[1]
            .as_ref()
            .unwrap()
            .starts_with(b"[White \"M\xfcller\"]\n[Event \"a \\\"b\\\" \\\\ c\"]\n"));
        assert!(rebuilt[2].as_ref().unwrap().ends_with(b"2. Rd1+ 1-0\n\n"));
    }
}

#[test]
fn hostile_rows_give_typed_errors() {
    let game = PgnReader::new(&b"1. e4 e5 *"[..])
        .read_owned_game()
        .unwrap()
        .unwrap()
        .unwrap();
    let row = GameRow::from_game(&game, b"1. e4 e5 *");
    let code = chessbits_parquet::MovesCode::default();
    let mut bad = row.clone();
    bad.plies = -1;
    assert_eq!(bad.to_pgn(code), Err(RebuildError::Plies(-1)));
    let mut bad = row.clone();
    bad.plies = 1_000_000;
    assert!(matches!(bad.to_pgn(code), Err(RebuildError::Moves { .. })));
    let mut bad = row.clone();
    bad.moves = Some(vec![0xff; 7]);
    assert!(matches!(bad.to_pgn(code), Err(RebuildError::Moves { .. })));
    let mut bad = row.clone();
    bad.start_fen = Some("not a fen".into());
    assert!(matches!(bad.to_pgn(code), Err(RebuildError::StartFen { .. })));
    let mut bad = row.clone();
    bad.moves = None;
    assert_eq!(bad.to_pgn(code), Err(RebuildError::NullMove));
    // Clocks and evals lists shorter than the moves, or with extreme values: no panic.
    let mut odd = row.clone();
    odd.clocks = Some(vec![Some(i32::MIN)]);
    odd.evals = Some(vec![Some(i32::MAX), Some(i32::MIN), Some(5)]);
    let text = String::from_utf8(odd.to_pgn(code).unwrap()).unwrap();
    assert!(
        text.contains("1. e4 { [%eval #0] [%clk 0:00:00] } 1... e5 { [%eval #-0] } *"),
        "{text}"
    );

    // A batch without `plies`, or with a column of the wrong type: an error, not a panic.
    let batch = rows_to_batch_with(&[row], schema_with(code)).unwrap();
    let plies = batch.schema().index_of("plies").unwrap();
    let keep: Vec<usize> = (0..batch.num_columns()).filter(|&i| i != plies).collect();
    assert!(rows_from_batch(&batch.project(&keep).unwrap())
        .unwrap_err()
        .contains("plies"));

    // A directory with no part file, and a part file that is not Parquet.
    let dir = tempfile::tempdir().unwrap();
    assert!(ExportReader::open(dir.path()).is_err());
    fs::write(dir.path().join("part-0.parquet"), b"not parquet").unwrap();
    let items: Vec<_> = ExportReader::open(dir.path()).unwrap().collect();
    assert_eq!(items.len(), 1);
    assert!(items[0].as_ref().unwrap_err().to_string().contains("part-0.parquet"));
    assert_eq!(part_files(dir.path()).unwrap().len(), 1);
}

#[test]
fn partitioned_exports_read_in_part_order() {
    let pgn = b"[UTCDate \"2024.03.01\"]\n[Result \"1-0\"]\n\n1. e4 1-0\n\n[UTCDate \"2023.12.31\"]\n\n1. d4 *\n\n[Date \"2024.03.??\"]\n\n1. c4 *\n";
    let dir = tempfile::tempdir().unwrap();
    let options = ExportOptions {
        partition: true,
        ..ExportOptions::default()
    };
    let rebuilt = export_and_rebuild(pgn, &dir.path().join("export"), options);
    let first_moves: Vec<String> = rebuilt
        .iter()
        .map(|t| {
            let game = GameTree::from_pgn(t.as_ref().unwrap()).unwrap();
            game.moves.nodes[0].san.to_string()
        })
        .collect();
    // year=2023/month=12, then year=2024/month=03 (two games, in input order).
    assert_eq!(first_moves, ["d4", "e4", "c4"]);
    let results: Vec<GameResult> = rebuilt
        .iter()
        .map(|t| GameTree::from_pgn(t.as_ref().unwrap()).unwrap().result)
        .collect();
    assert_eq!(
        results,
        [GameResult::Unknown, GameResult::WhiteWins, GameResult::Unknown]
    );
}

/// Writes `batches` projected to the columns `keep` says yes to into `dir/part-0.parquet`, with
/// the key-value metadata `metadata` (none: a version-1 export).
fn rewrite(batches: &[arrow_array::RecordBatch], dir: &Path, keep: impl Fn(&str) -> bool, metadata: Option<&str>) {
    let schema = batches[0].schema();
    let keep: Vec<usize> = (0..schema.fields().len())
        .filter(|&i| keep(schema.field(i).name()))
        .collect();
    fs::create_dir(dir).unwrap();
    let props = metadata.map(|version| {
        parquet::file::properties::WriterProperties::builder()
            .set_key_value_metadata(Some(vec![parquet::file::metadata::KeyValue::new(
                chessbits_parquet::EXPORT_VERSION_KEY.to_string(),
                version.to_string(),
            )]))
            .build()
    });
    // Versions 1 to 3 named the moves code in the `moves` field's metadata (the embedded Arrow
    // schema), which a batch read from a version-4 file lacks: put it back as they had it.
    let fields: Vec<arrow_schema::Field> = schema
        .fields()
        .iter()
        .map(|f| match f.name().as_str() {
            "moves" => f.as_ref().clone().with_metadata(
                [(
                    chessbits_parquet::MOVES_CODE_KEY.to_string(),
                    chessbits_parquet::MovesCode::default().name().to_string(),
                )]
                .into(),
            ),
            _ => f.as_ref().clone(),
        })
        .collect();
    let schema = arrow_schema::Schema::new(fields);
    let projected = schema.project(&keep).unwrap();
    let file = fs::File::create(dir.join("part-0.parquet")).unwrap();
    let mut writer = parquet::arrow::ArrowWriter::try_new(file, projected.into(), props).unwrap();
    for batch in batches {
        writer.write(&batch.project(&keep).unwrap()).unwrap();
    }
    writer.close().unwrap();
}

#[test]
fn a_null_move_comes_from_annotations_or_a_version_1_movetext() {
    let pgn = b"[White \"A\"]\n[Result \"1-0\"]\n\n1. e4 e5 1-0\n\n[White \"B\"]\n\n1. e4 -- 2. d4 {x} e5 *\n\n[White \"C\"]\n\n1. d4 *\n";
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("export");
    let rebuilt = export_and_rebuild(pgn, &out, ExportOptions::default());
    let texts: Vec<Vec<u8>> = rebuilt.into_iter().map(Result::unwrap).collect();
    assert_eq!(texts[1], b"[White \"B\"]\n\n1. e4 -- 2. d4 {x} e5 *\n\n");
    assert_eq!(texts[2], b"[White \"C\"]\n\n1. d4 *\n\n");
    let rows = export_rows(&out);
    assert_eq!(rows[1].annotations.as_deref(), Some("1. e4 -- 2. d4 {x} e5 *"));
    assert_eq!(
        (rows[0].annotations.as_ref(), rows[2].annotations.as_ref()),
        (None, None)
    );

    // A version-1 export (with `movetext`, without `annotations` and the version entry): read
    // as before, the null move's game from `movetext`.
    let with_movetext = dir.path().join("with-movetext");
    let options = ExportOptions {
        movetext: true,
        ..ExportOptions::default()
    };
    assert_eq!(
        export_and_rebuild(pgn, &with_movetext, options),
        texts.iter().cloned().map(Ok).collect::<Vec<_>>()
    );
    let part = with_movetext.join("part-0.parquet");
    let reader = ParquetRecordBatchReaderBuilder::try_new(fs::File::open(&part).unwrap()).unwrap();
    assert_eq!(reader.schema().index_of("movetext").unwrap(), 17);
    let batches: Vec<_> = reader.build().unwrap().map(Result::unwrap).collect();
    let v1 = dir.path().join("v1");
    rewrite(&batches, &v1, |name| name != "annotations", None);
    let games: Vec<_> = ExportReader::open(&v1).unwrap().map(Result::unwrap).collect();
    let got: Vec<&Vec<u8>> = games.iter().map(|g| g.pgn.as_ref().unwrap()).collect();
    assert_eq!(got, texts.iter().collect::<Vec<_>>());

    // Without `annotations` and `movetext`, the null move's row is a typed error, and reading
    // goes on.
    let slim = dir.path().join("slim");
    rewrite(
        &batches,
        &slim,
        |name| name != "annotations" && name != "movetext",
        Some("2"),
    );
    let games: Vec<_> = ExportReader::open(&slim).unwrap().map(Result::unwrap).collect();
    assert_eq!(games.len(), 3);
    assert_eq!(games[0].pgn.as_ref().unwrap(), &texts[0]);
    assert_eq!((games[1].row, &games[1].pgn), (1, &Err(RebuildError::NullMove)));
    assert_eq!(games[2].pgn.as_ref().unwrap(), &texts[2]);
}

/// An export of a newer schema version is refused with a typed error naming the version.
#[test]
fn a_newer_export_version_is_refused_by_name() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("export");
    export_and_rebuild(b"1. e4 *\n", &out, ExportOptions::default());
    let part = out.join("part-0.parquet");
    let builder = ParquetRecordBatchReaderBuilder::try_new(fs::File::open(&part).unwrap()).unwrap();
    let kv = builder.metadata().file_metadata().key_value_metadata().unwrap();
    assert!(kv
        .iter()
        .any(|e| e.key == "chessbits.export_version" && e.value.as_deref() == Some("4")));
    let batches: Vec<_> = builder.build().unwrap().map(Result::unwrap).collect();
    for version in ["5", "two"] {
        let newer = dir.path().join(format!("v{version}"));
        rewrite(&batches, &newer, |_| true, Some(version));
        let items: Vec<_> = ExportReader::open(&newer).unwrap().collect();
        assert_eq!(items.len(), 1);
        let error = items.into_iter().next().unwrap().unwrap_err();
        assert!(
            matches!(&error, chessbits_parquet::ReadError::Version { version: v, .. } if v == version),
            "{error}"
        );
        assert!(error.to_string().contains(&format!("version {version}")), "{error}");
    }
}

/// Issue 31, part 2: `annotations` is null only when the columns give the movetext back; every
/// other movetext (NAGs, variations, other comments, commands written otherwise, a result token
/// the `Result` tag does not give, ...) is kept, and every game rebuilds equal to the input.
#[test]
fn annotations_are_kept_unless_the_columns_give_the_movetext_back() {
    let cases: [(&str, bool); 22] = [
        (
            "1. e4 { [%eval 0.17] [%clk 0:05:00] } 1... e5 { [%clk 0:05:00] } 1-0",
            false,
        ),
        ("1. e4 e5 1-0", false),
        ("1.e4 e5 1-0", false),
        ("1. Ng1f3 Nc6 1-0", false),
        ("1. e4 { [%eval #-2] } e5 { [%eval -0.09] } 1-0", false),
        ("1. e4! e5 1-0", true),
        ("1. e4 $1 e5 1-0", true),
        ("1. e4 (1. d4 d5) e5 1-0", true),
        ("1. e4 {good} e5 1-0", true),
        ("{start} 1. e4 e5 1-0", true),
        ("1. e4 { [%eval 0.17,20] } e5 1-0", true),
        ("1. e4 { [%clk 0:05:00.5] } e5 1-0", true),
        ("1. e4 { [%clk 0:5:00] } e5 1-0", true),
        ("1. e4 { [%clk 0:05:00] [%eval 0.17] } e5 1-0", true),
        ("1. e4 { [%clk 0:05:00] } { [%clk 0:05:00] } e5 1-0", true),
        ("1. e4 {} e5 1-0", true),
        ("1. e4 {[%clk 0:05:00]} e5 1-0", true),
        ("1. e4 e5", true),
        ("1. e4 e5 0-1", true),
        ("1. e4 e5 ; a rest-of-line comment\n1-0", true),
        ("1. e4 e5\n% an escaped line\n1-0", true),
        ("1. e4 -- 2. d4 1-0", true),
    ];
    let mut pgn = String::new();
    for (movetext, _) in &cases {
        pgn.push_str(&format!("[White \"w\"]\n[Result \"1-0\"]\n\n{movetext}\n\n"));
    }
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("export");
    let rebuilt = export_and_rebuild(pgn.as_bytes(), &out, ExportOptions::default());
    let rows = export_rows(&out);
    let originals = games(pgn.as_bytes());
    assert_eq!((rows.len(), originals.len()), (cases.len(), cases.len()));
    for (i, (movetext, kept)) in cases.iter().enumerate() {
        // What they hold is pinned by the tests below and in `move_marks`.
        assert_eq!(rows[i].annotations.is_some(), *kept, "{movetext}");
        let back = GameTree::from_pgn(rebuilt[i].as_ref().unwrap()).unwrap();
        assert!(originals[i] == back, "{movetext}");
    }
}

/// Issue 31, part 3: `annotations` leaves out the comments `clocks` and `evals` give back (each
/// a mark byte), keeps every other comment (a clock with a fraction among them), escapes the
/// input's own mark bytes, and the rebuild gives the movetext back byte for byte.
#[test]
fn annotations_leave_out_the_clock_and_eval_comments() {
    let movetext = "1. e4 { [%eval 0.2] [%clk 0:03:00] } 1... e5?! { [%eval 0.9] [%clk 0:03:00] } \
                    { Inaccuracy. \u{1}\u{2}\u{3} } ( 1... c5 { [%clk 0:03:00] } ) \
                    2. Nf3 { [%eval 0.8] [%clk 0:02:58.5] } 2... Nc6 { [%eval 0.7] [%clk 0:02:57] } 1-0";
    let pgn = format!("[Event \"e\"]\n[Result \"1-0\"]\n\n{movetext}\n\n");
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("export");
    let rebuilt = export_and_rebuild(pgn.as_bytes(), &out, ExportOptions::default());
    assert_eq!(String::from_utf8(rebuilt[0].clone().unwrap()).unwrap(), pgn);
    let row = &export_rows(&out)[0];
    assert_eq!(row.clocks, Some(vec![Some(180), Some(180), Some(178), Some(177)]));
    // Plies 0, 1 and 3 are marks (0x01), ply 2 (its clock had a fraction) is skipped (0x02)
    // and kept as written; the input's 0x01..0x03 are escaped (0x03 before each); the main
    // line's numbered moves are marks too (0x05), the variation's move is not.
    let expected = "\u{5} \u{1} \u{5}?! \u{1} { Inaccuracy. \u{3}\u{1}\u{3}\u{2}\u{3}\u{3} } ( 1... c5 \
                    { [%clk 0:03:00] } ) \u{5} { [%eval 0.8] [%clk 0:02:58.5] } \u{5} \u{2}\u{1} 1-0";
    assert_eq!(row.annotations.as_deref(), Some(expected));
    // A mark the row's clocks and evals do not give, or a text that ends on an escape, is an
    // error, not a panic or a silent guess.
    for annotations in ["1. e4 \u{1} \u{1} \u{1} \u{1} \u{1} *", "1. e4 *\u{3}"] {
        let mut odd = row.clone();
        odd.annotations = Some(annotations.to_string());
        let error = odd.to_pgn(chessbits_parquet::MovesCode::default()).unwrap_err();
        assert!(matches!(error, RebuildError::Annotations { .. }), "{error}");
    }
}

/// Rows made by hand (tags in every merge order, escapes, Latin-1, a start with Black to move,
/// long games that wrap, clocks and evals on some plies): `to_pgn` writes what the game tree's
/// writer writes for them.
#[test]
fn rows_are_written_as_the_tree_writer_writes_them() {
    let pgn = b"[FEN \"r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 3 37\"]\n\n37... O-O 38. O-O-O Rf2 39. Rd2 Rxd2 40. Kxd2 Kg7 \
                41. Rh7+ Kxh7 42. Ke3 Kg6 43. Kf4 Kf6 44. Ke4 Ke6 45. Kd4 Kd6 46. Kc4 Kc6 47. Kb4 Kb6 *";
    let game = PgnReader::new(&pgn[..]).read_owned_game().unwrap().unwrap().unwrap();
    // Its movetext left out: the row is written from its columns alone.
    let base = GameRow {
        annotations: None,
        ..GameRow::from_game(&game, b"")
    };
    assert!(base.plies > 20);
    let code = chessbits_parquet::MovesCode::default();
    let plies = base.plies as usize;
    let mut rows = Vec::new();
    for (k, others) in [
        vec![],
        vec![("Round", "3"), ("Date", "2024.01.02")],
        vec![("Annotator", "me"), ("Date", "x")],
        vec![("Zed", "z"), ("Custom", "c\"q\\")],
        vec![
            ("White", "second"),
            ("Event", "again"),
            ("FEN", "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 3 37"),
        ],
    ]
    .into_iter()
    .enumerate()
    {
        let mut row = base.clone();
        row.other_tags = others.iter().map(|(n, v)| (n.to_string(), v.to_string())).collect();
        row.event = Some("Rated \"Blitz\" \\ game".into());
        row.white = (k % 2 == 0).then(|| "Ann".into());
        row.black_elo = Some(-7);
        row.white_rating_diff = Some(0);
        row.black_rating_diff = (k > 2).then_some(-12);
        row.utc_date = Some(19_782 + k as i32);
        row.utc_time = Some(3723);
        row.result = Some(["1-0", "0-1", "1/2-1/2", "*", "?"][k].into());
        row.clocks = (k != 1).then(|| (0..plies).map(|p| (p % 3 != 0).then_some(3600 - p as i32)).collect());
        row.evals = (k != 2).then(|| {
            (0..plies)
                .map(|p| (p % 2 == 0).then_some(p as i32 * 37 - 500))
                .collect()
        });
        rows.push(row);
    }
    // Latin-1 values.
    let mut latin1 = rows[1].clone();
    latin1.white = Some("M\u{fc}ller".into());
    latin1.non_utf8 = true;
    latin1.latin1_fields = vec!["White".into()];
    rows.push(latin1);
    for (i, row) in rows.iter().enumerate() {
        let tree = row.to_game_tree(code).unwrap();
        let text = row.to_pgn(code).unwrap();
        assert!(
            text == tree.to_pgn(),
            "row {i}:\n{:?}\n{:?}",
            String::from_utf8_lossy(&text),
            String::from_utf8_lossy(&tree.to_pgn())
        );
    }
}
