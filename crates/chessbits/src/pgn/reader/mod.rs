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

mod comments;
mod movetext;
mod raw;
mod tags;

use std::io::{self, Read};

use super::input::InputError;
use super::scan::{count_line_breaks, find_either, is_line_break};
use super::syntax::{SyntaxError, MAX_GAME_BYTES, MAX_TOKEN_BYTES};
use super::visitor::{Skip, Visitor};

const INITIAL_CAPACITY: usize = 1 << 16;
/// Bytes made available before lexing a short token (move, number, NAG, result); also the
/// longest short token: a longer run of non-delimiters is cut after [`MAX_SHORT`] bytes, the
/// same way wherever the buffer happens to end.
const LOOKAHEAD: usize = 256;
/// The longest short token (see [`LOOKAHEAD`]).
const MAX_SHORT: usize = LOOKAHEAD - 1;

pub use raw::RawGame;
pub use tags::tag_pair_len;

/// A visitor that takes nothing: reading a game only to find where it ends.
struct Muted;

impl Visitor for Muted {
    type Output = ();
    fn end_tags(&mut self) -> Skip {
        Skip(true)
    }
    fn end_game(&mut self) {}
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
/// visitor as [`SanToken`](super::SanToken)s with an error, problems with the text as
/// [`Visitor::syntax_error`], and reading goes on with the next game.
///
/// ```
/// use chessbits::pgn::{PgnReader, GameTree};
///
/// let pgn = "[Event \"Casual\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6?? 4. Qxf7# 1-0\n";
/// let mut games = PgnReader::new(pgn.as_bytes()).into_games();
/// let game: GameTree = games.next().unwrap()?;
/// assert_eq!(game.tag("Event").as_deref(), Some("Casual"));
/// assert_eq!(game.moves.nodes.len(), 7);
/// assert!(games.next().is_none());
///
/// // The same in a loop (a reader is an `IntoIterator` of `Result<GameTree, PgnError>`):
/// for game in PgnReader::new(pgn.as_bytes()) {
///     assert!(game?.final_position().is_checkmate());
/// }
/// # Ok::<(), chessbits::pgn::PgnError>(())
/// ```
///
/// For a file, compressed or not, [`read_file`](super::read_file) opens it and returns its games
/// in one call.
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
    /// The last movetext ended on its result token.
    ended_on_result: bool,
    /// Where the last game read starts: position, line, at a line start.
    game_start: (u64, u32, bool),
    /// A raw game passing [`MAX_GAME_BYTES`] ends the input with [`InputError::GameTooLong`].
    stop_at_too_long: bool,
}

/// Where the last game read by [`PgnReader::read_game`] or [`PgnReader::read_raw_game`] stands
/// in the input, and how it ended: see [`PgnReader::last_game`].
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct GameSpan {
    /// The position of its first byte (see [`PgnReader::position`]).
    pub start: u64,
    /// The position where reading it stopped: right after its result token, or at the next
    /// game's tag line (the whitespace before that line included), or at the end of the input.
    pub end: u64,
    /// The line it starts on.
    pub first_line: u32,
    /// It starts right after a line break.
    pub at_line_start: bool,
    /// It ended on its result token (outside variations), not at the next game's tags or at the
    /// end of the input. Whatever follows, the reader then stands between games: what comes
    /// after depends only on the line, on whether `end` is a line start (it is not: a result
    /// token ends there) and on the bytes from `end` on.
    pub ended_on_result: bool,
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

    /// A reader for input that continues a stream between two games: its first line is numbered
    /// `line`, and `at_line_start` says whether the stream's last byte before it was a line
    /// break (a `%` there starts an escape line). Reading the rest of a stream this way, from a
    /// point where a reader stood between games, gives what that reader would have read.
    ///
    /// ```
    /// use chessbits::pgn::PgnReader;
    /// let pgn = b"1. e4 * 1. d4 *";
    /// let mut whole = PgnReader::new(&pgn[..]);
    /// whole.skip_game().unwrap();
    /// let rest = &pgn[whole.position() as usize..];
    /// let mut continuing = PgnReader::continuing(rest, whole.line(), false);
    /// let (a, b) = (whole.read_owned_game(), continuing.read_owned_game());
    /// assert_eq!(a.unwrap().unwrap().unwrap().moves.nodes[0].san.to_string(), "d4");
    /// assert_eq!(b.unwrap().unwrap().unwrap().moves.nodes[0].san.to_string(), "d4");
    /// ```
    pub fn continuing(inner: R, line: u32, at_line_start: bool) -> PgnReader<R> {
        let mut reader = PgnReader::with_first_line(inner, line);
        reader.after_newline = at_line_start;
        reader
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
            ended_on_result: false,
            game_start: (0, line, true),
            stop_at_too_long: false,
        }
    }

    /// Makes [`read_raw_game`](Self::read_raw_game) fail with [`InputError::GameTooLong`] as
    /// soon as a game passes [`MAX_GAME_BYTES`] (within a buffer's length, 64 KiB), instead of
    /// skipping it to its end and returning it as `too_long`: for a caller that stops at the
    /// first bad game, so that a game that never ends (`/dev/zero`) is reported rather than
    /// read forever. The games before it are returned first; the reader then stays at the end
    /// of its input.
    ///
    /// ```
    /// use std::io::Read;
    /// use chessbits::pgn::{InputError, PgnReader, MAX_GAME_BYTES};
    /// let endless = std::io::repeat(b'x').take(u64::MAX);
    /// let mut reader = PgnReader::new(endless);
    /// reader.stop_at_too_long_game(true);
    /// let error = reader.read_raw_game(&mut Vec::new()).unwrap_err();
    /// assert_eq!(InputError::of(&error), Some(&InputError::GameTooLong { first_line: 1 }));
    /// assert!(reader.position() < MAX_GAME_BYTES + (1 << 20));
    /// assert!(reader.read_raw_game(&mut Vec::new()).unwrap().is_none());
    /// ```
    pub fn stop_at_too_long_game(&mut self, stop: bool) {
        self.stop_at_too_long = stop;
    }

    /// Where the last game returned by [`read_game`](Self::read_game) or
    /// [`read_raw_game`](Self::read_raw_game) stands and how it ended (before any game: an
    /// empty span at the start).
    ///
    /// ```
    /// use chessbits::pgn::PgnReader;
    /// let mut reader = PgnReader::new(&b"\n1. e4 1-0\n[Event \"x\"]\n1. d4\n"[..]);
    /// reader.skip_game().unwrap();
    /// let first = reader.last_game();
    /// assert_eq!((first.start, first.end, first.first_line, first.ended_on_result), (1, 10, 2, true));
    /// reader.skip_game().unwrap();
    /// let second = reader.last_game();
    /// assert_eq!((second.start, second.end, second.ended_on_result), (11, 29, false));
    /// ```
    pub fn last_game(&self) -> GameSpan {
        let (start, first_line, at_line_start) = self.game_start;
        GameSpan {
            start,
            end: self.position().max(start),
            first_line,
            at_line_start,
            ended_on_result: self.ended_on_result,
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

    /// The underlying reader, borrowed (reading from it skips what the reader has buffered).
    ///
    /// ```
    /// use chessbits::pgn::PgnReader;
    /// let mut reader = PgnReader::new(&b"1. e4 *"[..]);
    /// reader.skip_game().unwrap();
    /// assert!(reader.get_mut().is_empty());
    /// ```
    pub fn get_mut(&mut self) -> &mut R {
        &mut self.inner
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
                            if self.stop_at_too_long {
                                // Held back like a read error: the lexer ends the game at the
                                // bytes it has, then `cut_by_error` returns this instead.
                                let first_line = self.game_start.1;
                                self.error = Some(InputError::GameTooLong { first_line }.into());
                                self.eof = true;
                                break;
                            }
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
            self.game_start = (game_start, first_line, self.after_newline);
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

    /// Skips the next game; `false` at the end of the input.
    ///
    /// ```
    /// use chessbits::pgn::PgnReader;
    /// let mut reader = PgnReader::new(&b"1. e4 *\n1. d4 *"[..]);
    /// assert!(reader.skip_game().unwrap());
    /// let game = reader.into_games().next().unwrap().unwrap();
    /// assert_eq!(game.moves.nodes[0].san.to_string(), "d4");
    /// ```
    pub fn skip_game(&mut self) -> io::Result<bool> {
        Ok(self.read_game(&mut Muted)?.is_some())
    }
}

/// The buffer size to ask for when a comment or tag does not fit: twice as much, but never much
/// beyond what the longest token needs, so the buffer stays bounded.
fn grown(len: usize) -> usize {
    (2 * len.max(LOOKAHEAD)).min(MAX_TOKEN_BYTES + 2 * LOOKAHEAD)
}
