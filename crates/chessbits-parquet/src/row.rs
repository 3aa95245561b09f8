//! One game as one row: [`GameRow`], and the parsing of its tags, movetext, clocks and evals.

use std::borrow::Cow;
use std::cell::RefCell;

use chessbits::moves::Move;
use chessbits::pgn::{decode_text, GameError, GameTree, MainLineGame, MainLineReader, RawGame, RawTag};
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
    /// `UTCTime` tag, seconds since midnight, if a valid `hh:mm:ss` (the column holds milliseconds).
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
        for (name, raw_value) in tags {
            let utf8 = |bytes: &[u8]| bytes.is_ascii() || core::str::from_utf8(bytes).is_ok();
            let value = raw_value.decode();
            // Borrowed: valid UTF-8 without escapes, checked once by `decode`.
            row.non_utf8 |= !utf8(name) || (matches!(value, Cow::Owned(_)) && !utf8(raw_value.as_bytes()));
            let value = value.into_owned();
            let slot = match name {
                b"Event" => &mut row.event,
                b"Site" => &mut row.site,
                b"White" => &mut row.white,
                b"Black" => &mut row.black,
                b"Result" => &mut row.result,
                b"WhiteTitle" => &mut row.white_title,
                b"BlackTitle" => &mut row.black_title,
                b"ECO" => &mut row.eco,
                b"Opening" => &mut row.opening,
                b"Termination" => &mut row.termination,
                b"TimeControl" => &mut row.time_control,
                b"WhiteElo" if row.white_elo.is_none() => {
                    row.white_elo = parse_int(&value);
                    continue;
                }
                b"BlackElo" if row.black_elo.is_none() => {
                    row.black_elo = parse_int(&value);
                    continue;
                }
                b"WhiteRatingDiff" if row.white_rating_diff.is_none() => {
                    row.white_rating_diff = parse_int(&value);
                    continue;
                }
                b"BlackRatingDiff" if row.black_rating_diff.is_none() => {
                    row.black_rating_diff = parse_int(&value);
                    continue;
                }
                b"UTCDate" if row.utc_date.is_none() => {
                    row.utc_date = parse_date(&value).and_then(|(y, m, d)| days_from_civil(y?, m?, d?));
                    row.partition_date = match parse_date(&value) {
                        Some((y, m, _)) => (y, m),
                        None => (None, None),
                    };
                    continue;
                }
                b"UTCTime" if row.utc_time.is_none() => {
                    row.utc_time = parse_time(&value);
                    continue;
                }
                b"Date" if date.is_none() => {
                    date = Some(value.clone());
                    row.other_tags.push((decode_text(name).into_owned(), value));
                    continue;
                }
                _ => {
                    row.other_tags.push((decode_text(name).into_owned(), value));
                    continue;
                }
            };
            if slot.is_none() {
                *slot = Some(value);
            } else {
                row.other_tags.push((decode_text(name).into_owned(), value));
            }
        }
        if row.partition_date == (None, None) {
            if let Some((y, m, _)) = date.as_deref().and_then(parse_date) {
                row.partition_date = (y, m);
            }
        }
        let text = decode_text(movetext);
        // Decoded as Latin-1 exactly when it is not UTF-8.
        row.non_utf8 |= matches!(text, Cow::Owned(_));
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
                let (clk, ev) = find_commands(comment);
                *clock = clock.or_else(|| clk.and_then(parse_clock));
                *eval = eval.or_else(|| ev.and_then(parse_eval));
            }
        }
        row.clocks = clocks.iter().any(Option::is_some).then_some(clocks);
        row.evals = evals.iter().any(Option::is_some).then_some(evals);
        if *start != Position::startpos() {
            row.start_fen = Some(start.fen());
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
        // A tag pair: up to the `]` outside its quoted value.
        let mut quoted = false;
        i += 1;
        while i < bytes.len() {
            match bytes[i] {
                b'\\' if quoted => i += 1,
                b'"' => quoted = !quoted,
                b']' if !quoted => break,
                b'\n' | b'\r' if quoted => quoted = false,
                _ => {}
            }
            i += 1;
        }
        i += 1;
    }
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
fn parse_time(value: &str) -> Option<i32> {
    let mut parts = value.trim().split(':');
    let (h, m, s) = (parts.next()?, parts.next()?, parts.next()?);
    if parts.next().is_some() {
        return None;
    }
    let (h, m, s) = (h.parse::<i32>().ok()?, m.parse::<i32>().ok()?, s.parse::<i32>().ok()?);
    ((0..24).contains(&h) && (0..60).contains(&m) && (0..61).contains(&s)).then_some(h * 3600 + m * 60 + s)
}

/// The arguments of the first `[%clk ...]` and the first `[%eval ...]` command of a comment
/// (up to the `]`, untrimmed; `None` if absent), found in one pass over the `[`s of the comment.
fn find_commands(comment: &[u8]) -> (Option<&[u8]>, Option<&[u8]>) {
    fn argument(rest: &[u8]) -> Option<&[u8]> {
        rest.iter().position(|&b| b == b']').map(|end| &rest[..end])
    }
    let (mut clock, mut eval) = (None, None);
    let mut at = 0;
    while clock.is_none() || eval.is_none() {
        let Some(found) = comment[at..].iter().position(|&b| b == b'[') else {
            break;
        };
        at += found;
        let here = &comment[at..];
        if clock.is_none() {
            if let Some(rest) = here.strip_prefix(b"[%clk ") {
                clock = Some(argument(rest));
            }
        }
        if eval.is_none() {
            if let Some(rest) = here.strip_prefix(b"[%eval ") {
                eval = Some(argument(rest));
            }
        }
        at += 1;
    }
    (clock.flatten(), eval.flatten())
}

/// The first `[%clk h:mm:ss]` (tenths dropped) of a comment, in whole seconds.
#[cfg(test)]
fn find_clock(comment: &[u8]) -> Option<i32> {
    find_commands(comment).0.and_then(parse_clock)
}

/// The first `[%eval x.xx]` or `[%eval #n]` of a comment (a `,depth` suffix ignored).
#[cfg(test)]
fn find_eval(comment: &[u8]) -> Option<i32> {
    find_commands(comment).1.and_then(parse_eval)
}

/// A `%clk` argument `h:mm:ss` (tenths dropped; whitespace around it ignored) in whole seconds;
/// `None` if it is not UTF-8, not three signed integers apart from the tenths, or out of range.
/// Parsed from the bytes: a string and three `parse` calls per ply cost 1 % of an export.
fn parse_clock(argument: &[u8]) -> Option<i32> {
    let text = if argument.is_ascii() {
        // `str::trim` on ASCII: what `char::is_whitespace` holds (0x0B too).
        let space = |b: &u8| matches!(b, b'\t' | b'\n' | 0x0b | 0x0c | b'\r' | b' ');
        let start = argument.iter().position(|b| !space(b)).unwrap_or(argument.len());
        let end = argument.iter().rposition(|b| !space(b)).map_or(start, |e| e + 1);
        &argument[start..end]
    } else {
        // Unicode spaces may surround it; anything else non-ASCII fails to parse below.
        core::str::from_utf8(argument).ok()?.trim().as_bytes()
    };
    let mut parts = text.split(|&b| b == b':');
    let (h, m, s) = (parts.next()?, parts.next()?, parts.next()?);
    if parts.next().is_some() {
        return None;
    }
    let s = s.split(|&b| b == b'.').next()?;
    let (h, m, s) = (parse_i64(h)?, parse_i64(m)?, parse_i64(s)?);
    let seconds = h.checked_mul(3600)?.checked_add(m.checked_mul(60)?)?.checked_add(s)?;
    i32::try_from(seconds).ok()
}

/// A decimal `i64` as `str::parse` reads it: an optional sign, then at least one digit.
fn parse_i64(bytes: &[u8]) -> Option<i64> {
    let (negative, digits) = match bytes.split_first()? {
        (b'-', rest) => (true, rest),
        (b'+', rest) => (false, rest),
        _ => (false, bytes),
    };
    if digits.is_empty() {
        return None;
    }
    let mut value: i64 = 0;
    for &d in digits {
        if !d.is_ascii_digit() {
            return None;
        }
        let d = i64::from(d - b'0');
        value = value.checked_mul(10)?;
        value = if negative {
            value.checked_sub(d)?
        } else {
            value.checked_add(d)?
        };
    }
    Some(value)
}

/// A `%eval` argument: pawns (`-1.5`) or a mate (`#-2`), a `,depth` suffix ignored.
// Char predicates, not chars, split these few bytes: a char pattern sets up a memchr search per
// piece (2% of an export's instructions, callgrind).
#[allow(clippy::manual_pattern_char_comparison)]
fn parse_eval(argument: &[u8]) -> Option<i32> {
    let text = core::str::from_utf8(argument).ok()?.trim();
    let text = text.split(|c| c == ',').next()?.trim();
    if let Some(mate) = text.strip_prefix('#') {
        let n: i32 = mate.parse().ok()?;
        return Some(if n == 0 && mate.starts_with('-') {
            -MATE_BASE
        } else {
            mate_score(n)
        });
    }
    let pawns: f64 = text.parse().ok()?;
    if !pawns.is_finite() {
        return None;
    }
    Some(((pawns * 100.0).round() as i64).clamp(-i64::from(MAX_CENTIPAWNS), i64::from(MAX_CENTIPAWNS)) as i32)
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
        assert_eq!(find_clock(b" [%eval 0.17] [%clk 1:02:03] "), Some(3723));
        assert_eq!(find_clock(b"[%clk 0:00:09.7]"), Some(9));
        assert_eq!(find_eval(b"[%eval -1.5]"), Some(-150));
        assert_eq!(find_eval(b"[%eval #-2]"), Some(-99_998));
        assert_eq!(find_eval(b"[%eval 0.2,30]"), Some(20));
        assert_eq!(find_eval(b"no eval"), None);
        assert_eq!(find_clock(b"[x] [[%clk 0:00:05] [%clk 0:00:06]"), Some(5));
        assert_eq!(find_clock(b"[%clk"), None);
    }

    /// The byte parser reads a clock as `str::trim`, `split(':')` and `i64::from_str` did, and
    /// says `None` where the seconds overflow (which wrapped before).
    #[test]
    fn clocks_parse_as_strings_do() {
        let by_strings = |text: &str| -> Option<i32> {
            let text = core::str::from_utf8(text.as_bytes()).ok()?.trim();
            let mut parts = text.split(':');
            let (h, m, s) = (parts.next()?, parts.next()?, parts.next()?);
            if parts.next().is_some() {
                return None;
            }
            let s = s.split_once('.').map_or(s, |(whole, _)| whole);
            let (h, m, s) = (h.parse::<i64>().ok()?, m.parse::<i64>().ok()?, s.parse::<i64>().ok()?);
            i32::try_from(h.checked_mul(3600)?.checked_add(m.checked_mul(60)?)?.checked_add(s)?).ok()
        };
        let cases = [
            "0:03:00",
            " 1:02:03 ",
            "0:00:09.7",
            "\u{b}0:00:01\u{c}",
            "\u{a0}0:01:00\u{3000}",
            "+1:-2:+3",
            "-0:00:05",
            "1:2",
            "1:2:3:4",
            "::",
            "1::3",
            "a:00:00",
            "0:00:0x",
            "0:00:5.x.y",
            "0:00:",
            "+:0:0",
            "0:00:01 0",
            "１:00:00",
            "596523:14:07",
            "596523:14:08",
            "-596523:14:08",
            "-596523:14:09",
            "9223372036854775807:0:0",
            "0:0:9223372036854775807",
            "0:0:9223372036854775808",
            "-9223372036854775808:0:0",
            "",
        ];
        for case in cases {
            assert_eq!(parse_clock(case.as_bytes()), by_strings(case), "{case:?}");
        }
        // Random arguments: three fields of random pieces (digits, signs, dots, long runs of
        // digits for overflow), now and then a field more or less, spaces around (a non-ASCII one
        // too) and a byte that is not UTF-8: the same answer as the string parse, never a panic.
        const FIELD: [&str; 10] = ["0", "5", "9", "59", "+", "-", ".", "x", "922337203685477580", "\u{ff}"];
        const SPACE: [&str; 5] = ["", "", " ", "\u{b}", "\u{a0}"];
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = |n: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed >> 16) as usize % n
        };
        let mut matched = 0;
        for _ in 0..100_000 {
            let mut case = String::from(SPACE[next(SPACE.len())]);
            let fields = [3, 3, 3, 3, 2, 4][next(6)];
            for field in 0..fields {
                if field > 0 {
                    case.push(':');
                }
                for _ in 0..next(4) {
                    case.push_str(FIELD[next(FIELD.len())]);
                }
            }
            case.push_str(SPACE[next(SPACE.len())]);
            let expected = by_strings(&case);
            assert_eq!(parse_clock(case.as_bytes()), expected, "{case:?}");
            matched += usize::from(expected.is_some());
        }
        assert!(matched > 300, "{matched} clocks parsed");
        let mut latin1 = b"0:00:01".to_vec();
        latin1.push(0xff);
        assert_eq!(parse_clock(&latin1), None);
        assert_eq!(parse_clock(b"596523:14:07"), Some(i32::MAX));
        assert_eq!(parse_clock(b"\xff0:00:01"), None);
        assert_eq!(parse_clock(b"2562047788015215:30:08"), None, "overflows i64: no clock");
    }
}
