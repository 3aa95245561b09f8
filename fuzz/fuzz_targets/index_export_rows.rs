//! `export_records`, the index's reading of Parquet export rows (the local build's
//! `add_export` and the Spark job both call it), on an Arrow batch made from the input: moves
//! codes of arbitrary bytes, arbitrary movetexts, ply counts, start FENs, tags and `other_tags`
//! maps (where `Variant`, `Date` and `Round` live), and UTC dates, in either moves code, named by
//! the caller or by the field's metadata.
//!
//! Input: a flag byte (bit 0: the code is given, bit 1: which code, bit 2: a `moves` column,
//! bit 3: the field names its code, bit 4: `start_fen`, bit 5: `other_tags`, bit 6: the `WhiteElo`
//! and `UTCDate` columns), then rows separated by `0xff` (at most 16), each row's fields by
//! `0xfe`: moves, movetext, plies (little-endian, up to 8 bytes), start FEN, other tags
//! (`name=value` lines), and a number for `WhiteElo` and `UTCDate`. A missing field is null.
//!
//! Nothing panics; every row gets its `games` row, numbered as given, and at most one error,
//! which names its row; positions and explorer rows belong to rows without an error.
#![no_main]

use std::collections::HashMap;
use std::sync::Arc;

use arrow_array::builder::{MapBuilder, StringBuilder};
use arrow_array::cast::AsArray;
use arrow_array::types::Int64Type;
use arrow_array::{Array, ArrayRef, BinaryArray, Date32Array, Int32Array, Int64Array, RecordBatch, StringArray};
use arrow_schema::{Field, Schema};
use chessbits_index::export_records;
use chessbits_parquet::{MovesCode, MOVES_CODE_KEY};
use libfuzzer_sys::fuzz_target;

/// One row's fields; `None` is null.
struct Row<'a> {
    moves: Option<&'a [u8]>,
    movetext: Option<String>,
    plies: Option<i64>,
    start_fen: Option<String>,
    other_tags: Option<Vec<(String, String)>>,
    number: Option<i64>,
}

fn number(bytes: &[u8]) -> i64 {
    let mut le = [0u8; 8];
    let n = bytes.len().min(8);
    le[..n].copy_from_slice(&bytes[..n]);
    i64::from_le_bytes(le)
}

fn row(bytes: &[u8]) -> Row<'_> {
    let mut fields = bytes.split(|&b| b == 0xfe);
    let mut next = || fields.next();
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    Row {
        moves: next(),
        movetext: next().map(text),
        plies: next().map(number),
        start_fen: next().map(text),
        other_tags: next().map(|b| chessbits_fuzz::tag_pairs(&text(b))),
        number: next().map(number),
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&flags, rest)) = data.split_first() else {
        return;
    };
    let rows: Vec<Row> = rest.split(|&b| b == 0xff).take(16).map(row).collect();
    let n = rows.len();
    let code = MovesCode::ALL[usize::from(flags >> 1 & 1)];
    let mut fields = vec![
        Field::new("movetext", arrow_schema::DataType::Utf8, true),
        Field::new("plies", arrow_schema::DataType::Int64, true),
    ];
    let mut columns: Vec<ArrayRef> = vec![
        Arc::new(rows.iter().map(|r| r.movetext.clone()).collect::<StringArray>()),
        Arc::new(rows.iter().map(|r| r.plies).collect::<Int64Array>()),
    ];
    if flags & 4 != 0 {
        let mut field = Field::new("moves", arrow_schema::DataType::Binary, true);
        if flags & 8 != 0 {
            field = field.with_metadata(HashMap::from([(MOVES_CODE_KEY.to_string(), code.name().to_string())]));
        }
        fields.push(field);
        columns.push(Arc::new(rows.iter().map(|r| r.moves).collect::<BinaryArray>()));
    }
    if flags & 16 != 0 {
        fields.push(Field::new("start_fen", arrow_schema::DataType::Utf8, true));
        columns.push(Arc::new(
            rows.iter().map(|r| r.start_fen.clone()).collect::<StringArray>(),
        ));
    }
    if flags & 32 != 0 {
        let mut map = MapBuilder::new(None, StringBuilder::new(), StringBuilder::new());
        for r in &rows {
            match &r.other_tags {
                Some(tags) => {
                    for (k, v) in tags {
                        map.keys().append_value(k);
                        map.values().append_value(v);
                    }
                    map.append(true).expect("a map row");
                }
                None => map.append(false).expect("a null map row"),
            }
        }
        let map = map.finish();
        fields.push(Field::new("other_tags", map.data_type().clone(), true));
        columns.push(Arc::new(map));
    }
    if flags & 64 != 0 {
        let elo: Int32Array = rows.iter().map(|r| r.number.map(|v| v as i32)).collect();
        let date: Date32Array = rows.iter().map(|r| r.number.map(|v| (v >> 32) as i32)).collect();
        fields.push(Field::new("WhiteElo", arrow_schema::DataType::Int32, true));
        fields.push(Field::new("UTCDate", arrow_schema::DataType::Date32, true));
        columns.push(Arc::new(elo));
        columns.push(Arc::new(date));
    }
    let batch = RecordBatch::try_new(Arc::new(Schema::new(fields)), columns).expect("a valid batch");
    let games: Vec<i64> = (100..100 + n as i64).collect();
    let rows_in_part: Vec<i64> = (0..n as i64).collect();
    let given = (flags & 1 != 0).then_some(code);
    let files = ["part-0.parquet".to_string()];
    let Ok(out) = export_records(&batch, &games, &vec![0; n], &rows_in_part, &files, given) else {
        // Only a batch whose `moves` names no code (and none given) is not one of an export.
        assert!(
            flags & 4 != 0 && flags & 8 == 0 && given.is_none(),
            "an export batch refused"
        );
        return;
    };
    assert_eq!(out.games.num_rows(), n);
    let numbers = out.games.column_by_name("game").expect("a game column");
    let numbers: Vec<i64> = arrow_cast_i64(numbers);
    assert_eq!(numbers, games, "rows numbered as given");
    assert!(out.errors.len() <= n);
    let mut failed = Vec::new();
    for error in &out.errors {
        let rest = error
            .strip_prefix("part-0.parquet:row ")
            .expect("an error names its row");
        let row: i64 = rest
            .split(':')
            .next()
            .and_then(|r| r.parse().ok())
            .expect("a row number");
        assert!((0..n as i64).contains(&row));
        assert!(!failed.contains(&(row + 100)), "one error a row");
        failed.push(row + 100);
    }
    for (table, name) in [(&out.positions, "game"), (&out.explorer, "last_game")] {
        if let Some(column) = table.column_by_name(name) {
            for game in arrow_cast_i64(column) {
                assert!(
                    games.contains(&game) && !failed.contains(&game),
                    "records of game {game}"
                );
            }
        }
    }
});

/// An integer column's values as `i64`.
fn arrow_cast_i64(column: &ArrayRef) -> Vec<i64> {
    match column.data_type() {
        arrow_schema::DataType::Int64 => column.as_primitive::<Int64Type>().values().to_vec(),
        arrow_schema::DataType::Int32 => column
            .as_primitive::<arrow_array::types::Int32Type>()
            .values()
            .iter()
            .map(|&v| i64::from(v))
            .collect(),
        arrow_schema::DataType::UInt32 => column
            .as_primitive::<arrow_array::types::UInt32Type>()
            .values()
            .iter()
            .map(|&v| i64::from(v))
            .collect(),
        other => panic!("a game number column of type {other}"),
    }
}
