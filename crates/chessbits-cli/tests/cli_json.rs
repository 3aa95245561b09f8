//! `--json` on every command: the output (standard output, or the summary on standard error for
//! commands that write games there) is one JSON object with the documented fields.

use crate::common;

use common::{chessbits, testdata_path};
use serde_json::Value;

fn json(text: &str) -> Value {
    serde_json::from_str(text.trim()).unwrap_or_else(|e| panic!("{e}: {text:?}"))
}

#[test]
fn every_command_speaks_json() {
    let dir = tempfile::tempdir().unwrap();
    let carlsen = testdata_path().join("pgn/notnil_Carlsen.pgn");
    let carlsen = carlsen.to_str().unwrap();
    let archive = dir.path().join("c.cbits");
    let archive = archive.to_str().unwrap();
    let book = testdata_path().join("books/python-chess_performance.bin");

    let (code, _, err) = chessbits(&["pack", carlsen, "-o", archive, "--json"]);
    assert_eq!(code, 0, "{err}");
    let v = json(&err);
    assert_eq!((v["games"].as_u64(), v["games_as_text"].as_u64()), (Some(100), Some(0)));
    assert!(v["archive_bytes"].as_u64().unwrap() < v["pgn_bytes"].as_u64().unwrap());

    let (code, out, err) = chessbits(&["unpack", archive, "--json"]);
    assert_eq!(code, 0, "{err}");
    let v = json(&err);
    assert_eq!(v["games"], 100);
    assert_eq!(v["pgn_bytes"].as_u64(), Some(out.len() as u64));

    let (code, _, err) = chessbits(&["pgn", "convert", carlsen, "--to", "uci", "-o", "/dev/null", "--json"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(json(&err)["games"], 100);

    let (code, out, _) = chessbits(&["pgn", "check", carlsen, "--json"]);
    assert_eq!(code, 0);
    assert_eq!(json(&out)["games"], 100);

    let (code, out, err) = chessbits(&["codecs", carlsen, "--json"]);
    assert_eq!(code, 0, "{err}");
    let v = json(&out);
    assert_eq!((v["games"].as_u64(), v["plies"].as_u64()), (Some(100), Some(7779)));
    assert!(v["move_codes"]
        .as_array()
        .unwrap()
        .iter()
        .any(|c| c["bits_per_move"] == 8.0));
    assert!(v["sizes"]
        .as_array()
        .unwrap()
        .iter()
        .any(|s| s["format"] == "archive --codec entropy"));

    let (code, out, err) = chessbits(&["book", book.to_str().unwrap(), "--json"]);
    assert_eq!(code, 0, "{err}");
    let v = json(&out);
    assert_eq!(v["key"], "463b96181691fc9c");
    assert!(v["entries"].as_array().unwrap().iter().any(|e| e["move"] == "e2e4"));

    for args in [
        &["show", "--json", "8/8/8/4k3/8/8/8/4K3 w - -"][..],
        &["moves", "--json"],
        &["perft", "--json", "--depth", "2"],
        &["info", "--json", archive],
        &["pgn", "stats", "--json", carlsen],
    ] {
        let (code, out, err) = chessbits(args);
        assert_eq!(code, 0, "{args:?}: {err}");
        assert!(json(&out).is_object(), "{args:?}");
    }
}
