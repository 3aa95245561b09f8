//! PGN rebuilt from an export's columns (`GameRow::to_pgn`, `ExportReader`), `movetext` unread,
//! compared with the input as parsed games: tags, moves, clocks, evals, result.

use crate::common;

use std::fs;
use std::path::Path;

use chessbits::pgn::{GameResult, GameTree, Line, PgnReader};
use chessbits_parquet::{
    part_files, rows_from_batch, rows_to_batch_with, schema_with, ExportOptions, ExportReader, GameRow,
    ParquetExporter, RebuildError,
};
use common::pgn_files;

/// The parsed games of a PGN text that the reader accepts (the export's rows), in order.
fn games(pgn: &[u8]) -> Vec<GameTree> {
    let mut reader = PgnReader::new(pgn);
    let mut out = Vec::new();
    while let Some(game) = reader.read_owned_game().unwrap() {
        out.extend(game.ok());
    }
    out
}

/// Exports `pgn` into `dir` with `options` and reads every game back rebuilt.
fn export_and_rebuild(pgn: &[u8], dir: &Path, options: ExportOptions) -> Vec<Result<Vec<u8>, RebuildError>> {
    let mut exporter = ParquetExporter::create(dir, options).unwrap();
    let source = exporter.add_source("input.pgn");
    exporter.add_pgn(source, pgn).unwrap();
    exporter.finish().unwrap();
    ExportReader::open(dir).unwrap().map(|game| game.unwrap().pgn).collect()
}

/// Whether a comment holds only `[%clk ...]` and `[%eval ...]` commands (and whitespace).
fn only_clock_and_eval(comment: &[u8]) -> bool {
    let mut rest = comment;
    loop {
        let Some(at) = rest.windows(2).position(|w| w == b"[%") else {
            return rest.trim_ascii().is_empty();
        };
        if !rest[..at].trim_ascii().is_empty() {
            return false;
        }
        let Some(end) = rest[at..].iter().position(|&b| b == b']') else {
            return false;
        };
        let command = &rest[at + 2..at + end];
        if !(command.starts_with(b"clk ") || command.starts_with(b"eval ")) {
            return false;
        }
        rest = &rest[at + end + 1..];
    }
}

/// Whether a line holds anything the columns do not: a NAG, a variation, a comment before a
/// move or of an empty line, more than one comment after a move, or one with anything but
/// `%clk`/`%eval` commands.
fn has_other_annotations(line: &Line) -> bool {
    !line.comments.is_empty()
        || line.nodes.iter().any(|node| {
            !node.nags.is_empty()
                || !node.variations.is_empty()
                || !node.comments_before.is_empty()
                || node.comments_after.len() > 1
                || node.comments_after.iter().any(|c| !only_clock_and_eval(c.as_bytes()))
        })
}

/// What differs between an input game and its rebuild, as names.
fn differences(original: &GameTree, rebuilt: &GameTree, tags_in_order: bool) -> Vec<&'static str> {
    let mut out = Vec::new();
    let tags = |g: &GameTree| {
        let mut tags: Vec<(Vec<u8>, String)> = g
            .tags
            .iter()
            .map(|t| (t.name().to_vec(), t.value().into_owned()))
            .collect();
        if !tags_in_order {
            tags.sort();
        }
        tags
    };
    if tags(original) != tags(rebuilt) {
        out.push("tags");
    }
    if original.mainline().collect::<Vec<_>>() != rebuilt.mainline().collect::<Vec<_>>() {
        out.push("moves");
    }
    let clocks = |g: &GameTree| g.moves.nodes.iter().map(|n| n.clock()).collect::<Vec<_>>();
    if clocks(original) != clocks(rebuilt) {
        out.push("clocks");
    }
    let evals = |g: &GameTree| g.moves.nodes.iter().map(|n| n.eval()).collect::<Vec<_>>();
    if evals(original) != evals(rebuilt) {
        out.push("evals");
    }
    if original.result != rebuilt.result {
        out.push("result");
    }
    out
}

#[test]
fn bundled_games_rebuild_from_their_columns() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/pgn");
    let files = pgn_files(&root);
    assert!(files.len() >= 5, "{files:?}");
    let (mut lichess_games, mut total, mut annotated, mut lossless) = (0, 0, 0, 0);
    let mut report = Vec::new();
    for file in files {
        let pgn = fs::read(&file).unwrap();
        let originals = games(&pgn);
        let dir = tempfile::tempdir().unwrap();
        let rebuilt = export_and_rebuild(&pgn, &dir.path().join("export"), ExportOptions::default());
        assert_eq!(rebuilt.len(), originals.len(), "{}", file.display());
        let name = file.file_name().unwrap().to_string_lossy().into_owned();
        let is_lichess = name.contains("lichess");
        let (mut file_annotated, mut file_lost) = (0, 0);
        for (i, (original, rebuilt)) in originals.iter().zip(rebuilt).enumerate() {
            total += 1;
            let text = rebuilt.unwrap_or_else(|e| panic!("{name} game {i}: {e}"));
            let back = GameTree::from_pgn(&text).unwrap_or_else(|e| panic!("{name} game {i}: {e}"));
            let diff = differences(original, &back, is_lichess);
            // The moves are never lost.
            assert!(!diff.contains(&"moves"), "{name} game {i}");
            if has_other_annotations(&original.moves) {
                file_annotated += 1;
                continue;
            }
            if is_lichess {
                lichess_games += 1;
                assert!(
                    diff.is_empty(),
                    "{name} game {i} differs in {diff:?}:\n{}",
                    String::from_utf8_lossy(&text)
                );
            }
            if diff.is_empty() {
                lossless += 1;
            } else {
                // Elsewhere only typed tags are lost: a number, date or time tag whose text was
                // not one (`[WhiteElo "?"]`, `[BlackElo ""]`) or is written otherwise.
                assert_eq!(diff, ["tags"], "{name} game {i}");
                let typed = [
                    "WhiteElo",
                    "BlackElo",
                    "WhiteRatingDiff",
                    "BlackRatingDiff",
                    "UTCDate",
                    "UTCTime",
                ];
                let pairs = |g: &GameTree| -> Vec<(String, String)> {
                    g.tags
                        .iter()
                        .map(|t| (String::from_utf8_lossy(t.name()).into_owned(), t.value().into_owned()))
                        .collect()
                };
                let (before, after) = (pairs(original), pairs(&back));
                for tag in before
                    .iter()
                    .filter(|t| !after.contains(t))
                    .chain(after.iter().filter(|t| !before.contains(t)))
                {
                    assert!(typed.contains(&tag.0.as_str()), "{name} game {i}: {tag:?}");
                }
                file_lost += 1;
                report.push(format!("{name} game {i}: {diff:?}"));
            }
        }
        annotated += file_annotated;
        eprintln!(
            "{name}: {} games, {file_annotated} with other annotations, {file_lost} others differ",
            originals.len()
        );
    }
    eprintln!("{total} games: {lossless} rebuilt exactly, {annotated} with annotations the columns do not hold");
    for line in &report {
        eprintln!("  {line}");
    }
    assert!(lichess_games >= 100, "{lichess_games}");
    assert!(lossless > 0 && annotated > 0);
}

#[test]
fn tags_come_back_in_lichess_order_with_unknown_ones_kept_in_place() {
    let pgn = "[Site \"s\"]\n[Event \"e\"]\n[Annotator \"me\"]\n[Round \"3\"]\n[White \"w\"]\n[WhiteElo \"1500\"]\n\
               [Black \"b\"]\n[BlackRatingDiff \"-4\"]\n[Custom \"x\"]\n[White \"second\"]\n[Result \"0-1\"]\n\n1. e4 e5 0-1\n";
    let dir = tempfile::tempdir().unwrap();
    let rebuilt = export_and_rebuild(pgn.as_bytes(), &dir.path().join("export"), ExportOptions::default());
    let text = String::from_utf8(rebuilt[0].clone().unwrap()).unwrap();
    // Columns in `TAG_ORDER`; an unranked tag of `other_tags` takes the rank of the next one
    // that has one: `Annotator` goes before `Round`, `Custom` before the second `White`, which
    // follows the column `White`.
    assert_eq!(
        text,
        "[Event \"e\"]\n[Site \"s\"]\n[Annotator \"me\"]\n[Round \"3\"]\n[White \"w\"]\n[Custom \"x\"]\n\
         [White \"second\"]\n[Black \"b\"]\n[Result \"0-1\"]\n[WhiteElo \"1500\"]\n[BlackRatingDiff \"-4\"]\n\n\
         1. e4 e5 0-1\n\n"
    );
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
        // The third game has no `Result` tag: its `1-0` token is lost (`*`).
        let expected = [vec![], vec![], vec!["result"]];
        for ((original, text), expected) in originals.iter().zip(&rebuilt).zip(expected) {
            let text = text.as_ref().unwrap();
            let back = GameTree::from_pgn(text).unwrap();
            assert_eq!(
                differences(original, &back, false),
                expected,
                "{}",
                String::from_utf8_lossy(text)
            );
            assert_eq!(back.start, original.start);
        }
        // The Latin-1 name comes back as its byte.
        assert!(rebuilt[1]
            .as_ref()
            .unwrap()
            .starts_with(b"[Event \"a \\\"b\\\" \\\\ c\"]\n[White \"M\xfc"));
        assert!(rebuilt[2].as_ref().unwrap().ends_with(b"2. Rd1+ *\n\n"));
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

#[test]
fn a_null_move_comes_from_movetext_and_without_it_is_an_error() {
    let pgn = b"[White \"A\"]\n[Result \"1-0\"]\n\n1. e4 e5 1-0\n\n[White \"B\"]\n\n1. e4 -- 2. d4 {x} e5 *\n\n[White \"C\"]\n\n1. d4 *\n";
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("export");
    let rebuilt = export_and_rebuild(pgn, &out, ExportOptions::default());
    let texts: Vec<Vec<u8>> = rebuilt.into_iter().map(Result::unwrap).collect();
    assert_eq!(texts[1], b"[White \"B\"]\n\n1. e4 -- 2. d4 {x} e5 *\n\n");
    assert_eq!(texts[2], b"[White \"C\"]\n\n1. d4 *\n\n");

    // The same export without its `movetext` column (what issue 31 makes the default): the
    // other rows rebuild the same, the null move's is a typed error, and reading goes on.
    let part = out.join("part-0.parquet");
    let file = fs::File::open(&part).unwrap();
    let reader = parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder::try_new(file)
        .unwrap()
        .build()
        .unwrap();
    let batches: Vec<_> = reader.map(Result::unwrap).collect();
    let schema = batches[0].schema();
    let keep: Vec<usize> = (0..schema.fields().len())
        .filter(|&i| schema.field(i).name() != "movetext")
        .collect();
    let slim = dir.path().join("slim");
    fs::create_dir(&slim).unwrap();
    let projected = schema.project(&keep).unwrap();
    let mut writer = parquet::arrow::ArrowWriter::try_new(
        fs::File::create(slim.join("part-0.parquet")).unwrap(),
        projected.into(),
        None,
    )
    .unwrap();
    for batch in &batches {
        writer.write(&batch.project(&keep).unwrap()).unwrap();
    }
    writer.close().unwrap();
    let games: Vec<_> = ExportReader::open(&slim).unwrap().map(Result::unwrap).collect();
    assert_eq!(games.len(), 3);
    assert_eq!(games[0].pgn.as_ref().unwrap(), &texts[0]);
    assert_eq!((games[1].row, &games[1].pgn), (1, &Err(RebuildError::NullMove)));
    assert_eq!(games[2].pgn.as_ref().unwrap(), &texts[2]);
    let rows = rows_from_batch(&batches[0].project(&keep).unwrap()).unwrap();
    assert_eq!(rows[0].movetext, "");
}
