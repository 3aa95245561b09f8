//! How an export is written ([`ExportOptions`]), what it wrote ([`ExportSummary`]), and the
//! sizes of the pipeline's units of work.

use std::path::PathBuf;

use crate::moves_code::MovesCode;

/// The partition value of an unknown year or month (Hive's, read as null by DuckDB, pyarrow,
/// Spark).
pub const DEFAULT_PARTITION: &str = "__HIVE_DEFAULT_PARTITION__";

/// Games handed to the encoding threads at a time, at most: a row group of more games is
/// encoded chunk by chunk into the Parquet writer's (compressed) buffers, so memory is bounded
/// by a few chunks of PGN text plus one encoded row group per open file. Small enough that the
/// reading, parsing and writing stages overlap from the start even on a file of a few MB (with
/// 4,096 two cores gave 1.7 times one on 10 MB: the first chunk was read before any parsing);
/// large enough that the pool seldom waits between chunks (1,024 was 2 % faster than 512 on
/// 40 MB and 3 % on 5 MB, for 9 MB more memory; 2,048 gained nothing more).
pub(super) const MAX_CHUNK: usize = 1024;

/// Bytes of a block (see [`ExportOptions::block_size`]): a few games of the lichess database.
/// Blocks are the pool's unit of work; small enough that the threads finish a chunk's blocks
/// together, large enough that a block's reader costs little.
pub const DEFAULT_BLOCK_SIZE: usize = 32 << 10;

/// Blocks handed to the parsing thread at a time: about as many bytes as [`MAX_CHUNK`] games.
pub(super) const BLOCKS_PER_CHUNK: usize = 64;

/// Blocks parsed ahead of the oldest one not yet emitted (see `Parser::run`), per thread of the
/// pool: enough that the pool has work while the parsing thread waits for that block and emits
/// it (on two cores 16 blocks ran as fast as 64, with 3 MB less memory).
pub(super) const PARSE_AHEAD_PER_THREAD: usize = 8;

/// Blocks read at first from an input (see `Parser::run`).
pub(super) const FIRST_BLOCKS: usize = 8;

/// How an export is written.
#[derive(Clone, Debug)]
pub struct ExportOptions {
    /// Games per row group (memory grows with it: the row group being filled is held encoded).
    pub row_group_size: usize,
    /// Write `year=YYYY/month=MM/part-0.parquet` instead of one `part-0.parquet`.
    pub partition: bool,
    /// Threads that parse and encode games (0: one per core).
    pub threads: usize,
    /// Replace an output directory that exists and is not empty (it is removed once the new
    /// export is complete).
    pub force: bool,
    /// zstd level of the Parquet pages (6 by default: 1.5 bytes a game smaller than 3 on lichess
    /// games at no measurable CPU cost; BENCHMARKS.md).
    pub zstd_level: i32,
    /// The code of the `moves` column.
    pub moves_code: MovesCode,
    /// Bytes of the blocks an input added by
    /// [`ParquetExporter::add_pgn`](crate::ParquetExporter::add_pgn) is cut into, about (see
    /// [`chessbits::pgn::PgnBlocks`]); the games are the same whatever the size.
    pub block_size: usize,
    /// Also write the lichess dataset's `movetext` column (the movetext as in the file, in
    /// every row), for those who want that exact schema; without it the PGN is rebuilt from
    /// the columns ([`GameRow::to_pgn`](crate::GameRow::to_pgn)).
    pub movetext: bool,
}

impl Default for ExportOptions {
    fn default() -> ExportOptions {
        ExportOptions {
            row_group_size: 64 * 1024,
            partition: false,
            threads: 0,
            force: false,
            zstd_level: 6,
            moves_code: MovesCode::Entropy,
            block_size: DEFAULT_BLOCK_SIZE,
            movetext: false,
        }
    }
}

/// What an export wrote.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ExportSummary {
    /// Rows written (games read).
    pub games: u64,
    /// Games that could not be read, in `_rejected.pgn` and `_rejected.tsv`.
    pub rejected: u64,
    /// Of those, games longer than [`MAX_GAME_BYTES`](chessbits::pgn::MAX_GAME_BYTES) (their
    /// bytes are not in `_rejected.pgn`).
    pub rejected_too_long: u64,
    /// Plies of the games written.
    pub plies: u64,
    /// Row groups written, over all files.
    pub row_groups: u64,
    /// The Parquet files, relative to the output directory, sorted.
    pub files: Vec<PathBuf>,
}
