//! A Parquet export directory (`chessbits export`) as the input of the commands that read games:
//! its games are rebuilt as PGN from the columns.

use crate::common;

use std::fs;
use std::path::{Path, PathBuf};

use common::{chessbits, testdata_path};

/// The bundled lichess games (clocks and evals, no other annotations).
fn lichess_pgn() -> PathBuf {
    testdata_path().join("pgn/shakmaty_lichess_db_1000k.pgn")
}

fn s(path: &Path) -> &str {
    path.to_str().unwrap()
}

/// Exports `input` into `out`.
fn export(input: &Path, out: &Path) {
    let (code, _, stderr) = chessbits(&["export", s(input), "-o", s(out)]);
    assert_eq!(code, 0, "{stderr}");
}

/// Standard output of a command that must succeed.
fn run(args: &[&str]) -> String {
    let (code, stdout, stderr) = chessbits(args);
    assert_eq!(code, 0, "{args:?}: {stderr}");
    stdout
}

/// `pgn stats --json` without what names the input.
fn stats(input: &Path) -> serde_json::Value {
    let mut json: serde_json::Value = serde_json::from_str(&run(&["pgn", "stats", s(input), "--json"])).unwrap();
    if let Some(object) = json.as_object_mut() {
        object.retain(|key, _| !matches!(key.as_str(), "files" | "bytes" | "inputs"));
    }
    json
}

#[test]
fn an_export_directory_reads_as_its_games() {
    let dir = tempfile::tempdir().unwrap();
    let exported = dir.path().join("export");
    export(&lichess_pgn(), &exported);

    // convert: the PGN rebuilt from the columns; stats on it and on the input agree.
    let back = dir.path().join("back.pgn");
    run(&["pgn", "convert", s(&exported), "--to", "san", "-o", s(&back)]);
    let text = fs::read_to_string(&back).unwrap();
    assert_eq!(text.matches("[Event ").count(), 120);
    assert!(
        text.contains("{ [%eval 0.17] [%clk 0:05:00] }"),
        "clocks and evals are rebuilt"
    );
    let expected = stats(&lichess_pgn());
    assert_eq!(stats(&back), expected);
    assert_eq!(stats(&exported), expected);

    // check: every game replays.
    let check: serde_json::Value = serde_json::from_str(&run(&["pgn", "check", s(&exported), "--json"])).unwrap();
    assert_eq!(check["games"], 120, "{check}");
    assert_eq!(check["errors"], 0, "{check}");

    // filter and positions give what they give on the input.
    for args in [
        vec!["pgn", "filter", "--result", "1-0"],
        vec!["pgn", "positions", "--every", "7"],
    ] {
        let from_pgn = run(&[&args[..2], &[s(&lichess_pgn())], &args[2..]].concat());
        let from_export = run(&[&args[..2], &[s(&exported)], &args[2..]].concat());
        assert!(!from_pgn.is_empty());
        if args[1] == "filter" {
            assert_eq!(
                from_export.matches("[Event ").count(),
                from_pgn.matches("[Event ").count()
            );
        } else {
            assert_eq!(from_export, from_pgn);
        }
    }

    // pack and export read it too: the archive and the second export hold the same games.
    let archive = dir.path().join("games.cbits");
    run(&["pack", s(&exported), "-o", s(&archive)]);
    assert_eq!(stats(&archive), expected);
    let again = dir.path().join("again");
    export(&exported, &again);
    assert_eq!(stats(&again), expected);
}

#[test]
fn null_moves_come_from_annotations_and_a_broken_part_is_an_error_naming_it() {
    let dir = tempfile::tempdir().unwrap();
    // A null move leaves the row's `moves` null: the row's `annotations` give the game.
    let pgn = dir.path().join("null.pgn");
    fs::write(
        &pgn,
        "[Result \"1-0\"]\n\n1. e4 e5 1-0\n\n[Result \"0-1\"]\n\n1. e4 -- 2. d4 e5 0-1\n",
    )
    .unwrap();
    let exported = dir.path().join("export");
    export(&pgn, &exported);
    let back = dir.path().join("back.pgn");
    run(&["pgn", "convert", s(&exported), "--to", "san", "-o", s(&back)]);
    assert!(fs::read_to_string(&back).unwrap().contains("1. e4 -- 2. d4 e5 0-1"));
    assert_eq!(stats(&exported), stats(&pgn));

    // A part file that is not Parquet: an error naming it, no panic.
    let broken = dir.path().join("broken");
    fs::create_dir(&broken).unwrap();
    fs::write(broken.join("part-0.parquet"), b"PAR1 not really").unwrap();
    let (code, stdout, stderr) = chessbits(&["pgn", "stats", s(&broken)]);
    assert_ne!(code, 0, "{stdout}");
    assert!(stderr.contains("part-0.parquet"), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");

    // A directory with a PGN file beside the Parquet files is a directory of PGN files.
    fs::write(broken.join("games.pgn"), "1. e4 *\n").unwrap();
    let check: serde_json::Value = serde_json::from_str(&run(&["pgn", "check", s(&broken), "--json"])).unwrap();
    assert_eq!(check["games"], 1, "{check}");
}

/// The default export has no `movetext` column and names its schema version; `--movetext` adds
/// the column. Both give back every game equal to the input's: `pgn convert` of the export
/// writes the same text as `pgn convert` of the PGN (tags in order, moves, clocks, evals,
/// comments, NAGs, variations, results), hostile games built here included.
#[test]
fn exports_with_and_without_movetext_give_back_the_input_games() {
    let dir = tempfile::tempdir().unwrap();
    let pgn = dir.path().join("games.pgn");
    let mut text = fs::read(lichess_pgn()).unwrap();
    text.extend_from_slice(
        b"\n[White \"x\"]\n[WhiteElo \"?\"]\n[UTCDate \"2024.??.??\"]\n[Result \"1-0\"]\n\n\
          1. e4! $2 {good} (1. d4 d5) e5 { [%eval 0.2,30] } 2. -- Nc6 1-0\n\n\
          [Black \"y\"]\n[White \"x\"]\n[BlackElo \"+1500\"]\n\n1. d4 *\n",
    );
    fs::write(&pgn, &text).unwrap();
    let want = run(&["pgn", "convert", s(&pgn), "--to", "san"]);
    for (name, extra) in [("default", None), ("movetext", Some("--movetext"))] {
        let out = dir.path().join(name);
        let mut args = vec!["export", s(&pgn), "-o", s(&out)];
        args.extend(extra);
        let (code, _, stderr) = chessbits(&args);
        assert_eq!(code, 0, "{stderr}");
        let file = fs::File::open(out.join("part-0.parquet")).unwrap();
        let builder = chessbits_parquet::footer::reader_builder(file).unwrap();
        assert_eq!(builder.schema().index_of("movetext").is_ok(), extra.is_some(), "{name}");
        assert!(builder.schema().index_of("annotations").is_ok());
        let kv = builder.metadata().file_metadata().key_value_metadata().unwrap();
        assert!(kv
            .iter()
            .any(|e| e.key == "chessbits.export_version" && e.value.as_deref() == Some("4")));
        let back = run(&["pgn", "convert", s(&out), "--to", "san"]);
        assert!(back == want, "{name}: the games differ");
    }
}
