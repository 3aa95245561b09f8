//! The Python package `chessbits`: the library's PGN reader, move codes and move generator for
//! Python, in batches, with [Apache Arrow](https://arrow.apache.org/) arrays in and out.
//!
//! Built with [maturin](https://www.maturin.rs/) into an abi3 wheel (CPython 3.9 and newer):
//! `scripts/python_package.sh` builds it, installs it in a fresh venv and runs the pytest suite
//! (`tests/`). The Python API, with examples, is in the docstrings and in `chessbits.pyi`:
//!
//! - `read_pgn(path, batch_size=16384, *, strict=False, errors=None)`: a
//!   `pyarrow.RecordBatchReader` of games, with the schema of the Parquet export
//!   ([`chessbits_parquet::schema`]), from files, directories, `.cbits` archives or bytes;
//! - `decode_moves`, `encode_moves`: the `moves` column (entropy move code) to lists of UCI or
//!   SAN moves and back;
//! - `positions`: FEN or EPD per ply of each game of a `moves` column;
//! - `validate`: per game of SAN or UCI moves, whether it is legal, else the first bad ply;
//! - `Position`: one position to play moves on, list legal moves, read the outcome;
//! - `build_index`, `Index` (`explore`, `explore_json`, `search`, `game_text`), `position_key`:
//!   the position index of [`chessbits_index`], answers as pyarrow tables;
//! - `export_parts`, `export_records`, `seal_index`: the same index built by another tool (the
//!   Spark job `examples/spark/build_index.py`) from a Parquet export.
//!
//! Arrow data crosses the language boundary through the Arrow C data and stream interfaces
//! (arrow-rs's `arrow-pyarrow`), without copies. Errors are Python exceptions, subclasses of
//! `ValueError` carrying the message of the library's typed errors; no input panics.
//!
//! This crate is a workspace member but not a default member, and has no Rust tests: its code
//! only runs inside an interpreter (see Cargo.toml).

use pyo3::create_exception;
use pyo3::exceptions::{PyUserWarning, PyValueError};
use pyo3::prelude::*;

mod arrow_io;
mod batches;
mod index;
mod index_build;
mod index_tables;
mod inputs;
mod position;
mod read;
mod to_pgn;

create_exception!(
    chessbits,
    ChessbitsError,
    PyValueError,
    "Base class of the package's errors (a ValueError)."
);
create_exception!(
    chessbits,
    InvalidFenError,
    ChessbitsError,
    "A FEN that does not describe a legal position."
);
create_exception!(
    chessbits,
    IllegalMoveError,
    ChessbitsError,
    "A move that is malformed, ambiguous or illegal in its position."
);
create_exception!(
    chessbits,
    DecodeError,
    ChessbitsError,
    "Bytes of a `moves` column that are not a game's entropy code from its start position."
);
create_exception!(
    chessbits,
    PgnWarning,
    PyUserWarning,
    "Some games of a PGN file could not be read (read_pgn without strict or errors)."
);

/// Fast chess in batches, on Apache Arrow arrays (the Rust library chessbits).
///
/// - read_pgn: PGN files (plain, gzip, zstd; a directory, a .cbits archive, bytes, a list of
///   them) as a pyarrow.RecordBatchReader, one row per game, with the schema of
///   `chessbits export` (tags, moves, plies, clock_deltas, evals, annotations, ...);
/// - decode_moves / encode_moves: the entropy-coded `moves` column to lists of UCI or SAN moves
///   and back;
/// - positions: the FEN (or EPD) of each game's positions;
/// - validate: per game of SAN or UCI moves, the first illegal one and why;
/// - Position: one position to play moves on, list legal moves, read the outcome, look at the
///   board (piece_at, attackers, is_attacked_by, board), as python-chess names them;
/// - build_index / Index / position_key: a position index (opening explorer and exact position
///   search as pyarrow tables) and the key of its Parquet tables.
///
/// Errors are ValueError subclasses (ChessbitsError, InvalidFenError, IllegalMoveError,
/// DecodeError), or OSError for files.
///
/// >>> import chessbits
/// >>> chessbits.Position().push_san("e4")
/// 'e2e4'
#[pymodule]
#[pyo3(name = "chessbits")]
fn chessbits_module(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("ChessbitsError", py.get_type::<ChessbitsError>())?;
    m.add("InvalidFenError", py.get_type::<InvalidFenError>())?;
    m.add("IllegalMoveError", py.get_type::<IllegalMoveError>())?;
    m.add("DecodeError", py.get_type::<DecodeError>())?;
    m.add("PgnWarning", py.get_type::<PgnWarning>())?;
    m.add_class::<position::Position>()?;
    m.add_class::<position::Outcome>()?;
    m.add_class::<read::RejectedGame>()?;
    m.add_function(wrap_pyfunction!(read::read_pgn, m)?)?;
    m.add_function(wrap_pyfunction!(batches::decode_moves, m)?)?;
    m.add_function(wrap_pyfunction!(batches::encode_moves, m)?)?;
    m.add_function(wrap_pyfunction!(batches::positions, m)?)?;
    m.add_function(wrap_pyfunction!(batches::validate, m)?)?;
    m.add_class::<index::Index>()?;
    m.add_function(wrap_pyfunction!(index::build_index, m)?)?;
    m.add_function(wrap_pyfunction!(index::position_key, m)?)?;
    m.add_function(wrap_pyfunction!(index::position_key_hex, m)?)?;
    m.add_function(wrap_pyfunction!(index_build::export_parts, m)?)?;
    m.add_function(wrap_pyfunction!(index_build::export_records, m)?)?;
    m.add_function(wrap_pyfunction!(index_build::seal_index, m)?)?;
    m.add_function(wrap_pyfunction!(to_pgn::to_pgn, m)?)?;
    Ok(())
}
