//! The thread count changes how fast, never what: `chessbits export` and `chessbits index build`
//! write the same bytes with `--threads 1` and `--threads 2`.

use crate::cli_export::contents;
use crate::common;

use common::{chessbits, testdata_path};

/// Runs `args` once per thread count into `dir/threads-N` (the output path appended after
/// `-o`); returns each output directory's contents.
fn outputs(dir: &std::path::Path, args: &[&str]) -> Vec<Vec<(std::path::PathBuf, Vec<u8>)>> {
    ["1", "2"]
        .iter()
        .map(|threads| {
            let out = dir.join(format!("threads-{threads}"));
            let out = out.to_str().unwrap();
            let (code, _, stderr) = chessbits(&[args, &["-o", out, "--threads", threads]].concat());
            // The bundled files hold variant games, which are rejected: status 1.
            assert!(code <= 1, "{stderr}");
            contents(std::path::Path::new(out))
        })
        .collect()
}

/// Every file of the two outputs is the same, byte for byte.
fn assert_same(outputs: &[Vec<(std::path::PathBuf, Vec<u8>)>]) {
    let (one, two) = (&outputs[0], &outputs[1]);
    let names = |files: &[(std::path::PathBuf, Vec<u8>)]| files.iter().map(|f| f.0.clone()).collect::<Vec<_>>();
    assert_eq!(names(one), names(two));
    for ((name, a), (_, b)) in one.iter().zip(two) {
        assert!(a == b, "{} differs between --threads 1 and 2", name.display());
    }
}

/// The bundled PGN files (about 500 KB: many 32 KiB blocks for the threads to share) into small
/// row groups, so that blocks of several threads end up in one row group and one file.
#[test]
fn export_bytes_do_not_depend_on_threads() {
    let dir = tempfile::tempdir().unwrap();
    let pgn = testdata_path().join("pgn");
    let args = ["export", pgn.to_str().unwrap(), "--row-group-size", "100"];
    let runs = outputs(dir.path(), &args);
    assert_same(&runs);
    let part = runs[0].iter().find(|f| f.0.ends_with("part-0.parquet")).unwrap();
    assert!(part.1.len() > 10_000, "{} bytes", part.1.len());
    assert!(runs[0]
        .iter()
        .any(|f| f.0.ends_with("_rejected.pgn") && !f.1.is_empty()));
    // Partitioned: several part files, each with its games in the same order.
    let partition = [&args[..], &["--partition", "year,month", "--force"]].concat();
    let runs = outputs(dir.path(), &partition);
    assert!(
        runs[0]
            .iter()
            .filter(|f| f.0.extension().is_some_and(|e| e == "parquet"))
            .count()
            > 1
    );
    assert_same(&runs);
}

/// An index of the bundled files, with records spilled to disk (`--memory 1`).
#[test]
fn index_bytes_do_not_depend_on_threads() {
    let dir = tempfile::tempdir().unwrap();
    let pgn = testdata_path().join("pgn");
    let runs = outputs(dir.path(), &["index", "build", pgn.to_str().unwrap(), "--memory", "1"]);
    assert!(runs[0].len() > 5, "{} files", runs[0].len());
    assert_same(&runs);
}
