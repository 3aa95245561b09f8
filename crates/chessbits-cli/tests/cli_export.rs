//! `chessbits export`: without the `parquet` feature it says how to build it (status 2); with it,
//! it exports the bundled PGN files (the columns themselves are tested in chessbits-parquet).

mod common;

use common::{chessbits, testdata_path};

#[cfg(not(feature = "parquet"))]
#[test]
fn export_without_the_feature_says_how_to_build_it() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let pgn = testdata_path().join("pgn/notnil_Carlsen.pgn");
    let (code, _, stderr) = chessbits(&["export", pgn.to_str().unwrap(), "-o", out.to_str().unwrap()]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("--features parquet"), "{stderr}");
    assert!(!out.exists());
}

#[cfg(feature = "parquet")]
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

#[cfg(feature = "parquet")]
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

#[cfg(all(feature = "parquet", unix))]
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

#[cfg(feature = "parquet")]
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
