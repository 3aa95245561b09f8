//! What an archive gives back for each game: the game, or the PGN text it was stored as.

use std::io::{self, Write};

use chessbits::pgn::{GameTree, WriteOptions};

/// A game read back from an archive.
///
/// A game that could not be stored as moves (an illegal move, a variant, broken movetext:
/// whatever makes the PGN reader report an error) is stored as the bytes of its PGN text and
/// comes back as [`StoredGame::Text`], byte for byte; reading that text with the
/// [`PgnReader`](chessbits::pgn::PgnReader) gives the same error again.
///
/// ```
/// use chessbits_archive::StoredGame;
/// use chessbits::pgn::{GameTree, WriteOptions};
/// let text = StoredGame::Text(b"1. e4 e4 *".to_vec());
/// let mut out = Vec::new();
/// text.write_pgn(&mut out, &WriteOptions::default()).unwrap();
/// assert_eq!(out, b"1. e4 e4 *\n\n");
/// assert!(StoredGame::Game(GameTree::default()).game().is_some());
/// ```
// Most games are stored as games: boxing them would cost an allocation each for nothing.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StoredGame {
    /// A game stored as moves, tags and comments.
    Game(GameTree),
    /// A game stored as its PGN text, exactly as it was read.
    Text(Vec<u8>),
}

impl PartialEq<GameTree> for StoredGame {
    /// Whether this is that game (stored as moves).
    fn eq(&self, other: &GameTree) -> bool {
        self.game() == Some(other)
    }
}

impl From<GameTree> for StoredGame {
    fn from(game: GameTree) -> StoredGame {
        StoredGame::Game(game)
    }
}

impl StoredGame {
    /// The game, unless it was stored as text.
    ///
    /// ```
    /// use chessbits_archive::StoredGame;
    /// assert!(StoredGame::Text(b"?".to_vec()).game().is_none());
    /// ```
    pub fn game(&self) -> Option<&GameTree> {
        match self {
            StoredGame::Game(game) => Some(game),
            StoredGame::Text(_) => None,
        }
    }

    /// The game, unless it was stored as text.
    ///
    /// ```
    /// use chessbits_archive::StoredGame;
    /// use chessbits::pgn::GameTree;
    /// assert_eq!(StoredGame::Game(GameTree::default()).into_game(), Some(GameTree::default()));
    /// ```
    pub fn into_game(self) -> Option<GameTree> {
        match self {
            StoredGame::Game(game) => Some(game),
            StoredGame::Text(_) => None,
        }
    }

    /// Writes the game as PGN: a game with [`GameTree::write_pgn`], a text as its bytes and a blank
    /// line.
    ///
    /// ```
    /// use chessbits_archive::StoredGame;
    /// use chessbits::pgn::{GameTree, WriteOptions};
    /// let mut out = Vec::new();
    /// StoredGame::Game(GameTree::default()).write_pgn(&mut out, &WriteOptions::default()).unwrap();
    /// assert!(out.ends_with(b"\n\n*\n\n"));
    /// ```
    pub fn write_pgn<W: Write + ?Sized>(&self, out: &mut W, options: &WriteOptions) -> io::Result<()> {
        match self {
            StoredGame::Game(game) => game.write_pgn(out, options),
            StoredGame::Text(text) => {
                out.write_all(text)?;
                out.write_all(b"\n\n")
            }
        }
    }
}
