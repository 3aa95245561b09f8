//! What the tests driving the `chessbits-engine` binary share: the engine over pipes, and
//! Polyglot entries to build books from.
#![allow(dead_code)]

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::time::{Duration, Instant};

use chessbits::game::Game;
use chessbits::notation::uci::parse_uci;

/// One second.
pub const SECOND: Duration = Duration::from_secs(1);

/// The engine binary, spoken to as a GUI would; killed when dropped (a failed test must not
/// leave it running).
pub struct Engine {
    /// The process.
    pub child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Engine {
    /// Starts the binary.
    pub fn start() -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_chessbits-engine"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("engine binary");
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Engine {
            child,
            stdin: Some(stdin),
            lines,
        }
    }

    /// Sends one line.
    pub fn send(&mut self, line: &str) {
        self.send_bytes(line.as_bytes());
    }

    /// Sends one line of raw bytes (not necessarily UTF-8).
    pub fn send_bytes(&mut self, line: &[u8]) {
        let stdin = self.stdin.as_mut().expect("input still open");
        stdin.write_all(line).unwrap();
        stdin.write_all(b"\n").unwrap();
        stdin.flush().unwrap();
    }

    /// Sends raw bytes, no line feed added.
    pub fn send_raw(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("input still open");
        stdin.write_all(bytes).unwrap();
    }

    /// Closes the engine's input (end of file).
    pub fn close_input(&mut self) {
        self.stdin = None;
    }

    /// Lines up to and including the first that starts with `prefix`, within `timeout`.
    pub fn expect(&mut self, prefix: &str, timeout: Duration) -> Vec<String> {
        let deadline = Instant::now() + timeout;
        let mut seen = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    let done = line.starts_with(prefix);
                    seen.push(line);
                    if done {
                        return seen;
                    }
                }
                Err(_) => panic!("no '{prefix}' within {timeout:?}; got {seen:?}"),
            }
        }
    }

    /// Sends `quit` and waits for the process to end.
    pub fn quit(mut self) {
        self.send("quit");
        let start = Instant::now();
        while start.elapsed() < Duration::from_secs(5) {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
        panic!("engine did not quit within 5 s");
    }
}

/// The move of the last line, a `bestmove` line.
pub fn best_move(lines: &[String]) -> String {
    let last = lines.last().unwrap();
    last.split_whitespace().nth(1).unwrap().to_string()
}

/// Asserts that `best` is legal after `moves` from the start position.
pub fn assert_legal(moves: &[&str], best: &str) {
    let mut game = Game::new();
    for m in moves {
        game.push_uci(m).unwrap();
    }
    assert!(parse_uci(game.position(), best).is_ok(), "{best} after {moves:?}");
}

/// One 16-byte Polyglot entry: `key`, the move `from`→`to` as (file, rank) pairs, `weight`.
pub fn polyglot_entry(key: u64, from: (u16, u16), to: (u16, u16), weight: u16) -> Vec<u8> {
    let raw: u16 = (from.1 << 9) | (from.0 << 6) | (to.1 << 3) | to.0;
    let mut bytes = key.to_be_bytes().to_vec();
    bytes.extend(raw.to_be_bytes());
    bytes.extend(weight.to_be_bytes());
    bytes.extend(0u32.to_be_bytes());
    bytes
}

/// The peak resident memory of process `pid` in KiB (`VmHWM`), where `/proc` tells it.
pub fn peak_memory_kib(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// The golden file at `path`, checked to be `bytes` (what the writer writes now): a difference
/// is a format change. `UPDATE_GOLDEN=1` writes `bytes` there first.
pub fn check_golden(path: &str, bytes: &[u8]) -> Vec<u8> {
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::write(path, bytes).unwrap();
    }
    let golden = std::fs::read(path).expect("golden file (UPDATE_GOLDEN=1 writes it)");
    assert_eq!(
        bytes, golden,
        "the writer no longer writes the golden bytes: a format change"
    );
    golden
}
