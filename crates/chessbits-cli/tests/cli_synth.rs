//! `chessbits synth`: reproducible for a seed whatever the thread count, every game legal PGN
//! that our reader (and python-chess, where a venv has it) reads back with the plies the
//! summary counts, results that agree with the final position, lichess-like tags.

use crate::common;

use std::collections::{HashMap, HashSet};
use std::path::Path;
use std::process::{Command, Output, Stdio};

use chessbits::pgn::GameTree;
use common::chessbits;

/// Runs `chessbits args` in `dir` with `threads` rayon threads.
fn run(dir: &Path, threads: usize, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_chessbits"))
        .args(args)
        .current_dir(dir)
        .env("RAYON_NUM_THREADS", threads.to_string())
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

fn ok(out: &Output) -> String {
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "{stderr}");
    stderr
}

/// The same count and seed give the same bytes with 1, 2 and 3 threads and on standard output;
/// another seed gives another file.
#[test]
fn same_seed_same_bytes_for_any_thread_count() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // More than one batch of 64-game blocks, and a last block cut short.
    let args = |out: &'static str| ["synth", "--games", "9000", "--seed", "17", "-o", out];
    ok(&run(d, 1, &args("one.pgn")));
    ok(&run(d, 2, &args("two.pgn")));
    ok(&run(d, 3, &args("three.pgn")));
    let one = std::fs::read(d.join("one.pgn")).unwrap();
    assert!(one.len() > 9000 * 300, "{} bytes", one.len());
    assert!(one == std::fs::read(d.join("two.pgn")).unwrap());
    assert!(one == std::fs::read(d.join("three.pgn")).unwrap());
    let stdout = run(d, 2, &args("-"));
    ok(&stdout);
    assert!(stdout.stdout == one, "standard output differs from the file");
    ok(&run(
        d,
        2,
        &["synth", "--games", "9000", "--seed", "18", "-o", "other.pgn"],
    ));
    let other = std::fs::read(d.join("other.pgn")).unwrap();
    assert!(other != one);
    // No temporary file left behind.
    let names: Vec<String> = std::fs::read_dir(d)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(names.iter().all(|n| n.ends_with(".pgn")), "{names:?}");
}

/// The value of tag `name`.
fn tag(game: &GameTree, name: &str) -> String {
    game.tag(name).unwrap_or_else(|| panic!("no {name} tag")).into_owned()
}

/// 2,000 games: all read back without error, their plies add up to the summary's, each
/// result agrees with the final position, and the tags look like lichess's.
#[test]
fn every_game_reads_back_with_consistent_tags() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("synth.pgn");
    let stderr = ok(&run(
        dir.path(),
        2,
        &[
            "synth",
            "--games",
            "2000",
            "--seed",
            "1",
            "-o",
            file.to_str().unwrap(),
            "--json",
        ],
    ));
    let summary: serde_json::Value = serde_json::from_str(stderr.trim()).unwrap();
    assert_eq!(summary["games"], 2000);
    let mut games = Vec::new();
    for game in chessbits::pgn::read_file(&file).unwrap() {
        games.push(game.unwrap_or_else(|e| panic!("game {}: {e}", games.len() + 1)));
    }
    assert_eq!(games.len(), 2000);
    let plies: usize = games.iter().map(|g| g.mainline().count()).sum();
    assert_eq!(summary["plies"], plies as u64);
    // Realistic lengths: lichess averages 70 to 80 plies.
    let mean = plies as f64 / 2000.0;
    assert!((55.0..100.0).contains(&mean), "mean length {mean}");
    assert_eq!(summary["bytes"], std::fs::metadata(&file).unwrap().len());

    let (mut sites, mut appearances) = (HashSet::new(), HashMap::<String, usize>::new());
    let (mut mates, mut white_wins, mut draws, mut last_time) = (0, 0, 0, String::new());
    for game in &games {
        let pos = game.final_position();
        let result = tag(game, "Result");
        assert_eq!(game.declared_result().to_string(), result);
        let legal = pos.legal_moves().len();
        if legal == 0 && pos.is_check() {
            mates += 1;
            let winner = if pos.turn() == chessbits::types::Color::White {
                "0-1"
            } else {
                "1-0"
            };
            assert_eq!(result, winner);
        } else if legal == 0 {
            assert_eq!(result, "1/2-1/2", "stalemate");
        }
        white_wins += usize::from(result == "1-0");
        draws += usize::from(result == "1/2-1/2");
        let termination = tag(game, "Termination");
        assert!(
            termination == "Normal" || termination == "Time forfeit",
            "{termination}"
        );
        // The Event names the speed of the time control.
        let (event, tc) = (tag(game, "Event"), tag(game, "TimeControl"));
        let speed = match tc.as_str() {
            "60+0" => "Bullet",
            "180+0" | "180+2" | "300+0" | "300+3" => "Blitz",
            "600+0" | "600+5" | "900+10" => "Rapid",
            "1800+0" => "Classical",
            "-" => "Correspondence",
            other => panic!("time control {other}"),
        };
        assert!(
            event == format!("Rated {speed} game") || event == format!("Casual {speed} game"),
            "{event} / {tc}"
        );
        let site = tag(game, "Site");
        let id = site.strip_prefix("https://lichess.org/").unwrap();
        assert!(id.len() == 8 && id.bytes().all(|b| b.is_ascii_alphanumeric()), "{site}");
        assert!(sites.insert(site.clone()), "{site} twice");
        let (white, black) = (tag(game, "White"), tag(game, "Black"));
        assert_ne!(white, black);
        *appearances.entry(white).or_default() += 1;
        *appearances.entry(black).or_default() += 1;
        for elo in [tag(game, "WhiteElo"), tag(game, "BlackElo")] {
            let elo: u32 = elo.parse().unwrap();
            assert!((400..=3000).contains(&elo), "{elo}");
        }
        // In time order, within 2021 to 2024, Date = UTCDate.
        let (date, time) = (tag(game, "UTCDate"), tag(game, "UTCTime"));
        assert_eq!(tag(game, "Date"), date);
        assert!(("2021.01.01".."2025.01.01").contains(&date.as_str()), "{date}");
        let stamp = format!("{date} {time}");
        assert!(stamp >= last_time, "{stamp} after {last_time}");
        last_time = stamp;
        // The opening named is one the game reaches.
        let keys: Vec<u64> = {
            let mut p = chessbits::Position::startpos();
            let mut keys = vec![p.key()];
            for m in game.mainline() {
                p.play_unchecked(m);
                keys.push(p.key());
            }
            keys
        };
        let named = chessbits::eco::EcoTable::lichess().classify_keys(&keys).unwrap();
        assert_eq!(tag(game, "ECO"), named.eco);
        assert_eq!(tag(game, "Opening"), named.name);
    }
    assert!(mates > 0, "no game ended in mate");
    // White scores about half, draws are a minority.
    assert!((700..1300).contains(&white_wins), "{white_wins} white wins");
    assert!(draws < 400, "{draws} draws");
    // Players recur: a player search finds many games of the busiest names.
    let busiest = appearances.values().copied().max().unwrap();
    assert!(busiest >= 20, "busiest player in {busiest} games");
    assert!(appearances.len() >= 50, "{} players", appearances.len());
}

/// python-chess reads every game with the same number of moves (where a venv with it exists;
/// the `.ci/run` venvs have it).
#[test]
fn python_chess_reads_the_games() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target");
    let python = ["ci-venv", "py-venv-test"]
        .iter()
        .map(|venv| root.join(venv).join("bin/python"))
        .find(|python| {
            Command::new(python)
                .args(["-c", "import chess.pgn"])
                .output()
                .is_ok_and(|o| o.status.success())
        });
    let Some(python) = python else {
        eprintln!("no venv with python-chess under target/: skipped");
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("s.pgn");
    ok(&run(
        dir.path(),
        2,
        &["synth", "--games", "300", "--seed", "4", "-o", file.to_str().unwrap()],
    ));
    let ours: Vec<usize> = chessbits::pgn::read_file(&file)
        .unwrap()
        .map(|g| g.unwrap().mainline().count())
        .collect();
    let script = "import sys, chess.pgn\n\
                  f = open(sys.argv[1])\n\
                  while (g := chess.pgn.read_game(f)) is not None:\n\
                  \x20   assert not g.errors, g.errors\n\
                  \x20   b = g.end().board()\n\
                  \x20   r = g.headers['Result']\n\
                  \x20   assert not b.is_checkmate() or r == ('0-1' if b.turn else '1-0'), r\n\
                  \x20   print(len(list(g.mainline_moves())))\n";
    let out = Command::new(python)
        .args(["-c", script, file.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let theirs: Vec<usize> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| l.parse().unwrap())
        .collect();
    assert_eq!(ours, theirs);
}

/// Bad arguments: exit 2 with the reason, nothing written.
#[test]
fn bad_arguments_exit_2_and_write_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("x.pgn");
    let out = out.to_str().unwrap();
    let (code, _, stderr) = chessbits(&["synth", "--games", "70368744177665", "-o", out]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("at most"), "{stderr}");
    let (code, _, stderr) = chessbits(&["synth", "-o", out]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("--games"), "{stderr}");
    let (code, _, stderr) = chessbits(&["synth", "--games", "-3", "-o", out]);
    assert_eq!(code, 2, "{stderr}");
    // A directory as output, a missing directory.
    let (code, _, stderr) = chessbits(&["synth", "--games", "5", "-o", dir.path().to_str().unwrap()]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("is a directory"), "{stderr}");
    let missing = dir.path().join("no/such/dir/x.pgn");
    let (code, _, stderr) = chessbits(&["synth", "--games", "5", "-o", missing.to_str().unwrap()]);
    assert_eq!(code, 2, "{stderr}");
    assert_eq!(
        std::fs::read_dir(dir.path()).unwrap().count(),
        0,
        "something was written"
    );
}

/// Zero games is an empty file; an existing file is replaced whole.
#[test]
fn zero_games_and_replacing_a_file() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("x.pgn");
    std::fs::write(&out, "old contents that must go").unwrap();
    let (code, _, stderr) = chessbits(&["synth", "--games", "0", "-o", out.to_str().unwrap()]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(std::fs::read(&out).unwrap(), b"");
    let (code, _, stderr) = chessbits(&["synth", "--games", "3", "-o", out.to_str().unwrap()]);
    assert_eq!(code, 0, "{stderr}");
    let text = std::fs::read_to_string(&out).unwrap();
    assert_eq!(text.matches("[Event ").count(), 3);
    assert!(text.starts_with("[Event \""), "{text}");
}
