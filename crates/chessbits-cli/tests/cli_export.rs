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
    assert!(out.join("rejected.pgn").exists());

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
    let inside = out.join("rejected.pgn");
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
