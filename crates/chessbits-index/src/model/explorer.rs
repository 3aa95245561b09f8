//! The `explorer` table: for each position, the moves played from it and how those games
//! ended, split by speed, rating band and month so that filters are sums of rows.
//!
//! | column | type | meaning |
//! |---|---|---|
//! | `key` | binary(16) | the [position key](crate::key), big-endian |
//! | `uci` | utf8, null | the move (UCI; castling as `e1g1`, Chess960 castling as king takes rook); null: the games ended in the position |
//! | `speed` | utf8, null | `ultraBullet` ... `correspondence` (from `TimeControl`); null: unknown |
//! | `rating` | int32, null | the lichess rating band (0, 1000, 1200, ..., 2200, 2500) of the players' average rating; null: a rating missing |
//! | `month` | utf8, null | `YYYY-MM` of `UTCDate` (else `Date`); null: unknown |
//! | `white`, `draws`, `black` | int64 | games won by White, drawn, won by Black |
//! | `rated` | int64 | games of the row with an average rating |
//! | `rating_sum` | int64 | the sum of those averages |
//! | `last_date` | utf8, null | the latest date among the row's games (`YYYY.MM.DD`) |
//! | `last_game` | int64 | the latest game of the row (`games.game`) |
//!
//! Counts are per game: a game counts once per position, under the move it played at the
//! position's first occurrence in it (null when it ended there). Games without a decided result
//! (`*`) are not counted.
//!
//! **Keys of one game are left out** (since format 2): a key that exactly one decided game
//! reaches (in the build that wrote the file) has no rows here; its `positions` row with `solo`
//! true stands for it, and its counts are that one game's (see [`crate::model::positions`]).
//! Summing every row of a key, plus one game per `solo` row of the key, gives the games that
//! reached the position.

use std::path::Path;
use std::sync::Arc;

use arrow_array::builder::{BinaryBuilder, Int32Builder, Int64Builder, StringBuilder};
use arrow_array::{ArrayRef, BinaryArray, Int32Array, Int64Array, RecordBatch, StringArray};
use arrow_schema::{DataType, Field, SchemaRef};

use super::game::{date_text, month_number, month_of, pack_date, Speed, RATING_BANDS};
use super::{column, key_at, opt_i32, opt_str, schema_ref};
use crate::build::records::{uci_text, ExplorerRecord};
use crate::error::IndexError;

/// The columns a query without a speed, rating or month filter reads: [`COLUMNS`] less those
/// three (also the [`explorer_summary`](super::explorer_summary) columns less `speed` and
/// `rating`). Rows read with them have `speed`, `rating` and `month` `None`; a move table then
/// decodes 9 column pages (and 7 dictionary pages) a file instead of 12 (and 10).
pub const TOTAL_COLUMNS: [&str; 9] = [
    "key",
    "uci",
    "white",
    "draws",
    "black",
    "rated",
    "rating_sum",
    "last_date",
    "last_game",
];

/// The columns, in order: [`TOTAL_COLUMNS`] with `speed`, `rating` and `month` after `uci`.
pub const COLUMNS: [&str; 12] = with_groups(&["speed", "rating", "month"]);

/// [`TOTAL_COLUMNS`] with the grouping columns `groups` after `uci` (`N`: their number).
pub(crate) const fn with_groups<const N: usize>(groups: &[&'static str]) -> [&'static str; N] {
    assert!(TOTAL_COLUMNS.len() + groups.len() == N, "the lengths add up to N");
    let mut out = [""; N];
    let mut i = 0;
    while i < N {
        out[i] = match i {
            0 | 1 => TOTAL_COLUMNS[i],
            _ if i < 2 + groups.len() => groups[i - 2],
            _ => TOTAL_COLUMNS[i - groups.len()],
        };
        i += 1;
    }
    out
}

/// Which grouping columns a batch was read with; a row read without one has it `None`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Groups {
    /// `speed` and `rating`.
    pub bands: bool,
    /// `month` (the `explorer_summary` table has none).
    pub month: bool,
}

impl Groups {
    /// Every column of the `explorer` table ([`COLUMNS`]).
    pub const ALL: Groups = Groups {
        bands: true,
        month: true,
    };
    /// [`TOTAL_COLUMNS`].
    pub const NONE: Groups = Groups {
        bands: false,
        month: false,
    };
}

/// The table's schema.
pub fn schema() -> SchemaRef {
    let count = |name: &str| Field::new(name, DataType::Int64, false);
    schema_ref(vec![
        Field::new("key", DataType::Binary, false),
        Field::new("uci", DataType::Utf8, true),
        Field::new("speed", DataType::Utf8, true),
        Field::new("rating", DataType::Int32, true),
        Field::new("month", DataType::Utf8, true),
        count("white"),
        count("draws"),
        count("black"),
        count("rated"),
        count("rating_sum"),
        Field::new("last_date", DataType::Utf8, true),
        count("last_game"),
    ])
}

/// One row, as read back.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExplorerRow {
    pub uci: Option<String>,
    pub speed: Option<Speed>,
    pub rating: Option<u16>,
    /// [`month_number`] of the `month` column.
    pub month: Option<u32>,
    pub white: u64,
    pub draws: u64,
    pub black: u64,
    pub rated: u64,
    pub rating_sum: u64,
    /// Packed (see [`pack_date`]).
    pub last_date: u32,
    pub last_game: u64,
}

pub(crate) fn to_batch(records: &[ExplorerRecord]) -> RecordBatch {
    let n = records.len();
    let mut key = BinaryBuilder::with_capacity(n, n * 16);
    let mut uci = StringBuilder::with_capacity(n, n * 4);
    let mut speed = StringBuilder::with_capacity(n, n * 5);
    let mut rating = Int32Builder::with_capacity(n);
    let mut month = StringBuilder::with_capacity(n, n * 7);
    let mut counts: [Int64Builder; 5] = std::array::from_fn(|_| Int64Builder::with_capacity(n));
    let mut last_date = StringBuilder::with_capacity(n, n * 10);
    let mut last_game = Int64Builder::with_capacity(n);
    for r in records {
        key.append_value(r.key.to_be_bytes());
        uci.append_option(uci_text(r.mv));
        speed.append_option(Speed::from_code(r.speed).map(Speed::name));
        rating.append_option(r.band.checked_sub(1).map(|b| RATING_BANDS[b as usize] as i32));
        month.append_option(month_of_number(r.month));
        for (builder, value) in counts.iter_mut().zip([
            r.white as u64,
            r.draws as u64,
            r.black as u64,
            r.rated as u64,
            r.rating_sum,
        ]) {
            builder.append_value(value as i64);
        }
        last_date.append_option(date_text(r.last_date));
        last_game.append_value(r.last_game as i64);
    }
    let [white, draws, black, rated, rating_sum] = counts;
    let mut columns: Vec<ArrayRef> = vec![
        Arc::new(key.finish()),
        Arc::new(uci.finish()),
        Arc::new(speed.finish()),
        Arc::new(rating.finish()),
        Arc::new(month.finish()),
    ];
    for mut builder in [white, draws, black, rated, rating_sum] {
        columns.push(Arc::new(builder.finish()));
    }
    columns.push(Arc::new(last_date.finish()));
    columns.push(Arc::new(last_game.finish()));
    RecordBatch::try_new(schema(), columns).expect("columns match the schema")
}

/// The row that [`to_batch`] writes for `r` and [`Columns::row`] reads back, with the move
/// `uci`: a query's row for a `solo` position (see [`crate::model::positions`]).
pub(crate) fn row_of_record(r: &ExplorerRecord, uci: Option<String>) -> ExplorerRow {
    ExplorerRow {
        uci,
        speed: Speed::from_code(r.speed),
        rating: r.band.checked_sub(1).map(|b| RATING_BANDS[b as usize]),
        month: month_of_number(r.month).and_then(|text| month_number(&text)),
        white: r.white as u64,
        draws: r.draws as u64,
        black: r.black as u64,
        rated: r.rated as u64,
        rating_sum: r.rating_sum,
        last_date: date_text(r.last_date).map_or(0, |d| pack_date(&d)),
        last_game: r.last_game as u64,
    }
}

/// `YYYY-MM` of a month number as records hold it (0: unknown).
fn month_of_number(month: u16) -> Option<String> {
    (month > 0).then(|| {
        let (year, month) = (month as u32 / 12, month as u32 % 12 + 1);
        month_of(year * 10000 + month * 100).expect("a known month")
    })
}

/// The rows of `batch` whose key is `key`, of a batch read with the grouping columns `groups`
/// (this table's or [`explorer_summary`](super::explorer_summary)'s).
pub(crate) fn rows_with_key(
    batch: &RecordBatch,
    key: u128,
    path: &Path,
    groups: Groups,
    out: &mut Vec<ExplorerRow>,
) -> Result<(), IndexError> {
    let columns = Columns::of(batch, path, groups)?;
    for i in 0..batch.num_rows() {
        if columns.key(i)? == key {
            out.push(columns.row(i)?);
        }
    }
    Ok(())
}

/// The columns of a batch of the table (or of [`crate::model::explorer_summary`], which has no
/// `month`), read row by row with typed errors.
pub(crate) struct Columns<'a> {
    path: &'a Path,
    keys: &'a BinaryArray,
    uci: &'a StringArray,
    speed: Option<&'a StringArray>,
    rating: Option<&'a Int32Array>,
    month: Option<&'a StringArray>,
    /// `white`, `draws`, `black`, `rated`, `rating_sum`, `last_game`.
    counts: [&'a Int64Array; 6],
    last_date: &'a StringArray,
}

impl<'a> Columns<'a> {
    /// The columns of `batch`, read with the grouping columns `groups` (a missing one is an
    /// error; rows read without one have it `None`).
    pub fn of(batch: &'a RecordBatch, path: &'a Path, groups: Groups) -> Result<Columns<'a>, IndexError> {
        let count = |name| column::<Int64Array>(batch, name, path);
        let bands = groups.bands;
        Ok(Columns {
            path,
            keys: column::<BinaryArray>(batch, "key", path)?,
            uci: column::<StringArray>(batch, "uci", path)?,
            speed: bands.then(|| column::<StringArray>(batch, "speed", path)).transpose()?,
            rating: bands.then(|| column::<Int32Array>(batch, "rating", path)).transpose()?,
            month: groups
                .month
                .then(|| column::<StringArray>(batch, "month", path))
                .transpose()?,
            counts: [
                count("white")?,
                count("draws")?,
                count("black")?,
                count("rated")?,
                count("rating_sum")?,
                count("last_game")?,
            ],
            last_date: column::<StringArray>(batch, "last_date", path)?,
        })
    }

    /// The key of row `i`.
    pub fn key(&self, i: usize) -> Result<u128, IndexError> {
        key_at(self.keys, i, self.path)
    }

    /// Row `i` (without its key).
    pub fn row(&self, i: usize) -> Result<ExplorerRow, IndexError> {
        let bad = |reason: String| IndexError::format(self.path, reason);
        let speed = match self.speed.and_then(|s| opt_str(s, i)) {
            Some(name) => Some(Speed::from_name(&name).ok_or_else(|| bad(format!("unknown speed `{name}`")))?),
            None => None,
        };
        let month = match self.month.and_then(|m| opt_str(m, i)) {
            Some(text) => Some(month_number(&text).ok_or_else(|| bad(format!("bad month `{text}`")))?),
            None => None,
        };
        let [white, draws, black, rated, rating_sum, last_game] = self
            .counts
            .map(|a| u64::try_from(a.value(i)).map_err(|_| bad(format!("a negative count ({})", a.value(i)))));
        Ok(ExplorerRow {
            uci: opt_str(self.uci, i),
            speed,
            rating: self
                .rating
                .and_then(|r| opt_i32(r, i))
                .map(|r| r.clamp(0, u16::MAX as i32) as u16),
            month,
            white: white?,
            draws: draws?,
            black: black?,
            rated: rated?,
            rating_sum: rating_sum?,
            last_date: opt_str(self.last_date, i).map_or(0, |d| pack_date(&d)),
            last_game: last_game?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_column_lists_follow_the_schemas() {
        let names = |schema: SchemaRef| -> Vec<String> { schema.fields().iter().map(|f| f.name().clone()).collect() };
        assert_eq!(COLUMNS.to_vec(), names(schema()));
        assert_eq!(
            super::super::explorer_summary::COLUMNS.to_vec(),
            names(super::super::explorer_summary::schema())
        );
        let groups = ["speed", "rating", "month"];
        let without: Vec<&str> = COLUMNS.iter().copied().filter(|c| !groups.contains(c)).collect();
        assert_eq!(without, TOTAL_COLUMNS.to_vec());
        assert_eq!(
            super::super::explorer_summary::COLUMNS.to_vec(),
            COLUMNS.iter().copied().filter(|&c| c != "month").collect::<Vec<_>>()
        );
    }
}
