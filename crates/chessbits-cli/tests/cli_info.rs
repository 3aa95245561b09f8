//! `chessbits info` and `chessbits unpack --game/--range` (to standard output by default).

use crate::common;

use std::path::{Path, PathBuf};

use common::{chessbits, testdata_path};
use serde_json::Value;

fn json(text: &str) -> Value {
    serde_json::from_str(text.trim()).unwrap_or_else(|e| panic!("{e}: {text:?}"))
}

fn s(path: &Path) -> &str {
    path.to_str().unwrap()
}

/// Packs the 100 Carlsen games and a game that can only be stored as text, 30 games a block.
fn archive(dir: &Path) -> PathBuf {
    let text_game = dir.join("odd.pgn");
    std::fs::write(&text_game, "[Event \"odd\"]\n\n1. e4 Ke7 2. Ke3 *\n").unwrap();
    let carlsen = testdata_path().join("pgn/notnil_Carlsen.pgn");
    let archive = dir.join("games.cbits");
    let (code, _, err) = chessbits(&[
        "pack",
        s(&carlsen),
        s(&text_game),
        "-o",
        s(&archive),
        "--block-games",
        "30",
        "--codec",
        "index",
    ]);
    assert_eq!(code, 0, "{err}");
    archive
}

#[test]
fn info_describes_the_archive() {
    let dir = tempfile::tempdir().unwrap();
    let archive = archive(dir.path());
    let (code, out, err) = chessbits(&["info", "--json", s(&archive)]);
    assert_eq!(code, 0, "{err}");
    let v = json(&out);
    assert_eq!(v["games"], 101);
    assert_eq!(v["blocks"], 4);
    assert_eq!(v["games_as_text"], 1);
    assert_eq!(v["games_as_moves"], 100);
    assert_eq!(v["codec"], "index");
    assert_eq!(v["block_codecs"]["index"], 4);
    assert_eq!(v["format_version"], chessbits_archive::FORMAT_VERSION);
    assert_eq!(v["model_version"], chessbits_archive::MODEL_VERSION);
    assert_eq!(v["bytes"].as_u64(), Some(std::fs::metadata(&archive).unwrap().len()));
    assert!(v["problems"].as_array().unwrap().is_empty());
    let (code, out, _) = chessbits(&["info", s(&archive)]);
    assert_eq!(code, 0);
    assert!(
        out.contains("games           101 (100 as moves, 1 stored as text)"),
        "{out}"
    );
}

#[test]
fn info_of_damaged_and_foreign_files() {
    let dir = tempfile::tempdir().unwrap();
    let archive = archive(dir.path());
    let mut bytes = std::fs::read(&archive).unwrap();
    // A byte in the first block's payload: that block's checksum fails.
    bytes[16 + 36 + 5] ^= 0x40;
    let damaged = dir.path().join("damaged.cbits");
    std::fs::write(&damaged, &bytes).unwrap();
    let (code, out, err) = chessbits(&["info", "--json", s(&damaged)]);
    assert_eq!(code, 1, "{err}");
    let v = json(&out);
    assert!(!v["problems"].as_array().unwrap().is_empty(), "{v}");
    // Not an archive, or missing: status 2.
    let pgn = testdata_path().join("pgn/notnil_Carlsen.pgn");
    for path in [pgn.as_path(), Path::new("/nonexistent/x.cbits")] {
        let (code, out, err) = chessbits(&["info", s(path)]);
        assert_eq!((code, out.as_str()), (2, ""), "{err}");
    }
}

#[test]
fn unpack_one_game_or_a_range_to_standard_output() {
    let dir = tempfile::tempdir().unwrap();
    let archive = archive(dir.path());
    let (code, all, err) = chessbits(&["unpack", s(&archive)]);
    assert_eq!(code, 0, "{err}");
    let games: Vec<String> = all.split("\n\n[").map(|g| g.to_string()).collect();
    assert_eq!(all.matches("[Event ").count(), 101);
    // Game 1 is the first; game 31 opens the second block; 101 is the text game.
    let (code, first, _) = chessbits(&["unpack", s(&archive), "--game", "1"]);
    assert_eq!(code, 0);
    assert_eq!(first.matches("[Event ").count(), 1);
    assert!(all.starts_with(first.trim_end()), "{first}");
    let (_, range, _) = chessbits(&["unpack", s(&archive), "--range", "30..32"]);
    assert_eq!(range.matches("[Event ").count(), 3);
    let (_, game31, _) = chessbits(&["unpack", s(&archive), "--game", "31"]);
    assert!(range.contains(game31.trim()), "{game31}");
    assert!(games[30].contains(&game31.trim()[1..]), "game 31 is the 31st");
    let (_, last, _) = chessbits(&["unpack", s(&archive), "--game", "101"]);
    assert_eq!(
        last, "[Event \"odd\"]\n\n1. e4 Ke7 2. Ke3 *\n\n",
        "the text game comes back byte for byte"
    );
    let (_, tail, _) = chessbits(&["unpack", s(&archive), "--range", "100.."]);
    assert_eq!(tail.matches("[Event ").count(), 2);
    // Numbers out of the archive or malformed: usage errors.
    for args in [
        &["--game", "0"][..],
        &["--game", "102"],
        &["--range", "5..4"],
        &["--range", "0..3"],
        &["--range", "3"],
        &["--range", "a..b"],
    ] {
        let mut all = vec!["unpack", s(&archive)];
        all.extend_from_slice(args);
        let (code, out, err) = chessbits(&all);
        assert_eq!((code, out.as_str()), (2, ""), "{args:?}: {err}");
    }
}
