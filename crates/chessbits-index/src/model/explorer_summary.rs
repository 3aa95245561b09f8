//! The `explorer_summary` table: for each popular position, its `explorer` rows summed over
//! `month`, so that `explore` without a month filter reads a few hundred rows for the start
//! position instead of tens of thousands.
//!
//! | column | type | meaning |
//! |---|---|---|
//! | `key` | binary(16) | the [position key](crate::key), big-endian |
//! | `uci` | utf8, null | the move, as in [`explorer`]; null: the games ended in the position |
//! | `speed` | utf8, null | as in `explorer` |
//! | `rating` | int32, null | as in `explorer` |
//! | `white`, `draws`, `black` | int64 | the sums of the `explorer` rows of the key, move, speed and rating band |
//! | `rated`, `rating_sum` | int64 | their sums |
//! | `last_date` | utf8, null | `last_date` of the row with the greatest (`last_date`, `last_game`) among them |
//! | `last_game` | int64 | `last_game` of that row |
//!
//! Sorted by `key` (then `uci`, `speed`, `rating`, nulls first).
//!
//! # Which rows
//!
//! The table has **one file per file of the `explorer` table**, in the manifest's order, and
//! file *i* is computed from explorer file *i* alone: a key with more than [`THRESHOLD`] rows
//! there has its rows summed over `month` (one row per move, speed and rating band); a key with
//! fewer has none, and a query reads its rows from explorer file *i*. A part added by `index add`
//! gets its own file (often with fewer keys, or none). Without a month filter, both give the same
//! sums, so `explore` answers the same either way.
//!
//! In SQL (DuckDB, Spark), the rows of one explorer file are
//!
//! ```sql
//! SELECT key, uci, speed, rating, sum(white) AS white, sum(draws) AS draws, sum(black) AS black,
//!        sum(rated) AS rated, sum(rating_sum) AS rating_sum,
//!        max_by(last_date, (<last_date as YYYYMMDD>, last_game)) AS last_date,
//!        max_by(last_game, (<last_date as YYYYMMDD>, last_game)) AS last_game
//! FROM explorer
//! WHERE key IN (SELECT key FROM explorer GROUP BY key HAVING count(*) > 64)
//! GROUP BY key, uci, speed, rating ORDER BY key, uci NULLS FIRST, speed NULLS FIRST, rating NULLS FIRST;
//! ```
//!
//! [`explorer_summary_of_explorer`] computes a file from a finished `explorer` file.

use std::collections::BTreeMap;
use std::fs::File;
use std::path::Path;
use std::sync::Arc;

use arrow_array::builder::{BinaryBuilder, Int32Builder, Int64Builder, StringBuilder};
use arrow_array::{ArrayRef, RecordBatch};
use arrow_schema::SchemaRef;
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;

use super::create_plain_writer;
use super::explorer::{self, Columns, ExplorerRow, Groups};
use super::game::{date_text, Speed};
use crate::error::IndexError;

/// A key has rows when it has more `explorer` rows than this (in one explorer file): with fewer,
/// reading them costs about as much as reading the summary's.
pub const THRESHOLD: usize = 64;

/// Rows per record batch handed to the writer.
const WRITE_ROWS: usize = 1 << 14;

/// The columns, in order: those of `explorer` but `month`.
pub const COLUMNS: [&str; 11] = explorer::with_groups(&["speed", "rating"]);

/// The table's schema.
pub fn schema() -> SchemaRef {
    let explorer = explorer::schema();
    let fields: Vec<_> = COLUMNS
        .iter()
        .map(|name| explorer.field_with_name(name).expect("an explorer column").clone())
        .collect();
    super::schema_ref(fields)
}

/// What rows of one key sum to: per move, speed and rating band.
type Sums = BTreeMap<(Option<String>, Option<Speed>, Option<u16>), ExplorerRow>;

/// Adds `row` to `sums` (month dropped).
fn add(sums: &mut Sums, row: ExplorerRow) {
    let group = (row.uci.clone(), row.speed, row.rating);
    match sums.get_mut(&group) {
        Some(sum) => {
            sum.white += row.white;
            sum.draws += row.draws;
            sum.black += row.black;
            sum.rated += row.rated;
            sum.rating_sum += row.rating_sum;
            // The latest game as `explore` picks it: by date, then by number.
            if (row.last_date, row.last_game) > (sum.last_date, sum.last_game) {
                (sum.last_date, sum.last_game) = (row.last_date, row.last_game);
            }
        }
        None => {
            sums.insert(group, ExplorerRow { month: None, ..row });
        }
    }
}

/// Writes the `explorer_summary` file `out` of a finished `explorer` file (rows sorted by key);
/// returns the rows written. The build runs it on each explorer file it writes, the seal on each
/// file an outside tool (Spark) wrote: list the files in the manifest in the explorer files'
/// order.
pub fn explorer_summary_of_explorer(explorer: &Path, out: &Path) -> Result<u64, IndexError> {
    let file = File::open(explorer).map_err(|e| IndexError::io(explorer, e))?;
    let reader = ParquetRecordBatchReaderBuilder::try_new(file)
        .map_err(|e| IndexError::parquet(explorer, e))?
        .with_batch_size(8192)
        .build()
        .map_err(|e| IndexError::parquet(explorer, e))?;
    let mut writer = create_plain_writer(out, schema())?;
    let mut pending: Vec<(u128, ExplorerRow)> = Vec::new();
    let mut written = 0u64;
    // The rows of the current key, kept until it has more than THRESHOLD, then summed.
    let mut key: Option<u128> = None;
    let mut rows: Vec<ExplorerRow> = Vec::new();
    let mut count = 0usize;
    let mut sums = Sums::new();
    let end_key = |key: Option<u128>, sums: &mut Sums, pending: &mut Vec<(u128, ExplorerRow)>| {
        if let Some(key) = key {
            pending.extend(std::mem::take(sums).into_values().map(|row| (key, row)));
        }
    };
    for batch in reader {
        let batch = batch
            .map_err(|e| IndexError::parquet(explorer, parquet::errors::ParquetError::ArrowError(e.to_string())))?;
        let columns = Columns::of(&batch, explorer, Groups::ALL)?;
        for i in 0..batch.num_rows() {
            let k = columns.key(i)?;
            if key != Some(k) {
                if key.is_some_and(|key| key > k) {
                    return Err(IndexError::format(explorer, "the rows are not sorted by key"));
                }
                end_key(key, &mut sums, &mut pending);
                key = Some(k);
                rows.clear();
                count = 0;
            }
            let row = columns.row(i)?;
            count += 1;
            match count {
                c if c <= THRESHOLD => rows.push(row),
                c if c == THRESHOLD + 1 => {
                    for row in rows.drain(..) {
                        add(&mut sums, row);
                    }
                    add(&mut sums, row);
                }
                _ => add(&mut sums, row),
            }
        }
        if pending.len() >= WRITE_ROWS {
            written += write(&mut writer, &mut pending, out)?;
        }
    }
    end_key(key, &mut sums, &mut pending);
    written += write(&mut writer, &mut pending, out)?;
    writer.close().map_err(|e| IndexError::parquet(out, e))?;
    Ok(written)
}

/// Writes and empties `pending`; returns its rows.
fn write(
    writer: &mut parquet::arrow::ArrowWriter<File>,
    pending: &mut Vec<(u128, ExplorerRow)>,
    path: &Path,
) -> Result<u64, IndexError> {
    if pending.is_empty() {
        return Ok(0);
    }
    writer
        .write(&to_batch(pending))
        .map_err(|e| IndexError::parquet(path, e))?;
    let n = pending.len() as u64;
    pending.clear();
    Ok(n)
}

fn to_batch(rows: &[(u128, ExplorerRow)]) -> RecordBatch {
    let n = rows.len();
    let mut key = BinaryBuilder::with_capacity(n, n * 16);
    let mut uci = StringBuilder::with_capacity(n, n * 4);
    let mut speed = StringBuilder::with_capacity(n, n * 5);
    let mut rating = Int32Builder::with_capacity(n);
    let mut counts: [Int64Builder; 5] = std::array::from_fn(|_| Int64Builder::with_capacity(n));
    let mut last_date = StringBuilder::with_capacity(n, n * 10);
    let mut last_game = Int64Builder::with_capacity(n);
    for (k, r) in rows {
        key.append_value(k.to_be_bytes());
        uci.append_option(r.uci.as_deref());
        speed.append_option(r.speed.map(Speed::name));
        rating.append_option(r.rating.map(i32::from));
        for (builder, value) in counts
            .iter_mut()
            .zip([r.white, r.draws, r.black, r.rated, r.rating_sum])
        {
            builder.append_value(value as i64);
        }
        last_date.append_option(date_text(r.last_date));
        last_game.append_value(r.last_game as i64);
    }
    let mut columns: Vec<ArrayRef> = vec![
        Arc::new(key.finish()),
        Arc::new(uci.finish()),
        Arc::new(speed.finish()),
        Arc::new(rating.finish()),
    ];
    for mut builder in counts {
        columns.push(Arc::new(builder.finish()));
    }
    columns.push(Arc::new(last_date.finish()));
    columns.push(Arc::new(last_game.finish()));
    RecordBatch::try_new(schema(), columns).expect("columns match the schema")
}
