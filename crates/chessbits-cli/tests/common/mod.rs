//! What the tests of the `chessbits` binary share.
#![allow(dead_code)]

use std::process::Command;

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
