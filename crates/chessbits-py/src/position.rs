//! The `Position` class: a position with the moves that led to it (the library's
//! [`Game`], so repetitions count for `outcome`), and `Outcome`.

use chessbits::diagram::{parse_shapes, Diagram};
use chessbits::game::{Game, Termination};
use chessbits::moves::Move;
use chessbits::notation::san::san_of;
use chessbits::notation::uci::parse_uci;
use chessbits::position::Validation;
use chessbits::types::{Color, File, Rank, Square};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyString};

use crate::arrow_io::parse_fen_with;
use crate::{IllegalMoveError, InvalidFenError};

/// The FEN (or with `epd`, its first four fields) as python-chess's `board.fen()` writes it:
/// the en passant square only when an en passant capture is legal. The library keeps the square
/// when a pawn could capture there, pinned or not; the difference is rare (a pinned capturer),
/// so the move list is generated only when there is a square at all.
pub fn fen_text(pos: &chessbits::position::Position, epd: bool) -> String {
    let text = if epd { pos.epd() } else { pos.fen() };
    if pos.ep_square().is_none() || pos.legal_moves().iter().any(|m| m.is_en_passant()) {
        return text;
    }
    let mut fields: Vec<&str> = text.split(' ').collect();
    fields[3] = "-";
    fields.join(" ")
}

/// The name of a color, as `turn` and `Outcome.winner` give it.
fn color_name(color: Color) -> &'static str {
    match color {
        Color::White => "white",
        Color::Black => "black",
    }
}

/// A color given as python-chess gives it (`chess.WHITE` is True, `chess.BLACK` False) or by
/// the name `turn` gives ("white", "black").
fn color_arg(arg: &Bound<'_, PyAny>) -> PyResult<Color> {
    if let Ok(white) = arg.cast::<PyBool>() {
        return Ok(if white.is_true() { Color::White } else { Color::Black });
    }
    if let Ok(name) = arg.cast::<PyString>() {
        return match &*name.to_cow()? {
            "white" => Ok(Color::White),
            "black" => Ok(Color::Black),
            other => Err(PyValueError::new_err(format!(
                "color: expected 'white' or 'black', got {other:?}"
            ))),
        };
    }
    Err(PyTypeError::new_err(format!(
        "color: expected a bool (True: white, as chess.WHITE) or 'white'/'black', got {}",
        type_name(arg)
    )))
}

/// A square given as python-chess gives it (an int, 0 = a1, 1 = b1, ..., 63 = h8, as
/// `chess.E4`) or by its name ("e4").
fn square_arg(arg: &Bound<'_, PyAny>) -> PyResult<Square> {
    if let Ok(name) = arg.cast::<PyString>() {
        let name = name.to_cow()?;
        return name
            .parse()
            .map_err(|e| PyValueError::new_err(format!("square {name:?}: {e}")));
    }
    match arg.extract::<i64>() {
        Ok(index) => u8::try_from(index)
            .ok()
            .and_then(Square::new)
            .ok_or_else(|| PyValueError::new_err(format!("square: expected 0 (a1) to 63 (h8), got {index}"))),
        Err(_) => Err(PyTypeError::new_err(format!(
            "square: expected an int (0 = a1 to 63 = h8, as chess.E4) or a name like 'e4', got {}",
            type_name(arg)
        ))),
    }
}

fn type_name(arg: &Bound<'_, PyAny>) -> String {
    arg.get_type()
        .name()
        .map_or_else(|_| "?".to_string(), |n| n.to_string())
}

/// How a game ended: the winner and the reason.
///
/// >>> import chessbits
/// >>> pos = chessbits.Position()
/// >>> for san in ["f3", "e5", "g4", "Qh4#"]:
/// ...     _ = pos.push_san(san)
/// >>> pos.outcome()
/// Outcome(winner='black', termination='checkmate', result='0-1')
#[pyclass(module = "chessbits", frozen, get_all, eq)]
#[derive(PartialEq)]
pub struct Outcome {
    /// "white", "black", or None for a draw.
    pub winner: Option<&'static str>,
    /// "checkmate", "stalemate", "insufficient_material", "seventyfive_moves",
    /// "fivefold_repetition", "fifty_moves" or "threefold_repetition" (python-chess's names).
    pub termination: &'static str,
    /// The PGN result: "1-0", "0-1" or "1/2-1/2".
    pub result: &'static str,
}

#[pymethods]
impl Outcome {
    fn __repr__(&self) -> String {
        let winner = self.winner.map_or("None".to_string(), |w| format!("'{w}'"));
        format!(
            "Outcome(winner={winner}, termination='{}', result='{}')",
            self.termination, self.result
        )
    }
}

fn termination_name(reason: Termination) -> &'static str {
    match reason {
        Termination::Checkmate => "checkmate",
        Termination::Stalemate => "stalemate",
        Termination::InsufficientMaterial => "insufficient_material",
        Termination::SeventyFiveMoves => "seventyfive_moves",
        Termination::FivefoldRepetition => "fivefold_repetition",
        Termination::FiftyMoves => "fifty_moves",
        Termination::ThreefoldRepetition => "threefold_repetition",
    }
}

/// A chess position and the moves played to reach it from its start.
///
/// Args:
///     fen: the start position (None: the standard one).
///     chess960: castling in Chess960 style (UCI castling written king takes rook).
///     allow_impossible: accept a position no game can reach (a composed problem): more
///         material than promotions give (nine pawns, a third bishop, ...) or a check no move
///         could have given (a triple check, an en passant square the check contradicts).
///
/// Raises:
///     InvalidFenError: the FEN is malformed or not a legal position (or, without
///         allow_impossible, one no game can reach).
///
/// >>> import chessbits
/// >>> pos = chessbits.Position()
/// >>> pos.push_san("e4")
/// 'e2e4'
/// >>> pos.push_uci("c7c5")
/// 'c5'
/// >>> pos
/// Position('rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2')
/// >>> len(pos.legal_moves()), pos.is_check(), pos.turn
/// (30, False, 'white')
/// >>> len(chessbits.Position("4k3/8/8/8/8/P7/PPPPPPPP/4K3 w - - 0 1", allow_impossible=True).legal_moves())
/// 17
#[pyclass(module = "chessbits")]
#[derive(Clone)]
pub struct Position {
    game: Game,
}

impl Position {
    fn uci(&self, m: Move) -> String {
        m.uci(self.game.position().is_chess960()).to_string()
    }

    fn play(&mut self, m: Move) -> PyResult<()> {
        self.game.push(m).map_err(|e| IllegalMoveError::new_err(e.to_string()))
    }
}

#[pymethods]
impl Position {
    #[new]
    #[pyo3(signature = (fen = None, chess960 = false, *, allow_impossible = false))]
    fn new(fen: Option<&str>, chess960: bool, allow_impossible: bool) -> PyResult<Position> {
        let validation = if allow_impossible {
            Validation::Composed
        } else {
            Validation::Game
        };
        let mut start = match fen {
            Some(fen) => parse_fen_with(fen, validation).map_err(InvalidFenError::new_err)?,
            None => chessbits::position::Position::startpos(),
        };
        if chess960 {
            start.set_chess960(true);
        }
        Ok(Position {
            game: Game::from_position(start),
        })
    }

    /// Plays a move given in SAN (read leniently: "Nf3+", "0-0", "e8Q" are accepted) and
    /// returns it in UCI.
    ///
    /// Raises:
    ///     IllegalMoveError: the move is malformed, ambiguous or illegal here.
    fn push_san(&mut self, san: &str) -> PyResult<String> {
        let m = self
            .game
            .position()
            .parse_san(san)
            .map_err(|e| IllegalMoveError::new_err(e.to_string()))?;
        self.play(m)?;
        Ok(self.uci(m))
    }

    /// Plays a move given in UCI ("e2e4", "e7e8q"; castling "e1g1" or king takes rook "e1h1")
    /// and returns it in SAN.
    ///
    /// Raises:
    ///     IllegalMoveError: the move is malformed or illegal here.
    fn push_uci(&mut self, uci: &str) -> PyResult<String> {
        let pos = self.game.position();
        let m = parse_uci(pos, uci).map_err(|e| IllegalMoveError::new_err(e.to_string()))?;
        if m.is_null() {
            return Err(IllegalMoveError::new_err(format!("illegal UCI move {uci:?}")));
        }
        let san = san_of(pos, m).to_string();
        self.play(m)?;
        Ok(san)
    }

    /// Takes back the last move and returns it in UCI (None if no move was played).
    ///
    /// >>> import chessbits
    /// >>> pos = chessbits.Position()
    /// >>> pos.push_san("d4")
    /// 'd2d4'
    /// >>> pos.pop(), pos.pop()
    /// ('d2d4', None)
    fn pop(&mut self) -> Option<String> {
        let m = self.game.pop()?;
        Some(self.uci(m))
    }

    /// The legal moves, in UCI ("uci") or SAN ("san"), in the library's generation order.
    ///
    /// >>> import chessbits
    /// >>> sorted(chessbits.Position("4k3/8/8/8/8/8/8/4K2R w K - 0 1").legal_moves("san"))[:3]
    /// ['Kd1', 'Kd2', 'Ke2']
    #[pyo3(signature = (notation = "uci"))]
    fn legal_moves(&self, notation: &str) -> PyResult<Vec<String>> {
        let pos = self.game.position();
        let moves = pos.legal_moves();
        match notation {
            "uci" => Ok(moves.iter().map(|&m| self.uci(m)).collect()),
            "san" => Ok(moves.iter().map(|&m| san_of(pos, m).to_string()).collect()),
            _ => Err(PyValueError::new_err(format!(
                "notation: expected 'uci' or 'san', got {notation:?}"
            ))),
        }
    }

    /// The SAN of a move given in UCI, without playing it.
    ///
    /// >>> import chessbits
    /// >>> chessbits.Position("4k3/8/8/8/8/8/8/4K2R w K - 0 1").san("e1g1")
    /// 'O-O'
    ///
    /// Raises:
    ///     IllegalMoveError: the move is malformed or illegal here.
    fn san(&self, uci: &str) -> PyResult<String> {
        let pos = self.game.position();
        match parse_uci(pos, uci) {
            Ok(m) if !m.is_null() => Ok(san_of(pos, m).to_string()),
            Ok(_) => Err(IllegalMoveError::new_err(format!("illegal UCI move {uci:?}"))),
            Err(e) => Err(IllegalMoveError::new_err(e.to_string())),
        }
    }

    /// The moves played since the start, in UCI.
    #[getter]
    fn moves(&self) -> Vec<String> {
        self.game.moves().iter().map(|&m| self.uci(m)).collect()
    }

    /// The side to move: "white" or "black".
    #[getter]
    fn turn(&self) -> &'static str {
        color_name(self.game.position().turn())
    }

    /// The FEN (X-FEN castling letters; the en passant square only when a capture is legal,
    /// as python-chess's `board.fen()` writes it).
    fn fen(&self) -> String {
        fen_text(self.game.position(), false)
    }

    /// The EPD: the first four fields of the FEN (as `fen`).
    ///
    /// >>> import chessbits
    /// >>> chessbits.Position().epd()
    /// 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -'
    fn epd(&self) -> String {
        fen_text(self.game.position(), true)
    }

    /// Whether the side to move is in check.
    fn is_check(&self) -> bool {
        self.game.position().is_check()
    }

    /// Whether the side to move is checkmated.
    fn is_checkmate(&self) -> bool {
        self.game.position().is_checkmate()
    }

    /// Whether the side to move has no legal move and is not in check.
    fn is_stalemate(&self) -> bool {
        self.game.position().is_stalemate()
    }

    /// Whether neither side can ever checkmate.
    fn is_insufficient_material(&self) -> bool {
        self.game.is_insufficient_material()
    }

    /// How the game has ended, or None: checkmate, stalemate, insufficient material, the
    /// seventy-five-move rule, fivefold repetition; with `claim_draw=True` also the draws a
    /// player may claim in this position: threefold repetition, else the fifty-move rule.
    /// (python-chess's `outcome(claim_draw=True)` also counts a claim announced with the move
    /// that makes the repetition or the fiftieth move: push that move and ask here.)
    #[pyo3(signature = (claim_draw = false))]
    fn outcome(&self, claim_draw: bool) -> Option<Outcome> {
        let outcome = if claim_draw {
            self.game.outcome_with_claims()
        } else {
            self.game.outcome()
        }?;
        Some(Outcome {
            winner: outcome.winner.map(color_name),
            termination: termination_name(outcome.reason),
            result: outcome.result().as_str(),
        })
    }

    /// A copy (moves and all).
    fn copy(&self) -> Position {
        self.clone()
    }

    fn __copy__(&self) -> Position {
        self.clone()
    }

    fn __eq__(&self, other: &Position) -> bool {
        self.game.position() == other.game.position()
    }

    fn __repr__(&self) -> String {
        format!("Position('{}')", self.fen())
    }

    /// The piece on a square, as its FEN letter (white upper case: "P", "N", ..., black lower
    /// case: "p", "n", ...), or None for an empty square. The square is an int as python-chess
    /// numbers squares (0 = a1, 1 = b1, ..., 63 = h8: `chess.E4` is 28) or a name ("e4").
    ///
    /// Raises:
    ///     TypeError: the square is neither an int nor a str.
    ///     ValueError: an int outside 0..63 or a str that is not a square's name.
    ///
    /// >>> import chessbits
    /// >>> pos = chessbits.Position()
    /// >>> pos.piece_at("e1"), pos.piece_at(60), pos.piece_at("e4")
    /// ('K', 'k', None)
    fn piece_at(&self, square: &Bound<'_, PyAny>) -> PyResult<Option<String>> {
        let square = square_arg(square)?;
        Ok(self
            .game
            .position()
            .piece_at(square)
            .map(|piece| piece.char().to_string()))
    }

    /// The squares of the pieces of `color` that attack `square`, as python-chess's
    /// `attackers` gives them: ints (0 = a1 ... 63 = h8), ascending (`list(board.attackers(...))`).
    /// A pinned piece attacks too; en passant is not an attack. `color` is a bool as in
    /// python-chess (True: white, `chess.WHITE`) or "white"/"black"; `square` as for piece_at.
    ///
    /// Raises:
    ///     TypeError, ValueError: a color or square that is not one (see piece_at).
    ///
    /// >>> import chessbits
    /// >>> pos = chessbits.Position()
    /// >>> pos.attackers(True, "f3"), pos.attackers("white", 21)
    /// ([6, 12, 14], [6, 12, 14])
    /// >>> pos.attackers(False, "f3")
    /// []
    fn attackers(&self, color: &Bound<'_, PyAny>, square: &Bound<'_, PyAny>) -> PyResult<Vec<usize>> {
        let (color, square) = (color_arg(color)?, square_arg(square)?);
        let pos = self.game.position();
        // A bitboard iterates from its lowest square: ascending. (Not u8: a Vec<u8> would be bytes.)
        let attackers = pos.attackers_to(square, color, pos.board().occupied());
        Ok(attackers.into_iter().map(|sq| sq.index()).collect())
    }

    /// Whether a piece of `color` attacks `square` (arguments as for attackers).
    ///
    /// >>> import chessbits
    /// >>> pos = chessbits.Position()
    /// >>> pos.is_attacked_by(True, "f3"), pos.is_attacked_by("black", "f3")
    /// (True, False)
    fn is_attacked_by(&self, color: &Bound<'_, PyAny>, square: &Bound<'_, PyAny>) -> PyResult<bool> {
        let (color, square) = (color_arg(color)?, square_arg(square)?);
        let pos = self.game.position();
        Ok(pos.is_attacked(square, color, pos.board().occupied()))
    }

    /// The board as python-chess's `str(board)` writes it: eight lines, the eighth rank first,
    /// of FEN piece letters and "." for empty squares, separated by spaces. (`str(position)`
    /// adds the coordinates.)
    ///
    /// >>> import chessbits
    /// >>> pos = chessbits.Position()
    /// >>> _ = pos.push_san("e4")
    /// >>> print(pos.board())
    /// r n b q k b n r
    /// p p p p p p p p
    /// . . . . . . . .
    /// . . . . . . . .
    /// . . . . P . . .
    /// . . . . . . . .
    /// P P P P . P P P
    /// R N B Q K B N R
    fn board(&self) -> String {
        let pos = self.game.position();
        let rank_text = |rank: Rank| {
            File::ALL
                .map(|file| {
                    pos.piece_at(Square::from_coords(file, rank))
                        .map_or('.', |piece| piece.char())
                })
                .map(String::from)
                .join(" ")
        };
        Rank::ALL
            .into_iter()
            .rev()
            .map(rank_text)
            .collect::<Vec<_>>()
            .join("\n")
    }

    /// The board as eight lines of text with coordinates, White at the bottom (`board()`
    /// without them, as python-chess writes it).
    fn __str__(&self) -> String {
        self.game.position().board().to_string()
    }

    /// The board as an SVG picture (a standalone document), with the last move played and the
    /// king in check highlighted, as python-chess's `chess.svg.board` draws it.
    ///
    /// `flipped` puts Black at the bottom; `size` is the width and height in pixels;
    /// `lastmove=False` leaves the last move unmarked; `shapes` adds arrows and circled squares
    /// written as `%cal` and `%csl` write them ("Ga1a8,Re2e4,Yd4": a colour letter G, R, Y or B
    /// and one square or two); `comment` adds those of the `[%cal ...]` and `[%csl ...]`
    /// commands of a PGN comment.
    ///
    /// Raises:
    ///     ValueError: an entry of `shapes` does not parse.
    ///
    /// >>> import chessbits
    /// >>> pos = chessbits.Position()
    /// >>> _ = pos.push_san("e4")
    /// >>> svg = pos.svg(flipped=True, size=300, shapes="Gg1f3,Rd5")
    /// >>> svg.startswith("<svg"), svg.count('class="piece '), svg.count('class="last-move ')
    /// (True, 32, 2)
    #[pyo3(signature = (*, flipped = false, size = 400, lastmove = true, coordinates = true, shapes = "", comment = ""))]
    fn svg(
        &self,
        flipped: bool,
        size: u32,
        lastmove: bool,
        coordinates: bool,
        shapes: &str,
        comment: &str,
    ) -> PyResult<String> {
        let shapes = parse_shapes(shapes).map_err(|e| PyValueError::new_err(e.to_string()))?;
        let mut diagram = Diagram::new()
            .orientation(if flipped { Color::Black } else { Color::White })
            .size(size)
            .coordinates(coordinates)
            .shapes(shapes)
            .comment(comment);
        if let (true, Some(&m)) = (lastmove, self.game.moves().last()) {
            diagram = diagram.last_move(m);
        }
        Ok(diagram.render(self.game.position()))
    }

    /// The board drawn for Jupyter and IPython (`svg()` at 390 pixels, as python-chess's).
    fn _repr_svg_(&self) -> PyResult<String> {
        self.svg(false, 390, true, true, "", "")
    }
}
