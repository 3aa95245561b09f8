//! What the tests of the `chessbits` binary share.
#![allow(dead_code)]

use std::path::PathBuf;
use std::process::Command;

/// The bundled test data, `testdata/` at the repository root (a subset of `../shared/data` in the
/// same layout; see `testdata/README.md`).
pub fn testdata_path() -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../testdata"))
}

/// The full shared corpora, `../shared/data` beside the repository: only the ignored
/// `shared_data_*` tests read them.
pub fn shared_path() -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared/data"))
}

/// Runs the binary with `args`: exit code (-1 if killed by a signal), standard output, standard
/// error.
pub fn chessbits(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_chessbits"))
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Runs `chessbits ARGS` with its standard output closed before it writes (`chessbits ... |
/// head`, the reader gone): returns the exit status and standard error.
pub fn chessbits_closed_stdout(args: &[&str]) -> (Option<i32>, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_chessbits"))
        .args(args)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    (out.status.code(), String::from_utf8_lossy(&out.stderr).into_owned())
}

/// One game of four plies.
pub const GAME: &str = "[Event \"one\"]\n\n1. e4 e5 2. Nf3 Nc6 *\n";

/// A directory `d` holding `a.pgn` (one game), `b.pgn` (a link to it), `self` and `again` (links
/// to `.`), `sub/up` (a link to `..`), `sub/top` (a link to the directory holding `d`, where
/// `outside.pgn` must not be read) and `fifo.pgn` (a FIFO, never written to: opening it would
/// hang). Returns the temporary directory and `d`.
#[cfg(unix)]
pub fn hostile_dir() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().join("d");
    std::fs::create_dir_all(d.join("sub")).unwrap();
    std::fs::write(d.join("a.pgn"), GAME).unwrap();
    std::fs::write(dir.path().join("outside.pgn"), GAME).unwrap();
    for (target, link) in [
        ("a.pgn", "b.pgn"),
        (".", "self"),
        (".", "again"),
        ("..", "sub/up"),
        ("../..", "sub/top"),
    ] {
        std::os::unix::fs::symlink(target, d.join(link)).unwrap();
    }
    let status = Command::new("mkfifo").arg(d.join("fifo.pgn")).status().unwrap();
    assert!(status.success());
    (dir, d)
}
