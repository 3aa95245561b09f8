//! Input directories that would trap a naive walk, through the binary: symbolic links back into
//! the directory (two of them, and one to its parent), a second link to a file, and a FIFO. Every
//! command that expands directories (`pgn check`, `stats`, `filter`, `positions`, `pack`; `export`
//! in cli_export) reads each game once, ends, and says what it skipped.

#![cfg(unix)]

use crate::common;

use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use common::{hostile_dir, GAME};

/// Runs the binary in `dir`; a run still going after a minute is killed and fails the test (the
/// bugs pinned here made it loop for ever or block on the FIFO).
fn run_in(dir: &Path, args: &[&str]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_chessbits"))
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(60);
    while child.try_wait().unwrap().is_none() {
        if Instant::now() > deadline {
            let _ = child.kill();
            let out = child.wait_with_output().unwrap();
            panic!("{args:?} did not end: {}", String::from_utf8_lossy(&out.stderr));
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.wait_with_output().unwrap()
}

fn json(text: &[u8]) -> serde_json::Value {
    serde_json::from_slice(text).unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(text)))
}

/// What the walk must say on standard error: each thing it skipped, by name.
fn assert_skips_said(stderr: &[u8]) {
    let stderr = String::from_utf8_lossy(stderr);
    for (name, why) in [
        ("d/b.pgn", "the same file as d/a.pgn"),
        ("d/self", "(a loop)"),
        ("d/again", "(a loop)"),
        ("d/sub/up", "(a loop)"),
        ("d/sub/top", "(a loop)"),
        ("d/fifo.pgn", "not a regular file"),
    ] {
        assert!(
            stderr
                .lines()
                .any(|line| line.contains(&format!("{name}: skipped")) && line.contains(why)),
            "{name}: {why}\n{stderr}"
        );
    }
}

#[test]
fn pgn_check_reads_each_game_once_through_links_loops_and_a_fifo() {
    let (dir, _) = hostile_dir();
    let out = run_in(dir.path(), &["pgn", "check", "d", "--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(json(&out.stdout)["games"], 1);
    assert_skips_said(&out.stderr);
}

#[test]
fn pgn_stats_filter_and_positions_read_each_game_once() {
    let (dir, _) = hostile_dir();
    let out = run_in(dir.path(), &["pgn", "stats", "d", "--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(json(&out.stdout)["games"], 1);
    assert_skips_said(&out.stderr);

    let out = run_in(dir.path(), &["pgn", "filter", "d"]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(out.stdout, GAME.as_bytes());
    assert_skips_said(&out.stderr);

    let out = run_in(dir.path(), &["pgn", "positions", "d"]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    // The start and one position after each of the four moves.
    assert_eq!(String::from_utf8_lossy(&out.stdout).lines().count(), 5);
    assert_skips_said(&out.stderr);
}

#[test]
fn pack_reads_each_game_once() {
    let (dir, _) = hostile_dir();
    let out = run_in(dir.path(), &["pack", "d", "-o", "x.cbits", "--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    assert_skips_said(&out.stderr);
    let out = run_in(dir.path(), &["unpack", "x.cbits"]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(String::from_utf8_lossy(&out.stdout).matches("[Event ").count(), 1);
}

#[test]
fn a_fifo_named_on_the_command_line_is_read_as_a_stream() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("games.pgn");
    let status = Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(status.success());
    let writer = {
        let fifo = fifo.clone();
        std::thread::spawn(move || std::fs::write(fifo, GAME.repeat(3)).unwrap())
    };
    let out = run_in(dir.path(), &["pgn", "check", "games.pgn", "--json"]);
    writer.join().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(json(&out.stdout)["games"], 3);
}

#[test]
fn a_file_named_twice_is_read_twice_but_found_again_in_a_directory_once() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("d")).unwrap();
    std::fs::write(dir.path().join("d/a.pgn"), GAME).unwrap();
    let out = run_in(dir.path(), &["pgn", "check", "d/a.pgn", "d/a.pgn", "--json"]);
    assert_eq!(json(&out.stdout)["games"], 2);
    let out = run_in(dir.path(), &["pgn", "check", "d/a.pgn", "d", "d", "--json"]);
    assert_eq!(json(&out.stdout)["games"], 1);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("skipped, the directory d is read already"), "{stderr}");
}
