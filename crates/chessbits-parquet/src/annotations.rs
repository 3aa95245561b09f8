//! The `annotations` column: what a row's other columns cannot give back (see the [crate
//! documentation](crate#annotations)), and the conservative check that decides it is not needed.

use crate::rebuild::{write_clock, write_eval, RebuildError};
use crate::row::GameRow;

impl GameRow {
    /// The comment the rebuild writes after main-line move `ply` (0-based) into `out` (cleared
    /// first): ` [%eval E] [%clk C] `, either command alone, or nothing when the row has
    /// neither for that ply.
    pub(crate) fn write_ply_comment(&self, ply: usize, out: &mut String) {
        out.clear();
        let item = |list: &Option<Vec<Option<i32>>>| list.as_ref().and_then(|l| l.get(ply).copied().flatten());
        if let Some(eval) = item(&self.evals) {
            out.push_str(" [%eval ");
            write_eval(out, eval);
            out.push(']');
        }
        if let Some(clock) = item(&self.clocks) {
            out.push_str(" [%clk ");
            write_clock(out, clock);
            out.push(']');
        }
        if !out.is_empty() {
            out.push(' ');
        }
    }

    /// Whether the tags the rebuild writes ([`GameRow::tags`], with `SetUp` and `FEN` added
    /// for a `start_fen` without a `FEN` tag) are `tags` (name and value as written between the
    /// quotes, in the file's order), byte for byte.
    pub(crate) fn tags_rebuild(&self, tags: &[(&[u8], &[u8])]) -> bool {
        let rebuilt = self.pgn_tags();
        rebuilt.len() == tags.len()
            && rebuilt
                .iter()
                .zip(tags)
                .all(|(t, (name, value))| t.name() == *name && t.raw_value() == *value)
    }

    /// Whether the row's columns give back the movetext `b`: it holds nothing but move
    /// numbers, the main line's moves (no `!`/`?` suffix, no null move), after a move at most
    /// one comment whose text is exactly the one the rebuild writes for it (and one wherever the
    /// rebuild writes one), and last the result token the rebuild writes. Anything else (a NAG,
    /// a variation, another comment, a `;` comment, an eval with a depth, a clock with a
    /// fraction, no result token, ...) is a no: the check is conservative, a movetext it accepts
    /// is rebuilt with the same moves, comments and result.
    pub(crate) fn movetext_rebuilds(&self, b: &[u8]) -> bool {
        if self.moves.is_none() || self.plies < 0 {
            return false;
        }
        let plies = self.plies as usize;
        let result = self.result_token();
        let result = result.as_str().as_bytes();
        let mut expected = String::new();
        // Moves seen, and whether the last one has had its comment.
        let (mut ply, mut commented) = (0usize, false);
        // The comment the last move needs was written (or it needs none).
        let comment_done = |row: &GameRow, ply: usize, commented: bool, buf: &mut String| {
            if ply == 0 || commented {
                return true;
            }
            row.write_ply_comment(ply - 1, buf);
            buf.is_empty()
        };
        let ends_token = |c: u8| c.is_ascii_whitespace() || c == b'{';
        let mut i = 0;
        loop {
            while i < b.len() && b[i].is_ascii_whitespace() {
                i += 1;
            }
            let Some(&c) = b.get(i) else {
                // No result token.
                return false;
            };
            match c {
                b'{' => {
                    if ply == 0 || commented {
                        return false;
                    }
                    let Some(len) = b[i + 1..].iter().position(|&c| c == b'}') else {
                        return false;
                    };
                    self.write_ply_comment(ply - 1, &mut expected);
                    if expected.is_empty() || &b[i + 1..i + 1 + len] != expected.as_bytes() {
                        return false;
                    }
                    commented = true;
                    i += len + 2;
                }
                b'0'..=b'9' | b'*' => {
                    let end = b[i..].iter().position(|&c| ends_token(c)).map_or(b.len(), |n| i + n);
                    let token = &b[i..end];
                    if matches!(token, b"1-0" | b"0-1" | b"1/2-1/2" | b"*") {
                        return token == result
                            && b[end..].iter().all(u8::is_ascii_whitespace)
                            && ply == plies
                            && comment_done(self, ply, commented, &mut expected);
                    }
                    // A move number: digits, then dots.
                    let mut j = i;
                    while j < b.len() && b[j].is_ascii_digit() {
                        j += 1;
                    }
                    while j < b.len() && b[j] == b'.' {
                        j += 1;
                    }
                    if j == i || j < b.len() && !(b[j].is_ascii_whitespace() || b[j].is_ascii_alphabetic()) {
                        return false;
                    }
                    i = j;
                }
                c if c.is_ascii_alphabetic() => {
                    let end = b[i..]
                        .iter()
                        .position(|&c| !(c.is_ascii_alphanumeric() || b"=+#-".contains(&c)))
                        .map_or(b.len(), |n| i + n);
                    if end < b.len() && !ends_token(b[end]) {
                        // `!`, `?`, `(`, `$`, `;`, ...
                        return false;
                    }
                    if !comment_done(self, ply, commented, &mut expected) || ply == plies {
                        return false;
                    }
                    ply += 1;
                    commented = false;
                    i = end;
                }
                _ => return false,
            }
        }
    }

    /// The `annotations` value of a row that does not rebuild exactly: its movetext as in the
    /// file when its tags rebuild, else the whole game (its tags as written, a blank line, the
    /// movetext), which then starts with `[`; in either, the comments the row's `clocks` and
    /// `evals` give back are left out ([`strip_ply_comments`](Self::strip_ply_comments)).
    pub(crate) fn annotations_of(&self, tags_rebuild: bool, tags: &[(&[u8], &[u8])], movetext: &[u8]) -> Vec<u8> {
        if tags_rebuild {
            return self.strip_ply_comments(movetext);
        }
        let mut out = Vec::with_capacity(movetext.len() + 40 * tags.len());
        for (name, value) in tags {
            out.push(b'[');
            out.extend_from_slice(name);
            out.extend_from_slice(b" \"");
            out.extend_from_slice(value);
            out.extend_from_slice(b"\"]\n");
        }
        out.push(b'\n');
        out.extend_from_slice(movetext);
        self.strip_ply_comments(&out)
    }

    /// The text of the comments the rebuild writes after the main line's moves, in ply order,
    /// for the plies that have one (see [`write_ply_comment`](Self::write_ply_comment)).
    fn ply_comments(&self) -> Vec<String> {
        let plies = |list: &Option<Vec<Option<i32>>>| list.as_ref().map_or(0, Vec::len);
        let mut out = Vec::new();
        let mut comment = String::new();
        for ply in 0..plies(&self.clocks).max(plies(&self.evals)) {
            self.write_ply_comment(ply, &mut comment);
            if !comment.is_empty() {
                out.push(comment.clone());
            }
        }
        out
    }

    /// `text` with the comments `{C}` whose text `C` is one the row's columns give back (`C`
    /// the `k`-th of [`ply_comments`](Self::ply_comments), met in order) each replaced by the
    /// byte [`COMMENT_MARK`], a ply comment not found (up to [`LOOKAHEAD`] skipped at a time)
    /// by [`SKIP_MARK`], and the bytes `0x01`..=`0x03` of `text` escaped by [`ESCAPE_MARK`]:
    /// [`expand_ply_comments`](Self::expand_ply_comments) gives `text` back, byte for byte.
    pub(crate) fn strip_ply_comments(&self, text: &[u8]) -> Vec<u8> {
        // A row without `moves` keeps its comments: the position index rebuilds such a row's
        // game (its only way to the main line) without reading `clocks` and `evals`.
        let comments = if self.moves.is_some() && (self.clocks.is_some() || self.evals.is_some()) {
            self.ply_comments()
        } else {
            Vec::new()
        };
        let mut out = Vec::with_capacity(text.len());
        let mut k = 0;
        let mut i = 0;
        while i < text.len() {
            let c = text[i];
            if c == b'{' && k < comments.len() {
                if let Some(len) = text[i + 1..].iter().position(|&b| b == b'}') {
                    let inner = &text[i + 1..i + 1 + len];
                    let ahead = &comments[k..comments.len().min(k + LOOKAHEAD)];
                    if let Some(j) = ahead.iter().position(|s| s.as_bytes() == inner) {
                        out.extend(std::iter::repeat_n(SKIP_MARK, j));
                        out.push(COMMENT_MARK);
                        k += j + 1;
                        i += len + 2;
                        continue;
                    }
                }
            }
            if (COMMENT_MARK..=ESCAPE_MARK).contains(&c) {
                out.push(ESCAPE_MARK);
            }
            out.push(c);
            i += 1;
        }
        out
    }

    /// The bytes `stripped` (an `annotations` value as bytes) with its marks expanded: the
    /// inverse of [`strip_ply_comments`](Self::strip_ply_comments); an error when a mark has no
    /// ply comment left or the text ends on an escape (not written by an export).
    pub(crate) fn expand_ply_comments(&self, stripped: &[u8]) -> Result<Vec<u8>, RebuildError> {
        if !stripped.iter().any(|c| (COMMENT_MARK..=ESCAPE_MARK).contains(c)) {
            return Ok(stripped.to_vec());
        }
        let comments = self.ply_comments();
        let mut out = Vec::with_capacity(stripped.len() + 32 * comments.len());
        let (mut k, mut bytes) = (0, stripped.iter());
        let error = |reason: &str| RebuildError::Annotations {
            reason: reason.to_string(),
        };
        while let Some(&c) = bytes.next() {
            match c {
                COMMENT_MARK | SKIP_MARK => {
                    let comment = comments
                        .get(k)
                        .ok_or_else(|| error("more clock/eval comment marks than the row's clocks and evals give"))?;
                    if c == COMMENT_MARK {
                        out.push(b'{');
                        out.extend_from_slice(comment.as_bytes());
                        out.push(b'}');
                    }
                    k += 1;
                }
                ESCAPE_MARK => out.push(*bytes.next().ok_or_else(|| error("ends on an escape byte (0x03)"))?),
                c => out.push(c),
            }
        }
        Ok(out)
    }
}

/// In `annotations`: the next comment the row's `clocks` and `evals` give back (see the [crate
/// documentation](crate#annotations)).
pub(crate) const COMMENT_MARK: u8 = 0x01;
/// In `annotations`: the next comment the row's `clocks` and `evals` give back is not there.
pub(crate) const SKIP_MARK: u8 = 0x02;
/// In `annotations`: the next byte is itself (a `0x01`, `0x02` or `0x03` of the input).
pub(crate) const ESCAPE_MARK: u8 = 0x03;
/// How many ply comments a comment of the input is compared with: the next one and those after
/// it (a comment the columns do not give back, a clock with a fraction, is skipped).
const LOOKAHEAD: usize = 8;
