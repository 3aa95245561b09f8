//! Positions no game reaches (impossible material or checks) on the commands that take a
//! position: refused with a hint (status 2), accepted with `--allow-impossible`, and the same in
//! a perft suite.

use crate::common;

use common::chessbits;

/// 270 legal moves, far more queens than promotions give.
const QUEENS: &str = "kBQQQQQQ/BR5Q/Q6Q/Q6Q/Q6Q/Q6Q/Q6Q/KQQQQQQQ w - - 0 1";
/// Black in check from a knight, a rook and a bishop at once.
const TRIPLE_CHECK: &str = "4k3/8/3N4/8/B3R3/8/8/4K3 b - - 0 1";

#[test]
fn impossible_positions_need_allow_impossible() {
    for (fen, why) in [
        (QUEENS, "white has more material than a game can give"),
        (TRIPLE_CHECK, "a check that no move could have given"),
    ] {
        for args in [
            vec!["show", fen],
            vec!["moves", "--fen", fen],
            vec!["perft", "--fen", fen, "--depth", "1"],
        ] {
            let (code, _, err) = chessbits(&args);
            assert_eq!(code, 2, "{args:?}");
            assert!(
                err.contains(why) && err.contains("--allow-impossible"),
                "{args:?}: {err}"
            );
            let mut allowed = args.clone();
            allowed.push("--allow-impossible");
            let (code, _, err) = chessbits(&allowed);
            assert_eq!(code, 0, "{allowed:?}: {err}");
        }
    }
    let (_, out, _) = chessbits(&["moves", "--fen", QUEENS, "--allow-impossible"]);
    assert_eq!(out.lines().count(), 270);
    let (_, out, _) = chessbits(&["perft", "--fen", TRIPLE_CHECK, "--depth", "1", "--allow-impossible"]);
    assert_eq!(out.lines().last(), Some("nodes 2"), "Kd8 and Kf8");
}

#[test]
fn a_suite_with_a_composed_position_needs_allow_impossible() {
    let dir = std::env::temp_dir().join(format!("chessbits-composed-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let suite = dir.join("composed.epd");
    std::fs::write(
        &suite,
        format!(
            "{} ;D1 270\n{} ;D1 2\n",
            &QUEENS[..QUEENS.len() - 4],
            &TRIPLE_CHECK[..TRIPLE_CHECK.len() - 4]
        ),
    )
    .unwrap();
    let suite = suite.to_str().unwrap();
    let (code, out, _) = chessbits(&["perft", "--suite", suite]);
    assert_eq!(code, 1, "{out}");
    assert_eq!(out.lines().last(), Some("0 passed, 2 failed"), "{out}");
    let (code, out, err) = chessbits(&["perft", "--suite", suite, "--allow-impossible"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.lines().last(), Some("2 passed, 0 failed"), "{out}");
    std::fs::remove_dir_all(&dir).unwrap();
}
