//! The `chessbits-engine` binary driven over stdin/stdout, as a GUI would.

use std::time::{Duration, Instant};

use crate::common;
use common::{assert_legal, best_move, Engine, SECOND};

#[test]
fn handshake_and_readyok() {
    let mut e = Engine::start();
    e.send("uci");
    let lines = e.expect("uciok", 5 * SECOND);
    assert!(lines.iter().any(|l| l.starts_with("id name")));
    assert!(lines
        .iter()
        .any(|l| l == "option name Hash type spin default 16 min 1 max 65536"));
    e.send("isready");
    e.expect("readyok", 5 * SECOND);
    e.quit();
}

#[test]
fn isready_and_stop_during_infinite_search() {
    let mut e = Engine::start();
    e.send("position startpos moves e2e4 c7c5");
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(300));
    e.send("isready");
    let mut lines = e.expect("readyok", SECOND);
    assert!(
        !lines.iter().any(|l| l.starts_with("bestmove")),
        "bestmove before stop: {lines:?}"
    );
    e.send("stop");
    lines.extend(e.expect("bestmove", SECOND));
    assert_legal(&["e2e4", "c7c5"], &best_move(&lines));
    assert!(lines.iter().any(|l| l.starts_with("info depth") && l.contains(" pv ")));
    e.quit();
}

#[test]
fn bad_input_is_reported_and_the_engine_keeps_working() {
    let mut e = Engine::start();
    e.send("position fen this is not a fen");
    let lines = e.expect("info string", 5 * SECOND);
    assert!(lines.last().unwrap().contains("error"));
    e.send("position startpos moves e2e4 e2e4");
    e.expect("info string", 5 * SECOND);
    e.send("frobnicate");
    e.expect("info string", 5 * SECOND);
    e.send("go depth banana");
    e.expect("info string", 5 * SECOND);
    e.send("setoption name Hash value lots");
    e.expect("info string", 5 * SECOND);
    e.send("setoption name Nonsense value 1");
    e.expect("info string", 5 * SECOND);
    // The failed position commands changed nothing: still the start position.
    e.send("go depth 4");
    let lines = e.expect("bestmove", 10 * SECOND);
    assert_legal(&[], &best_move(&lines));
    e.quit();
}

#[test]
fn quit_while_searching_ends_promptly() {
    let mut e = Engine::start();
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(200));
    e.quit();
}

#[test]
fn end_of_input_while_searching_ends_the_process() {
    let mut e = Engine::start();
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(100));
    e.close_input();
    let start = Instant::now();
    loop {
        if let Ok(Some(_)) = e.child.try_wait() {
            break;
        }
        assert!(start.elapsed() < 5 * SECOND, "still running after end of input");
        std::thread::sleep(Duration::from_millis(10));
    }
}

#[test]
fn options_threads_multipv_and_clock() {
    let mut e = Engine::start();
    e.send("setoption name Threads value 2");
    e.send("setoption name Hash value 32");
    e.send("setoption name MultiPV value 2");
    e.send("setoption name Move Overhead value 20");
    e.send("position startpos moves d2d4 d7d5");
    e.send("go depth 6");
    let lines = e.expect("bestmove", 20 * SECOND);
    assert_legal(&["d2d4", "d7d5"], &best_move(&lines));
    assert!(lines.iter().any(|l| l.contains("multipv 2")));
    // A tight clock: answers well within it.
    e.send("setoption name MultiPV value 1");
    e.send("position startpos");
    let start = Instant::now();
    e.send("go wtime 500 btime 500 winc 0 binc 0");
    let lines = e.expect("bestmove", 5 * SECOND);
    assert!(start.elapsed() < Duration::from_millis(500), "{:?}", start.elapsed());
    assert_legal(&[], &best_move(&lines));
    // UCI_LimitStrength: options announced and accepted, four lines searched, a legal move.
    e.send("setoption name UCI_LimitStrength value true");
    e.send("setoption name UCI_Elo value 1500");
    e.send("position startpos");
    e.send("go depth 3");
    let lines = e.expect("bestmove", 5 * SECOND);
    assert_legal(&[], &best_move(&lines));
    assert!(lines.iter().any(|l| l.contains("multipv 4")), "{lines:?}");
    assert!(!lines.iter().any(|l| l.contains("error")), "{lines:?}");
    e.send("setoption name UCI_Elo value 9999");
    e.send("isready");
    let lines = e.expect("readyok", 5 * SECOND);
    assert!(
        lines.iter().any(|l| l.contains("error") && l.contains("UCI_Elo")),
        "{lines:?}"
    );
    e.send("setoption name UCI_LimitStrength value false");
    e.send("go movetime 200 searchmoves a2a3");
    let lines = e.expect("bestmove", 5 * SECOND);
    assert_eq!(best_move(&lines), "a2a3");
    e.quit();
}

#[test]
fn ponder_then_ponderhit() {
    let mut e = Engine::start();
    e.send("position startpos moves e2e4");
    e.send("go ponder wtime 1000 btime 1000");
    std::thread::sleep(Duration::from_millis(1200));
    // Pondering ignores the clock: no bestmove yet.
    e.send("isready");
    let lines = e.expect("readyok", SECOND);
    assert!(!lines.iter().any(|l| l.starts_with("bestmove")));
    e.send("ponderhit");
    let lines = e.expect("bestmove", 2 * SECOND);
    assert_legal(&["e2e4"], &best_move(&lines));
    e.quit();
}

#[test]
fn go_perft_prints_like_stockfish() {
    let mut e = Engine::start();
    e.send("position startpos");
    e.send("go perft 3");
    let lines = e.expect("Nodes searched", 10 * SECOND);
    assert_eq!(lines.last().unwrap(), "Nodes searched: 8902");
    assert!(lines.iter().any(|l| l == "e2e4: 600"));
    e.quit();
}

#[test]
fn chess960_castling_notation() {
    let mut e = Engine::start();
    e.send("setoption name UCI_Chess960 value true");
    // Only castling is sensible here... along with king and rook moves: restrict to castling.
    e.send("position fen 4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1 moves e1h1 e8d8");
    e.send("d");
    let lines = e.expect("info string fen", 5 * SECOND);
    assert!(lines.last().unwrap().contains("R4RK1"), "{lines:?}");
    e.send("position fen 4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1");
    e.send("go depth 2 searchmoves e1h1");
    let lines = e.expect("bestmove", 5 * SECOND);
    assert_eq!(best_move(&lines), "e1h1");
    e.quit();
}

#[test]
fn a_long_perft_does_not_block_the_input_loop() {
    let mut e = Engine::start();
    e.send("position startpos");
    e.send("go perft 7");
    std::thread::sleep(Duration::from_millis(100));
    e.send("isready");
    let lines = e.expect("readyok", SECOND);
    assert!(!lines.iter().any(|l| l.starts_with("Nodes searched")));
    e.quit();
}

/// A line of 160 MiB without a line feed (a runaway GUI or a file piped in by mistake) is skipped
/// as it streams: an `info string`, then the engine answers as before, its memory bounded.
#[test]
fn an_endless_line_is_skipped_in_bounded_memory() {
    let mut e = Engine::start();
    let chunk = vec![b'x'; 1 << 20];
    for _ in 0..160 {
        e.send_raw(&chunk);
    }
    e.send("position startpos moves e2e4");
    let lines = e.expect("info string", 10 * SECOND);
    assert!(lines[0].contains("a line longer than"), "{lines:?}");
    e.send("isready");
    e.expect("readyok", 5 * SECOND);
    // The line after the long one is read whole: the position is the start position.
    e.send("position startpos moves e2e4");
    e.send("go depth 1");
    let lines = e.expect("bestmove", 10 * SECOND);
    assert_legal(&["e2e4"], &best_move(&lines));
    #[cfg(target_os = "linux")]
    {
        let peak = common::peak_memory_kib(e.child.id()).expect("VmHWM in /proc/PID/status");
        assert!(peak < 128 * 1024, "peak memory {peak} KiB");
    }
    e.quit();
}

#[test]
fn a_spin_value_out_of_range_is_refused() {
    let mut e = Engine::start();
    e.send("setoption name Threads value 0");
    let lines = e.expect("info string", 5 * SECOND);
    assert!(lines.last().unwrap().contains("out of range 1 to 256"), "{lines:?}");
    e.send("setoption name Hash value 100000");
    let lines = e.expect("info string", 5 * SECOND);
    assert!(lines.last().unwrap().contains("out of range"), "{lines:?}");
    // The engine still searches, with the settings it had.
    e.send("go depth 3");
    let lines = e.expect("bestmove", 10 * SECOND);
    assert_legal(&[], &best_move(&lines));
    e.quit();
}

#[test]
fn mated_and_stalemated_positions_answer_a_score_and_bestmove_0000() {
    let mut e = Engine::start();
    for (position, score) in [
        (
            "position startpos moves f2f3 e7e5 g2g4 d8h4",
            "info depth 0 score mate 0",
        ),
        ("position fen 7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", "info depth 0 score cp 0"),
    ] {
        e.send(position);
        e.send("go depth 5");
        let lines = e.expect("bestmove", 5 * SECOND);
        assert_eq!(
            lines[lines.len() - 2..],
            [score.to_string(), "bestmove 0000".to_string()]
        );
        // After `go infinite`, bestmove waits for `stop`.
        e.send("go infinite");
        let lines = e.expect("info depth 0", 5 * SECOND);
        assert_eq!(lines.last().unwrap(), score);
        e.send("isready");
        let lines = e.expect("readyok", 5 * SECOND);
        assert!(!lines.iter().any(|l| l.starts_with("bestmove")), "{lines:?}");
        e.send("stop");
        let lines = e.expect("bestmove", 5 * SECOND);
        assert_eq!(lines.last().unwrap(), "bestmove 0000");
    }
    e.quit();
}

#[test]
fn help_version_and_unknown_arguments() {
    let run = |arg: &str| {
        std::process::Command::new(env!("CARGO_BIN_EXE_chessbits-engine"))
            .arg(arg)
            .stdin(std::process::Stdio::null())
            .output()
            .unwrap()
    };
    let help = run("--help");
    assert!(help.status.success());
    assert!(String::from_utf8_lossy(&help.stdout).contains("chessbits-engine bench"));
    let version = run("--version");
    assert!(version.status.success());
    assert_eq!(
        String::from_utf8_lossy(&version.stdout).trim(),
        format!("chessbits-engine {}", env!("CARGO_PKG_VERSION"))
    );
    // A typo does not start the UCI loop: exit 2, the reason on standard error, nothing on stdout.
    let typo = run("--hepl");
    assert_eq!(typo.status.code(), Some(2));
    assert!(typo.stdout.is_empty());
    assert!(String::from_utf8_lossy(&typo.stderr).contains("unknown argument '--hepl'"));
    // A command's `--help` prints the usage (it does not run the command); a bench argument
    // that is not a number is refused, not read as the default.
    let run_args = |args: &[&str]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_chessbits-engine"))
            .args(args)
            .stdin(std::process::Stdio::null())
            .output()
            .unwrap()
    };
    for command in ["bench", "datagen", "tune"] {
        let help = run_args(&[command, "--help"]);
        assert!(help.status.success(), "{command} --help");
        assert!(String::from_utf8_lossy(&help.stdout).contains("chessbits-engine datagen --out FILE"));
    }
    let bad = run_args(&["bench", "deep"]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(bad.stdout.is_empty());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("bench: DEPTH must be a positive number, not 'deep'"));
}
