//! The `chessbits` binary: perft output format, suites, move listing and bad input.

use crate::common;

use common::chessbits;

#[test]
fn perft_prints_nodes_last() {
    let (code, out, _) = chessbits(&["perft", "--depth", "3"]);
    assert_eq!(code, 0);
    assert_eq!(out.lines().last(), Some("nodes 8902"));
}

#[test]
fn perft_divide_threads() {
    let fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq -";
    let (code, out, _) = chessbits(&["perft", "--fen", fen, "--depth", "3", "--divide", "--threads", "2"]);
    assert_eq!(code, 0);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 49);
    assert_eq!(lines[48], "nodes 97862");
    let sum: u64 = lines[..48]
        .iter()
        .map(|l| l.split(": ").nth(1).unwrap().parse::<u64>().unwrap())
        .sum();
    assert_eq!(sum, 97862);
    assert!(lines.contains(&"e1g1: 2059"));
}

#[test]
fn perft_modes_agree() {
    for mode in ["bulk", "make", "list"] {
        let (_, out, _) = chessbits(&["perft", "--depth", "4", "--mode", mode]);
        assert_eq!(out.lines().last(), Some("nodes 197281"), "{mode}");
    }
}

#[test]
fn perft_suite_reports_passed_and_failed() {
    let suite = concat!(env!("CARGO_MANIFEST_DIR"), "/../../data/standard-positions.epd");
    let (code, out, _) = chessbits(&["perft", "--suite", suite, "--max-depth", "3"]);
    assert_eq!(code, 0);
    assert_eq!(out.lines().last(), Some("18 passed, 0 failed"));

    let dir = std::env::temp_dir().join(format!("chessbits-suite-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let wrong = dir.join("wrong.epd");
    std::fs::write(
        &wrong,
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;D1 20 ;D2 401\n",
    )
    .unwrap();
    let (code, out, _) = chessbits(&["perft", "--suite", wrong.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert_eq!(out.lines().last(), Some("1 passed, 1 failed"));
}

/// An absurd depth is refused with a message before any search (it used to overflow the stack).
#[test]
fn absurd_depth_is_a_clear_error() {
    let bare_kings = "8/8/8/4k3/8/8/8/4K3 w - - 0 1";
    for extra in [&[][..], &["--divide"], &["--threads", "2"]] {
        let mut args = vec!["perft", "--fen", bare_kings, "--depth", "5000"];
        args.extend_from_slice(extra);
        let (code, out, err) = chessbits(&args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(out.is_empty(), "{out}");
        assert!(
            err.contains("--depth 5000") && err.contains("maximum perft depth is 32"),
            "{err}"
        );
        assert!(!err.contains("overflow") && !err.contains("panicked"), "{err}");
    }

    let dir = std::env::temp_dir().join(format!("chessbits-deep-suite-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let deep = dir.join("deep.epd");
    std::fs::write(&deep, format!("{bare_kings} ;D1 8 ;D5000 1\n")).unwrap();
    let (code, _, err) = chessbits(&["perft", "--suite", deep.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(err.contains("line 1") && err.contains("depth 5000"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn moves_lists_uci() {
    let (code, out, _) = chessbits(&["moves", "--fen", "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1"]);
    assert_eq!(code, 0);
    assert!(out.lines().any(|l| l == "e1g1") && out.lines().any(|l| l == "e1c1"));
    assert_eq!(out.lines().count(), 26);
}

#[test]
fn bad_fen_is_a_clear_error() {
    let (code, out, err) = chessbits(&["moves", "--fen", "not a fen"]);
    assert_eq!(code, 2);
    assert!(out.is_empty());
    assert!(err.contains("FEN"), "{err}");
    let (code, _, err) = chessbits(&["perft", "--suite", "/nonexistent/suite.epd"]);
    assert_eq!(code, 2);
    assert!(err.contains("/nonexistent/suite.epd"), "{err}");
}

/// `chessbits ... | head`: the reader goes away before the output is written. That is no error
/// (status 0, nothing on stderr), and never a panic.
#[test]
fn a_closed_stdout_ends_quietly() {
    let pgn = common::testdata_path().join("pgn/notnil_Carlsen.pgn");
    let pgn = pgn.to_str().unwrap();
    let commands: [&[&str]; 4] = [
        &["perft", "--depth", "3", "--divide"],
        &["moves", "--san"],
        &["codecs", pgn],
        &["pgn", "convert", pgn, "--to", "uci"],
    ];
    for args in commands {
        let (code, stderr) = common::chessbits_closed_stdout(args);
        assert_eq!(code, Some(0), "{args:?}: {stderr}");
        assert!(
            !stderr.contains("panicked") && !stderr.contains("Broken pipe"),
            "{args:?}: {stderr}"
        );
    }
}
