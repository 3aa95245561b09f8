//! The event API of the reader: a [`Visitor`] receives each game's tags and movetext tokens as
//! borrowed bytes, with the line each token starts on.

use core::fmt;

use super::syntax::SyntaxError;
use super::text::{RawComment, RawTag};
use crate::notation::san::{SanError, SanPlus};
use crate::types::Color;

/// Whether to skip what follows: returned by [`Visitor::end_tags`] (the whole movetext) and
/// [`Visitor::begin_variation`] (that variation).
///
/// ```
/// use chessbits::pgn::Skip;
/// assert!(Skip(true).0);
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub struct Skip(pub bool);

/// A Numeric Annotation Glyph: `$1`, or `!` (1), `?` (2), `!!` (3), `??` (4), `!?` (5), `?!` (6).
///
/// ```
/// use chessbits::pgn::Nag;
/// assert_eq!(Nag::from_symbol(b"!?"), Some(Nag::SPECULATIVE));
/// assert_eq!(Nag(5).to_string(), "$5");
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Nag(pub u8);

impl Nag {
    /// `!` — a good move.
    pub const GOOD: Nag = Nag(1);
    /// `?` — a mistake.
    pub const MISTAKE: Nag = Nag(2);
    /// `!!` — a brilliant move.
    pub const BRILLIANT: Nag = Nag(3);
    /// `??` — a blunder.
    pub const BLUNDER: Nag = Nag(4);
    /// `!?` — a speculative move.
    pub const SPECULATIVE: Nag = Nag(5);
    /// `?!` — a dubious move.
    pub const DUBIOUS: Nag = Nag(6);

    /// The NAG of a move-quality symbol (`!`, `?`, `!!`, `??`, `!?`, `?!`).
    ///
    /// ```
    /// use chessbits::pgn::Nag;
    /// assert_eq!(Nag::from_symbol(b"??"), Some(Nag::BLUNDER));
    /// assert_eq!(Nag::from_symbol(b"?!?"), None);
    /// ```
    pub fn from_symbol(symbol: &[u8]) -> Option<Nag> {
        Some(match symbol {
            b"!" => Nag::GOOD,
            b"?" => Nag::MISTAKE,
            b"!!" => Nag::BRILLIANT,
            b"??" => Nag::BLUNDER,
            b"!?" => Nag::SPECULATIVE,
            b"?!" => Nag::DUBIOUS,
            _ => return None,
        })
    }

    /// The NAG of an evaluation glyph some programs write instead of `$n`: `=` (10), `∞` (13),
    /// `+=`/`⩲` (14), `=+`/`⩱` (15), `+/-`/`±` (16), `-/+`/`∓` (17), `+-` (18), `-+` (19),
    /// `□` (7).
    ///
    /// ```
    /// use chessbits::pgn::Nag;
    /// assert_eq!(Nag::from_glyph("±".as_bytes()), Some(Nag(16)));
    /// assert_eq!(Nag::from_glyph(b"+-"), Some(Nag(18)));
    /// ```
    pub fn from_glyph(glyph: &[u8]) -> Option<Nag> {
        let code = match glyph {
            b"=" => 10,
            b"+=" => 14,
            b"=+" => 15,
            b"+/-" => 16,
            b"-/+" => 17,
            b"+-" => 18,
            b"-+" => 19,
            _ => match core::str::from_utf8(glyph) {
                Ok("□") => 7,
                Ok("∞") => 13,
                Ok("⩲") => 14,
                Ok("⩱") => 15,
                Ok("±") => 16,
                Ok("∓") => 17,
                _ => return None,
            },
        };
        Some(Nag(code))
    }
}

impl fmt::Display for Nag {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "${}", self.0)
    }
}

/// The result of a game: `1-0`, `0-1`, `1/2-1/2`, or `*` (unknown, ongoing, abandoned).
///
/// The one result type of the library: [`GameTree::result`](super::GameTree::result),
/// [`MainLineGame::result`](super::MainLineGame::result) and
/// [`GameSummary::result`](super::GameSummary::result) hold it (`Unknown` when the movetext
/// ended with `*` or with no result token), and [`Outcome::result`](crate::game::Outcome::result)
/// gives it for a game the rules ended. It is also `chessbits::game::GameResult`.
///
/// ```
/// use chessbits::pgn::GameResult;
/// use chessbits::types::Color;
/// assert_eq!(GameResult::from_bytes(b"1/2-1/2"), Some(GameResult::Draw));
/// assert_eq!(GameResult::WhiteWins.as_str(), "1-0");
/// assert_eq!(GameResult::BlackWins.winner(), Some(Color::Black));
/// assert!(!GameResult::Unknown.is_known());
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub enum GameResult {
    /// `1-0`
    WhiteWins,
    /// `0-1`
    BlackWins,
    /// `1/2-1/2`
    Draw,
    /// `*`
    #[default]
    Unknown,
}

impl GameResult {
    /// Parses a result token (`½-½` and `1/2` count as draws).
    ///
    /// ```
    /// use chessbits::pgn::GameResult;
    /// assert_eq!(GameResult::from_bytes(b"*"), Some(GameResult::Unknown));
    /// assert_eq!(GameResult::from_bytes(b"1-1"), None);
    /// ```
    pub fn from_bytes(bytes: &[u8]) -> Option<GameResult> {
        match bytes {
            b"1-0" => Some(GameResult::WhiteWins),
            b"0-1" => Some(GameResult::BlackWins),
            b"1/2-1/2" | b"1/2" | [0xc2, 0xbd, b'-', 0xc2, 0xbd] => Some(GameResult::Draw),
            b"*" => Some(GameResult::Unknown),
            _ => None,
        }
    }

    /// The result a winner (`None`: a draw) gives.
    ///
    /// ```
    /// use chessbits::pgn::GameResult;
    /// use chessbits::types::Color;
    /// assert_eq!(GameResult::from_winner(Some(Color::White)), GameResult::WhiteWins);
    /// assert_eq!(GameResult::from_winner(None), GameResult::Draw);
    /// ```
    pub const fn from_winner(winner: Option<Color>) -> GameResult {
        match winner {
            Some(Color::White) => GameResult::WhiteWins,
            Some(Color::Black) => GameResult::BlackWins,
            None => GameResult::Draw,
        }
    }

    /// The winner of a decisive result; `None` for a draw and for `*`.
    ///
    /// ```
    /// use chessbits::pgn::GameResult;
    /// use chessbits::types::Color;
    /// assert_eq!(GameResult::WhiteWins.winner(), Some(Color::White));
    /// assert_eq!(GameResult::Draw.winner(), None);
    /// assert_eq!(GameResult::Unknown.winner(), None);
    /// ```
    pub const fn winner(self) -> Option<Color> {
        match self {
            GameResult::WhiteWins => Some(Color::White),
            GameResult::BlackWins => Some(Color::Black),
            GameResult::Draw | GameResult::Unknown => None,
        }
    }

    /// Whether the result is `1-0`, `0-1` or `1/2-1/2` (not `*`).
    ///
    /// ```
    /// use chessbits::pgn::GameResult;
    /// assert!(GameResult::Draw.is_known());
    /// assert!(!GameResult::Unknown.is_known());
    /// ```
    pub const fn is_known(self) -> bool {
        !matches!(self, GameResult::Unknown)
    }

    /// The PGN token.
    ///
    /// ```
    /// use chessbits::pgn::GameResult;
    /// assert_eq!(GameResult::Unknown.as_str(), "*");
    /// ```
    pub const fn as_str(self) -> &'static str {
        match self {
            GameResult::WhiteWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
            GameResult::Unknown => "*",
        }
    }

    /// The result a game declares, from its movetext's result `token` and its `Result` tag's
    /// value: the token, else (for `*` or none) the tag's, else `Unknown`. The one rule of the
    /// library: [`GameTree::declared_result`](super::GameTree::declared_result) and the position
    /// index use it.
    ///
    /// ```
    /// use chessbits::pgn::GameResult;
    /// assert_eq!(GameResult::declared(GameResult::Draw, Some("1-0")), GameResult::Draw);
    /// assert_eq!(GameResult::declared(GameResult::Unknown, Some(" 0-1 ")), GameResult::BlackWins);
    /// assert_eq!(GameResult::declared(GameResult::Unknown, Some("?")), GameResult::Unknown);
    /// ```
    pub fn declared(token: GameResult, tag: Option<&str>) -> GameResult {
        if token.is_known() {
            return token;
        }
        tag.and_then(|v| GameResult::from_bytes(v.trim().as_bytes()))
            .unwrap_or(GameResult::Unknown)
    }
}

impl fmt::Display for GameResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A move token of the movetext, already parsed leniently.
///
/// ```
/// use chessbits::pgn::SanToken;
/// use chessbits::notation::san::San;
/// let token = SanToken { san: San::parse_lenient(b"Nf3!"), text: b"Nf3", line: 7 };
/// assert!(token.san.is_ok());
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct SanToken<'a> {
    /// The move, or why the token is not one.
    pub san: Result<SanPlus, SanError>,
    /// The token's bytes, as written.
    pub text: &'a [u8],
    /// The 1-based line the token is on.
    pub line: u32,
}

/// Receives the events of one game at a time from a [`PgnReader`](super::PgnReader).
///
/// Every method but [`Visitor::end_game`] has a default that ignores the event. Bytes are
/// borrowed from the reader's buffer: copy what you keep. `line` is the 1-based line the token
/// starts on.
///
/// ```
/// use chessbits::pgn::{PgnReader, SanToken, Visitor};
///
/// /// Counts the moves of the main line of each game.
/// struct MoveCounter(usize);
///
/// impl Visitor for MoveCounter {
///     type Output = usize;
///     fn begin_game(&mut self) {
///         self.0 = 0;
///     }
///     fn begin_variation(&mut self, _line: u32) -> chessbits::pgn::Skip {
///         chessbits::pgn::Skip(true)
///     }
///     fn san(&mut self, _token: SanToken<'_>) {
///         self.0 += 1;
///     }
///     fn end_game(&mut self) -> usize {
///         self.0
///     }
/// }
///
/// let pgn = b"1. e4 e5 (1... c5 2. Nf3) 2. Nf3 *\n\n1. d4 *";
/// let mut reader = PgnReader::new(&pgn[..]);
/// let mut counter = MoveCounter(0);
/// assert_eq!(reader.read_game(&mut counter).unwrap(), Some(3));
/// assert_eq!(reader.read_game(&mut counter).unwrap(), Some(1));
/// assert_eq!(reader.read_game(&mut counter).unwrap(), None);
/// ```
pub trait Visitor {
    /// What [`Visitor::end_game`] returns for each game.
    type Output;

    /// A game starts.
    fn begin_game(&mut self) {}

    /// A tag pair `[Name "value"]`.
    fn tag(&mut self, _name: &[u8], _value: RawTag<'_>, _line: u32) {}

    /// The tag section is over; `Skip(true)` skips the whole movetext.
    fn end_tags(&mut self) -> Skip {
        Skip(false)
    }

    /// A move token.
    fn san(&mut self, _token: SanToken<'_>) {}

    /// A NAG after a move.
    fn nag(&mut self, _nag: Nag, _line: u32) {}

    /// A comment, `{...}` or `; ...`.
    fn comment(&mut self, _comment: RawComment<'_>, _line: u32) {}

    /// `(`: a variation starts, an alternative to the last move; `Skip(true)` skips it.
    fn begin_variation(&mut self, _line: u32) -> Skip {
        Skip(false)
    }

    /// `)`: the variation ends (only called for variations that were begun and not skipped).
    fn end_variation(&mut self, _line: u32) {}

    /// A problem with the text of the game at `line` (see [`SyntaxError`]); the reader goes on
    /// and the game ends where it would have. The default ignores it: a visitor that reports
    /// errors should not.
    fn syntax_error(&mut self, _error: SyntaxError, _line: u32) {}

    /// The result token that ends the movetext (not called if the game ends without one).
    fn result(&mut self, _result: GameResult, _line: u32) {}

    /// The game is over; returns what the reader's [`read_game`](super::PgnReader::read_game)
    /// returns.
    fn end_game(&mut self) -> Self::Output;
}
