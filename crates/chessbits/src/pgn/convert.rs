//! Between the two games of the library: the PGN tree ([`GameTree`]: tags, comments, NAGs,
//! variations) and the game record ([`Game`]: a start position, the moves played and their
//! signature list, for repetition and the draw rules).

use super::tree::{GameTree, Line, Node};
use crate::game::{Game, Outcome};
use crate::movegen::IllegalMove;
use crate::notation::san::san_of;
use crate::position::Position;

impl GameTree {
    /// The main line as a game record: the start position and every main-line move, so the
    /// record answers repetition, fifty-move and outcome questions. Tags, comments, NAGs and
    /// variations are not part of a record. A null move (`--`) in the main line is an error: a
    /// record holds only legal moves.
    ///
    /// ```
    /// use chessbits::pgn::GameTree;
    /// let pgn = b"1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 *";
    /// let tree = GameTree::from_pgn(&pgn[..]).unwrap();
    /// let game = tree.to_game().unwrap();
    /// assert_eq!(game.len(), 8);
    /// assert!(game.is_threefold_repetition());
    /// ```
    pub fn to_game(&self) -> Result<Game, IllegalMove> {
        let mut game = Game::from_position(self.start.clone());
        for m in self.mainline() {
            game.push(m)?;
        }
        Ok(game)
    }

    /// A tree with the record's moves as its main line: the Seven Tag Roster, `SetUp` and
    /// `FEN` when the record does not start from the standard position, `Variant "Chess960"`
    /// for a Chess960 game, and the result of a finished game (`Result` tag and token; `*`
    /// while it goes on).
    ///
    /// ```
    /// use chessbits::game::Game;
    /// use chessbits::pgn::{GameResult, GameTree};
    /// let mut game = Game::new();
    /// for san in ["f3", "e5", "g4", "Qh4#"] {
    ///     game.push_san(san).unwrap();
    /// }
    /// let tree = GameTree::from_game(&game);
    /// assert_eq!(tree.result, GameResult::BlackWins);
    /// let pgn = String::from_utf8(tree.to_pgn()).unwrap();
    /// assert!(pgn.contains("\n1. f3 e5 2. g4 Qh4# 0-1\n"), "{pgn}");
    /// assert_eq!(tree.to_game().unwrap().moves(), game.moves());
    /// ```
    pub fn from_game(game: &Game) -> GameTree {
        let start: &Position = game.start();
        let mut tree = GameTree::new(start.clone());
        if start.is_chess960() {
            tree.set_tag("Variant", "Chess960");
        }
        if *start != Position::startpos() {
            tree.set_tag("SetUp", "1");
            tree.set_tag("FEN", &start.fen());
        }
        let mut pos = start.clone();
        let mut line = Line::default();
        for &m in game.moves() {
            line.nodes.push(Node::new(m, san_of(&pos, m)));
            pos.play_unchecked(m);
        }
        tree.moves = line;
        let result = game.result();
        tree.set_tag("Result", result.as_str());
        tree.result = result;
        tree
    }

    /// How the rules ended the main line, as [`Game::outcome`] says of [`GameTree::to_game`]:
    /// checkmate, stalemate, insufficient material, the seventy-five-move rule or fivefold
    /// repetition; `None` if they did not (a resignation, a time forfeit, a game going on: see
    /// [`GameTree::declared_result`] for what the file says) or the main line holds a null move.
    ///
    /// ```
    /// use chessbits::game::{GameResult, Termination};
    /// use chessbits::pgn::GameTree;
    /// let game = GameTree::from_pgn(&b"1. f3 e5 2. g4 Qh4# 0-1"[..]).unwrap();
    /// let outcome = game.outcome().unwrap();
    /// assert_eq!(outcome.reason, Termination::Checkmate);
    /// assert_eq!(outcome.result(), GameResult::BlackWins);
    /// assert_eq!(GameTree::from_pgn(&b"1. e4 1-0"[..]).unwrap().outcome(), None);
    /// ```
    pub fn outcome(&self) -> Option<Outcome> {
        self.to_game().ok()?.outcome()
    }
}

impl TryFrom<&GameTree> for Game {
    type Error = IllegalMove;

    /// [`GameTree::to_game`].
    fn try_from(tree: &GameTree) -> Result<Game, IllegalMove> {
        tree.to_game()
    }
}

impl From<&Game> for GameTree {
    /// [`GameTree::from_game`].
    fn from(game: &Game) -> GameTree {
        GameTree::from_game(game)
    }
}
