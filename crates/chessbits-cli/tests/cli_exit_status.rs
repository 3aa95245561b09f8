//! Every command against the README's table of exit statuses: 0 ok; 1 bad input found (the
//! command ran to the end, each bad thing reported on standard error); 2 usage or I/O error (a
//! file that cannot be read or written: the message on standard error, nothing on standard
//! output).

use crate::common;

use std::path::Path;

use common::chessbits;

/// A directory with `ok.pgn` (a legal game), `bad.pgn` (an illegal move on line 3), `ok.cbits`
/// (ok.pgn packed), `bad.epd` (a perft suite with a wrong count) and `dir/` (a directory: a
/// path that cannot be read as a file).
fn setup() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("ok.pgn"), "[Event \"x\"]\n\n1. e4 e5 *\n").unwrap();
    std::fs::write(d.join("bad.pgn"), "[Event \"x\"]\n\n1. e4 e4 *\n").unwrap();
    std::fs::write(
        d.join("bad.epd"),
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;D1 21\n",
    )
    .unwrap();
    std::fs::create_dir(d.join("dir")).unwrap();
    let (code, _, err) = chessbits(&["pack", &p(d, "ok.pgn"), "-o", &p(d, "ok.cbits")]);
    assert_eq!(code, 0, "{err}");
    dir
}

/// `dir/name` as an argument.
fn p(dir: &Path, name: &str) -> String {
    dir.join(name).to_str().unwrap().to_string()
}

/// Runs `args` and checks the status, and for 2 that standard output is empty and standard error
/// is one `chessbits: ` message naming `names`; for 1 that standard error holds `names` (the
/// report on standard output may list them too).
fn expect(args: &[&str], code: i32, names: &str) {
    let (got, out, err) = chessbits(args);
    assert_eq!(got, code, "{args:?}: stdout {out:?}, stderr {err:?}");
    match code {
        2 => {
            assert_eq!(out, "", "{args:?}: an error prints nothing on standard output");
            assert!(
                err.starts_with("chessbits: ") && err.contains(names),
                "{args:?}: {err:?} should name {names}"
            );
        }
        1 => assert!(err.contains(names), "{args:?}: {err:?} should report {names}"),
        _ => {}
    }
}

const MISSING: &str = "/nonexistent/chessbits/missing";

#[test]
fn show_and_moves() {
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    expect(&["show", start], 0, "");
    expect(&["show", "not a fen"], 2, "FEN");
    expect(&["moves", "--fen", start], 0, "");
    expect(&["moves", "--fen", "not a fen"], 2, "FEN");
}

#[test]
fn perft() {
    let dir = setup();
    let d = dir.path();
    expect(&["perft", "--depth", "2"], 0, "");
    expect(&["perft", "--suite", &p(d, "bad.epd"), "--max-depth", "1"], 1, "");
    expect(&["perft", "--suite", MISSING], 2, MISSING);
    expect(&["perft", "--suite", &p(d, "dir")], 2, "dir");
}

#[test]
fn pgn_check() {
    let dir = setup();
    let d = dir.path();
    expect(&["pgn", "check", &p(d, "ok.pgn")], 0, "");
    expect(&["pgn", "check", &p(d, "bad.pgn")], 1, "bad.pgn:3: illegal move");
    // The text report on standard output is the summary; the bad games went to standard error.
    let (_, out, _) = chessbits(&["pgn", "check", &p(d, "bad.pgn")]);
    assert!(out.starts_with("1 games, 0 plies, 1 errors;"), "{out}");
    expect(
        &["pgn", "check", &p(d, "bad.pgn"), "--json"],
        1,
        "bad.pgn:3: illegal move",
    );
    expect(&["pgn", "check", MISSING], 2, MISSING);
    expect(&["pgn", "check", "/nonexistent.pgn"], 2, "/nonexistent.pgn");
    // Not even the files before it are reported: nothing more is done.
    expect(&["pgn", "check", &p(d, "ok.pgn"), MISSING, "--json"], 2, MISSING);
}

#[test]
fn pgn_stats_filter_positions_and_convert() {
    let dir = setup();
    let d = dir.path();
    for command in ["stats", "filter", "positions", "convert"] {
        expect(&["pgn", command, &p(d, "ok.pgn")], 0, "");
        expect(&["pgn", command, &p(d, "bad.pgn")], 1, "bad.pgn:3: illegal move");
        expect(&["pgn", command, MISSING], 2, MISSING);
    }
    // A directory is every PGN file and archive below it (none here), as for the other commands.
    expect(&["pgn", "convert", &p(d, "dir")], 0, "");
    for command in ["filter", "positions", "convert"] {
        let out = format!("{MISSING}/out");
        expect(&["pgn", command, &p(d, "ok.pgn"), "-o", &out], 2, MISSING);
    }
}

#[test]
fn codecs() {
    let dir = setup();
    let d = dir.path();
    expect(&["codecs", &p(d, "ok.pgn")], 0, "");
    expect(&["codecs", &p(d, "bad.pgn")], 1, "illegal move");
    expect(&["codecs", MISSING], 2, MISSING);
    expect(&["codecs", &p(d, "dir")], 2, "dir");
}

#[test]
fn pack_info_and_unpack() {
    let dir = setup();
    let d = dir.path();
    let out = format!("{MISSING}/out");
    expect(&["pack", &p(d, "ok.pgn"), "-o", &p(d, "new.cbits")], 0, "");
    expect(&["pack", MISSING, "-o", &p(d, "new.cbits")], 2, MISSING);
    expect(&["pack", &p(d, "ok.pgn"), "-o", &out], 2, MISSING);
    expect(&["info", &p(d, "ok.cbits")], 0, "");
    expect(&["info", MISSING], 2, MISSING);
    expect(&["info", &p(d, "ok.pgn")], 2, "ok.pgn");
    expect(&["unpack", &p(d, "ok.cbits")], 0, "");
    expect(&["unpack", MISSING], 2, MISSING);
    expect(&["unpack", &p(d, "ok.cbits"), "-o", &out], 2, MISSING);
}

#[test]
fn book() {
    let dir = setup();
    let d = dir.path();
    std::fs::write(d.join("empty.bin"), b"").unwrap();
    expect(&["book", &p(d, "empty.bin")], 0, "");
    expect(&["book", MISSING], 2, MISSING);
    expect(&["book", &p(d, "ok.pgn")], 2, "ok.pgn");
}

#[test]
fn export() {
    let dir = setup();
    let d = dir.path();
    let new = format!("{}/new", d.display());
    expect(&["export", &p(d, "ok.pgn"), "-o", &new], 0, "");
    expect(&["export", &p(d, "bad.pgn"), "-o", &format!("{new}2")], 1, "rejected");
    expect(&["export", MISSING, "-o", &format!("{new}3")], 2, "");
    expect(&["export", &p(d, "ok.pgn"), "-o", &format!("{MISSING}/out")], 2, "");
}
