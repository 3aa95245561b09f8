//! What the tests of the `chessbits` binary share.
#![allow(dead_code)]

use std::path::PathBuf;
use std::process::Command;

/// The bundled test data, `testdata/` at the repository root (a subset of `../shared/data` in the
/// same layout; see `testdata/README.md`).
pub fn testdata_path() -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../testdata"))
}

/// The full shared corpora, `../shared/data` beside the repository: only the ignored
/// `shared_data_*` tests read them.
pub fn shared_path() -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared/data"))
}

/// Runs the binary with `args`: exit code (-1 if killed by a signal), standard output, standard
/// error.
pub fn chessbits(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_chessbits"))
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}
