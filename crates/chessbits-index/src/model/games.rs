//! The `games` table: one row per game, numbered in the order the games were added; row `i`
//! of the table (across its parts, in order) is game `i`.
//!
//! | column | type | meaning |
//! |---|---|---|
//! | `game` | int64 | the game's number |
//! | `source` | int32 | its input file (`sources.source`) |
//! | `offset`, `length` | int64 | where its PGN text stands in the source (decompressed bytes); for an archive `offset` is the game's number in it, for a Parquet export the game's row in the part file, and `length` is 0 (see [`super::sources`]) |
//! | `line` | int64 | the line it starts on (0 for an archive or an export) |
//! | `plies` | int32 | half-moves of its main line |
//! | `white`, `black` | utf8, null | the `White` and `Black` tags |
//! | `white_elo`, `black_elo` | int32, null | the `WhiteElo` and `BlackElo` tags, when numbers |
//! | `result` | utf8 | `1-0`, `0-1`, `1/2-1/2` or `*`: the movetext's result token, else the `Result` tag's (the library's one rule, [`chessbits::pgn::GameResult::declared`]) |
//! | `date` | utf8, null | `UTCDate`, else `Date` (`YYYY.MM.DD`, `??` for unknown parts); null for a year past [`MAX_YEAR`](super::game::MAX_YEAR) |
//! | `time_control`, `speed` | utf8, null | `TimeControl`, and the speed it gives |
//! | `event`, `site` | utf8, null | the `Event` and `Site` tags |
//! | `fen` | utf8, null | the `FEN` tag: the start position when not the standard one |
//! | `replay_moves` | binary | the main line before its first null move (at most 65,535 moves) in the library's entropy code ([`chessbits::codec::moves::entropy`], as `chessbits export` writes its `moves` column), played from `start_fen`: a query replays it to check the `positions` table's candidates and to find plies and moves (format 3) |
//! | `replay_plies` | int32 | how many moves `replay_moves` holds (the code does not say) |
//! | `start_fen` | utf8, null | the start position the moves are played from, as the library writes a FEN (Shredder castling letters for Chess960 rights that X-FEN cannot name); null for the standard start |
//! | `chess960` | boolean | the game is Chess960 (`[Variant "Chess960"]`): castling is king takes rook |
//!
//! Encodings (any Parquet reader decodes them; they matter for speed and size only): the
//! numbers that rise or vary freely (`game`, `offset`, `length`, `line`, the ratings) are
//! `DELTA_BINARY_PACKED`; the nearly unique columns (`white`, `black`,
//! `site`, `replay_moves`) are plain, because reading one game would otherwise decode their
//! dictionary page (up to 1 MiB each) whole; the rest are dictionary-encoded. zstd level 3,
//! pages of 1,024 rows (a query reads a few games at random rows, a page per column each) with
//! page indexes.

use std::path::Path;
use std::sync::Arc;

use arrow_array::builder::{Int32Builder, Int64Builder, StringBuilder};
use arrow_array::{ArrayRef, BinaryArray, BooleanArray, Int32Array, Int64Array, RecordBatch, StringArray};
use arrow_schema::{DataType, Field, SchemaRef};

use super::game::{date_text, pack_date, GameRow, Replay, Speed};
use super::{column, joined, opt_i32, opt_str, schema_ref};
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
        Field::new("replay_moves", DataType::Binary, false),
        Field::new("replay_plies", DataType::Int32, false),
        text("start_fen"),
        Field::new("chess960", DataType::Boolean, false),
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
        Arc::new(BinaryArray::from_iter_values(
            rows.iter().map(|r| r.replay.moves.as_slice()),
        )),
        int32(|r| Some(r.replay.plies as i32)),
        text(|r| r.replay.start_fen.clone()),
        Arc::new(BooleanArray::from_iter(rows.iter().map(|r| Some(r.replay.chess960)))),
    ];
    RecordBatch::try_new(schema(), columns).expect("columns match the schema")
}

/// The columns a query needs to filter and sort games (and, with a player filter, the names).
pub(crate) const SUMMARY_COLUMNS: [&str; 8] = [
    "game",
    "white",
    "black",
    "white_elo",
    "black_elo",
    "result",
    "date",
    "speed",
];

/// The columns written without a dictionary: nearly one value per game (names, the game's URL,
/// its moves), so a dictionary saves little and a lookup of one game would decode it whole.
pub(crate) const NO_DICTIONARY: [&str; 4] = ["white", "black", "site", "replay_moves"];

/// The columns a move table shows of a move's only game (the lichess explorer's `game`
/// object): [`SUMMARY_COLUMNS`] with the event and site.
pub(crate) const MOVE_GAME_COLUMNS: [&str; 10] = joined(&SUMMARY_COLUMNS, &["event", "site"]);

/// The columns a replay needs (and `game`).
pub(crate) const REPLAY_COLUMNS: [&str; 5] = ["game", "replay_moves", "replay_plies", "start_fen", "chess960"];

/// The columns a lookup of a rare position reads for its games: [`SUMMARY_COLUMNS`] and
/// [`REPLAY_COLUMNS`] together (`game` once), in one read.
pub(crate) const LOOKUP_COLUMNS: [&str; 12] = joined(
    &SUMMARY_COLUMNS,
    match REPLAY_COLUMNS.split_first() {
        Some((_game, rest)) => rest,
        None => &[],
    },
);

/// Every column.
pub(crate) const ALL_COLUMNS: [&str; 21] = [
    "game",
    "source",
    "offset",
    "length",
    "line",
    "plies",
    "white",
    "black",
    "white_elo",
    "black_elo",
    "result",
    "date",
    "time_control",
    "speed",
    "event",
    "site",
    "fen",
    "replay_moves",
    "replay_plies",
    "start_fen",
    "chess960",
];

/// The rows of `batch`; columns the batch does not have (a projection) are left empty. `game`
/// must be there.
pub(crate) fn from_batch(batch: &RecordBatch, path: &Path, out: &mut Vec<GameRow>) -> Result<(), IndexError> {
    let optional = |name: &str| batch.column_by_name(name).is_some();
    let int64 = |name| {
        optional(name)
            .then(|| column::<Int64Array>(batch, name, path))
            .transpose()
    };
    let int32 = |name| {
        optional(name)
            .then(|| column::<Int32Array>(batch, name, path))
            .transpose()
    };
    let text = |name| {
        optional(name)
            .then(|| column::<StringArray>(batch, name, path))
            .transpose()
    };
    let game = column::<Int64Array>(batch, "game", path)?;
    let (offset, length, line) = (int64("offset")?, int64("length")?, int64("line")?);
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
    let (moves, moves_plies, start_fen) = (
        optional("replay_moves")
            .then(|| column::<BinaryArray>(batch, "replay_moves", path))
            .transpose()?,
        int32("replay_plies")?,
        text("start_fen")?,
    );
    let chess960 = optional("chess960")
        .then(|| column::<BooleanArray>(batch, "chess960", path))
        .transpose()?;
    let bad = |what: &str| IndexError::Format {
        path: path.to_path_buf(),
        reason: format!("games: a negative or too large `{what}`"),
    };
    for i in 0..batch.num_rows() {
        let elo = |a: Option<&Int32Array>| a.and_then(|a| opt_i32(a, i)).and_then(|e| u16::try_from(e).ok());
        let string = |a: Option<&StringArray>| a.and_then(|a| opt_str(a, i));
        let int = |a: Option<&Int64Array>, what: &str| -> Result<i64, IndexError> {
            let v = a.map_or(0, |a| a.value(i));
            (v >= 0).then_some(v).ok_or_else(|| bad(what))
        };
        let int32 = |a: Option<&Int32Array>, what: &str| -> Result<i32, IndexError> {
            let v = a.map_or(0, |a| a.value(i));
            (v >= 0).then_some(v).ok_or_else(|| bad(what))
        };
        out.push(GameRow {
            game: u32::try_from(game.value(i)).map_err(|_| bad("game"))?,
            source: int32(source, "source")? as u32,
            offset: int(offset, "offset")? as u64,
            length: u32::try_from(int(length, "length")?).map_err(|_| bad("length"))?,
            line: u32::try_from(int(line, "line")?).map_err(|_| bad("line"))?,
            plies: u16::try_from(int32(plies, "plies")?).map_err(|_| bad("plies"))?,
            white: string(white),
            black: string(black),
            white_elo: elo(white_elo),
            black_elo: elo(black_elo),
            result: string(result).unwrap_or_else(|| "*".to_string()),
            date: string(date).map_or(0, |d| pack_date(&d)),
            time_control: string(time_control),
            speed: string(speed).and_then(|s| Speed::from_name(&s)),
            event: string(event),
            site: string(site),
            fen: string(fen),
            replay: Replay {
                moves: moves.map_or_else(Vec::new, |m| m.value(i).to_vec()),
                plies: u16::try_from(int32(moves_plies, "replay_plies")?).map_err(|_| bad("replay_plies"))?,
                start_fen: string(start_fen),
                chess960: chess960.is_some_and(|c| c.value(i)),
            },
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn column_lists_name_columns_of_the_schema_once() {
        let schema = schema();
        let lists: [&[&str]; 6] = [
            &SUMMARY_COLUMNS,
            &NO_DICTIONARY,
            &MOVE_GAME_COLUMNS,
            &REPLAY_COLUMNS,
            &LOOKUP_COLUMNS,
            &ALL_COLUMNS,
        ];
        for list in lists {
            let mut seen = std::collections::BTreeSet::new();
            for name in list {
                assert!(schema.field_with_name(name).is_ok(), "{name}");
                assert!(seen.insert(name), "{name} twice");
            }
        }
        assert_eq!(ALL_COLUMNS.len(), schema.fields().len());
        assert_eq!(&LOOKUP_COLUMNS[SUMMARY_COLUMNS.len()..], &REPLAY_COLUMNS[1..]);
        assert_eq!(&MOVE_GAME_COLUMNS[8..], &["event", "site"]);
    }
}
