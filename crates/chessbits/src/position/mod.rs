//! Position: piece placement plus side to move, castling rights (Chess960 too), en passant
//! square, clocks and an incrementally updated Zobrist key.
//!
//! - [`Board`]: bitboards by role and color plus the square-to-piece lookup;
//! - [`Setup`]: a position as unvalidated plain data (what a FEN says);
//! - [`Position`]: a validated position that moves can be made and unmade on;
//! - [`zobrist`]: the Polyglot keys.

mod board;
mod error;
mod make;
mod polyglot_keys;
mod setup;
pub mod zobrist;

pub use board::Board;
pub use error::{PositionError, Validation};
pub use make::Undo;
pub use setup::Setup;

use crate::attacks;
use crate::types::{Bitboard, CastlingRights, Color, File, Piece, Rank, Role, Square};

/// A legal chess position: one king a side, the side not to move not in check.
///
/// ```
/// use chessbits::position::Position;
/// use chessbits::types::Color;
/// let pos = Position::startpos();
/// assert_eq!(pos.turn(), Color::White);
/// assert_eq!(pos.key(), 0x463b96181691fc9c); // the Polyglot key of the start position
/// assert!(!pos.is_check());
/// ```
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Position {
    board: Board,
    turn: Color,
    castling: CastlingRights,
    ep_square: Option<Square>,
    halfmove_clock: u32,
    fullmove_number: u32,
    key: u64,
    chess960: bool,
}

impl Position {
    /// The standard start position.
    pub fn startpos() -> Position {
        // Built and validated once (a reader asks for it per game), then copied.
        static START: std::sync::OnceLock<Position> = std::sync::OnceLock::new();
        START
            .get_or_init(|| match Position::from_setup(Setup::standard()) {
                Ok(pos) => pos,
                Err(_) => unreachable!("the start position is valid"),
            })
            .clone()
    }

    /// Validates `setup` and builds a position from it.
    ///
    /// An en passant square is kept only if a pawn of the side to move stands ready to capture
    /// on it (the Polyglot convention); otherwise it is dropped. The position counts as Chess960
    /// if any castling right is not the standard king-on-e, rook-in-the-corner one.
    ///
    /// ```
    /// use chessbits::position::{Position, PositionError, Setup};
    /// use chessbits::types::Square;
    /// let mut setup = Setup::standard();
    /// setup.board.take(Square::E8);
    /// assert!(matches!(Position::from_setup(setup), Err(PositionError::MissingKing(_))));
    /// ```
    pub fn from_setup(setup: Setup) -> Result<Position, PositionError> {
        Position::from_setup_with(setup, Validation::Game)
    }

    /// Validates `setup` as `validation` says and builds a position from it:
    /// [`Validation::Composed`] also accepts material and checks no game can reach (composed
    /// problems), which [`from_setup`](Position::from_setup) rejects.
    ///
    /// ```
    /// use chessbits::notation::fen::parse_setup;
    /// use chessbits::position::{Position, PositionError, Validation};
    /// // A triple check.
    /// let setup = parse_setup("4k3/8/3N4/8/B3R3/8/8/4K3 b - - 0 1").unwrap();
    /// assert_eq!(Position::from_setup(setup.clone()), Err(PositionError::ImpossibleCheck));
    /// let pos = Position::from_setup_with(setup, Validation::Composed).unwrap();
    /// assert_eq!(pos.checkers().count(), 3);
    /// ```
    pub fn from_setup_with(setup: Setup, validation: Validation) -> Result<Position, PositionError> {
        error::validate(&setup, validation)?;
        let Setup {
            board,
            turn,
            castling,
            ep_square,
            halfmove_clock,
            fullmove_number,
        } = setup;
        let chess960 = !is_standard_castling(&board, castling);
        let mut pos = Position {
            board,
            turn,
            castling,
            ep_square: None,
            halfmove_clock,
            fullmove_number: fullmove_number.max(1),
            key: 0,
            chess960,
        };
        pos.ep_square = ep_square.filter(|&ep| pos.ep_capturers(ep).any());
        pos.key = pos.compute_key();
        Ok(pos)
    }

    /// The position as plain data.
    pub fn to_setup(&self) -> Setup {
        Setup {
            board: self.board.clone(),
            turn: self.turn,
            castling: self.castling,
            ep_square: self.ep_square,
            halfmove_clock: self.halfmove_clock,
            fullmove_number: self.fullmove_number,
        }
    }

    #[inline(always)]
    pub fn board(&self) -> &Board {
        &self.board
    }

    #[inline(always)]
    pub fn turn(&self) -> Color {
        self.turn
    }

    #[inline(always)]
    pub fn castling(&self) -> CastlingRights {
        self.castling
    }

    /// The en passant square, set only when a pawn of the side to move could capture there.
    #[inline(always)]
    pub fn ep_square(&self) -> Option<Square> {
        self.ep_square
    }

    /// Half-moves since the last capture or pawn move.
    #[inline(always)]
    pub fn halfmove_clock(&self) -> u32 {
        self.halfmove_clock
    }

    #[inline(always)]
    pub fn fullmove_number(&self) -> u32 {
        self.fullmove_number
    }

    /// The Polyglot Zobrist key, updated incrementally by every move.
    #[inline(always)]
    pub fn key(&self) -> u64 {
        self.key
    }

    /// Whether castling is written the Chess960 way (Shredder/X-FEN letters, king-to-rook UCI).
    #[inline(always)]
    pub fn is_chess960(&self) -> bool {
        self.chess960
    }

    /// Marks the position as Chess960 (or not) for notation; the rules are the same.
    pub fn set_chess960(&mut self, chess960: bool) {
        self.chess960 = chess960 || !is_standard_castling(&self.board, self.castling);
    }

    #[inline(always)]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.board.piece_at(sq)
    }

    /// The king of `color`.
    #[inline(always)]
    pub fn king(&self, color: Color) -> Square {
        // Validation guarantees exactly one king a side.
        self.board.king_of(color).unwrap_or(Square::A1)
    }

    /// The pieces of the side to move.
    #[inline(always)]
    pub fn us(&self) -> Bitboard {
        self.board.by_color(self.turn)
    }

    /// The pieces of the side not to move.
    #[inline(always)]
    pub fn them(&self) -> Bitboard {
        self.board.by_color(!self.turn)
    }

    /// The pieces giving check to the side to move.
    ///
    /// Computed on demand (a few table lookups) rather than kept up to date by every move: most
    /// positions a search or perft reaches are leaves that never ask.
    #[inline(always)]
    pub fn checkers(&self) -> Bitboard {
        self.checkers_of(self.turn)
    }

    #[inline(always)]
    pub fn is_check(&self) -> bool {
        self.checkers().any()
    }

    /// The pieces of `by` attacking `sq` when the board's occupancy is `occupied`.
    #[inline]
    pub fn attackers_to(&self, sq: Square, by: Color, occupied: Bitboard) -> Bitboard {
        self.board.attackers_to(sq, by, occupied)
    }

    /// Whether `sq` is attacked by `by`.
    #[inline]
    pub fn is_attacked(&self, sq: Square, by: Color, occupied: Bitboard) -> bool {
        self.attackers_to(sq, by, occupied).any()
    }

    /// The pawns of the side to move that attack `ep` — candidates for an en passant capture.
    #[inline]
    fn ep_capturers(&self, ep: Square) -> Bitboard {
        attacks::pawn(!self.turn, ep) & self.board.by_piece(Piece::new(self.turn, Role::Pawn))
    }

    /// The key computed from scratch (the incremental key must always equal it).
    pub fn compute_key(&self) -> u64 {
        let mut key = 0;
        for (sq, piece) in self.board.pieces() {
            key ^= zobrist::piece_key(piece, sq);
        }
        key ^= zobrist::castling_rights_key(
            self.castling,
            [self.board.king_of(Color::White), self.board.king_of(Color::Black)],
        );
        if let Some(ep) = self.ep_square {
            key ^= zobrist::en_passant_key(ep.file());
        }
        if self.turn == Color::White {
            key ^= zobrist::white_to_move_key();
        }
        key
    }
}

/// Whether every castling right is a standard one: king on the e-file, rook in the corner.
fn is_standard_castling(board: &Board, castling: CastlingRights) -> bool {
    castling.rooks().into_iter().all(|rook| {
        let color = if rook.rank() == Rank::FIRST {
            Color::White
        } else {
            Color::Black
        };
        let king_home = Square::from_coords(File::E, Rank::FIRST.relative_to(color));
        board.king_of(color) == Some(king_home) && (rook.file() == File::A || rook.file() == File::H)
    })
}

impl Default for Position {
    fn default() -> Position {
        Position::startpos()
    }
}
