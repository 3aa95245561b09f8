//! The crate's integration tests: one module per file of this directory, compiled into one test
//! binary (one link and one copy of the crate's generic code instead of one per file; the
//! package sets `autotests = false`). A new test file gets its `mod` line here.
//! `cargo test -p chessbits-cli --test integration FILE::` runs one file's tests.

mod common;

mod cli_archive_input;
mod cli_check;
mod cli_codecs;
mod cli_composed;
mod cli_database;
mod cli_exit_status;
mod cli_export;
mod cli_export_input;
mod cli_index;
mod cli_index_seal;
mod cli_info;
mod cli_inputs;
mod cli_json;
mod cli_outputs;
mod cli_perft;
mod cli_pgn_tools;
mod cli_show;
mod cli_synth;
mod cli_threads;
