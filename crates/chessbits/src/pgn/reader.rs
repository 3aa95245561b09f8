//! The streaming reader: a byte-level lexer over its own buffer, driving a [`Visitor`].
//!
//! Memory stays constant whatever the input size: one buffer (64 KiB, grown only to hold a
//! single very long comment or tag line, up to 16 MiB; longer comments are cut there). Short
//! tokens are scanned in place; nothing is allocated per token.
//!
//! Game boundaries: a game ends at its result token (outside variations), at a `[` (the tags of
//! the next game, when a result is missing), or at the end of the input.

use std::io::{self, Read};

use super::scan::{count_newlines, find_byte};
use super::visitor::{GameResult, Nag, RawComment, RawTag, SanToken, Visitor};
use crate::notation::san::San;

const INITIAL_CAPACITY: usize = 1 << 16;
/// Longest comment or tag line delivered whole.
const MAX_TOKEN: usize = 1 << 24;
/// Bytes made available before lexing a short token (move, number, NAG, result).
const LOOKAHEAD: usize = 256;

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
}

/// Reads PGN games one at a time from any [`Read`], feeding their tokens to a [`Visitor`].
///
/// Handles a byte-order mark, CRLF line ends, `%` escape lines, `;` and `{}` comments, nested
/// variations, NAGs (`$n` and `!?` symbols), null moves, missing results, and any bytes (text is
/// only decoded when a visitor asks). Syntax errors are not fatal: malformed tokens reach the
/// visitor as [`SanToken`]s with an error, and reading goes on with the next game.
///
/// ```
/// use chessbits::pgn::{PgnReader, Game};
///
/// let pgn = "[Event \"Casual\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6?? 4. Qxf7# 1-0\n";
/// let mut reader = PgnReader::new(pgn.as_bytes());
/// let game: Game = reader.read_owned_game().unwrap().unwrap().unwrap();
/// assert_eq!(game.tag("Event"), Some("Casual"));
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
    /// The last byte consumed was a line feed (or nothing was consumed): a `%` here escapes
    /// the line.
    after_newline: bool,
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

    /// A reader whose first line is numbered `line`: for a chunk cut out of a larger file.
    ///
    /// ```
    /// use chessbits::pgn::PgnReader;
    /// let reader = PgnReader::with_first_line(&b"1. e4 *"[..], 120);
    /// assert_eq!(reader.line(), 120);
    /// ```
    pub fn with_first_line(inner: R, line: u32) -> PgnReader<R> {
        PgnReader {
            inner,
            buf: vec![0; INITIAL_CAPACITY],
            start: 0,
            end: 0,
            eof: false,
            line,
            after_newline: true,
        }
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
                self.buf.copy_within(self.start..self.end, 0);
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
                Err(e) => return Err(e),
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

    /// The offset (from the read position) of the first byte at or after `from` equal to
    /// `needle`, reading more as needed; `None` if the input ends or the token grows past
    /// [`MAX_TOKEN`] first.
    fn find(&mut self, from: usize, needle: u8) -> io::Result<Option<usize>> {
        let mut searched = from;
        loop {
            let avail = self.avail();
            if let Some(i) = avail
                .get(searched..)
                .and_then(|rest| rest.iter().position(|&b| b == needle))
            {
                return Ok(Some(searched + i));
            }
            searched = avail.len();
            if self.eof || searched >= MAX_TOKEN {
                return Ok(None);
            }
            self.fill(searched + 1)?;
        }
    }

    /// Consumes `n` bytes that hold no line feed.
    #[inline(always)]
    fn consume(&mut self, n: usize) {
        self.start += n;
        self.after_newline = false;
    }

    /// Consumes `n` bytes, counting their line feeds.
    fn consume_counting(&mut self, n: usize) {
        let bytes = &self.buf[self.start..self.start + n];
        self.line += bytes.iter().filter(|&&b| b == b'\n').count() as u32;
        if let Some(&last) = bytes.last() {
            self.after_newline = last == b'\n';
        }
        self.start += n;
    }

    /// Skips to just past the next line feed (or to the end).
    fn skip_line(&mut self) -> io::Result<()> {
        loop {
            match self.find(0, b'\n')? {
                Some(i) => {
                    self.consume_counting(i + 1);
                    return Ok(());
                }
                None => {
                    let len = self.avail().len();
                    self.consume_counting(len);
                    if self.eof && self.start == self.end {
                        return Ok(());
                    }
                }
            }
        }
    }

    /// Skips whitespace, byte-order marks and `%` escape lines.
    #[inline(always)]
    fn skip_whitespace(&mut self) -> io::Result<()> {
        // Fast path: plain spaces and line ends, then a byte that is neither the start of an
        // escape line nor of a byte-order mark, all in the buffer.
        let avail = self.avail();
        let mut i = 0;
        let mut lines = 0;
        while let Some(&byte) = avail.get(i) {
            match byte {
                b' ' | b'\t' | b'\r' => {}
                b'\n' => lines += 1,
                _ => break,
            }
            i += 1;
        }
        match avail.get(i) {
            Some(&byte) if !matches!(byte, b'%' | 0xef | 0x0b | 0x0c) => {
                if i > 0 {
                    self.after_newline = avail[i - 1] == b'\n';
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
            while i < end {
                match self.buf[i] {
                    b'\n' => {
                        self.line += 1;
                        after_newline = true;
                    }
                    b' ' | b'\t' | b'\r' | 0x0b | 0x0c => after_newline = false,
                    b'%' if after_newline => {
                        escape_line = true;
                        break;
                    }
                    // A byte-order mark: skipped, and a line start stays one.
                    0xef if self.buf[..end].get(i + 1..i + 3) == Some(&[0xbb, 0xbf][..]) => i += 2,
                    _ => break,
                }
                i += 1;
            }
            self.start = i;
            self.after_newline = after_newline;
            if escape_line {
                self.skip_line()?;
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
        self.skip_whitespace()?;
        if self.start == self.end {
            return Ok(None);
        }
        visitor.begin_game();
        self.read_tags(visitor)?;
        let skip = visitor.end_tags();
        self.read_movetext(visitor, skip.0)?;
        Ok(Some(visitor.end_game()))
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
        struct SkipAll;
        impl Visitor for SkipAll {
            type Output = ();
            fn end_tags(&mut self) -> super::Skip {
                super::Skip(true)
            }
            fn end_game(&mut self) {}
        }
        Ok(self.read_game(&mut SkipAll)?.is_some())
    }

    fn read_tags<V: Visitor>(&mut self, visitor: &mut V) -> io::Result<()> {
        loop {
            self.skip_whitespace()?;
            if self.avail().first() != Some(&b'[') {
                return Ok(());
            }
            self.read_tag(visitor)?;
        }
    }

    /// Reads one `[Name "value"]`, leaving the read position after its `]` (or at the end of
    /// the line if it is malformed).
    fn read_tag<V: Visitor>(&mut self, visitor: &mut V) -> io::Result<()> {
        let line = self.line;
        let eol = match find_byte(self.avail(), b'\n') {
            Some(i) => i,
            None => match self.find(1, b'\n')? {
                Some(i) => i,
                None => self.avail().len(),
            },
        };
        let bytes = &self.buf[self.start..self.start + eol];
        let name_start = 1 + bytes[1..].iter().take_while(|b| b.is_ascii_whitespace()).count();
        let name_len = bytes[name_start..]
            .iter()
            .take_while(|&&b| !b.is_ascii_whitespace() && b != b'"' && b != b']')
            .count();
        let mut i = name_start + name_len;
        i += bytes[i..].iter().take_while(|b| b.is_ascii_whitespace()).count();
        let consumed = if bytes.get(i) == Some(&b'"') {
            let value_start = i + 1;
            let mut j = value_start;
            // To the closing quote, stepping over escaped characters.
            while let Some(k) = bytes[j.min(eol)..].iter().position(|&b| b == b'"' || b == b'\\') {
                j += k;
                if bytes[j] == b'"' {
                    break;
                }
                j += 2;
            }
            j = j.min(eol);
            if bytes.get(j) != Some(&b'"') {
                j = eol;
            }
            let value_end = j.min(eol);
            // An unterminated value runs to the end of the line, less a closing bracket.
            let value = if j < eol {
                &bytes[value_start..value_end]
            } else {
                let rest = bytes[value_start..eol].trim_ascii_end();
                rest.strip_suffix(b"]").unwrap_or(rest)
            };
            visitor.tag(&bytes[name_start..name_start + name_len], RawTag(value), line);
            match bytes[value_end.min(eol)..].iter().position(|&b| b == b']') {
                Some(k) => value_end + k + 1,
                None => eol,
            }
        } else {
            // No value: skip to the closing bracket or the end of the line.
            match bytes[i..].iter().position(|&b| b == b']') {
                Some(k) => i + k + 1,
                None => eol,
            }
        };
        self.consume(consumed);
        Ok(())
    }

    /// Reads a `{}` comment, delivering it unless `muted`.
    fn read_brace_comment<V: Visitor>(&mut self, visitor: &mut V, muted: bool) -> io::Result<()> {
        let line = self.line;
        let close = self.find(1, b'}')?;
        let len = self.avail().len();
        let (text_end, consumed) = match close {
            Some(i) => (i, i + 1),
            None => (len, len),
        };
        if !muted {
            visitor.comment(RawComment(&self.avail()[1..text_end]), line);
        }
        self.consume_counting(consumed);
        if close.is_none() {
            // Longer than the buffer may grow: the rest is dropped.
            while !(self.eof && self.start == self.end) {
                match self.find(0, b'}')? {
                    Some(i) => {
                        self.consume_counting(i + 1);
                        break;
                    }
                    None => {
                        let len = self.avail().len();
                        self.consume_counting(len);
                    }
                }
            }
        }
        Ok(())
    }

    /// Reads a `;` comment to the end of the line.
    fn read_line_comment<V: Visitor>(&mut self, visitor: &mut V, muted: bool) -> io::Result<()> {
        let line = self.line;
        let eol = self.find(1, b'\n')?;
        let len = self.avail().len();
        let text_end = eol.unwrap_or(len);
        if !muted {
            let text = &self.avail()[1..text_end];
            visitor.comment(RawComment(text.strip_suffix(b"\r").unwrap_or(text)), line);
        }
        self.consume_counting(eol.map_or(len, |i| i + 1));
        Ok(())
    }

    fn read_movetext<V: Visitor>(&mut self, visitor: &mut V, skip_all: bool) -> io::Result<()> {
        let mut state = Movetext {
            depth: 0,
            // Events are muted while depth >= muted_at: a skipped variation, or (0) all.
            muted_at: if skip_all { Some(0) } else { None },
        };
        loop {
            if self.end - self.start <= LOOKAHEAD && !self.eof {
                self.fill(2 * LOOKAHEAD)?;
            }
            let window_start = self.start;
            let (i, line, stop) = self.lex_window(visitor, &mut state);
            // The byte before the read position tells whether a `%` there would start a line.
            if i > window_start {
                self.after_newline = self.buf[i - 1] == b'\n';
            }
            self.start = i;
            self.line = line;
            match stop {
                Stop::Finished => return Ok(()),
                Stop::WindowEnd if self.eof && self.start == self.end => return Ok(()),
                Stop::WindowEnd => {}
                Stop::Slow => {
                    let muted = state.muted_at.is_some();
                    match self.buf[self.start] {
                        b'{' => self.read_brace_comment(visitor, muted)?,
                        b';' => self.read_line_comment(visitor, muted)?,
                        // A `%` escape line or a byte-order mark.
                        _ => self.skip_whitespace_slow()?,
                    }
                }
            }
        }
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
            match first {
                b' ' | b'\t' | b'\r' | 0x0b | 0x0c => i += 1,
                b'\n' => {
                    line += 1;
                    i += 1;
                }
                b'[' => return (i, line, Stop::Finished),
                b'{' => {
                    // Closed within the buffer: delivered here; else by the slow path, which
                    // reads on.
                    let Some(k) = find_byte(&buf[i + 1..], b'}') else {
                        return (i, line, Stop::Slow);
                    };
                    let text = &buf[i + 1..i + 1 + k];
                    if !muted {
                        visitor.comment(RawComment(text), line);
                    }
                    line += count_newlines(text);
                    i += k + 2;
                }
                b';' => {
                    let Some(k) = find_byte(&buf[i + 1..], b'\n') else {
                        return (i, line, Stop::Slow);
                    };
                    if !muted {
                        let text = &buf[i + 1..i + 1 + k];
                        visitor.comment(RawComment(text.strip_suffix(b"\r").unwrap_or(text)), line);
                    }
                    line += 1;
                    i += k + 2;
                }
                b'(' => {
                    i += 1;
                    state.depth += 1;
                    if !muted && visitor.begin_variation(line).0 {
                        state.muted_at = Some(state.depth);
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
                    }
                }
                b'$' => {
                    let digits = buf[i + 1..].iter().take_while(|b| b.is_ascii_digit()).count();
                    let number = buf[i + 1..i + 1 + digits]
                        .iter()
                        .try_fold(0u8, |n, &d| n.checked_mul(10)?.checked_add(d - b'0'));
                    if let (false, Some(number), true) = (muted, number, digits > 0) {
                        visitor.nag(Nag(number), line);
                    }
                    i += 1 + digits;
                }
                b'!' | b'?' => {
                    let len = buf[i..].iter().take_while(|&&b| b == b'!' || b == b'?').count();
                    if let (false, Some(nag)) = (muted, Nag::from_symbol(&buf[i..i + len])) {
                        visitor.nag(nag, line);
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
                    }
                }
                b'}' | b']' => i += 1,
                b'%' if (if i > self.start {
                    buf[i - 1] == b'\n'
                } else {
                    self.after_newline
                }) =>
                {
                    return (i, line, Stop::Slow)
                }
                0xef if buf.get(i + 1..i + 3) == Some(&[0xbb, 0xbf][..]) => return (i, line, Stop::Slow),
                _ => {
                    if first.is_ascii_digit() {
                        // A move number: digits, then dots (the move may follow: `1.e4`).
                        let digits = buf[i..].iter().take_while(|b| b.is_ascii_digit()).count();
                        let dots = buf[i + digits..].iter().take_while(|&&b| b == b'.').count();
                        let after = i + digits;
                        if dots > 0 || !matches!(buf.get(after), Some(&b) if !DELIMITER[b as usize]) {
                            i = after + dots;
                            continue;
                        }
                    }
                    let len = buf[i..].iter().take_while(|&&b| !DELIMITER[b as usize]).count();
                    let token = &buf[i..i + len];
                    i += len;
                    if first.is_ascii_digit() || first == 0xc2 {
                        if let Some(result) = GameResult::from_bytes(token) {
                            if state.depth == 0 {
                                if !muted {
                                    visitor.outcome(result, line);
                                }
                                return (i, line, Stop::Finished);
                            }
                            continue;
                        }
                    }
                    if muted || token.iter().all(|&b| b == b'.') || token == b"e.p." {
                        // Stray dots (`12 ... Nf3`), or `e.p.` written apart from its move.
                        continue;
                    }
                    let san = San::parse_lenient(token);
                    match san.is_err().then(|| Nag::from_glyph(token)).flatten() {
                        Some(nag) => visitor.nag(nag, line),
                        None => visitor.san(SanToken { san, text: token, line }),
                    }
                }
            }
        }
        (i, line, Stop::WindowEnd)
    }
}
