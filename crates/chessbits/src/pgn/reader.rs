//! The streaming reader: a byte-level lexer over its own buffer, driving a [`Visitor`].
//!
//! Memory stays bounded whatever the input: one buffer (64 KiB, grown only to hold a single long
//! comment or tag, at most [`MAX_TOKEN_BYTES`]; a longer one is an error and is skipped in
//! constant memory). Short tokens are scanned in place; nothing is allocated per token. Every
//! byte is looked at a bounded number of times, whatever the line lengths and line-break style.
//!
//! Line breaks are `\n`, `\r\n` and a lone `\r` (old Mac files); each counts one line.
//!
//! Game boundaries: a game ends at its result token (outside variations), at a line that starts
//! a tag pair (`[Name "`: the next game's tags, when a result is missing), or at the end of the
//! input. A comment still open at a tag line that follows a blank line ends there, and so does its
//! game, with [`SyntaxError::UnclosedComment`]: one unclosed `{` cannot swallow the rest of a
//! file. Where a game ends depends only on its bytes, so a file cut into games by
//! [`PgnReader::read_raw_game`] reads exactly as it does in one stream.

use std::io::{self, Read};

use super::scan::{count_line_breaks, find_either, is_line_break};
use super::syntax::{
    ends_with_blank_line, starts_tag_pair, SyntaxError, MAX_GAME_BYTES, MAX_TOKEN_BYTES, MAX_VARIATION_DEPTH,
};
use super::visitor::{GameResult, Nag, RawComment, RawTag, SanToken, Skip, Visitor};
use crate::notation::san::San;

const INITIAL_CAPACITY: usize = 1 << 16;
/// Bytes made available before lexing a short token (move, number, NAG, result); also the
/// longest short token: a longer run of non-delimiters is cut after [`MAX_SHORT`] bytes, the
/// same way wherever the buffer happens to end.
const LOOKAHEAD: usize = 256;
/// The longest short token (see [`LOOKAHEAD`]).
const MAX_SHORT: usize = LOOKAHEAD - 1;

/// Bytes that end a move token.
const DELIMITER: [bool; 256] = {
    let mut table = [false; 256];
    let delimiters = b" \t\r\n\x0b\x0c{}()[];$!?";
    let mut i = 0;
    while i < delimiters.len() {
        table[delimiters[i] as usize] = true;
        i += 1;
    }
    table
};

/// Where [`PgnReader::lex_window`] stopped.
enum Stop {
    /// The movetext is over: a result outside variations, or the next game's tags.
    Finished,
    /// The window is exhausted: read more.
    WindowEnd,
    /// A token for the slow path: a comment not closed in the buffer, an escape line, a
    /// byte-order mark.
    Slow,
}

/// The nesting state of a movetext being read.
struct Movetext {
    depth: u32,
    muted_at: Option<u32>,
    /// The line of the outermost open variation.
    opened: u32,
    /// Bit `d`: the line at depth `d` has had a move (a NAG needs one before it).
    moved: u128,
    /// Something more than move numbers has been read: a game, not stray numbering.
    substance: bool,
}

impl Movetext {
    fn has_move(&self) -> bool {
        self.depth >= 128 || self.moved >> self.depth & 1 == 1
    }
}

/// Where a `{` comment ends, from the bytes after the `{`.
#[derive(Debug, PartialEq, Eq)]
enum CommentEnd {
    /// At the `}` at this offset.
    Closed(usize),
    /// Unclosed: the tag line of the next game starts at this offset.
    NextGame(usize),
    /// Not within these bytes.
    Undecided,
}

/// Where the comment whose text starts `text` ends. `more`: bytes may follow `text`.
fn comment_end(text: &[u8], more: bool) -> CommentEnd {
    let mut from = 0;
    while let Some(k) = find_either(&text[from..], b'}', b'[') {
        let k = from + k;
        if text[k] == b'}' {
            return CommentEnd::Closed(k);
        }
        if ends_with_blank_line(&text[..k]) {
            match starts_tag_pair(&text[k..], more) {
                Some(true) => return CommentEnd::NextGame(k),
                Some(false) => {}
                None => return CommentEnd::Undecided,
            }
        }
        from = k + 1;
    }
    CommentEnd::Undecided
}

/// Where a comment too long for the buffer ends, found a byte at a time with what
/// [`ends_with_blank_line`] looks back for kept as state (the buffer is emptied as it goes).
#[derive(Default)]
struct LongComment {
    /// Spaces and tabs since the last line break; `None` after anything else (or before the
    /// first line break).
    blanks: Option<usize>,
    /// The line that ended at the last line break was blank.
    blank_line: bool,
    /// The last byte was a line break.
    after_break: bool,
    /// The last byte was `\r`.
    after_cr: bool,
}

impl LongComment {
    /// Steps over `byte`; `true` if it is a `[` that may start the next game's tags.
    fn step(&mut self, byte: u8) -> bool {
        let candidate = byte == b'[' && self.after_break && self.blank_line;
        match byte {
            b'\n' if self.after_cr => {}
            b'\n' | b'\r' => {
                self.blank_line = self.blanks.is_some_and(|n| n <= 256);
                self.blanks = Some(0);
            }
            b' ' | b'\t' => self.blanks = self.blanks.map(|n| n + 1),
            _ => self.blanks = None,
        }
        self.after_break = is_line_break(byte);
        self.after_cr = byte == b'\r';
        candidate
    }
}

/// A visitor that takes nothing: reading a game only to find where it ends.
struct Muted;

impl Visitor for Muted {
    type Output = ();
    fn end_tags(&mut self) -> Skip {
        Skip(true)
    }
    fn end_game(&mut self) {}
}

/// Where a game read by [`PgnReader::read_raw_game`] stands in the input.
///
/// ```
/// use chessbits::pgn::PgnReader;
/// let mut reader = PgnReader::new(&b"1. e4 *\n\n[Event \"x\"]\n1. d4 *\n"[..]);
/// let mut bytes = Vec::new();
/// let first = reader.read_raw_game(&mut bytes).unwrap().unwrap();
/// assert_eq!((first.first_line, &bytes[..]), (1, &b"1. e4 *"[..]));
/// bytes.clear();
/// let second = reader.read_raw_game(&mut bytes).unwrap().unwrap();
/// assert_eq!((second.first_line, &bytes[..]), (3, &b"[Event \"x\"]\n1. d4 *"[..]));
/// assert!(reader.read_raw_game(&mut bytes).unwrap().is_none());
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct RawGame {
    /// The line the game starts on.
    pub first_line: u32,
    /// The game starts right after a line break (a `%` there would start an escape line).
    pub at_line_start: bool,
    /// The game is longer than [`MAX_GAME_BYTES`]: its bytes were not kept.
    pub too_long: bool,
}

impl RawGame {
    /// A reader over `bytes`, the game's bytes, that reads the game as the reader it came from
    /// read it: same line numbers, same tokens, same errors.
    ///
    /// ```
    /// use chessbits::pgn::PgnReader;
    /// let mut reader = PgnReader::new(&b"\n\n1. e4 e4 *"[..]);
    /// let mut bytes = Vec::new();
    /// let raw = reader.read_raw_game(&mut bytes).unwrap().unwrap();
    /// let error = raw.reader(&bytes[..]).read_owned_game().unwrap().unwrap().unwrap_err();
    /// assert_eq!(error.to_string(), "line 3: illegal move 'e4'");
    /// ```
    pub fn reader<'a>(&self, bytes: &'a [u8]) -> PgnReader<&'a [u8]> {
        // A buffer the size of the game (most are a few hundred bytes): clearing 64 KiB per game
        // cost more than reading it.
        let mut reader = PgnReader::with_capacity(bytes, self.first_line, bytes.len() + 2 * LOOKAHEAD);
        reader.after_newline = self.at_line_start;
        reader
    }
}

/// Collects the bytes of the game being read by [`PgnReader::read_raw_game`].
struct Capture {
    bytes: Vec<u8>,
    /// Where the bytes not yet copied start in the reader's buffer.
    from: usize,
    /// Length of `bytes` when the game started.
    kept: usize,
    too_long: bool,
}

/// Reads PGN games one at a time from any [`Read`], feeding their tokens to a [`Visitor`].
///
/// Handles a byte-order mark, every line-break style, `%` escape lines, `;` and `{}` comments,
/// nested variations, NAGs (`$n` and `!?` symbols), null moves, missing results, and any bytes
/// (text is only decoded when a visitor asks). Errors are not fatal: malformed moves reach the
/// visitor as [`SanToken`]s with an error, problems with the text as
/// [`Visitor::syntax_error`], and reading goes on with the next game.
///
/// ```
/// use chessbits::pgn::{PgnReader, Game};
///
/// let pgn = "[Event \"Casual\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6?? 4. Qxf7# 1-0\n";
/// let mut reader = PgnReader::new(pgn.as_bytes());
/// let game: Game = reader.read_owned_game().unwrap().unwrap().unwrap();
/// assert_eq!(game.tag("Event").as_deref(), Some("Casual"));
/// assert_eq!(game.moves.nodes.len(), 7);
/// assert!(reader.read_owned_game().unwrap().is_none());
/// ```
pub struct PgnReader<R> {
    inner: R,
    buf: Vec<u8>,
    start: usize,
    end: usize,
    eof: bool,
    line: u32,
    /// The last byte consumed was a line break (or nothing was consumed): a `%` here escapes
    /// the line.
    after_newline: bool,
    /// Bytes of the input before `buf[0]`.
    base: u64,
    capture: Option<Capture>,
    /// A read error, held back until the bytes read before it are lexed: the games that end
    /// before it are whole and are returned first ([`eof`](Self::eof) is set meanwhile).
    error: Option<io::Error>,
    /// The last movetext ended where the input did (or where the read error struck).
    at_end: bool,
}

impl<R: Read> PgnReader<R> {
    /// A reader starting at line 1.
    ///
    /// ```
    /// use chessbits::pgn::PgnReader;
    /// let reader = PgnReader::new(&b"1. e4 *"[..]);
    /// assert_eq!(reader.line(), 1);
    /// ```
    pub fn new(inner: R) -> PgnReader<R> {
        PgnReader::with_first_line(inner, 1)
    }

    /// A reader whose first line is numbered `line`: for a part cut out of a larger file.
    ///
    /// ```
    /// use chessbits::pgn::PgnReader;
    /// let reader = PgnReader::with_first_line(&b"1. e4 *"[..], 120);
    /// assert_eq!(reader.line(), 120);
    /// ```
    pub fn with_first_line(inner: R, line: u32) -> PgnReader<R> {
        PgnReader::with_capacity(inner, line, INITIAL_CAPACITY)
    }

    /// A reader whose buffer starts at `capacity` bytes (it grows as tokens need).
    fn with_capacity(inner: R, line: u32, capacity: usize) -> PgnReader<R> {
        PgnReader {
            inner,
            buf: vec![0; capacity.max(4 * LOOKAHEAD)],
            start: 0,
            end: 0,
            eof: false,
            line,
            after_newline: true,
            base: 0,
            capture: None,
            error: None,
            at_end: false,
        }
    }

    /// The end of the input: `None`, or the read error that ended it.
    fn end_of_input<T>(&mut self) -> io::Result<Option<T>> {
        match self.error.take() {
            Some(error) => Err(error),
            None => Ok(None),
        }
    }

    /// After a game: a game cut off by a read error is no game, the error is returned instead.
    fn cut_by_error(&mut self) -> io::Result<()> {
        if self.at_end {
            if let Some(error) = self.error.take() {
                return Err(error);
            }
        }
        Ok(())
    }

    /// The line the reader is on.
    ///
    /// ```
    /// use chessbits::pgn::{PgnReader, Skip, Visitor};
    /// struct Nothing;
    /// impl Visitor for Nothing {
    ///     type Output = ();
    ///     fn end_game(&mut self) {}
    /// }
    /// let mut reader = PgnReader::new(&b"1. e4 *\n\n1. d4 *\n"[..]);
    /// reader.read_game(&mut Nothing).unwrap();
    /// assert_eq!(reader.line(), 1);
    /// reader.read_game(&mut Nothing).unwrap();
    /// assert_eq!(reader.line(), 3);
    /// ```
    pub fn line(&self) -> u32 {
        self.line
    }

    /// The bytes of the input consumed so far.
    ///
    /// ```
    /// use chessbits::pgn::PgnReader;
    /// let mut reader = PgnReader::new(&b"1. e4 *\n1. d4 *"[..]);
    /// reader.skip_game().unwrap();
    /// assert_eq!(reader.position(), 7);
    /// ```
    pub fn position(&self) -> u64 {
        self.base + self.start as u64
    }

    /// The underlying reader (bytes it had delivered but the reader had not consumed are lost).
    ///
    /// ```
    /// use chessbits::pgn::PgnReader;
    /// let reader = PgnReader::new(&b"1. e4 *"[..]);
    /// assert_eq!(reader.into_inner(), b"1. e4 *");
    /// ```
    pub fn into_inner(self) -> R {
        self.inner
    }

    /// The unconsumed bytes in the buffer.
    #[inline(always)]
    fn avail(&self) -> &[u8] {
        &self.buf[self.start..self.end]
    }

    /// Makes at least `want` bytes available, unless the input ends first.
    fn fill(&mut self, want: usize) -> io::Result<()> {
        while self.end - self.start < want && !self.eof {
            if self.buf.len() - self.start < want {
                // Move the unconsumed bytes to the front; grow if they still would not fit.
                if let Some(capture) = &mut self.capture {
                    if !capture.too_long {
                        capture.bytes.extend_from_slice(&self.buf[capture.from..self.start]);
                        if (capture.bytes.len() - capture.kept) as u64 > MAX_GAME_BYTES {
                            capture.too_long = true;
                            capture.bytes.truncate(capture.kept);
                            capture.bytes.shrink_to(capture.kept.max(INITIAL_CAPACITY));
                        }
                    }
                    capture.from = 0;
                }
                self.buf.copy_within(self.start..self.end, 0);
                self.base += self.start as u64;
                self.end -= self.start;
                self.start = 0;
                if self.buf.len() < want {
                    let len = want.max(self.buf.len() * 2);
                    self.buf.resize(len, 0);
                }
            }
            match self.inner.read(&mut self.buf[self.end..]) {
                Ok(0) => self.eof = true,
                Ok(n) => self.end += n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => {
                    // Lex what was read first: the games before the error are whole.
                    self.error = Some(e);
                    self.eof = true;
                }
            }
        }
        Ok(())
    }

    #[inline(always)]
    fn ensure(&mut self, want: usize) -> io::Result<()> {
        if self.end - self.start < want && !self.eof {
            self.fill(want)?;
        }
        Ok(())
    }

    /// Consumes `n` bytes that hold no line break.
    #[inline(always)]
    fn consume(&mut self, n: usize) {
        self.start += n;
        self.after_newline = false;
    }

    /// Consumes `n` bytes, counting their line breaks; the byte after them, if any, must be in
    /// the buffer when they end with `\r`.
    fn consume_counting(&mut self, n: usize) {
        let bytes = &self.buf[self.start..self.start + n];
        let next = self.buf[..self.end].get(self.start + n).copied();
        self.line += count_line_breaks(bytes, next);
        if let Some(&last) = bytes.last() {
            self.after_newline = is_line_break(last);
        }
        self.start += n;
    }

    /// Consumes bytes up to the next line break (not included) or the end of the input, without
    /// keeping them: the rest of an escape line, of a too long tag or line comment.
    fn skip_to_line_break(&mut self) -> io::Result<()> {
        loop {
            if let Some(i) = find_either(self.avail(), b'\n', b'\r') {
                self.consume(i);
                return Ok(());
            }
            let len = self.avail().len();
            self.consume(len);
            if self.eof {
                return Ok(());
            }
            self.fill(1)?;
        }
    }

    /// Skips whitespace, byte-order marks and `%` escape lines.
    #[inline(always)]
    fn skip_whitespace(&mut self) -> io::Result<()> {
        // Fast path: spaces and line breaks, then a byte that is neither the start of an escape
        // line nor of a byte-order mark, all in the buffer.
        let avail = self.avail();
        let mut i = 0;
        let mut lines = 0;
        while let Some(&byte) = avail.get(i) {
            match byte {
                b' ' | b'\t' => {}
                b'\n' => lines += 1,
                b'\r' => match avail.get(i + 1) {
                    Some(b'\n') => {}
                    Some(_) => lines += 1,
                    None => break,
                },
                _ => break,
            }
            i += 1;
        }
        match avail.get(i) {
            Some(&byte) if !matches!(byte, b'%' | b'\r' | 0xef | 0x0b | 0x0c) => {
                if i > 0 {
                    self.after_newline = is_line_break(avail[i - 1]);
                }
                self.line += lines;
                self.start += i;
                Ok(())
            }
            _ => self.skip_whitespace_slow(),
        }
    }

    fn skip_whitespace_slow(&mut self) -> io::Result<()> {
        loop {
            self.ensure(3)?;
            let (mut i, end) = (self.start, self.end);
            let mut after_newline = self.after_newline;
            let mut escape_line = false;
            let mut need_more = false;
            while i < end {
                match self.buf[i] {
                    b'\n' => {
                        self.line += 1;
                        after_newline = true;
                    }
                    b'\r' => match self.buf[..end].get(i + 1) {
                        // Counted with its line feed.
                        Some(b'\n') => {}
                        None if !self.eof => {
                            need_more = true;
                            break;
                        }
                        _ => {
                            self.line += 1;
                            after_newline = true;
                        }
                    },
                    b' ' | b'\t' | 0x0b | 0x0c => after_newline = false,
                    b'%' if after_newline => {
                        escape_line = true;
                        break;
                    }
                    // A byte-order mark: skipped, and a line start stays one.
                    0xef => match self.buf[..end].get(i + 1..i + 3) {
                        Some([0xbb, 0xbf]) => i += 2,
                        None if !self.eof && end - i < 3 => {
                            need_more = true;
                            break;
                        }
                        _ => break,
                    },
                    _ => break,
                }
                i += 1;
            }
            self.start = i;
            self.after_newline = after_newline;
            if escape_line {
                self.skip_to_line_break()?;
            } else if need_more {
                let want = self.avail().len() + 3;
                self.fill(want)?;
            } else if i < end || self.eof {
                return Ok(());
            }
        }
    }

    /// Reads the next game into `visitor`; `None` at the end of the input.
    ///
    /// ```
    /// use chessbits::pgn::{PgnReader, RawTag, Visitor};
    ///
    /// struct Events(Vec<String>);
    /// impl Visitor for Events {
    ///     type Output = Vec<String>;
    ///     fn tag(&mut self, name: &[u8], value: RawTag<'_>, line: u32) {
    ///         self.0.push(format!("{line}: {}={}", String::from_utf8_lossy(name), value.decode()));
    ///     }
    ///     fn san(&mut self, token: chessbits::pgn::SanToken<'_>) {
    ///         self.0.push(format!("{}: {}", token.line, token.san.unwrap()));
    ///     }
    ///     fn end_game(&mut self) -> Vec<String> {
    ///         std::mem::take(&mut self.0)
    ///     }
    /// }
    ///
    /// let pgn = b"[White \"Tal\"]\n\n1. e4\ne5 *";
    /// let events = PgnReader::new(&pgn[..]).read_game(&mut Events(vec![])).unwrap().unwrap();
    /// assert_eq!(events, ["1: White=Tal", "3: e4", "4: e5"]);
    /// ```
    pub fn read_game<V: Visitor>(&mut self, visitor: &mut V) -> io::Result<Option<V::Output>> {
        loop {
            self.skip_whitespace()?;
            if self.start == self.end {
                return self.end_of_input();
            }
            let (first_line, game_start) = (self.line, self.position());
            visitor.begin_game();
            let tags = self.read_tags(visitor)?;
            let skip = visitor.end_tags();
            let substance = self.read_movetext(visitor, skip.0)?;
            self.cut_by_error()?;
            if !substance && !tags {
                // Move numbers and dots alone: no game.
                continue;
            }
            if self.position() - game_start > MAX_GAME_BYTES {
                visitor.syntax_error(SyntaxError::GameTooLong, first_line);
            }
            return Ok(Some(visitor.end_game()));
        }
    }

    /// Reads the next game's bytes, as they stand in the input, onto the end of `bytes`, and
    /// where the game stands; `None` at the end of the input. The game ends where
    /// [`read_game`](PgnReader::read_game) would end it; [`RawGame::reader`] reads it back with
    /// the same lines, tokens and errors. Whitespace before and after the game is not included
    /// (not even the blank lines that end an unclosed comment). A game
    /// longer than [`MAX_GAME_BYTES`] is skipped in bounded memory: `too_long`, nothing added.
    ///
    /// This is how a file is cut into games for several threads, and how a game that cannot be
    /// understood is kept as it was written.
    ///
    /// ```
    /// use chessbits::pgn::PgnReader;
    /// let pgn = b"[Event \"a\"]\n\n1. e4 {unclosed\n\n[Event \"b\"]\n\n1. d4 *";
    /// let mut reader = PgnReader::new(&pgn[..]);
    /// let mut bytes = Vec::new();
    /// reader.read_raw_game(&mut bytes).unwrap().unwrap();
    /// assert_eq!(bytes, b"[Event \"a\"]\n\n1. e4 {unclosed");
    /// ```
    pub fn read_raw_game(&mut self, bytes: &mut Vec<u8>) -> io::Result<Option<RawGame>> {
        loop {
            self.skip_whitespace()?;
            if self.start == self.end {
                return self.end_of_input();
            }
            let mut raw = RawGame {
                first_line: self.line,
                at_line_start: self.after_newline,
                too_long: false,
            };
            let kept = bytes.len();
            self.capture = Some(Capture {
                bytes: std::mem::take(bytes),
                from: self.start,
                kept,
                too_long: false,
            });
            let read = self.read_tags(&mut Muted).and_then(|tags| {
                let substance = self.read_movetext(&mut Muted, true)?;
                Ok(tags || substance)
            });
            if let Some(mut capture) = self.capture.take() {
                if !capture.too_long {
                    capture.bytes.extend_from_slice(&self.buf[capture.from..self.start]);
                }
                if capture.too_long || (capture.bytes.len() - kept) as u64 > MAX_GAME_BYTES {
                    capture.bytes.truncate(kept);
                    raw.too_long = true;
                }
                // The text ends with its last token: blanks read on to find the game's end
                // (before the next game's tags, or the end of the input) belong to no game.
                let blanks = capture.bytes[kept..]
                    .iter()
                    .rev()
                    .take_while(|b| b.is_ascii_whitespace() || **b == 0x0b)
                    .count();
                capture.bytes.truncate(capture.bytes.len() - blanks);
                *bytes = capture.bytes;
                if read.is_err() || self.at_end && self.error.is_some() {
                    bytes.truncate(kept);
                }
                if matches!(read, Ok(false)) && self.error.is_none() {
                    // Move numbers and dots alone: no game (as `read_game` sees it).
                    bytes.truncate(kept);
                    continue;
                }
            }
            read?;
            self.cut_by_error()?;
            return Ok(Some(raw));
        }
    }

    /// Skips the next game; `false` at the end of the input.
    ///
    /// ```
    /// use chessbits::pgn::PgnReader;
    /// let mut reader = PgnReader::new(&b"1. e4 *\n1. d4 *"[..]);
    /// assert!(reader.skip_game().unwrap());
    /// let game = reader.read_owned_game().unwrap().unwrap().unwrap();
    /// assert_eq!(game.moves.nodes[0].san.to_string(), "d4");
    /// ```
    pub fn skip_game(&mut self) -> io::Result<bool> {
        Ok(self.read_game(&mut Muted)?.is_some())
    }

    /// Reads the tag section; whether it had any.
    fn read_tags<V: Visitor>(&mut self, visitor: &mut V) -> io::Result<bool> {
        let mut any = false;
        loop {
            self.skip_whitespace()?;
            if self.avail().first() != Some(&b'[') {
                return Ok(any);
            }
            any = true;
            self.read_tag(visitor)?;
        }
    }

    /// Reads one `[Name "value"]`, leaving the read position after its `]`, or reports a
    /// malformed tag and leaves the read position after its `]` or at the end of its line. The
    /// value runs to the last `"` before a `]` on the line, so `[White ""Mr X""]` keeps its
    /// quotes. Nothing beyond the tag's own line is looked at.
    fn read_tag<V: Visitor>(&mut self, visitor: &mut V) -> io::Result<()> {
        let line = self.line;
        loop {
            let scan = scan_tag(self.avail(), !self.eof);
            let too_long = match scan {
                TagScan::Pair { end, .. } | TagScan::Malformed { end } => end > MAX_TOKEN_BYTES,
                TagScan::More => self.avail().len() > MAX_TOKEN_BYTES,
            };
            if too_long {
                // Skipped to its line break, however much of it the buffer happens to hold.
                visitor.syntax_error(SyntaxError::TokenTooLong, line);
                return self.skip_to_line_break();
            }
            match scan {
                TagScan::Pair { name, value, end } => {
                    let bytes = self.avail();
                    visitor.tag(&bytes[name.0..name.1], RawTag(&bytes[value.0..value.1]), line);
                    self.consume(end);
                    return Ok(());
                }
                TagScan::Malformed { end } => {
                    visitor.syntax_error(SyntaxError::MalformedTag, line);
                    self.consume(end);
                    return Ok(());
                }
                TagScan::More => {
                    let want = grown(self.avail().len());
                    self.fill(want)?;
                }
            }
        }
    }

    /// Reads a `{}` comment, delivering it unless `muted`; `true` if the comment is unclosed at
    /// the next game's tags, which end this game.
    fn read_brace_comment<V: Visitor>(&mut self, visitor: &mut V, muted: bool) -> io::Result<bool> {
        let line = self.line;
        loop {
            let more = !self.eof;
            let (text_end, next_game) = match comment_end(&self.avail()[1..], more) {
                CommentEnd::Closed(k) => (k, false),
                CommentEnd::NextGame(k) => (k, true),
                CommentEnd::Undecided if !more => (self.avail().len() - 1, false),
                CommentEnd::Undecided if self.avail().len() > MAX_TOKEN_BYTES => {
                    if !muted {
                        visitor.syntax_error(SyntaxError::TokenTooLong, line);
                    }
                    return self.skip_long_comment(visitor, muted, line);
                }
                CommentEnd::Undecided => {
                    let want = grown(self.avail().len());
                    self.fill(want)?;
                    continue;
                }
            };
            let closed = text_end + 1 < self.avail().len() && self.avail()[1 + text_end] == b'}' && !next_game;
            if !muted {
                deliver_comment(visitor, &self.avail()[1..1 + text_end], line);
                if !closed {
                    visitor.syntax_error(SyntaxError::UnclosedComment, line);
                }
            }
            self.consume_counting(1 + text_end + usize::from(closed));
            return Ok(next_game);
        }
    }

    /// Goes past a comment longer than [`MAX_TOKEN_BYTES`] in bounded memory, a byte at a time;
    /// what [`read_brace_comment`](Self::read_brace_comment) returns.
    fn skip_long_comment<V: Visitor>(&mut self, visitor: &mut V, muted: bool, line: u32) -> io::Result<bool> {
        let mut state = LongComment::default();
        // Past the `{`.
        self.consume(1);
        loop {
            self.ensure(LOOKAHEAD)?;
            let avail = self.avail();
            if avail.is_empty() {
                if !muted {
                    visitor.syntax_error(SyntaxError::UnclosedComment, line);
                }
                return Ok(false);
            }
            // The bytes after which a tag check has all the lookahead it may need (and the byte
            // after a `\r`, for counting lines): all of them at the end of the input.
            let safe = if self.eof {
                avail.len()
            } else {
                avail.len() + 1 - LOOKAHEAD
            };
            let mut found = None;
            for (i, &byte) in avail[..safe].iter().enumerate() {
                if byte == b'}' {
                    found = Some((i + 1, false));
                    break;
                }
                if state.step(byte) && starts_tag_pair(&avail[i..], !self.eof) == Some(true) {
                    found = Some((i, true));
                    break;
                }
            }
            if let Some((consumed, next_game)) = found {
                self.consume_counting(consumed);
                if next_game && !muted {
                    visitor.syntax_error(SyntaxError::UnclosedComment, line);
                }
                return Ok(next_game);
            }
            self.consume_counting(safe);
        }
    }

    /// Reads a `;` comment to the end of the line (the line break is left for the caller).
    fn read_line_comment<V: Visitor>(&mut self, visitor: &mut V, muted: bool) -> io::Result<()> {
        let line = self.line;
        loop {
            let text = &self.avail()[1..];
            let eol = match find_either(text, b'\n', b'\r') {
                Some(k) => k,
                None if self.eof => text.len(),
                None if text.len() > MAX_TOKEN_BYTES => {
                    if !muted {
                        visitor.syntax_error(SyntaxError::TokenTooLong, line);
                    }
                    return self.skip_to_line_break();
                }
                None => {
                    let want = grown(self.avail().len());
                    self.fill(want)?;
                    continue;
                }
            };
            if !muted {
                deliver_comment(visitor, &text[..eol], line);
            }
            self.consume(1 + eol);
            return Ok(());
        }
    }

    /// Reads the movetext; whether it held more than move numbers.
    fn read_movetext<V: Visitor>(&mut self, visitor: &mut V, skip_all: bool) -> io::Result<bool> {
        let mut state = Movetext {
            depth: 0,
            // Events are muted while depth >= muted_at: a skipped variation, or (0) all.
            muted_at: if skip_all { Some(0) } else { None },
            opened: 0,
            moved: 0,
            substance: false,
        };
        self.at_end = false;
        loop {
            if self.end - self.start <= LOOKAHEAD && !self.eof {
                self.fill(2 * LOOKAHEAD)?;
            }
            let window_start = self.start;
            let (i, line, stop) = self.lex_window(visitor, &mut state);
            // The byte before the read position tells whether a `%` there would start a line.
            if i > window_start {
                self.after_newline = is_line_break(self.buf[i - 1]);
            }
            self.start = i;
            self.line = line;
            match stop {
                Stop::Finished => return Ok(state.substance),
                Stop::WindowEnd if self.eof && self.start == self.end => {
                    self.at_end = true;
                    break;
                }
                Stop::WindowEnd => {}
                Stop::Slow => {
                    let muted = state.muted_at.is_some();
                    match self.buf[self.start] {
                        b'{' => {
                            state.substance = true;
                            if self.read_brace_comment(visitor, muted)? {
                                break;
                            }
                        }
                        b';' => {
                            state.substance = true;
                            self.read_line_comment(visitor, muted)?;
                        }
                        // A `%` escape line, a byte-order mark or a `\r` at the window's end.
                        _ => self.skip_whitespace_slow()?,
                    }
                }
            }
        }
        // The input or the game ended inside a variation.
        if state.depth > 0 && state.muted_at.is_none() {
            visitor.syntax_error(SyntaxError::UnclosedVariation, state.opened);
        }
        Ok(state.substance)
    }

    /// Lexes the movetext tokens that start in the window (the available bytes less the last
    /// [`LOOKAHEAD`], unless the input has ended: every short token there is whole), delivering
    /// them. Returns the read position, the line there and why it stopped.
    ///
    /// One loop over a local slice and index: what the hot path touches stays in registers, and
    /// whitespace, move numbers and short comments cost no call.
    #[inline(always)]
    fn lex_window<V: Visitor>(&self, visitor: &mut V, state: &mut Movetext) -> (usize, u32, Stop) {
        let end = self.end;
        let safe_end = if self.eof { end } else { end - LOOKAHEAD };
        let buf = &self.buf[..end];
        let mut i = self.start;
        let mut line = self.line;
        while i < safe_end {
            let first = buf[i];
            let muted = state.muted_at.is_some();
            if matches!(
                first,
                b'{' | b';' | b'(' | b')' | b'$' | b'!' | b'?' | b'*' | b'}' | b']'
            ) {
                state.substance = true;
            }
            match first {
                b' ' | b'\t' | 0x0b | 0x0c => i += 1,
                b'\n' => {
                    line += 1;
                    i += 1;
                }
                b'\r' => {
                    if buf.get(i + 1) != Some(&b'\n') {
                        line += 1;
                    }
                    i += 1;
                }
                b'[' => {
                    let line_start = if i > self.start {
                        is_line_break(buf[i - 1])
                    } else {
                        self.after_newline
                    };
                    // A whole tag's start is in the window (see `starts_tag_pair`).
                    if line_start && starts_tag_pair(&buf[i..], !self.eof) == Some(true) {
                        if state.depth > 0 && !muted {
                            visitor.syntax_error(SyntaxError::UnclosedVariation, state.opened);
                        }
                        return (i, line, Stop::Finished);
                    }
                    // A stray `[` is something; a tag line ending the game is not.
                    state.substance = true;
                    if !muted {
                        visitor.syntax_error(SyntaxError::Unexpected('['), line);
                    }
                    i += 1;
                }
                b'{' => {
                    // Closed within the buffer: delivered here; else by the slow path, which
                    // reads on.
                    let CommentEnd::Closed(k) = comment_end(&buf[i + 1..], !self.eof) else {
                        return (i, line, Stop::Slow);
                    };
                    let text = &buf[i + 1..i + 1 + k];
                    if !muted {
                        deliver_comment(visitor, text, line);
                    }
                    line += count_line_breaks(text, Some(b'}'));
                    i += k + 2;
                }
                b';' => {
                    let Some(k) = find_either(&buf[i + 1..], b'\n', b'\r') else {
                        return (i, line, Stop::Slow);
                    };
                    if !muted {
                        deliver_comment(visitor, &buf[i + 1..i + 1 + k], line);
                    }
                    // The line break is lexed next.
                    i += k + 1;
                }
                b'(' => {
                    i += 1;
                    if !muted && !state.has_move() {
                        visitor.syntax_error(SyntaxError::VariationWithoutMove, line);
                    }
                    state.depth += 1;
                    if state.depth == 1 {
                        state.opened = line;
                    }
                    if state.depth < 128 {
                        state.moved &= !(1 << state.depth);
                    }
                    if !muted {
                        if state.depth > MAX_VARIATION_DEPTH {
                            visitor.syntax_error(SyntaxError::TooDeep, line);
                        }
                        if visitor.begin_variation(line).0 {
                            state.muted_at = Some(state.depth);
                        }
                    }
                }
                b')' => {
                    i += 1;
                    if state.depth > 0 {
                        if !muted {
                            visitor.end_variation(line);
                        }
                        if state.muted_at == Some(state.depth) {
                            state.muted_at = None;
                        }
                        state.depth -= 1;
                    } else if !muted {
                        visitor.syntax_error(SyntaxError::Unexpected(')'), line);
                    }
                }
                b'$' => {
                    let short = &buf[i..(i + MAX_SHORT).min(end)];
                    let digits = short[1..].iter().take_while(|b| b.is_ascii_digit()).count();
                    let number = short[1..1 + digits]
                        .iter()
                        .try_fold(0u8, |n, &d| n.checked_mul(10)?.checked_add(d - b'0'));
                    if !muted {
                        match number {
                            Some(_) if digits > 0 && !state.has_move() => {
                                visitor.syntax_error(SyntaxError::NagWithoutMove, line)
                            }
                            Some(number) if digits > 0 => visitor.nag(Nag(number), line),
                            _ => {
                                let text = String::from_utf8_lossy(&short[..1 + digits]).into_owned();
                                visitor.syntax_error(SyntaxError::BadNag(text), line);
                            }
                        }
                    }
                    i += 1 + digits;
                }
                b'!' | b'?' => {
                    let short = &buf[i..(i + MAX_SHORT).min(end)];
                    let len = short.iter().take_while(|&&b| b == b'!' || b == b'?').count();
                    if !muted {
                        match Nag::from_symbol(&short[..len]) {
                            Some(_) if !state.has_move() => visitor.syntax_error(SyntaxError::NagWithoutMove, line),
                            Some(nag) => visitor.nag(nag, line),
                            None => {
                                let text = String::from_utf8_lossy(&short[..len]).into_owned();
                                visitor.syntax_error(SyntaxError::UnknownAnnotation(text), line);
                            }
                        }
                    }
                    i += len;
                }
                b'*' => {
                    i += 1;
                    if state.depth == 0 {
                        if !muted {
                            visitor.outcome(GameResult::Unknown, line);
                        }
                        return (i, line, Stop::Finished);
                    } else if !muted {
                        visitor.syntax_error(SyntaxError::ResultInVariation, line);
                    }
                }
                b'}' | b']' => {
                    if !muted {
                        visitor.syntax_error(SyntaxError::Unexpected(char::from(first)), line);
                    }
                    i += 1;
                }
                b'%' if (if i > self.start {
                    is_line_break(buf[i - 1])
                } else {
                    self.after_newline
                }) =>
                {
                    return (i, line, Stop::Slow)
                }
                0xef if buf.get(i + 1..i + 3) == Some(&[0xbb, 0xbf][..]) => return (i, line, Stop::Slow),
                _ => {
                    let short = &buf[i..(i + MAX_SHORT).min(end)];
                    if first.is_ascii_digit() {
                        // A move number: digits, then dots (the move may follow: `1.e4`).
                        let digits = short.iter().take_while(|b| b.is_ascii_digit()).count();
                        let dots = short[digits..].iter().take_while(|&&b| b == b'.').count();
                        if dots > 0 || !matches!(short.get(digits), Some(&b) if !DELIMITER[b as usize]) {
                            i += digits + dots;
                            continue;
                        }
                    }
                    let len = short.iter().take_while(|&&b| !DELIMITER[b as usize]).count();
                    let token = &short[..len];
                    i += len;
                    if token.iter().all(|&b| b == b'.') || token == b"e.p." {
                        // Stray dots (`12 ... Nf3`), or `e.p.` written apart from its move.
                        continue;
                    }
                    state.substance = true;
                    if first.is_ascii_digit() || first == 0xc2 {
                        if let Some(result) = GameResult::from_bytes(token) {
                            if state.depth == 0 {
                                if !muted {
                                    visitor.outcome(result, line);
                                }
                                return (i, line, Stop::Finished);
                            }
                            if !muted {
                                visitor.syntax_error(SyntaxError::ResultInVariation, line);
                            }
                            continue;
                        }
                    }
                    if muted {
                        continue;
                    }
                    let san = San::parse_lenient(token);
                    match san.is_err().then(|| Nag::from_glyph(token)).flatten() {
                        Some(_) if !state.has_move() => visitor.syntax_error(SyntaxError::NagWithoutMove, line),
                        Some(nag) => visitor.nag(nag, line),
                        None => {
                            if state.depth < 128 {
                                state.moved |= 1 << state.depth;
                            }
                            visitor.san(SanToken { san, text: token, line });
                        }
                    }
                }
            }
        }
        (i, line, Stop::WindowEnd)
    }
}

/// The buffer size to ask for when a comment or tag does not fit: twice as much, but never much
/// beyond what the longest token needs, so the buffer stays bounded.
fn grown(len: usize) -> usize {
    (2 * len.max(LOOKAHEAD)).min(MAX_TOKEN_BYTES + 2 * LOOKAHEAD)
}

/// Hands a comment's text to the visitor, or reports it too long.
#[inline(always)]
fn deliver_comment<V: Visitor>(visitor: &mut V, text: &[u8], line: u32) {
    if text.len() > MAX_TOKEN_BYTES {
        visitor.syntax_error(SyntaxError::TokenTooLong, line);
    } else {
        visitor.comment(RawComment(text), line);
    }
}

/// What [`scan_tag`] found at a `[`.
enum TagScan {
    /// A tag pair: the ranges of its name and value, and the offset after its `]`.
    Pair {
        name: (usize, usize),
        value: (usize, usize),
        end: usize,
    },
    /// Not a tag pair; it ends at this offset (after a `]`, or at the line break).
    Malformed { end: usize },
    /// The bytes end before the tag does.
    More,
}

/// Scans the tag pair that starts at `bytes[0]` (a `[`); `more`: bytes may follow.
fn scan_tag(bytes: &[u8], more: bool) -> TagScan {
    let blank = |b: &u8| *b == b' ' || *b == b'\t';
    let out_of_bytes = |at: usize| {
        if more {
            TagScan::More
        } else {
            TagScan::Malformed { end: at }
        }
    };
    // Where a malformed tag ends: after the first `]` from `from`, else at the line break.
    let malformed = |from: usize| -> TagScan {
        match bytes[from..].iter().position(|&b| b == b']' || is_line_break(b)) {
            Some(k) if bytes[from + k] == b']' => TagScan::Malformed { end: from + k + 1 },
            Some(k) => TagScan::Malformed { end: from + k },
            None => out_of_bytes(bytes.len()),
        }
    };
    let mut i = 1 + bytes[1..].iter().take_while(|b| blank(b)).count();
    let name_start = i;
    i += bytes[i..]
        .iter()
        .take_while(|&&b| !b.is_ascii_whitespace() && b != b'"' && b != b']' && b != b'[')
        .count();
    let name_end = i;
    i += bytes[i..].iter().take_while(|b| blank(b)).count();
    match bytes.get(i) {
        None => return out_of_bytes(bytes.len()),
        Some(b'"') if name_end > name_start => {}
        Some(_) => return malformed(i),
    }
    let value_start = i + 1;
    let mut j = value_start;
    loop {
        let Some(k) = bytes[j..]
            .iter()
            .position(|&b| b == b'"' || b == b'\\' || is_line_break(b))
        else {
            return out_of_bytes(bytes.len());
        };
        j += k;
        match bytes[j] {
            b'\\' => {
                j += if matches!(bytes.get(j + 1), Some(b'"' | b'\\')) {
                    2
                } else {
                    1
                }
            }
            b'"' => {
                let close = j + 1 + bytes[j + 1..].iter().take_while(|b| blank(b)).count();
                match bytes.get(close) {
                    Some(b']') => {
                        return TagScan::Pair {
                            name: (name_start, name_end),
                            value: (value_start, j),
                            end: close + 1,
                        }
                    }
                    None => return out_of_bytes(bytes.len()),
                    // A quote inside the value: the value goes on.
                    Some(_) => j += 1,
                }
            }
            // The line ends inside the value.
            _ => return TagScan::Malformed { end: j },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comment_ends() {
        assert_eq!(comment_end(b"abc} x", true), CommentEnd::Closed(3));
        assert_eq!(comment_end(b"[%clk 0:01] } x", true), CommentEnd::Closed(12));
        assert_eq!(comment_end(b"abc\n\n[Event \"x\"]", true), CommentEnd::NextGame(5));
        assert_eq!(
            comment_end(b"abc\n[Event \"x\"]}", true),
            CommentEnd::Closed(15),
            "no blank line"
        );
        assert_eq!(comment_end(b"abc\n\n[Eve", true), CommentEnd::Undecided);
        assert_eq!(comment_end(b"abc\n\n[Eve", false), CommentEnd::Undecided);
        assert_eq!(comment_end(b"abc", true), CommentEnd::Undecided);
    }

    /// The byte-at-a-time scan of long comments finds the same ends as [`comment_end`].
    #[test]
    fn long_comment_scan_agrees_with_comment_end() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let pieces: [&[u8]; 9] = [
            b"\n",
            b"\r",
            b"\r\n",
            b" ",
            b"\t",
            b"x",
            b"[Event \"a\"]",
            b"[%clk",
            b"}",
        ];
        for _ in 0..20_000 {
            let mut text = Vec::new();
            for _ in 0..(seed % 12) {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                text.extend_from_slice(pieces[(seed % pieces.len() as u64) as usize]);
            }
            let expected = comment_end(&text, false);
            let mut state = LongComment::default();
            let mut found = CommentEnd::Undecided;
            for (i, &byte) in text.iter().enumerate() {
                if byte == b'}' {
                    found = CommentEnd::Closed(i);
                    break;
                }
                if state.step(byte) && starts_tag_pair(&text[i..], false) == Some(true) {
                    found = CommentEnd::NextGame(i);
                    break;
                }
            }
            assert_eq!(found, expected, "{:?}", String::from_utf8_lossy(&text));
        }
    }

    #[test]
    fn tags_scan() {
        fn pair(bytes: &[u8]) -> Option<(&[u8], &[u8], usize)> {
            match scan_tag(bytes, false) {
                TagScan::Pair { name, value, end } => Some((&bytes[name.0..name.1], &bytes[value.0..value.1], end)),
                _ => None,
            }
        }
        assert_eq!(pair(b"[Event \"x\"] [Site"), Some((&b"Event"[..], &b"x"[..], 11)));
        assert_eq!(
            pair(b"[White \"\"Mr X\"\"]"),
            Some((&b"White"[..], &b"\"Mr X\""[..], 16))
        );
        assert_eq!(pair(b"[A \"a\\\"]\"]"), Some((&b"A"[..], &b"a\\\"]"[..], 10)));
        assert_eq!(pair(b"[A \"x\" ]"), Some((&b"A"[..], &b"x"[..], 8)));
        assert!(matches!(scan_tag(b"[A \"x\n\"]", false), TagScan::Malformed { end: 5 }));
        assert!(matches!(scan_tag(b"[A x] 1. e4", false), TagScan::Malformed { end: 5 }));
        assert!(matches!(scan_tag(b"[A \"x", true), TagScan::More));
        assert!(matches!(scan_tag(b"[\"x\"]", false), TagScan::Malformed { .. }));
    }
}
