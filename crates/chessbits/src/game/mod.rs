//! The game list and its signature list: repetition, fifty-move rule, outcome.
//!
//! A [`Game`] keeps, as the chessprogramming "Move List" page describes:
//!
//! ```text
//!  moves (game list, 16-bit)      keys (signature list, one more: positions, not moves)
//!                                 +-------------------+
//!                                 | key(start)        |  0
//!  +-------------------+          +-------------------+
//!  | 1. White move     |  0  -->  | key after move 0  |  1
//!  +-------------------+          +-------------------+
//!  | 1… Black move     |  1  -->  | key after move 1  |  2
//!  +-------------------+          +-------------------+
//!  | …                 |          | …                 |
//!  +-------------------+          +-------------------+
//!  | last move         | n-1 -->  | key(current)      |  n
//!  +-------------------+          +-------------------+
//! ```
//!
//! plus the start position, the current position, and the undo record of each move so that
//! [`Game::pop`] unmakes exactly. Keys are the Polyglot Zobrist keys, `keys()[i]` the key of the
//! position after `i` moves.
//!
//! **Repetition.** A position can only recur after the last irreversible move (a capture or a
//! pawn move — exactly what resets the halfmove clock), and only with the same side to move.
//! So [`Game::repetition_count`] compares the current key with the keys 2, 4, 6, … plies back,
//! no further than the halfmove clock. Castling rights are part of the key, so a position whose
//! rights were lost since never matches one that had them (FIDE: positions differ), even though
//! losing a right does not reset the clock. En passant counts only if a *legal* en passant
//! capture exists (FIDE again): the Polyglot key hashes the en passant file as soon as a pawn
//! stands next to the double-pushed one, even if the capture would expose its king, so the
//! game also keeps, privately, a repetition key with that file dropped when no capture is legal.
//!
//! **Signature list length.** The list is kept whole (one key per position since the start),
//! not shortened after irreversible moves: [`Game::keys`] is the complete history and
//! [`Game::pop`] never needs to recompute a dropped key. The scan still stops at the halfmove
//! clock, so its cost is bounded by the clock (at most 150 plies in a game still going).
//!
//! **Outcome.** [`Game::outcome`] reports the endings that happen by themselves: checkmate,
//! stalemate, insufficient material, the seventy-five-move rule (unless the move that reached
//! it mated) and fivefold repetition. [`Game::claimable_draw`] reports the draws a player may
//! claim in the current position: threefold repetition and the fifty-move rule. (A claim that
//! announces the next move is checked by pushing that move first.) [`Outcome::result`] and
//! [`Game::result`] give the [`GameResult`] a PGN writes: the one result type of the library.
//!
//! **Positions.** [`Game::positions`] iterates from the start position through the position
//! after each move, [`Game::position_at`] gives the one after `ply` moves; a
//! [`GameTree`](crate::pgn::GameTree) has both for its main line.
//!
//! ```
//! use chessbits::game::{Game, Outcome, Termination};
//!
//! let mut game = Game::new();
//! for uci in ["g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1", "f6g8"] {
//!     game.push_uci(uci).unwrap();
//! }
//! assert_eq!(game.repetition_count(), 3);
//! assert_eq!(game.claimable_draw(), Some(Termination::ThreefoldRepetition));
//! assert_eq!(game.outcome(), None); // a claim, not automatic
//! assert_eq!(game.keys().len(), game.moves().len() + 1);
//! ```

mod material;
mod outcome;
mod positions;

/// The result of a game as PGN writes it (`1-0`, `0-1`, `1/2-1/2`, `*`): the same type as
/// [`pgn::GameResult`](crate::pgn::GameResult), here beside [`Outcome::result`].
pub use crate::pgn::GameResult;
pub use material::{has_insufficient_material, insufficient_material};
pub use outcome::{Outcome, Termination};
pub(crate) use positions::{play_line_move, position_at, Positions};

use crate::attacks;
pub use crate::movegen::IllegalMove;
use crate::moves::{Move, MoveKind};
use crate::position::{zobrist, Position, Undo};
use crate::types::{Piece, Role};

/// A game: start position, moves played, one key per position, and the current position.
///
/// ```
/// use chessbits::game::Game;
/// let mut game = Game::new();
/// let e4 = game.push_uci("e2e4").unwrap();
/// assert_eq!(game.moves(), &[e4]);
/// assert_eq!(game.keys(), &[game.start().key(), game.position().key()]);
/// assert_eq!(game.pop(), Some(e4));
/// assert_eq!(game.position(), game.start());
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    start: Position,
    position: Position,
    moves: Vec<Move>,
    /// The signature list: `keys[i]` is the Polyglot key after `i` moves.
    keys: Vec<u64>,
    /// Like `keys`, but without an en passant file that no legal capture can use.
    repetition_keys: Vec<u64>,
    undos: Vec<Undo>,
}

impl Game {
    /// A game from the standard start position.
    ///
    /// ```
    /// use chessbits::game::Game;
    /// assert!(Game::new().moves().is_empty());
    /// ```
    pub fn new() -> Game {
        Game::from_position(Position::startpos())
    }

    /// A game from `start`.
    ///
    /// ```
    /// use chessbits::game::Game;
    /// use chessbits::position::Position;
    /// let start = Position::from_fen("4k3/8/8/8/8/8/8/4K2R w K - 0 1").unwrap();
    /// assert_eq!(Game::from_position(start.clone()).position(), &start);
    /// ```
    pub fn from_position(start: Position) -> Game {
        let key = start.key();
        let repetition_key = repetition_key(&start);
        Game {
            position: start.clone(),
            start,
            moves: Vec::new(),
            keys: vec![key],
            repetition_keys: vec![repetition_key],
            undos: Vec::new(),
        }
    }

    /// The position the game started from.
    ///
    /// ```
    /// use chessbits::game::Game;
    /// use chessbits::position::Position;
    /// assert_eq!(Game::new().start(), &Position::startpos());
    /// ```
    #[inline]
    pub fn start(&self) -> &Position {
        &self.start
    }

    /// The current position.
    ///
    /// ```
    /// use chessbits::game::Game;
    /// let mut game = Game::new();
    /// game.push_uci("e2e4").unwrap();
    /// assert_eq!(game.position().fen(), "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
    /// ```
    #[inline]
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// The moves played, in order (the game list).
    ///
    /// ```
    /// use chessbits::game::Game;
    /// let mut game = Game::new();
    /// game.push_uci("d2d4").unwrap();
    /// assert_eq!(game.moves()[0].to_string(), "d2d4");
    /// ```
    #[inline]
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// The Polyglot key of every position of the game (the signature list): one more than
    /// there are moves, `keys()[i]` after `i` moves.
    ///
    /// ```
    /// use chessbits::game::Game;
    /// let game = Game::new();
    /// assert_eq!(game.keys(), &[0x463b96181691fc9c]);
    /// ```
    #[inline]
    pub fn keys(&self) -> &[u64] {
        &self.keys
    }

    /// The number of moves played.
    ///
    /// ```
    /// use chessbits::game::Game;
    /// let mut game = Game::new();
    /// game.push_uci("c2c4").unwrap();
    /// assert_eq!(game.len(), 1);
    /// ```
    #[inline]
    pub fn len(&self) -> usize {
        self.moves.len()
    }

    /// Whether no move has been played.
    ///
    /// ```
    /// use chessbits::game::Game;
    /// assert!(Game::new().is_empty());
    /// ```
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }

    /// Plays `m` if it is legal in the current position.
    ///
    /// ```
    /// use chessbits::game::Game;
    /// use chessbits::notation::uci::parse_uci;
    /// let mut game = Game::new();
    /// let nf3 = parse_uci(game.position(), "g1f3").unwrap();
    /// game.push(nf3).unwrap();
    /// assert!(game.push(nf3).is_err()); // no white knight on g1 any more, and Black is to move
    /// assert_eq!(game.len(), 1);
    /// ```
    pub fn push(&mut self, m: Move) -> Result<(), IllegalMove> {
        if !self.position.is_legal(m) {
            return Err(IllegalMove::new(&self.position, m));
        }
        let undo = self.position.play_unchecked(m);
        self.moves.push(m);
        self.undos.push(undo);
        self.keys.push(self.position.key());
        self.repetition_keys.push(repetition_key(&self.position));
        Ok(())
    }

    /// Takes back the last move; `None` at the start.
    ///
    /// ```
    /// use chessbits::game::Game;
    /// let mut game = Game::new();
    /// assert_eq!(game.pop(), None);
    /// game.push_uci("e2e4").unwrap();
    /// assert_eq!(game.pop().map(|m| m.to_string()), Some("e2e4".to_string()));
    /// assert_eq!(game.keys().len(), 1);
    /// ```
    pub fn pop(&mut self) -> Option<Move> {
        let m = self.moves.pop()?;
        // The four lists grow and shrink together, so an undo and a key are there too.
        if let Some(undo) = self.undos.pop() {
            self.position.unmake_move(m, undo);
        }
        self.keys.pop();
        self.repetition_keys.pop();
        Some(m)
    }

    /// How often the current position has occurred in the game, this time included (1 for a
    /// new position). Compares only positions since the last capture or pawn move, with the
    /// same side to move (see the [module docs](crate::game)).
    ///
    /// ```
    /// use chessbits::game::Game;
    /// let mut game = Game::new();
    /// assert_eq!(game.repetition_count(), 1);
    /// for uci in ["b1c3", "b8c6", "c3b1", "c6b8"] {
    ///     game.push_uci(uci).unwrap();
    /// }
    /// assert_eq!(game.repetition_count(), 2);
    /// ```
    pub fn repetition_count(&self) -> usize {
        let Some((&current, earlier)) = self.repetition_keys.split_last() else {
            return 1;
        };
        // Positions since the last irreversible move; the start position's clock may reach
        // back before the game began, where there are no keys.
        let reversible = (self.position.halfmove_clock() as usize).min(earlier.len());
        let matches = earlier
            .iter()
            .rev()
            .take(reversible)
            .skip(1) // one ply back: the other side to move
            .step_by(2)
            .filter(|&&key| key == current)
            .count();
        1 + matches
    }

    /// Whether the current position has occurred at least `times` times (this time included).
    ///
    /// ```
    /// use chessbits::game::Game;
    /// let game = Game::new();
    /// assert!(game.is_repetition(1));
    /// assert!(!game.is_repetition(2));
    /// ```
    pub fn is_repetition(&self, times: usize) -> bool {
        self.repetition_count() >= times
    }
}

impl Default for Game {
    fn default() -> Game {
        Game::new()
    }
}

/// The key that decides repetitions: the Polyglot key, minus the en passant file when no legal
/// en passant capture exists (the Polyglot key only asks whether a pawn stands ready).
fn repetition_key(pos: &Position) -> u64 {
    let key = pos.key();
    let Some(ep) = pos.ep_square() else {
        return key;
    };
    let us = pos.turn();
    let capturers = attacks::pawn(!us, ep) & pos.board().by_piece(Piece::new(us, Role::Pawn));
    let legal_capture = capturers
        .into_iter()
        .any(|from| pos.is_legal(Move::new(from, ep, MoveKind::EnPassant)));
    if legal_capture {
        key
    } else {
        key ^ zobrist::en_passant_key(ep.file())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_scan_stops_at_the_last_irreversible_move() {
        let mut game = Game::new();
        let moves = [
            "g1f3", "g8f6", "f3g1", "f6g8", "e2e4", "e7e5", "g1f3", "g8f6", "f3g1", "f6g8",
        ];
        for uci in moves {
            game.push_uci(uci).unwrap();
        }
        // Index 10 (now) repeats index 6, the position right after the last pawn move.
        assert_eq!(game.position().halfmove_clock(), 4);
        assert_eq!(game.repetition_count(), 2);
        // Pretend every key up to e2e4 collided with the current one: out of reach, no effect.
        let current = game.repetition_keys[10];
        for key in &mut game.repetition_keys[..6] {
            *key = current;
        }
        assert_eq!(game.repetition_count(), 2);
        // A collision within reach with the same side to move counts; with the other side not.
        game.repetition_keys[9] = current;
        assert_eq!(game.repetition_count(), 2);
        game.repetition_keys[8] = current;
        assert_eq!(game.repetition_count(), 3);
    }
}
