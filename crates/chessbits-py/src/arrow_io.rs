//! Arrays between pyarrow and Rust: import through the Arrow C data interface (no copy), the
//! casts that accept every width of a type (`large_binary`, `string_view`, `int32`, ...), export,
//! and the per-row start positions shared by the batch functions.

use std::sync::Arc;

use arrow_array::cast::AsArray;
use arrow_array::types::Int64Type;
use arrow_array::{make_array, Array, ArrayRef, BinaryArray, BooleanArray, Int64Array, ListArray, StringArray};
use arrow_data::ArrayData;
use arrow_pyarrow::{FromPyArrow, ToPyArrow};
use arrow_schema::{DataType, Field};
use chessbits::position::{Position, Validation};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;

use crate::InvalidFenError;

/// `value` as one Arrow array: a pyarrow `Array` (or any object with `__arrow_c_array__`) as it
/// is; a `ChunkedArray` (a table's column) with its chunks concatenated; anything else (lists,
/// numpy arrays) through `pyarrow.array(value)`.
pub fn import(value: &Bound<'_, PyAny>) -> PyResult<ArrayRef> {
    let value = if value.hasattr("combine_chunks")? {
        value.call_method0("combine_chunks")?
    } else if value.hasattr("__arrow_c_array__")? || value.hasattr("_export_to_c")? {
        value.clone()
    } else {
        value.py().import("pyarrow")?.call_method1("array", (value,))?
    };
    Ok(make_array(ArrayData::from_pyarrow_bound(&value)?))
}

/// A pyarrow array of `array` (C data interface: pyarrow takes over the buffers, no copy).
pub fn export(py: Python<'_>, array: ArrayRef) -> PyResult<Py<PyAny>> {
    Ok(array.to_data().to_pyarrow(py)?.unbind())
}

/// `array` cast to `to`, or a `TypeError` naming the argument.
fn cast(array: &ArrayRef, to: &DataType, what: &str) -> PyResult<ArrayRef> {
    if array.data_type() == to {
        return Ok(Arc::clone(array));
    }
    arrow_cast::cast(array, to).map_err(|e| {
        PyTypeError::new_err(format!(
            "{what}: expected {to} (or a type that casts to it), got {}: {e}",
            array.data_type()
        ))
    })
}

/// The argument as a binary array (`binary`, `large_binary`, `binary_view`, nulls).
pub fn binary(value: &Bound<'_, PyAny>, what: &str) -> PyResult<BinaryArray> {
    Ok(cast(&import(value)?, &DataType::Binary, what)?
        .as_binary::<i32>()
        .clone())
}

/// The argument as a string array.
pub fn strings(value: &Bound<'_, PyAny>, what: &str) -> PyResult<StringArray> {
    Ok(cast(&import(value)?, &DataType::Utf8, what)?.as_string::<i32>().clone())
}

/// The argument as an int64 array (any integer type).
pub fn int64s(value: &Bound<'_, PyAny>, what: &str) -> PyResult<Int64Array> {
    Ok(cast(&import(value)?, &DataType::Int64, what)?
        .as_primitive::<Int64Type>()
        .clone())
}

/// The argument as a list<string> array (`list`, `large_list` of any string type).
pub fn string_lists(value: &Bound<'_, PyAny>, what: &str) -> PyResult<ListArray> {
    let to = DataType::List(Arc::new(Field::new("item", DataType::Utf8, true)));
    Ok(cast(&import(value)?, &to, what)?.as_list::<i32>().clone())
}

/// The strings of row `row` of a list<string> array (a null item is `None`).
pub fn list_items(list: &ListArray, row: usize) -> impl Iterator<Item = Option<&str>> {
    let values = list.values().as_string::<i32>();
    let offsets = list.value_offsets();
    let (start, end) = (offsets[row] as usize, offsets[row + 1] as usize);
    (start..end).map(move |j| values.is_valid(j).then(|| values.value(j)))
}

/// An error unless `len` is the number of rows.
pub fn check_len(len: usize, rows: usize, what: &str) -> PyResult<()> {
    if len == rows {
        Ok(())
    } else {
        Err(PyValueError::new_err(format!("{what}: {len} rows, expected {rows}")))
    }
}

/// Where each row's game starts: the standard position, one FEN for all, or a FEN per row
/// (null: the standard position); and whether it is Chess960 (castling written king takes rook
/// in UCI, as python-chess writes it for Chess960 boards).
pub struct Starts {
    fens: Fens,
    chess960: Flags,
}

enum Fens {
    Standard,
    One(Position),
    Each(StringArray),
}

enum Flags {
    One(bool),
    Each(BooleanArray),
}

impl Starts {
    /// Reads the `start_fens` and `chess960` arguments: `None`, one value for every row, or one
    /// per row (an array or sequence of `rows` items).
    pub fn new(
        start_fens: Option<&Bound<'_, PyAny>>,
        chess960: Option<&Bound<'_, PyAny>>,
        rows: usize,
    ) -> PyResult<Starts> {
        let fens = match start_fens {
            None => Fens::Standard,
            Some(value) if value.is_none() => Fens::Standard,
            Some(value) => match value.extract::<String>() {
                Ok(fen) => Fens::One(parse_start_fen(&fen).map_err(InvalidFenError::new_err)?),
                Err(_) => {
                    let fens = strings(value, "start_fens")?;
                    check_len(fens.len(), rows, "start_fens")?;
                    Fens::Each(fens)
                }
            },
        };
        let chess960 = match chess960 {
            None => Flags::One(false),
            Some(value) if value.is_none() => Flags::One(false),
            Some(value) => match value.extract::<bool>() {
                Ok(flag) => Flags::One(flag),
                Err(_) => {
                    let array = import(value)?;
                    let flags = cast(&array, &DataType::Boolean, "chess960")?.as_boolean().clone();
                    check_len(flags.len(), rows, "chess960")?;
                    Flags::Each(flags)
                }
            },
        };
        Ok(Starts { fens, chess960 })
    }

    /// The start position of row `row`, or why its FEN is not one.
    pub fn get(&self, row: usize) -> Result<Position, String> {
        let mut pos = match &self.fens {
            Fens::Standard => Position::startpos(),
            Fens::One(pos) => pos.clone(),
            Fens::Each(fens) if fens.is_null(row) => Position::startpos(),
            Fens::Each(fens) => parse_start_fen(fens.value(row))?,
        };
        let chess960 = match &self.chess960 {
            Flags::One(flag) => *flag,
            Flags::Each(flags) => flags.is_valid(row) && flags.value(row),
        };
        if chess960 {
            pos.set_chess960(true);
        }
        Ok(pos)
    }
}

/// A game's start position (the `start_fen` column), or the error's message quoting it: a
/// composed position too, as `read_pgn` reads a `[FEN]` tag.
fn parse_start_fen(fen: &str) -> Result<Position, String> {
    parse_fen_with(fen, Validation::Composed)
}

/// A FEN's position validated as `validation` says, or the error's message quoting it.
pub fn parse_fen_with(fen: &str, validation: Validation) -> Result<Position, String> {
    Position::from_fen_with(fen, validation).map_err(|e| format!("invalid FEN '{fen}': {e}"))
}
