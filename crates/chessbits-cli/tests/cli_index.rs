//! `chessbits index build|info`, `explore` and `search`: the lichess
//! JSON shape, the counts against `search`, exit statuses, hostile input.

use crate::common;

use std::path::Path;

use common::{chessbits, testdata_path};
use serde_json::Value;

/// Builds an index of `input` at `dir/index`; returns its path as a string.
fn build(input: &Path, dir: &Path) -> String {
    let out = dir.join("index");
    let (code, _, stderr) = chessbits(&["index", "build", input.to_str().unwrap(), "-o", out.to_str().unwrap()]);
    assert!(code <= 1, "{stderr}");
    out.to_str().unwrap().to_string()
}

fn json(args: &[&str]) -> Value {
    let (code, stdout, stderr) = chessbits(args);
    assert_eq!(code, 0, "{stderr}");
    serde_json::from_str(&stdout).unwrap()
}

const GAMES: &str = "\
[Event \"a\"]\n[White \"Ann\"]\n[Black \"Bob\"]\n[WhiteElo \"1650\"]\n[BlackElo \"1750\"]\n[TimeControl \"180+2\"]\n[UTCDate \"2024.03.07\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Nf3 Nc6 1-0\n\n\
[Event \"b\"]\n[White \"Bob\"]\n[Black \"Cy\"]\n[Result \"1/2-1/2\"]\n\n1. Nf3 Nc6 2. e4 e5 3. Ng1 Nb8 4. Nf3 Nc6 1/2-1/2\n\n\
[Event \"c\"]\n[White \"Cy\"]\n[Black \"Ann\"]\n[Result \"*\"]\n\n1. e4 e5 *\n";

#[test]
fn explore_prints_the_lichess_shape_and_counts_per_game() {
    let dir = tempfile::tempdir().unwrap();
    let pgn = dir.path().join("games.pgn");
    std::fs::write(&pgn, GAMES).unwrap();
    let index = build(&pgn, dir.path());
    let value = json(&["explore", &index, "--moves", "e4 e5", "--json"]);
    // All three games reach it (b by 1. Nf3 Nc6 2. e4 e5 3. Ng1 Nb8); c has no result and is
    // not counted.
    assert_eq!(
        (
            value["white"].as_u64(),
            value["draws"].as_u64(),
            value["black"].as_u64()
        ),
        (Some(1), Some(1), Some(0))
    );
    let moves = value["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 1);
    assert_eq!(
        (moves[0]["uci"].as_str(), moves[0]["san"].as_str()),
        (Some("g1f3"), Some("Nf3"))
    );
    assert_eq!(
        (moves[0]["white"].as_u64(), moves[0]["draws"].as_u64()),
        (Some(1), Some(1))
    );
    assert_eq!(moves[0]["averageRating"].as_u64(), Some(1700), "only game a is rated");
    assert!(moves[0]["game"].is_null(), "two games");
    assert_eq!(value["opening"]["eco"].as_str(), Some("C20"));
    assert!(value["topGames"].is_array() && value["recentGames"].is_array());
    // After 2. Nf3 Nc6 (game b gets there by transposition, twice): one count per game.
    let value = json(&["explore", &index, "--moves", "e4 e5 Nf3 Nc6", "--json"]);
    assert_eq!((value["white"].as_u64(), value["draws"].as_u64()), (Some(1), Some(1)));
    let moves = value["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 1, "game b's first visit played Ng1");
    assert_eq!(moves[0]["uci"].as_str(), Some("f3g1"));
    // One game: lichess shows it.
    assert_eq!(moves[0]["game"]["white"]["name"].as_str(), Some("Bob"));
    // Filters as lichess names them.
    let blitz = json(&[
        "explore",
        &index,
        "--moves",
        "e4 e5",
        "--speeds",
        "blitz",
        "--ratings",
        "1600",
        "--json",
    ]);
    assert_eq!((blitz["white"].as_u64(), blitz["draws"].as_u64()), (Some(1), Some(0)));
    let bob = json(&[
        "explore",
        &index,
        "--moves",
        "e4 e5 Nf3 Nc6",
        "--player",
        "bob",
        "--json",
    ]);
    assert_eq!((bob["white"].as_u64(), bob["draws"].as_u64()), (Some(1), Some(1)));
    let since = json(&["explore", &index, "--since", "2024-04", "--json"]);
    assert_eq!(since["white"].as_u64().unwrap() + since["draws"].as_u64().unwrap(), 0);
}

#[test]
fn search_finds_every_game_with_its_plies_and_prints_their_text() {
    let dir = tempfile::tempdir().unwrap();
    let pgn = dir.path().join("games.pgn");
    std::fs::write(&pgn, GAMES).unwrap();
    let index = build(&pgn, dir.path());
    let value = json(&["search", &index, "--moves", "e4 e5 Nf3 Nc6", "--json"]);
    assert_eq!(value["total"].as_u64(), Some(2));
    let games = value["games"].as_array().unwrap();
    assert_eq!(games[0]["plies"], serde_json::json!([4]));
    assert_eq!(games[1]["plies"], serde_json::json!([4, 8]), "reached twice");
    assert_eq!(games[1]["event"].as_str(), Some("b"));
    assert_eq!(games[1]["source"]["line"].as_u64(), Some(12));
    // --pgn: the games' bytes as they stand in the file.
    let (code, stdout, _) = chessbits(&["search", &index, "--moves", "e4 e5", "--pgn"]);
    assert_eq!(code, 0);
    let a = &GAMES[..GAMES.find("1-0\n").unwrap() + 3];
    assert!(stdout.starts_with(a), "{stdout}");
    assert!(stdout.contains("[Event \"c\"]\n[White \"Cy\"]\n[Black \"Ann\"]\n[Result \"*\"]\n\n1. e4 e5 *"));
    // Pages and order.
    let page = json(&[
        "search", &index, "--limit", "1", "--offset", "1", "--sort", "date", "--json",
    ]);
    assert_eq!(
        (page["total"].as_u64(), page["games"].as_array().unwrap().len()),
        (Some(3), 1)
    );
    // A changed source: the text is refused, not misprinted.
    std::fs::write(&pgn, GAMES.replace("Ann", "Anna")).unwrap();
    let (code, _, stderr) = chessbits(&["search", &index, "--pgn"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("changed since it was indexed"), "{stderr}");
}

#[test]
fn bad_positions_exit_2_and_unknown_positions_are_empty() {
    let dir = tempfile::tempdir().unwrap();
    let pgn = dir.path().join("games.pgn");
    std::fs::write(&pgn, GAMES).unwrap();
    let index = build(&pgn, dir.path());
    for args in [
        vec!["explore", &index, "--moves", "e4 Ke7"],
        vec!["search", &index, "--fen", "8/8/8/8/8/8/8/8 w - - 0 1"],
        vec!["explore", &index, "--speeds", "lightning"],
        vec!["explore", &index, "--ratings", "1700"],
        vec!["search", &index, "--since", "2024-13"],
    ] {
        let (code, stdout, stderr) = chessbits(&args);
        assert_eq!(code, 2, "{args:?}: {stderr}");
        assert!(stdout.is_empty() && stderr.starts_with("chessbits: "), "{stderr}");
    }
    let (code, stdout, stderr) = chessbits(&["explore", &index, "--moves", "a3 a6 b3 b6 c3 c6", "--json"]);
    assert_eq!(code, 0, "{stderr}");
    let value: Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(value["moves"].as_array().unwrap().len(), 0);
    let value = json(&["search", &index, "--moves", "a3", "--json"]);
    assert_eq!(value["total"].as_u64(), Some(0));
    // Not an index.
    let (code, _, stderr) = chessbits(&["explore", dir.path().to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(stderr.contains("manifest.json"), "{stderr}");
}

#[test]
fn damaged_index_files_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let index = build(&testdata_path().join("pgn"), dir.path());
    let positions = Path::new(&index).join("positions/part-00000.parquet");
    let bytes = std::fs::read(&positions).unwrap();
    // Truncated: refused at open.
    std::fs::write(&positions, &bytes[..bytes.len() - 100]).unwrap();
    let (code, _, stderr) = chessbits(&["search", &index, "--moves", "e4"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("truncated"), "{stderr}");
    // A byte changed in the middle: `index info --verify` names the file.
    let mut flipped = bytes.clone();
    flipped[bytes.len() / 3] ^= 0x40;
    std::fs::write(&positions, &flipped).unwrap();
    let (code, _, stderr) = chessbits(&["index", "info", &index, "--verify"]);
    assert_eq!(code, 2);
    assert!(
        stderr.contains("positions/part-00000.parquet") && stderr.contains("checksum"),
        "{stderr}"
    );
    // The manifest damaged or gone.
    std::fs::write(
        Path::new(&index).join("manifest.json"),
        "{\"format\": \"chessbits-index\", \"version\": 9}",
    )
    .unwrap();
    let (code, _, stderr) = chessbits(&["index", "info", &index]);
    assert_eq!(code, 2);
    assert!(stderr.contains("version"), "{stderr}");
}

#[test]
fn build_refuses_a_full_output_and_reports_bad_games() {
    let dir = tempfile::tempdir().unwrap();
    let pgn = dir.path().join("games.pgn");
    std::fs::write(&pgn, format!("{GAMES}\n1. e4 e4 *\n")).unwrap();
    let out = dir.path().join("index");
    let (code, stdout, stderr) = chessbits(&[
        "index",
        "build",
        pgn.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
        "--json",
    ]);
    assert_eq!(code, 1, "a game not read: status 1");
    assert!(stderr.contains("games.pgn:26: illegal move 'e4'"), "{stderr}");
    let summary: Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(
        (summary["games"].as_u64(), summary["errors"].as_u64()),
        (Some(3), Some(1))
    );
    // Again onto the finished index: refused, the index untouched.
    let before = std::fs::read(out.join("manifest.json")).unwrap();
    let (code, _, stderr) = chessbits(&["index", "build", pgn.to_str().unwrap(), "-o", out.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(stderr.contains("exists and is not an empty directory"), "{stderr}");
    assert_eq!(std::fs::read(out.join("manifest.json")).unwrap(), before);
    // Nothing left beside it.
    let names: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names.len(), 2, "{names:?}");
    // --force replaces it.
    let (code, _, _) = chessbits(&[
        "index",
        "build",
        pgn.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
        "--force",
    ]);
    assert_eq!(code, 1);
    let info = json(&["index", "info", out.to_str().unwrap(), "--verify", "--json"]);
    assert_eq!(info["games"].as_u64(), Some(3));
}

/// The answers of the index to a few queries, as JSON text.
fn answers(index: &str) -> String {
    let mut out = String::new();
    for moves in ["", "e4", "e4 c5", "d4 d5 c4"] {
        for command in ["explore", "search"] {
            let (code, stdout, stderr) = chessbits(&[command, index, "--moves", moves, "--json"]);
            assert_eq!(code, 0, "{stderr}");
            out.push_str(&stdout);
        }
    }
    out
}

#[test]
fn add_gives_the_index_a_build_of_everything_gives() {
    let dir = tempfile::tempdir().unwrap();
    let pgn = testdata_path().join("pgn");
    let (first, second) = (
        pgn.join("notnil_Carlsen.pgn"),
        pgn.join("shakmaty_lichess_db_1000k.pgn"),
    );
    let both = dir.path().join("both");
    std::fs::create_dir(&both).unwrap();
    std::fs::copy(&first, both.join("a.pgn")).unwrap();
    std::fs::copy(&second, both.join("b.pgn")).unwrap();
    let all = dir.path().join("all");
    let (code, _, stderr) = chessbits(&["index", "build", both.to_str().unwrap(), "-o", all.to_str().unwrap()]);
    assert_eq!(code, 0, "{stderr}");
    let grown = dir.path().join("grown");
    let (code, _, stderr) = chessbits(&[
        "index",
        "build",
        both.join("a.pgn").to_str().unwrap(),
        "-o",
        grown.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{stderr}");
    let (code, _, stderr) = chessbits(&[
        "index",
        "add",
        grown.to_str().unwrap(),
        both.join("b.pgn").to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(answers(grown.to_str().unwrap()), answers(all.to_str().unwrap()));
    let info = json(&["index", "info", grown.to_str().unwrap(), "--verify", "--json"]);
    assert_eq!(info["tables"]["explorer"]["files"].as_u64(), Some(2));
}

#[cfg(unix)]
#[test]
fn add_killed_at_any_point_leaves_the_index_as_it_was() {
    use std::process::{Command, Stdio};
    use std::time::Duration;

    let dir = tempfile::tempdir().unwrap();
    let pgn = testdata_path().join("pgn/notnil_twic0920.pgn");
    let index = dir.path().join("index");
    let (code, _, stderr) = chessbits(&["index", "build", pgn.to_str().unwrap(), "-o", index.to_str().unwrap()]);
    assert_eq!(code, 0, "{stderr}");
    let index = index.to_str().unwrap().to_string();
    let before = answers(&index);
    // A bigger input: the bundled games ten times over.
    let big = dir.path().join("big.pgn");
    let mut text = Vec::new();
    for _ in 0..10 {
        for file in [
            "notnil_Carlsen.pgn",
            "shakmaty_lichess_db_1000k.pgn",
            "shakmaty_twic1599_1000k.pgn",
        ] {
            text.extend(std::fs::read(testdata_path().join("pgn").join(file)).unwrap());
            text.extend(b"\n\n");
        }
    }
    std::fs::write(&big, text).unwrap();
    let mut finished = false;
    let mut killed = 0;
    for delay_ms in [5u64, 30, 80, 150, 250, 400, 600, 900, 1300, 1800, 2500] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_chessbits"))
            .args(["index", "add", &index, big.to_str().unwrap()])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(Duration::from_millis(delay_ms));
        let _ = child.kill(); // SIGKILL
        let status = child.wait().unwrap();
        let now = answers(&index);
        let games = json(&["index", "info", &index, "--json"])["games"].as_u64().unwrap();
        if status.success() || games != 100 {
            // It finished (or was killed after replacing the manifest): the games are there,
            // all of them, once.
            assert_eq!(
                games,
                100 + 10 * (100 + 120 + 100),
                "killed after {delay_ms} ms: a part of the games"
            );
            finished = true;
            break;
        }
        assert_eq!(now, before, "killed after {delay_ms} ms: the index changed");
        killed += 1;
    }
    assert!(killed >= 3, "only {killed} adds were killed before they finished");
    // An add run to the end after all that: the games once, whatever was left behind.
    if !finished {
        let (code, _, stderr) = chessbits(&["index", "add", &index, big.to_str().unwrap()]);
        assert_eq!(code, 0, "{stderr}");
    }
    let info = json(&["index", "info", &index, "--verify", "--json"]);
    let games = info["games"].as_u64().unwrap();
    assert_eq!(games, 100 + 10 * (100 + 120 + 100));
    assert_ne!(answers(&index), before);
}

/// `index build` from a `.cbits` archive (known by its content, whatever its name) and from a
/// Parquet export directory (partitioned): the same answers as from the PGN, and `search --pgn`
/// prints each game (the archive's as `unpack` writes it, the export's rebuilt from its row:
/// the input's text).
#[test]
fn build_from_an_archive_and_an_export() {
    let dir = tempfile::tempdir().unwrap();
    let pgn = dir.path().join("games.pgn");
    std::fs::write(&pgn, GAMES).unwrap();
    let path = |name: &str| dir.path().join(name).to_str().unwrap().to_string();
    for sub in ["p", "a", "e"] {
        std::fs::create_dir(dir.path().join(sub)).unwrap();
    }
    let from_pgn = build(&pgn, &dir.path().join("p"));

    let archive = path("games.bin");
    let (code, _, stderr) = chessbits(&["pack", pgn.to_str().unwrap(), "-o", &archive]);
    assert_eq!(code, 0, "{stderr}");
    let export = path("export");
    let (code, _, stderr) = chessbits(&[
        "export",
        pgn.to_str().unwrap(),
        "-o",
        &export,
        "--partition",
        "year,month",
    ]);
    assert_eq!(code, 0, "{stderr}");
    let (_, unpacked, _) = chessbits(&["unpack", &archive]);

    for (input, name) in [(&archive, "a"), (&export, "e")] {
        let index = build(Path::new(input), &dir.path().join(name));
        for moves in ["e4 e5", "e4 e5 Nf3 Nc6", "Nf3 Nc6 e4 e5 Ng1"] {
            let args = |index: &str| -> Vec<String> {
                ["explore", index, "--moves", moves, "--json"]
                    .map(String::from)
                    .to_vec()
            };
            let run = |index: &str| {
                let args = args(index);
                json(&args.iter().map(String::as_str).collect::<Vec<_>>())
            };
            let (got, want) = (run(&index), run(&from_pgn));
            for field in ["white", "draws", "black", "moves"] {
                assert_eq!(got[field], want[field], "{input} {moves} {field}");
            }
            let found = json(&["search", &index, "--moves", moves, "--json"]);
            let expected = json(&["search", &from_pgn, "--moves", moves, "--json"]);
            assert_eq!(found["total"], expected["total"], "{input} {moves}");
        }
        let (code, stdout, stderr) = chessbits(&["search", &index, "--moves", "e4 e5", "--pgn"]);
        assert_eq!(code, 0, "{stderr}");
        assert!(stderr.contains("3 of 3 games"), "{stderr}");
        if name == "a" {
            // Every game as unpack writes it, in the archive's order.
            let printed = stdout.replace("\n\n\n\n", "\n\n");
            assert_eq!(printed, unpacked);
        } else {
            // Rebuilt from the rows (export version 2): each game as it was written, tags in
            // the file's order (the rows' `annotations` keep an order the columns cannot).
            for game in GAMES.split("\n\n[").map(|g| g.trim_start_matches('[')) {
                let game = format!("[{}", game.trim_end());
                assert!(stdout.contains(&game), "{game:?} in {stdout}");
            }
        }
    }
}

/// Damaged archives and exports: a clear error and exit status 2, never a panic.
#[test]
fn build_refuses_damaged_archives_and_exports() {
    let dir = tempfile::tempdir().unwrap();
    let pgn = dir.path().join("games.pgn");
    std::fs::write(&pgn, GAMES).unwrap();
    let path = |name: &str| dir.path().join(name).to_str().unwrap().to_string();
    let archive = path("games.cbits");
    assert_eq!(chessbits(&["pack", pgn.to_str().unwrap(), "-o", &archive]).0, 0);
    let mut bytes = std::fs::read(&archive).unwrap();
    let archive_bytes = bytes.clone();
    let block = bytes.windows(4).position(|w| w == b"CBLK").unwrap();
    let last = bytes.len() - 1;
    bytes[(block + 60).min(last)] ^= 0xff;
    std::fs::write(&archive, &bytes).unwrap();
    let (code, _, stderr) = chessbits(&["index", "build", &archive, "-o", &path("i1")]);
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains("games.cbits") && stderr.contains("damaged archive"),
        "{stderr}"
    );
    assert!(!dir.path().join("i1").exists());

    let export = path("export");
    assert_eq!(chessbits(&["export", pgn.to_str().unwrap(), "-o", &export]).0, 0);
    let part = dir.path().join("export/part-0.parquet");
    let bytes = std::fs::read(&part).unwrap();
    std::fs::write(&part, &bytes[..bytes.len() - 20]).unwrap();
    let (code, _, stderr) = chessbits(&["index", "build", &export, "-o", &path("i2")]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("part-0.parquet"), "{stderr}");
    assert!(!dir.path().join("i2").exists());
    // A part file named alone: refused, not read as PGN.
    let part = part.to_str().unwrap();
    let (code, _, stderr) = chessbits(&["index", "build", part, "-o", &path("i3")]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("give the export's directory"), "{stderr}");
    // A gzip-compressed archive: refused (its games could not be read back by number).
    let gz = path("games.cbits.gz");
    let file = std::fs::File::create(&gz).unwrap();
    let mut encoder = flate2::write::GzEncoder::new(file, flate2::Compression::fast());
    std::io::Write::write_all(&mut encoder, &archive_bytes).unwrap();
    encoder.finish().unwrap();
    let (code, _, stderr) = chessbits(&["index", "build", &gz, "-o", &path("i4")]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("a compressed .cbits archive"), "{stderr}");
}

/// `chessbits index info INDEX | head` and the same for `explore`: a reader that goes away is no
/// error (status 0, nothing on stderr), never a panic.
#[test]
fn a_closed_stdout_ends_index_commands_quietly() {
    let dir = tempfile::tempdir().unwrap();
    let pgn = dir.path().join("games.pgn");
    std::fs::write(&pgn, GAMES).unwrap();
    let index = build(&pgn, dir.path());
    let commands: [&[&str]; 3] = [
        &["index", "info", &index],
        &["explore", &index, "--moves", "e4"],
        &["explore", &index, "--json"],
    ];
    for args in commands {
        let (code, stderr) = common::chessbits_closed_stdout(args);
        assert_eq!(code, Some(0), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    }
}
