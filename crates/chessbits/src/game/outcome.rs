//! How a game ends: checkmate, stalemate, and the draw rules.

use core::fmt;

use super::{insufficient_material, Game, GameResult};
use crate::types::Color;

/// Why a game ended (or may end, for the claimable draws).
///
/// ```
/// use chessbits::game::Termination;
/// assert!(Termination::FivefoldRepetition.is_automatic());
/// assert!(!Termination::ThreefoldRepetition.is_automatic());
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Termination {
    /// The side to move is in check and has no legal move.
    Checkmate,
    /// The side to move is not in check and has no legal move.
    Stalemate,
    /// Neither side can ever checkmate (see [`insufficient_material`]).
    InsufficientMaterial,
    /// 150 half-moves without a capture or pawn move (automatic, FIDE 9.6.2).
    SeventyFiveMoves,
    /// The same position for the fifth time (automatic, FIDE 9.6.1).
    FivefoldRepetition,
    /// 100 half-moves without a capture or pawn move (a draw on claim, FIDE 9.3).
    FiftyMoves,
    /// The same position for the third time (a draw on claim, FIDE 9.2).
    ThreefoldRepetition,
}

impl Termination {
    /// Whether the game ends by itself, without a claim.
    ///
    /// ```
    /// use chessbits::game::Termination;
    /// assert!(Termination::Checkmate.is_automatic());
    /// assert!(!Termination::FiftyMoves.is_automatic());
    /// ```
    pub fn is_automatic(self) -> bool {
        !matches!(self, Termination::FiftyMoves | Termination::ThreefoldRepetition)
    }
}

impl fmt::Display for Termination {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Termination::Checkmate => "checkmate",
            Termination::Stalemate => "stalemate",
            Termination::InsufficientMaterial => "insufficient material",
            Termination::SeventyFiveMoves => "seventy-five-move rule",
            Termination::FivefoldRepetition => "fivefold repetition",
            Termination::FiftyMoves => "fifty-move rule",
            Termination::ThreefoldRepetition => "threefold repetition",
        })
    }
}

/// How the rules ended a game: the winner (`None` for a draw) and why. [`Game::outcome`] and
/// [`GameTree::outcome`](crate::pgn::GameTree::outcome) give it; [`Outcome::result`] is its
/// [`GameResult`], the type a PGN's result token is read as.
///
/// ```
/// use chessbits::game::{Game, GameResult, Outcome, Termination};
/// use chessbits::types::Color;
/// let mut game = Game::new();
/// for uci in ["f2f3", "e7e5", "g2g4", "d8h4"] {
///     game.push_uci(uci).unwrap();
/// }
/// let outcome = game.outcome().unwrap();
/// assert_eq!(outcome, Outcome { winner: Some(Color::Black), reason: Termination::Checkmate });
/// assert_eq!(outcome.result(), GameResult::BlackWins);
/// assert_eq!(outcome.to_string(), "0-1 (checkmate)");
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Outcome {
    /// The winner; `None` for a draw.
    pub winner: Option<Color>,
    /// Why the game ended.
    pub reason: Termination,
}

impl Outcome {
    /// A drawn outcome.
    ///
    /// ```
    /// use chessbits::game::{Outcome, Termination};
    /// assert!(Outcome::draw(Termination::Stalemate).is_draw());
    /// ```
    pub fn draw(reason: Termination) -> Outcome {
        Outcome { winner: None, reason }
    }

    /// Whether nobody won.
    ///
    /// ```
    /// use chessbits::game::{Outcome, Termination};
    /// use chessbits::types::Color;
    /// let win = Outcome { winner: Some(Color::White), reason: Termination::Checkmate };
    /// assert!(!win.is_draw());
    /// ```
    pub fn is_draw(&self) -> bool {
        self.winner.is_none()
    }

    /// The result: `1-0`, `0-1` or `1/2-1/2` (never `*`).
    ///
    /// ```
    /// use chessbits::game::{GameResult, Outcome, Termination};
    /// assert_eq!(Outcome::draw(Termination::FiftyMoves).result(), GameResult::Draw);
    /// assert_eq!(Outcome::draw(Termination::FiftyMoves).result().as_str(), "1/2-1/2");
    /// ```
    pub fn result(&self) -> GameResult {
        GameResult::from_winner(self.winner)
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.result(), self.reason)
    }
}

impl Game {
    /// Whether 100 or more half-moves have passed without a capture or pawn move: either
    /// player may claim a draw (FIDE 9.3).
    ///
    /// ```
    /// use chessbits::game::Game;
    /// let game = Game::from_fen("4k3/8/8/8/8/8/8/R3K3 w - - 100 80").unwrap();
    /// assert!(game.is_fifty_moves());
    /// ```
    pub fn is_fifty_moves(&self) -> bool {
        self.position().halfmove_clock() >= 100
    }

    /// Whether 150 or more half-moves have passed without a capture or pawn move: the game is
    /// drawn unless the last move mated (FIDE 9.6.2).
    ///
    /// ```
    /// use chessbits::game::Game;
    /// let game = Game::from_fen("4k3/8/8/8/8/8/8/R3K3 w - - 149 80").unwrap();
    /// assert!(!game.is_seventy_five_moves());
    /// ```
    pub fn is_seventy_five_moves(&self) -> bool {
        self.position().halfmove_clock() >= 150
    }

    /// Whether the current position has occurred three times: a draw may be claimed.
    ///
    /// ```
    /// use chessbits::game::Game;
    /// assert!(!Game::new().is_threefold_repetition());
    /// ```
    pub fn is_threefold_repetition(&self) -> bool {
        self.is_repetition(3)
    }

    /// Whether the current position has occurred five times: the game is drawn.
    ///
    /// ```
    /// use chessbits::game::Game;
    /// assert!(!Game::new().is_fivefold_repetition());
    /// ```
    pub fn is_fivefold_repetition(&self) -> bool {
        self.is_repetition(5)
    }

    /// Whether neither side can ever checkmate (see [`insufficient_material`]).
    ///
    /// ```
    /// use chessbits::game::Game;
    /// assert!(!Game::new().is_insufficient_material());
    /// ```
    pub fn is_insufficient_material(&self) -> bool {
        insufficient_material(self.position().board())
    }

    /// The automatic end of the game, if it has ended: checkmate, stalemate, insufficient
    /// material, seventy-five-move rule, fivefold repetition — checked in that order, so a
    /// mate on the 150th half-move is a mate.
    ///
    /// ```
    /// use chessbits::game::{Game, Termination};
    /// let game = Game::from_fen("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1").unwrap();
    /// assert_eq!(game.outcome().map(|o| o.reason), Some(Termination::Stalemate));
    /// assert_eq!(Game::new().outcome(), None);
    /// ```
    pub fn outcome(&self) -> Option<Outcome> {
        let pos = self.position();
        if pos.count_legal_moves() == 0 {
            return Some(if pos.is_check() {
                Outcome {
                    winner: Some(!pos.turn()),
                    reason: Termination::Checkmate,
                }
            } else {
                Outcome::draw(Termination::Stalemate)
            });
        }
        if self.is_insufficient_material() {
            return Some(Outcome::draw(Termination::InsufficientMaterial));
        }
        if self.is_seventy_five_moves() {
            return Some(Outcome::draw(Termination::SeventyFiveMoves));
        }
        if self.is_fivefold_repetition() {
            return Some(Outcome::draw(Termination::FivefoldRepetition));
        }
        None
    }

    /// A draw a player may claim in the current position: threefold repetition, else the
    /// fifty-move rule. To claim with a move announced (FIDE 9.2.1.1, 9.3.1), push the move
    /// and ask again.
    ///
    /// ```
    /// use chessbits::game::{Game, Termination};
    /// let game = Game::from_fen("4k3/8/8/8/8/8/8/R3K3 w - - 100 80").unwrap();
    /// assert_eq!(game.claimable_draw(), Some(Termination::FiftyMoves));
    /// ```
    pub fn claimable_draw(&self) -> Option<Termination> {
        if self.is_threefold_repetition() {
            Some(Termination::ThreefoldRepetition)
        } else if self.is_fifty_moves() {
            Some(Termination::FiftyMoves)
        } else {
            None
        }
    }

    /// [`Game::outcome`], or else a claimable draw as if it had been claimed.
    ///
    /// ```
    /// use chessbits::game::{Game, Outcome, Termination};
    /// let game = Game::from_fen("4k3/8/8/8/8/8/8/R3K3 w - - 120 80").unwrap();
    /// assert_eq!(game.outcome(), None);
    /// assert_eq!(game.outcome_with_claims(), Some(Outcome::draw(Termination::FiftyMoves)));
    /// ```
    pub fn outcome_with_claims(&self) -> Option<Outcome> {
        self.outcome().or_else(|| self.claimable_draw().map(Outcome::draw))
    }

    /// The result of [`Game::outcome`]: [`GameResult::Unknown`] while the game goes on (claims
    /// are not made for the players).
    ///
    /// ```
    /// use chessbits::game::{Game, GameResult};
    /// let mut game = Game::new();
    /// assert_eq!(game.result(), GameResult::Unknown);
    /// for san in ["f3", "e5", "g4", "Qh4#"] {
    ///     game.push_san(san).unwrap();
    /// }
    /// assert_eq!(game.result(), GameResult::BlackWins);
    /// ```
    pub fn result(&self) -> GameResult {
        self.outcome().map_or(GameResult::Unknown, |o| o.result())
    }
}
