//! The `positions` table: every position of every game's main line, for exact search.
//!
//! | column | type | meaning |
//! |---|---|---|
//! | `key` | binary(16) | the [position key](crate::key), big-endian |
//! | `game` | int64 | the game (`games.game`) |
//! | `ply` | int32 | half-moves played before the position (0: the game's start) |
//! | `uci` | utf8, null | the move the game played there (UCI); null where the game ended |
//!
//! Sorted by `key`, `game`, `ply`. A game that stands in a position twice has two rows.

use std::path::Path;
use std::sync::Arc;

use arrow_array::builder::{BinaryBuilder, Int32Builder, Int64Builder, StringBuilder};
use arrow_array::{ArrayRef, BinaryArray, Int32Array, Int64Array, RecordBatch, StringArray};
use arrow_schema::{DataType, Field, SchemaRef};

use super::{column, key_at, opt_str, schema_ref};
use crate::build::records::{uci_text, PositionRecord};
use crate::error::IndexError;

/// The table's schema.
pub fn schema() -> SchemaRef {
    schema_ref(vec![
        Field::new("key", DataType::Binary, false),
        Field::new("game", DataType::Int64, false),
        Field::new("ply", DataType::Int32, false),
        Field::new("uci", DataType::Utf8, true),
    ])
}

/// One row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionRow {
    pub key: u128,
    pub game: u64,
    pub ply: u32,
    pub uci: Option<String>,
}

pub(crate) fn to_batch(records: &[PositionRecord]) -> RecordBatch {
    let n = records.len();
    let mut key = BinaryBuilder::with_capacity(n, n * 16);
    let mut game = Int64Builder::with_capacity(n);
    let mut ply = Int32Builder::with_capacity(n);
    let mut uci = StringBuilder::with_capacity(n, n * 4);
    for r in records {
        key.append_value(r.key.to_be_bytes());
        game.append_value(r.game as i64);
        ply.append_value(r.ply as i32);
        uci.append_option(uci_text(r.mv));
    }
    let columns: Vec<ArrayRef> = vec![
        Arc::new(key.finish()),
        Arc::new(game.finish()),
        Arc::new(ply.finish()),
        Arc::new(uci.finish()),
    ];
    RecordBatch::try_new(schema(), columns).expect("columns match the schema")
}

/// The rows of `batch` whose key is `key`.
pub(crate) fn rows_with_key(
    batch: &RecordBatch,
    key: u128,
    path: &Path,
    out: &mut Vec<PositionRow>,
) -> Result<(), IndexError> {
    let keys = column::<BinaryArray>(batch, "key", path)?;
    let games = column::<Int64Array>(batch, "game", path)?;
    let plies = column::<Int32Array>(batch, "ply", path)?;
    let ucis = column::<StringArray>(batch, "uci", path)?;
    for i in 0..batch.num_rows() {
        if key_at(keys, i, path)? == key {
            out.push(PositionRow {
                key,
                game: games.value(i) as u64,
                ply: plies.value(i) as u32,
                uci: opt_str(ucis, i),
            });
        }
    }
    Ok(())
}
