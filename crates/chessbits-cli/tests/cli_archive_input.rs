//! A `.cbits` archive is an input like a PGN file to every command that reads games (`pgn
//! check/stats/filter/positions/convert`, `pack`, `export`), recognised by its first bytes
//! whatever its name, from a file, a directory or standard input; a damaged one is an error
//! naming the file and the block, never a panic.

use crate::common;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use common::{chessbits, testdata_path};

/// The bundled PGN files packed by the binary into `dir/all.cbits` (blocks of 50 games, so the
/// archive has several), and the text `chessbits unpack` gives back, in `dir/unpacked.pgn`.
fn packed(dir: &Path) -> (PathBuf, PathBuf) {
    let archive = dir.join("all.cbits");
    let pgn = testdata_path().join("pgn");
    let (code, _, stderr) = chessbits(&[
        "pack",
        pgn.to_str().unwrap(),
        "-o",
        archive.to_str().unwrap(),
        "--block-games",
        "50",
    ]);
    // Variant games are stored as text, reported, status 0.
    assert_eq!(code, 0, "{stderr}");
    let unpacked = dir.join("unpacked.pgn");
    let (code, _, stderr) = chessbits(&["unpack", archive.to_str().unwrap(), "-o", unpacked.to_str().unwrap()]);
    assert_eq!(code, 0, "{stderr}");
    (archive, unpacked)
}

fn s(path: &Path) -> &str {
    path.to_str().unwrap()
}

fn json(text: &str) -> serde_json::Value {
    serde_json::from_str(text.trim()).unwrap_or_else(|e| panic!("{e}: {text}"))
}

/// Runs the binary with `stdin` on standard input: exit code, standard output, standard error.
fn chessbits_with_stdin(args: &[&str], stdin: &[u8]) -> (i32, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_chessbits"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    let bytes = stdin.to_vec();
    // Written from a thread: the child may fill its output pipes before reading all of it.
    let writer = std::thread::spawn(move || {
        let _ = input.write_all(&bytes);
    });
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn stats_check_and_positions_of_the_archive_are_those_of_the_pgn() {
    let dir = tempfile::tempdir().unwrap();
    let (archive, _) = packed(dir.path());
    let pgn = testdata_path().join("pgn");
    // Named anything: the content decides.
    let renamed = dir.path().join("games.pgn");
    std::fs::copy(&archive, &renamed).unwrap();

    let (code, expected, stderr) = chessbits(&["pgn", "stats", "--json", s(&pgn)]);
    assert_eq!(code, 1, "{stderr}");
    let expected = json(&expected);
    assert!(expected["games"].as_u64().unwrap() > 400, "{expected}");
    for input in [&archive, &renamed] {
        let (code, stats, stderr) = chessbits(&["pgn", "stats", "--json", s(input)]);
        assert_eq!(code, 1, "{stderr}");
        let mut stats = json(&stats);
        // Every count is the same; only the error messages name another file and line.
        stats["error_messages"] = expected["error_messages"].clone();
        assert_eq!(stats, expected);
    }

    let (code, expected, _) = chessbits(&["pgn", "check", "--json", s(&pgn)]);
    assert_eq!(code, 1);
    let expected = json(&expected);
    for threads in ["1", "2"] {
        let (code, report, stderr) = chessbits(&["pgn", "check", "--json", "--threads", threads, s(&archive)]);
        assert_eq!(code, 1, "{stderr}");
        let report = json(&report);
        for key in ["games", "plies", "errors"] {
            assert_eq!(report[key], expected[key], "{key} with {threads} threads");
        }
    }

    let args = ["pgn", "positions", "--with-move", "--with-result"];
    let (code, expected, _) = chessbits(&[&args[..], &[s(&pgn)]].concat());
    assert_eq!(code, 1);
    let (code, positions, _) = chessbits(&[&args[..], &[s(&archive)]].concat());
    assert_eq!(code, 1);
    assert!(expected.lines().count() > 30_000);
    assert!(positions == expected, "the positions differ");
}

#[test]
fn filter_and_convert_read_the_archive_as_its_unpacked_text() {
    let dir = tempfile::tempdir().unwrap();
    let (archive, unpacked) = packed(dir.path());
    let pgn = testdata_path().join("pgn");
    let filter = ["pgn", "filter", "--result", "1-0", "--min-plies", "40", "--json"];
    let (code, from_pgn, stderr) = chessbits(&[&filter[..], &[s(&pgn)]].concat());
    assert_eq!(code, 1, "{stderr}");
    let pgn_summary = json(stderr.lines().last().unwrap());
    let (code, from_archive, stderr) = chessbits(&[&filter[..], &[s(&archive)]].concat());
    assert_eq!(code, 1, "{stderr}");
    let archive_summary = json(stderr.lines().last().unwrap());
    for key in ["games", "matched", "errors"] {
        assert_eq!(archive_summary[key], pgn_summary[key], "{key}");
    }
    assert!(pgn_summary["matched"].as_u64().unwrap() > 50, "{pgn_summary}");
    assert_eq!(
        from_archive.matches("[Event ").count(),
        from_pgn.matches("[Event ").count()
    );
    // The games' text is the one `unpack` writes.
    let (code, from_unpacked, _) = chessbits(&[&filter[..], &[s(&unpacked)]].concat());
    assert_eq!(code, 1);
    assert!(
        from_archive == from_unpacked,
        "filter of the archive != filter of its unpacked text"
    );

    // convert takes several inputs, the archive among them.
    let carlsen = testdata_path().join("pgn/notnil_Carlsen.pgn");
    let (code, one, _) = chessbits(&["pgn", "convert", "--to", "uci", s(&carlsen)]);
    assert_eq!(code, 0);
    let (code, all, _) = chessbits(&["pgn", "convert", "--to", "uci", s(&unpacked)]);
    assert_eq!(code, 1);
    let (code, both, stderr) = chessbits(&["pgn", "convert", "--to", "uci", "--json", s(&carlsen), s(&archive)]);
    assert_eq!(code, 1, "{stderr}");
    assert!(
        both == format!("{one}{all}"),
        "convert of two inputs is not the two converted"
    );
    let summary = json(stderr.lines().last().unwrap());
    assert_eq!(summary["errors"], 4, "{summary}");
}

#[test]
fn pack_of_the_archive_holds_the_same_games() {
    let dir = tempfile::tempdir().unwrap();
    let (archive, unpacked) = packed(dir.path());
    let again = dir.path().join("again.cbits");
    let (code, _, stderr) = chessbits(&["pack", s(&archive), "-o", s(&again), "--json"]);
    assert_eq!(code, 0, "{stderr}");
    let summary = json(stderr.lines().last().unwrap());
    assert_eq!(summary["games_as_text"], 4, "{summary}");
    let (code, text, _) = chessbits(&["unpack", s(&again)]);
    assert_eq!(code, 0);
    assert!(
        text.as_bytes() == std::fs::read(&unpacked).unwrap(),
        "repacked games differ"
    );
    let (_, stats, _) = chessbits(&["pgn", "stats", "--json", s(&unpacked)]);
    assert_eq!(summary["games"], json(&stats)["games"]);
}

#[test]
fn directories_hold_archives_and_standard_input_may_be_one() {
    let dir = tempfile::tempdir().unwrap();
    let (archive, _) = packed(dir.path());
    let (_, expected, _) = chessbits(&["pgn", "stats", s(&archive)]);
    // A directory holding the archive and one more game in a PGN file.
    let sub = dir.path().join("sub");
    std::fs::create_dir(&sub).unwrap();
    std::fs::copy(&archive, sub.join("a.cbits")).unwrap();
    std::fs::write(sub.join("b.pgn"), common::GAME).unwrap();
    let (code, report, stderr) = chessbits(&["pgn", "check", "--json", s(&sub)]);
    assert_eq!(code, 1, "{stderr}");
    let (_, alone, _) = chessbits(&["pgn", "check", "--json", s(&archive)]);
    assert_eq!(json(&report)["games"], json(&alone)["games"].as_u64().unwrap() + 1);

    // Packing the directory into itself, twice: the second run leaves its own output out.
    let own = sub.join("own.cbits");
    for run in 0..2 {
        let (code, _, stderr) = chessbits(&["pack", s(&sub), "-o", s(&own), "--json"]);
        assert_eq!(code, 0, "{stderr}");
        let summary = json(stderr.lines().last().unwrap());
        assert_eq!(summary["games"], json(&report)["games"], "run {run}");
        let said = stderr.contains(&format!("{}: skipped, it is the output", own.display()));
        assert_eq!(said, run == 1, "{stderr}");
    }
    // Named on the command line, the output is refused as an input.
    let (code, _, stderr) = chessbits(&["pack", s(&own), "-o", s(&own)]);
    assert_eq!(code, 2, "{stderr}");

    let bytes = std::fs::read(&archive).unwrap();
    let (code, stats, stderr) = chessbits_with_stdin(&["pgn", "stats", "-"], &bytes);
    assert_eq!(code, 1, "{stderr}");
    assert!(stats == expected, "{stats}\n---\n{expected}");
    // Compressed on the way: decompressed, then recognised.
    let zst = zstd::encode_all(&bytes[..], 3).unwrap();
    let (code, stats, stderr) = chessbits_with_stdin(&["pgn", "stats", "-"], &zst);
    assert_eq!(code, 1, "{stderr}");
    assert!(stats == expected);
}

#[test]
fn a_damaged_archive_is_an_error_naming_the_file_and_the_block() {
    let dir = tempfile::tempdir().unwrap();
    let (archive, _) = packed(dir.path());
    let bytes = std::fs::read(&archive).unwrap();
    let cut = dir.path().join("cut.cbits");
    std::fs::write(&cut, &bytes[..bytes.len() / 2]).unwrap();
    let (code, _, stderr) = chessbits(&["pgn", "stats", s(&cut)]);
    // As a file that cannot be read on: status 2.
    assert_eq!(code, 2, "{stderr}");
    let said = format!("{}: damaged archive: block ", cut.display());
    assert!(stderr.contains(&said) && stderr.contains("truncated"), "{stderr}");
    for command in [
        &["pgn", "filter"][..],
        &["pgn", "positions"],
        &["pack", "-o", "/dev/null"],
    ] {
        let (code, _, stderr) = chessbits(&[command, &[s(&cut)]].concat());
        assert_eq!(code, 2, "{command:?}: {stderr}");
        assert!(stderr.contains(&said), "{command:?}: {stderr}");
    }
    // check reports it with the games (status 1), having checked the blocks before.
    let (code, report, stderr) = chessbits(&["pgn", "check", "--json", s(&cut)]);
    assert_eq!(code, 1, "{stderr}");
    let report = json(&report);
    assert!(report["games"].as_u64().unwrap() >= 50, "{report}");
    assert!(stderr.contains(&said), "{stderr}");
    let (code, _, stderr) = chessbits_with_stdin(&["pgn", "stats", "-"], &bytes[..bytes.len() / 2]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("<stdin>: damaged archive: block "), "{stderr}");

    // A flipped payload byte, a header alone, the magic alone: errors, never a panic.
    let mut flipped = bytes.clone();
    flipped[100] ^= 0x40;
    for (name, content) in [
        ("flipped.cbits", &flipped[..]),
        ("header.cbits", &bytes[..16]),
        ("magic.cbits", &bytes[..5]),
    ] {
        let path = dir.path().join(name);
        std::fs::write(&path, content).unwrap();
        let (code, _, stderr) = chessbits(&["pgn", "stats", s(&path)]);
        assert_eq!(code, 2, "{name}: {stderr}");
        assert!(
            stderr.contains(&format!("{}: damaged archive: ", path.display())),
            "{name}: {stderr}"
        );
    }
}

#[test]
fn export_of_the_archive_is_that_of_its_unpacked_text() {
    let dir = tempfile::tempdir().unwrap();
    let (archive, unpacked) = packed(dir.path());
    let pgn = testdata_path().join("pgn");
    let mut summaries = Vec::new();
    for (input, name) in [(&pgn, "from-pgn"), (&archive, "from-archive"), (&unpacked, "from-text")] {
        let out = dir.path().join(name);
        let (code, _, stderr) = chessbits(&["export", s(input), "-o", s(&out), "--json", "--threads", "1"]);
        // The variant games are rejected: status 1.
        assert_eq!(code, 1, "{name}: {stderr}");
        summaries.push(json(stderr.lines().last().unwrap()));
    }
    for key in ["games", "rejected", "plies"] {
        assert_eq!(summaries[1][key], summaries[0][key], "{key}");
    }
    let read = |name: &str| std::fs::read(dir.path().join(name).join("part-0.parquet")).unwrap();
    assert!(read("from-archive") == read("from-text"), "the Parquet files differ");
}
