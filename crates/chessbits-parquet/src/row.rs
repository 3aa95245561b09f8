//! One game as one row: [`GameRow`], and the parsing of its tags, movetext, clocks and evals.

use std::borrow::Cow;
use std::cell::RefCell;

use chessbits::moves::Move;
use chessbits::pgn::{
    commands, decode_text, parse_clock, Eval, GameError, GameTree, MainLineGame, MainLineReader, RawGame, RawTag, Score,
};
use chessbits::position::Position;

use crate::MovesCode;

/// The evaluation stored for a mate in `n` is `sign(n) · (MATE_BASE − |n|)`: see [`mate_score`].
pub const MATE_BASE: i32 = 100_000;

/// The `evals` value of "mate in `n`" (`[%eval #n]`; `n > 0`: White mates, `n < 0`: Black
/// mates; `#0` is `MATE_BASE`, `#-0` is `-MATE_BASE`; `|n|` is capped at 999). Any value with
/// `|v| > MATE_BASE − 1000` is a mate, in `MATE_BASE − |v|` moves; centipawn evaluations are
/// clamped to ±(`MATE_BASE` − 1000).
///
/// ```
/// use chessbits_parquet::{mate_score, MATE_BASE};
/// assert_eq!(mate_score(3), 99_997);
/// assert_eq!(mate_score(-1), -99_999);
/// assert_eq!(MATE_BASE - mate_score(3).abs(), 3);
/// ```
pub fn mate_score(n: i32) -> i32 {
    let n = n.clamp(-999, 999);
    if n < 0 {
        -(MATE_BASE + n)
    } else {
        MATE_BASE - n
    }
}

/// The largest centipawn value stored (larger ones are clamped to it).
const MAX_CENTIPAWNS: i32 = MATE_BASE - 1000;

/// One game, as one row of the [schema](crate::schema). Field names follow the columns (see the
/// [crate documentation](crate) for types and null rules).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GameRow {
    /// `Event` tag.
    pub event: Option<String>,
    /// `Site` tag.
    pub site: Option<String>,
    /// `White` tag.
    pub white: Option<String>,
    /// `Black` tag.
    pub black: Option<String>,
    /// `Result` tag.
    pub result: Option<String>,
    /// `WhiteTitle` tag.
    pub white_title: Option<String>,
    /// `BlackTitle` tag.
    pub black_title: Option<String>,
    /// `WhiteElo` tag, if a whole number that fits.
    pub white_elo: Option<i16>,
    /// `BlackElo` tag, if a whole number that fits.
    pub black_elo: Option<i16>,
    /// `WhiteRatingDiff` tag (`+11`, `-9`), if a whole number that fits.
    pub white_rating_diff: Option<i16>,
    /// `BlackRatingDiff` tag, if a whole number that fits.
    pub black_rating_diff: Option<i16>,
    /// `UTCDate` tag, days since 1970-01-01, if a complete valid date.
    pub utc_date: Option<i32>,
    /// `UTCTime` tag, seconds since midnight, if a valid `hh:mm:ss` (the column holds it as the
    /// text `hh:mm:ss`, zero-padded).
    pub utc_time: Option<i32>,
    /// `ECO` tag.
    pub eco: Option<String>,
    /// `Opening` tag.
    pub opening: Option<String>,
    /// `Termination` tag.
    pub termination: Option<String>,
    /// `TimeControl` tag.
    pub time_control: Option<String>,
    /// The movetext as in the file (from the first byte after the tags to the last token).
    pub movetext: String,
    /// What the other columns cannot give back (see the [crate
    /// documentation](crate#annotations)): `None` when they rebuild the game exactly, else the
    /// movetext as in the file, or the whole game (tags as written, a blank line, the movetext)
    /// when its tags do not come back as written.
    pub annotations: Option<String>,
    /// The main line in the export's [`MovesCode`]; `None` if it has a null move (which the codes
    /// cannot hold).
    pub moves: Option<Vec<u8>>,
    /// Plies of the main line.
    pub plies: i32,
    /// Per ply, the `%clk` after the move, whole seconds; `None` if no ply has one.
    pub clocks: Option<Vec<Option<i32>>>,
    /// Per ply, the `%eval` after the move (centipawns, mates by [`mate_score`]); `None` if no
    /// ply has one.
    pub evals: Option<Vec<Option<i32>>>,
    /// The start position's FEN; `None` for the standard start.
    pub start_fen: Option<String>,
    /// Every other tag, in the file's order.
    pub other_tags: Vec<(String, String)>,
    /// Some tag or movetext bytes were not UTF-8 and were read as Latin-1.
    pub non_utf8: bool,
    /// The strings of the row read as Latin-1 (see the [crate documentation](crate#text)), in
    /// the order they were read: column names (`White`, `movetext`, ...), `other_tags[i].key`
    /// and `other_tags[i].value`. Empty when `non_utf8` is false.
    pub latin1_fields: Vec<String>,
    /// Year and month for partitioning: from `UTCDate`, else `Date` (either may be unknown).
    pub partition_date: (Option<u16>, Option<u8>),
}

impl GameRow {
    /// The row of a game read by the [`chessbits::pgn`] reader, `movetext` being its movetext
    /// as in the file.
    ///
    /// ```
    /// use chessbits::pgn::PgnReader;
    /// use chessbits_parquet::GameRow;
    /// let pgn = b"[White \"Ann\"]\n[WhiteElo \"1500\"]\n[Round \"3\"]\n\n1. e4 { [%clk 0:03:00] } e5 *";
    /// let game = PgnReader::new(&pgn[..]).read_owned_game().unwrap().unwrap().unwrap();
    /// let row = GameRow::from_game(&game, b"1. e4 { [%clk 0:03:00] } e5 *");
    /// assert_eq!(row.white.as_deref(), Some("Ann"));
    /// assert_eq!(row.white_elo, Some(1500));
    /// assert_eq!(row.plies, 2);
    /// assert_eq!(row.clocks, Some(vec![Some(180), None]));
    /// assert_eq!(row.other_tags, [("Round".to_string(), "3".to_string())]);
    /// ```
    pub fn from_game(game: &GameTree, movetext: &[u8]) -> GameRow {
        GameRow::from_game_with(game, movetext, MovesCode::default())
    }

    /// [`GameRow::from_game`] with the `moves` column in `code`.
    ///
    /// ```
    /// use chessbits::pgn::PgnReader;
    /// use chessbits_parquet::{GameRow, MovesCode};
    /// let game = PgnReader::new(&b"1. e4 e5 *"[..]).read_owned_game().unwrap().unwrap().unwrap();
    /// let row = GameRow::from_game_with(&game, b"1. e4 e5 *", MovesCode::IndexByte);
    /// assert_eq!(row.moves.map(|m| m.len()), Some(2));
    /// ```
    pub fn from_game_with(game: &GameTree, movetext: &[u8], code: MovesCode) -> GameRow {
        let moves: Vec<_> = game.mainline().collect();
        let comments = (0..moves.len()).flat_map(|ply| {
            game.moves.nodes[ply]
                .comments_after
                .iter()
                .map(move |c| (ply, c.as_bytes()))
        });
        let tags = game.tags.iter().map(|tag| (tag.name(), RawTag(tag.raw_value())));
        GameRow::build(tags, &game.start, &moves, comments, movetext, code)
    }

    /// [`GameRow::from_game_with`] from a game read by [`MainLineReader`] (the same row, read
    /// faster: no tree is built).
    ///
    /// ```
    /// use chessbits::pgn::{MainLineReader, PgnReader};
    /// use chessbits_parquet::{GameRow, MovesCode};
    /// let pgn = b"1. e4 { [%eval 0.3] } e5 *";
    /// let game = PgnReader::new(&pgn[..]).read_game(&mut MainLineReader::new()).unwrap().unwrap().unwrap();
    /// let row = GameRow::from_main_line_with(&game, b"1. e4 { [%eval 0.3] } e5 *", MovesCode::Entropy);
    /// assert_eq!(row.evals, Some(vec![Some(30), None]));
    /// ```
    pub fn from_main_line_with(game: &MainLineGame, movetext: &[u8], code: MovesCode) -> GameRow {
        GameRow::build(game.tags(), &game.start, &game.moves, game.comments(), movetext, code)
    }

    /// A row from the game's parts; `comments` are the main line's comments after moves with
    /// their ply, in order.
    fn build<'a>(
        tags: impl Iterator<Item = (&'a [u8], RawTag<'a>)>,
        start: &Position,
        moves: &[Move],
        comments: impl Iterator<Item = (usize, &'a [u8])>,
        movetext: &[u8],
        code: MovesCode,
    ) -> GameRow {
        let mut row = GameRow::default();
        let mut date: Option<String> = None;
        // The typed tags seen (a bit each): only the first of a name may go to its column.
        let mut typed_seen = 0u8;
        let mut raw_tags: Vec<(&[u8], &[u8])> = Vec::new();
        for (name, raw_value) in tags {
            raw_tags.push((name, raw_value.as_bytes()));
            let value = raw_value.decode();
            // Borrowed: valid UTF-8 without escapes, checked once by `decode`. Unescaping drops
            // ASCII backslashes only, so the raw bytes are UTF-8 exactly when the value is.
            let value_latin1 = matches!(value, Cow::Owned(_)) && !is_utf8(raw_value.as_bytes());
            let name_latin1 = !is_utf8(name);
            row.non_utf8 |= value_latin1 || name_latin1;
            let value = value.into_owned();
            let (column, slot) = match name {
                b"Event" => ("Event", &mut row.event),
                b"Site" => ("Site", &mut row.site),
                b"White" => ("White", &mut row.white),
                b"Black" => ("Black", &mut row.black),
                b"Result" => ("Result", &mut row.result),
                b"WhiteTitle" => ("WhiteTitle", &mut row.white_title),
                b"BlackTitle" => ("BlackTitle", &mut row.black_title),
                b"ECO" => ("ECO", &mut row.eco),
                b"Opening" => ("Opening", &mut row.opening),
                b"Termination" => ("Termination", &mut row.termination),
                b"TimeControl" => ("TimeControl", &mut row.time_control),
                // A typed column holds the first tag of its name when its text is the one the
                // rebuild writes back (canonical); else the tag goes to `other_tags` as written,
                // and so does every later tag of that name.
                b"WhiteElo" | b"BlackElo" | b"WhiteRatingDiff" | b"BlackRatingDiff" | b"UTCDate" | b"UTCTime" => {
                    let bit = match name {
                        b"WhiteElo" => 1,
                        b"BlackElo" => 2,
                        b"WhiteRatingDiff" => 4,
                        b"BlackRatingDiff" => 8,
                        b"UTCDate" => 16,
                        _ => 32,
                    };
                    let first = typed_seen & bit == 0;
                    typed_seen |= bit;
                    if name == b"UTCDate" && first {
                        row.partition_date = match parse_date(&value) {
                            Some((y, m, _)) => (y, m),
                            None => (None, None),
                        };
                    }
                    if !(first && !value_latin1 && row.set_typed(name, &value)) {
                        row.push_other_tag(name, name_latin1, value, value_latin1);
                    }
                    continue;
                }
                b"Date" if date.is_none() => {
                    date = Some(value.clone());
                    row.push_other_tag(name, name_latin1, value, value_latin1);
                    continue;
                }
                _ => {
                    row.push_other_tag(name, name_latin1, value, value_latin1);
                    continue;
                }
            };
            if slot.is_none() {
                *slot = Some(value);
                if value_latin1 {
                    row.latin1_fields.push(column.to_string());
                }
            } else {
                row.push_other_tag(name, name_latin1, value, value_latin1);
            }
        }
        if row.partition_date == (None, None) {
            if let Some((y, m, _)) = date.as_deref().and_then(parse_date) {
                row.partition_date = (y, m);
            }
        }
        let text = decode_text(movetext);
        // Decoded as Latin-1 exactly when it is not UTF-8.
        if matches!(text, Cow::Owned(_)) {
            row.non_utf8 = true;
            row.latin1_fields.push("movetext".to_string());
        }
        row.movetext = text.into_owned();

        row.plies = moves.len() as i32;
        row.moves = code.encode(start, moves);
        let mut clocks = vec![None; moves.len()];
        let mut evals = vec![None; moves.len()];
        for (ply, comment) in comments {
            let (Some(clock), Some(eval)) = (clocks.get_mut(ply), evals.get_mut(ply)) else {
                continue;
            };
            // The first of each per ply.
            if clock.is_none() || eval.is_none() {
                let (clk, ev) = first_commands(comment);
                *clock = clock.or_else(|| clk.and_then(clock_seconds));
                *eval = eval.or_else(|| ev.and_then(eval_value));
            }
        }
        row.clocks = clocks.iter().any(Option::is_some).then_some(clocks);
        row.evals = evals.iter().any(Option::is_some).then_some(evals);
        if *start != Position::startpos() {
            row.start_fen = Some(start.fen());
        }
        let tags_rebuild = row.tags_rebuild(&raw_tags);
        if !(tags_rebuild && row.movetext_rebuilds(movetext)) {
            // Only these rows need the moves' SAN.
            let texts = match row.moves {
                Some(_) => crate::annotations::move_texts(start, moves),
                None => Vec::new(),
            };
            let bytes = row.annotations_of(tags_rebuild, &raw_tags, movetext, &texts);
            let text = decode_text(&bytes);
            // Decoded as Latin-1 exactly when it is not UTF-8.
            if matches!(text, Cow::Owned(_)) {
                row.non_utf8 = true;
                row.latin1_fields.push("annotations".to_string());
            }
            row.annotations = Some(text.into_owned());
        }
        row
    }

    /// Reads one game cut by [`chessbits::pgn::PgnReader::read_raw_game`] (`bytes`, `raw`) into a
    /// row; the reader's error if it cannot be read (illegal move, bad FEN, variant, ...).
    ///
    /// ```
    /// use chessbits::pgn::PgnReader;
    /// use chessbits_parquet::GameRow;
    /// let pgn = b"[Event \"a\"]\n\n1. e4 e5 1-0\n\n[Event \"b\"]\n\n1. e4 e4 *\n";
    /// let mut reader = PgnReader::new(&pgn[..]);
    /// let mut bytes = Vec::new();
    /// let raw = reader.read_raw_game(&mut bytes).unwrap().unwrap();
    /// let row = GameRow::from_raw(&bytes, &raw).unwrap();
    /// assert_eq!((row.event.as_deref(), row.movetext.as_str()), (Some("a"), "1. e4 e5 1-0"));
    /// bytes.clear();
    /// let raw = reader.read_raw_game(&mut bytes).unwrap().unwrap();
    /// assert_eq!(GameRow::from_raw(&bytes, &raw).unwrap_err().to_string(), "line 7: illegal move 'e4'");
    /// ```
    pub fn from_raw(bytes: &[u8], raw: &RawGame) -> Result<GameRow, GameError> {
        GameRow::from_raw_with(bytes, raw, MovesCode::default())
    }

    /// [`GameRow::from_raw`] with the `moves` column in `code`.
    ///
    /// ```
    /// use chessbits::pgn::PgnReader;
    /// use chessbits_parquet::{GameRow, MovesCode};
    /// let mut bytes = Vec::new();
    /// let raw = PgnReader::new(&b"1. d4 *"[..]).read_raw_game(&mut bytes).unwrap().unwrap();
    /// let row = GameRow::from_raw_with(&bytes, &raw, MovesCode::IndexByte).unwrap();
    /// assert_eq!(row.plies, 1);
    /// ```
    pub fn from_raw_with(bytes: &[u8], raw: &RawGame, code: MovesCode) -> Result<GameRow, GameError> {
        thread_local! {
            static READER: RefCell<MainLineReader> = RefCell::new(MainLineReader::new());
        }
        let read = READER.with_borrow_mut(|reader| raw.reader(bytes).read_game(reader));
        let game = match read {
            Ok(Some(game)) => game?,
            // Reading from memory cannot fail, and a raw game is a game.
            Ok(None) | Err(_) => MainLineGame::default(),
        };
        let row = GameRow::from_main_line_with(&game, movetext(bytes), code);
        READER.with_borrow_mut(|reader| reader.recycle(game));
        Ok(row)
    }

    /// Sets the typed column `name` (`WhiteElo`, ..., `UTCTime`) from a tag's `value` if the
    /// value is exactly the text the rebuild writes for it ([`GameRow::tags`]): `1500`, `+11`
    /// / `-4` / `+0` for a rating difference, `2024.01.31`, `09:05:00`. False (the column left
    /// unset) otherwise, so that no tag's text is lost.
    fn set_typed(&mut self, name: &[u8], value: &str) -> bool {
        let int = || parse_int::<i16>(value);
        match name {
            b"WhiteElo" | b"BlackElo" => {
                let Some(v) = int().filter(|v| v.to_string() == value) else {
                    return false;
                };
                *(if name == b"WhiteElo" {
                    &mut self.white_elo
                } else {
                    &mut self.black_elo
                }) = Some(v);
            }
            b"WhiteRatingDiff" | b"BlackRatingDiff" => {
                let Some(v) = int().filter(|&v| crate::rebuild::rating_diff(v) == value) else {
                    return false;
                };
                let slot = if name == b"WhiteRatingDiff" {
                    &mut self.white_rating_diff
                } else {
                    &mut self.black_rating_diff
                };
                *slot = Some(v);
            }
            b"UTCDate" => {
                let days = parse_date(value).and_then(|(y, m, d)| days_from_civil(y?, m?, d?));
                let Some(days) = days.filter(|&d| crate::rebuild::date_text(d) == value) else {
                    return false;
                };
                self.utc_date = Some(days);
            }
            b"UTCTime" => {
                let Some(s) = parse_time(value).filter(|&s| crate::rebuild::time_text(s) == value) else {
                    return false;
                };
                self.utc_time = Some(s);
            }
            _ => return false,
        }
        true
    }

    /// Appends a tag to `other_tags`, noting its key and value in `latin1_fields` when read as
    /// Latin-1.
    fn push_other_tag(&mut self, name: &[u8], name_latin1: bool, value: String, value_latin1: bool) {
        let i = self.other_tags.len();
        if name_latin1 {
            self.latin1_fields.push(format!("other_tags[{i}].key"));
        }
        if value_latin1 {
            self.latin1_fields.push(format!("other_tags[{i}].value"));
        }
        self.other_tags.push((decode_text(name).into_owned(), value));
    }

    /// The tag value of a named column (`"White"`, `"ECO"`, ...), for tests and tools.
    pub fn text_column(&self, name: &str) -> Option<&str> {
        let value = match name {
            "Event" => &self.event,
            "Site" => &self.site,
            "White" => &self.white,
            "Black" => &self.black,
            "Result" => &self.result,
            "WhiteTitle" => &self.white_title,
            "BlackTitle" => &self.black_title,
            "ECO" => &self.eco,
            "Opening" => &self.opening,
            "Termination" => &self.termination,
            "TimeControl" => &self.time_control,
            _ => return None,
        };
        value.as_deref()
    }
}

/// The movetext of a game's bytes as cut by `read_raw_game`: what follows its tag pairs (and the
/// whitespace after them).
///
/// ```
/// use chessbits_parquet::movetext;
/// assert_eq!(movetext(b"[Event \"x ] y\"]\n[Site \"\\\"\"]\n\n1. e4 {c} *"), b"1. e4 {c} *");
/// assert_eq!(movetext(b"1. d4 *"), b"1. d4 *");
/// // As the reader reads it: the value runs to the last `"` before a `]` on the tag's line.
/// assert_eq!(movetext(b"[Result \"\"1-0\"]\n\n1. e4 { [%eval 0.1] } *"), b"1. e4 { [%eval 0.1] } *");
/// ```
pub fn movetext(bytes: &[u8]) -> &[u8] {
    let mut i = 0;
    loop {
        while i < bytes.len() && bytes[i].is_ascii_whitespace() {
            i += 1;
        }
        if i >= bytes.len() || bytes[i] != b'[' {
            return &bytes[i..];
        }
        i += chessbits::pgn::tag_pair_len(&bytes[i..]);
    }
}

/// Whether `bytes` are UTF-8 (ASCII checked first: most tags are).
fn is_utf8(bytes: &[u8]) -> bool {
    bytes.is_ascii() || core::str::from_utf8(bytes).is_ok()
}

fn parse_int<T: core::str::FromStr>(value: &str) -> Option<T> {
    let value = value.trim();
    value.strip_prefix('+').unwrap_or(value).parse().ok()
}

type DateParts = (Option<u16>, Option<u8>, Option<u8>);

/// `yyyy.mm.dd` (or with `-`), each field a number or `?`s.
fn parse_date(value: &str) -> Option<DateParts> {
    let mut parts = value.trim().split(['.', '-', '/']);
    let (y, m, d) = (parts.next()?, parts.next()?, parts.next()?);
    if parts.next().is_some() {
        return None;
    }
    let year = y
        .parse::<u16>()
        .ok()
        .filter(|&y| y > 0 && y < 10_000 && y.to_string().len() <= 4);
    let month = m.parse::<u8>().ok().filter(|m| (1..=12).contains(m));
    let day = d.parse::<u8>().ok().filter(|d| (1..=31).contains(d));
    Some((year, month, day))
}

/// Days since 1970-01-01 of a valid date (proleptic Gregorian).
fn days_from_civil(y: u16, m: u8, d: u8) -> Option<i32> {
    let leap = (y.is_multiple_of(4) && !y.is_multiple_of(100)) || y.is_multiple_of(400);
    let days_in_month = [31, if leap { 29 } else { 28 }, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
    if d > days_in_month[m as usize - 1] {
        return None;
    }
    // Howard Hinnant's days_from_civil.
    let (y, m, d) = (i64::from(y) - i64::from(m <= 2), i64::from(m), i64::from(d));
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    Some((era * 146_097 + doe - 719_468) as i32)
}

/// `hh:mm:ss` as seconds since midnight.
pub(crate) fn parse_time(value: &str) -> Option<i32> {
    let mut parts = value.trim().split(':');
    let (h, m, s) = (parts.next()?, parts.next()?, parts.next()?);
    if parts.next().is_some() {
        return None;
    }
    let (h, m, s) = (h.parse::<i32>().ok()?, m.parse::<i32>().ok()?, s.parse::<i32>().ok()?);
    ((0..24).contains(&h) && (0..60).contains(&m) && (0..61).contains(&s)).then_some(h * 3600 + m * 60 + s)
}

/// The arguments of the first `%clk` and the first `%eval` command of a comment (`None` if
/// absent), as the library finds commands ([`commands`]): what [`Comment::clock`] and
/// [`Comment::eval`] read.
///
/// [`Comment::clock`]: chessbits::pgn::Comment::clock
/// [`Comment::eval`]: chessbits::pgn::Comment::eval
fn first_commands(comment: &[u8]) -> (Option<&[u8]>, Option<&[u8]>) {
    let (mut clock, mut eval) = (None, None);
    for command in commands(comment) {
        match command.name {
            b"clk" if clock.is_none() => clock = Some(command.args),
            b"eval" if eval.is_none() => eval = Some(command.args),
            _ => continue,
        }
        if clock.is_some() && eval.is_some() {
            break;
        }
    }
    (clock, eval)
}

/// A `%clk` argument in whole seconds (the fraction dropped), read by the library's
/// [`parse_clock`]; `None` where it does not parse or does not fit an `i32`.
fn clock_seconds(argument: &[u8]) -> Option<i32> {
    parse_clock(argument).and_then(|clock| i32::try_from(clock.as_secs()).ok())
}

/// A `%eval` argument as stored, read by the library's [`Eval::parse`]: centipawns clamped to
/// ±`MAX_CENTIPAWNS`, a mate by [`mate_score`].
fn eval_value(argument: &[u8]) -> Option<i32> {
    Some(match Eval::parse(argument)?.score {
        Score::Centipawns(cp) => cp.clamp(-i64::from(MAX_CENTIPAWNS), i64::from(MAX_CENTIPAWNS)) as i32,
        // `Score::Mate` cannot hold `-0`: Black has mated (`#-0`) is told by the sign written.
        Score::Mate(0) if argument.trim_ascii_start().starts_with(b"#-") => -MATE_BASE,
        Score::Mate(n) => mate_score(n.clamp(-999, 999) as i32),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates() {
        assert_eq!(days_from_civil(1970, 1, 1), Some(0));
        assert_eq!(days_from_civil(2000, 3, 1), Some(11_017));
        assert_eq!(days_from_civil(2023, 2, 29), None);
        assert_eq!(parse_date("2019.??.??"), Some((Some(2019), None, None)));
        assert_eq!(parse_time("23:59:59"), Some(86_399));
    }

    #[test]
    fn comments() {
        let clock = |comment: &[u8]| first_commands(comment).0.and_then(clock_seconds);
        let eval = |comment: &[u8]| first_commands(comment).1.and_then(eval_value);
        assert_eq!(clock(b" [%eval 0.17] [%clk 1:02:03] "), Some(3723));
        assert_eq!(clock(b"[%clk 0:00:09.7]"), Some(9));
        assert_eq!(eval(b"[%eval -1.5]"), Some(-150));
        assert_eq!(eval(b"[%eval #-2]"), Some(-99_998));
        assert_eq!(eval(b"[%eval #-0]"), Some(-MATE_BASE));
        assert_eq!(eval(b"[%eval #0]"), Some(MATE_BASE));
        assert_eq!(eval(b"[%eval #-2000]"), Some(-(MATE_BASE - 999)));
        assert_eq!(eval(b"[%eval 0.2,30]"), Some(20));
        assert_eq!(eval(b"[%eval 5000]"), Some(MAX_CENTIPAWNS));
        assert_eq!(eval(b"no eval"), None);
        assert_eq!(clock(b"[x] [[%clk 0:00:05] [%clk 0:00:06]"), Some(5));
        assert_eq!(clock(b"[%clk"), None);
        // Signed or out of range: the library's parser reads no clock.
        for bad in ["-0:00:01", "0:-1:00", "0:61:00", "0:00:60", "+0:01:00", "596524:00:00"] {
            assert_eq!(clock(format!("[%clk {bad}]").as_bytes()), None, "{bad}");
        }
    }
}
