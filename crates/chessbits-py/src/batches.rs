//! The batch functions: `decode_moves`, `encode_moves`, `positions`, `validate`. Each takes
//! arrays (or Python sequences), releases the GIL and spreads the rows over rayon's threads;
//! a row's error names the row, and for moves the ply.

use std::sync::Arc;

use arrow_array::builder::{BinaryBuilder, ListBuilder, StringBuilder};
use arrow_array::{Array, ArrayRef, BinaryArray, BooleanArray, Int32Array, Int64Array, StructArray};
use arrow_buffer::NullBuffer;
use arrow_schema::{DataType, Field, Fields};
use chessbits::codec::moves::entropy::{GameDecoder, GameEncoder};
use chessbits::moves::Move;
use chessbits::notation::san::san_of;
use chessbits::position::Position;
use chessbits_parquet::MovesCode;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use rayon::prelude::*;

use crate::arrow_io::{self, check_len, list_items, Starts};
use crate::position::fen_text;
use crate::{DecodeError, IllegalMoveError};

/// How moves are written.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Notation {
    Uci,
    San,
}

fn notation(name: &str) -> PyResult<Notation> {
    match name {
        "uci" => Ok(Notation::Uci),
        "san" => Ok(Notation::San),
        _ => Err(PyValueError::new_err(format!(
            "notation: expected 'uci' or 'san', got {name:?}"
        ))),
    }
}

/// What a row's error does: raise (the default), or make the row null.
fn raise_errors(on_error: &str) -> PyResult<bool> {
    match on_error {
        "raise" => Ok(true),
        "null" => Ok(false),
        _ => Err(PyValueError::new_err(format!(
            "on_error: expected 'raise' or 'null', got {on_error:?}"
        ))),
    }
}

/// A row's result: `Ok(None)` for a null row, `Err` with the message.
type Row<T> = Result<Option<T>, String>;

/// The first error of `rows` as the exception `error` makes of "row i: ...", if `raise`; else
/// the rows, those with errors null.
fn settle<T>(rows: Vec<Row<T>>, raise: bool, error: fn(String) -> PyErr) -> PyResult<Vec<Option<T>>> {
    rows.into_iter()
        .enumerate()
        .map(|(i, row)| match row {
            Ok(value) => Ok(value),
            Err(message) if raise => Err(error(format!("row {i}: {message}"))),
            Err(_) => Ok(None),
        })
        .collect()
}

/// Decodes row `row` of a `moves`/`plies` pair into `out`, from its start position (returned);
/// `None` for a null `moves`.
fn decode_row(
    decoder: &mut GameDecoder,
    (moves, plies, starts, code): (&BinaryArray, &Int64Array, &Starts, MovesCode),
    row: usize,
    out: &mut Vec<Move>,
) -> Result<Option<Position>, String> {
    out.clear();
    if moves.is_null(row) {
        return Ok(None);
    }
    if plies.is_null(row) {
        return Err("plies is null where moves is not".to_string());
    }
    let count = usize::try_from(plies.value(row)).map_err(|_| format!("negative plies {}", plies.value(row)))?;
    let start = starts.get(row)?;
    // The entropy code reuses the thread's decoder (its model's buffers); other codes decode
    // through `MovesCode`, which checks the ply count.
    match code {
        MovesCode::Entropy => decoder
            .decode_into(&start, moves.value(row), count, out)
            .map_err(|e| e.to_string())?,
        _ => *out = code.decode(&start, moves.value(row), count)?,
    }
    Ok(Some(start))
}

/// Runs `f` on every row on rayon's threads, with one decoder and move buffer per thread.
fn decode_rows<T: Send>(
    rows: usize,
    f: impl Fn(&mut GameDecoder, &mut Vec<Move>, usize) -> Row<T> + Sync + Send,
) -> Vec<Row<T>> {
    (0..rows)
        .into_par_iter()
        .map_init(
            || (GameDecoder::new(), Vec::new()),
            |(decoder, moves), row| f(decoder, moves, row),
        )
        .collect()
}

/// The moves as text, replayed from `start`.
fn write_moves(start: &Position, moves: &[Move], notation: Notation) -> Vec<String> {
    let chess960 = start.is_chess960();
    let mut pos = start.clone();
    moves
        .iter()
        .map(|&m| {
            let text = match notation {
                Notation::Uci => m.uci(chess960).to_string(),
                Notation::San => san_of(&pos, m).to_string(),
            };
            pos.play_unchecked(m);
            text
        })
        .collect()
}

/// A list<string> array of the rows.
fn string_lists(rows: Vec<Option<Vec<String>>>) -> ArrayRef {
    let mut builder = ListBuilder::new(StringBuilder::new());
    for row in rows {
        match row {
            Some(items) => {
                for item in items {
                    builder.values().append_value(item);
                }
                builder.append(true);
            }
            None => builder.append(false),
        }
    }
    Arc::new(builder.finish())
}

/// Decodes a `moves` column (the entropy move code of `read_pgn` and the Parquet export) into
/// lists of moves.
///
/// The entropy code stores no length: `plies` is trusted. Bytes that are not the code of a
/// game of that many plies are a DecodeError (a decode that needs bytes past the end of the
/// code, bytes left over, a move past the end of the game). Bytes that are the code of another
/// game of that length decode to that game: no decoder can tell them apart, and a code cut by
/// one byte, or plies one or two too high, most often is such bytes. So plies must be the
/// column the code came with.
///
/// Args:
///     moves: binary array (or ChunkedArray, or sequence of bytes); a null row gives a null list.
///     plies: the number of moves of each row (the `plies` column; the code does not store it).
///     notation: "uci" (castling e1g1, or king takes rook in Chess960) or "san" (with + and #).
///     start_fens: None (standard start), one FEN for all rows, or one per row (the
///         `start_fen` column; null is the standard start). Like read_pgn's [FEN] tags, a
///         composed position (one no game reaches: see Position's allow_impossible) is accepted.
///     chess960: None/False, True, or one bool per row (Chess960 games, whose castling moves
///         the code holds as king takes rook).
///     on_error: "raise" (a DecodeError naming the row and ply) or "null" (the row is null).
///     codec: the code of `moves`: "entropy" (the default, and `read_pgn`'s) or "index-byte"
///         (an export made with `chessbits export --moves-codec index`; the `moves` field's
///         metadata `chessbits.moves_code` says which).
///
/// Returns:
///     pyarrow list<string> array, one list per row.
///
/// >>> import chessbits
/// >>> chessbits.decode_moves([bytes([12, 0])], [2], codec="index-byte").to_pylist()
/// [['a2a4', 'b8a6']]
/// >>> codes = chessbits.encode_moves([["e2e4", "e7e5", "g1f3"]])
/// >>> chessbits.decode_moves(codes, [3], notation="san").to_pylist()
/// [['e4', 'e5', 'Nf3']]
#[pyfunction]
#[pyo3(signature = (moves, plies, *, notation = "uci", start_fens = None, chess960 = None, on_error = "raise", codec = "entropy"))]
#[allow(clippy::too_many_arguments)]
pub fn decode_moves(
    py: Python<'_>,
    moves: &Bound<'_, PyAny>,
    plies: &Bound<'_, PyAny>,
    notation: &str,
    start_fens: Option<&Bound<'_, PyAny>>,
    chess960: Option<&Bound<'_, PyAny>>,
    on_error: &str,
    codec: &str,
) -> PyResult<Py<PyAny>> {
    let code = moves_code(codec)?;
    let notation = self::notation(notation)?;
    let raise = raise_errors(on_error)?;
    let moves = arrow_io::binary(moves, "moves")?;
    let plies = arrow_io::int64s(plies, "plies")?;
    check_len(plies.len(), moves.len(), "plies")?;
    let starts = Starts::new(start_fens, chess960, moves.len())?;
    let rows = py.detach(|| {
        decode_rows(moves.len(), |decoder, out, row| {
            let start = decode_row(decoder, (&moves, &plies, &starts, code), row, out)?;
            Ok(start.map(|start| write_moves(&start, out, notation)))
        })
    });
    let rows = settle(rows, raise, DecodeError::new_err)?;
    arrow_io::export(py, string_lists(rows))
}

/// The FEN (or EPD) of each game's positions, from a `moves` column.
///
/// Row i's list holds the position before the first move and after every `every`-th ply: the
/// positions after plies 0, every, 2·every, ... up to the row's `plies`. FENs are written as
/// python-chess's `board.fen()` writes them (en passant square only if the capture is legal).
///
/// Args:
///     moves, plies, start_fens, chess960, on_error, codec: as for decode_moves.
///     every: the step in plies (1: every position).
///     format: "fen" (six fields) or "epd" (the first four).
///
/// Returns:
///     pyarrow list<string> array, one list per row.
///
/// >>> import chessbits
/// >>> codes = chessbits.encode_moves([["e2e4"]])
/// >>> chessbits.positions(codes, [1]).to_pylist()[0][1]
/// 'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1'
#[pyfunction]
#[pyo3(signature = (moves, plies, *, every = 1, format = "fen", start_fens = None, chess960 = None, on_error = "raise", codec = "entropy"))]
#[allow(clippy::too_many_arguments)]
pub fn positions(
    py: Python<'_>,
    moves: &Bound<'_, PyAny>,
    plies: &Bound<'_, PyAny>,
    every: usize,
    format: &str,
    start_fens: Option<&Bound<'_, PyAny>>,
    chess960: Option<&Bound<'_, PyAny>>,
    on_error: &str,
    codec: &str,
) -> PyResult<Py<PyAny>> {
    let code = moves_code(codec)?;
    if every == 0 {
        return Err(PyValueError::new_err("every: must be at least 1"));
    }
    let epd = match format {
        "fen" => false,
        "epd" => true,
        _ => {
            return Err(PyValueError::new_err(format!(
                "format: expected 'fen' or 'epd', got {format:?}"
            )))
        }
    };
    let raise = raise_errors(on_error)?;
    let moves = arrow_io::binary(moves, "moves")?;
    let plies = arrow_io::int64s(plies, "plies")?;
    check_len(plies.len(), moves.len(), "plies")?;
    let starts = Starts::new(start_fens, chess960, moves.len())?;
    let rows = py.detach(|| {
        decode_rows(moves.len(), |decoder, out, row| {
            let Some(mut pos) = decode_row(decoder, (&moves, &plies, &starts, code), row, out)? else {
                return Ok(None);
            };
            let text = |pos: &Position| fen_text(pos, epd);
            let mut fens = vec![text(&pos)];
            for (ply, &m) in out.iter().enumerate() {
                pos.play_unchecked(m);
                if (ply + 1) % every == 0 {
                    fens.push(text(&pos));
                }
            }
            Ok(Some(fens))
        })
    });
    let rows = settle(rows, raise, DecodeError::new_err)?;
    arrow_io::export(py, string_lists(rows))
}

/// The moves code named by the `codec` argument.
fn moves_code(codec: &str) -> PyResult<MovesCode> {
    codec
        .parse()
        .map_err(|e: String| PyValueError::new_err(format!("codec: {e}")))
}

/// Plays one move given as text; the error quotes it.
fn play(pos: &mut Position, text: Option<&str>, notation: Notation) -> Result<Move, String> {
    let text = text.ok_or_else(|| "null move text".to_string())?;
    match notation {
        Notation::Uci => pos.play_uci(text).map_err(|e| e.to_string()),
        Notation::San => pos.play_san(text).map_err(|e| e.to_string()),
    }
}

/// Encodes lists of moves into the entropy move code of the `moves` column (the inverse of
/// decode_moves: decoding with the list lengths as plies gives the moves back).
///
/// Args:
///     games: list<string> array, or a sequence of sequences of str; a null row gives null.
///     notation: "uci" or "san" (SAN is read leniently: +, #, !? and 0-0 are accepted).
///     start_fens, chess960: as for decode_moves.
///
/// Returns:
///     pyarrow binary array.
///
/// Raises:
///     IllegalMoveError: a move is malformed or illegal (the message names row and ply).
///
/// >>> import chessbits
/// >>> codes = chessbits.encode_moves([["e4", "e5"], []], notation="san")
/// >>> [len(code) for code in codes.to_pylist()]
/// [1, 0]
#[pyfunction]
#[pyo3(signature = (games, *, notation = "uci", start_fens = None, chess960 = None))]
pub fn encode_moves(
    py: Python<'_>,
    games: &Bound<'_, PyAny>,
    notation: &str,
    start_fens: Option<&Bound<'_, PyAny>>,
    chess960: Option<&Bound<'_, PyAny>>,
) -> PyResult<Py<PyAny>> {
    let notation = self::notation(notation)?;
    let games = arrow_io::string_lists(games, "games")?;
    let starts = Starts::new(start_fens, chess960, games.len())?;
    let rows: Vec<Row<Vec<u8>>> = py.detach(|| {
        (0..games.len())
            .into_par_iter()
            .map_init(
                || (GameEncoder::new(), Vec::new()),
                |(encoder, moves), row| {
                    if games.is_null(row) {
                        return Ok(None);
                    }
                    let start = starts.get(row)?;
                    let mut pos = start.clone();
                    moves.clear();
                    for (ply, text) in list_items(&games, row).enumerate() {
                        moves.push(play(&mut pos, text, notation).map_err(|e| format!("ply {ply}: {e}"))?);
                    }
                    let mut bytes = Vec::new();
                    encoder
                        .encode_into(&start, moves, &mut bytes)
                        .map_err(|e| e.to_string())?;
                    Ok(Some(bytes))
                },
            )
            .collect()
    });
    let rows = settle(rows, true, IllegalMoveError::new_err)?;
    let mut builder = BinaryBuilder::with_capacity(rows.len(), rows.iter().flatten().map(Vec::len).sum());
    for row in rows {
        builder.append_option(row);
    }
    arrow_io::export(py, Arc::new(builder.finish()))
}

/// Checks games of SAN or UCI moves: per game, whether every move is legal, else the index of
/// the first bad move and why.
///
/// Args:
///     games: list<string> array, or a sequence of sequences of str.
///     notation: "san" or "uci".
///     start_fens, chess960: as for decode_moves (a bad FEN is that row's error, at ply null).
///
/// Returns:
///     pyarrow struct array {ok: bool, ply: int32, error: string}: ply and error are null when
///     ok; a null row gives a null struct.
///
/// >>> import chessbits
/// >>> chessbits.validate([["e4", "e5"], ["e4", "Ke7"]]).to_pylist()[1]
/// {'ok': False, 'ply': 1, 'error': "illegal move 'Ke7'"}
#[pyfunction]
#[pyo3(signature = (games, *, notation = "san", start_fens = None, chess960 = None))]
pub fn validate(
    py: Python<'_>,
    games: &Bound<'_, PyAny>,
    notation: &str,
    start_fens: Option<&Bound<'_, PyAny>>,
    chess960: Option<&Bound<'_, PyAny>>,
) -> PyResult<Py<PyAny>> {
    let notation = self::notation(notation)?;
    let games = arrow_io::string_lists(games, "games")?;
    let starts = Starts::new(start_fens, chess960, games.len())?;
    // Per row: None for a null row, else (first bad ply, reason) or no error.
    type Verdict = Option<Option<(Option<i32>, String)>>;
    let verdicts: Vec<Verdict> = py.detach(|| {
        (0..games.len())
            .into_par_iter()
            .map(|row| {
                if games.is_null(row) {
                    return None;
                }
                let mut pos = match starts.get(row) {
                    Ok(pos) => pos,
                    Err(e) => return Some(Some((None, e))),
                };
                for (ply, text) in list_items(&games, row).enumerate() {
                    if let Err(e) = play(&mut pos, text, notation) {
                        return Some(Some((Some(ply as i32), e)));
                    }
                }
                Some(None)
            })
            .collect()
    });
    let nulls = NullBuffer::from(verdicts.iter().map(Option::is_some).collect::<Vec<_>>());
    let ok: BooleanArray = verdicts.iter().map(|v| v.as_ref().map(Option::is_none)).collect();
    let ply: Int32Array = verdicts.iter().map(|v| v.as_ref()?.as_ref()?.0).collect();
    let error: arrow_array::StringArray = verdicts
        .iter()
        .map(|v| v.as_ref()?.as_ref().map(|(_, e)| e.as_str()))
        .collect();
    let fields = Fields::from(vec![
        Field::new("ok", DataType::Boolean, true),
        Field::new("ply", DataType::Int32, true),
        Field::new("error", DataType::Utf8, true),
    ]);
    let columns: Vec<ArrayRef> = vec![Arc::new(ok), Arc::new(ply), Arc::new(error)];
    let array = StructArray::try_new(fields, columns, Some(nulls))
        .map_err(|e| PyValueError::new_err(format!("building the result: {e}")))?;
    arrow_io::export(py, Arc::new(array))
}
