//! The `sources` table: the input files the games came from, so that a game's PGN text can be
//! read back (`search --pgn`) and a changed file noticed.
//!
//! | column | type | meaning |
//! |---|---|---|
//! | `source` | int32 | the number `games.source` refers to |
//! | `path` | utf8 | the file as given (absolute when it could be made so); `-` for standard input |
//! | `format` | utf8 | `pgn` (PGN text, plain, gzip or zstd), `cbits` (a `.cbits` archive) or `parquet` (one part file of a Parquet export) |
//! | `bytes` | int64 | its length when indexed |
//! | `modified` | int64, null | its modification time (nanoseconds since 1970) when indexed |
//! | `games` | int64 | the games it gave the index |
//! | `first_game` | int64 | the number of its first game |
//!
//! What a game's `offset`, `length` and `line` (in the `games` table) mean depends on the
//! source's format:
//!
//! | format | `offset` | `length` | `line` |
//! |---|---|---|---|
//! | `pgn` | the byte where the game starts in the decompressed file | its bytes | the line it starts on |
//! | `cbits` | the game's number in the archive (from 0) | 0 | 0 |
//! | `parquet` | the game's row in the part file (from 0) | 0 | 0 |
//!
//! An export directory is one source per part file (in the order of their paths); its rows are
//! numbered in that order, every row one game (see [`crate::build::export_parts`]).

use std::path::Path;
use std::sync::Arc;

use arrow_array::builder::{Int32Builder, Int64Builder, StringBuilder};
use arrow_array::{ArrayRef, Int32Array, Int64Array, RecordBatch, StringArray};
use arrow_schema::{DataType, Field, SchemaRef};

use super::{column, opt_i64, schema_ref};
use crate::build::SourceFormat;
use crate::error::IndexError;

/// The table's schema.
pub fn schema() -> SchemaRef {
    schema_ref(vec![
        Field::new("source", DataType::Int32, false),
        Field::new("path", DataType::Utf8, false),
        Field::new("format", DataType::Utf8, false),
        Field::new("bytes", DataType::Int64, false),
        Field::new("modified", DataType::Int64, true),
        Field::new("games", DataType::Int64, false),
        Field::new("first_game", DataType::Int64, false),
    ])
}

/// One input file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SourceRow {
    pub source: u32,
    pub path: String,
    /// How its games are read back.
    pub format: SourceFormat,
    pub bytes: u64,
    pub modified: Option<i64>,
    pub games: u64,
    pub first_game: u64,
}

pub(crate) fn to_batch(rows: &[SourceRow]) -> RecordBatch {
    let n = rows.len();
    let mut source = Int32Builder::with_capacity(n);
    let mut path = StringBuilder::with_capacity(n, n * 32);
    let mut format = StringBuilder::with_capacity(n, n * 5);
    let mut ints: [Int64Builder; 3] = std::array::from_fn(|_| Int64Builder::with_capacity(n));
    let mut modified = Int64Builder::with_capacity(n);
    for r in rows {
        source.append_value(r.source as i32);
        path.append_value(&r.path);
        format.append_value(r.format.name());
        modified.append_option(r.modified);
        for (b, v) in ints.iter_mut().zip([r.bytes, r.games, r.first_game]) {
            b.append_value(v as i64);
        }
    }
    let [mut bytes, mut games, mut first_game] = ints;
    let columns: Vec<ArrayRef> = vec![
        Arc::new(source.finish()),
        Arc::new(path.finish()),
        Arc::new(format.finish()),
        Arc::new(bytes.finish()),
        Arc::new(modified.finish()),
        Arc::new(games.finish()),
        Arc::new(first_game.finish()),
    ];
    RecordBatch::try_new(schema(), columns).expect("columns match the schema")
}

pub(crate) fn from_batch(batch: &RecordBatch, file: &Path, out: &mut Vec<SourceRow>) -> Result<(), IndexError> {
    let source = column::<Int32Array>(batch, "source", file)?;
    let path = column::<StringArray>(batch, "path", file)?;
    let format = column::<StringArray>(batch, "format", file)?;
    let int64 = |name| column::<Int64Array>(batch, name, file);
    let (bytes, modified, games, first_game) = (
        int64("bytes")?,
        int64("modified")?,
        int64("games")?,
        int64("first_game")?,
    );
    let bad = || IndexError::Format {
        path: file.to_path_buf(),
        reason: "sources: a negative number".to_string(),
    };
    for i in 0..batch.num_rows() {
        out.push(SourceRow {
            source: u32::try_from(source.value(i)).map_err(|_| bad())?,
            path: path.value(i).to_string(),
            format: SourceFormat::from_name(format.value(i)).ok_or_else(|| IndexError::Format {
                path: file.to_path_buf(),
                reason: format!("sources: an unknown format `{}`", format.value(i)),
            })?,
            bytes: u64::try_from(bytes.value(i)).map_err(|_| bad())?,
            modified: opt_i64(modified, i),
            games: u64::try_from(games.value(i)).map_err(|_| bad())?,
            first_game: u64::try_from(first_game.value(i)).map_err(|_| bad())?,
        });
    }
    Ok(())
}
