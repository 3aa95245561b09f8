//! `chessbits pgn stats`, `pgn filter` and `pgn positions` on the bundled games and on hostile
//! inputs built here: counts, `--json`, byte-for-byte output, exit statuses.

use crate::common;

use std::path::{Path, PathBuf};

use chessbits::pgn::PgnReader;
use common::{chessbits, testdata_path};
use serde_json::Value;

fn json(text: &str) -> Value {
    serde_json::from_str(text.trim()).unwrap_or_else(|e| panic!("{e}: {text:?}"))
}

fn pgn(name: &str) -> PathBuf {
    testdata_path().join("pgn").join(name)
}

fn s(path: &Path) -> &str {
    path.to_str().unwrap()
}

/// 100 games of Carlsen's (CRLF line breaks, ECO tags, no Opening tags).
fn carlsen() -> PathBuf {
    pgn("notnil_Carlsen.pgn")
}

/// 120 lichess games (Opening, ECO, Termination and Elo tags).
fn lichess() -> PathBuf {
    pgn("shakmaty_lichess_db_1000k.pgn")
}

/// Every game's bytes as the reader cuts them.
fn raw_games(bytes: &[u8]) -> Vec<Vec<u8>> {
    let mut reader = PgnReader::new(bytes);
    let mut games = Vec::new();
    let mut game = Vec::new();
    while reader.read_raw_game(&mut game).unwrap().is_some() {
        games.push(std::mem::take(&mut game));
    }
    games
}

/// Two good games around one with an illegal move (line 9).
const WITH_A_BAD_GAME: &str = "[White \"A\"]\n[Black \"B\"]\n[Result \"1-0\"]\n\n1. e4 e5 1-0\n\n\
                               [White \"C\"]\n\n1. e4 e5 2. Ke3 *\n\n\
                               [White \"A\"]\n[Black \"D\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n";

#[test]
fn stats_counts_results_lengths_players_openings() {
    let (code, out, err) = chessbits(&["pgn", "stats", "--json", "--top", "3", s(&lichess())]);
    assert_eq!(code, 0, "{err}");
    let v = json(&out);
    assert_eq!((v["games"].as_u64(), v["errors"].as_u64()), (Some(120), Some(0)));
    let results = &v["results"];
    let sum: u64 = ["1-0", "0-1", "1/2-1/2", "*"]
        .iter()
        .map(|r| results[r].as_u64().unwrap())
        .sum();
    assert_eq!(sum, 120);
    let plies = &v["plies"];
    let (min, median, max) = (
        plies["min"].as_u64().unwrap(),
        plies["median"].as_u64().unwrap(),
        plies["max"].as_u64().unwrap(),
    );
    let mean = plies["mean"].as_f64().unwrap();
    assert!(
        min <= median && median <= max && min as f64 <= mean && mean <= max as f64,
        "{plies}"
    );
    assert_eq!(v["openings"].as_array().unwrap().len(), 3);
    assert_eq!(v["openings"][0]["name"], "Modern Defense");
    assert_eq!(v["eco"]["from_tag"], 120);
    assert!(v["terminations"]
        .as_array()
        .unwrap()
        .iter()
        .any(|t| t["name"] == "Time forfeit"));
    // Text mode says the same.
    let (code, out, _) = chessbits(&["pgn", "stats", s(&lichess())]);
    assert_eq!(code, 0);
    assert!(out.starts_with("games 120 (0 with errors"), "{out}");
    assert!(out.contains("from the ECO tag"), "{out}");
}

#[test]
fn stats_classifies_games_without_an_eco_tag_and_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("untagged.pgn");
    let games = "[White \"X\"]\n\n1. e4 c5 2. Nf3 d6 3. d4 cxd4 4. Nxd4 Nf6 5. Nc3 a6 6. a3 *\n\n\
                 [ECO \"C20\"]\n\n1. e4 e5 *\n\n[White \"Y\"]\n\n1. a3 h5 2. h4 a5 3. Ra2 Rh6 *\n";
    std::fs::write(&file, games).unwrap();
    let (code, out, err) = chessbits(&["pgn", "stats", "--json", s(&file)]);
    assert_eq!(code, 0, "{err}");
    let v = json(&out);
    assert_eq!(
        (v["eco"]["from_tag"].as_u64(), v["eco"]["classified"].as_u64()),
        (Some(1), Some(2))
    );
    let top = v["eco"]["top"].as_array().unwrap();
    assert!(top.iter().any(|e| e["name"] == "B90"), "{top:?}");
    assert!(top.iter().any(|e| e["name"] == "C20"), "{top:?}");
    // 1. a3 h5 is Anderssen's Opening (A00) by the lichess tables.
    assert!(top.iter().any(|e| e["name"] == "A00"), "{top:?}");
}

#[test]
fn stats_of_directories_compressed_and_bad_input() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("bad.pgn"), WITH_A_BAD_GAME).unwrap();
    let gz = {
        use std::io::Write;
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        e.write_all(&std::fs::read(carlsen()).unwrap()).unwrap();
        e.finish().unwrap()
    };
    std::fs::write(dir.path().join("carlsen.pgn.gz"), gz).unwrap();
    std::fs::write(dir.path().join("empty.pgn"), "").unwrap();
    let (code, out, err) = chessbits(&["pgn", "stats", "--json", s(dir.path())]);
    assert_eq!(code, 1, "a bad game is bad input: {err}");
    let v = json(&out);
    assert_eq!((v["games"].as_u64(), v["errors"].as_u64()), (Some(103), Some(1)));
    let bad = dir.path().join("bad.pgn");
    assert_eq!(
        v["error_messages"][0],
        format!("{}:9: illegal move 'Ke3'", bad.display())
    );
    assert!(err.contains("bad.pgn:9: illegal move"), "{err}");
    assert!(v["final_position"]["checkmate"].as_u64().unwrap() >= 1);
    // A file that cannot be read is an I/O error.
    let (code, out, err) = chessbits(&["pgn", "stats", "/nonexistent/x.pgn"]);
    assert_eq!((code, out.as_str()), (2, ""), "{err}");
    // UTF-16 is refused.
    let utf16: Vec<u8> = "[Event \"x\"]\n\n1. e4 *\n"
        .encode_utf16()
        .flat_map(u16::to_le_bytes)
        .collect();
    let file = dir.path().join("utf16.txt");
    std::fs::write(&file, utf16).unwrap();
    let (code, _, err) = chessbits(&["pgn", "stats", s(&file)]);
    assert_eq!(code, 2);
    assert!(err.contains("UTF-16"), "{err}");
}

#[test]
fn filter_writes_the_input_bytes_of_the_matching_games() {
    let input = std::fs::read(carlsen()).unwrap();
    let games = raw_games(&input);
    assert_eq!(games.len(), 100);
    let (code, out, err) = chessbits(&["pgn", "filter", s(&carlsen()), "--black", "carlsen", "--json"]);
    assert_eq!(code, 0, "{err}");
    let summary = json(&err);
    assert_eq!(summary["games"], 100);
    let matched = summary["matched"].as_u64().unwrap() as usize;
    let expected: Vec<&Vec<u8>> = games
        .iter()
        .filter(|g| {
            let text = String::from_utf8_lossy(g);
            text.lines().any(|l| l.starts_with("[Black \"Carlsen"))
        })
        .collect();
    assert!(matched > 10 && matched < 100, "{matched}");
    assert_eq!(matched, expected.len());
    // The file has CR LF line breaks: so do the blank lines between games.
    let mut want = Vec::new();
    for (i, game) in expected.iter().enumerate() {
        if i > 0 {
            want.extend_from_slice(b"\r\n\r\n");
        }
        want.extend_from_slice(game);
    }
    want.extend_from_slice(b"\r\n");
    let out = out.into_bytes();
    assert!(out.windows(2).any(|w| w == b"\r\n"), "CRLF line breaks are kept");
    assert_eq!(out, want);
}

#[test]
fn filter_conditions() {
    let count = |args: &[&str]| {
        let mut all = vec!["pgn", "filter", "-o", "/dev/null", "--json"];
        all.extend_from_slice(args);
        let (code, _, err) = chessbits(&all);
        assert_eq!(code, 0, "{args:?}: {err}");
        json(&err)["matched"].as_u64().unwrap()
    };
    let l = lichess();
    let l = s(&l);
    let all = count(&[l]);
    assert_eq!(all, 120);
    let (white, black, draw, unknown) = (
        count(&[l, "--result", "1-0"]),
        count(&[l, "--result", "0-1"]),
        count(&[l, "--result", "1/2-1/2"]),
        count(&[l, "--result", "*"]),
    );
    assert_eq!(white + black + draw + unknown, 120);
    assert!(white > 0 && black > 0);
    // ECO: a range is the union of its parts; a prefix is a range.
    let (a, b, c, d, e) = (
        count(&[l, "--eco", "A"]),
        count(&[l, "--eco", "B"]),
        count(&[l, "--eco", "C"]),
        count(&[l, "--eco", "D"]),
        count(&[l, "--eco", "E"]),
    );
    assert_eq!(a + b + c + d + e, 120);
    assert_eq!(count(&[l, "--eco", "A00-B99"]), a + b);
    assert_eq!(count(&[l, "--eco", "a00-b99"]), a + b);
    assert_eq!(count(&[l, "--eco", "C00-C99"]), c);
    assert!(count(&[l, "--eco", "A00"]) >= 1);
    // Elo bounds hold for both players: the two halves of a split add up to at most all.
    let low = count(&[l, "--elo-max", "1499"]);
    let high = count(&[l, "--elo-min", "1500"]);
    assert!(low + high <= 120 && low > 0 && high > 0, "{low} {high}");
    assert_eq!(count(&[l, "--elo-min", "1500", "--elo-max", "1400"]), 0);
    // Plies.
    let short = count(&[l, "--max-plies", "40"]);
    let long = count(&[l, "--min-plies", "41"]);
    assert_eq!(short + long, 120);
    assert_eq!(count(&[l, "--min-plies", "1", "--max-plies", "0"]), 0);
    // Tags, players, openings.
    assert_eq!(count(&[l, "--tag", "Termination=Time forfeit"]), 36);
    assert_eq!(
        count(&[l, "--tag", "Termination=Time forfeit", "--tag", "Termination=Normal"]),
        0
    );
    assert_eq!(
        count(&[l, "--opening", "modern defense"]),
        count(&[l, "--opening", "Modern Defense"])
    );
    assert!(count(&[l, "--opening", "sicilian"]) > 0);
    let c = carlsen();
    let c = s(&c);
    let player = count(&[c, "--player", "Carlsen"]);
    assert_eq!(player, 100);
    assert_eq!(
        count(&[c, "--white", "carlsen"]) + count(&[c, "--black", "carlsen"]),
        100
    );
    // Carlsen's file has no Opening tags: --opening uses the classification of the moves.
    assert!(count(&[c, "--opening", "Sicilian Defense"]) > 0);
}

#[test]
fn filter_to_an_archive_and_back() {
    let dir = tempfile::tempdir().unwrap();
    let archive = dir.path().join("sicilians.cbits");
    let (code, _, err) = chessbits(&[
        "pgn",
        "filter",
        s(&lichess()),
        "--eco",
        "B20-B99",
        "--format",
        "cbits",
        "-o",
        s(&archive),
        "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    let matched = json(&err)["matched"].as_u64().unwrap();
    assert!(matched > 0);
    let (code, out, err) = chessbits(&["info", "--json", s(&archive)]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(json(&out)["games"].as_u64(), Some(matched));
}

#[test]
fn filter_errors_and_hostile_arguments() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.pgn");
    std::fs::write(&bad, WITH_A_BAD_GAME).unwrap();
    // The bad game matches nothing and is reported; status 1.
    let (code, out, err) = chessbits(&["pgn", "filter", s(&bad), "--player", "A"]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("bad.pgn:9: illegal move 'Ke3'"), "{err}");
    assert!(err.contains("3 games read, 2 matched, 1 errors"), "{err}");
    assert_eq!(out.matches("[White \"A\"]").count(), 2);
    // Usage errors: status 2, nothing written.
    for args in [
        &["--eco", "F00"][..],
        &["--eco", "B99-A00"],
        &["--eco", "B1x"],
        &["--tag", "novalue"],
        &["--tag", "=x"],
        &["--result", "2-0"],
        &["--elo-min", "-5"],
    ] {
        let mut all = vec!["pgn", "filter", s(&bad)];
        all.extend_from_slice(args);
        let (code, out, err) = chessbits(&all);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(out.is_empty(), "{args:?}");
    }
    // The output is an input: refused, the input kept.
    let (code, _, err) = chessbits(&["pgn", "filter", s(&bad), "-o", s(&bad)]);
    assert_eq!(code, 2);
    assert!(err.contains("same file"), "{err}");
    assert_eq!(std::fs::read_to_string(&bad).unwrap(), WITH_A_BAD_GAME);
    // A missing input leaves an existing output alone.
    let out_file = dir.path().join("out.pgn");
    std::fs::write(&out_file, "keep me").unwrap();
    let (code, _, _) = chessbits(&["pgn", "filter", s(&bad), "/nonexistent/x.pgn", "-o", s(&out_file)]);
    assert_eq!(code, 2);
    assert_eq!(std::fs::read_to_string(&out_file).unwrap(), "keep me");
}

#[test]
fn positions_lines_in_both_formats() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("two.pgn");
    std::fs::write(
        &file,
        "[Result \"0-1\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n\n\
         [SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\"]\n\n1. e4 Kd7 *\n",
    )
    .unwrap();
    let (code, out, err) = chessbits(&["pgn", "positions", s(&file)]);
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 5 + 3, "{out}");
    assert_eq!(lines[0], "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    assert_eq!(
        lines[4],
        "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3"
    );
    assert_eq!(lines[5], "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1");
    assert!(err.contains("2 games, 8 positions, 0 errors"), "{err}");

    let (_, out, _) = chessbits(&["pgn", "positions", s(&file), "--with-move", "--with-result"]);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 4 + 2, "the final positions have no move: {out}");
    assert_eq!(
        lines[0],
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1;f2f3;0-1"
    );
    assert_eq!(lines[5], "4k3/8/8/8/4P3/8/8/4K3 b - - 0 1;e8d7;*");

    let (_, out, _) = chessbits(&[
        "pgn",
        "positions",
        s(&file),
        "--format",
        "epd",
        "--with-move",
        "--with-result",
    ]);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines[0],
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - sm f3; c9 \"0-1\";"
    );
    assert_eq!(
        lines[3],
        "rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - sm Qh4#; c9 \"0-1\";"
    );
    // Each EPD line is read back by `show` with its operations.
    let (code, show, _) = chessbits(&["show", "--json", lines[3]]);
    assert_eq!(code, 0);
    assert_eq!(json(&show)["operations"][0]["operands"], "Qh4#");

    let (_, out, _) = chessbits(&[
        "pgn",
        "positions",
        s(&file),
        "--format",
        "epd",
        "--skip-plies",
        "1",
        "--every",
        "2",
    ]);
    let lines: Vec<&str> = out.lines().collect();
    // Game 1: positions 1 and 3 of 0..=4; game 2: position 1 of 0..=2.
    assert_eq!(lines.len(), 3, "{out}");
    assert_eq!(lines[2], "4k3/8/8/8/4P3/8/8/4K3 b - -");
}

#[test]
fn positions_of_real_games_and_bad_input() {
    let dir = tempfile::tempdir().unwrap();
    let out_file = dir.path().join("positions.fen");
    let (code, _, err) = chessbits(&[
        "pgn",
        "positions",
        s(&carlsen()),
        "-o",
        s(&out_file),
        "--json",
        "--with-move",
    ]);
    assert_eq!(code, 0, "{err}");
    let summary = json(&err);
    let text = std::fs::read_to_string(&out_file).unwrap();
    assert_eq!(summary["positions"].as_u64(), Some(text.lines().count() as u64));
    // One line per move played: the plies of `pgn check`.
    let (_, check, _) = chessbits(&["pgn", "check", "--json", s(&carlsen())]);
    assert_eq!(summary["positions"], json(&check)["plies"]);
    for line in text.lines().step_by(97) {
        let (fen, uci) = line.split_once(';').unwrap();
        let (code, moves, err) = chessbits(&["moves", "--fen", fen]);
        assert_eq!(code, 0, "{err}");
        assert!(moves.lines().any(|m| m == uci), "{line}");
    }
    let bad = dir.path().join("bad.pgn");
    std::fs::write(&bad, WITH_A_BAD_GAME).unwrap();
    let (code, out, err) = chessbits(&["pgn", "positions", s(&bad)]);
    assert_eq!(code, 1);
    assert_eq!(out.lines().count(), 3 + 5);
    assert!(err.contains("bad.pgn:9: illegal move 'Ke3'"), "{err}");
    // --every 0 and unknown formats are usage errors.
    for args in [&["--every", "0"][..], &["--format", "csv"], &["--skip-plies", "-1"]] {
        let mut all = vec!["pgn", "positions", s(&bad)];
        all.extend_from_slice(args);
        let (code, out, _) = chessbits(&all);
        assert_eq!((code, out.as_str()), (2, ""), "{args:?}");
    }
}

/// Latin-1 bytes, a comment over two lines, an escape line, odd spacing: the game comes out
/// exactly as it went in.
#[test]
fn filter_keeps_every_byte_of_odd_games() {
    let dir = tempfile::tempdir().unwrap();
    let first: &[u8] = b"[Event \"Caf\xe9\"]\n[White \"M\xfcller\"]\n[Result \"1-0\"]\n\n1. e4 {a comment\n  with \xff bytes}   e5\n%escaped line\n2.Nf3 $1 (2. d4) 1-0";
    let second: &[u8] = b"[Event \"x\"]\n[White \"Other\"]\n\n1. d4 *";
    let file = dir.path().join("odd.pgn");
    std::fs::write(&file, [first, b"\n\n\n", second, b"\n"].concat()).unwrap();
    let out_file = dir.path().join("out.pgn");
    let (code, _, err) = chessbits(&["pgn", "filter", s(&file), "--white", "m", "-o", s(&out_file)]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(std::fs::read(&out_file).unwrap(), [first, b"\n"].concat());
    // Both games, separated by one blank line.
    let (code, _, _) = chessbits(&["pgn", "filter", s(&file), "-o", s(&out_file)]);
    assert_eq!(code, 0);
    assert_eq!(
        std::fs::read(&out_file).unwrap(),
        [first, b"\n\n", second, b"\n"].concat()
    );
}

/// Every PGN file below `dir`, sorted.
fn pgn_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            pgn_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "pgn") {
            out.push(path);
        }
    }
}

/// `pgn filter` with no condition writes every readable game of every file of `root` as it
/// stands; `pgn positions` writes as many positions as the games have plies plus one.
fn filter_everything_is_identity(root: &Path) -> usize {
    let mut files = Vec::new();
    pgn_files(root, &mut files);
    let dir = tempfile::tempdir().unwrap();
    let out_file = dir.path().join("out.pgn");
    for file in &files {
        let (code, _, err) = chessbits(&["pgn", "filter", s(file), "-o", s(&out_file), "--json"]);
        let summary = json(err.lines().last().unwrap());
        assert_eq!(
            code,
            if summary["errors"] == 0 { 0 } else { 1 },
            "{}: {err}",
            file.display()
        );
        let input = std::fs::read(file).unwrap();
        let output = std::fs::read(&out_file).unwrap();
        let written = raw_games(&output);
        assert_eq!(
            written.len() as u64,
            summary["matched"].as_u64().unwrap(),
            "{}",
            file.display()
        );
        // Each game written is one of the input's games, byte for byte, in order.
        let mut inputs = raw_games(&input).into_iter();
        for game in &written {
            assert!(inputs.any(|g| g == *game), "{}: a game changed", file.display());
        }
    }
    files.len()
}

#[test]
fn filter_everything_is_identity_on_the_bundled_games() {
    assert!(filter_everything_is_identity(&testdata_path().join("pgn")) >= 4);
}

#[test]
#[ignore = "reads ../shared/data"]
fn shared_data_filter_everything_is_identity() {
    let root = common::shared_path().join("pgn");
    if root.exists() {
        assert!(filter_everything_is_identity(&root) >= 4);
    }
}

/// On the full corpora: `pgn stats` counts the games and errors `pgn check` counts, and its
/// results and lengths add up.
#[test]
#[ignore = "reads ../shared/data"]
fn shared_data_stats_agree_with_check() {
    let root = common::shared_path().join("pgn");
    if !root.exists() {
        return;
    }
    let (_, stats, _) = chessbits(&["pgn", "stats", "--json", s(&root)]);
    let (_, check, _) = chessbits(&["pgn", "check", "--json", s(&root)]);
    let (stats, check) = (json(&stats), json(&check));
    assert_eq!(stats["games"], check["games"]);
    assert_eq!(stats["errors"], check["errors"]);
    let results: u64 = ["1-0", "0-1", "1/2-1/2", "*"]
        .iter()
        .map(|r| stats["results"][r].as_u64().unwrap())
        .sum();
    assert_eq!(results, stats["counted"].as_u64().unwrap());
    let eco = &stats["eco"];
    let eco_sum: u64 = ["from_tag", "classified", "unknown"]
        .iter()
        .map(|k| eco[k].as_u64().unwrap())
        .sum();
    assert_eq!(eco_sum, results);
}
