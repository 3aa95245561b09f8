//! `read_pgn`: the games of a PGN file as a `pyarrow.RecordBatchReader`, rows built by the
//! Parquet export's code ([`GameRow::from_raw`], [`rows_to_batch`]) so both have one schema.
//!
//! The reader is an Arrow C stream: pyarrow pulls batches (with the GIL released) and each pull
//! cuts up to `batch_size` games from the file on this thread, then parses them on rayon's
//! threads. Games that cannot be read are never dropped silently: they go to the caller's
//! `errors` list, or raise (`strict`), or end in one `PgnWarning` once the file is read.

use std::ffi::CString;
use std::fs::File;
use std::io;
use std::path::PathBuf;

use arrow_array::{RecordBatch, RecordBatchReader};
use arrow_pyarrow::IntoPyArrow;
use arrow_schema::{ArrowError, SchemaRef};
use chessbits::pgn::{decode_text, decompress, Decompressed, InputError, PgnReader, RawGame, MAX_GAME_BYTES};
use chessbits_parquet::{rows_to_batch, GameRow};
use pyo3::exceptions::{PyOSError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyList;
use rayon::prelude::*;

use crate::{ChessbitsError, PgnWarning};

/// A game `read_pgn` could not read: where it starts, why, and its text.
///
/// >>> import chessbits, tempfile, os
/// >>> path = os.path.join(tempfile.mkdtemp(), "bad.pgn")
/// >>> _ = open(path, "w").write('[Event "x"]\n\n1. e4 e4 *\n')
/// >>> errors = []
/// >>> chessbits.read_pgn(path, errors=errors).read_all().num_rows
/// 0
/// >>> errors
/// [RejectedGame(line=3, error="illegal move 'e4'")]
#[pyclass(module = "chessbits", frozen, get_all)]
pub struct RejectedGame {
    /// The line of the error (of the game's first line if it is too long to read).
    pub line: u32,
    /// What is wrong.
    pub error: String,
    /// The game's text as in the file (empty for a game over the size limit).
    pub pgn: String,
}

#[pymethods]
impl RejectedGame {
    fn __repr__(&self) -> String {
        format!("RejectedGame(line={}, error={:?})", self.line, self.error)
    }
}

/// The stream behind the RecordBatchReader.
struct PgnBatches {
    path: String,
    reader: PgnReader<Decompressed<File>>,
    batch_size: usize,
    strict: bool,
    errors: Option<Py<PyList>>,
    rejected: u64,
    first_error: Option<String>,
    /// The input is read (or failed): only `pending` is left to hand out.
    done: bool,
    /// An error to return after the batch of the games before it.
    pending: Option<ArrowError>,
}

impl PgnBatches {
    /// Records a game that could not be read.
    fn reject(&mut self, line: u32, error: String, bytes: &[u8]) -> Result<(), ArrowError> {
        self.rejected += 1;
        if let Some(list) = &self.errors {
            let game = RejectedGame {
                line,
                error,
                pgn: decode_text(bytes).into_owned(),
            };
            // pyarrow calls the stream with the GIL released: take it for the append.
            Python::attach(|py| list.bind(py).append(Bound::new(py, game)?)).map_err(python_error)?;
        } else if self.first_error.is_none() {
            self.first_error = Some(format!("line {line}: {error}"));
        }
        Ok(())
    }

    /// The end-of-file warning, when games were skipped and nobody asked for them.
    fn warn_rejected(&self) -> Result<(), ArrowError> {
        if self.rejected == 0 || self.errors.is_some() {
            return Ok(());
        }
        let message = format!(
            "{}: {} game(s) could not be read and were skipped (first: {}); pass errors=[] to \
             collect them, or strict=True to raise",
            self.path,
            self.rejected,
            self.first_error.as_deref().unwrap_or("?")
        );
        let message = CString::new(message.replace('\0', " ")).unwrap_or_default();
        Python::attach(|py| PyErr::warn(py, &py.get_type::<PgnWarning>(), &message, 1)).map_err(python_error)
    }

    /// The next batch of up to `batch_size` rows (`None` at the end).
    fn next_batch(&mut self) -> Option<Result<RecordBatch, ArrowError>> {
        while !self.done {
            let mut games: Vec<(Vec<u8>, RawGame)> = Vec::new();
            // One buffer grows to the longest game; each game keeps a copy of its exact size.
            let mut buffer = Vec::new();
            while games.len() < self.batch_size {
                buffer.clear();
                match self.reader.read_raw_game(&mut buffer) {
                    Ok(Some(raw)) => games.push((buffer.clone(), raw)),
                    Ok(None) => {
                        self.done = true;
                        break;
                    }
                    Err(e) => {
                        self.done = true;
                        self.pending = Some(match InputError::of(&e) {
                            // Strict: a game that passed the size limit, reported there.
                            Some(InputError::GameTooLong { first_line }) => ArrowError::ParseError(format!(
                                "{}: line {first_line}: {}",
                                self.path,
                                too_long_message()
                            )),
                            _ => {
                                let message = format!("{}: line {}: read error: {e}", self.path, self.reader.line());
                                ArrowError::IoError(message, e)
                            }
                        });
                        break;
                    }
                }
            }
            let parsed: Vec<Result<GameRow, (u32, String)>> = games
                .par_iter()
                // A game a leaf, as in the Parquet export: games differ tenfold in length.
                .with_max_len(1)
                .map(|(bytes, raw)| {
                    if raw.too_long {
                        return Err((raw.first_line, too_long_message()));
                    }
                    GameRow::from_raw(bytes, raw).map_err(|e| (e.line, e.kind.to_string()))
                })
                .collect();
            let mut rows = Vec::with_capacity(parsed.len());
            for ((bytes, _), result) in games.iter().zip(parsed) {
                match result {
                    Ok(row) => rows.push(row),
                    Err((line, error)) if self.strict => {
                        let message = format!("{}: line {line}: {error}", self.path);
                        self.pending = Some(ArrowError::ParseError(message));
                        self.done = true;
                        break;
                    }
                    Err((line, error)) => {
                        if let Err(e) = self.reject(line, error, bytes) {
                            self.pending = Some(e);
                            self.done = true;
                            break;
                        }
                    }
                }
            }
            if self.done && self.pending.is_none() {
                if let Err(e) = self.warn_rejected() {
                    self.pending = Some(e);
                }
            }
            if !rows.is_empty() {
                return Some(rows_to_batch(&rows));
            }
        }
        self.pending.take().map(Err)
    }
}

/// Why a game over the size limit is not a row.
fn too_long_message() -> String {
    format!("game longer than {MAX_GAME_BYTES} bytes")
}

impl Iterator for PgnBatches {
    type Item = Result<RecordBatch, ArrowError>;

    fn next(&mut self) -> Option<Self::Item> {
        self.next_batch()
    }
}

impl RecordBatchReader for PgnBatches {
    fn schema(&self) -> SchemaRef {
        chessbits_parquet::schema()
    }
}

/// A Python exception raised inside the stream (a warning made an error, a failed append), as
/// the stream's error: pyarrow raises it with this message.
fn python_error(e: PyErr) -> ArrowError {
    ArrowError::ExternalError(Box::new(e))
}

/// An `io::Error` about `path` as Python's OSError (its errno picks the subclass:
/// FileNotFoundError, IsADirectoryError, ...), or a ChessbitsError for input we cannot read
/// (UTF-16 text).
pub(crate) fn open_error(e: io::Error, path: &str) -> PyErr {
    if InputError::of(&e).is_some() {
        return ChessbitsError::new_err(format!("{path}: {e}"));
    }
    match e.raw_os_error() {
        Some(errno) => PyOSError::new_err((errno, e.to_string(), path.to_string())),
        None => PyOSError::new_err(format!("{path}: {e}")),
    }
}

/// Reads the games of a PGN file (plain, gzip or zstd, recognised by content) as a stream of
/// record batches with the schema of the Parquet export (`chessbits export`): one row per game,
/// tags in columns, the movetext, the main line entropy-coded in `moves` (see decode_moves),
/// `plies`, `clocks`, `evals`, `start_fen`, `other_tags`, `non_utf8`, `latin1_fields`.
///
/// Games that cannot be read (illegal move, bad FEN, unsupported variant) are not rows. With
/// `errors` (a list) each is appended to it as a RejectedGame (line, error, pgn); with
/// `strict=True` the first one raises (pyarrow.ArrowInvalid, a ValueError, "path: line N:
/// why") once the rows before it have been handed out; otherwise one chessbits.PgnWarning at
/// the end of the file says how many were skipped and why the first was. A game longer than
/// 32 MiB is such a game: `strict=True` raises as soon as the game passes that size (so an
/// endless input like /dev/zero raises too); otherwise it is skipped to its end without being
/// kept in memory.
///
/// Args:
///     path: the file (str or os.PathLike).
///     batch_size: games per record batch (at most).
///     strict: raise at the first game that cannot be read.
///     errors: a list to collect the games that cannot be read.
///
/// Returns:
///     pyarrow.RecordBatchReader (read lazily; `.read_all()` gives a Table).
///
/// Raises:
///     OSError: the file cannot be opened or read (FileNotFoundError, ...).
///     ChessbitsError: the file is UTF-16 text or compressed in an unsupported way.
///
/// >>> import chessbits, tempfile, os
/// >>> path = os.path.join(tempfile.mkdtemp(), "games.pgn")
/// >>> _ = open(path, "w").write('[White "Ann"]\n\n1. e4 e5 2. Nf3 *\n')
/// >>> table = chessbits.read_pgn(path).read_all()
/// >>> table["White"].to_pylist(), table["plies"].to_pylist()
/// (['Ann'], [3])
/// >>> chessbits.decode_moves(table["moves"], table["plies"]).to_pylist()
/// [['e2e4', 'e7e5', 'g1f3']]
#[pyfunction]
#[pyo3(signature = (path, batch_size = 16384, *, strict = false, errors = None))]
pub fn read_pgn(
    py: Python<'_>,
    path: PathBuf,
    batch_size: usize,
    strict: bool,
    errors: Option<Bound<'_, PyList>>,
) -> PyResult<Py<PyAny>> {
    if batch_size == 0 {
        return Err(PyValueError::new_err("batch_size: must be at least 1"));
    }
    let name = path.display().to_string();
    let file = File::open(&path).map_err(|e| open_error(e, &name))?;
    let input = decompress(file).map_err(|e| open_error(e, &name))?;
    let mut reader = PgnReader::new(input);
    // Strict stops at the first bad game: one over the size limit is reported once it passes
    // the limit, not after reading it to its end (which may never come: /dev/zero).
    reader.stop_at_too_long_game(strict);
    let batches = PgnBatches {
        path: name,
        reader,
        batch_size,
        strict,
        errors: errors.map(Bound::unbind),
        rejected: 0,
        first_error: None,
        done: false,
        pending: None,
    };
    let stream: Box<dyn RecordBatchReader + Send> = Box::new(batches);
    Ok(stream.into_pyarrow(py)?.unbind())
}
