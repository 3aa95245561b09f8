//! Tag pairs: `[Name "value"]`, scanned without looking past the tag's own line.

use std::io::{self, Read};

use super::{grown, PgnReader};
use crate::pgn::scan::is_line_break;
use crate::pgn::syntax::{SyntaxError, MAX_TOKEN_BYTES};
use crate::pgn::text::RawTag;
use crate::pgn::visitor::Visitor;

impl<R: Read> PgnReader<R> {
    /// Reads the tag section; whether it had any.
    pub(super) fn read_tags<V: Visitor>(&mut self, visitor: &mut V) -> io::Result<bool> {
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
}

/// How many bytes the tag pair that starts at `bytes[0]` (a `[`) takes, as [`PgnReader`] reads
/// it: the value runs to the last `"` before a `]` on the tag's line (`\"` and `\\` are
/// escapes), nothing past that line belongs to the tag, and a malformed tag ends after its
/// first `]` or at its line break. At least 1 (the `[`), at most `bytes.len()`.
///
/// ```
/// use chessbits::pgn::tag_pair_len;
/// assert_eq!(tag_pair_len(b"[Event \"x ] y\"]\n1. e4"), 15);
/// // `[Result ""1-0"]` holds `"1-0`: the value runs to the last `"` before the `]`.
/// assert_eq!(tag_pair_len(b"[Result \"\"1-0\"]\n{ [%eval 0.1] }"), 15);
/// // A value cut by a line break ends the (malformed) tag at the break.
/// assert_eq!(tag_pair_len(b"[Site \"a\nb\"]"), 8);
/// ```
pub fn tag_pair_len(bytes: &[u8]) -> usize {
    match scan_tag(bytes, false) {
        TagScan::Pair { end, .. } | TagScan::Malformed { end } => end.clamp(1, bytes.len().max(1)),
        TagScan::More => bytes.len(),
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
