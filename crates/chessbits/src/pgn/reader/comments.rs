//! Comments: `{...}` (which an unclosed `{` cannot stretch past the next game's tags) and `;` to
//! the end of the line.

use std::io::{self, Read};

use super::{grown, PgnReader, LOOKAHEAD};
use crate::pgn::scan::{find_either, is_line_break};
use crate::pgn::syntax::{ends_with_blank_line, starts_tag_pair, SyntaxError, MAX_TOKEN_BYTES};
use crate::pgn::text::RawComment;
use crate::pgn::visitor::Visitor;

/// Where a `{` comment ends, from the bytes after the `{`.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum CommentEnd {
    /// At the `}` at this offset.
    Closed(usize),
    /// Unclosed: the tag line of the next game starts at this offset.
    NextGame(usize),
    /// Not within these bytes.
    Undecided,
}

/// Where the comment whose text starts `text` ends. `more`: bytes may follow `text`.
pub(super) fn comment_end(text: &[u8], more: bool) -> CommentEnd {
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

impl<R: Read> PgnReader<R> {
    /// Reads a `{}` comment, delivering it unless `muted`; `true` if the comment is unclosed at
    /// the next game's tags, which end this game.
    pub(super) fn read_brace_comment<V: Visitor>(&mut self, visitor: &mut V, muted: bool) -> io::Result<bool> {
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
    pub(super) fn read_line_comment<V: Visitor>(&mut self, visitor: &mut V, muted: bool) -> io::Result<()> {
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
}

/// Hands a comment's text to the visitor, or reports it too long.
#[inline(always)]
pub(super) fn deliver_comment<V: Visitor>(visitor: &mut V, text: &[u8], line: u32) {
    if text.len() > MAX_TOKEN_BYTES {
        visitor.syntax_error(SyntaxError::TokenTooLong, line);
    } else {
        visitor.comment(RawComment(text), line);
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
}
