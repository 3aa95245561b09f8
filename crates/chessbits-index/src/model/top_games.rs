//! The `top_games` table: for each popular position, the games the explorer lists (its highest
//! rated and its most recent games), chosen when the index is built, so that `explore` does not
//! read every game of the start position to pick eight.
//!
//! | column | type | meaning |
//! |---|---|---|
//! | `key` | binary(16) | the [position key](crate::key), big-endian |
//! | `game` | int64 | the game (`games.game`) |
//! | `plies` | list\<int32\> | the plies where the game stands in the position (ascending, as the `positions` rows of the key and game) |
//! | `uci` | utf8, null | the move the game played at the first of them (UCI); null where the game ended there |
//! | `rating` | int32, null | the game's average rating: `(white_elo + black_elo) / 2` (integer division) when both are known |
//! | `date` | int32 | the game's date as the number `YYYYMMDD` (unknown month or day 0; 0 when the year is unknown) |
//! | `top` | int32, null | the game's place (0 first) in the position's [top order](#orders), when among the first [`LISTED`] |
//! | `recent` | int32, null | the game's place (0 first) in the position's [recent order](#orders), when among the first [`LISTED`] |
//! | `games` | int64 | the decided games of the position that the lists were chosen from (more than [`THRESHOLD`]) |
//!
//! Sorted by `key`, `game`.
//!
//! # Which rows
//!
//! The table has **one file per file of the `positions` table**, in the manifest's order, and
//! file *i* is computed from the rows of positions file *i* alone: for each key whose rows there
//! name more than [`THRESHOLD`] *decided* games (result `1-0`, `0-1` or `1/2-1/2` in the
//! `games` table), the file has a row for each game among the first [`LISTED`] of those games in
//! the top order and the first [`LISTED`] in the recent order (a game in both lists has one
//! row). A key with fewer decided games has no rows: a query reads its few games from positions
//! file *i*. An index whose positions are in several files (an `index add` adds one per table)
//! keeps lists per file; the first `n` games of a position overall are among the files' lists,
//! since each file's lists hold its first [`LISTED`].
//!
//! # Orders
//!
//! The orders are total, and are the ones the explorer sorts the games of a position by
//! (stable sorts of the games in `game` order, as [`crate::SortOrder`]):
//!
//! - **top**: `rating` descending (games without a rating last), then `game` ascending;
//! - **recent**: `date` descending, then `rating` descending (without last), then `game`
//!   ascending.
//!
//! In SQL (DuckDB, Spark) the rows of one positions file are
//!
//! ```sql
//! WITH g AS (  -- the decided games of each key, once per game
//!   SELECT p.key, p.game, list(p.ply ORDER BY p.ply) AS plies, first(p.uci ORDER BY p.ply) AS uci,
//!          (games.white_elo + games.black_elo) // 2 AS rating, <date as YYYYMMDD> AS date
//!   FROM positions p JOIN games USING (game)
//!   WHERE games.result IN ('1-0', '0-1', '1/2-1/2') GROUP BY ALL),
//! r AS (SELECT *, count(*) OVER (PARTITION BY key) AS games,
//!   row_number() OVER (PARTITION BY key ORDER BY rating DESC NULLS LAST, game) - 1 AS top,
//!   row_number() OVER (PARTITION BY key ORDER BY date DESC, rating DESC NULLS LAST, game) - 1 AS recent
//!   FROM g)
//! SELECT key, game, plies, uci, rating, date,
//!        CASE WHEN top < 16 THEN top END AS top, CASE WHEN recent < 16 THEN recent END AS recent, games
//! FROM r WHERE games > 16 AND (top < 16 OR recent < 16) ORDER BY key, game;
//! ```
//!
//! [`top_games_of_positions`] computes a file from finished `positions` and `games` files.

use std::cmp::Reverse;
use std::fs::File;
use std::path::Path;
use std::sync::Arc;

use arrow_array::builder::{BinaryBuilder, Int32Builder, Int64Builder, ListBuilder, StringBuilder};
use arrow_array::{Array, ArrayRef, BinaryArray, Int32Array, Int64Array, ListArray, RecordBatch, StringArray};
use arrow_schema::{DataType, Field, SchemaRef};
use parquet::arrow::ArrowWriter;

use super::{column, create_writer, key_at, opt_i32, opt_str, schema_ref};
use crate::error::IndexError;
use crate::model::game::{GameRow, Outcome, Speed};

/// Games per list: `explore` answers from the table when it is asked for at most this many top
/// games and at most this many recent games.
pub const LISTED: usize = 16;

/// A key has rows when more decided games than this reach it (in one positions file): with
/// fewer, reading them all costs about as much as reading the rows.
pub const THRESHOLD: u64 = 16;

/// Rows per record batch handed to the writer.
const WRITE_ROWS: usize = 1 << 14;

/// The table's schema.
pub fn schema() -> SchemaRef {
    schema_ref(vec![
        Field::new("key", DataType::Binary, false),
        Field::new("game", DataType::Int64, false),
        Field::new("plies", plies_type(), false),
        Field::new("uci", DataType::Utf8, true),
        Field::new("rating", DataType::Int32, true),
        Field::new("date", DataType::Int32, false),
        Field::new("top", DataType::Int32, true),
        Field::new("recent", DataType::Int32, true),
        Field::new("games", DataType::Int64, false),
    ])
}

fn plies_type() -> DataType {
    DataType::List(Arc::new(Field::new("item", DataType::Int32, false)))
}

/// The order of a game in the top list (smallest first).
pub(crate) fn top_order(rating: Option<u16>, game: u32) -> (Reverse<i32>, u32) {
    (rating_order(rating), game)
}

/// The order of a game in the recent list (smallest first).
pub(crate) fn recent_order(date: u32, rating: Option<u16>, game: u32) -> (Reverse<u32>, Reverse<i32>, u32) {
    (Reverse(date), rating_order(rating), game)
}

/// Highest rating first, unrated games last.
pub(crate) fn rating_order(rating: Option<u16>) -> Reverse<i32> {
    Reverse(rating.map_or(-1, i32::from))
}

/// What the build keeps of each game while it writes the sorted tables: what the lists need
/// (date, average rating, whether decided) and what an `explorer` row needs besides (speed,
/// result); 12 bytes a game.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct GameKey {
    /// Packed date (`YYYYMMDD`, see [`crate::model::game::pack_date`]).
    pub date: u32,
    /// The average rating.
    pub rating: Option<u16>,
    /// The speed of its time control.
    pub speed: Option<Speed>,
    /// Its result; `None` when undecided (only decided games are counted and listed).
    pub outcome: Option<Outcome>,
}

impl GameKey {
    /// The key of a game row.
    pub fn of(row: &GameRow) -> GameKey {
        GameKey {
            date: row.date,
            rating: row.average_rating(),
            speed: row.speed,
            outcome: row.outcome(),
        }
    }

    /// Whether the result is decided.
    pub fn decided(&self) -> bool {
        self.outcome.is_some()
    }

    /// The key of game number `game` among `keys`, the keys of the games `first..` in order.
    pub(crate) fn of_game(keys: &[GameKey], first: u32, game: u32) -> Option<&GameKey> {
        keys.get(game.checked_sub(first)? as usize)
    }
}

/// A game of a position, as a list holds it (and as the table's row reads back).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TopGameRow {
    pub game: u32,
    pub plies: Vec<u32>,
    pub uci: Option<String>,
    pub rating: Option<u16>,
    pub date: u32,
}

/// The first [`LISTED`] candidates of one order, kept sorted.
struct List<O: Ord> {
    entries: Vec<(O, TopGameRow)>,
}

impl<O: Ord + Copy> List<O> {
    /// Inserts when `order` is among the first [`LISTED`]; whether it was.
    fn offer(&mut self, order: O, row: impl FnOnce() -> TopGameRow) -> bool {
        if self.entries.len() == LISTED && self.entries.last().is_some_and(|(last, _)| *last < order) {
            return false;
        }
        let at = self.entries.partition_point(|(o, _)| *o < order);
        self.entries.insert(at, (order, row()));
        self.entries.truncate(LISTED);
        true
    }

    /// Adds a ply to the entry of `game`, if it is listed.
    fn add_ply(&mut self, game: u32, ply: u32) {
        if let Some((_, row)) = self.entries.iter_mut().find(|(_, r)| r.game == game) {
            row.plies.push(ply);
        }
    }
}

/// Builds the table's file from `positions` rows in their order (key, game, ply).
pub(crate) struct TopGamesWriter<'a> {
    path: std::path::PathBuf,
    writer: ArrowWriter<File>,
    /// The games' keys, by game number minus `first_game`.
    games: &'a [GameKey],
    first_game: u32,
    key: Option<u128>,
    game: Option<u32>,
    /// Whether the current game is listed in either list (its later plies are added there).
    listed: bool,
    decided: u64,
    top: List<(Reverse<i32>, u32)>,
    recent: List<(Reverse<u32>, Reverse<i32>, u32)>,
    pending: Vec<Listed>,
    rows: u64,
}

/// A row of the table, before it is written.
struct Listed {
    key: u128,
    /// The key's decided games.
    decided: u64,
    row: TopGameRow,
    top: Option<i32>,
    recent: Option<i32>,
}

impl<'a> TopGamesWriter<'a> {
    /// A writer of the file at `path`, for positions of the games `first_game..` whose keys are
    /// `games`.
    pub fn create(path: &Path, games: &'a [GameKey], first_game: u32) -> Result<TopGamesWriter<'a>, IndexError> {
        Ok(TopGamesWriter {
            path: path.to_path_buf(),
            writer: create_writer(path, schema(), true)?,
            games,
            first_game,
            key: None,
            game: None,
            listed: false,
            decided: 0,
            top: List { entries: Vec::new() },
            recent: List { entries: Vec::new() },
            pending: Vec::new(),
            rows: 0,
        })
    }

    /// Takes the next `positions` row (rows come sorted by key, game, ply); `uci` is asked for
    /// only when the game is listed.
    pub fn push(
        &mut self,
        key: u128,
        game: u32,
        ply: u32,
        uci: impl FnOnce() -> Option<String>,
    ) -> Result<(), IndexError> {
        if self.key != Some(key) {
            self.end_key()?;
            self.key = Some(key);
        } else if self.game == Some(game) {
            if self.listed {
                self.top.add_ply(game, ply);
                self.recent.add_ply(game, ply);
            }
            return Ok(());
        }
        self.game = Some(game);
        self.listed = false;
        let info = *GameKey::of_game(self.games, self.first_game, game).ok_or_else(|| {
            IndexError::format(
                &self.path,
                format!("a position of game {game}, which the games table lacks"),
            )
        })?;
        if !info.decided() {
            return Ok(());
        }
        self.decided += 1;
        let mut uci = Some(uci);
        let mut row = || TopGameRow {
            game,
            plies: vec![ply],
            uci: uci.take().and_then(|f| f()),
            rating: info.rating,
            date: info.date,
        };
        let in_top = self.top.offer(top_order(info.rating, game), &mut row);
        let in_recent = match in_top {
            // The text was taken: the second copy clones the first.
            true => {
                let first = self
                    .top
                    .entries
                    .iter()
                    .find(|(_, r)| r.game == game)
                    .map(|(_, r)| r.clone());
                self.recent.offer(recent_order(info.date, info.rating, game), || {
                    first.expect("just listed")
                })
            }
            false => self.recent.offer(recent_order(info.date, info.rating, game), row),
        };
        self.listed = in_top || in_recent;
        Ok(())
    }

    /// Writes the rows of the key that ends.
    fn end_key(&mut self) -> Result<(), IndexError> {
        let decided = std::mem::take(&mut self.decided);
        let key = self.key.take();
        self.game = None;
        let key = match key {
            Some(key) if decided > THRESHOLD => key,
            _ => {
                // Nearly every key is listed by nobody: its lists are emptied in place, and the
                // next key fills the same allocations (taking them cost two per key).
                self.top.entries.clear();
                self.recent.entries.clear();
                return Ok(());
            }
        };
        let (top, recent) = (
            std::mem::take(&mut self.top.entries),
            std::mem::take(&mut self.recent.entries),
        );
        let mut rows: Vec<Listed> = Vec::with_capacity(2 * LISTED);
        for (rank, (_, row)) in top.into_iter().enumerate() {
            rows.push(Listed {
                key,
                decided,
                row,
                top: Some(rank as i32),
                recent: None,
            });
        }
        for (rank, (_, row)) in recent.into_iter().enumerate() {
            match rows.iter_mut().find(|r| r.row.game == row.game) {
                Some(r) => r.recent = Some(rank as i32),
                None => rows.push(Listed {
                    key,
                    decided,
                    row,
                    top: None,
                    recent: Some(rank as i32),
                }),
            }
        }
        rows.sort_by_key(|r| r.row.game);
        self.pending.extend(rows);
        if self.pending.len() >= WRITE_ROWS {
            self.flush()?;
        }
        Ok(())
    }

    fn flush(&mut self) -> Result<(), IndexError> {
        if self.pending.is_empty() {
            return Ok(());
        }
        let batch = to_batch(&self.pending);
        self.writer
            .write(&batch)
            .map_err(|e| IndexError::parquet(&self.path, e))?;
        self.rows += self.pending.len() as u64;
        self.pending.clear();
        Ok(())
    }

    /// Writes the last rows and closes the file; returns its rows.
    pub fn finish(mut self) -> Result<u64, IndexError> {
        self.end_key()?;
        self.flush()?;
        self.writer.close().map_err(|e| IndexError::parquet(&self.path, e))?;
        Ok(self.rows)
    }
}

fn to_batch(rows: &[Listed]) -> RecordBatch {
    let n = rows.len();
    let mut key = BinaryBuilder::with_capacity(n, n * 16);
    let mut game = Int64Builder::with_capacity(n);
    let mut plies =
        ListBuilder::new(Int32Builder::new()).with_field(Arc::new(Field::new("item", DataType::Int32, false)));
    let mut uci = StringBuilder::with_capacity(n, n * 4);
    let mut ints: [Int32Builder; 4] = std::array::from_fn(|_| Int32Builder::with_capacity(n));
    let mut games = Int64Builder::with_capacity(n);
    for Listed {
        key: k,
        decided,
        row,
        top,
        recent,
    } in rows
    {
        key.append_value(k.to_be_bytes());
        game.append_value(row.game as i64);
        for &ply in &row.plies {
            plies.values().append_value(ply as i32);
        }
        plies.append(true);
        uci.append_option(row.uci.as_deref());
        let values = [row.rating.map(i32::from), Some(row.date as i32), *top, *recent];
        for (b, v) in ints.iter_mut().zip(values) {
            b.append_option(v);
        }
        games.append_value(*decided as i64);
    }
    let [mut rating, mut date, mut top, mut recent] = ints;
    let columns: Vec<ArrayRef> = vec![
        Arc::new(key.finish()),
        Arc::new(game.finish()),
        Arc::new(plies.finish()),
        Arc::new(uci.finish()),
        Arc::new(rating.finish()),
        Arc::new(date.finish()),
        Arc::new(top.finish()),
        Arc::new(recent.finish()),
        Arc::new(games.finish()),
    ];
    RecordBatch::try_new(schema(), columns).expect("columns match the schema")
}

/// The columns a query reads.
pub(crate) const QUERY_COLUMNS: [&str; 6] = ["key", "game", "plies", "uci", "rating", "date"];

/// The rows of `batch` whose key is `key`.
pub(crate) fn rows_with_key(
    batch: &RecordBatch,
    key: u128,
    path: &Path,
    out: &mut Vec<TopGameRow>,
) -> Result<(), IndexError> {
    let keys = column::<BinaryArray>(batch, "key", path)?;
    let games = column::<Int64Array>(batch, "game", path)?;
    let plies = column::<ListArray>(batch, "plies", path)?;
    let uci = column::<StringArray>(batch, "uci", path)?;
    let rating = column::<Int32Array>(batch, "rating", path)?;
    let date = column::<Int32Array>(batch, "date", path)?;
    let bad = |what: &str| IndexError::format(path, format!("top_games: a negative or too large `{what}`"));
    for i in 0..batch.num_rows() {
        if key_at(keys, i, path)? != key {
            continue;
        }
        let list = plies.value(i);
        let list = list
            .as_any()
            .downcast_ref::<Int32Array>()
            .ok_or_else(|| IndexError::format(path, "top_games: `plies` is not a list of int32"))?;
        let plies = list
            .iter()
            .map(|p| p.and_then(|p| u32::try_from(p).ok()).ok_or_else(|| bad("plies")))
            .collect::<Result<Vec<u32>, _>>()?;
        if plies.is_empty() {
            return Err(bad("plies"));
        }
        out.push(TopGameRow {
            game: u32::try_from(games.value(i)).map_err(|_| bad("game"))?,
            plies,
            uci: opt_str(uci, i),
            rating: match opt_i32(rating, i) {
                Some(r) => Some(u16::try_from(r).map_err(|_| bad("rating"))?),
                None => None,
            },
            date: u32::try_from(date.value(i)).map_err(|_| bad("date"))?,
        });
    }
    Ok(())
}

/// Writes the `top_games` file `out` of a finished `positions` file (`positions`, rows sorted by
/// key, game, ply) whose games are in the finished `games` files `games` (the whole table, or
/// the part holding the positions' games); returns the rows written. The way to make the table
/// for an index built elsewhere (Spark): run it per positions file, then list the files in the
/// manifest in the same order.
pub fn top_games_of_positions(positions: &Path, games: &[&Path], out: &Path) -> Result<u64, IndexError> {
    use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
    let read = |path: &Path, columns: &[&str]| -> Result<Vec<RecordBatch>, IndexError> {
        let file = File::open(path).map_err(|e| IndexError::io(path, e))?;
        let builder = ParquetRecordBatchReaderBuilder::try_new(file).map_err(|e| IndexError::parquet(path, e))?;
        let mask = parquet::arrow::ProjectionMask::columns(builder.parquet_schema(), columns.iter().copied());
        let reader = builder
            .with_projection(mask)
            .build()
            .map_err(|e| IndexError::parquet(path, e))?;
        reader
            .map(|b| b.map_err(|e| IndexError::parquet(path, parquet::errors::ParquetError::ArrowError(e.to_string()))))
            .collect()
    };
    let mut rows = Vec::new();
    for path in games {
        for batch in read(path, &crate::model::games::SUMMARY_COLUMNS)? {
            crate::model::games::from_batch(&batch, path, &mut rows)?;
        }
    }
    rows.sort_by_key(|r| r.game);
    let first_game = rows.first().map_or(0, |r| r.game);
    if rows
        .iter()
        .enumerate()
        .any(|(i, r)| r.game as u64 != first_game as u64 + i as u64)
    {
        return Err(IndexError::format(
            games.first().copied().unwrap_or(out),
            "the games are not numbered 0, 1, 2, ... without gaps",
        ));
    }
    let keys: Vec<GameKey> = rows.iter().map(GameKey::of).collect();
    drop(rows);
    let mut writer = TopGamesWriter::create(out, &keys, first_game)?;
    for batch in read(positions, &["key", "game", "ply", "uci"])? {
        let key = column::<BinaryArray>(&batch, "key", positions)?;
        let game = column::<Int64Array>(&batch, "game", positions)?;
        let ply = column::<Int32Array>(&batch, "ply", positions)?;
        let uci = column::<StringArray>(&batch, "uci", positions)?;
        for i in 0..batch.num_rows() {
            let bad = || IndexError::format(positions, "a negative or too large game or ply");
            let g = u32::try_from(game.value(i)).map_err(|_| bad())?;
            let p = u32::try_from(ply.value(i)).map_err(|_| bad())?;
            writer.push(key_at(key, i, positions)?, g, p, || opt_str(uci, i))?;
        }
    }
    writer.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_list_keeps_the_first_in_order_and_ties_by_game() {
        let mut list = List { entries: Vec::new() };
        let row = |game| TopGameRow {
            game,
            plies: vec![0],
            uci: None,
            rating: None,
            date: 0,
        };
        for game in 0..40u32 {
            let rating = Some((game % 5) as u16 * 100);
            list.offer(top_order(rating, game), || row(game));
        }
        let games: Vec<u32> = list.entries.iter().map(|(_, r)| r.game).collect();
        // Rating 400: games 4, 9, ..., 39 (8 of them), then rating 300: 3, 8, ... (8).
        let want: Vec<u32> = (0..8).map(|i| 4 + 5 * i).chain((0..8).map(|i| 3 + 5 * i)).collect();
        assert_eq!(games, want);
        assert!(top_order(None, 0) > top_order(Some(0), 99), "unrated games come last");
        assert!(recent_order(20240101, None, 0) < recent_order(20231231, Some(3000), 0));
    }
}
