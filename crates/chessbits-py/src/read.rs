//! `read_pgn`: the games of PGN files, directories, archives or bytes ([`crate::inputs`]) as a
//! `pyarrow.RecordBatchReader`, rows built by the Parquet export's code ([`GameRow::from_raw`],
//! [`rows_to_batch`]) so both have one schema.
//!
//! The reader is an Arrow C stream: pyarrow pulls batches (with the GIL released) and each pull
//! cuts up to `batch_size` games from the inputs, in order, on this thread, then parses them on
//! rayon's threads. Games that cannot be read are never dropped silently: they go to the caller's
//! `errors` list, or raise (`strict`), or end in one `PgnWarning` once the file is read.

use std::collections::VecDeque;
use std::ffi::CString;
use std::io;

use arrow_array::{RecordBatch, RecordBatchReader};
use arrow_pyarrow::IntoPyArrow;
use arrow_schema::{ArrowError, SchemaRef};
use chessbits::pgn::{decode_text, InputError, PgnReader, RawGame, MAX_GAME_BYTES};
use chessbits_parquet::{rows_to_batch, GameRow};
use pyo3::exceptions::{PyOSError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyList;
use rayon::prelude::*;

use crate::inputs::{inputs_of, is_archive_damage, Input, Text};
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
    /// The input the game is in: its path, or "<bytes>" ("<bytes N>" for item N of a list).
    pub source: String,
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
    /// The names of all inputs (errors and rejected games say which one).
    names: Vec<String>,
    /// The inputs not opened yet, with their numbers.
    to_open: VecDeque<(usize, Input)>,
    /// The input being read and its number.
    reader: Option<(usize, PgnReader<Text>)>,
    batch_size: usize,
    strict: bool,
    errors: Option<Py<PyList>>,
    rejected: u64,
    first_error: Option<String>,
    /// The inputs are read (or failed): only `pending` is left to hand out.
    done: bool,
    /// An error to return after the batch of the games before it.
    pending: Option<ArrowError>,
}

impl PgnBatches {
    /// Where a message about input `input` starts: its name, and the line if there is one.
    fn at(&self, input: usize, line: Option<u32>) -> String {
        let name = &self.names[input];
        match line {
            Some(line) => format!("{name}: line {line}"),
            None => name.clone(),
        }
    }

    /// Records a game of input `input` that could not be read.
    fn reject(&mut self, input: usize, line: u32, error: String, bytes: &[u8]) -> Result<(), ArrowError> {
        self.rejected += 1;
        if let Some(list) = &self.errors {
            let game = RejectedGame {
                source: self.names[input].clone(),
                line,
                error,
                pgn: decode_text(bytes).into_owned(),
            };
            // pyarrow calls the stream with the GIL released: take it for the append.
            Python::attach(|py| list.bind(py).append(Bound::new(py, game)?)).map_err(python_error)?;
        } else if self.first_error.is_none() {
            // One input: its name starts the warning already.
            self.first_error = Some(match self.names.len() {
                1 => format!("line {line}: {error}"),
                _ => format!("{}: {error}", self.at(input, Some(line))),
            });
        }
        Ok(())
    }

    /// The end-of-input warning, when games were skipped and nobody asked for them.
    fn warn_rejected(&self) -> Result<(), ArrowError> {
        if self.rejected == 0 || self.errors.is_some() {
            return Ok(());
        }
        let what = match self.names.len() {
            1 => self.names[0].clone(),
            n => format!("{n} inputs"),
        };
        let message = format!(
            "{what}: {} game(s) could not be read and were skipped (first: {}); pass errors=[] to \
             collect them, or strict=True to raise",
            self.rejected,
            self.first_error.as_deref().unwrap_or("?")
        );
        let message = CString::new(message.replace('\0', " ")).unwrap_or_default();
        Python::attach(|py| PyErr::warn(py, &py.get_type::<PgnWarning>(), &message, 1)).map_err(python_error)
    }

    /// The reader of the input to read from: the current one, else the next one opened;
    /// `None` when every input is read.
    fn current(&mut self) -> Result<Option<&mut (usize, PgnReader<Text>)>, ArrowError> {
        if self.reader.is_none() {
            let Some((number, input)) = self.to_open.pop_front() else {
                return Ok(None);
            };
            // Checked when read_pgn was called; this fails only if the file changed since.
            let text = input.open().map_err(|e| {
                let message = format!("{}: {e}", input.name);
                match is_archive_damage(&e) || InputError::of(&e).is_some() {
                    true => ArrowError::ParseError(message),
                    false => ArrowError::IoError(message, e),
                }
            })?;
            self.reader = Some((number, self.new_reader(text)));
        }
        Ok(self.reader.as_mut())
    }

    fn new_reader(&self, text: Text) -> PgnReader<Text> {
        let mut reader = PgnReader::new(text);
        // Strict stops at the first bad game: one over the size limit is reported once it
        // passes the limit, not after reading it to its end (which may never come: /dev/zero).
        reader.stop_at_too_long_game(self.strict);
        reader
    }

    /// Cuts up to `batch_size` games from the inputs: each with its text and input number.
    /// An error ends the reading (in `pending`, after the games before it).
    fn read_games(&mut self) -> Vec<(Vec<u8>, RawGame, usize)> {
        let mut games = Vec::new();
        // One buffer grows to the longest game; each game keeps a copy of its exact size.
        let mut buffer = Vec::new();
        while games.len() < self.batch_size {
            let (input, reader) = match self.current() {
                Ok(Some((input, reader))) => (*input, reader),
                Ok(None) => {
                    self.done = true;
                    break;
                }
                Err(e) => {
                    self.pending = Some(e);
                    self.done = true;
                    break;
                }
            };
            buffer.clear();
            match reader.read_raw_game(&mut buffer) {
                Ok(Some(raw)) => games.push((buffer.clone(), raw, input)),
                Ok(None) => self.reader = None,
                Err(e) => {
                    let line = reader.line();
                    self.done = true;
                    self.pending = Some(match InputError::of(&e) {
                        // Strict: a game that passed the size limit, reported there.
                        Some(InputError::GameTooLong { first_line }) => {
                            let at = self.at(input, Some(*first_line));
                            ArrowError::ParseError(format!("{at}: {}", too_long_message()))
                        }
                        // The line of the text written from an archive would tell nothing.
                        _ if is_archive_damage(&e) => ArrowError::ParseError(format!("{}: {e}", self.at(input, None))),
                        _ => {
                            let message = format!("{}: read error: {e}", self.at(input, Some(line)));
                            ArrowError::IoError(message, e)
                        }
                    });
                    break;
                }
            }
        }
        games
    }

    /// The next batch of up to `batch_size` rows (`None` at the end).
    fn next_batch(&mut self) -> Option<Result<RecordBatch, ArrowError>> {
        while !self.done {
            let games = self.read_games();
            let parsed: Vec<Result<GameRow, (u32, String)>> = games
                .par_iter()
                // A game a leaf, as in the Parquet export: games differ tenfold in length.
                .with_max_len(1)
                .map(|(bytes, raw, _)| {
                    if raw.too_long {
                        return Err((raw.first_line, too_long_message()));
                    }
                    GameRow::from_raw(bytes, raw).map_err(|e| (e.line, e.kind.to_string()))
                })
                .collect();
            let mut rows = Vec::with_capacity(parsed.len());
            for ((bytes, _, input), result) in games.iter().zip(parsed) {
                match result {
                    Ok(row) => rows.push(row),
                    Err((line, error)) if self.strict => {
                        let message = format!("{}: {error}", self.at(*input, Some(line)));
                        self.pending = Some(ArrowError::ParseError(message));
                        self.done = true;
                        break;
                    }
                    Err((line, error)) => {
                        if let Err(e) = self.reject(*input, line, error, bytes) {
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
/// (UTF-16 text, a damaged archive).
pub(crate) fn open_error(e: io::Error, path: &str) -> PyErr {
    if InputError::of(&e).is_some() || is_archive_damage(&e) {
        return ChessbitsError::new_err(format!("{path}: {e}"));
    }
    match e.raw_os_error() {
        Some(errno) => PyOSError::new_err((errno, e.to_string(), path.to_string())),
        None => PyOSError::new_err(format!("{path}: {e}")),
    }
}

/// Reads the games of PGN files as a stream of record batches with the schema of the Parquet
/// export (`chessbits export`): one row per game, tags in columns, the main line
/// entropy-coded in `moves` (see decode_moves), `plies`, `clock_deltas` (each side's first clock, then how much it fell a move), `evals`, `annotations` (what
/// the other columns cannot give back; to_pgn rebuilds every game), `start_fen`, `other_tags`,
/// `non_utf8`, `latin1_fields`.
///
/// `path` is a file; or a directory, standing for the files below it (any depth) named
/// `*.pgn`, `*.pgn.gz`, `*.pgn.zst` or `*.cbits`, sorted by path; or the content of a file as
/// bytes, bytearray or memoryview (what Spark's binaryFile source hands a worker); or a list
/// or tuple of these, read in order. What an input is, its first bytes say, never its name:
/// PGN text, gzip or zstd compressed PGN, or a .cbits archive (its games as `chessbits unpack`
/// writes them).
///
/// Games that cannot be read (illegal move, bad FEN, unsupported variant) are not rows. With
/// `errors` (a list) each is appended to it as a RejectedGame (source, line, error, pgn); with
/// `strict=True` the first one raises (pyarrow.ArrowInvalid, a ValueError, "path: line N:
/// why") once the rows before it have been handed out; otherwise one chessbits.PgnWarning at
/// the end of the input says how many were skipped and why the first was. A game longer than
/// 32 MiB is such a game: `strict=True` raises as soon as the game passes that size (so an
/// endless input like /dev/zero raises too); otherwise it is skipped to its end without being
/// kept in memory.
///
/// Args:
///     path: a file or directory (str or os.PathLike), bytes-like content, or a list or tuple
///         of them.
///     batch_size: games per record batch (at most).
///     strict: raise at the first game that cannot be read.
///     errors: a list to collect the games that cannot be read.
///
/// Returns:
///     pyarrow.RecordBatchReader (read lazily; `.read_all()` gives a Table).
///
/// Raises:
///     TypeError: `path` is none of the above.
///     OSError: a file cannot be opened or read (FileNotFoundError, ...); when reading, a
///         compressed input that is cut short or corrupt.
///     ChessbitsError: an input is UTF-16 text, compressed in an unsupported way, or an archive
///         whose header is damaged (a damaged block later raises pyarrow.ArrowInvalid);
///         a directory holds no input file.
///
/// >>> import chessbits, gzip, tempfile, os
/// >>> path = os.path.join(tempfile.mkdtemp(), "games.pgn")
/// >>> _ = open(path, "w").write('[White "Ann"]\n\n1. e4 e5 2. Nf3 *\n')
/// >>> table = chessbits.read_pgn(path).read_all()
/// >>> table["White"].to_pylist(), table["plies"].to_pylist()
/// (['Ann'], [3])
/// >>> chessbits.decode_moves(table["moves"], table["plies"]).to_pylist()
/// [['e2e4', 'e7e5', 'g1f3']]
/// >>> data = gzip.compress(b'[White "Bob"]\n\n1. d4 *\n')
/// >>> chessbits.read_pgn(data).read_all()["White"].to_pylist()
/// ['Bob']
/// >>> chessbits.read_pgn([path, data, os.path.dirname(path)]).read_all()["White"].to_pylist()
/// ['Ann', 'Bob', 'Ann']
#[pyfunction]
#[pyo3(signature = (path, batch_size = 16384, *, strict = false, errors = None))]
pub fn read_pgn(
    py: Python<'_>,
    path: &Bound<'_, PyAny>,
    batch_size: usize,
    strict: bool,
    errors: Option<Bound<'_, PyList>>,
) -> PyResult<Py<PyAny>> {
    if batch_size == 0 {
        return Err(PyValueError::new_err("batch_size: must be at least 1"));
    }
    let inputs = inputs_of(path)?;
    let names = inputs.iter().map(|input| input.name.clone()).collect();
    let mut batches = PgnBatches {
        names,
        to_open: VecDeque::new(),
        reader: None,
        batch_size,
        strict,
        errors: errors.map(Bound::unbind),
        rejected: 0,
        first_error: None,
        done: false,
        pending: None,
    };
    // Bad inputs raise here, not halfway through the stream: the first is opened and kept (it
    // may be a pipe), the others opened once to check them (not kept: a directory may hold
    // more files than a process may have open) when that reads nothing the stream needs.
    for (number, input) in inputs.into_iter().enumerate() {
        if number == 0 {
            let text = input.open().map_err(|e| open_error(e, &input.name))?;
            batches.reader = Some((0, batches.new_reader(text)));
            continue;
        }
        if input.can_reopen() {
            input.open().map_err(|e| open_error(e, &input.name))?;
        }
        batches.to_open.push_back((number, input));
    }
    let stream: Box<dyn RecordBatchReader + Send> = Box::new(batches);
    Ok(stream.into_pyarrow(py)?.unbind())
}
