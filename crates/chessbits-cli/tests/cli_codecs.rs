//! `chessbits codecs` on inputs it builds itself.

use std::path::PathBuf;

use crate::common;

use common::chessbits;

/// A file in a temporary directory of the test `test`'s own (tests run in parallel).
fn temp_file(test: &str, name: &str, contents: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("chessbits-cli-codecs-{test}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, contents).unwrap();
    path
}

/// 270 legal moves for White (the tricky perft suite's `max-legals-too-much-material`).
const MANY_MOVES: &str = "kBQQQQQQ/BR5Q/Q6Q/Q6Q/Q6Q/Q6Q/Q6Q/KQQQQQQQ w - - 0 1";

/// A game from a position with more than 256 legal moves, whose move is listed after the 256th:
/// the index-byte archive cannot store it. `codecs` says so and measures everything else.
#[test]
fn more_than_256_legal_moves_is_reported_not_fatal() {
    // The king moves are listed first, the h8 queen's last: Qh8g7 has index 269.
    let pgn = format!(
        "[Event \"many moves\"]\n[SetUp \"1\"]\n[FEN \"{MANY_MOVES}\"]\n\n1. Qh8g7 *\n\n\
         [Event \"normal\"]\n\n1. e4 e5 2. Nf3 Nc6 *\n\n"
    );
    let path = temp_file("many", "many-moves.pgn", &pgn);
    let (code, out, err) = chessbits(&["codecs", path.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert!(!err.contains("panicked"), "{err}");
    assert!(
        out.contains(": 2 games, 5 plies, 7 positions, 0 games with errors"),
        "{out}"
    );
    let line = |prefix: &str| {
        out.lines()
            .find(|l| l.starts_with(prefix))
            .unwrap_or_else(|| panic!("no {prefix:?} line in\n{out}"))
            .to_string()
    };
    assert!(
        line("archive --codec index-byte").contains("1 games left out: the byte index cannot encode a move"),
        "{out}"
    );
    // The other archives hold both games, with no note.
    for codec in ["index ", "entropy"] {
        let row = line(&format!("archive --codec {codec}"));
        assert!(!row.contains("left out"), "{row}");
    }
    // Every move code measured every move.
    assert!(!out.contains("not encodable"), "{out}");
    std::fs::remove_dir_all(path.parent().unwrap()).unwrap();
}

/// The totals are sums over games: cutting the input into batches changes nothing. Twice the
/// same games give twice the plies and positions, the same averages.
#[test]
fn batches_add_up() {
    let game = "[Event \"x\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 *\n\n";
    // More games than one batch holds (1024).
    let once = temp_file("batches", "once.pgn", &game.repeat(5000));
    let twice = temp_file("batches", "twice.pgn", &game.repeat(10000));
    let (code, out1, err) = chessbits(&["codecs", once.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let (code, out2, err) = chessbits(&["codecs", twice.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert!(out1.contains(": 5000 games, 30000 plies, 35000 positions"), "{out1}");
    assert!(out2.contains(": 10000 games, 60000 plies, 70000 positions"), "{out2}");
    // The move and position code tables (up to the size table) are per move and per position.
    let codes = |out: &str| {
        out.lines()
            .skip(1)
            .take_while(|l| !l.starts_with("size"))
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert_eq!(codes(&out1), codes(&out2));
    std::fs::remove_dir_all(once.parent().unwrap()).unwrap();
}
