//! `chessbits-engine datagen`: the real binary plays a handful of games at a tiny node budget;
//! the file reads back, does not depend on the thread count, and resumes.

use std::path::Path;
use std::process::{Command, Output};

use chessbits_engine::datagen::format::{FormatError, GameReader, TrainingGame};
use chessbits_engine::datagen::reader::{Filters, PositionReader};

fn datagen(out: &Path, games: u64, threads: u64) -> Output {
    Command::new(env!("CARGO_BIN_EXE_chessbits-engine"))
        .args([
            "datagen",
            "--nodes",
            "300",
            "--max-plies",
            "50",
            "--seed",
            "11",
            "--hash",
            "1",
        ])
        .args(["--games", &games.to_string(), "--threads", &threads.to_string()])
        .arg("--out")
        .arg(out)
        .output()
        .unwrap()
}

fn run_ok(out: &Path, games: u64, threads: u64) {
    let output = datagen(out, games, threads);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
}

fn games_of(path: &Path) -> Result<Vec<TrainingGame>, FormatError> {
    let bytes = std::fs::read(path).unwrap();
    let mut reader = GameReader::new(&bytes[..])?;
    let mut games = Vec::new();
    while let Some(g) = reader.next_game()? {
        games.push(g);
    }
    Ok(games)
}

#[test]
fn datagen_writes_games_that_read_back_whatever_the_thread_count() {
    let dir = tempfile::tempdir().unwrap();
    let (one, two) = (dir.path().join("one.cbtd"), dir.path().join("two.cbtd"));
    run_ok(&one, 4, 1);
    let output = datagen(&two, 4, 2);
    assert!(output.status.success());
    assert!(
        String::from_utf8_lossy(&output.stderr).contains("games 4/4"),
        "progress on stderr"
    );
    assert_eq!(std::fs::read(&one).unwrap(), std::fs::read(&two).unwrap());
    let games = games_of(&one).unwrap();
    assert_eq!(games.len(), 4);
    let starts: std::collections::HashSet<String> = games.iter().map(|g| g.start.fen()).collect();
    assert_eq!(starts.len(), 4, "varied starts");
    for g in &games {
        assert!(!g.moves.is_empty() && g.moves.len() <= 50);
        assert_eq!(g.scores.len(), g.moves.len());
    }
    let mut reader = PositionReader::new(std::fs::File::open(&one).unwrap(), Filters::default()).unwrap();
    let kept = reader.by_ref().map(Result::unwrap).count() as u64;
    let total: usize = games.iter().map(|g| g.moves.len()).sum();
    assert_eq!(kept + reader.skipped().total(), total as u64);
    assert!(kept > 0);
}

#[test]
fn datagen_resumes_after_the_games_there_and_cuts_a_truncated_last_game() {
    let dir = tempfile::tempdir().unwrap();
    let (whole, resumed) = (dir.path().join("whole.cbtd"), dir.path().join("resumed.cbtd"));
    run_ok(&whole, 3, 1);
    let expected = std::fs::read(&whole).unwrap();
    // In two runs: 2 games, then up to 3.
    run_ok(&resumed, 2, 2);
    run_ok(&resumed, 3, 1);
    assert_eq!(std::fs::read(&resumed).unwrap(), expected);
    // A run that was killed inside its last game.
    std::fs::write(&resumed, &expected[..expected.len() - 7]).unwrap();
    let output = datagen(&resumed, 3, 1);
    assert!(output.status.success());
    assert!(String::from_utf8_lossy(&output.stderr).contains("2 games resumed, 1 played"));
    assert_eq!(std::fs::read(&resumed).unwrap(), expected);
    // Nothing left to do.
    run_ok(&resumed, 3, 1);
    assert_eq!(std::fs::read(&resumed).unwrap(), expected);
}

#[test]
fn datagen_refuses_a_file_that_is_not_ours_and_leaves_it_alone() {
    let dir = tempfile::tempdir().unwrap();
    let other = dir.path().join("notes.txt");
    std::fs::write(&other, b"my notes").unwrap();
    let output = datagen(&other, 1, 1);
    assert_eq!(output.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&output.stderr).contains("not a training-data file"));
    assert_eq!(std::fs::read(&other).unwrap(), b"my notes");
    // A corrupt game in the middle is an error too, not a place to cut.
    let data = dir.path().join("data.cbtd");
    run_ok(&data, 2, 1);
    let mut bytes = std::fs::read(&data).unwrap();
    bytes[8] ^= 0x10;
    std::fs::write(&data, &bytes).unwrap();
    let output = datagen(&data, 3, 1);
    assert_eq!(output.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&output.stderr).contains("corrupt"));
    assert_eq!(std::fs::read(&data).unwrap(), bytes);
}

#[test]
fn datagen_is_in_the_help_and_checks_its_arguments() {
    let help = Command::new(env!("CARGO_BIN_EXE_chessbits-engine"))
        .arg("--help")
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&help.stdout).contains("chessbits-engine datagen --out FILE"));
    for args in [
        &["datagen"][..],
        &["datagen", "--out"],
        &["datagen", "--games", "x", "--out", "f"],
        &["datagen", "--bogus", "1"],
    ] {
        let output = Command::new(env!("CARGO_BIN_EXE_chessbits-engine"))
            .args(args)
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        assert!(String::from_utf8_lossy(&output.stderr).contains("datagen:"));
    }
}

#[test]
fn datagen_plays_with_the_evaluation_it_is_given() {
    let dir = tempfile::tempdir().unwrap();
    let play = |name: &str, eval: &str| {
        let out = dir.path().join(name);
        let output = Command::new(env!("CARGO_BIN_EXE_chessbits-engine"))
            .args([
                "datagen",
                "--nodes",
                "300",
                "--max-plies",
                "40",
                "--seed",
                "5",
                "--hash",
                "1",
            ])
            .args(["--games", "2", "--threads", "1", "--eval", eval, "--out"])
            .arg(&out)
            .output()
            .unwrap();
        (output, out)
    };
    // The default is the embedded network; the hand-tuned evaluation plays other games.
    let (default, default_file) = play("default.cbtd", "embedded");
    assert!(default.status.success(), "{}", String::from_utf8_lossy(&default.stderr));
    let (hand, hand_file) = play("hand.cbtd", "hand-tuned");
    assert!(hand.status.success(), "{}", String::from_utf8_lossy(&hand.stderr));
    assert_ne!(games_of(&default_file).unwrap(), games_of(&hand_file).unwrap());
    // A network file that cannot be loaded stops the run before it writes anything.
    let bad = dir.path().join("bad.nnue");
    std::fs::write(&bad, b"CBNN not a network").unwrap();
    let (output, out) = play("never.cbtd", bad.to_str().unwrap());
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("datagen: --eval"));
    assert!(!out.exists());
}
