//! The crate's integration tests: one module per file of this directory, compiled into one test
//! binary (one link and one copy of the crate's generic code instead of one per file; the
//! package sets `autotests = false`). A new test file gets its `mod` line here.
//! `cargo test -p chessbits-index --test integration FILE::` runs one file's tests.

mod common;

mod damage;
mod explorer_summary;
mod export_replay;
mod footer;
mod format3;
mod fuzz_regressions;
mod game_tags;
mod golden;
mod inputs;
mod oracle;
mod seal;
mod search_pages;
mod solo;
mod top_games;
