//! The position index (the crate `chessbits-index`): `Index` (explorer and search queries on an
//! open index, answered as pyarrow tables or the lichess explorer's JSON shape), `build_index`,
//! and `position_key` (the `key` column's bytes, for DuckDB and friends).

use std::path::{Path, PathBuf};

use chessbits::position::Position;
use chessbits_index::build::{is_export_dir, InputKind};
use chessbits_index::{
    resolve_position, BuildOptions, ExploreOptions, Filters, IndexBuilder, IndexError, PositionKey, SearchOptions,
    SortOrder,
};
use pyo3::exceptions::{PyIndexError, PyOSError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString};

use crate::index_tables;
use crate::inputs::directory;
use crate::read::open_error;
use crate::{ChessbitsError, IllegalMoveError, InvalidFenError};

/// An index error as a Python exception: file errors are OSError (FileNotFoundError, ...,
/// FileExistsError for an output that is in the way), a damaged or foreign index is a
/// ChessbitsError, a bad query a ValueError.
pub(crate) fn index_error(e: IndexError) -> PyErr {
    match e {
        IndexError::Io { path, source } => open_error(source, &path.display().to_string()),
        IndexError::Exists { ref path } => {
            let path = path.display().to_string();
            PyOSError::new_err((17, e.to_string(), path)) // EEXIST: FileExistsError
        }
        IndexError::Query(reason) => PyValueError::new_err(reason),
        other => ChessbitsError::new_err(other.to_string()),
    }
}

/// The position of a query: `fen` (FEN, EPD or `startpos`; None: the start position), then
/// `moves`. The FEN is checked alone first, so that its error is an InvalidFenError and a bad
/// move's an IllegalMoveError (the index crate reports both as one kind of error).
pub(crate) fn resolve(fen: Option<&str>, moves: &str) -> PyResult<Position> {
    let start = resolve_position(fen, "").map_err(|e| InvalidFenError::new_err(e.to_string()))?;
    if moves.trim().is_empty() {
        return Ok(start);
    }
    resolve_position(fen, moves).map_err(|e| IllegalMoveError::new_err(e.to_string()))
}

/// A list argument given as a comma-separated string or as a sequence of strings or numbers.
fn comma_list(value: &Bound<'_, PyAny>) -> PyResult<String> {
    if let Ok(text) = value.cast::<PyString>() {
        return Ok(text.to_string());
    }
    let mut items = Vec::new();
    for item in value.try_iter()? {
        items.push(item?.str()?.to_string());
    }
    Ok(items.join(","))
}

/// The filters of a query (see `Index.explore`).
fn filters(
    speeds: Option<&Bound<'_, PyAny>>,
    ratings: Option<&Bound<'_, PyAny>>,
    since: Option<&str>,
    until: Option<&str>,
    player: Option<String>,
) -> PyResult<Filters> {
    let mut filters = Filters::default();
    if let Some(speeds) = speeds {
        filters = filters.speeds(&comma_list(speeds)?).map_err(index_error)?;
    }
    if let Some(ratings) = ratings {
        filters = filters.ratings(&comma_list(ratings)?).map_err(index_error)?;
    }
    if let Some(since) = since {
        filters = filters.since(since).map_err(index_error)?;
    }
    if let Some(until) = until {
        filters = filters.until(until).map_err(index_error)?;
    }
    filters.player = player;
    Ok(filters)
}

/// The 16 bytes of a position's key, exactly as the `key` column of every table of an index
/// holds them (128 bits big-endian: the Polyglot key, en passant hashed only when a capture is
/// legal, then a second 64-bit Zobrist hash). The key covers placement, side to move, castling
/// rights and a legal en passant square; not the move counters, not the move order.
///
/// `fen` is a FEN, an EPD line or "startpos" (None: the start position); `moves` are SAN or UCI
/// moves played from it, separated by spaces ("e4 e5 Nf3", "1. e4 e5"). In DuckDB, bind the
/// bytes as a BLOB parameter: `SELECT uci, sum(white), sum(draws), sum(black) FROM
/// read_parquet('INDEX/explorer/*.parquet') WHERE key = ? GROUP BY uci` (for a position of two
/// or more games; one game's position is its `positions` row with `solo` true: see the index
/// crate's documentation).
///
/// Raises:
///     InvalidFenError: the FEN is not a legal position.
///     IllegalMoveError: a move is malformed or illegal (the message says which).
///
/// >>> import chessbits
/// >>> key = chessbits.position_key()
/// >>> len(key), key[:8].hex()  # the high half is the Polyglot key
/// (16, '463b96181691fc9c')
/// >>> chessbits.position_key(moves="Nf3 Nf6 Ng1 Ng8") == key  # the position, not the path
/// True
#[pyfunction]
#[pyo3(signature = (fen = None, moves = ""))]
pub fn position_key<'py>(
    py: Python<'py>,
    fen: Option<&str>,
    moves: &str,
) -> PyResult<Bound<'py, pyo3::types::PyBytes>> {
    let key = PositionKey::of(&resolve(fen, moves)?);
    Ok(pyo3::types::PyBytes::new(py, &key.to_bytes()))
}

/// The position key (see position_key) as 32 lowercase hexadecimal digits, as `chessbits
/// explore --json` prints it (DuckDB: `WHERE key = from_hex('...')`).
///
/// >>> import chessbits
/// >>> chessbits.position_key_hex(moves="e4") == chessbits.position_key(moves="e4").hex()
/// True
#[pyfunction]
#[pyo3(signature = (fen = None, moves = ""))]
pub fn position_key_hex(fen: Option<&str>, moves: &str) -> PyResult<String> {
    Ok(PositionKey::of(&resolve(fen, moves)?).to_string())
}

/// The inputs a path stands for, as the CLI's `index build` reads them: a Parquet export
/// directory as one input; any other directory the PGN files (plain, gzip, zstd) and `.cbits`
/// archives below it, at any depth, sorted ([`directory`]); a file as it is, whatever its name.
/// What each file is, its content says ([`InputKind::of`]).
fn expand(input: PathBuf) -> PyResult<Vec<(PathBuf, InputKind)>> {
    let display = input.display().to_string();
    let meta = std::fs::metadata(&input).map_err(|e| open_error(e, &display))?;
    if meta.is_dir() && is_export_dir(&input) {
        return Ok(vec![(input, InputKind::Export)]);
    }
    let files = match meta.is_dir() {
        true => directory(&input)?,
        false => vec![input],
    };
    if files.is_empty() {
        return Err(PyValueError::new_err(format!(
            "{display}: no .pgn, .pgn.gz, .pgn.zst or .cbits file below the directory"
        )));
    }
    files
        .into_iter()
        .map(|file| InputKind::of(&file).map(|kind| (file, kind)).map_err(index_error))
        .collect()
}

/// Builds a position index from games into the directory `output`, on `threads` worker threads
/// (0: one per core), as `chessbits index build` does. `inputs` is a path or a list of paths:
/// PGN files (plain, gzip or zstd), `.cbits` archives (known by their content, whatever their
/// name), Parquet export directories (`chessbits export`), or directories standing for the PGN
/// files and archives below them (any depth, sorted). Games are numbered in input order from 0. `output` must not exist or be an empty directory,
/// unless `force=True` (which replaces it).
///
/// Returns a dict: games, positions, explorer_rows, bytes (of the index's files), errors (games
/// that could not be read and were left out) and error_messages (the first of them,
/// "file:line: reason").
///
/// Raises:
///     OSError: an input cannot be read (FileNotFoundError, ...), or `output` is in the way
///         (FileExistsError).
///     ValueError: a directory holds no PGN file or archive.
///     ChessbitsError: an input is a single Parquet file (give its export's directory) or a
///         compressed archive.
///
/// >>> import chessbits, os, tempfile
/// >>> d = tempfile.mkdtemp()
/// >>> with open(os.path.join(d, "g.pgn"), "w") as f:
/// ...     _ = f.write('[Result "1-0"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n')
/// >>> summary = chessbits.build_index(d, os.path.join(d, "index"))
/// >>> summary["games"], summary["positions"], summary["errors"]
/// (1, 8, 0)
#[pyfunction]
#[pyo3(signature = (inputs, output, *, threads = 0, force = false))]
pub fn build_index<'py>(
    py: Python<'py>,
    inputs: &Bound<'py, PyAny>,
    output: PathBuf,
    threads: usize,
    force: bool,
) -> PyResult<Bound<'py, PyDict>> {
    let given: Vec<PathBuf> = match inputs.extract::<PathBuf>() {
        Ok(one) => vec![one],
        Err(_) => inputs.extract()?,
    };
    let mut files = Vec::new();
    for input in given {
        files.extend(expand(input)?);
    }
    let options = BuildOptions {
        threads,
        force,
        ..BuildOptions::default()
    };
    let summary = py
        .detach(|| -> Result<_, IndexError> {
            let mut builder = IndexBuilder::create(&output, options)?;
            for (file, kind) in &files {
                match kind {
                    InputKind::Pgn => builder.add_file(file)?,
                    InputKind::Archive => builder.add_archive(file, &mut |_| {})?,
                    InputKind::Export => builder.add_export(file, &mut |_| {})?,
                }
            }
            builder.finish()
        })
        .map_err(index_error)?;
    let dict = PyDict::new(py);
    dict.set_item("games", summary.games)?;
    dict.set_item("positions", summary.positions)?;
    dict.set_item("explorer_rows", summary.explorer_rows)?;
    dict.set_item("bytes", summary.bytes)?;
    dict.set_item("errors", summary.errors)?;
    dict.set_item("error_messages", PyList::new(py, &summary.error_messages)?)?;
    Ok(dict)
}

/// A position index (built by build_index or `chessbits index build`), opened once: its
/// manifest and every file's footer and page index are read here, so that each query reads
/// only the pages of its position.
///
/// Queries take the position as `fen` (FEN, EPD or "startpos"; None: the start position) and
/// `moves` played from it (SAN or UCI, "e4 e5 Nf3"), and the filters `speeds` (lichess names:
/// ultraBullet, bullet, blitz, rapid, classical, correspondence), `ratings` (bands of the
/// players' average rating, by lower bound: 0, 1000, 1200, 1400, 1600, 1800, 2000, 2200, 2500)
/// — each a list or a comma-separated string —, `since` and `until` (months, "YYYY-MM") and
/// `player` (the White or Black tag, case ignored). A position no game reached gives an empty
/// table.
///
/// Raises (opening):
///     OSError: the directory or its manifest cannot be read (FileNotFoundError, ...).
///     ChessbitsError: a file of the index is damaged or not an index file.
///
/// >>> import chessbits, os, tempfile
/// >>> d = tempfile.mkdtemp()
/// >>> with open(os.path.join(d, "g.pgn"), "w") as f:
/// ...     _ = f.write('[White "Ann"]\n[Result "1-0"]\n\n1. e4 e5 2. Nf3 Nc6 1-0\n\n'
/// ...                 '[White "Bob"]\n[Result "1/2-1/2"]\n\n1. Nf3 Nc6 2. e4 e5 1/2-1/2\n')
/// >>> _ = chessbits.build_index(d, os.path.join(d, "index"))
/// >>> index = chessbits.Index(os.path.join(d, "index"))
/// >>> index.games
/// 2
/// >>> index.explore(moves="e4").to_pylist()
/// [{'uci': 'e7e5', 'san': 'e5', 'white': 1, 'draws': 0, 'black': 0, 'games': 1, 'average_rating': None, 'last_date': None}]
/// >>> found = index.search(moves="e4 e5 Nf3 Nc6")  # both games, by two move orders
/// >>> found.column("white").to_pylist(), found.column("plies").to_pylist(), found.schema.metadata[b"total"]
/// (['Ann', 'Bob'], [[4], [4]], b'2')
/// >>> index.game_text(1).decode().splitlines()[0]
/// '[White "Bob"]'
#[pyclass(module = "chessbits", frozen)]
pub struct Index {
    inner: chessbits_index::Index,
}

impl Index {
    /// `query` on the index, with the GIL released (an index answers several threads at once:
    /// its files are read by position).
    fn query<T: Send>(&self, py: Python<'_>, query: impl FnOnce(&chessbits_index::Index) -> T + Send) -> T {
        py.detach(|| query(&self.inner))
    }
}

#[pymethods]
impl Index {
    #[new]
    fn new(py: Python<'_>, path: PathBuf) -> PyResult<Index> {
        let inner = py.detach(|| chessbits_index::Index::open(&path)).map_err(index_error)?;
        Ok(Index { inner })
    }

    /// The number of games in the index.
    #[getter]
    fn games(&self) -> u64 {
        self.inner.games()
    }

    /// The index's directory.
    #[getter]
    fn path(&self) -> PathBuf {
        self.inner.dir().to_path_buf()
    }

    /// The input files the games came from: per file a dict with source (its number), path,
    /// bytes and modified (nanoseconds since 1970, or None) when indexed, games, first_game.
    #[getter]
    fn sources<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let list = PyList::empty(py);
        for s in self.inner.sources() {
            let dict = PyDict::new(py);
            dict.set_item("source", s.source)?;
            dict.set_item("path", &s.path)?;
            dict.set_item("bytes", s.bytes)?;
            dict.set_item("modified", s.modified)?;
            dict.set_item("games", s.games)?;
            dict.set_item("first_game", s.first_game)?;
            list.append(dict)?;
        }
        Ok(list)
    }

    /// The moves played from a position, one row per move, the most played first: uci, san,
    /// white, draws, black, games (int64: games that played the move at their first visit of
    /// the position, by result), average_rating (of the games' average ratings; null when none
    /// was rated), last_date ("YYYY.MM.DD" of its latest game; null when unknown). At most
    /// `max_moves` rows (None: all).
    ///
    /// The position's totals (the games that reached it, those that ended there included) are
    /// in the schema metadata: b"white", b"draws", b"black", b"games", and b"fen" and b"key"
    /// (hex) of the position. explore_json gives them as numbers, with top and recent games.
    /// Games without a result ("*") are not counted.
    ///
    /// Raises:
    ///     InvalidFenError, IllegalMoveError: the position cannot be set up.
    ///     ValueError: a filter is malformed (an unknown speed, a rating that is not a band).
    ///     ChessbitsError: the index is damaged.
    ///
    /// >>> import chessbits, os, tempfile
    /// >>> d = tempfile.mkdtemp()
    /// >>> with open(os.path.join(d, "g.pgn"), "w") as f:
    /// ...     _ = f.write('[Result "0-1"]\n\n1. d4 d5 0-1\n')
    /// >>> _ = chessbits.build_index(d, os.path.join(d, "i"))
    /// >>> table = chessbits.Index(os.path.join(d, "i")).explore()
    /// >>> table.column("san").to_pylist(), table.schema.metadata[b"black"]
    /// (['d4'], b'1')
    #[pyo3(signature = (fen = None, moves = "", *, speeds = None, ratings = None, since = None, until = None, player = None, max_moves = None))]
    #[allow(clippy::too_many_arguments)]
    fn explore<'py>(
        &self,
        py: Python<'py>,
        fen: Option<&str>,
        moves: &str,
        speeds: Option<&Bound<'py, PyAny>>,
        ratings: Option<&Bound<'py, PyAny>>,
        since: Option<&str>,
        until: Option<&str>,
        player: Option<String>,
        max_moves: Option<usize>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let pos = resolve(fen, moves)?;
        let options = ExploreOptions {
            filters: filters(speeds, ratings, since, until, player)?,
            moves: max_moves.unwrap_or(usize::MAX),
            top_games: 0,
            recent_games: 0,
        };
        let explorer = self
            .query(py, |index| index.explore(&pos, &options))
            .map_err(index_error)?;
        index_tables::explorer_table(py, &explorer)
    }

    /// The position's move table as the lichess opening explorer's API returns it (and
    /// `chessbits explore --json` prints it): a dict with opening ({eco, name} or None), white,
    /// draws, black, moves (a list of {uci, san, averageRating, white, draws, black, game,
    /// lastDate}; game is the game when the move was played in only one), topGames and
    /// recentGames (lists of {uci, id, winner, speed, white: {name, rating}, black, year, month,
    /// date, result, event, site}), fen and key. Arguments as for explore; `top_games` and
    /// `recent_games` are how many games to list.
    ///
    /// >>> import chessbits, os, tempfile
    /// >>> d = tempfile.mkdtemp()
    /// >>> with open(os.path.join(d, "g.pgn"), "w") as f:
    /// ...     _ = f.write('[White "Ann"]\n[WhiteElo "2100"]\n[BlackElo "1900"]\n[Result "1-0"]\n\n1. e4 c5 1-0\n')
    /// >>> _ = chessbits.build_index(d, os.path.join(d, "i"))
    /// >>> tree = chessbits.Index(os.path.join(d, "i")).explore_json(moves="e4")
    /// >>> tree["white"], tree["moves"][0]["san"], tree["moves"][0]["averageRating"], tree["opening"]["eco"]
    /// (1, 'c5', 2000, 'B00')
    /// >>> tree["topGames"][0]["white"], tree["topGames"][0]["winner"]
    /// ({'name': 'Ann', 'rating': 2100}, 'white')
    #[pyo3(signature = (fen = None, moves = "", *, speeds = None, ratings = None, since = None, until = None, player = None, max_moves = None, top_games = 4, recent_games = 4))]
    #[allow(clippy::too_many_arguments)]
    fn explore_json<'py>(
        &self,
        py: Python<'py>,
        fen: Option<&str>,
        moves: &str,
        speeds: Option<&Bound<'py, PyAny>>,
        ratings: Option<&Bound<'py, PyAny>>,
        since: Option<&str>,
        until: Option<&str>,
        player: Option<String>,
        max_moves: Option<usize>,
        top_games: usize,
        recent_games: usize,
    ) -> PyResult<Bound<'py, PyDict>> {
        let pos = resolve(fen, moves)?;
        let options = ExploreOptions {
            filters: filters(speeds, ratings, since, until, player)?,
            moves: max_moves.unwrap_or(usize::MAX),
            top_games,
            recent_games,
        };
        let explorer = self
            .query(py, |index| index.explore(&pos, &options))
            .map_err(index_error)?;
        index_tables::explorer_json(py, &explorer)
    }

    /// The games that stand in the position at any ply (transpositions included), one row per
    /// game: game (its number), white, black, white_elo, black_elo, result, date ("YYYY.MM.DD",
    /// "??" for unknown parts), speed, time_control, event, site, fen (the game's start FEN, null
    /// for the standard start), plies (list<int32>: the plies at which it stands in the
    /// position), uci (the move it played at the first of them; null when it ended there),
    /// game_plies (its length), and where it stands in its source: source_path, offset, length
    /// (bytes), line.
    ///
    /// One page: `limit` games after skipping `offset`, in the order `sort` names: "index" (as
    /// added), "date" (newest first) or "rating" (highest average rating first). The number of
    /// games of all pages is the schema metadata's b"total" (with b"offset", b"fen", b"key").
    ///
    /// Raises:
    ///     InvalidFenError, IllegalMoveError: the position cannot be set up.
    ///     ValueError: a filter or `sort` is malformed.
    ///     ChessbitsError: the index is damaged.
    #[pyo3(signature = (fen = None, moves = "", *, speeds = None, ratings = None, since = None, until = None, player = None, sort = "index", offset = 0, limit = 20))]
    #[allow(clippy::too_many_arguments)]
    fn search<'py>(
        &self,
        py: Python<'py>,
        fen: Option<&str>,
        moves: &str,
        speeds: Option<&Bound<'py, PyAny>>,
        ratings: Option<&Bound<'py, PyAny>>,
        since: Option<&str>,
        until: Option<&str>,
        player: Option<String>,
        sort: &str,
        offset: usize,
        limit: usize,
    ) -> PyResult<Bound<'py, PyAny>> {
        let pos = resolve(fen, moves)?;
        let sort = match sort {
            "index" => SortOrder::Index,
            "date" => SortOrder::Date,
            "rating" => SortOrder::Rating,
            other => {
                return Err(PyValueError::new_err(format!(
                    "sort: '{other}' is not one of 'index', 'date', 'rating'"
                )))
            }
        };
        let options = SearchOptions {
            filters: filters(speeds, ratings, since, until, player)?,
            sort,
            offset,
            limit,
        };
        let found = self
            .query(py, |index| index.search(&pos, &options))
            .map_err(index_error)?;
        index_tables::search_table(py, &self.inner, &pos, &found, offset)
    }

    /// The PGN text of game `game` (its number, as search's `game` column gives it), byte for
    /// byte as it stands in its source file.
    ///
    /// Raises:
    ///     IndexError: no such game.
    ///     OSError: the source file cannot be read.
    ///     ChessbitsError: the source file changed since it was indexed.
    fn game_text<'py>(&self, py: Python<'py>, game: u64) -> PyResult<Bound<'py, pyo3::types::PyBytes>> {
        if game >= self.inner.games() {
            return Err(PyIndexError::new_err(format!(
                "game {game}: the index has {} games",
                self.inner.games()
            )));
        }
        let text = self
            .query(py, |index| -> Result<Vec<u8>, IndexError> {
                let rows = index.game_rows(&[game])?;
                index.game_text(&rows[0])
            })
            .map_err(index_error)?;
        Ok(pyo3::types::PyBytes::new(py, &text))
    }

    fn __repr__(&self) -> String {
        format!(
            "chessbits.Index({:?}, games={})",
            path_text(self.inner.dir()),
            self.inner.games()
        )
    }
}

fn path_text(path: &Path) -> String {
    path.display().to_string()
}
