//! `chessbits show`, `moves` and `perft` on FEN and EPD, their `--json`, flags that do nothing,
//! and the exit-status convention of `--help`.

use crate::common;

use common::chessbits;
use serde_json::Value;

const START_EPD: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -";
/// Black is mated (the fool's mate).
const MATED: &str = "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3";
/// Black to move, no move, not in check.
const STALEMATE: &str = "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1";

fn json(text: &str) -> Value {
    serde_json::from_str(text.trim()).unwrap_or_else(|e| panic!("{e}: {text:?}"))
}

#[test]
fn show_draws_the_board_and_the_state() {
    let fen = "r3k2r/8/8/3pP3/8/8/8/R3K2R w KQkq d6 0 12";
    let (code, out, err) = chessbits(&["show", fen]);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("8 r . . . k . . r\n"), "{out}");
    assert!(out.contains("  a b c d e f g h\n"), "{out}");
    for line in [
        "side to move    white",
        "castling        KQkq",
        "en passant      d6",
        "halfmove clock  0",
        "fullmove number 12",
        "status          normal",
    ] {
        assert!(out.contains(line), "{line:?} missing in\n{out}");
    }
    let (_, out, _) = chessbits(&["show", MATED]);
    assert!(out.contains("status          checkmate"), "{out}");
    let (_, out, _) = chessbits(&["show", STALEMATE]);
    assert!(out.contains("status          stalemate"), "{out}");
}

#[test]
fn show_json_and_epd_operations() {
    let epd = format!("{START_EPD} bm e4; id \"start; the first\"; hmvc 3; fmvn 7;");
    let (code, out, err) = chessbits(&["show", "--json", &epd]);
    assert_eq!(code, 0, "{err}");
    let v = json(&out);
    assert_eq!(v["fen"], "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 3 7");
    assert_eq!(v["turn"], "white");
    assert_eq!(v["castling"], "KQkq");
    assert_eq!(v["en_passant"], Value::Null);
    assert_eq!(v["legal_moves"], 20);
    assert_eq!(v["board"][0], "rnbqkbnr");
    assert_eq!(v["board"].as_array().unwrap().len(), 8);
    assert_eq!(v["operations"][0]["opcode"], "bm");
    assert_eq!(v["operations"][1]["operands"], "\"start; the first\"");
    let (_, out, _) = chessbits(&["show", "--json", MATED]);
    let v = json(&out);
    assert_eq!(
        (v["check"].as_bool(), v["checkmate"].as_bool()),
        (Some(true), Some(true))
    );
    assert_eq!(v["status"], "checkmate");
    let (_, out, _) = chessbits(&["show", &epd]);
    assert!(out.contains("epd bm          e4"), "{out}");
}

#[test]
fn every_fen_command_takes_epd() {
    let epd = format!("{START_EPD} bm e4; id \"x\";");
    let (code, out, err) = chessbits(&["moves", "--fen", &epd]);
    assert_eq!((code, out.lines().count()), (0, 20), "{err}");
    let (code, out, err) = chessbits(&["perft", "--fen", &format!("{START_EPD} ;D1 20 ;D2 400"), "--depth", "2"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.trim(), "nodes 400");
}

#[test]
fn moves_says_checkmate_and_stalemate() {
    for (fen, status) in [(MATED, "checkmate"), (STALEMATE, "stalemate")] {
        let (code, out, err) = chessbits(&["moves", "--fen", fen]);
        assert_eq!(code, 0);
        assert!(out.is_empty(), "{out}");
        assert_eq!(err.trim(), format!("no legal moves: {status}"));
        let (code, out, _) = chessbits(&["moves", "--json", "--fen", fen]);
        assert_eq!(code, 0);
        let v = json(&out);
        assert_eq!((v["status"].as_str(), v["count"].as_u64()), (Some(status), Some(0)));
    }
    let (_, out, _) = chessbits(&["moves", "--json", "--san"]);
    let v = json(&out);
    assert_eq!(v["count"], 20);
    assert!(v["moves"].as_array().unwrap().iter().any(|m| m == "Nf3"));
}

#[test]
fn perft_json() {
    let (code, out, err) = chessbits(&["perft", "--depth", "3", "--divide", "--json"]);
    assert_eq!(code, 0, "{err}");
    let v = json(&out);
    assert_eq!(v["nodes"], 8902);
    assert_eq!(v["divide"].as_array().unwrap().len(), 20);
    // The suite holds one composed position (two bishops checking along one diagonal).
    let suite = common::testdata_path().join("perft/ethereal_standard.epd");
    let (code, out, err) = chessbits(&[
        "perft",
        "--suite",
        suite.to_str().unwrap(),
        "--max-depth",
        "2",
        "--json",
        "--allow-impossible",
    ]);
    assert_eq!(code, 0, "{err}");
    let v = json(&out);
    assert_eq!(v["failed"], 0);
    assert!(v["passed"].as_u64().unwrap() > 0);
    assert_eq!(v["results"][0]["ok"], true);
    // A wrong count: status 1 (bad input found), reported in the JSON.
    let dir = tempfile::tempdir().unwrap();
    let wrong = dir.path().join("wrong.epd");
    std::fs::write(&wrong, format!("{START_EPD} ;D1 20 ;D2 401\n")).unwrap();
    let (code, out, _) = chessbits(&["perft", "--suite", wrong.to_str().unwrap(), "--json"]);
    assert_eq!(code, 1);
    let v = json(&out);
    assert_eq!((v["passed"].as_u64(), v["failed"].as_u64()), (Some(1), Some(1)));
}

/// Flags that would do nothing are usage errors (status 2), before anything runs.
#[test]
fn flags_that_do_nothing_are_errors() {
    let bare_kings = "8/8/8/4k3/8/8/8/4K3 w - - 0 1";
    let cases: [&[&str]; 8] = [
        &["perft", "--fen", bare_kings, "--max-depth", "3"],
        &["perft", "--max-depth", "3"],
        &["perft", "--suite", "x.epd", "--depth", "3"],
        &["perft", "--suite", "x.epd", "--divide"],
        &["perft", "--suite", "x.epd", "--fen", bare_kings],
        &["unpack", "x.cbits", "--game", "1", "--range", "1..2"],
        &["unpack", "x.cbits", "--game", "1", "--threads", "2"],
        &["unpack", "x.cbits", "--range", "1..2", "--threads", "2"],
    ];
    for args in cases {
        let (code, out, err) = chessbits(args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(out.is_empty(), "{args:?}: {out}");
        assert!(!err.is_empty());
    }
}

#[test]
fn bad_positions_and_usage_are_status_2() {
    for args in [
        &["show", "not a fen"][..],
        &["show", "8/8/8 w - -"],
        &["show", &format!("{START_EPD} id \"unclosed;")],
        &["show"],
        &[
            "moves",
            "--fen",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - x y",
        ],
        &["nonsense-command"],
    ] {
        let (code, out, err) = chessbits(args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(out.is_empty(), "{args:?}: {out}");
        assert!(!err.contains("panicked"), "{err}");
    }
}

#[test]
fn help_documents_the_exit_status_and_the_commands() {
    let (code, out, _) = chessbits(&["--help"]);
    assert_eq!(code, 0);
    assert!(out.contains("Exit status"), "{out}");
    for line in ["  0  ok", "  1  bad input found", "  2  usage or I/O error"] {
        assert!(out.contains(line), "{line:?}");
    }
    for command in ["show", "codecs", "info", "unpack", "pgn"] {
        assert!(out.contains(&format!("  {command} ")), "{command} missing in {out}");
    }
    // `stats` is now `codecs` (and `pgn stats` counts games).
    let (code, _, _) = chessbits(&["stats", "x.pgn"]);
    assert_eq!(code, 2);
    let (_, out, _) = chessbits(&["pgn", "--help"]);
    for command in ["stats", "filter", "positions", "check", "convert"] {
        assert!(out.contains(&format!("  {command} ")), "{command} missing in {out}");
    }
}

/// Quotes, backslashes, tabs and non-ASCII in EPD operations come out as valid JSON strings.
#[test]
fn show_json_escapes_what_it_echoes() {
    let epd = format!("{START_EPD} c0 \"a\\b\tc \u{e9}\u{1f600}\"; c1 \"\";");
    let (code, out, err) = chessbits(&["show", "--json", &epd]);
    assert_eq!(code, 0, "{err}");
    let v = json(&out);
    assert_eq!(v["operations"][0]["operands"], "\"a\\b\tc \u{e9}\u{1f600}\"");
    assert_eq!(v["operations"][1]["operands"], "\"\"");
    // A long line of garbage is a clean error.
    let garbage = "x/".repeat(30_000);
    for args in [
        &["show", "--json", &garbage][..],
        &["perft", "--json", "--fen", &garbage],
    ] {
        let (code, out, err) = chessbits(args);
        assert_eq!((code, out.as_str()), (2, ""));
        assert!(!err.contains("panicked"));
    }
}

#[test]
fn startpos_names_the_start_position() {
    let (code, out, err) = chessbits(&["show", "startpos"]);
    assert_eq!(code, 0, "{err}");
    let (_, expected, _) = chessbits(&["show", START_EPD]);
    assert_eq!(out, expected);
    let (code, out, err) = chessbits(&["moves", "--fen", "startpos"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("e4") || out.contains("e2e4"), "{out}");
    // Only the whole argument: `startpos moves e2e4` is not a position.
    let (code, _, _) = chessbits(&["show", "startpos e2e4"]);
    assert_eq!(code, 2);
}

/// The `x` and `y` of the square `name`'s rect in an SVG diagram.
fn svg_square_corner(svg: &str, name: &str) -> (u32, u32) {
    let at = [
        format!("class=\"square light {name}\""),
        format!("class=\"square dark {name}\""),
    ]
    .iter()
    .find_map(|c| svg.find(c.as_str()))
    .unwrap_or_else(|| panic!("no square {name} in {svg}"));
    let tag = &svg[at..at + svg[at..].find('>').unwrap()];
    let attr = |a: &str| -> u32 {
        let v = &tag[tag.find(&format!(" {a}=\"")).unwrap() + a.len() + 3..];
        v[..v.find('"').unwrap()].parse().unwrap()
    };
    (attr("x"), attr("y"))
}

#[test]
fn show_svg_draws_the_board() {
    let (code, out, err) = chessbits(&["show", "startpos", "--svg"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""), "{out}");
    assert!(out.ends_with("</svg>\n"), "{out}");
    assert_eq!(out.matches("<use class=\"piece ").count(), 32);
    assert!(out.contains("width=\"400\" height=\"400\""));
    assert_eq!(svg_square_corner(&out, "a8"), (30, 30));
    assert!(!out.contains("class=\"check") && !out.contains("last-move") && !out.contains("arrow"));

    // 1. e4 f6 2. d4 g5 3. Qh5+ from Black's side, with what the options add.
    let fen = "rnbqkbnr/ppppp2p/5p2/6pQ/3PP3/8/PPP2PPP/RNB1KBNR b KQkq - 1 3";
    let (code, out, err) = chessbits(&[
        "show",
        fen,
        "--svg",
        "--flip",
        "--last-move",
        "d1h5",
        "--arrows",
        "Ga1a8, Re2e4",
        "--squares",
        "Gd4,Rf7",
        "--size",
        "240",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("width=\"240\" height=\"240\""));
    assert_eq!(out.matches("<use class=\"piece ").count(), 32);
    assert_eq!(
        svg_square_corner(&out, "h1"),
        (30, 30),
        "Black at the bottom: h1 top-left"
    );
    assert_eq!(svg_square_corner(&out, "a1"), (730, 30));
    assert!(out.contains("class=\"last-move d1\"") && out.contains("class=\"last-move h5\""));
    assert!(out.contains("class=\"check e8\""), "the king in check");
    assert!(out.contains("class=\"arrow green a1a8\"") && out.contains("class=\"arrow red e2e4\""));
    assert!(out.contains("class=\"mark green d4\"") && out.contains("class=\"mark red f7\""));
    // The FEN rides along as the description.
    assert!(out.contains(&format!("<desc>{fen}</desc>")));
}

#[test]
fn show_svg_refuses_bad_options() {
    for (args, message) in [
        (&["--arrows", "Gd4"][..], "is a square, not an arrow"),
        (&["--squares", "Ge2e4"], "is an arrow, not a square"),
        (&["--arrows", "Xa1a2"], "bad arrow or square \"Xa1a2\""),
        (&["--arrows", "Ga1a8,"], "bad arrow or square \"\""),
        (&["--last-move", "e2"], "--last-move \"e2\""),
        (&["--last-move", "e2e9"], "expected a move in UCI"),
        (&["--last-move", "e7e8k"], "expected a move in UCI"),
        (&["--size", "0"], "--size"),
        (&["--size", "huge"], "--size"),
        (&["--json"], "cannot be used with"),
    ] {
        let mut all = vec!["show", "startpos", "--svg"];
        all.extend_from_slice(args);
        let (code, out, err) = chessbits(&all);
        assert_eq!((code, out.as_str()), (2, ""), "{args:?}: {err}");
        assert!(err.contains(message), "{args:?}: {err}");
    }
    // The picture's options without --svg do nothing: refused, as every such flag is.
    for option in [&["--flip"][..], &["--arrows", "Ga1a8"], &["--size", "100"]] {
        let mut all = vec!["show", "startpos"];
        all.extend_from_slice(option);
        let (code, _, err) = chessbits(&all);
        assert_eq!(code, 2, "{option:?}");
        assert!(err.contains("--svg"), "{option:?}: {err}");
    }
}
