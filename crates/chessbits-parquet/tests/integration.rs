//! The crate's integration tests: one module per file of this directory, compiled into one test
//! binary (one link and one copy of the crate's generic code instead of one per file; the
//! package sets `autotests = false`). A new test file gets its `mod` line here.
//! `cargo test -p chessbits-parquet --test integration FILE::` runs one file's tests.

mod common;

mod blocks;
mod export;
mod fidelity;
mod fuzz_regressions;
mod move_marks;
mod rebuild;
