//! Building the position index elsewhere (the Spark job of `examples/spark/build_index.py`):
//! `export_parts` (how the games of a Parquet export are numbered), `export_records` (export
//! rows to the index's rows, in `mapInArrow`) and `seal_index` (a directory of tables written by
//! Spark made an index). The Rust functions are [`chessbits_index::export_parts`],
//! [`chessbits_index::export_records`] and [`chessbits_index::seal`].

use std::path::PathBuf;

use arrow_array::{Array, RecordBatch};
use arrow_pyarrow::{FromPyArrow, ToPyArrow};
use chessbits_parquet::MovesCode;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyTuple};

use crate::arrow_io::{check_len, int64s};
use crate::index::index_error;

/// The part files of a Parquet export (`chessbits export`), in the order that numbers its
/// games: sorted by their path relative to `export_dir` (byte order), each a dict with `path`
/// (absolute), `relative`, `rows`, `first_game` (row `r` of the part is game
/// `first_game + r`: every row is a game), `bytes`, `modified` (nanoseconds since 1970, or
/// None) and `moves_code` (the code of its `moves` column, for export_records).
///
/// Raises:
///     OSError: the directory cannot be read.
///     ChessbitsError: it is not an export (no part file, a part without the export's columns).
///
/// >>> import chessbits, os, tempfile
/// >>> d = tempfile.mkdtemp()
/// >>> with open(os.path.join(d, "g.pgn"), "w") as f:
/// ...     _ = f.write('[Result "1-0"]\n\n1. e4 e5 1-0\n\n[Result "0-1"]\n\n1. d4 d5 0-1\n')
/// >>> import pyarrow.parquet as pq
/// >>> os.mkdir(os.path.join(d, "export"))
/// >>> pq.write_table(chessbits.read_pgn(os.path.join(d, "g.pgn")).read_all(), os.path.join(d, "export", "part-0.parquet"))
/// >>> [(p["relative"], p["rows"], p["first_game"]) for p in chessbits.export_parts(os.path.join(d, "export"))]
/// [('part-0.parquet', 2, 0)]
#[pyfunction]
pub fn export_parts<'py>(py: Python<'py>, export_dir: PathBuf) -> PyResult<Bound<'py, PyList>> {
    let parts = py
        .detach(|| chessbits_index::export_parts(&export_dir))
        .map_err(index_error)?;
    let list = PyList::empty(py);
    for part in parts {
        let dict = PyDict::new(py);
        dict.set_item("path", &part.info.path)?;
        dict.set_item("relative", &part.relative)?;
        dict.set_item("rows", part.rows)?;
        dict.set_item("first_game", part.first_game)?;
        dict.set_item("bytes", part.info.bytes)?;
        dict.set_item("modified", part.info.modified)?;
        dict.set_item("moves_code", part.moves_code.name())?;
        list.append(dict)?;
    }
    Ok(list)
}

/// The position index's rows of a batch of export rows: a tuple `(games, positions, explorer,
/// errors)` of three pyarrow RecordBatches with exactly the schemas of the index's tables
/// `games`, `positions` and `explorer`, and the list of rows that could not be indexed
/// (`file:row R: reason`; such a row still has its `games` row).
///
/// `batch` is a pyarrow RecordBatch of export rows (any subset of the export's columns that
/// includes `plies` and `moves` or `movetext`, with `annotations` for the rows whose `moves` is
/// null; tags left out count as missing); `game`, `source` and `row`
/// give per row its game number, its part's number in export_parts' order and its row in that
/// part (integer arrays without nulls). `files` names the sources in error messages;
/// `moves_code` is the code of `moves` (export_parts says it; None: from the field's metadata,
/// or the schema's, where pyarrow puts the file's; Spark keeps neither).
///
/// The positions are unsorted; the explorer rows unaggregated: one per game and distinct
/// position of a decided game. The index's explorer rows are their sums over equal `key`, `uci`,
/// `speed`, `rating` and `month`, with `last_date`/`last_game` of the row with the greatest
/// (date, game), dates compared as numbers `YYYYMMDD` with `??` as 0.
///
/// Raises:
///     ChessbitsError: the batch is not one of export rows (a missing or mistyped column,
///         arrays of other lengths, a number out of range).
///     ValueError: a null game, source or row number; an unknown moves_code.
///
/// >>> import chessbits, pyarrow as pa
/// >>> batch = pa.record_batch({"Result": ["1-0"], "movetext": ["1. e4 e5 1-0"], "plies": pa.array([2], pa.int32())})
/// >>> games, positions, explorer, errors = chessbits.export_records(batch, [5], [0], [0])
/// >>> games.column("game").to_pylist(), positions.num_rows, explorer.column("white").to_pylist(), errors
/// ([5], 3, [1, 1, 1], [])
#[pyfunction]
#[pyo3(signature = (batch, game, source, row, *, files = None, moves_code = None))]
pub fn export_records<'py>(
    py: Python<'py>,
    batch: &Bound<'py, PyAny>,
    game: &Bound<'py, PyAny>,
    source: &Bound<'py, PyAny>,
    row: &Bound<'py, PyAny>,
    files: Option<Vec<String>>,
    moves_code: Option<&str>,
) -> PyResult<Bound<'py, PyTuple>> {
    let batch = RecordBatch::from_pyarrow_bound(batch)?;
    let n = batch.num_rows();
    let numbers = |value: &Bound<'py, PyAny>, what: &str| -> PyResult<Vec<i64>> {
        let array = int64s(value, what)?;
        check_len(array.len(), n, what)?;
        if array.null_count() > 0 {
            return Err(PyValueError::new_err(format!("{what}: a null number")));
        }
        Ok(array.values().to_vec())
    };
    let game = numbers(game, "game")?;
    let source = numbers(source, "source")?
        .into_iter()
        .map(|s| i32::try_from(s).map_err(|_| PyValueError::new_err(format!("source: {s} out of range"))))
        .collect::<PyResult<Vec<i32>>>()?;
    let row = numbers(row, "row")?;
    let code = moves_code
        .map(|name| {
            name.parse::<MovesCode>()
                .map_err(|e| PyValueError::new_err(format!("moves_code: {e}")))
        })
        .transpose()?;
    let files = files.unwrap_or_default();
    let out = py
        .detach(|| chessbits_index::export_records(&batch, &game, &source, &row, &files, code))
        .map_err(index_error)?;
    let items: Vec<Bound<'py, PyAny>> = vec![
        out.games.to_pyarrow(py)?,
        out.positions.to_pyarrow(py)?,
        out.explorer.to_pyarrow(py)?,
        PyList::new(py, &out.errors)?.into_any(),
    ];
    PyTuple::new(py, items)
}

/// Makes `path` a position index: its `explorer/`, `positions/` and `games/` directories hold
/// Parquet files written by another tool (examples/spark/build_index.py) from the Parquet
/// export `export_dir`. Checks every file (the tables' columns and types, sort order, games
/// numbered without gaps as export_parts numbers them), renames the files to the index's names,
/// stamps their footers, writes the `sources` table, the page checksums and manifest.json. On
/// an error nothing is changed. Returns a dict: `games`, `files`, `bytes` and `rows` (per
/// table).
///
/// Raises:
///     OSError: a file cannot be read or written.
///     ChessbitsError: a file is not as the index wants it (the message names the file and the
///         column or row), or `path` is an index already.
#[pyfunction]
pub fn seal_index<'py>(py: Python<'py>, path: PathBuf, export_dir: PathBuf) -> PyResult<Bound<'py, PyDict>> {
    let summary = py
        .detach(|| chessbits_index::seal(&path, &export_dir))
        .map_err(index_error)?;
    let dict = PyDict::new(py);
    dict.set_item("games", summary.games)?;
    dict.set_item("files", summary.files)?;
    dict.set_item("bytes", summary.bytes)?;
    let rows = PyDict::new(py);
    for (table, n) in &summary.rows {
        rows.set_item(table, n)?;
    }
    dict.set_item("rows", rows)?;
    Ok(dict)
}
