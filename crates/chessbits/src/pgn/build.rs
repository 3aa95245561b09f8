//! Building the owned [`GameTree`] from reader events: replaying every move (variations too) and
//! attaching comments and NAGs where they belong.

use std::io::Read;

use super::reader::PgnReader;
use super::replay::{make, position_before, resolve_token, StartTags};
use super::syntax::SyntaxError;
use super::text::{Comment, Tag};
use super::text::{RawComment, RawTag};
use super::tree::{GameError, GameErrorKind, GameTree, Line, Node};
use super::visitor::{GameResult, Nag, SanToken, Skip, Visitor};
use crate::moves::Move;
use crate::notation::san::{San, SanPlus, Suffix};
use crate::position::{Position, Undo};

/// One line being built: its position, the last move (to start variations from the position
/// before it) and comments waiting for the next move.
struct Frame {
    pos: Position,
    last: Option<(Move, Undo)>,
    line: Line,
    pending: Vec<Comment>,
    after_variation: bool,
}

impl Frame {
    fn new(pos: Position) -> Frame {
        Frame {
            pos,
            last: None,
            line: Line::default(),
            pending: Vec::new(),
            after_variation: false,
        }
    }

    /// The finished line: comments still pending go to the last move, or to the line.
    fn finish(mut self) -> Line {
        match self.line.nodes.last_mut() {
            Some(last) => last.comments_after.append(&mut self.pending),
            None => self.line.comments = self.pending,
        }
        self.line
    }
}

/// A [`Visitor`] that builds a [`GameTree`], or the first error of the game.
///
/// ```
/// use chessbits::pgn::{GameBuilder, PgnReader};
/// let mut reader = PgnReader::new(&b"1. e4 e5 2. Ke2 Ke7 *\n1. Nf3 Nf6 1/2-1/2"[..]);
/// let mut builder = GameBuilder::new();
/// let first = reader.read_game(&mut builder).unwrap().unwrap().unwrap();
/// assert_eq!(first.moves.nodes[3].san.to_string(), "Ke7");
/// let second = reader.read_game(&mut builder).unwrap().unwrap().unwrap();
/// assert_eq!(second.final_position().fullmove_number(), 2);
/// ```
#[derive(Default)]
pub struct GameBuilder {
    tags: Vec<Tag>,
    start_tags: StartTags,
    start: Option<Position>,
    frames: Vec<Frame>,
    result: GameResult,
    error: Option<GameError>,
}

impl GameBuilder {
    /// A builder, reusable for any number of games.
    ///
    /// ```
    /// let _builder = chessbits::pgn::GameBuilder::new();
    /// ```
    pub fn new() -> GameBuilder {
        GameBuilder::default()
    }

    fn fail(&mut self, line: u32, kind: GameErrorKind) {
        GameError::record(&mut self.error, GameError { line, kind });
    }

    fn play(&mut self, token: &SanToken<'_>) -> Result<(), GameErrorKind> {
        let Some(frame) = self.frames.last_mut() else {
            return Ok(());
        };
        let m = resolve_token(&frame.pos, token)?;
        let san = San::from_move(&frame.pos, m);
        let undo = make(&mut frame.pos, m);
        // The suffix from the position after the move: mate detection only after a check.
        let suffix = match !m.is_null() && frame.pos.is_check() {
            false => None,
            true if frame.pos.count_legal_moves() == 0 => Some(Suffix::Checkmate),
            true => Some(Suffix::Check),
        };
        let written = SanPlus { san, suffix };
        let mut node = Node::new(m, written);
        node.comments_before = std::mem::take(&mut frame.pending);
        frame.line.nodes.push(node);
        frame.last = Some((m, undo));
        frame.after_variation = false;
        Ok(())
    }

    /// Closes the innermost variation, attaching it to the move it is an alternative to.
    fn close_variation(&mut self) {
        if self.frames.len() < 2 {
            return;
        }
        if let Some(frame) = self.frames.pop() {
            let line = frame.finish();
            if let Some(parent) = self.frames.last_mut() {
                if let Some(node) = parent.line.nodes.last_mut() {
                    node.variations.push(line);
                }
                parent.after_variation = true;
            }
        }
    }
}

impl Visitor for GameBuilder {
    type Output = Result<GameTree, GameError>;

    fn begin_game(&mut self) {
        self.tags.clear();
        self.start_tags.clear();
        self.start = None;
        self.frames.clear();
        self.result = GameResult::Unknown;
        self.error = None;
    }

    fn tag(&mut self, name: &[u8], value: RawTag<'_>, line: u32) {
        self.start_tags.tag(name, value, line);
        self.tags.push(Tag::from_raw(name, value.as_bytes()));
    }

    fn end_tags(&mut self) -> Skip {
        let Some(pos) = self.start_tags.start_position(&mut self.error) else {
            return Skip(true);
        };
        self.frames.push(Frame::new(pos.clone()));
        self.start = Some(pos);
        Skip(false)
    }

    fn san(&mut self, token: SanToken<'_>) {
        if self.error.is_none() {
            if let Err(kind) = self.play(&token) {
                self.fail(token.line, kind);
            }
        }
    }

    fn nag(&mut self, nag: Nag, _line: u32) {
        if let Some(node) = self.frames.last_mut().and_then(|f| f.line.nodes.last_mut()) {
            node.nags.push(nag);
        }
    }

    fn comment(&mut self, comment: RawComment<'_>, _line: u32) {
        let Some(frame) = self.frames.last_mut() else {
            return;
        };
        let text = Comment::new(comment.as_bytes().to_vec());
        match frame.line.nodes.last_mut() {
            Some(node) if !frame.after_variation => node.comments_after.push(text),
            _ => frame.pending.push(text),
        }
    }

    fn syntax_error(&mut self, error: SyntaxError, line: u32) {
        self.fail(line, GameErrorKind::Syntax(error));
    }

    fn begin_variation(&mut self, _line: u32) -> Skip {
        if self.error.is_some() {
            return Skip(true);
        }
        let Some(frame) = self.frames.last() else {
            return Skip(true);
        };
        // A variation is an alternative to the last move: it starts from the position before.
        let Some((m, undo)) = frame.last else {
            return Skip(true);
        };
        let pos = position_before(&frame.pos, m, undo);
        self.frames.push(Frame::new(pos));
        Skip(false)
    }

    fn end_variation(&mut self, _line: u32) {
        self.close_variation();
    }

    fn result(&mut self, result: GameResult, _line: u32) {
        self.result = result;
    }

    fn end_game(&mut self) -> Result<GameTree, GameError> {
        if let Some(error) = self.error.take() {
            return Err(error);
        }
        while self.frames.len() > 1 {
            self.close_variation();
        }
        let moves = self.frames.pop().map(Frame::finish).unwrap_or_default();
        Ok(GameTree {
            tags: std::mem::take(&mut self.tags),
            start: self.start.take().unwrap_or_else(Position::startpos),
            moves,
            result: self.result,
        })
    }
}

/// An I/O error, or a game that could not be read.
///
/// ```
/// use chessbits::pgn::{PgnError, PgnReader};
/// let mut games = PgnReader::new(&b"1. e5 *"[..]).into_games();
/// assert!(matches!(games.next(), Some(Err(PgnError::Game(_)))));
/// assert!(games.next().is_none());
/// ```
#[derive(Debug)]
#[non_exhaustive]
pub enum PgnError {
    /// Reading failed.
    Io(std::io::Error),
    /// The game is malformed or has an illegal move.
    Game(GameError),
    /// The text holds no game ([`GameTree::from_pgn`]).
    NoGame,
}

impl core::fmt::Display for PgnError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            PgnError::Io(e) => write!(f, "read error: {e}"),
            PgnError::Game(e) => e.fmt(f),
            PgnError::NoGame => f.write_str("no game in the text"),
        }
    }
}

impl std::error::Error for PgnError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            PgnError::Io(e) => Some(e),
            PgnError::Game(e) => Some(e),
            PgnError::NoGame => None,
        }
    }
}

/// The games of a reader, as an iterator (see [`PgnReader::into_games`]).
///
/// ```
/// use chessbits::pgn::PgnReader;
/// let mut games = PgnReader::new(&b"1. e4 *\n1. e5 *"[..]).into_games();
/// assert!(games.next().unwrap().is_ok());
/// assert!(games.next().unwrap().is_err());
/// assert!(games.next().is_none());
/// ```
pub struct Games<R> {
    reader: PgnReader<R>,
    builder: GameBuilder,
    done: bool,
}

impl<R: Read> Iterator for Games<R> {
    type Item = Result<GameTree, PgnError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        match self.reader.read_game(&mut self.builder) {
            Ok(Some(game)) => Some(game.map_err(PgnError::Game)),
            Ok(None) => {
                self.done = true;
                None
            }
            Err(e) => {
                self.done = true;
                Some(Err(PgnError::Io(e)))
            }
        }
    }
}

impl GameTree {
    /// The first game of a PGN text (the rest is not read): for a game at hand, where
    /// [`PgnReader`] would be a detour.
    ///
    /// ```
    /// use chessbits::pgn::{GameTree, PgnError};
    /// let game = GameTree::from_pgn("1. e4 e5 2. Nf3 *").unwrap();
    /// assert_eq!(game.mainline().count(), 3);
    /// assert!(matches!(GameTree::from_pgn("1. e5 *"), Err(PgnError::Game(_))));
    /// assert!(matches!(GameTree::from_pgn(" \n"), Err(PgnError::NoGame)));
    /// ```
    pub fn from_pgn(text: impl AsRef<[u8]>) -> Result<GameTree, PgnError> {
        PgnReader::new(text.as_ref())
            .into_games()
            .next()
            .unwrap_or(Err(PgnError::NoGame))
    }
}

impl<R: Read> PgnReader<R> {
    /// Reads the next game as an owned [`GameTree`]: `None` at the end of the input, `Some(Err)`
    /// for a game with an error (the reader has moved on to the next one).
    ///
    /// ```
    /// use chessbits::pgn::PgnReader;
    /// let mut reader = PgnReader::new(&b"1. e4 e4 *\n\n1. e4 e5 *"[..]);
    /// assert!(reader.read_owned_game().unwrap().unwrap().is_err());
    /// assert!(reader.read_owned_game().unwrap().unwrap().is_ok());
    /// ```
    pub fn read_owned_game(&mut self) -> std::io::Result<Option<Result<GameTree, GameError>>> {
        self.read_game(&mut GameBuilder::new())
    }

    /// All remaining games, as an iterator of owned games; stops after an I/O error.
    ///
    /// ```
    /// use chessbits::pgn::PgnReader;
    /// let games: Vec<_> = PgnReader::new(&b"1. e4 *\n1. d4 *\n1. c4 *"[..]).into_games().collect();
    /// assert_eq!(games.len(), 3);
    /// ```
    pub fn into_games(self) -> Games<R> {
        Games {
            reader: self,
            builder: GameBuilder::new(),
            done: false,
        }
    }
}

impl<R: Read> IntoIterator for PgnReader<R> {
    type Item = Result<GameTree, PgnError>;
    type IntoIter = Games<R>;

    /// The same as [`PgnReader::into_games`].
    ///
    /// ```
    /// use chessbits::pgn::PgnReader;
    /// let games: Result<Vec<_>, _> = PgnReader::new(&b"1. e4 *\n1. d4 *"[..]).into_iter().collect();
    /// assert_eq!(games.unwrap().len(), 2);
    /// ```
    fn into_iter(self) -> Games<R> {
        self.into_games()
    }
}
