//! The `positions` table: which games stand in which positions, for exact search. Format 3
//! stores a short prefix of each position's key, not the key: a query finds the candidate games
//! of a key here and keeps those whose moves (`games.replay_moves`) reach the key when replayed
//! (see "Replay" below). The plies and the moves played there are recovered the same way.
//!
//! | column | type | meaning |
//! |---|---|---|
//! | `key_prefix` | int64 | the first *K* bits of the 128-bit [position key](crate::key): `key >> (128 - K)`, so 0 ≤ `key_prefix` < 2^K; *K* is the file's `chessbits.positions.key_bits` footer value (1 ≤ *K* ≤ 63) |
//! | `key_rank` | int32 | which of the file's distinct full keys with this prefix the row stands for: 0 for the smallest key, 1 for the next, ... (almost always 0) |
//! | `game` | int64 | the game (`games.game`) |
//! | `solo` | boolean | the `explorer` table has no rows for this game at this key: the key is reached by exactly one decided game (of the build that wrote the file), and this is that game |
//!
//! One row per game and distinct key: a game that stands in a position twice has one row (its
//! plies come from replay). Sorted by `key_prefix`, `key_rank`, `game` (that is, by the full
//! key, then game). Encodings: `key_prefix`, `key_rank` and `game` are `DELTA_BINARY_PACKED`
//! without a dictionary, zstd-compressed; pages of 4,096 rows with
//! page statistics and page indexes.
//!
//! **Key bits.** A file of *n* rows (before one row per game and key is kept: every ply counts)
//! gets *K* = min(63, max(8, ⌈log2 n⌉ + [`EXTRA_KEY_BITS`])) unless the build was told
//! otherwise ([`crate::IndexBuilder::set_key_bits`], for tests). The sorted prefixes then differ by
//! about 2^4 from row to row and take ~6 bits a row; a query key shares its prefix with another
//! key of the file with probability ~n / 2^K ≈ 1/16, and that costs one more replay.
//!
//! **Replay.** For a query key `q` and a file of *K* bits, the candidate rows are those with
//! `key_prefix = q >> (128 - K)`. Rows of one `key_rank` stand for one full key (the build
//! guarantees it), so one game of each rank group is replayed (from `games.replay_moves`, see
//! [`crate::model::games`]): if one of its positions has key `q`, every game of the group stands
//! in `q`; else none does. A game's plies at `q`, and the move it played at the first of them
//! (none where the game ended), are those of its replay.
//!
//! **Why `solo`.** After the opening nearly every position is reached by one game; an explorer
//! row for it would repeat what this row and the game's row already say. So the explorer leaves
//! out the keys of one decided game, and a query derives their counts from the `solo` row
//! (verified by replaying its game, which also gives the move): one game, counted under that
//! move, with the game's result, speed, rating band and month (see [`crate::model::explorer`]).
//! Only rows of pages whose `solo` column holds a `true` are read for it (page statistics), so a
//! popular position pays nothing for them.
//!
//! **Format 2** (before) stored the 16-byte key, `ply` and `uci` in every row (one row per ply):
//! 17 bytes a row, 1,453 bytes a game on real games; format 3 takes ~2.6 bytes a row (see
//! `docs/index-format-3.md`). An index built elsewhere (the Spark job) still writes the wide rows
//! ([`wide_schema`]); [`crate::seal()`] turns them into this layout.

use std::fs::File;
use std::path::Path;
use std::sync::Arc;

use arrow_array::builder::{BinaryBuilder, Int32Builder, Int64Builder, StringBuilder};
use arrow_array::{ArrayRef, BinaryArray, BooleanArray, Int32Array, Int64Array, RecordBatch};
use arrow_schema::{DataType, Field, SchemaRef};
use parquet::arrow::ArrowWriter;

use super::{column, key_at, schema_ref};
use crate::build::records::{uci_text, PositionRecord};
use crate::error::IndexError;

/// Key bits a file gets beyond ⌈log2 rows⌉ (see "Key bits" above).
pub const EXTRA_KEY_BITS: u32 = 4;

/// The footer key-value entry that holds a positions file's *K*.
pub const KEY_BITS_META: &str = "chessbits.positions.key_bits";

/// The *K* of a file of `rows` rows (every ply counted): ⌈log2 rows⌉ + [`EXTRA_KEY_BITS`],
/// between 8 and 63.
///
/// ```
/// use chessbits_index::model::positions::key_bits_for;
/// assert_eq!(key_bits_for(0), 8);
/// assert_eq!(key_bits_for(479_635), 23);
/// assert_eq!(key_bits_for(u64::MAX), 63);
/// ```
pub fn key_bits_for(rows: u64) -> u32 {
    let log2 = 64 - rows.saturating_sub(1).leading_zeros();
    (log2 + EXTRA_KEY_BITS).clamp(8, 63)
}

/// The `key_prefix` of `key` in a file of `bits` key bits (1..=63).
///
/// ```
/// use chessbits_index::model::positions::key_prefix;
/// assert_eq!(key_prefix(u128::MAX, 8), 255);
/// assert_eq!(key_prefix(1 << 127, 1), 1);
/// ```
pub fn key_prefix(key: u128, bits: u32) -> i64 {
    (key >> (128 - bits.clamp(1, 63))) as i64
}

/// The table's schema.
pub fn schema() -> SchemaRef {
    schema_ref(vec![
        Field::new("key_prefix", DataType::Int64, false),
        Field::new("key_rank", DataType::Int32, false),
        Field::new("game", DataType::Int64, false),
        Field::new("solo", DataType::Boolean, false),
    ])
}

/// The wide rows (format 2's layout): the [`raw_schema`] columns and `solo`, one row per ply,
/// sorted by `key`, `game`, `ply`. What a job that builds the index elsewhere writes;
/// [`crate::seal()`] turns it into [`schema`].
pub fn wide_schema() -> SchemaRef {
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

/// One stored row.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct NarrowRow {
    pub prefix: i64,
    pub rank: i32,
    pub game: u32,
}

/// Turns rows sorted by key, game (ply) into stored rows: one per key and game, with the key's
/// prefix and rank.
pub(crate) struct Narrower {
    bits: u32,
    /// The previous row's prefix and full key, the key's rank, and its game.
    last: Option<(i64, u128, i32, u32)>,
}

impl Narrower {
    pub fn new(bits: u32) -> Narrower {
        Narrower { bits, last: None }
    }

    /// The stored row of the next row (key, game); `None` for a later row of the same game and
    /// key.
    pub fn push(&mut self, key: u128, game: u32) -> Option<NarrowRow> {
        let prefix = key_prefix(key, self.bits);
        let rank = match self.last {
            Some((_, k, _, g)) if k == key && g == game => return None,
            Some((p, k, r, _)) if p == prefix => r + (k != key) as i32,
            _ => 0,
        };
        self.last = Some((prefix, key, rank, game));
        Some(NarrowRow { prefix, rank, game })
    }
}

/// The stored rows with their `solo` flags (one per row), as the table holds them.
pub(crate) fn to_batch(rows: &[NarrowRow], solo: &[bool]) -> RecordBatch {
    let columns: Vec<ArrayRef> = vec![
        Arc::new(Int64Array::from_iter_values(rows.iter().map(|r| r.prefix))),
        Arc::new(Int32Array::from_iter_values(rows.iter().map(|r| r.rank))),
        Arc::new(Int64Array::from_iter_values(rows.iter().map(|r| r.game as i64))),
        Arc::new(BooleanArray::from(solo.to_vec())),
    ];
    RecordBatch::try_new(schema(), columns).expect("columns match the schema")
}

/// The wide rows of `records` with their `solo` flags ([`wide_schema`]).
pub(crate) fn to_wide_batch(records: &[PositionRecord], solo: &[bool]) -> RecordBatch {
    let raw = to_raw_batch(records);
    let mut columns = raw.columns().to_vec();
    columns.push(Arc::new(BooleanArray::from(solo.to_vec())));
    RecordBatch::try_new(wide_schema(), columns).expect("columns match the schema")
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

/// A row whose prefix is a query key's: its game stands in the key's position if a game of its
/// rank group does.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct Candidate {
    pub rank: i32,
    pub game: u64,
    pub solo: bool,
}

/// The rows of `batch` whose `key_prefix` is `prefix`.
pub(crate) fn candidates_with_prefix(
    batch: &RecordBatch,
    prefix: i64,
    path: &Path,
    out: &mut Vec<Candidate>,
) -> Result<(), IndexError> {
    let prefixes = column::<Int64Array>(batch, "key_prefix", path)?;
    let ranks = column::<Int32Array>(batch, "key_rank", path)?;
    let games = column::<Int64Array>(batch, "game", path)?;
    let solo = column::<BooleanArray>(batch, "solo", path)?;
    for i in 0..batch.num_rows() {
        if prefixes.value(i) == prefix {
            let game = u64::try_from(games.value(i)).map_err(|_| IndexError::format(path, "a negative game number"))?;
            out.push(Candidate {
                rank: ranks.value(i),
                game,
                solo: solo.value(i),
            });
        }
    }
    Ok(())
}

/// Whether `batch` (columns `key_prefix` and `solo`) has a `solo` row of `prefix`.
pub(crate) fn has_solo_with_prefix(batch: &RecordBatch, prefix: i64, path: &Path) -> Result<bool, IndexError> {
    let prefixes = column::<Int64Array>(batch, "key_prefix", path)?;
    let solo = column::<BooleanArray>(batch, "solo", path)?;
    Ok((0..batch.num_rows()).any(|i| prefixes.value(i) == prefix && solo.value(i)))
}

/// The *K* in a positions file's footer, or a format error naming the file.
pub(crate) fn key_bits_of(meta: &parquet::file::metadata::FileMetaData, path: &Path) -> Result<u32, IndexError> {
    meta.key_value_metadata()
        .and_then(|kv| kv.iter().find(|kv| kv.key == KEY_BITS_META))
        .and_then(|kv| kv.value.as_deref())
        .and_then(|v| v.parse::<u32>().ok())
        .filter(|bits| (1..=63).contains(bits))
        .ok_or_else(|| IndexError::format(path, format!("no `{KEY_BITS_META}` between 1 and 63 in the footer")))
}

/// Writes a positions file of `bits` key bits from wide rows (key, game, solo) in table order.
pub(crate) struct PositionsWriter {
    path: std::path::PathBuf,
    writer: ArrowWriter<File>,
    narrower: Narrower,
    rows: Vec<NarrowRow>,
    solo: Vec<bool>,
    written: u64,
}

impl PositionsWriter {
    pub fn create(path: &Path, bits: u32) -> Result<PositionsWriter, IndexError> {
        Ok(PositionsWriter {
            path: path.to_path_buf(),
            writer: super::create_positions_writer(path, bits)?,
            narrower: Narrower::new(bits),
            rows: Vec::new(),
            solo: Vec::new(),
            written: 0,
        })
    }

    /// Takes the next wide row; a later row of the same key and game is dropped.
    pub fn push(&mut self, key: u128, game: u32, solo: bool) -> Result<(), IndexError> {
        if let Some(row) = self.narrower.push(key, game) {
            self.rows.push(row);
            self.solo.push(solo);
            if self.rows.len() >= 1 << 16 {
                self.flush()?;
            }
        }
        Ok(())
    }

    fn flush(&mut self) -> Result<(), IndexError> {
        if !self.rows.is_empty() {
            self.writer
                .write(&to_batch(&self.rows, &self.solo))
                .map_err(|e| IndexError::parquet(&self.path, e))?;
            self.written += self.rows.len() as u64;
            self.rows.clear();
            self.solo.clear();
        }
        Ok(())
    }

    /// Writes the rest and closes the file; returns its rows.
    pub fn finish(mut self) -> Result<u64, IndexError> {
        self.flush()?;
        self.writer.close().map_err(|e| IndexError::parquet(&self.path, e))?;
        Ok(self.written)
    }
}

/// Rewrites the wide positions file `wide` ([`wide_schema`], sorted by key, game, ply) as a
/// file of this table at `out`; returns its rows.
pub(crate) fn narrow_file(wide: &Path, out: &Path, bits: Option<u32>) -> Result<u64, IndexError> {
    use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
    let file = File::open(wide).map_err(|e| IndexError::io(wide, e))?;
    let builder = ParquetRecordBatchReaderBuilder::try_new(file).map_err(|e| IndexError::parquet(wide, e))?;
    let bits = bits.unwrap_or_else(|| key_bits_for(builder.metadata().file_metadata().num_rows().max(0) as u64));
    let mask = parquet::arrow::ProjectionMask::columns(builder.parquet_schema(), ["key", "game", "solo"]);
    let reader = builder
        .with_projection(mask)
        .build()
        .map_err(|e| IndexError::parquet(wide, e))?;
    let mut writer = PositionsWriter::create(out, bits)?;
    for batch in reader {
        let batch =
            batch.map_err(|e| IndexError::parquet(wide, parquet::errors::ParquetError::ArrowError(e.to_string())))?;
        let keys = column::<BinaryArray>(&batch, "key", wide)?;
        let games = column::<Int64Array>(&batch, "game", wide)?;
        let solo = column::<BooleanArray>(&batch, "solo", wide)?;
        for i in 0..batch.num_rows() {
            let game =
                u32::try_from(games.value(i)).map_err(|_| IndexError::format(wide, "a game number out of range"))?;
            writer.push(key_at(keys, i, wide)?, game, solo.value(i))?;
        }
    }
    writer.finish()
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
