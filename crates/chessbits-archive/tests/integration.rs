//! The crate's integration tests: one module per file of this directory, compiled into one test
//! binary (one link and one copy of the crate's generic code instead of one per file; the
//! package sets `autotests = false`). A new test file gets its `mod` line here.
//! `cargo test -p chessbits-archive --test integration FILE::` runs one file's tests.

#[path = "../../chessbits/tests/common/mod.rs"]
mod common;

mod archive_corruption;
mod archive_fidelity;
mod archive_roundtrip;
mod fuzz_regressions;
mod golden;
