//! `OwnBook` and `BookFile` over stdin/stdout: a book at a path that is not UTF-8, lines that are
//! not UTF-8, and files that cannot serve as a book (a device, a FIFO, a bad length, a file
//! truncated or overwritten after it was opened): each is reported with `info string` and the
//! engine keeps playing.

use crate::common;
use common::{assert_legal, best_move, peak_memory_kib, polyglot_entry, Engine, SECOND};

use chessbits::position::Position;

/// The book's move: one no search plays at depth 1 (checked in `own_book_plays_the_book_move`).
const BOOK_MOVE: &str = "g2g4";

/// A one-entry book: 1. g4 from the start position.
fn g4_book() -> Vec<u8> {
    polyglot_entry(Position::startpos().key(), (6, 1), (6, 3), 1)
}

/// `setoption name BookFile value ` followed by `path`'s bytes as they are.
fn book_file_line(path: &std::path::Path) -> Vec<u8> {
    let mut line = b"setoption name BookFile value ".to_vec();
    line.extend(path.as_os_str().as_encoded_bytes());
    line
}

/// `go depth 1` from the start position answered by a search: `info depth` lines, a legal move.
fn searches(e: &mut Engine) -> Vec<String> {
    e.send("position startpos");
    e.send("go depth 1");
    let lines = e.expect("bestmove", 10 * SECOND);
    assert!(lines.iter().any(|l| l.starts_with("info depth")), "{lines:?}");
    assert_legal(&[], &best_move(&lines));
    lines
}

/// `go` from the start position answered from the book at once: no search line before it.
fn plays_from_book(e: &mut Engine) {
    e.send("position startpos");
    e.send("go wtime 10000 btime 10000");
    let lines = e.expect("bestmove", 5 * SECOND);
    assert_eq!(lines, [format!("bestmove {BOOK_MOVE}")]);
}

#[test]
fn own_book_plays_the_book_move() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("book.bin");
    std::fs::write(&path, g4_book()).unwrap();
    let mut e = Engine::start();
    e.send_bytes(&book_file_line(&path));
    // OwnBook off: a search, which does not play the book's move.
    let lines = searches(&mut e);
    assert_ne!(best_move(&lines), BOOK_MOVE);
    e.send("setoption name OwnBook value true");
    plays_from_book(&mut e);
    // Out of book: a search.
    e.send("position startpos moves e2e4");
    e.send("go depth 3");
    let lines = e.expect("bestmove", 5 * SECOND);
    assert_legal(&["e2e4"], &best_move(&lines));
    // `<empty>`: no book any more.
    e.send("setoption name BookFile value <empty>");
    searches(&mut e);
    e.quit();
}

#[test]
fn a_line_that_is_not_utf8_is_reported_and_the_engine_keeps_playing() {
    let mut e = Engine::start();
    e.send("setoption name OwnBook value true");
    // A missing book at a Latin-1 path: reported, no book.
    e.send_bytes(b"setoption name BookFile value books/jos\xe9.bin");
    let lines = e.expect("info string", 5 * SECOND);
    assert!(lines[0].contains("BookFile 'books/jos\u{fffd}.bin'"), "{lines:?}");
    e.send("isready");
    e.expect("readyok", 5 * SECOND);
    // Any other line that is not UTF-8: reported and ignored.
    e.send_bytes(b"go depth \xff\xfe");
    let lines = e.expect("info string", 5 * SECOND);
    assert!(lines[0].contains("not valid UTF-8"), "{lines:?}");
    e.send("isready");
    let lines = e.expect("readyok", 5 * SECOND);
    assert!(!lines.iter().any(|l| l.starts_with("bestmove")), "{lines:?}");
    searches(&mut e);
    e.quit();
}

#[cfg(unix)]
#[test]
fn a_book_at_a_path_that_is_not_utf8_is_used() {
    use std::os::unix::ffi::OsStrExt;
    let dir = tempfile::tempdir().unwrap();
    // "josé.bin" in Latin-1.
    let path = dir.path().join(std::ffi::OsStr::from_bytes(b"jos\xe9.bin"));
    std::fs::write(&path, g4_book()).unwrap();
    let mut e = Engine::start();
    e.send("setoption name OwnBook value true");
    e.send_bytes(&book_file_line(&path));
    e.send("isready");
    let lines = e.expect("readyok", 5 * SECOND);
    assert_eq!(lines, ["readyok"]);
    plays_from_book(&mut e);
    e.quit();
}

/// Sets `BookFile` to `path` with `OwnBook` on: the engine answers one `info string` containing
/// `reason`, then `readyok`, then searches.
fn refused(path: &std::path::Path, reason: &str) -> Engine {
    let mut e = Engine::start();
    e.send("setoption name OwnBook value true");
    e.send_bytes(&book_file_line(path));
    e.send("isready");
    let lines = e.expect("readyok", 5 * SECOND);
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert!(
        lines[0].starts_with("info string error: BookFile") && lines[0].contains(reason),
        "{lines:?}"
    );
    searches(&mut e);
    e
}

#[cfg(unix)]
#[test]
fn a_device_is_refused_and_not_read() {
    let e = refused(std::path::Path::new("/dev/zero"), "not a regular file");
    // Reading /dev/zero whole would have taken all memory; 16 MiB of hash and the rest stay
    // far below this bound.
    #[cfg(target_os = "linux")]
    {
        let peak = peak_memory_kib(e.child.id()).expect("VmHWM in /proc/PID/status");
        assert!(peak < 256 * 1024, "peak memory {peak} KiB");
    }
    e.quit();
}

#[cfg(unix)]
#[test]
fn a_fifo_is_refused_without_blocking() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("book.fifo");
    let status = std::process::Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(status.success());
    refused(&fifo, "not a regular file").quit();
}

#[test]
fn missing_files_directories_and_bad_lengths_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let odd = dir.path().join("odd.bin");
    let mut bytes = g4_book();
    bytes.extend([0; 5]);
    std::fs::write(&odd, bytes).unwrap();
    refused(&odd, "21 bytes is not a multiple").quit();
    refused(dir.path(), "not a regular file").quit();
    refused(&dir.path().join("missing.bin"), "os error").quit();
}

#[test]
fn a_book_truncated_or_overwritten_after_it_was_opened_gives_no_book_move() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("book.bin");
    // 63 entries of other keys (below the start position's), then the start position's.
    let mut bytes: Vec<u8> = (1..64).flat_map(|key| polyglot_entry(key, (4, 1), (4, 3), 1)).collect();
    bytes.extend(g4_book());
    std::fs::write(&path, &bytes).unwrap();
    let mut e = Engine::start();
    e.send("setoption name OwnBook value true");
    e.send_bytes(&book_file_line(&path));
    plays_from_book(&mut e);
    // Truncated: the probe cannot read its entries; reported, then a search.
    std::fs::OpenOptions::new()
        .write(true)
        .open(&path)
        .unwrap()
        .set_len(16)
        .unwrap();
    let lines = searches(&mut e);
    assert!(lines[0].starts_with("info string error: BookFile:"), "{lines:?}");
    // Overwritten in place with bytes in no order: whatever the probe finds, no panic.
    let garbage: Vec<u8> = (0..bytes.len()).map(|i| (i * 131 % 251) as u8).collect();
    std::fs::write(&path, garbage).unwrap();
    e.send("position startpos");
    e.send("go depth 1");
    let lines = e.expect("bestmove", 10 * SECOND);
    assert_legal(&[], &best_move(&lines));
    e.send("isready");
    e.expect("readyok", 5 * SECOND);
    e.quit();
}
