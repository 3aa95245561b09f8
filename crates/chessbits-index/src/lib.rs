//! A position index over chess games: an **opening explorer** (for a position, every move
//! played from it with how those games ended, filtered by speed, rating and date, as the lichess
//! explorer shows it) and **exact position search** (every game that stands in a position at any
//! ply), built from PGN files in bounded memory on all cores and stored as plain Parquet files
//! that DuckDB, pandas, polars and Spark read without chessbits.
//!
//! Inputs: PGN text ([`IndexBuilder::add_file`], [`IndexBuilder::add_reader`]), `.cbits`
//! archives ([`IndexBuilder::add_archive`]) and Parquet exports made by `chessbits export`
//! ([`IndexBuilder::add_export`]); a game gives the same rows whatever it was read from. The
//! Arrow-level [`export_parts`] and [`export_records`] turn export rows into the index's rows
//! for a job that builds the index elsewhere (the Spark job of `examples/spark`), numbering the
//! games as the local build does. [`Index::game_text`] gives a game's text back from any source
//! (see [`model::sources`]).
//!
//! ```
//! use chessbits_index::{resolve_position, BuildOptions, ExploreOptions, Index, IndexBuilder, SearchOptions, SourceInfo};
//! let dir = tempfile::tempdir().unwrap();
//! let out = dir.path().join("index");
//! let mut builder = IndexBuilder::create(&out, BuildOptions::default()).unwrap();
//! let pgn = b"[Result \"1-0\"]\n\n1. e4 e5 2. Nf3 Nc6 1-0\n\n[Result \"1/2-1/2\"]\n\n1. Nf3 Nc6 2. e4 e5 1/2-1/2\n";
//! builder.add_reader(&pgn[..], SourceInfo::named("games.pgn")).unwrap();
//! builder.finish().unwrap();
//!
//! let index = Index::open(&out).unwrap();
//! // Both games reach the position after 1. e4 e5 2. Nf3 Nc6, by different move orders.
//! let pos = resolve_position(None, "e4 e5 Nf3 Nc6").unwrap();
//! let explorer = index.explore(&pos, &ExploreOptions::default()).unwrap();
//! assert_eq!((explorer.white, explorer.draws, explorer.black), (1, 1, 0));
//! let found = index.search(&pos, &SearchOptions::default()).unwrap();
//! assert_eq!(found.total, 2);
//! ```
//!
//! # Layout
//!
//! An index is a directory:
//!
//! ```text
//! INDEX/manifest.json              the files below, with rows, bytes and CRC-32 (crate::manifest)
//! INDEX/*/.part-NNNNN.parquet.crc   each file's page checksums (crate::checksums)
//! INDEX/explorer/part-NNNNN.parquet   move table rows of positions of 2+ games, sorted by key (model::explorer)
//! INDEX/positions/part-NNNNN.parquet  per key prefix, the games that stand in the position, sorted by prefix (model::positions)
//! INDEX/games/part-NNNNN.parquet      one row per game (model::games)
//! INDEX/sources/part-NNNNN.parquet    the input files (model::sources)
//! INDEX/top_games/part-NNNNN.parquet  the listed games of popular positions, sorted by key (model::top_games)
//! INDEX/explorer_summary/part-NNNNN.parquet  explorer rows of popular positions summed over months (model::explorer_summary)
//! ```
//!
//! The `key` column is the 128-bit [position key](key) as 16 big-endian bytes. The explorer
//! table has no rows for a position that one decided game reaches: the `positions` row of that
//! game with `solo` true stands for it (format 2; see [`model::positions`]). Since format 3 the
//! `positions` table holds a key *prefix* per row (one row per game and key), and a query
//! checks its candidates by replaying the moves that the `games` table stores. In DuckDB, the
//! move table of a position reached by two or more decided games is
//!
//! ```sql
//! SELECT uci, sum(white), sum(draws), sum(black) FROM read_parquet('INDEX/explorer/*.parquet')
//! WHERE key = from_hex('463b96181691fc9c...')   -- PositionKey's 32 hex digits
//! GROUP BY uci;
//! ```
//!
//! (a row with a null `uci` counts the games that ended in the position). A position of one
//! decided game has no explorer rows: its candidates are the `positions` rows with
//! `key_prefix = key >> (128 - K)` and `solo`, and which of them is the position (and the move
//! played there) takes a replay of the game's `replay_moves`, which SQL cannot do.
//!
//! A game's result is the library's one rule ([`chessbits::pgn::GameResult::declared`]): the
//! movetext's result token, else (for `*` or none) the `Result` tag. A date whose year is past
//! [`model::game::MAX_YEAR`] (5460: the explorer's month numbers are 16 bits) is unknown, as
//! `????.??.??` is.
//!
//! # Built elsewhere
//!
//! Another tool (the Spark job `examples/spark/build_index.py`) can compute the `explorer`,
//! `positions` and `games` tables from a Parquet export, with [`export_parts`] numbering the
//! games and [`export_records`] making the rows; [`seal()`] then checks its files and makes the
//! directory an index.

pub mod build;
pub mod checksums;
pub mod error;
pub mod key;
pub mod manifest;
pub mod model;
pub mod query;
pub mod seal;

pub use build::{
    export_parts, export_records, BuildOptions, BuildSummary, ExportPart, ExportRecords, IndexBuilder, SourceFormat,
    SourceInfo,
};
pub use error::IndexError;
pub use key::PositionKey;
pub use model::game::{rating_band, GameRow, Outcome, Speed, RATING_BANDS};
pub use query::{
    resolve_position, ExploreOptions, Explorer, ExplorerMove, Filters, GameHit, Index, SearchOptions, SearchResult,
    SortOrder,
};
pub use seal::{seal, seal_with_sources, SealSummary};
