//! Commands embedded in comments, `[%name arguments]`, as lichess, ChessBase and others write them:
//! `%clk` (the clock), `%eval` (an engine evaluation), `%csl` and `%cal` (coloured squares and
//! arrows). They are read from a comment's bytes, which stay as they are.

use core::fmt;
use std::time::Duration;

use super::text::Comment;
use super::tree::Node;
use crate::types::Square;

/// One `[%name arguments]` command of a comment: the name without its `%`, the arguments without
/// the spaces around them.
///
/// ```
/// use chessbits::pgn::Comment;
/// let comment = Comment::from("good [%clk 0:01:23] [%emt  0:00:05 ]");
/// let commands: Vec<_> = comment.commands().collect();
/// assert_eq!(commands[0].name, b"clk");
/// assert_eq!(commands[0].args, b"0:01:23");
/// assert_eq!(commands[1].args, b"0:00:05");
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Command<'a> {
    /// The name: letters, digits and `_` after the `%`.
    pub name: &'a [u8],
    /// The arguments, between the name and the `]`, trimmed.
    pub args: &'a [u8],
}

/// The commands of a comment's bytes, in order (see [`Comment::commands`]).
///
/// ```
/// let mut commands = chessbits::pgn::commands(b"[%eval 0.3] text [%broken [%csl Rd4]");
/// assert_eq!(commands.next().unwrap().name, b"eval");
/// assert_eq!(commands.next().unwrap().args, b"Rd4");
/// assert!(commands.next().is_none());
/// ```
pub fn commands(bytes: &[u8]) -> Commands<'_> {
    Commands { rest: bytes }
}

/// Iterator over the commands of a comment: what [`commands`] returns.
///
/// ```
/// assert_eq!(chessbits::pgn::commands(b"no commands").count(), 0);
/// ```
#[derive(Clone, Debug)]
pub struct Commands<'a> {
    rest: &'a [u8],
}

impl<'a> Iterator for Commands<'a> {
    type Item = Command<'a>;

    fn next(&mut self) -> Option<Command<'a>> {
        loop {
            let start = self.rest.windows(2).position(|w| w == b"[%")?;
            let body = &self.rest[start + 2..];
            let name_len = body
                .iter()
                .position(|&b| !(b.is_ascii_alphanumeric() || b == b'_'))
                .unwrap_or(body.len());
            let after = &body[name_len..];
            if name_len == 0 || !matches!(after.first(), Some(b' ' | b'\t' | b'\n' | b'\r' | b']')) {
                self.rest = body;
                continue;
            }
            // Arguments end at the `]`; a `[` first means this one was never closed.
            match after.iter().position(|&b| b == b']' || b == b'[') {
                Some(end) if after[end] == b']' => {
                    self.rest = &after[end + 1..];
                    return Some(Command {
                        name: &body[..name_len],
                        args: after[..end].trim_ascii(),
                    });
                }
                Some(end) => self.rest = &after[end..],
                None => {
                    self.rest = &[];
                    return None;
                }
            }
        }
    }
}

/// A `%clk` value as a duration: `h:mm:ss`, `m:ss`, with a fraction of a second (`1:02:03.4`, up
/// to nine digits) or without; minutes and seconds below 60 after the first field.
///
/// ```
/// use chessbits::pgn::parse_clock;
/// use std::time::Duration;
/// assert_eq!(parse_clock(b"0:01:23"), Some(Duration::from_secs(83)));
/// assert_eq!(parse_clock(b"1:02:03.4"), Some(Duration::from_millis(3_723_400)));
/// assert_eq!(parse_clock(b"5:07"), Some(Duration::from_secs(307)));
/// assert_eq!(parse_clock(b"0:61:00"), None);
/// assert_eq!(parse_clock(b"1:x:00"), None);
/// ```
pub fn parse_clock(text: &[u8]) -> Option<Duration> {
    // Bytes, not `str`: the export reads one clock a ply. A byte that is not a digit, `:` or
    // `.` (so any byte of a non-ASCII character) makes a field or the fraction fail.
    let (whole, nanos) = match text.iter().position(|&b| b == b'.') {
        Some(dot) => (&text[..dot], fraction_nanos(&text[dot + 1..])?),
        None => (text, 0),
    };
    // Two or three fields (`m:ss`, `h:mm:ss`), counted on the way.
    let mut fields = 0;
    let mut seconds: u64 = 0;
    for field in whole.split(|&b| b == b':') {
        let value = digits(field)?;
        if fields > 0 && value >= 60 {
            return None;
        }
        fields += 1;
        if fields > 3 {
            return None;
        }
        seconds = seconds.checked_mul(60)?.checked_add(value)?;
    }
    if fields < 2 {
        return None;
    }
    Some(Duration::new(seconds, nanos))
}

/// A run of ASCII digits as a number (no sign, not empty; `None` past `u64::MAX`).
fn digits(text: &[u8]) -> Option<u64> {
    if text.is_empty() {
        return None;
    }
    let mut value: u64 = 0;
    for &b in text {
        if !b.is_ascii_digit() {
            return None;
        }
        value = value.checked_mul(10)?.checked_add(u64::from(b - b'0'))?;
    }
    Some(value)
}

/// The digits after a decimal point as nanoseconds (1 to 9 digits).
fn fraction_nanos(fraction: &[u8]) -> Option<u32> {
    if fraction.len() > 9 {
        return None;
    }
    let value = u32::try_from(digits(fraction)?).ok()?;
    Some(value * 10u32.pow(9 - fraction.len() as u32))
}

/// An engine score: centipawns or mate, from White's point of view.
///
/// `Display` writes lichess's spelling: pawns with one or two decimals (`0.17`, `0.2`, `-1.05`,
/// `12.5`, `0.0`), mate as `#n` (`#-3`: Black mates in three).
///
/// ```
/// use chessbits::pgn::Score;
/// assert_eq!(Score::Centipawns(20).to_string(), "0.2");
/// assert_eq!(Score::Centipawns(-105).to_string(), "-1.05");
/// assert_eq!(Score::Mate(-3).to_string(), "#-3");
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Score {
    /// Hundredths of a pawn; positive: White is better. (`i64`: whatever a comment writes fits.)
    Centipawns(i64),
    /// Mate in this many moves; positive: White mates, negative: Black mates.
    Mate(i64),
}

impl fmt::Display for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Score::Mate(n) => write!(f, "#{n}"),
            Score::Centipawns(cp) => {
                let sign = if cp < 0 { "-" } else { "" };
                let abs = cp.unsigned_abs();
                match abs % 10 {
                    0 => write!(f, "{sign}{}.{}", abs / 100, abs % 100 / 10),
                    _ => write!(f, "{sign}{}.{:02}", abs / 100, abs % 100),
                }
            }
        }
    }
}

/// A `%eval` value: a [`Score`] and, if given (`[%eval 0.25,18]`), the search depth.
///
/// `Display` writes it back as lichess does (`0.25`, `#-2`, `0.25,18`).
///
/// ```
/// use chessbits::pgn::{Eval, Score};
/// let eval = Eval::parse(b"-0.3,22").unwrap();
/// assert_eq!(eval, Eval { score: Score::Centipawns(-30), depth: Some(22) });
/// assert_eq!(eval.to_string(), "-0.3,22");
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Eval {
    /// The score.
    pub score: Score,
    /// The depth of the search, if the comment gave it.
    pub depth: Option<u32>,
}

impl Eval {
    /// Parses a `%eval` value: pawns (`0.17`, `-1.05`, `+2`, `3.` ; digits beyond the hundredths
    /// are cut off, toward zero) or mate (`#4`, `#-2`), then optionally `,depth`.
    ///
    /// ```
    /// use chessbits::pgn::{Eval, Score};
    /// assert_eq!(Eval::parse(b"0.17").unwrap().score, Score::Centipawns(17));
    /// assert_eq!(Eval::parse(b"+2").unwrap().score, Score::Centipawns(200));
    /// assert_eq!(Eval::parse(b"#-2").unwrap().score, Score::Mate(-2));
    /// assert_eq!(Eval::parse(b"0.999").unwrap().score, Score::Centipawns(99));
    /// assert_eq!(Eval::parse(b"mate"), None);
    /// ```
    pub fn parse(text: &[u8]) -> Option<Eval> {
        let text = core::str::from_utf8(text).ok()?;
        let (score, depth) = match text.split_once(',') {
            Some((score, depth)) => (score, Some(u32::try_from(digits(depth.trim().as_bytes())?).ok()?)),
            None => (text, None),
        };
        let score = score.trim();
        let score = match score.strip_prefix('#') {
            Some(mate) => {
                let (negative, n) = sign(mate);
                let n = i64::try_from(digits(n.as_bytes())?).ok()?;
                Score::Mate(if negative { -n } else { n })
            }
            None => Score::Centipawns(centipawns(score)?),
        };
        Some(Eval { score, depth })
    }
}

/// Splits a leading `-` or `+` off: (negative, the rest).
fn sign(text: &str) -> (bool, &str) {
    match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text.strip_prefix('+').unwrap_or(text)),
    }
}

/// Pawns with an optional sign and decimals as centipawns (decimals beyond two cut off).
fn centipawns(text: &str) -> Option<i64> {
    let (negative, body) = sign(text);
    let (whole, fraction) = body.split_once('.').unwrap_or((body, ""));
    if !fraction.is_empty() && !fraction.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let mut hundredths = 0;
    for (i, b) in fraction.bytes().take(2).enumerate() {
        hundredths += i64::from(b - b'0') * if i == 0 { 10 } else { 1 };
    }
    let magnitude = i64::try_from(digits(whole.as_bytes())?)
        .ok()?
        .checked_mul(100)?
        .checked_add(hundredths)?;
    Some(if negative { -magnitude } else { magnitude })
}

impl fmt::Display for Eval {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.depth {
            Some(depth) => write!(f, "{},{depth}", self.score),
            None => self.score.fmt(f),
        }
    }
}

/// The colour of a [`Shape`]: the letters `R`, `G`, `B` and `Y` of `%csl` and `%cal`.
///
/// ```
/// use chessbits::pgn::Brush;
/// assert_eq!(Brush::from_letter(b'G'), Some(Brush::Green));
/// assert_eq!(Brush::Yellow.letter(), 'Y');
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Brush {
    /// `R`.
    Red,
    /// `G`.
    Green,
    /// `B`.
    Blue,
    /// `Y`.
    Yellow,
}

impl Brush {
    /// The brush of a letter (upper case).
    ///
    /// ```
    /// assert_eq!(chessbits::pgn::Brush::from_letter(b'X'), None);
    /// ```
    pub fn from_letter(letter: u8) -> Option<Brush> {
        match letter {
            b'R' => Some(Brush::Red),
            b'G' => Some(Brush::Green),
            b'B' => Some(Brush::Blue),
            b'Y' => Some(Brush::Yellow),
            _ => None,
        }
    }

    /// The letter of the brush.
    ///
    /// ```
    /// assert_eq!(chessbits::pgn::Brush::Red.letter(), 'R');
    /// ```
    pub fn letter(self) -> char {
        match self {
            Brush::Red => 'R',
            Brush::Green => 'G',
            Brush::Blue => 'B',
            Brush::Yellow => 'Y',
        }
    }
}

/// A coloured square (`%csl`: `from == to`) or arrow (`%cal`).
///
/// `Display` writes it as in the command: `Gd4` for a square, `Re2e4` for an arrow.
///
/// ```
/// use chessbits::pgn::{Brush, Comment, Shape};
/// use chessbits::Square;
/// let shapes = Comment::from("[%csl Gd4][%cal Re2e4,Yg1f3]").shapes();
/// assert_eq!(shapes[0], Shape { brush: Brush::Green, from: Square::D4, to: Square::D4 });
/// assert!(shapes[1].is_arrow());
/// assert_eq!(shapes[2].to_string(), "Yg1f3");
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Shape {
    /// The colour.
    pub brush: Brush,
    /// The square, or where the arrow starts.
    pub from: Square,
    /// The square again, or where the arrow points.
    pub to: Square,
}

impl Shape {
    /// Whether it is an arrow (`from != to`), not a square.
    ///
    /// ```
    /// use chessbits::pgn::{Brush, Shape};
    /// use chessbits::Square;
    /// assert!(!Shape { brush: Brush::Red, from: Square::A1, to: Square::A1 }.is_arrow());
    /// ```
    pub fn is_arrow(&self) -> bool {
        self.from != self.to
    }

    /// Parses one entry of `%csl` (`Rd4`) or `%cal` (`Ge2e4`).
    ///
    /// ```
    /// use chessbits::pgn::Shape;
    /// assert!(Shape::parse(b"Ge2e4").unwrap().is_arrow());
    /// assert_eq!(Shape::parse(b"Gz9"), None);
    /// ```
    pub fn parse(text: &[u8]) -> Option<Shape> {
        let (&letter, squares) = text.split_first()?;
        let brush = Brush::from_letter(letter)?;
        let square = |s: &[u8]| core::str::from_utf8(s).ok()?.parse::<Square>().ok();
        let (from, to) = match squares.len() {
            2 => (square(squares)?, square(squares)?),
            4 => (square(&squares[..2])?, square(&squares[2..])?),
            _ => return None,
        };
        Some(Shape { brush, from, to })
    }
}

impl fmt::Display for Shape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.is_arrow() {
            true => write!(f, "{}{}{}", self.brush.letter(), self.from, self.to),
            false => write!(f, "{}{}", self.brush.letter(), self.from),
        }
    }
}

impl Comment {
    /// The `[%name arguments]` commands of the comment, in order.
    ///
    /// ```
    /// use chessbits::pgn::Comment;
    /// let comment = Comment::from("[%eval 0.2] [%clk 0:03:00]");
    /// let names: Vec<&[u8]> = comment.commands().map(|c| c.name).collect();
    /// assert_eq!(names, [&b"eval"[..], b"clk"]);
    /// ```
    pub fn commands(&self) -> Commands<'_> {
        commands(self.as_bytes())
    }

    /// The first `%clk` command's clock, if it has one that parses ([`parse_clock`]).
    ///
    /// ```
    /// use chessbits::pgn::Comment;
    /// use std::time::Duration;
    /// assert_eq!(Comment::from("[%clk 0:00:09.5]").clock(), Some(Duration::from_millis(9500)));
    /// assert_eq!(Comment::from("[%clk soon]").clock(), None);
    /// ```
    pub fn clock(&self) -> Option<Duration> {
        self.command(b"clk").and_then(parse_clock)
    }

    /// The first `%eval` command's evaluation, if it has one that parses ([`Eval::parse`]).
    ///
    /// ```
    /// use chessbits::pgn::{Comment, Score};
    /// assert_eq!(Comment::from("[%eval #3]").eval().unwrap().score, Score::Mate(3));
    /// ```
    pub fn eval(&self) -> Option<Eval> {
        self.command(b"eval").and_then(Eval::parse)
    }

    /// The squares of every `%csl` and arrows of every `%cal` command, in order; entries that do
    /// not parse ([`Shape::parse`]) are left out.
    ///
    /// ```
    /// use chessbits::pgn::Comment;
    /// let shapes = Comment::from("[%cal Ge2e4, Xa1a2 ,Rd7d5]").shapes();
    /// assert_eq!(shapes.len(), 2);
    /// ```
    pub fn shapes(&self) -> Vec<Shape> {
        self.commands()
            .filter(|c| c.name == b"csl" || c.name == b"cal")
            .flat_map(|c| c.args.split(|&b| b == b','))
            .filter_map(|entry| Shape::parse(entry.trim_ascii()))
            .collect()
    }

    /// The arguments of the first command called `name`.
    fn command(&self, name: &[u8]) -> Option<&[u8]> {
        self.commands().find(|c| c.name == name).map(|c| c.args)
    }
}

impl Node {
    /// The clock after the move: the first `%clk` of the comments after it.
    ///
    /// ```
    /// use chessbits::pgn::GameTree;
    /// use std::time::Duration;
    /// let game = GameTree::from_pgn("1. e4 { [%clk 0:03:00] } e5 { [%clk 0:02:58.2] } *").unwrap();
    /// assert_eq!(game.moves.nodes[1].clock(), Some(Duration::from_millis(178_200)));
    /// ```
    pub fn clock(&self) -> Option<Duration> {
        self.comments_after.iter().find_map(Comment::clock)
    }

    /// The evaluation after the move: the first `%eval` of the comments after it.
    ///
    /// ```
    /// use chessbits::pgn::{GameTree, Score};
    /// let game = GameTree::from_pgn("1. e4 { [%eval 0.17] [%clk 0:03:00] } *").unwrap();
    /// assert_eq!(game.moves.nodes[0].eval().unwrap().score, Score::Centipawns(17));
    /// ```
    pub fn eval(&self) -> Option<Eval> {
        self.comments_after.iter().find_map(Comment::eval)
    }

    /// The squares and arrows of the comments after the move.
    ///
    /// ```
    /// use chessbits::pgn::GameTree;
    /// let game = GameTree::from_pgn("1. e4 { [%csl Ge4][%cal Rd7d5] } *").unwrap();
    /// assert_eq!(game.moves.nodes[0].shapes().len(), 2);
    /// ```
    pub fn shapes(&self) -> Vec<Shape> {
        self.comments_after.iter().flat_map(Comment::shapes).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The `str` reading `parse_clock` had before it read bytes: the oracle of the test below.
    fn parse_clock_as_str(text: &[u8]) -> Option<Duration> {
        let text = core::str::from_utf8(text).ok()?;
        let number = |s: &str| -> Option<u64> {
            match !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()) {
                true => s.parse().ok(),
                false => None,
            }
        };
        let (whole, nanos) = match text.split_once('.') {
            Some((whole, fraction)) if fraction.len() <= 9 => {
                let value = u32::try_from(number(fraction)?).ok()?;
                (whole, value * 10u32.pow(9 - fraction.len() as u32))
            }
            Some(_) => return None,
            None => (text, 0),
        };
        let fields: Vec<&str> = whole.split(':').collect();
        if !(2..=3).contains(&fields.len()) {
            return None;
        }
        let mut seconds: u64 = 0;
        for (i, field) in fields.iter().enumerate() {
            let value = number(field)?;
            if i > 0 && value >= 60 {
                return None;
            }
            seconds = seconds.checked_mul(60)?.checked_add(value)?;
        }
        Some(Duration::new(seconds, nanos))
    }

    /// Every string of up to five symbols from digits, `:`, `.`, a letter, a non-ASCII
    /// character's bytes and a lone continuation byte, and long and overflowing numbers: the
    /// byte reading agrees with the `str` reading.
    #[test]
    fn clocks_read_as_bytes_equal_the_str_reading() {
        let pieces: [&[u8]; 9] = [b"0", b"5", b"59", b"60", b":", b".", b"x", "\u{e9}".as_bytes(), b"\x80"];
        let mut stack: Vec<Vec<u8>> = vec![Vec::new()];
        let mut checked = 0;
        while let Some(text) = stack.pop() {
            assert_eq!(parse_clock(&text), parse_clock_as_str(&text), "{text:?}");
            checked += 1;
            if text.len() < 5 {
                for piece in pieces {
                    stack.push([&text[..], piece].concat());
                }
            }
        }
        assert!(checked > 10_000);
        for text in [
            "18446744073709551615:00",
            "18446744073709551616:00",
            "307445734561825860:00:00",
            "1:00.1234567890",
            "1:00.000000001",
            "99:59:59.999999999",
        ] {
            assert_eq!(
                parse_clock(text.as_bytes()),
                parse_clock_as_str(text.as_bytes()),
                "{text}"
            );
        }
    }

    #[test]
    fn clocks() {
        let ok = [
            ("0:00:00", 0, 0),
            ("10:00:00", 36_000, 0),
            ("0:59:59.9", 3599, 900_000_000),
            ("1:02:03.456", 3723, 456_000_000),
            ("0:00:01.000000001", 1, 1),
            ("999999:00:00", 999_999 * 3600, 0),
            ("00:05", 5, 0),
        ];
        for (text, secs, nanos) in ok {
            assert_eq!(parse_clock(text.as_bytes()), Some(Duration::new(secs, nanos)), "{text}");
        }
        let bad = [
            "",
            "1",
            "1:2:3:4",
            "0:60:00",
            "0:00:60",
            "0:-1:00",
            "+0:01:00",
            "0:01:00.",
            "0:01:00.1234567890",
            "0:01: 00",
            "a:00:00",
            "0:01:00.x",
            "99999999999999999999:00:00",
        ];
        for text in bad {
            assert_eq!(parse_clock(text.as_bytes()), None, "{text}");
        }
    }

    #[test]
    fn evals() {
        let cp = |cp, depth| {
            Some(Eval {
                score: Score::Centipawns(cp),
                depth,
            })
        };
        let mate = |n| {
            Some(Eval {
                score: Score::Mate(n),
                depth: None,
            })
        };
        let cases = [
            ("0.0", cp(0, None)),
            ("-0.05", cp(-5, None)),
            ("12.5", cp(1250, None)),
            ("-12.50", cp(-1250, None)),
            ("3.", cp(300, None)),
            ("0.25,18", cp(25, Some(18))),
            ("0.25, 18", cp(25, Some(18))),
            ("#0", mate(0)),
            ("#+4", mate(4)),
            ("#-12", mate(-12)),
            ("21474836.48", cp(2_147_483_648, None)),
            ("92233720368547758.07", cp(i64::MAX, None)),
            ("92233720368547758.08", None),
            ("", None),
            ("-", None),
            (".5", None),
            ("1.2.3", None),
            ("#", None),
            ("#1.5", None),
            ("0.2,", None),
            ("0.2,-1", None),
            ("1e3", None),
        ];
        for (text, expected) in cases {
            assert_eq!(Eval::parse(text.as_bytes()), expected, "{text}");
        }
        for text in ["0.17", "0.2", "-1.05", "12.5", "0.0", "#-3", "#7", "0.25,18", "-0.01"] {
            assert_eq!(Eval::parse(text.as_bytes()).unwrap().to_string(), text);
        }
    }

    #[test]
    fn commands_in_odd_places() {
        let names = |text: &[u8]| -> Vec<Vec<u8>> { commands(text).map(|c| c.name.to_vec()).collect() };
        assert_eq!(names(b"[%clk 0:00:01]"), [b"clk"]);
        assert!(names(b"[%clk 0:00:01").is_empty(), "unclosed");
        assert!(names(b"[% 1]").is_empty(), "no name");
        assert_eq!(names(b"[%a [%b x]"), [b"b"], "an unclosed command ends at the next");
        assert_eq!(names(b"\xe9[%c\xe9 x][%d]"), [b"d"], "the name is ASCII");
        assert_eq!(names(b"[%d]"), [b"d"], "no arguments");
        let comment = Comment::from("[%clk 0:01:00] [%clk 0:00:59]");
        assert_eq!(comment.clock(), Some(Duration::from_secs(60)), "the first one");
        assert_eq!(comment.as_bytes(), b"[%clk 0:01:00] [%clk 0:00:59]", "unchanged");
    }

    #[test]
    fn shapes() {
        let shapes = Comment::from("[%csl Rd4,Gf5 , Bh8][%cal Ya1h8][%csl d4,Rd9,Rd4d4d4]").shapes();
        let text: Vec<String> = shapes.iter().map(Shape::to_string).collect();
        assert_eq!(text, ["Rd4", "Gf5", "Bh8", "Ya1h8"]);
        assert_eq!(shapes[3].to, Square::H8);
    }
}
