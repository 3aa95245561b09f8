//! A game's PGN rebuilt from its row's columns, without `movetext` (see the [crate
//! documentation](crate#pgn-from-a-row) for the rules).

use core::cell::RefCell;
use core::fmt;

use chessbits::moves::Move;
use chessbits::notation::san::san_of;
use chessbits::pgn::{Comment, GameResult, GameTree, Line, Node, Tag};
use chessbits::position::{Position, Validation};

use crate::moves_code::MovesCode;
use crate::row::GameRow;

mod text;

use text::{put_clock, put_date, put_eval, put_rating_diff, put_raw_tag, put_time, Scratch};

/// The canonical order of tags (the lichess database's): a tag's rank is its place here, a tag
/// not named here has none.
pub const TAG_ORDER: [&str; 19] = [
    "Event",
    "Site",
    "Date",
    "Round",
    "White",
    "Black",
    "Result",
    "UTCDate",
    "UTCTime",
    "WhiteElo",
    "BlackElo",
    "WhiteRatingDiff",
    "BlackRatingDiff",
    "WhiteTitle",
    "BlackTitle",
    "ECO",
    "Opening",
    "TimeControl",
    "Termination",
];

/// Why a row's game cannot be rebuilt.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RebuildError {
    /// `moves` is null: the main line holds a null move (`--`), which the move codes cannot
    /// hold; only `movetext` has it.
    NullMove,
    /// `plies` is negative.
    Plies(i32),
    /// `start_fen` is not a position the reader accepts.
    StartFen {
        /// The column's value.
        fen: String,
        /// What is wrong with it.
        reason: String,
    },
    /// `annotations` holds a game the PGN reader does not read (only
    /// [`to_game_tree`](GameRow::to_game_tree) reads it).
    Annotations {
        /// The reader's error.
        reason: String,
    },
    /// `moves` does not decode in its code from the start position.
    Moves {
        /// The code it was decoded in.
        code: MovesCode,
        /// What went wrong.
        reason: String,
    },
}

impl fmt::Display for RebuildError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RebuildError::NullMove => write!(
                f,
                "`moves` is null (a null move in the main line): only `movetext` holds the game"
            ),
            RebuildError::Plies(plies) => write!(f, "a negative `plies` ({plies})"),
            RebuildError::StartFen { fen, reason } => write!(f, "start_fen '{fen}': {reason}"),
            RebuildError::Moves { code, reason } => write!(f, "moves ({code}): {reason}"),
            RebuildError::Annotations { reason } => write!(f, "annotations: {reason}"),
        }
    }
}

impl std::error::Error for RebuildError {}

/// The start position of a row: `start_fen` (read as the PGN reader reads a `[FEN]`: a composed
/// position is allowed), else the standard one; Chess960 when `variant` (the row's last
/// `Variant` tag) names it (`Chess960`, `Fischerandom`, `freestyle`, ...).
///
/// ```
/// use chessbits_parquet::start_position;
/// let pos = start_position(Some("4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1"), Some("Chess960")).unwrap();
/// assert!(pos.is_chess960());
/// assert!(start_position(Some("8/8/8 w - -"), None).is_err());
/// ```
pub fn start_position(start_fen: Option<&str>, variant: Option<&str>) -> Result<Position, RebuildError> {
    let mut start = match start_fen {
        Some(fen) => Position::from_fen_with(fen, Validation::Composed).map_err(|e| RebuildError::StartFen {
            fen: fen.to_string(),
            reason: e.to_string(),
        })?,
        None => Position::startpos(),
    };
    if variant.is_some_and(chessbits::pgn::is_chess960_variant) {
        start.set_chess960(true);
    }
    Ok(start)
}

/// A clock in whole seconds as lichess writes it: `h:mm:ss`.
///
/// ```
/// assert_eq!(chessbits_parquet::clock_text(3723), "1:02:03");
/// assert_eq!(chessbits_parquet::clock_text(59), "0:00:59");
/// ```
pub fn clock_text(seconds: i32) -> String {
    let mut out = String::new();
    put_clock(&mut out, seconds);
    out
}

/// An `evals` value as lichess writes it: a mate as `#n` / `#-n`, else pawns with up to two
/// decimals, trailing zeros dropped but one (`0.5`, `-0.09`, `8.0`).
///
/// ```
/// use chessbits_parquet::{eval_text, mate_score, MATE_BASE};
/// assert_eq!(eval_text(17), "0.17");
/// assert_eq!(eval_text(-150), "-1.5");
/// assert_eq!(eval_text(800), "8.0");
/// assert_eq!(eval_text(-9), "-0.09");
/// assert_eq!(eval_text(mate_score(-2)), "#-2");
/// assert_eq!(eval_text(-MATE_BASE), "#-0");
/// ```
pub fn eval_text(value: i32) -> String {
    let mut out = String::new();
    put_eval(&mut out, value);
    out
}

impl GameRow {
    /// The row's tags in the order the rebuild writes them (see the [crate
    /// documentation](crate#pgn-from-a-row)): the tag columns that are not null and
    /// `other_tags`, merged by [`TAG_ORDER`]; a value read as Latin-1 (`latin1_fields`) is
    /// written back as its Latin-1 bytes.
    ///
    /// ```
    /// use chessbits_parquet::GameRow;
    /// let row = GameRow {
    ///     white: Some("Ann".into()),
    ///     white_elo: Some(1500),
    ///     event: Some("Rated".into()),
    ///     other_tags: vec![("Date".into(), "2024.01.02".into()), ("Annotator".into(), "me".into())],
    ///     ..GameRow::default()
    /// };
    /// let names: Vec<String> = row.tags().iter().map(|t| String::from_utf8_lossy(t.name()).into_owned()).collect();
    /// assert_eq!(names, ["Event", "Date", "White", "WhiteElo", "Annotator"]);
    /// ```
    pub fn tags(&self) -> Vec<Tag> {
        let latin1 = |field: &str| self.non_utf8 && self.latin1_fields.iter().any(|f| f == field);
        let tag = |name: &str, value: &str, name_latin1: bool, value_latin1: bool| {
            if !name_latin1 && !value_latin1 {
                return Tag::new(name, value);
            }
            let bytes = |s: &str, as_latin1: bool| -> Vec<u8> {
                match as_latin1 {
                    // Every char is U+0000..U+00FF: its byte.
                    true => s.chars().map(|c| c as u32 as u8).collect(),
                    false => s.as_bytes().to_vec(),
                }
            };
            let mut raw = Vec::with_capacity(value.len());
            for b in bytes(value, value_latin1) {
                if b == b'"' || b == b'\\' {
                    raw.push(b'\\');
                }
                raw.push(b);
            }
            Tag::from_raw(&bytes(name, name_latin1), &raw)
        };
        // The columns that are not null, in `TAG_ORDER`.
        let mut columns: Vec<(usize, Tag)> = Vec::new();
        for (rank, name) in TAG_ORDER.iter().enumerate() {
            let value = match *name {
                "WhiteElo" => self.white_elo.map(|v| v.to_string()),
                "BlackElo" => self.black_elo.map(|v| v.to_string()),
                "WhiteRatingDiff" => self.white_rating_diff.map(rating_diff),
                "BlackRatingDiff" => self.black_rating_diff.map(rating_diff),
                "UTCDate" => self.utc_date.map(date_text),
                "UTCTime" => self.utc_time.map(time_text),
                _ => self.text_column(name).map(str::to_string),
            };
            if let Some(value) = value {
                columns.push((rank, tag(name, &value, false, latin1(name))));
            }
        }
        // `other_tags` with their ranks; one without a rank takes the rank of the next one
        // that has one (it stays among the tags around it), or comes last.
        let rank_of = |name: &str| TAG_ORDER.iter().position(|n| *n == name);
        let mut others: Vec<(usize, Tag)> = Vec::with_capacity(self.other_tags.len());
        let mut next_rank = usize::MAX;
        for (i, (name, value)) in self.other_tags.iter().enumerate().rev() {
            next_rank = rank_of(name).unwrap_or(next_rank);
            // Named only when the row has Latin-1 strings: no name formatted for the others.
            let t = tag(
                name,
                value,
                self.non_utf8 && latin1(&format!("other_tags[{i}].key")),
                self.non_utf8 && latin1(&format!("other_tags[{i}].value")),
            );
            others.push((next_rank, t));
        }
        others.reverse();
        // A stable merge: each list keeps its order; on equal ranks the column comes first (a
        // column holds the first tag of its name, `other_tags` the ones after).
        let mut tags = Vec::with_capacity(columns.len() + others.len());
        let (mut columns, mut others) = (columns.into_iter().peekable(), others.into_iter().peekable());
        loop {
            let take_column = match (columns.peek(), others.peek()) {
                (Some((c, _)), Some((o, _))) => c <= o,
                (Some(_), None) => true,
                (None, Some(_)) => false,
                (None, None) => break,
            };
            let next = if take_column { columns.next() } else { others.next() };
            tags.extend(next.map(|(_, t)| t));
        }
        tags
    }

    /// The result written after the moves: the `Result` column when it is `1-0`, `0-1` or
    /// `1/2-1/2`, else `*`.
    pub fn result_token(&self) -> GameResult {
        let tag = self.result.as_deref().map(str::trim);
        tag.and_then(|v| GameResult::from_bytes(v.as_bytes()))
            .unwrap_or(GameResult::Unknown)
    }

    /// The row's start position and main line, decoded from `moves` in `code` (the start from
    /// `start_fen` and a `Variant` tag).
    pub(crate) fn main_line(&self, code: MovesCode) -> Result<(Position, Vec<Move>), RebuildError> {
        let plies = usize::try_from(self.plies).map_err(|_| RebuildError::Plies(self.plies))?;
        let variant = self.other_tags.iter().rev().find(|(n, _)| n == "Variant");
        let start = start_position(self.start_fen.as_deref(), variant.map(|(_, v)| v.as_str()))?;
        let bytes = self.moves.as_deref().ok_or(RebuildError::NullMove)?;
        let moves = code
            .decode(&start, bytes, plies)
            .map_err(|reason| RebuildError::Moves { code, reason })?;
        Ok((start, moves))
    }

    /// The row's game rebuilt from its columns, `movetext` left unread: [`tags`](Self::tags),
    /// the start position ([`start_position`] of `start_fen` and the last `Variant` of
    /// `other_tags`; a `start_fen` with no `FEN` in `other_tags` adds `SetUp "1"` and `FEN`), the
    /// main line decoded from `moves` in `code`, after each move a comment
    /// ` [%eval E] [%clk C] ` with what `evals` and `clocks` hold for it (either, both, or no
    /// comment), and [`result_token`](Self::result_token). A row whose `annotations` is not
    /// null gives the game [`to_pgn`](Self::to_pgn) writes from them, parsed
    /// ([`RebuildError::Annotations`] if it does not parse).
    ///
    /// ```
    /// use chessbits::pgn::PgnReader;
    /// use chessbits_parquet::{GameRow, MovesCode};
    /// let pgn = b"[White \"Ann\"]\n[Result \"1-0\"]\n\n1. e4 { [%eval 0.3] [%clk 0:03:00] } e5 1-0";
    /// let game = PgnReader::new(&pgn[..]).read_owned_game().unwrap().unwrap().unwrap();
    /// let row = GameRow::from_game(&game, chessbits_parquet::movetext(pgn));
    /// // `1... e5` is how the writer numbers a move after a comment: the same game.
    /// assert_eq!(row.annotations, None);
    /// let text = String::from_utf8(row.to_pgn(MovesCode::default()).unwrap()).unwrap();
    /// assert_eq!(text, "[White \"Ann\"]\n[Result \"1-0\"]\n\n1. e4 { [%eval 0.3] [%clk 0:03:00] } 1... e5 1-0\n\n");
    /// ```
    pub fn to_game_tree(&self, code: MovesCode) -> Result<GameTree, RebuildError> {
        if self.annotations.is_some() {
            let text = self.to_pgn(code)?;
            return GameTree::from_pgn(&text).map_err(|e| RebuildError::Annotations { reason: e.to_string() });
        }
        let (start, moves) = self.main_line(code)?;
        let tags = self.pgn_tags();
        let mut line = Line::default();
        let mut pos = start.clone();
        let mut comment = String::new();
        for (ply, &m) in moves.iter().enumerate() {
            let mut node = Node::new(m, san_of(&pos, m));
            pos.play_unchecked(m);
            self.write_ply_comment(ply, &mut comment);
            if !comment.is_empty() {
                node.comments_after.push(Comment::from(comment.as_str()));
            }
            line.nodes.push(node);
        }
        let mut tree = GameTree::new(start);
        tree.tags = tags;
        tree.moves = line;
        tree.result = self.result_token();
        Ok(tree)
    }

    /// [`tags`](Self::tags), and `SetUp "1"` and `FEN` when `start_fen` is set but `other_tags`
    /// has no `FEN`.
    pub(crate) fn pgn_tags(&self) -> Vec<Tag> {
        let mut tags = self.tags();
        if let Some(fen) = &self.start_fen {
            if !self.other_tags.iter().any(|(n, _)| n == "FEN") {
                tags.push(Tag::new("SetUp", "1"));
                tags.push(Tag::new("FEN", fen));
            }
        }
        tags
    }

    /// The game as PGN from its tags (as [`to_game_tree`](Self::to_game_tree) has them) and
    /// `movetext` (the row's `movetext` column, written back as Latin-1 bytes when
    /// `latin1_fields` names it): the only way to a game whose `moves` is null.
    ///
    /// ```
    /// use chessbits_parquet::GameRow;
    /// let row = GameRow { white: Some("Ann".into()), ..GameRow::default() };
    /// assert_eq!(row.to_pgn_with_movetext("1. e4 -- 2. d4 *"), b"[White \"Ann\"]\n\n1. e4 -- 2. d4 *\n\n");
    /// ```
    pub fn to_pgn_with_movetext(&self, movetext: &str) -> Vec<u8> {
        self.to_pgn_with_text(movetext, "movetext")
    }

    /// The row's tags, a blank line and `text`, the value of the column `field` (written back
    /// as Latin-1 bytes when `latin1_fields` names it).
    fn to_pgn_with_text(&self, text: &str, field: &str) -> Vec<u8> {
        let mut out = self.pgn_tag_lines();
        self.push_field_text(&mut out, text, field);
        out.extend_from_slice(b"\n\n");
        out
    }

    /// The row's tags as PGN tag lines and a blank line after them (nothing when it has none).
    fn pgn_tag_lines(&self) -> Vec<u8> {
        let mut out = Vec::new();
        for tag in self.pgn_tags() {
            put_raw_tag(&mut out, tag.name(), tag.raw_value());
        }
        if !out.is_empty() {
            out.push(b'\n');
        }
        out
    }

    /// Appends `text`, the value of the column `field`: its UTF-8 bytes, or its characters as
    /// bytes when `latin1_fields` names the field.
    fn push_field_text(&self, out: &mut Vec<u8>, text: &str, field: &str) {
        if self.non_utf8 && self.latin1_fields.iter().any(|f| f == field) {
            // Every char is U+0000..U+00FF: its byte.
            out.extend(text.chars().map(|c| c as u32 as u8));
        } else {
            out.extend_from_slice(text.as_bytes());
        }
    }

    /// The game of a row whose `annotations` is not null: the whole game it holds (when it
    /// starts with `[`), else the row's tags and the movetext it holds.
    /// Its clock and eval comments (left out of `annotations`, see the [crate
    /// documentation](crate#annotations)) come back from `clocks` and `evals`.
    fn to_pgn_with_annotations(&self, annotations: &str, code: MovesCode) -> Result<Vec<u8>, RebuildError> {
        let mut stripped = Vec::with_capacity(annotations.len());
        self.push_field_text(&mut stripped, annotations, "annotations");
        let text = self.expand_ply_comments(&stripped, code)?;
        if !annotations.starts_with('[') {
            let mut out = self.pgn_tag_lines();
            out.extend_from_slice(&text);
            out.extend_from_slice(b"\n\n");
            return Ok(out);
        }
        let mut out = text;
        out.extend_from_slice(b"\n\n");
        Ok(out)
    }

    /// The row's game as PGN: when `annotations` is not null, from it (the whole game it holds,
    /// or the row's tags and the movetext it holds); else [`to_game_tree`](Self::to_game_tree)
    /// written as PGN ([`GameTree::write_pgn`] with the default options: export format, lines
    /// of at most 80 columns, a blank line after).
    pub fn to_pgn(&self, code: MovesCode) -> Result<Vec<u8>, RebuildError> {
        let mut out = Vec::new();
        self.write_pgn(code, &mut out)?;
        Ok(out)
    }

    /// [`to_pgn`](Self::to_pgn) appended to `out` (which keeps its allocation from game to game;
    /// on an error it is left as it was). A row without `annotations` is written straight
    /// into `out`, the moves decoded with buffers each thread reuses, its SAN written as it is
    /// played: no [`GameTree`] is built.
    ///
    /// ```
    /// use chessbits::pgn::PgnReader;
    /// use chessbits_parquet::{GameRow, MovesCode};
    /// let pgn = b"[White \"Ann\"]\n[Result \"0-1\"]\n\n1. f3 { [%clk 0:03:00] } e5 2. g4 Qh4# 0-1";
    /// let game = PgnReader::new(&pgn[..]).read_owned_game().unwrap().unwrap().unwrap();
    /// let row = GameRow::from_game(&game, chessbits_parquet::movetext(pgn));
    /// // Written from the columns alone.
    /// assert_eq!(row.annotations, None);
    /// let mut out = b"before\n".to_vec();
    /// row.write_pgn(MovesCode::default(), &mut out).unwrap();
    /// assert_eq!(out, [&b"before\n"[..], &row.to_game_tree(MovesCode::default()).unwrap().to_pgn()].concat());
    /// ```
    pub fn write_pgn(&self, code: MovesCode, out: &mut Vec<u8>) -> Result<(), RebuildError> {
        if let Some(annotations) = &self.annotations {
            out.extend_from_slice(&self.to_pgn_with_annotations(annotations, code)?);
            return Ok(());
        }
        thread_local! {
            static SCRATCH: RefCell<Scratch> = RefCell::new(Scratch::default());
        }
        SCRATCH.with(|scratch| match scratch.try_borrow_mut() {
            Ok(mut scratch) => self.put_pgn(code, out, &mut scratch),
            // Not reached (nothing in `put_pgn` writes another game), but not a panic either.
            Err(_) => self.put_pgn(code, out, &mut Scratch::default()),
        })
    }
}

/// Seconds since midnight as `hh:mm:ss`, zero-padded.
pub(crate) fn time_text(s: i32) -> String {
    let mut out = String::new();
    put_time(&mut out, s);
    out
}

/// A rating difference as lichess writes it: `+11`, `-4`, `+0`.
pub(crate) fn rating_diff(v: i16) -> String {
    let mut out = String::new();
    put_rating_diff(&mut out, v);
    out
}

/// Days since 1970-01-01 as `YYYY.MM.DD` (proleptic Gregorian; Howard Hinnant's
/// civil_from_days): how a `UTCDate` column's value comes back as the tag's text.
///
/// ```
/// assert_eq!(chessbits_parquet::date_text(0), "1970.01.01");
/// assert_eq!(chessbits_parquet::date_text(19_782), "2024.02.29");
/// ```
pub fn date_text(days: i32) -> String {
    let mut out = String::new();
    put_date(&mut out, days);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::row::MATE_BASE;

    #[test]
    fn dates_and_diffs() {
        assert_eq!(date_text(0), "1970.01.01");
        assert_eq!(date_text(19_782), "2024.02.29");
        assert_eq!(date_text(-1), "1969.12.31");
        assert_eq!(
            (rating_diff(0), rating_diff(7), rating_diff(-3)),
            ("+0".into(), "+7".into(), "-3".into())
        );
        assert_eq!(eval_text(0), "0.0");
        assert_eq!(eval_text(5), "0.05");
        assert_eq!(eval_text(99_000), "990.0");
        assert_eq!(eval_text(MATE_BASE), "#0");
        assert_eq!(eval_text(i32::MIN), "#-0");
    }
}
