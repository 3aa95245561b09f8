//! The rebuild's text written straight into bytes: numbers, clocks, evals, dates, tag lines and
//! the movetext of a row without `annotations`, the bytes [`GameTree::write_pgn`] writes for
//! [`GameRow::to_game_tree`] with the default options, without the tree, its tags and comments
//! allocated one by one (see [`GameRow::write_pgn`]).
//!
//! [`GameTree::write_pgn`]: chessbits::pgn::GameTree::write_pgn

use core::fmt::Write as _;

use chessbits::moves::Move;
use chessbits::pgn::GameResult;
use chessbits::position::Position;
use chessbits::types::Color;

use super::{RebuildError, TAG_ORDER};
use crate::moves_code::MovesCode;
use crate::row::{GameRow, MATE_BASE};

/// Where the formatting functions write: bytes or a `String` (they write ASCII only).
pub(crate) trait Sink {
    /// Appends `bytes` (ASCII).
    fn put(&mut self, bytes: &[u8]);
}

impl Sink for Vec<u8> {
    fn put(&mut self, bytes: &[u8]) {
        self.extend_from_slice(bytes);
    }
}

impl Sink for String {
    fn put(&mut self, bytes: &[u8]) {
        // ASCII only is ever put: always UTF-8.
        if let Ok(text) = core::str::from_utf8(bytes) {
            self.push_str(text);
        }
    }
}

/// A short text on the stack: the value of a typed tag column (a number, a date, a time; at
/// most 15 bytes, for the extremes of `i32` days or seconds), written without an allocation.
#[derive(Default)]
pub(crate) struct ShortText {
    bytes: [u8; 32],
    len: usize,
}

impl ShortText {
    fn as_bytes(&self) -> &[u8] {
        &self.bytes[..self.len]
    }
}

impl Sink for ShortText {
    fn put(&mut self, bytes: &[u8]) {
        // Never more than 32 bytes in all (see above); kept in bounds regardless.
        let n = bytes.len().min(self.bytes.len() - self.len);
        self.bytes[self.len..self.len + n].copy_from_slice(&bytes[..n]);
        self.len += n;
    }
}

/// `v` in decimal, at least `width` digits (zero-padded).
pub(crate) fn put_u32(out: &mut impl Sink, mut v: u32, width: usize) {
    let mut digits = [b'0'; 10];
    let mut i = digits.len();
    loop {
        i -= 1;
        digits[i] = b'0' + (v % 10) as u8;
        v /= 10;
        if v == 0 {
            break;
        }
    }
    let start = i.min(digits.len() - width.min(digits.len()));
    out.put(&digits[start..]);
}

/// A clock in whole seconds as lichess writes it: `h:mm:ss` (see [`clock_text`](super::clock_text)).
pub(crate) fn put_clock(out: &mut impl Sink, seconds: i32) {
    let s = seconds.max(0) as u32;
    put_u32(out, s / 3600, 1);
    out.put(b":");
    put_u32(out, s / 60 % 60, 2);
    out.put(b":");
    put_u32(out, s % 60, 2);
}

/// An `evals` value as lichess writes it (see [`eval_text`](super::eval_text)).
pub(crate) fn put_eval(out: &mut impl Sink, value: i32) {
    let abs = value.unsigned_abs();
    if abs > (MATE_BASE - 1000) as u32 {
        out.put(if value < 0 { b"#-" } else { b"#" });
        put_u32(out, MATE_BASE as u32 - abs.min(MATE_BASE as u32), 1);
        return;
    }
    if value < 0 {
        out.put(b"-");
    }
    put_u32(out, abs / 100, 1);
    out.put(b".");
    if (abs % 100).is_multiple_of(10) {
        put_u32(out, abs % 100 / 10, 1);
    } else {
        put_u32(out, abs % 100, 2);
    }
}

/// Days since 1970-01-01 as `YYYY.MM.DD` (proleptic Gregorian; Howard Hinnant's
/// civil_from_days); a year outside 0..=9999 as `format!("{y:04}")` writes it.
pub(crate) fn put_date(out: &mut impl Sink, days: i32) {
    let z = i64::from(days) + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    match u32::try_from(y) {
        Ok(y) => put_u32(out, y, 4),
        // Before year 0 (a date32 of about -719,500 days or less).
        Err(_) => out.put(format!("{y:04}").as_bytes()),
    }
    out.put(b".");
    put_u32(out, m as u32, 2);
    out.put(b".");
    put_u32(out, d as u32, 2);
}

/// Seconds since midnight as `hh:mm:ss`, zero-padded (a negative value, which the reader never
/// gives, as `format!` writes it).
pub(crate) fn put_time(out: &mut impl Sink, s: i32) {
    match u32::try_from(s) {
        Ok(s) => {
            put_u32(out, s / 3600, 2);
            out.put(b":");
            put_u32(out, s / 60 % 60, 2);
            out.put(b":");
            put_u32(out, s % 60, 2);
        }
        Err(_) => out.put(format!("{:02}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60).as_bytes()),
    }
}

/// A rating difference as lichess writes it: `+11`, `-4`, `+0`.
pub(crate) fn put_rating_diff(out: &mut impl Sink, v: i16) {
    out.put(if v < 0 { b"-" } else { b"+" });
    put_u32(out, u32::from(v.unsigned_abs()), 1);
}

/// A tag line whose value is already escaped as PGN writes it (a [`Tag`]'s raw value).
///
/// [`Tag`]: chessbits::pgn::Tag
pub(super) fn put_raw_tag(out: &mut Vec<u8>, name: &[u8], raw_value: &[u8]) {
    out.push(b'[');
    out.extend_from_slice(name);
    out.extend_from_slice(b" \"");
    out.extend_from_slice(raw_value);
    out.extend_from_slice(b"\"]\n");
}

/// `[name "value"]` and a line break, `"` and `\` of the value escaped.
fn put_tag(out: &mut Vec<u8>, name: &[u8], value: &[u8]) {
    out.push(b'[');
    out.extend_from_slice(name);
    out.extend_from_slice(b" \"");
    let mut rest = value;
    while let Some(k) = rest.iter().position(|&b| b == b'"' || b == b'\\') {
        out.extend_from_slice(&rest[..k]);
        out.push(b'\\');
        out.push(rest[k]);
        rest = &rest[k + 1..];
    }
    out.extend_from_slice(rest);
    out.extend_from_slice(b"\"]\n");
}

/// The longest line of movetext the writer makes (a longer token stays whole).
const MAX_WIDTH: usize = 80;

/// Movetext tokens separated by a space, or by a line break where the line would pass
/// [`MAX_WIDTH`]: the writer's wrapping, for tokens of ASCII without line breaks.
struct Wrapped<'a> {
    out: &'a mut Vec<u8>,
    column: usize,
}

impl Wrapped<'_> {
    fn token(&mut self, token: &[u8]) {
        if self.column > 0 {
            if self.column + 1 + token.len() > MAX_WIDTH {
                self.out.push(b'\n');
                self.column = 0;
            } else {
                self.out.push(b' ');
                self.column += 1;
            }
        }
        self.out.extend_from_slice(token);
        self.column += token.len();
    }
}

/// Buffers one thread reuses from game to game.
#[derive(Default)]
pub(crate) struct Scratch {
    moves: Vec<Move>,
    token: Vec<u8>,
    san: String,
    ranks: Vec<usize>,
}

impl GameRow {
    /// The tag lines of [`pgn_tags`](GameRow::pgn_tags) and the blank line after them (nothing
    /// when there is none), written without a [`Tag`](chessbits::pgn::Tag) each; a row with
    /// Latin-1 strings goes through `pgn_tags`.
    fn put_tag_lines(&self, out: &mut Vec<u8>, ranks: &mut Vec<usize>) {
        let before = out.len();
        if self.non_utf8 {
            for tag in self.pgn_tags() {
                put_raw_tag(out, tag.name(), tag.raw_value());
            }
        } else {
            self.for_each_utf8_tag(ranks, |name, value| put_tag(out, name, value));
        }
        if out.len() > before {
            out.push(b'\n');
        }
    }

    /// Calls `f(name, value)` for each tag of [`pgn_tags`](GameRow::pgn_tags), in order, the
    /// value unescaped, without a [`Tag`](chessbits::pgn::Tag) each: for a row without Latin-1
    /// strings (`non_utf8` false; the bytes of such a row's tags are those of its strings).
    /// `ranks` is scratch space.
    pub(crate) fn for_each_utf8_tag(&self, ranks: &mut Vec<usize>, mut f: impl FnMut(&[u8], &[u8])) {
        // The ranks of `other_tags` as `tags` gives them: one without a rank takes the rank
        // of the next one that has one, or comes last.
        ranks.clear();
        let mut next_rank = usize::MAX;
        for (name, _) in self.other_tags.iter().rev() {
            next_rank = TAG_ORDER.iter().position(|n| n == name).unwrap_or(next_rank);
            ranks.push(next_rank);
        }
        ranks.reverse();
        // The merge of `tags`: on equal ranks the column first.
        let mut other = 0;
        let mut number = ShortText::default();
        for (rank, name) in TAG_ORDER.iter().enumerate() {
            let value: Option<&[u8]> = match *name {
                "WhiteElo" | "BlackElo" | "WhiteRatingDiff" | "BlackRatingDiff" | "UTCDate" | "UTCTime" => {
                    number.len = 0;
                    match *name {
                        "WhiteElo" => self.white_elo.map(|v| put_i16(&mut number, v)),
                        "BlackElo" => self.black_elo.map(|v| put_i16(&mut number, v)),
                        "WhiteRatingDiff" => self.white_rating_diff.map(|v| put_rating_diff(&mut number, v)),
                        "BlackRatingDiff" => self.black_rating_diff.map(|v| put_rating_diff(&mut number, v)),
                        "UTCDate" => self.utc_date.map(|v| put_date(&mut number, v)),
                        _ => self.utc_time.map(|v| put_time(&mut number, v)),
                    }
                    .map(|()| number.as_bytes())
                }
                _ => self.text_column(name).map(str::as_bytes),
            };
            let Some(value) = value else { continue };
            while other < ranks.len() && ranks[other] < rank {
                let (n, v) = &self.other_tags[other];
                f(n.as_bytes(), v.as_bytes());
                other += 1;
            }
            f(name.as_bytes(), value);
        }
        for (n, v) in &self.other_tags[other..] {
            f(n.as_bytes(), v.as_bytes());
        }
        if let Some(fen) = &self.start_fen {
            if !self.other_tags.iter().any(|(n, _)| n == "FEN") {
                f(b"SetUp", b"1");
                f(b"FEN", fen.as_bytes());
            }
        }
    }

    /// Appends the comment the rebuild writes after main-line move `ply`, `{ [%eval E] [%clk C] }`
    /// (see [`write_ply_comment`](GameRow::write_ply_comment)); false, nothing appended, when
    /// the row has neither for that ply.
    fn put_ply_comment(&self, ply: usize, out: &mut Vec<u8>) -> bool {
        out.push(b'{');
        if !self.put_ply_comment_text(ply, out) {
            out.pop();
            return false;
        }
        out.push(b'}');
        true
    }

    /// Appends the text of the comment the rebuild writes after main-line move `ply` (0-based),
    /// ` [%eval E] [%clk C] `, either command alone; false, nothing appended, when the row has
    /// neither for that ply.
    pub(crate) fn put_ply_comment_text(&self, ply: usize, out: &mut impl Sink) -> bool {
        let item = |list: &Option<Vec<Option<i32>>>| list.as_ref().and_then(|l| l.get(ply).copied().flatten());
        let (eval, clock) = (item(&self.evals), item(&self.clocks));
        if eval.is_none() && clock.is_none() {
            return false;
        }
        if let Some(eval) = eval {
            out.put(b" [%eval ");
            put_eval(out, eval);
            out.put(b"]");
        }
        if let Some(clock) = clock {
            out.put(b" [%clk ");
            put_clock(out, clock);
            out.put(b"]");
        }
        out.put(b" ");
        true
    }

    /// Appends the PGN of a row without `annotations` to `out`: what
    /// [`to_game_tree`](GameRow::to_game_tree) written with the default options gives, byte for
    /// byte.
    pub(crate) fn put_pgn(
        &self,
        code: MovesCode,
        out: &mut Vec<u8>,
        scratch: &mut Scratch,
    ) -> Result<(), RebuildError> {
        let plies = usize::try_from(self.plies).map_err(|_| RebuildError::Plies(self.plies))?;
        let variant = self.other_tags.iter().rev().find(|(n, _)| n == "Variant");
        let start = super::start_position(self.start_fen.as_deref(), variant.map(|(_, v)| v.as_str()))?;
        let bytes = self.moves.as_deref().ok_or(RebuildError::NullMove)?;
        code.decode_into(&start, bytes, plies, &mut scratch.moves)
            .map_err(|reason| RebuildError::Moves { code, reason })?;
        self.put_tag_lines(out, &mut scratch.ranks);
        let mut line = Wrapped { out, column: 0 };
        let first_ply = (start.fullmove_number().max(1) - 1) * 2 + u32::from(start.turn() == Color::Black);
        let mut pos: Position = start;
        let mut need_number = true;
        let token = &mut scratch.token;
        for (i, &m) in scratch.moves.iter().enumerate() {
            let ply = first_ply + i as u32;
            token.clear();
            let white = ply.is_multiple_of(2);
            if white || need_number {
                put_u32(token, ply / 2 + 1, 1);
                token.extend_from_slice(if white { b". " } else { b"... " });
            }
            scratch.san.clear();
            // Writing to a String cannot fail.
            let _ = write!(scratch.san, "{}", pos.san(m));
            token.extend_from_slice(scratch.san.as_bytes());
            line.token(token);
            pos.play_unchecked(m);
            token.clear();
            need_number = self.put_ply_comment(i, token);
            if need_number {
                line.token(token);
            }
        }
        let result: GameResult = self.result_token();
        line.token(result.as_str().as_bytes());
        line.out.extend_from_slice(b"\n\n");
        Ok(())
    }
}

/// `v` in decimal, a `-` before a negative one.
fn put_i16(out: &mut impl Sink, v: i16) {
    if v < 0 {
        out.put(b"-");
    }
    put_u32(out, u32::from(v.unsigned_abs()), 1);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(put: impl FnOnce(&mut Vec<u8>)) -> String {
        let mut out = Vec::new();
        put(&mut out);
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn numbers_are_written_as_format_writes_them() {
        for v in [0u32, 1, 9, 10, 99, 100, 12_345, u32::MAX] {
            assert_eq!(text(|o| put_u32(o, v, 1)), v.to_string());
            assert_eq!(text(|o| put_u32(o, v, 2)), format!("{v:02}"));
            assert_eq!(text(|o| put_u32(o, v, 4)), format!("{v:04}"));
        }
        for v in [i16::MIN, -1500, -1, 0, 7, i16::MAX] {
            assert_eq!(text(|o| put_i16(o, v)), v.to_string());
            let diff = if v < 0 { v.to_string() } else { format!("+{v}") };
            assert_eq!(text(|o| put_rating_diff(o, v)), diff);
        }
        for s in [i32::MIN, -1, 0, 59, 3723, 86_399, 360_000, i32::MAX] {
            let c = s.max(0);
            let want = format!("{}:{:02}:{:02}", c / 3600, c / 60 % 60, c % 60);
            assert_eq!(text(|o| put_clock(o, s)), want);
            let want = format!("{:02}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60);
            assert_eq!(text(|o| put_time(o, s)), want);
        }
    }

    #[test]
    fn dates_before_the_year_zero_and_after_9999() {
        assert_eq!(text(|o| put_date(o, 0)), "1970.01.01");
        assert_eq!(text(|o| put_date(o, 2_932_896)), "9999.12.31");
        assert_eq!(text(|o| put_date(o, 2_932_897)), "10000.01.01");
        assert_eq!(text(|o| put_date(o, -719_528)), "0000.01.01");
        assert_eq!(text(|o| put_date(o, -719_529)), "-001.12.31");
    }
}
