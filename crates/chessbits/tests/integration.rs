//! The crate's integration tests: one module per file of this directory, compiled into one test
//! binary (one link and one copy of the crate's generic code instead of one per file; the
//! package sets `autotests = false`). A new test file gets its `mod` line here.
//! `cargo test -p chessbits --test integration FILE::` runs one file's tests.

mod common;

mod entropy_robustness;
mod entropy_roundtrip;
mod entropy_tune;
mod epd_roundtrip;
mod fuzz_regressions;
mod game_list;
mod game_positions;
mod game_rules;
mod golden;
mod lists_picker;
mod lists_scored;
mod lists_search_stack;
mod move_codes_enumeration;
mod move_codes_flagged;
mod move_codes_fuzz;
mod move_codes_games;
mod move_codes_positions;
mod notation_fuzz;
mod oracle_0x88;
mod perft_suites;
mod pgn_commands;
mod pgn_hostile;
mod pgn_input;
mod pgn_lexer;
mod pgn_shared;
mod position_codes;
mod position_codes_games;
mod position_codes_multi;
mod position_keys;
mod position_props;
mod position_validity;
mod san_exhaustive;
mod serde_forms;
