//! The answers of `Index` queries as Python objects: pyarrow tables (explore, search) and the
//! lichess explorer's JSON shape as dicts (explore_json, the shape `chessbits explore --json`
//! prints).

use std::sync::Arc;

use arrow_array::builder::{Int32Builder, Int64Builder, ListBuilder, StringBuilder};
use arrow_array::{ArrayRef, RecordBatch};
use arrow_pyarrow::ToPyArrow;
use arrow_schema::{DataType, Field, Schema};
use chessbits::position::Position;
use chessbits_index::model::game::date_text;
use chessbits_index::{Explorer, Index, SearchResult};
use pyo3::prelude::*;
use pyo3::types::PyDict;

/// A pyarrow Table of one batch, with `metadata` as its schema metadata (string keys and
/// values, as pyarrow stores them).
fn table<'py>(py: Python<'py>, batch: RecordBatch, metadata: &[(&str, String)]) -> PyResult<Bound<'py, PyAny>> {
    let batch = batch.to_pyarrow(py)?;
    let pyarrow = py.import("pyarrow")?;
    let table = pyarrow.getattr("Table")?.call_method1("from_batches", (vec![batch],))?;
    let meta = PyDict::new(py);
    for (key, value) in metadata {
        meta.set_item(key, value)?;
    }
    table.call_method1("replace_schema_metadata", (meta,))
}

fn batch(fields: Vec<Field>, columns: Vec<ArrayRef>) -> PyResult<RecordBatch> {
    RecordBatch::try_new(Arc::new(Schema::new(fields)), columns)
        .map_err(|e| pyo3::exceptions::PyRuntimeError::new_err(e.to_string()))
}

/// `explore`'s table: one row per move, the totals in the metadata.
pub fn explorer_table<'py>(py: Python<'py>, explorer: &Explorer) -> PyResult<Bound<'py, PyAny>> {
    let n = explorer.moves.len();
    let (mut uci, mut san, mut last) = (
        StringBuilder::with_capacity(n, n * 5),
        StringBuilder::with_capacity(n, n * 5),
        StringBuilder::with_capacity(n, n * 10),
    );
    let mut counts: [Int64Builder; 5] = std::array::from_fn(|_| Int64Builder::with_capacity(n));
    for m in &explorer.moves {
        uci.append_value(&m.uci);
        san.append_value(&m.san);
        let values = [m.white, m.draws, m.black, m.games()].map(|v| Some(v as i64));
        for (b, v) in counts
            .iter_mut()
            .zip(values.into_iter().chain([m.average_rating.map(|r| r as i64)]))
        {
            b.append_option(v);
        }
        last.append_option(m.last_date.as_deref());
    }
    let [mut white, mut draws, mut black, mut games, mut rating] = counts;
    let int = |name: &str, nullable: bool| Field::new(name, DataType::Int64, nullable);
    let fields = vec![
        Field::new("uci", DataType::Utf8, false),
        Field::new("san", DataType::Utf8, false),
        int("white", false),
        int("draws", false),
        int("black", false),
        int("games", false),
        int("average_rating", true),
        Field::new("last_date", DataType::Utf8, true),
    ];
    let columns: Vec<ArrayRef> = vec![
        Arc::new(uci.finish()),
        Arc::new(san.finish()),
        Arc::new(white.finish()),
        Arc::new(draws.finish()),
        Arc::new(black.finish()),
        Arc::new(games.finish()),
        Arc::new(rating.finish()),
        Arc::new(last.finish()),
    ];
    let metadata = [
        ("white", explorer.white.to_string()),
        ("draws", explorer.draws.to_string()),
        ("black", explorer.black.to_string()),
        ("games", explorer.games().to_string()),
        ("fen", explorer.position.fen()),
        ("key", explorer.key.to_string()),
    ];
    table(py, batch(fields, columns)?, &metadata)
}

/// `explore_json`'s dict: the lichess explorer API's shape, as `chessbits explore --json`
/// prints it (the index crate writes it; `json.loads` makes the dict, keys in the same order).
pub fn explorer_json<'py>(py: Python<'py>, explorer: &Explorer) -> PyResult<Bound<'py, PyDict>> {
    let value = py
        .import("json")?
        .call_method1("loads", (explorer.to_lichess_json(),))?;
    Ok(value.downcast_into::<PyDict>()?)
}

/// `search`'s table: one row per game of the page, the total in the metadata.
pub fn search_table<'py>(
    py: Python<'py>,
    index: &Index,
    pos: &Position,
    found: &SearchResult,
    offset: usize,
) -> PyResult<Bound<'py, PyAny>> {
    let n = found.games.len();
    let strings = || StringBuilder::with_capacity(n, n * 16);
    let (mut white, mut black, mut result, mut date, mut speed) =
        (strings(), strings(), strings(), strings(), strings());
    let (mut time_control, mut event, mut site, mut fen, mut uci, mut path) =
        (strings(), strings(), strings(), strings(), strings(), strings());
    let mut elos: [Int32Builder; 3] = std::array::from_fn(|_| Int32Builder::with_capacity(n));
    let mut ints: [Int64Builder; 4] = std::array::from_fn(|_| Int64Builder::with_capacity(n));
    let mut plies =
        ListBuilder::new(Int32Builder::new()).with_field(Arc::new(Field::new("item", DataType::Int32, false)));
    for hit in &found.games {
        let row = &hit.row;
        white.append_option(row.white.as_deref());
        black.append_option(row.black.as_deref());
        result.append_value(&row.result);
        date.append_option(date_text(row.date));
        speed.append_option(row.speed.map(|s| s.name()));
        time_control.append_option(row.time_control.as_deref());
        event.append_option(row.event.as_deref());
        site.append_option(row.site.as_deref());
        fen.append_option(row.fen.as_deref());
        uci.append_option(hit.uci.as_deref());
        let source = index.sources().iter().find(|s| s.source == row.source);
        path.append_option(source.map(|s| s.path.as_str()));
        let elo = [row.white_elo, row.black_elo, Some(row.plies)].map(|v| v.map(i32::from));
        for (b, v) in elos.iter_mut().zip(elo) {
            b.append_option(v);
        }
        for (b, v) in ints
            .iter_mut()
            .zip([row.game as u64, row.offset, row.length as u64, row.line as u64])
        {
            b.append_value(v as i64);
        }
        plies
            .values()
            .append_slice(&hit.plies.iter().map(|&p| p as i32).collect::<Vec<_>>());
        plies.append(true);
    }
    let [mut white_elo, mut black_elo, mut game_plies] = elos;
    let [mut game, mut byte_offset, mut length, mut line] = ints;
    let text = |name: &str, nullable: bool| Field::new(name, DataType::Utf8, nullable);
    let fields = vec![
        Field::new("game", DataType::Int64, false),
        text("white", true),
        text("black", true),
        Field::new("white_elo", DataType::Int32, true),
        Field::new("black_elo", DataType::Int32, true),
        text("result", false),
        text("date", true),
        text("speed", true),
        text("time_control", true),
        text("event", true),
        text("site", true),
        text("fen", true),
        Field::new(
            "plies",
            DataType::List(Arc::new(Field::new("item", DataType::Int32, false))),
            false,
        ),
        text("uci", true),
        Field::new("game_plies", DataType::Int32, false),
        text("source_path", true),
        Field::new("offset", DataType::Int64, false),
        Field::new("length", DataType::Int64, false),
        Field::new("line", DataType::Int64, false),
    ];
    let columns: Vec<ArrayRef> = vec![
        Arc::new(game.finish()),
        Arc::new(white.finish()),
        Arc::new(black.finish()),
        Arc::new(white_elo.finish()),
        Arc::new(black_elo.finish()),
        Arc::new(result.finish()),
        Arc::new(date.finish()),
        Arc::new(speed.finish()),
        Arc::new(time_control.finish()),
        Arc::new(event.finish()),
        Arc::new(site.finish()),
        Arc::new(fen.finish()),
        Arc::new(plies.finish()),
        Arc::new(uci.finish()),
        Arc::new(game_plies.finish()),
        Arc::new(path.finish()),
        Arc::new(byte_offset.finish()),
        Arc::new(length.finish()),
        Arc::new(line.finish()),
    ];
    let metadata = [
        ("total", found.total.to_string()),
        ("offset", offset.to_string()),
        ("fen", pos.fen()),
        ("key", found.key.to_string()),
    ];
    table(py, batch(fields, columns)?, &metadata)
}
