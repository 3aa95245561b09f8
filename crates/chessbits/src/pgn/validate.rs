//! The fast path: replaying every move of every game without building anything.

use super::replay::{Lines, StartTags};
use super::syntax::SyntaxError;
use super::text::RawTag;
use super::tree::{GameError, GameErrorKind};
use super::visitor::{GameResult, SanToken, Skip, Visitor};

/// What [`Validator`] reports for a valid game.
///
/// ```
/// use chessbits::pgn::{GameResult, GameSummary};
/// let summary = GameSummary { plies: 0, result: GameResult::Unknown };
/// assert_eq!(summary, GameSummary::default());
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub struct GameSummary {
    /// Moves of the main line.
    pub plies: u32,
    /// The result token that ended the movetext; `Unknown` for `*` or none.
    pub result: GameResult,
}

/// A [`Visitor`] that checks every move of every game (variations included) by replaying it:
/// the error of the first bad move, or the number of main-line moves. Nothing is allocated per
/// move.
///
/// ```
/// use chessbits::pgn::{PgnReader, Validator};
/// let pgn = b"1. e4 e5 (1... c5 2. Nf3) 2. Nf3 *\n\n1. e4 e5 (1... c4) 2. Nf3 *";
/// let mut reader = PgnReader::new(&pgn[..]);
/// let mut validator = Validator::new();
/// assert_eq!(reader.read_game(&mut validator).unwrap().unwrap().unwrap().plies, 3);
/// let error = reader.read_game(&mut validator).unwrap().unwrap().unwrap_err();
/// assert_eq!(error.to_string(), "line 3: illegal move 'c4'");
/// ```
#[derive(Default)]
pub struct Validator {
    start: StartTags,
    lines: Lines,
    plies: u32,
    result: GameResult,
    error: Option<GameError>,
}

impl Validator {
    /// A validator, reusable for any number of games.
    ///
    /// ```
    /// let _validator = chessbits::pgn::Validator::new();
    /// ```
    pub fn new() -> Validator {
        Validator::default()
    }

    fn play(&mut self, token: &SanToken<'_>) -> Result<(), GameErrorKind> {
        if self.lines.play(token)?.is_some() && self.lines.depth() == 1 {
            self.plies += 1;
        }
        Ok(())
    }
}

impl Visitor for Validator {
    type Output = Result<GameSummary, GameError>;

    fn begin_game(&mut self) {
        self.start.clear();
        self.lines.clear();
        self.plies = 0;
        self.result = GameResult::Unknown;
        self.error = None;
    }

    fn tag(&mut self, name: &[u8], value: RawTag<'_>, line: u32) {
        self.start.tag(name, value, line);
    }

    fn end_tags(&mut self) -> Skip {
        let Some(pos) = self.start.start_position(&mut self.error) else {
            return Skip(true);
        };
        self.lines.start(pos);
        Skip(false)
    }

    fn san(&mut self, token: SanToken<'_>) {
        if self.error.is_none() {
            if let Err(kind) = self.play(&token) {
                self.error = Some(GameError { line: token.line, kind });
            }
        }
    }

    fn syntax_error(&mut self, error: SyntaxError, line: u32) {
        let kind = GameErrorKind::Syntax(error);
        GameError::record(&mut self.error, GameError { line, kind });
    }

    fn begin_variation(&mut self, _line: u32) -> Skip {
        Skip(self.error.is_some() || !self.lines.begin_variation())
    }

    fn end_variation(&mut self, _line: u32) {
        self.lines.end_variation();
    }

    fn result(&mut self, result: GameResult, _line: u32) {
        self.result = result;
    }

    fn end_game(&mut self) -> Result<GameSummary, GameError> {
        match self.error.take() {
            Some(error) => Err(error),
            None => Ok(GameSummary {
                plies: self.plies,
                result: self.result,
            }),
        }
    }
}
