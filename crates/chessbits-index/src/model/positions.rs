//! The `positions` table: every position of every game's main line, for exact search.
//!
//! | column | type | meaning |
//! |---|---|---|
//! | `key` | binary(16) | the [position key](crate::key), big-endian |
//! | `game` | int64 | the game (`games.game`) |
//! | `ply` | int32 | half-moves played before the position (0: the game's start) |
//! | `uci` | utf8, null | the move the game played there (UCI); null where the game ended |
//! | `solo` | boolean | the `explorer` table has no rows for this game at this key: the key is reached by exactly one decided game (of the build that wrote the file), and this is that game's first row at the key |
//!
//! Sorted by `key`, `game`, `ply`. A game that stands in a position twice has two rows.
//!
//! **Why `solo`.** After the opening nearly every position is reached by one game; an explorer
//! row for it would repeat what this row and the game's row already say (at 16 bytes of key per
//! row, it was half the index). So the explorer leaves out the keys of one decided game, and a
//! query derives their counts from the `solo` row: one game, counted under `uci`, with the
//! game's result, speed, rating band and month (see [`crate::model::explorer`]). Only rows of
//! pages whose `solo` column holds a `true` are read for it (page statistics), so a popular
//! position pays nothing for them.

use std::path::Path;
use std::sync::Arc;

use arrow_array::builder::{BinaryBuilder, Int32Builder, Int64Builder, StringBuilder};
use arrow_array::{ArrayRef, BinaryArray, BooleanArray, Int32Array, Int64Array, RecordBatch, StringArray};
use arrow_schema::{DataType, Field, SchemaRef};

use super::{column, key_at, opt_str, schema_ref};
use crate::build::records::{uci_text, PositionRecord};
use crate::error::IndexError;

/// The table's schema.
pub fn schema() -> SchemaRef {
    let mut fields = raw_fields();
    fields.push(Field::new("solo", DataType::Boolean, false));
    schema_ref(fields)
}

/// The schema of the rows before the build marks them (no `solo` column): what
/// [`crate::export_records`] gives, one game at a time, unsorted.
pub fn raw_schema() -> SchemaRef {
    schema_ref(raw_fields())
}

fn raw_fields() -> Vec<Field> {
    vec![
        Field::new("key", DataType::Binary, false),
        Field::new("game", DataType::Int64, false),
        Field::new("ply", DataType::Int32, false),
        Field::new("uci", DataType::Utf8, true),
    ]
}

/// One row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionRow {
    pub key: u128,
    pub game: u64,
    pub ply: u32,
    pub uci: Option<String>,
}

/// The rows of `records` with their `solo` flags (one per record), as the table holds them.
pub(crate) fn to_batch(records: &[PositionRecord], solo: &[bool]) -> RecordBatch {
    let raw = to_raw_batch(records);
    let mut columns = raw.columns().to_vec();
    columns.push(Arc::new(BooleanArray::from(solo.to_vec())));
    RecordBatch::try_new(schema(), columns).expect("columns match the schema")
}

/// The rows of `records` without `solo` ([`raw_schema`]).
pub(crate) fn to_raw_batch(records: &[PositionRecord]) -> RecordBatch {
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
    RecordBatch::try_new(raw_schema(), columns).expect("columns match the schema")
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

/// The `game` and `ply` of the rows of `batch` whose key is `key` and whose `solo` is true.
pub(crate) fn solo_rows_with_key(
    batch: &RecordBatch,
    key: u128,
    path: &Path,
    out: &mut Vec<PositionRow>,
) -> Result<(), IndexError> {
    let keys = column::<BinaryArray>(batch, "key", path)?;
    let games = column::<Int64Array>(batch, "game", path)?;
    let plies = column::<Int32Array>(batch, "ply", path)?;
    let ucis = column::<StringArray>(batch, "uci", path)?;
    let solo = column::<BooleanArray>(batch, "solo", path)?;
    for i in 0..batch.num_rows() {
        if solo.value(i) && key_at(keys, i, path)? == key {
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

/// Marks the rows of a sorted stream: a key's rows wait here until it is known whether exactly
/// one decided game reaches the key (then its first row there is `solo`). Rows of undecided
/// games before that game's first row pass at once.
#[derive(Default)]
pub(crate) struct SoloMarker {
    key: Option<u128>,
    /// Decided games seen at the current key (0, 1, or 2 meaning "two or more").
    decided: u8,
    /// Rows held from the first decided game's first row on (only while `decided == 1`).
    held: Vec<PositionRecord>,
}

impl SoloMarker {
    /// Takes the next row (in table order); `decided`: whether its game has a decided result.
    /// Rows whose flag is known go to `out` in order.
    pub fn push(&mut self, r: PositionRecord, decided: bool, out: &mut impl FnMut(PositionRecord, bool)) {
        if self.key != Some(r.key) {
            self.end_key(out);
            self.key = Some(r.key);
        }
        // A game's rows are consecutive; `held[0]` is the first decided game's first row.
        let another = match self.decided {
            0 => true,
            1 => self.held[0].game != r.game,
            _ => false,
        };
        if decided && another {
            self.decided += 1;
            if self.decided == 2 {
                // Two decided games: the explorer has rows for this key.
                self.held.drain(..).for_each(|h| out(h, false));
                out(r, false);
                return;
            }
        }
        match self.decided {
            1 => self.held.push(r),
            _ => out(r, false),
        }
    }

    /// Ends the stream (or the current key): the held rows go out, the first one `solo` when
    /// one decided game reached the key.
    pub fn end_key(&mut self, out: &mut impl FnMut(PositionRecord, bool)) {
        let solo = self.decided == 1;
        for (i, h) in self.held.drain(..).enumerate() {
            out(h, solo && i == 0);
        }
        self.decided = 0;
    }
}
