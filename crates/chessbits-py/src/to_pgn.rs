//! `to_pgn`: rows of a Parquet export (`chessbits export`) back to PGN text, rebuilt from their
//! columns by [`chessbits_parquet::GameRow::to_pgn`] (the rules are in that crate's
//! documentation, "PGN from a row").

use arrow_array::RecordBatch;
use arrow_pyarrow::FromPyArrow;
use chessbits_parquet::{moves_code_of, rows_from_batch, MovesCode, RebuildError};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use crate::ChessbitsError;

/// Rows of a Parquet export (`chessbits export`) as PGN text, one string per row, rebuilt from
/// the columns without reading `movetext`: a row whose `annotations` is not null is written from
/// it (the movetext as in the file after the row's tags, or the whole game); any other row from
/// the tags (the tag columns and other_tags, in the lichess database's order), SetUp/FEN from
/// start_fen, the main line decoded from `moves`, a `{ [%eval E] [%clk C] }` comment after each
/// move that has an eval or a clock, and the result (the Result column when it is 1-0, 0-1 or
/// 1/2-1/2, else `*`). For an export (version 2 or 3) every row gives a game equal to the input's as
/// python-chess reads it: tags, main line, clocks, evals, comments, NAGs, variations, result. A
/// row of a version-1 export whose `moves` is null (a null move in the main line) is written
/// from its tags and its `movetext` when the table has that column.
///
/// `table` is a pyarrow Table or RecordBatch of export rows (any columns that include `plies`;
/// tags left out are not written); `moves_code` is the code of `moves` (None: from the field's
/// metadata, as the export writes it).
///
/// Raises:
///     ChessbitsError: the table is not one of export rows (no plies column, a mistyped
///         column), or a row's game cannot be rebuilt (moves that do not decode, a bad
///         start_fen, a null move without annotations or movetext), naming the row.
///     ValueError: an unknown moves_code.
///
/// >>> import chessbits, pyarrow as pa
/// >>> table = pa.table({"White": ["Ann"], "Result": ["1-0"], "plies": pa.array([2], pa.int32()),
/// ...     "moves": chessbits.encode_moves([["e4", "e5"]], notation="san"), "clocks": [[180, 178]]})
/// >>> print(chessbits.to_pgn(table, moves_code="entropy")[0], end="")
/// [White "Ann"]
/// [Result "1-0"]
/// <BLANKLINE>
/// 1. e4 { [%clk 0:03:00] } 1... e5 { [%clk 0:02:58] } 1-0
/// <BLANKLINE>
#[pyfunction]
#[pyo3(signature = (table, *, moves_code = None))]
pub fn to_pgn(table: &Bound<'_, PyAny>, moves_code: Option<&str>) -> PyResult<Vec<String>> {
    let batches: Vec<Bound<'_, PyAny>> = if table.hasattr("to_batches")? {
        table.call_method0("to_batches")?.extract()?
    } else {
        vec![table.clone()]
    };
    let code = moves_code
        .map(|name| {
            name.parse::<MovesCode>()
                .map_err(|e| PyValueError::new_err(format!("moves_code: {e}")))
        })
        .transpose()?;
    let mut out = Vec::new();
    for batch in batches {
        let batch = RecordBatch::from_pyarrow_bound(&batch)?;
        let code = match code {
            Some(code) => code,
            None => moves_code_of(&batch.schema()).map_err(ChessbitsError::new_err)?,
        };
        let has_movetext = batch.schema().column_with_name("movetext").is_some();
        let rows = rows_from_batch(&batch).map_err(ChessbitsError::new_err)?;
        for row in rows {
            let pgn = match row.to_pgn(code) {
                Ok(pgn) => pgn,
                Err(RebuildError::NullMove) if has_movetext => row.to_pgn_with_movetext(&row.movetext),
                Err(error) => return Err(ChessbitsError::new_err(format!("row {}: {error}", out.len()))),
            };
            // UTF-8, else (a row with Latin-1 strings) read as Latin-1, as the reader does.
            out.push(chessbits::pgn::decode_text(&pgn).into_owned());
        }
    }
    Ok(out)
}
