//! The `chessbits-engine` binary driven over stdin/stdout, as a GUI would.

use std::time::{Duration, Instant};

mod common;
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
