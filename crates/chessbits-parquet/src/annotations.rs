//! The `annotations` column: what a row's other columns cannot give back (see the [crate
//! documentation](crate#annotations)), and the conservative check that decides it is not needed.

use chessbits::moves::Move;
use chessbits::notation::san::san_of;
use chessbits::position::Position;
use chessbits::Color;

use crate::moves_code::MovesCode;
use crate::rebuild::RebuildError;
use crate::row::GameRow;

impl GameRow {
    /// The comment the rebuild writes after main-line move `ply` (0-based) into `out` (cleared
    /// first): ` [%eval E] [%clk C] `, either command alone, or nothing when the row has
    /// neither for that ply.
    pub(crate) fn write_ply_comment(&self, ply: usize, out: &mut String) {
        out.clear();
        self.put_ply_comment_text(ply, out);
    }

    /// [`write_ply_comment`](Self::write_ply_comment) into bytes (no UTF-8 check of each piece).
    fn write_ply_comment_bytes(&self, ply: usize, out: &mut Vec<u8>) {
        out.clear();
        self.put_ply_comment_text(ply, out);
    }

    /// Whether the tags the rebuild writes ([`GameRow::tags`], with `SetUp` and `FEN` added
    /// for a `start_fen` without a `FEN` tag) are `tags` (name and value as written between the
    /// quotes, in the file's order), byte for byte.
    pub(crate) fn tags_rebuild(&self, tags: &[(&[u8], &[u8])]) -> bool {
        if self.non_utf8 {
            let rebuilt = self.pgn_tags();
            return rebuilt.len() == tags.len()
                && rebuilt
                    .iter()
                    .zip(tags)
                    .all(|(t, (name, value))| t.name() == *name && t.raw_value() == *value);
        }
        // The same comparison without a `Tag` each (the export checks every game).
        let (mut count, mut equal) = (0, true);
        self.for_each_utf8_tag(&mut Vec::new(), |name, value| {
            equal = equal
                && tags
                    .get(count)
                    .is_some_and(|&(n, raw)| n == name && escapes_to(value, raw));
            count += 1;
        });
        equal && count == tags.len()
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
        let mut expected = Vec::new();
        // Moves seen, and whether the last one has had its comment.
        let (mut ply, mut commented) = (0usize, false);
        // The comment the last move needs was written (or it needs none).
        let comment_done = |row: &GameRow, ply: usize, commented: bool, buf: &mut Vec<u8>| {
            if ply == 0 || commented {
                return true;
            }
            row.write_ply_comment_bytes(ply - 1, buf);
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
                    self.write_ply_comment_bytes(ply - 1, &mut expected);
                    if expected.is_empty() || b[i + 1..i + 1 + len] != expected[..] {
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
    /// `evals` give back and the main line's moves `moves` gives back (the row's main line,
    /// [`move_texts`]) are marked ([`strip_ply_comments`](Self::strip_ply_comments)).
    pub(crate) fn annotations_of(
        &self,
        tags_rebuild: bool,
        tags: &[(&[u8], &[u8])],
        movetext: &[u8],
        moves: &[MoveText],
    ) -> Vec<u8> {
        if tags_rebuild {
            return self.strip_ply_comments(movetext, moves);
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
        self.strip_ply_comments(&out, moves)
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

    /// `text` with its parts that the row's other columns give back marked (see the [crate
    /// documentation](crate#annotations)): a comment `{C}` whose text `C` is one the row's
    /// `clocks` and `evals` give back (`C` the `k`-th of [`ply_comments`](Self::ply_comments),
    /// met in order) by the byte [`COMMENT_MARK`], a ply comment not found (up to
    /// [`LOOKAHEAD`] skipped at a time) by [`SKIP_MARK`]; outside comments and variations, the
    /// next main-line move of `moves` as its SAN by [`MOVE_MARK`], or with its number before
    /// it (`12. Nf3`, `12... Nf6`) by [`NUMBERED_MOVE_MARK`]; and the bytes `0x01`..=`0x05` of
    /// `text` escaped by [`ESCAPE_MARK`]: [`expand_ply_comments`](Self::expand_ply_comments)
    /// gives `text` back, byte for byte.
    pub(crate) fn strip_ply_comments(&self, text: &[u8], moves: &[MoveText]) -> Vec<u8> {
        // A row without `moves` keeps its comments and moves: the position index rebuilds such
        // a row's game (its only way to the main line) without reading `clocks` and `evals`.
        let (comments, moves) = match self.moves.is_some() {
            true if self.clocks.is_some() || self.evals.is_some() => (self.ply_comments(), moves),
            true => (Vec::new(), moves),
            false => (Vec::new(), &[][..]),
        };
        let mut out = Vec::with_capacity(text.len());
        let push = |out: &mut Vec<u8>, c: u8| {
            if (COMMENT_MARK..=LAST_MARK).contains(&c) {
                out.push(ESCAPE_MARK);
            }
            out.push(c);
        };
        // Ply comments and moves marked so far; the depth of variations.
        let (mut k, mut m, mut depth) = (0, 0, 0usize);
        let mut i = 0;
        while i < text.len() {
            let c = text[i];
            // Verbatim to the byte `end` (included), or to the end of the text.
            let verbatim_to = |end: u8| {
                text[i + 1..]
                    .iter()
                    .position(|&b| b == end)
                    .map_or(text.len(), |n| i + n + 2)
            };
            match c {
                b'{' => {
                    let end = verbatim_to(b'}');
                    // The comment's text, when it is closed.
                    let inner = (text[end - 1] == b'}' && end > i + 1).then(|| &text[i + 1..end - 1]);
                    let ahead = &comments[k..comments.len().min(k + LOOKAHEAD)];
                    match inner.and_then(|inner| ahead.iter().position(|s| s.as_bytes() == inner)) {
                        Some(j) => {
                            out.extend(std::iter::repeat_n(SKIP_MARK, j));
                            out.push(COMMENT_MARK);
                            k += j + 1;
                        }
                        None => text[i..end].iter().for_each(|&b| push(&mut out, b)),
                    }
                    i = end;
                    continue;
                }
                // A rest-of-line comment, or a tag (in a whole game's text).
                b';' | b'[' if depth == 0 => {
                    let end = verbatim_to(if c == b';' { b'\n' } else { b']' });
                    text[i..end].iter().for_each(|&b| push(&mut out, b));
                    i = end;
                    continue;
                }
                b'(' => depth += 1,
                b')' => depth = depth.saturating_sub(1),
                _ => {}
            }
            let token_start = i == 0 || matches!(text[i - 1], b' ' | b'\n' | b'\r' | b'\t' | b'.' | b')' | b'}');
            if depth == 0 && token_start {
                if let Some(next) = moves.get(m) {
                    let rest = &text[i..];
                    let whole = |s: &str| {
                        rest.starts_with(s.as_bytes())
                            && rest
                                .get(s.len())
                                .is_none_or(|&b| !(b.is_ascii_alphanumeric() || b"=+#-".contains(&b)))
                    };
                    let mark = if whole(&next.numbered) {
                        Some((NUMBERED_MOVE_MARK, next.numbered.len()))
                    } else if whole(&next.san) {
                        Some((MOVE_MARK, next.san.len()))
                    } else {
                        None
                    };
                    if let Some((mark, len)) = mark {
                        out.push(mark);
                        m += 1;
                        i += len;
                        continue;
                    }
                }
            }
            push(&mut out, c);
            i += 1;
        }
        out
    }

    /// The bytes `stripped` (an `annotations` value as bytes) with its marks expanded: the
    /// inverse of [`strip_ply_comments`](Self::strip_ply_comments), the moves decoded from
    /// `moves` in `code` when there is a move mark; an error when a mark has no ply comment or
    /// move left, the text ends on an escape (neither written by an export), or the moves do
    /// not decode.
    pub(crate) fn expand_ply_comments(&self, stripped: &[u8], code: MovesCode) -> Result<Vec<u8>, RebuildError> {
        if !stripped.iter().any(|c| (COMMENT_MARK..=LAST_MARK).contains(c)) {
            return Ok(stripped.to_vec());
        }
        let comments = self.ply_comments();
        let moves = match stripped.iter().any(|&c| c == MOVE_MARK || c == NUMBERED_MOVE_MARK) {
            true => self.main_line_texts(code)?,
            false => Vec::new(),
        };
        let mut out = Vec::with_capacity(stripped.len() + 32 * comments.len() + 8 * moves.len());
        let (mut k, mut m, mut bytes) = (0, 0, stripped.iter());
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
                MOVE_MARK | NUMBERED_MOVE_MARK => {
                    let next = moves
                        .get(m)
                        .ok_or_else(|| error("more move marks than the row's main line has moves"))?;
                    let text = if c == MOVE_MARK { &next.san } else { &next.numbered };
                    out.extend_from_slice(text.as_bytes());
                    m += 1;
                }
                ESCAPE_MARK => out.push(*bytes.next().ok_or_else(|| error("ends on an escape byte (0x03)"))?),
                c => out.push(c),
            }
        }
        Ok(out)
    }

    /// The [`move_texts`] of the row's main line, decoded from `moves` in `code`.
    fn main_line_texts(&self, code: MovesCode) -> Result<Vec<MoveText>, RebuildError> {
        let (start, moves) = self.main_line(code)?;
        Ok(move_texts(&start, &moves))
    }
}

/// A main-line move as `annotations` marks it: its SAN (with `+`/`#`), and its number and SAN
/// (`12. Nf3` for White, `12... Nf6` for Black; the number is the position's full-move number).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct MoveText {
    san: String,
    numbered: String,
}

/// The [`MoveText`]s of `moves` played from `start`.
pub(crate) fn move_texts(start: &Position, moves: &[Move]) -> Vec<MoveText> {
    let mut pos = start.clone();
    let mut out = Vec::with_capacity(moves.len());
    for &m in moves {
        let san = san_of(&pos, m).to_string();
        let dots = if pos.turn() == Color::White { "." } else { "..." };
        let numbered = format!("{}{dots} {san}", pos.fullmove_number());
        pos.play_unchecked(m);
        out.push(MoveText { san, numbered });
    }
    out
}

/// In `annotations`: the next comment the row's `clocks` and `evals` give back (see the [crate
/// documentation](crate#annotations)).
pub(crate) const COMMENT_MARK: u8 = 0x01;
/// In `annotations`: the next comment the row's `clocks` and `evals` give back is not there.
pub(crate) const SKIP_MARK: u8 = 0x02;
/// In `annotations`: the next byte is itself (a `0x01` to `0x05` of the input).
pub(crate) const ESCAPE_MARK: u8 = 0x03;
/// In `annotations` (version 3 on): the next main-line move, its SAN.
pub(crate) const MOVE_MARK: u8 = 0x04;
/// In `annotations` (version 3 on): the next main-line move, its number and SAN (`12. Nf3`,
/// `12... Nf6`).
pub(crate) const NUMBERED_MOVE_MARK: u8 = 0x05;
/// The last byte that is a mark (escaped when the input has it).
pub(crate) const LAST_MARK: u8 = NUMBERED_MOVE_MARK;
/// How many ply comments a comment of the input is compared with: the next one and those after
/// it (a comment the columns do not give back, a clock with a fraction, is skipped).
const LOOKAHEAD: usize = 8;

/// Whether `raw` is `value` escaped as a tag value is written (a backslash before each `"` and
/// each `\`).
fn escapes_to(value: &[u8], raw: &[u8]) -> bool {
    let mut raw = raw.iter();
    for &b in value {
        if (b == b'"' || b == b'\\') && raw.next() != Some(&b'\\') {
            return false;
        }
        if raw.next() != Some(&b) {
            return false;
        }
    }
    raw.next().is_none()
}

#[cfg(test)]
mod tests {
    use super::*;
    use chessbits::pgn::PgnReader;

    fn row_of(pgn: &[u8]) -> GameRow {
        let game = PgnReader::new(pgn).read_owned_game().unwrap().unwrap().unwrap();
        GameRow::from_game(&game, crate::movetext(pgn))
    }

    #[test]
    fn escapes_are_compared_byte_for_byte() {
        assert!(escapes_to(b"a\"b\\c", b"a\\\"b\\\\c"));
        assert!(escapes_to(b"", b""));
        assert!(!escapes_to(b"a\"b", b"a\"b"));
        assert!(!escapes_to(b"ab", b"abc"));
        assert!(!escapes_to(b"abc", b"ab"));
        assert!(!escapes_to(b"\\", b"\\"));
    }

    /// Tags with quotes and backslashes rebuild from the columns as written (no
    /// `annotations`), and so does a numeric tag written otherwise (`WhiteElo "01500"`, kept
    /// in `other_tags`); a value written with an escape the writer does not make (`\a`) needs
    /// `annotations`. Either way the rebuilt PGN has the input's tag lines.
    #[test]
    fn tags_that_rebuild_need_no_annotations() {
        for (pgn, from_columns) in [
            (
                &b"[Event \"A \\\"B\\\" \\\\ C\"]\n[WhiteElo \"1500\"]\n[Annotator \"x\"]\n\n1. e4 *\n"[..],
                true,
            ),
            (&b"[Event \"x\"]\n[Event \"y\"]\n[Date \"?\"]\n\n1. e4 *\n"[..], true),
            (&b"[Event \"\\a\"]\n\n1. e4 *\n"[..], false),
            // Not canonical: kept in `other_tags` as written.
            (&b"[WhiteElo \"01500\"]\n\n1. e4 *\n"[..], true),
        ] {
            let row = row_of(pgn);
            assert_eq!(
                row.annotations.is_none(),
                from_columns,
                "{}",
                String::from_utf8_lossy(pgn)
            );
            let text = row.to_pgn(crate::MovesCode::default()).unwrap();
            let tag_lines = |b: &[u8]| b[..b.windows(2).position(|w| w == b"\n\n").unwrap()].to_vec();
            assert_eq!(tag_lines(&text), tag_lines(pgn));
        }
        let row = row_of(b"[Event \"A \\\"B\\\" \\\\ C\"]\n\n1. e4 *\n");
        assert_eq!(row.event.as_deref(), Some("A \"B\" \\ C"));
    }
}
