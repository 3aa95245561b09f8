//! Movetext: moves, move numbers, NAGs, variations and results, lexed in place from the buffer.

use std::io::{self, Read};

use super::comments::{comment_end, deliver_comment, CommentEnd};
use super::{PgnReader, LOOKAHEAD, MAX_SHORT};
use crate::notation::san::San;
use crate::pgn::scan::{count_line_breaks, find_either, is_line_break};
use crate::pgn::syntax::{starts_tag_pair, SyntaxError, MAX_VARIATION_DEPTH};
use crate::pgn::visitor::{GameResult, Nag, SanToken, Visitor};

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
    /// The movetext is over: a result outside variations.
    Result,
    /// The movetext is over: the next game's tags.
    TagLine,
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

impl<R: Read> PgnReader<R> {
    /// Reads the movetext; whether it held more than move numbers.
    pub(super) fn read_movetext<V: Visitor>(&mut self, visitor: &mut V, skip_all: bool) -> io::Result<bool> {
        let mut state = Movetext {
            depth: 0,
            // Events are muted while depth >= muted_at: a skipped variation, or (0) all.
            muted_at: if skip_all { Some(0) } else { None },
            opened: 0,
            moved: 0,
            substance: false,
        };
        self.at_end = false;
        self.ended_on_result = false;
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
                Stop::Result => {
                    self.ended_on_result = true;
                    return Ok(state.substance);
                }
                Stop::TagLine => return Ok(state.substance),
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
                        return (i, line, Stop::TagLine);
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
                            visitor.result(GameResult::Unknown, line);
                        }
                        return (i, line, Stop::Result);
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
                                    visitor.result(result, line);
                                }
                                return (i, line, Stop::Result);
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
