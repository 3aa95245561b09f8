//! `chessbits index seal DIR --export EXPORT`: tables computed
//! elsewhere from an export (here: the local index's files, renamed as Spark names its files,
//! without manifest, checksums, sources or top_games) become an index that answers as the local
//! one; bad input exits 2 with the reason and changes nothing.

use crate::common;

use std::fs;
use std::path::Path;

use common::{chessbits, testdata_path};

/// Exports the bundled Carlsen games and builds their index; returns (export, index).
fn export_and_index(dir: &Path) -> (String, String) {
    let export = dir.join("export");
    let pgn = testdata_path().join("pgn/notnil_Carlsen.pgn");
    let (code, _, stderr) = chessbits(&["export", pgn.to_str().unwrap(), "-o", export.to_str().unwrap()]);
    assert!(code <= 1, "{stderr}");
    let index = dir.join("local");
    let (code, _, stderr) = chessbits(&[
        "index",
        "build",
        export.to_str().unwrap(),
        "-o",
        index.to_str().unwrap(),
    ]);
    assert!(code <= 1, "{stderr}");
    (
        export.to_str().unwrap().to_string(),
        index.to_str().unwrap().to_string(),
    )
}

/// The local index's explorer, positions and games files copied to `out` under Spark's names.
fn tables_only(index: &Path, out: &Path) {
    for table in ["explorer", "positions", "games"] {
        fs::create_dir_all(out.join(table)).unwrap();
        let to = out.join(table).join("part-00000-5d1e-c000.zstd.parquet");
        if table == "positions" {
            // Another tool writes the wide positions rows (full keys, one row per ply); the
            // index stores key prefixes since format 3, and the seal narrows the wide rows.
            let opened = chessbits_index::Index::open(index).unwrap();
            opened.write_wide_positions(0, &to).unwrap();
            continue;
        }
        fs::copy(index.join(table).join("part-00000.parquet"), to).unwrap();
    }
}

#[test]
fn sealed_tables_answer_as_the_local_index() {
    let dir = tempfile::tempdir().unwrap();
    let (export, local) = export_and_index(dir.path());
    let spark = dir.path().join("spark");
    tables_only(Path::new(&local), &spark);
    let spark = spark.to_str().unwrap();
    let (code, _, stderr) = chessbits(&["index", "seal", spark, "--export", &export]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stderr.contains("sealed"), "{stderr}");
    for moves in ["", "e4", "d4 Nf6 c4", "e4 c5 Nf3 d6 d4"] {
        for command in ["explore", "search"] {
            let query = |index: &str| chessbits(&[command, index, "--moves", moves, "--json"]);
            let (ours, theirs) = (query(&local), query(spark));
            assert_eq!(ours.0, 0, "{}", ours.2);
            assert_eq!(ours, theirs, "{command} --moves '{moves}'");
        }
    }
    // Sealed once: a second seal is refused.
    let (code, _, stderr) = chessbits(&["index", "seal", spark, "--export", &export]);
    assert_eq!(code, 2);
    assert!(stderr.contains("an index already"), "{stderr}");
}

#[test]
fn bad_tables_exit_2_and_change_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let (export, local) = export_and_index(dir.path());
    let spark = dir.path().join("spark");
    tables_only(Path::new(&local), &spark);
    // The positions file in the place of the games file: other columns.
    fs::copy(
        spark.join("positions/part-00000-5d1e-c000.zstd.parquet"),
        spark.join("games/part-00000-5d1e-c000.zstd.parquet"),
    )
    .unwrap();
    let (code, _, stderr) = chessbits(&["index", "seal", spark.to_str().unwrap(), "--export", &export]);
    assert_eq!(code, 2);
    assert!(stderr.contains("games: no column `source`"), "{stderr}");
    assert!(!spark.join("manifest.json").exists());
    assert!(spark.join("explorer/part-00000-5d1e-c000.zstd.parquet").exists());
    // Not an export.
    tables_only(Path::new(&local), &spark);
    let (code, _, stderr) = chessbits(&["index", "seal", spark.to_str().unwrap(), "--export", &local]);
    assert_eq!(code, 2);
    assert!(stderr.contains("index seal:"), "{stderr}");
}
