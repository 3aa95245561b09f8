//! Moves given as text, played on a [`Position`] or a [`Game`]: SAN and UCI in one call, with
//! errors that quote the text.
//!
//! ```
//! use chessbits::game::Game;
//! let mut game = Game::new();
//! for san in ["e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6", "Qxf7#"] {
//!     game.push_san(san).unwrap();
//! }
//! assert!(game.outcome().is_some());
//! let err = game.position().clone().play_san("Ke7").unwrap_err();
//! assert_eq!(err.to_string(), "illegal move 'Ke7'");
//! ```

use super::fen::FenError;
use super::san::{san_of, InvalidSan, San, SanError, SanPlus};
use super::uci::{parse_uci, UciError};
use crate::game::Game;
use crate::moves::Move;
use crate::position::Position;

impl Position {
    /// The legal move that `san` names here. Reads SAN as PGN files write it: check and mate
    /// marks, annotations (`!?`), `0-0`, `e8Q` and long algebraic are accepted (see
    /// [`San::parse_lenient`]); the null move (`--`) is not a legal move and is refused.
    ///
    /// ```
    /// use chessbits::position::Position;
    /// let pos = Position::startpos();
    /// assert_eq!(pos.parse_san("Nf3+!").unwrap().to_string(), "g1f3");
    /// assert!(pos.parse_san("Nd4").is_err());
    /// ```
    pub fn parse_san(&self, san: &str) -> Result<Move, InvalidSan> {
        let invalid = |kind| InvalidSan {
            text: san.to_string(),
            kind,
        };
        let parsed = San::parse_lenient(san.as_bytes()).map_err(invalid)?;
        match parsed.san.to_move(self) {
            Ok(m) if m.is_null() => Err(invalid(SanError::Illegal)),
            Ok(m) => Ok(m),
            Err(kind) => Err(invalid(kind)),
        }
    }

    /// The SAN of the legal move `m` here, with minimal disambiguation and its check (`+`) or
    /// mate (`#`) suffix: python-chess's `board.san(move)`. Its `Display` is the text; its
    /// fields are the parts ([`SanPlus::san`], [`SanPlus::suffix`]).
    ///
    /// ```
    /// use chessbits::position::Position;
    /// let pos = Position::from_fen("3k4/8/8/8/8/8/8/R3K2R w KQ - 0 1").unwrap();
    /// let m = pos.parse_uci("e1c1").unwrap();
    /// assert_eq!(pos.san(m).to_string(), "O-O-O+");
    /// // Long algebraic in, minimal SAN with the mate mark out.
    /// let pos = Position::from_fen("6k1/8/6K1/8/8/8/8/R7 w - - 0 1").unwrap();
    /// assert_eq!(pos.san(pos.parse_san("Ra1-a8").unwrap()).to_string(), "Ra8#");
    /// // The move is checked for legality by the caller: take it from `legal_moves`, a parser,
    /// // or a game.
    /// let start = Position::startpos();
    /// let sans: Vec<String> = start.legal_moves().iter().map(|&m| start.san(m).to_string()).collect();
    /// assert!(sans.contains(&"Nf3".to_string()) && sans.len() == 20);
    /// ```
    pub fn san(&self, m: Move) -> SanPlus {
        san_of(self, m)
    }

    /// The legal move that `uci` names here (`e2e4`, `e7e8q`, `e1g1` or `e1h1`), as
    /// [`parse_uci`] reads it.
    ///
    /// ```
    /// use chessbits::position::Position;
    /// let pos = Position::startpos();
    /// assert_eq!(pos.parse_uci("g1f3").unwrap(), pos.parse_san("Nf3").unwrap());
    /// assert!(pos.parse_uci("e2e5").is_err());
    /// ```
    pub fn parse_uci(&self, uci: &str) -> Result<Move, UciError> {
        parse_uci(self, uci)
    }

    /// Plays the legal move `san` names (see [`Position::parse_san`]) and returns it.
    ///
    /// ```
    /// use chessbits::position::Position;
    /// let mut pos = Position::startpos();
    /// pos.play_san("e4").unwrap();
    /// pos.play_san("c5").unwrap();
    /// assert_eq!(pos.fen(), "rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2");
    /// ```
    pub fn play_san(&mut self, san: &str) -> Result<Move, InvalidSan> {
        let m = self.parse_san(san)?;
        self.play_unchecked(m);
        Ok(m)
    }

    /// Plays the legal move `uci` names (`e2e4`, `e7e8q`, `e1g1` or `e1h1`) and returns it.
    ///
    /// ```
    /// use chessbits::position::Position;
    /// let mut pos = Position::startpos();
    /// assert_eq!(pos.play_uci("g1f3").unwrap().to_string(), "g1f3");
    /// assert!(pos.play_uci("g1f3").is_err());
    /// ```
    pub fn play_uci(&mut self, uci: &str) -> Result<Move, UciError> {
        let m = parse_uci(self, uci)?;
        if m.is_null() {
            return Err(UciError::Illegal(uci.to_string()));
        }
        self.play_unchecked(m);
        Ok(m)
    }
}

impl Game {
    /// A game from a FEN start position.
    ///
    /// ```
    /// use chessbits::game::Game;
    /// let game = Game::from_fen("8/8/8/8/8/8/8/K1k5 w - - 0 1").unwrap();
    /// assert!(game.is_insufficient_material());
    /// assert!(Game::from_fen("not a fen").is_err());
    /// ```
    pub fn from_fen(fen: &str) -> Result<Game, FenError> {
        Ok(Game::from_position(Position::from_fen(fen)?))
    }

    /// Parses SAN in the current position (see [`Position::parse_san`]) and plays it.
    ///
    /// ```
    /// use chessbits::game::Game;
    /// let mut game = Game::new();
    /// game.push_san("d4").unwrap();
    /// game.push_san("Nf6").unwrap();
    /// assert_eq!(game.push_san("Nf6").unwrap_err().to_string(), "illegal move 'Nf6'");
    /// assert_eq!(game.len(), 2);
    /// ```
    pub fn push_san(&mut self, san: &str) -> Result<Move, InvalidSan> {
        let m = self.position().parse_san(san)?;
        match self.push(m) {
            Ok(()) => Ok(m),
            // Unreachable: `parse_san` gives only legal moves.
            Err(_) => Err(InvalidSan {
                text: san.to_string(),
                kind: SanError::Illegal,
            }),
        }
    }

    /// Parses a UCI move (`e2e4`, `e7e8q`, `e1g1` or `e1h1`) in the current position and plays
    /// it. The null move `0000` is not a legal move and is rejected.
    ///
    /// ```
    /// use chessbits::game::Game;
    /// let mut game = Game::new();
    /// assert!(game.push_uci("e2e4").is_ok());
    /// assert!(game.push_uci("e2e4").is_err());
    /// assert!(game.push_uci("0000").is_err());
    /// ```
    pub fn push_uci(&mut self, uci: &str) -> Result<Move, UciError> {
        let m = parse_uci(self.position(), uci)?;
        match self.push(m) {
            Ok(()) => Ok(m),
            Err(_) => Err(UciError::Illegal(uci.to_string())),
        }
    }
}
