//! Rows to an Arrow [`RecordBatch`] of the [schema](crate::schema).

use std::fmt::Write;
use std::sync::Arc;

use arrow_array::builder::{
    BinaryBuilder, BooleanBuilder, Date32Builder, Int16Builder, Int32Builder, ListBuilder, MapBuilder, MapFieldNames,
    StringBuilder,
};
use arrow_array::{ArrayRef, RecordBatch};
use arrow_schema::{ArrowError, SchemaRef};

use crate::row::GameRow;

/// The rows as one record batch of the [schema](crate::schema).
///
/// ```
/// use chessbits::pgn::PgnReader;
/// use chessbits_parquet::{rows_to_batch, GameRow};
/// let game = PgnReader::new(&b"1. e4 *"[..]).read_owned_game().unwrap().unwrap().unwrap();
/// let batch = rows_to_batch(&[GameRow::from_game(&game, b"1. e4 *")]).unwrap();
/// assert_eq!((batch.num_rows(), batch.num_columns()), (1, 26));
/// assert!(batch.column_by_name("movetext").is_none());
/// ```
pub fn rows_to_batch(rows: &[GameRow]) -> Result<RecordBatch, ArrowError> {
    rows_to_batch_with(rows, crate::schema())
}

/// The rows as one record batch of `schema`: [`schema_of`](crate::schema_of) the moves code the
/// rows were made with (and `movetext` when the schema has it).
///
/// ```
/// use chessbits::pgn::PgnReader;
/// use chessbits_parquet::{rows_to_batch_with, schema_with, GameRow, MovesCode};
/// let game = PgnReader::new(&b"1. e4 *"[..]).read_owned_game().unwrap().unwrap().unwrap();
/// let row = GameRow::from_game_with(&game, b"1. e4 *", MovesCode::IndexByte);
/// let batch = rows_to_batch_with(&[row], schema_with(MovesCode::IndexByte)).unwrap();
/// assert_eq!(batch.num_rows(), 1);
/// ```
pub fn rows_to_batch_with(rows: &[GameRow], schema: SchemaRef) -> Result<RecordBatch, ArrowError> {
    let n = rows.len();
    let text = |get: fn(&GameRow) -> &Option<String>| -> ArrayRef {
        let mut b = StringBuilder::with_capacity(n, n * 8);
        for row in rows {
            b.append_option(get(row).as_deref());
        }
        Arc::new(b.finish())
    };
    let int16 = |get: fn(&GameRow) -> Option<i16>| -> ArrayRef {
        let mut b = Int16Builder::with_capacity(n);
        for row in rows {
            b.append_option(get(row));
        }
        Arc::new(b.finish())
    };
    let list = |get: fn(&GameRow) -> &Option<Vec<Option<i32>>>| -> ArrayRef {
        let mut b = ListBuilder::new(Int32Builder::new()).with_field(crate::list_item());
        for row in rows {
            match get(row) {
                Some(items) => {
                    b.values().extend(items.iter().copied());
                    b.append(true);
                }
                None => b.append(false),
            }
        }
        Arc::new(b.finish())
    };

    let clock_deltas: ArrayRef = {
        let mut b = ListBuilder::new(Int32Builder::new()).with_field(crate::list_item());
        for row in rows {
            match &row.clocks {
                Some(clocks) => {
                    b.values().extend(crate::clock_deltas(clocks));
                    b.append(true);
                }
                None => b.append(false),
            }
        }
        Arc::new(b.finish())
    };

    let mut utc_date = Date32Builder::with_capacity(n);
    let mut utc_time = StringBuilder::with_capacity(n, n * 8);
    let with_movetext = schema.index_of("movetext").is_ok();
    let movetext_bytes = if with_movetext {
        rows.iter().map(|r| r.movetext.len()).sum()
    } else {
        0
    };
    let mut movetext = StringBuilder::with_capacity(if with_movetext { n } else { 0 }, movetext_bytes);
    let mut annotations = StringBuilder::new();
    let mut moves = BinaryBuilder::with_capacity(n, n * 24);
    let mut plies = Int32Builder::with_capacity(n);
    let mut non_utf8 = BooleanBuilder::with_capacity(n);
    let mut latin1_fields = ListBuilder::new(StringBuilder::new()).with_field(crate::name_item());
    let names = MapFieldNames {
        entry: "entries".to_string(),
        key: "keys".to_string(),
        value: "values".to_string(),
    };
    let mut other_tags = MapBuilder::new(Some(names), StringBuilder::new(), StringBuilder::new());
    for row in rows {
        utc_date.append_option(row.utc_date);
        match row.utc_time {
            Some(s) => {
                // Written into the builder's current value, which `append_value("")` ends.
                write!(utc_time, "{:02}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
                    .map_err(|e| ArrowError::ExternalError(Box::new(e)))?;
                utc_time.append_value("");
            }
            None => utc_time.append_null(),
        }
        if with_movetext {
            movetext.append_value(&row.movetext);
        }
        annotations.append_option(row.annotations.as_deref());
        moves.append_option(row.moves.as_deref());
        plies.append_value(row.plies);
        non_utf8.append_value(row.non_utf8);
        // A `movetext` not written is not named.
        let named = row.latin1_fields.iter().filter(|f| with_movetext || *f != "movetext");
        latin1_fields.values().extend(named.map(Some));
        latin1_fields.append(row.non_utf8);
        for (name, value) in &row.other_tags {
            other_tags.keys().append_value(name);
            other_tags.values().append_value(value);
        }
        other_tags.append(true)?;
    }

    let mut columns: Vec<ArrayRef> = vec![
        text(|r| &r.event),
        text(|r| &r.site),
        text(|r| &r.white),
        text(|r| &r.black),
        text(|r| &r.result),
        text(|r| &r.white_title),
        text(|r| &r.black_title),
        int16(|r| r.white_elo),
        int16(|r| r.black_elo),
        int16(|r| r.white_rating_diff),
        int16(|r| r.black_rating_diff),
        Arc::new(utc_date.finish()),
        Arc::new(utc_time.finish()),
        text(|r| &r.eco),
        text(|r| &r.opening),
        text(|r| &r.termination),
        text(|r| &r.time_control),
        Arc::new(moves.finish()),
        Arc::new(plies.finish()),
        clock_deltas,
        list(|r| &r.evals),
        Arc::new(annotations.finish()),
        text(|r| &r.start_fen),
        Arc::new(other_tags.finish()),
        Arc::new(non_utf8.finish()),
        Arc::new(latin1_fields.finish()),
    ];
    if with_movetext {
        columns.insert(17, Arc::new(movetext.finish()));
    }
    RecordBatch::try_new(schema, columns)
}
