//! A position index over chess games: an **opening explorer** (for a position, every move
//! played from it with how those games ended, filtered by speed, rating and date, as the lichess
//! explorer shows it) and **exact position search** (every game that stands in a position at any
//! ply), built from PGN files in bounded memory on all cores and stored as plain Parquet files
//! that DuckDB, pandas, polars and Spark read without chessbits.
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
//! INDEX/explorer/part-NNNNN.parquet   move table rows, sorted by key (model::explorer)
//! INDEX/positions/part-NNNNN.parquet  one row per position of every game, sorted by key (model::positions)
//! INDEX/games/part-NNNNN.parquet      one row per game (model::games)
//! INDEX/sources/part-NNNNN.parquet    the input files (model::sources)
//! ```
//!
//! The `key` column is the 128-bit [position key](key) as 16 big-endian bytes. In DuckDB, the
//! move table of a position is
//!
//! ```sql
//! SELECT uci, sum(white), sum(draws), sum(black)
//! FROM read_parquet('INDEX/explorer/*.parquet')
//! WHERE key = from_hex('463b96181691fc9c...')   -- PositionKey's 32 hex digits
//! GROUP BY uci;
//! ```
//!
//! (a row with a null `uci` counts the games that ended in the position).

pub mod build;
pub mod checksums;
pub mod error;
pub mod key;
pub mod manifest;
pub mod model;
pub mod query;

pub use build::{BuildOptions, BuildSummary, IndexBuilder, SourceInfo};
pub use error::IndexError;
pub use key::PositionKey;
pub use model::game::{rating_band, GameRow, Outcome, Speed, RATING_BANDS};
pub use query::{
    resolve_position, ExploreOptions, Explorer, ExplorerMove, Filters, GameHit, Index, SearchOptions, SearchResult,
    SortOrder,
};
