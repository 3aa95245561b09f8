//! `chessbits export`: without the `parquet` feature it says how to build it (status 2); with it,
//! it exports the bundled PGN files (the columns themselves are tested in chessbits-parquet).

use crate::common;

use common::{chessbits, testdata_path};

#[test]
fn export_writes_parquet_and_reports_rejected_games() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let pgn = testdata_path().join("pgn");
    let args = [
        "export",
        pgn.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
        "--format",
        "parquet",
    ];
    let (code, _, stderr) = chessbits(&[&args[..], &["--json", "--threads", "2"]].concat());
    // The bundled files hold variant games: rejected, status 1.
    assert_eq!(code, 1, "{stderr}");
    let summary: serde_json::Value = serde_json::from_str(stderr.trim()).unwrap();
    assert!(summary["games"].as_u64().unwrap() > 100, "{summary}");
    assert!(summary["rejected"].as_u64().unwrap() > 0, "{summary}");
    assert!(out.join("part-0.parquet").exists());
    assert!(out.join("_rejected.pgn").exists());

    // Not again into a directory that is not empty, unless --force.
    let (code, _, stderr) = chessbits(&args);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("--force"), "{stderr}");
    let partition = ["--force", "--partition", "year,month"];
    let (code, _, stderr) = chessbits(&[&args[..], &partition[..]].concat());
    assert_eq!(code, 1, "{stderr}");
    assert!(out.join("year=2025/month=05/part-0.parquet").exists());
    assert!(!out.join("part-0.parquet").exists());

    // Never an output directory that holds an input.
    let inside = out.join("_rejected.pgn");
    let (code, _, stderr) = chessbits(&[
        "export",
        inside.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
        "--force",
    ]);
    assert_eq!(code, 2, "{stderr}");
    assert!(inside.exists());
}

#[test]
fn export_reads_zstd_and_gzip_input() {
    use std::io::Write;
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read(testdata_path().join("pgn/shakmaty_lichess_db_1000k.pgn")).unwrap();
    let zst = dir.path().join("games.pgn.zst");
    std::fs::write(&zst, zstd::encode_all(&text[..], 3).unwrap()).unwrap();
    let gz = dir.path().join("games.pgn.gz");
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    encoder.write_all(&text).unwrap();
    std::fs::write(&gz, encoder.finish().unwrap()).unwrap();
    let mut games = Vec::new();
    for (input, name) in [(&zst, "zst"), (&gz, "gz")] {
        let out = dir.path().join(name);
        let (code, _, stderr) = chessbits(&["export", input.to_str().unwrap(), "-o", out.to_str().unwrap(), "--json"]);
        assert_eq!(code, 0, "{stderr}");
        let summary: serde_json::Value = serde_json::from_str(stderr.trim()).unwrap();
        games.push(summary["games"].as_u64().unwrap());
    }
    assert_eq!(games[0], games[1]);
    assert_eq!(
        games[0] as usize,
        String::from_utf8_lossy(&text).matches("[Event ").count()
    );
}

#[cfg(unix)]
#[test]
fn a_signal_removes_the_temporary_directory() {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let mut child = Command::new(env!("CARGO_BIN_EXE_chessbits"))
        .args(["export", "-", "-o", out.to_str().unwrap()])
        .stdin(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(b"[Event \"x\"]\n\n1. e4 e5 *\n\n").unwrap();
    stdin.flush().unwrap();
    // The export is waiting for more input, its temporary directory beside `out`.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    while std::fs::read_dir(dir.path()).unwrap().count() == 0 {
        assert!(std::time::Instant::now() < deadline, "no temporary directory");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    std::thread::sleep(std::time::Duration::from_millis(200));
    let status = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let status = child.wait().unwrap();
    assert!(!status.success());
    drop(stdin);
    let left: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert!(left.is_empty(), "{left:?}");
}

#[test]
fn export_with_the_index_moves_codec() {
    let dir = tempfile::tempdir().unwrap();
    let pgn = testdata_path().join("pgn/notnil_Carlsen.pgn");
    let mut sizes = Vec::new();
    for codec in ["entropy", "index"] {
        let out = dir.path().join(codec);
        let args = [
            "export",
            pgn.to_str().unwrap(),
            "-o",
            out.to_str().unwrap(),
            "--moves-codec",
            codec,
        ];
        let (code, _, stderr) = chessbits(&args);
        assert_eq!(code, 0, "{stderr}");
        let file = std::fs::read(out.join("part-0.parquet")).unwrap();
        // The file's key-value metadata names the code.
        let name = if codec == "index" { "index-byte" } else { "entropy" };
        assert!(file.windows(name.len()).any(|w| w == name.as_bytes()));
        sizes.push(file.len());
    }
    assert!(sizes[0] < sizes[1], "entropy-coded moves are smaller: {sizes:?}");
    let out = dir.path().join("bad");
    let (code, _, stderr) = chessbits(&[
        "export",
        pgn.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
        "--moves-codec",
        "huffman",
    ]);
    assert_eq!(code, 2, "{stderr}");
    assert!(!out.exists());
}

/// Every file below `dir`, relative, with its bytes (a directory's whole contents).
pub(crate) fn contents(dir: &std::path::Path) -> Vec<(std::path::PathBuf, Vec<u8>)> {
    let mut files = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(next) = stack.pop() {
        for entry in std::fs::read_dir(&next).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else {
                files.push((
                    path.strip_prefix(dir).unwrap().to_path_buf(),
                    std::fs::read(&path).unwrap(),
                ));
            }
        }
    }
    files.sort();
    files
}

/// Two exports started together into the same new directory: the one that finishes second must
/// not move the first one's output aside and delete it, but fail as it would if started
/// afterwards. Both pass the start-up check, so every try races at the rename.
#[cfg(unix)]
#[test]
fn two_exports_into_one_new_directory_one_wins_and_nothing_is_deleted() {
    use std::process::{Command, Stdio};
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read(testdata_path().join("pgn/shakmaty_lichess_db_1000k.pgn")).unwrap();
    // Different inputs, so the survivor says which export it is: its reference, made alone.
    let inputs = [dir.path().join("a.pgn"), dir.path().join("b.pgn")];
    std::fs::write(&inputs[0], text.repeat(4)).unwrap();
    std::fs::write(&inputs[1], text.repeat(3)).unwrap();
    let mut references = Vec::new();
    for (i, input) in inputs.iter().enumerate() {
        let out = dir.path().join(format!("ref{i}"));
        let (code, _, stderr) = chessbits(&["export", input.to_str().unwrap(), "-o", out.to_str().unwrap()]);
        assert_eq!(code, 0, "{stderr}");
        references.push(contents(&out));
    }
    assert_ne!(references[0], references[1]);
    let races = dir.path().join("races");
    std::fs::create_dir(&races).unwrap();
    for attempt in 0..4 {
        let out = races.join(format!("out{attempt}"));
        let children: Vec<_> = inputs
            .iter()
            .map(|input| {
                Command::new(env!("CARGO_BIN_EXE_chessbits"))
                    .args(["export", input.to_str().unwrap(), "-o", out.to_str().unwrap()])
                    .stdout(Stdio::null())
                    .stderr(Stdio::piped())
                    .spawn()
                    .unwrap()
            })
            .collect();
        let results: Vec<_> = children.into_iter().map(|c| c.wait_with_output().unwrap()).collect();
        let codes: Vec<_> = results.iter().map(|r| r.status.code()).collect();
        let winner = codes.iter().position(|c| *c == Some(0));
        let loser = codes.iter().position(|c| *c == Some(2));
        let (Some(winner), Some(loser)) = (winner, loser) else {
            panic!("attempt {attempt}: exactly one must succeed: {codes:?}");
        };
        let message = String::from_utf8_lossy(&results[loser].stderr);
        assert!(message.contains("exists and is not an empty directory"), "{message}");
        assert!(
            contents(&out) == references[winner],
            "attempt {attempt}: the surviving export is not the winner's, complete"
        );
        // Nothing left beside it: no temporary directory, no old export moved aside.
        let names: Vec<_> = std::fs::read_dir(&races)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names.len(), attempt + 1, "{names:?}");
    }
}

/// `-o LINK`: the link stays a link and the directory it names gets the export (replaced with
/// --force, refused if not empty without it, created when the link dangles), as for file
/// outputs.
#[cfg(unix)]
#[test]
fn an_output_directory_that_is_a_symbolic_link_stays_a_link() {
    use std::os::unix::fs::symlink;
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let pgn = testdata_path().join("pgn/notnil_Carlsen.pgn");
    let export = |out: &str, force: bool| {
        let out = d.join(out);
        let mut args = vec!["export", pgn.to_str().unwrap(), "-o", out.to_str().unwrap()];
        if force {
            args.push("--force");
        }
        chessbits(&args)
    };
    let is_link = |name: &str| {
        std::fs::symlink_metadata(d.join(name))
            .unwrap()
            .file_type()
            .is_symlink()
    };
    // A link to an empty directory.
    std::fs::create_dir(d.join("target")).unwrap();
    symlink("target", d.join("link")).unwrap();
    let (code, _, stderr) = export("link", false);
    assert_eq!(code, 0, "{stderr}");
    assert!(is_link("link"));
    assert!(d.join("target/part-0.parquet").exists());
    // Not empty now: refused, untouched.
    std::fs::write(d.join("target/mine.txt"), "mine").unwrap();
    let (code, _, stderr) = export("link", false);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("exists and is not an empty directory"), "{stderr}");
    assert!(is_link("link") && d.join("target/mine.txt").exists());
    // --force replaces what the link names; the link stays.
    let (code, _, stderr) = export("link", true);
    assert_eq!(code, 0, "{stderr}");
    assert!(is_link("link"));
    assert!(!d.join("target/mine.txt").exists());
    assert!(d.join("target/part-0.parquet").exists());
    // A chain of links, the last one dangling: the directory it names is created.
    symlink("dangling", d.join("chain")).unwrap();
    symlink("new", d.join("dangling")).unwrap();
    let (code, _, stderr) = export("chain", false);
    assert_eq!(code, 0, "{stderr}");
    assert!(is_link("chain") && is_link("dangling"));
    assert!(d.join("new/part-0.parquet").exists());
    // Nothing else was left: no temporary directory.
    let mut names: Vec<_> = std::fs::read_dir(d)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    assert_eq!(names, ["chain", "dangling", "link", "new", "target"]);
}

/// A directory input with links back into itself, a second link to a file and a FIFO: each game
/// exported once, and the export ends.
#[cfg(unix)]
#[test]
fn export_reads_each_game_of_a_hostile_directory_once() {
    let (dir, d) = common::hostile_dir();
    let out = dir.path().join("out");
    let (code, _, stderr) = chessbits(&["export", d.to_str().unwrap(), "-o", out.to_str().unwrap(), "--json"]);
    assert_eq!(code, 0, "{stderr}");
    let summary: serde_json::Value = serde_json::from_str(stderr.lines().last().unwrap()).unwrap();
    assert_eq!(summary["games"], 1, "{stderr}");
    assert!(stderr.contains("fifo.pgn: skipped"), "{stderr}");
}

/// The same race, made certain: an export reading standard input is held open past its start-up
/// check while a second one fills the directory; once its input ends it must fail and leave the
/// second one's export as it is.
#[cfg(unix)]
#[test]
fn an_export_finishing_into_a_directory_filled_meanwhile_fails_and_deletes_nothing() {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let mut first = Command::new(env!("CARGO_BIN_EXE_chessbits"))
        .args(["export", "-", "-o", out.to_str().unwrap()])
        .stdin(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = first.stdin.take().unwrap();
    stdin.write_all(b"[Event \"first\"]\n\n1. e4 e5 *\n\n").unwrap();
    stdin.flush().unwrap();
    // Past its start-up check: its temporary directory is there.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    while std::fs::read_dir(dir.path()).unwrap().count() == 0 {
        assert!(std::time::Instant::now() < deadline, "no temporary directory");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let pgn = testdata_path().join("pgn/notnil_Carlsen.pgn");
    let (code, _, stderr) = chessbits(&["export", pgn.to_str().unwrap(), "-o", out.to_str().unwrap()]);
    assert_eq!(code, 0, "{stderr}");
    let second = contents(&out);
    drop(stdin);
    let result = first.wait_with_output().unwrap();
    let message = String::from_utf8_lossy(&result.stderr);
    assert_eq!(result.status.code(), Some(2), "{message}");
    assert!(message.contains("exists and is not an empty directory"), "{message}");
    assert!(contents(&out) == second, "the second export was changed");
    let names: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names, ["out"]);
}
