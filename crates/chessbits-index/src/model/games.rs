//! The `games` table: one row per game, numbered in the order the games were added; row `i`
//! of the table (across its parts, in order) is game `i`.
//!
//! | column | type | meaning |
//! |---|---|---|
//! | `game` | int64 | the game's number |
//! | `source` | int32 | its input file (`sources.source`) |
//! | `offset`, `length` | int64 | where its PGN text stands in the source (decompressed bytes) |
//! | `line` | int64 | the line it starts on |
//! | `plies` | int32 | half-moves of its main line |
//! | `white`, `black` | utf8, null | the `White` and `Black` tags |
//! | `white_elo`, `black_elo` | int32, null | the `WhiteElo` and `BlackElo` tags, when numbers |
//! | `result` | utf8 | `1-0`, `0-1`, `1/2-1/2` or `*` (the `Result` tag, else the movetext's) |
//! | `date` | utf8, null | `UTCDate`, else `Date` (`YYYY.MM.DD`, `??` for unknown parts) |
//! | `time_control`, `speed` | utf8, null | `TimeControl`, and the speed it gives |
//! | `event`, `site` | utf8, null | the `Event` and `Site` tags |
//! | `fen` | utf8, null | the `FEN` tag: the start position when not the standard one |

use std::path::Path;
use std::sync::Arc;

use arrow_array::builder::{Int32Builder, Int64Builder, StringBuilder};
use arrow_array::{ArrayRef, Int32Array, Int64Array, RecordBatch, StringArray};
use arrow_schema::{DataType, Field, SchemaRef};

use super::game::{date_text, pack_date, GameRow, Speed};
use super::{column, opt_i32, opt_str, schema_ref};
use crate::error::IndexError;

/// The table's schema.
pub fn schema() -> SchemaRef {
    let text = |name: &str| Field::new(name, DataType::Utf8, true);
    schema_ref(vec![
        Field::new("game", DataType::Int64, false),
        Field::new("source", DataType::Int32, false),
        Field::new("offset", DataType::Int64, false),
        Field::new("length", DataType::Int64, false),
        Field::new("line", DataType::Int64, false),
        Field::new("plies", DataType::Int32, false),
        text("white"),
        text("black"),
        Field::new("white_elo", DataType::Int32, true),
        Field::new("black_elo", DataType::Int32, true),
        Field::new("result", DataType::Utf8, false),
        text("date"),
        text("time_control"),
        text("speed"),
        text("event"),
        text("site"),
        text("fen"),
    ])
}

pub(crate) fn to_batch(rows: &[GameRow]) -> RecordBatch {
    let n = rows.len();
    let int64 = |get: fn(&GameRow) -> i64| -> ArrayRef {
        let mut b = Int64Builder::with_capacity(n);
        rows.iter().for_each(|r| b.append_value(get(r)));
        Arc::new(b.finish())
    };
    let int32 = |get: fn(&GameRow) -> Option<i32>| -> ArrayRef {
        let mut b = Int32Builder::with_capacity(n);
        rows.iter().for_each(|r| b.append_option(get(r)));
        Arc::new(b.finish())
    };
    let text = |get: fn(&GameRow) -> Option<String>| -> ArrayRef {
        let mut b = StringBuilder::with_capacity(n, n * 8);
        rows.iter().for_each(|r| b.append_option(get(r)));
        Arc::new(b.finish())
    };
    let columns: Vec<ArrayRef> = vec![
        int64(|r| r.game as i64),
        int32(|r| Some(r.source as i32)),
        int64(|r| r.offset as i64),
        int64(|r| r.length as i64),
        int64(|r| r.line as i64),
        int32(|r| Some(r.plies as i32)),
        text(|r| r.white.clone()),
        text(|r| r.black.clone()),
        int32(|r| r.white_elo.map(i32::from)),
        int32(|r| r.black_elo.map(i32::from)),
        text(|r| Some(r.result.clone())),
        text(|r| date_text(r.date)),
        text(|r| r.time_control.clone()),
        text(|r| r.speed.map(|s| s.name().to_string())),
        text(|r| r.event.clone()),
        text(|r| r.site.clone()),
        text(|r| r.fen.clone()),
    ];
    RecordBatch::try_new(schema(), columns).expect("columns match the schema")
}

/// The rows of `batch`.
pub(crate) fn from_batch(batch: &RecordBatch, path: &Path, out: &mut Vec<GameRow>) -> Result<(), IndexError> {
    let int64 = |name| column::<Int64Array>(batch, name, path);
    let int32 = |name| column::<Int32Array>(batch, name, path);
    let text = |name| column::<StringArray>(batch, name, path);
    let (game, offset, length, line) = (int64("game")?, int64("offset")?, int64("length")?, int64("line")?);
    let (source, plies, white_elo, black_elo) = (
        int32("source")?,
        int32("plies")?,
        int32("white_elo")?,
        int32("black_elo")?,
    );
    let (white, black, result, date) = (text("white")?, text("black")?, text("result")?, text("date")?);
    let (time_control, speed, event, site, fen) = (
        text("time_control")?,
        text("speed")?,
        text("event")?,
        text("site")?,
        text("fen")?,
    );
    let bad = |what: &str| IndexError::Format {
        path: path.to_path_buf(),
        reason: format!("games: a negative or too large `{what}`"),
    };
    for i in 0..batch.num_rows() {
        let elo = |a: &Int32Array| opt_i32(a, i).and_then(|e| u16::try_from(e).ok());
        out.push(GameRow {
            game: u32::try_from(game.value(i)).map_err(|_| bad("game"))?,
            source: u32::try_from(source.value(i)).map_err(|_| bad("source"))?,
            offset: u64::try_from(offset.value(i)).map_err(|_| bad("offset"))?,
            length: u32::try_from(length.value(i)).map_err(|_| bad("length"))?,
            line: u32::try_from(line.value(i)).map_err(|_| bad("line"))?,
            plies: u16::try_from(plies.value(i)).map_err(|_| bad("plies"))?,
            white: opt_str(white, i),
            black: opt_str(black, i),
            white_elo: elo(white_elo),
            black_elo: elo(black_elo),
            result: result.value(i).to_string(),
            date: opt_str(date, i).map_or(0, |d| pack_date(&d)),
            time_control: opt_str(time_control, i),
            speed: opt_str(speed, i).and_then(|s| Speed::from_name(&s)),
            event: opt_str(event, i),
            site: opt_str(site, i),
            fen: opt_str(fen, i),
        });
    }
    Ok(())
}
