//! The owned game: tags, start position, the tree of moves with comments, NAGs and variations,
//! and the result.

use core::fmt;
use std::borrow::Cow;

use super::syntax::SyntaxError;
use super::text::{Comment, Tag};
use super::visitor::{GameResult, Nag};
use crate::game::{play_line_move, position_at, Positions};
use crate::moves::Move;
use crate::notation::fen::FenError;
use crate::notation::san::{SanError, SanPlus};
use crate::position::{Position, Validation};

/// The Seven Tag Roster, in export order, with the default value of each.
///
/// ```
/// use chessbits::pgn::SEVEN_TAG_ROSTER;
/// assert_eq!(SEVEN_TAG_ROSTER[0], ("Event", "?"));
/// assert_eq!(SEVEN_TAG_ROSTER[6], ("Result", "*"));
/// ```
pub const SEVEN_TAG_ROSTER: [(&str, &str); 7] = [
    ("Event", "?"),
    ("Site", "?"),
    ("Date", "????.??.??"),
    ("Round", "?"),
    ("White", "?"),
    ("Black", "?"),
    ("Result", "*"),
];

/// One move of a line, with what the file says around it.
///
/// ```
/// use chessbits::pgn::{Nag, GameTree};
/// let pgn = b"1. {start} e4!? {best by test} (1. d4) *";
/// let game = GameTree::from_pgn(&pgn[..]).unwrap();
/// let e4 = &game.moves.nodes[0];
/// assert_eq!(e4.san.to_string(), "e4");
/// assert_eq!(e4.comments_before, ["start"]);
/// assert_eq!(e4.nags, [Nag::SPECULATIVE]);
/// assert_eq!(e4.comments_after, ["best by test"]);
/// assert_eq!(e4.variations[0].nodes[0].san.to_string(), "d4");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Node {
    /// The move ([`Move::NULL`] for a null move).
    pub mv: Move,
    /// Its SAN, as [`san_of`](crate::notation::san::san_of) writes it (whatever the file had).
    pub san: SanPlus,
    /// Comments before the move: at the start of a line, or after a variation.
    pub comments_before: Vec<Comment>,
    /// NAGs after the move.
    pub nags: Vec<Nag>,
    /// Comments after the move.
    pub comments_after: Vec<Comment>,
    /// Alternatives to this move, each starting from the position before it.
    pub variations: Vec<Line>,
}

impl Node {
    /// A node with no annotations.
    ///
    /// ```
    /// use chessbits::pgn::Node;
    /// use chessbits::moves::Move;
    /// use chessbits::notation::san::{SanPlus, San};
    /// let node = Node::new(Move::NULL, SanPlus { san: San::Null, suffix: None });
    /// assert!(node.variations.is_empty());
    /// ```
    pub fn new(mv: Move, san: SanPlus) -> Node {
        Node {
            mv,
            san,
            comments_before: Vec::new(),
            nags: Vec::new(),
            comments_after: Vec::new(),
            variations: Vec::new(),
        }
    }
}

/// A sequence of moves: the main line of a game, or a variation.
///
/// ```
/// use chessbits::pgn::Line;
/// assert!(Line::default().nodes.is_empty());
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Line {
    /// The moves.
    pub nodes: Vec<Node>,
    /// Comments of a line that has no moves (`{only a comment} *`); a line with moves keeps
    /// its comments on them.
    pub comments: Vec<Comment>,
}

/// A game read from PGN (or built by hand).
///
/// Tags are kept as the file had them: every tag, in the file's order, its name and value
/// byte for byte ([`Tag`]); nothing is added. The start position is the standard one, or the
/// `[FEN]`; `[Variant "Chess960"]` marks it Chess960. Comments keep their bytes too
/// ([`Comment`]).
///
/// ```
/// use chessbits::pgn::{GameTree, GameResult};
/// let pgn = b"[White \"Morphy\"]\n[Black \"Allies\"]\n[Opening \"Philidor\"]\n\n1. e4 e5 1-0";
/// let game = GameTree::from_pgn(&pgn[..]).unwrap();
/// assert_eq!(game.tags.len(), 3);
/// assert_eq!(game.tag("White").as_deref(), Some("Morphy"));
/// assert_eq!(game.tags[2].name(), b"Opening");
/// assert_eq!(game.result, GameResult::WhiteWins);
/// assert_eq!(game.mainline().count(), 2);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameTree {
    /// Tag pairs, in the order of the file.
    pub tags: Vec<Tag>,
    /// The position before the first move.
    pub start: Position,
    /// The main line.
    pub moves: Line,
    /// The result token that ends the movetext: [`GameResult::Unknown`] for `*` or none (the
    /// writer writes `*` then). [`GameTree::declared_result`] falls back to the `Result` tag.
    pub result: GameResult,
}

impl Default for GameTree {
    fn default() -> GameTree {
        GameTree::new(Position::startpos())
    }
}

impl GameTree {
    /// An empty game from `start`, with the Seven Tag Roster's defaults, result `*`.
    ///
    /// ```
    /// use chessbits::pgn::GameTree;
    /// use chessbits::position::Position;
    /// let game = GameTree::new(Position::startpos());
    /// assert_eq!(game.tags.len(), 7);
    /// assert_eq!(game.tag("Date").as_deref(), Some("????.??.??"));
    /// ```
    pub fn new(start: Position) -> GameTree {
        GameTree {
            tags: SEVEN_TAG_ROSTER.iter().map(|(n, v)| Tag::new(n, v)).collect(),
            start,
            moves: Line::default(),
            result: GameResult::Unknown,
        }
    }

    /// The value of the first tag called `name` (unescaped, decoded: see [`Tag::value`]).
    ///
    /// ```
    /// use chessbits::pgn::GameTree;
    /// assert_eq!(GameTree::default().tag("Site").as_deref(), Some("?"));
    /// assert_eq!(GameTree::default().tag("ECO"), None);
    /// ```
    pub fn tag(&self, name: &str) -> Option<Cow<'_, str>> {
        self.tags.iter().find(|t| t.is_named(name)).map(Tag::value)
    }

    /// Sets the first tag called `name`, or appends it.
    ///
    /// ```
    /// use chessbits::pgn::GameTree;
    /// let mut game = GameTree::default();
    /// game.set_tag("White", "Anderssen");
    /// game.set_tag("ECO", "C52");
    /// assert_eq!(game.tag("White").as_deref(), Some("Anderssen"));
    /// assert_eq!(game.tags.last().unwrap().value(), "C52");
    /// ```
    pub fn set_tag(&mut self, name: &str, value: &str) {
        let tag = Tag::new(name, value);
        match self.tags.iter_mut().find(|t| t.is_named(name)) {
            Some(old) => *old = tag,
            None => self.tags.push(tag),
        }
    }

    /// The result the file declares: the movetext's result token, else (for `*` or none) the
    /// `Result` tag's, else [`GameResult::Unknown`]. What the rules say of the final position is
    /// [`GameTree::outcome`].
    ///
    /// ```
    /// use chessbits::pgn::{GameResult, GameTree};
    /// let game = GameTree::from_pgn(&b"[Result \"0-1\"]\n1. e4"[..]).unwrap();
    /// assert_eq!((game.result, game.declared_result()), (GameResult::Unknown, GameResult::BlackWins));
    /// assert_eq!(game.outcome(), None, "Black resigned: the rules did not end the game");
    /// ```
    pub fn declared_result(&self) -> GameResult {
        GameResult::declared(self.result, self.tag("Result").as_deref())
    }

    /// The moves of the main line.
    ///
    /// ```
    /// use chessbits::pgn::GameTree;
    /// let game = GameTree::from_pgn(&b"1. e4 e5 *"[..]).unwrap();
    /// let uci: Vec<String> = game.mainline().map(|m| m.to_string()).collect();
    /// assert_eq!(uci, ["e2e4", "e7e5"]);
    /// ```
    pub fn mainline(&self) -> impl ExactSizeIterator<Item = Move> + '_ {
        self.moves.nodes.iter().map(|node| node.mv)
    }

    /// The position at the end of the main line.
    ///
    /// ```
    /// use chessbits::pgn::GameTree;
    /// let game = GameTree::from_pgn(&b"1. f3 e5 2. g4 Qh4# 0-1"[..]).unwrap();
    /// assert!(game.final_position().is_checkmate());
    /// ```
    pub fn final_position(&self) -> Position {
        let mut pos = self.start.clone();
        for m in self.mainline() {
            play_line_move(&mut pos, m);
        }
        pos
    }

    /// Every position of the main line: the start position first, then the position after each
    /// move (one more than there are moves, the last the [final](GameTree::final_position)
    /// one). A null move (`--`) passes the turn.
    ///
    /// ```
    /// use chessbits::pgn::GameTree;
    /// let game = GameTree::from_pgn(&b"1. e4 e5 2. Nf3 *"[..]).unwrap();
    /// let fens: Vec<String> = game.positions().map(|pos| pos.fen()).collect();
    /// assert_eq!(fens.len(), 4);
    /// assert_eq!(fens[0], game.start.fen());
    /// assert_eq!(fens[2], "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2");
    /// assert_eq!(fens[3], game.final_position().fen());
    /// ```
    pub fn positions(&self) -> impl ExactSizeIterator<Item = Position> + '_ {
        Positions::new(self.start.clone(), self.mainline())
    }

    /// The position after `ply` moves of the main line (0: the start position); `None` past
    /// the end.
    ///
    /// ```
    /// use chessbits::pgn::GameTree;
    /// let game = GameTree::from_pgn(&b"1. d4 d5 2. c4 *"[..]).unwrap();
    /// assert_eq!(game.position_at(0), Some(game.start.clone()));
    /// assert_eq!(game.position_at(3), Some(game.final_position()));
    /// assert_eq!(game.position_at(2).unwrap().fen(), "rnbqkbnr/ppp1pppp/8/3p4/3P4/8/PPP1PPPP/RNBQKBNR w KQkq - 0 2");
    /// assert_eq!(game.position_at(4), None);
    /// ```
    pub fn position_at(&self, ply: usize) -> Option<Position> {
        position_at(&self.start, self.mainline(), ply)
    }
}

/// Why a game could not be read: the 1-based line and what went wrong there.
///
/// ```
/// use chessbits::pgn::PgnReader;
/// let pgn = b"[Event \"x\"]\n\n1. e4 e5\n2. Ke3 *\n";
/// let error = PgnReader::new(&pgn[..]).read_owned_game().unwrap().unwrap().unwrap_err();
/// assert_eq!(error.line, 4);
/// assert_eq!(error.to_string(), "line 4: illegal move 'Ke3'");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameError {
    /// The line of the offending token.
    pub line: u32,
    /// What is wrong.
    pub kind: GameErrorKind,
}

/// What is wrong with a game.
///
/// ```
/// use chessbits::pgn::GameErrorKind;
/// let kind = GameErrorKind::Variant("Crazyhouse".to_string());
/// assert_eq!(kind.to_string(), "unsupported variant 'Crazyhouse'");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum GameErrorKind {
    /// A move token that is malformed, illegal or ambiguous.
    Move {
        /// The token as written (decoded leniently).
        token: String,
        /// Why it is not a move here.
        error: SanError,
    },
    /// A null move while in check.
    NullMoveInCheck,
    /// A `[FEN]` that does not parse or is not a legal position.
    Fen {
        /// The tag value.
        fen: String,
        /// Why.
        error: FenError,
    },
    /// A `[Variant]` other than standard chess or Chess960.
    Variant(String),
    /// A problem with the text of the game: an unclosed comment or variation, a stray
    /// bracket, a malformed tag or NAG, too deep or too long.
    Syntax(SyntaxError),
}

impl fmt::Display for GameErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameErrorKind::Move { token, error } => write!(f, "{error} '{token}'"),
            GameErrorKind::NullMoveInCheck => f.write_str("null move while in check"),
            GameErrorKind::Fen { fen, error } => write!(f, "invalid FEN '{fen}': {error}"),
            GameErrorKind::Variant(variant) => write!(f, "unsupported variant '{variant}'"),
            GameErrorKind::Syntax(error) => error.fmt(f),
        }
    }
}

impl GameError {
    /// Keeps the first error of a game in `slot`, except that a game too long to keep
    /// ([`SyntaxError::GameTooLong`]) is reported as such whatever came before: that is the
    /// error a reader that cuts a file into games sees first.
    pub(crate) fn record(slot: &mut Option<GameError>, error: GameError) {
        if slot.is_none() || error.kind == GameErrorKind::Syntax(SyntaxError::GameTooLong) {
            *slot = Some(error);
        }
    }
}

impl fmt::Display for GameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.kind)
    }
}

impl std::error::Error for GameError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match &self.kind {
            GameErrorKind::Move { error, .. } => Some(error),
            GameErrorKind::Fen { error, .. } => Some(error),
            GameErrorKind::Syntax(error) => Some(error),
            _ => None,
        }
    }
}

/// What the `[Variant]` tag says the game is.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum VariantKind {
    Standard,
    Chess960,
    Unsupported,
}

/// Classifies a `[Variant]` value: standard chess under its usual names, Chess960 under its
/// many spellings (`Chess960`, `chess 960`, `Fischerandom`, `Fischer Random`, `freestyle`, ...).
fn variant_kind(value: &str) -> VariantKind {
    let squeezed: String = value
        .chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .collect();
    match squeezed.as_str() {
        "" | "standard" | "chess" | "normal" | "classical" | "fromposition" | "orthodox" | "international"
        | "westernchess" | "traditional" => VariantKind::Standard,
        s if s.contains("960") || s.contains("fischer") || s.starts_with("freestyle") => VariantKind::Chess960,
        _ => VariantKind::Unsupported,
    }
}

/// Whether a `[Variant]` tag value names Chess960, as the PGN reader reads it (`Chess960`,
/// `chess 960`, `Fischerandom`, `Fischer Random`, `freestyle`, ...: case, spaces and punctuation
/// ignored).
///
/// ```
/// use chessbits::pgn::is_chess960_variant;
/// assert!(is_chess960_variant("Fischer Random"));
/// assert!(is_chess960_variant("chess 960"));
/// assert!(!is_chess960_variant("Standard"));
/// ```
pub fn is_chess960_variant(value: &str) -> bool {
    matches!(variant_kind(value), VariantKind::Chess960)
}

/// The start position the `[FEN]` and `[Variant]` tags (value, line) ask for. A `[FEN]` may set
/// up a composed position (problem collections: more material than promotions give, a check no
/// move gave): it is read with [`Validation::Composed`], every other rule checked.
pub(crate) fn start_position(
    fen: Option<&(String, u32)>,
    variant: Option<&(String, u32)>,
) -> Result<Position, GameError> {
    let mut chess960 = false;
    if let Some((variant, line)) = variant {
        match variant_kind(variant) {
            VariantKind::Standard => {}
            VariantKind::Chess960 => chess960 = true,
            VariantKind::Unsupported => {
                return Err(GameError {
                    line: *line,
                    kind: GameErrorKind::Variant(variant.clone()),
                })
            }
        }
    }
    let mut pos = match fen {
        Some((fen, line)) => {
            Position::from_fen_with(&lenient_fen(fen), Validation::Composed).map_err(|error| GameError {
                line: *line,
                kind: GameErrorKind::Fen {
                    fen: fen.clone(),
                    error,
                },
            })?
        }
        None => Position::startpos(),
    };
    if chess960 {
        pos.set_chess960(true);
    }
    Ok(pos)
}

/// A `[FEN]` value as FEN: trimmed, and with a fullmove number of 0 (common in puzzle
/// collections) read as 1.
fn lenient_fen(fen: &str) -> String {
    let fields: Vec<&str> = fen.split_ascii_whitespace().collect();
    match fields.as_slice() {
        [head @ .., "0"] if fields.len() == 6 => format!("{} 1", head.join(" ")),
        _ => fields.join(" "),
    }
}
