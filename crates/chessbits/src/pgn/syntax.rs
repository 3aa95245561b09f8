//! What the reader reports about the text of a game, and the limits it keeps.

use core::fmt;

/// Longest comment or tag the reader delivers; a longer one is a [`SyntaxError::TokenTooLong`]
/// (the reader's buffer must hold a token whole to lend it to the visitor).
pub const MAX_TOKEN_BYTES: usize = 1 << 24;

/// Longest game, tags and movetext, in bytes: a longer one is a [`SyntaxError::GameTooLong`].
/// Readers that hand whole games to other threads hold one game in memory at a time; this bounds
/// it.
pub const MAX_GAME_BYTES: u64 = 1 << 25;

/// Deepest nesting of variations: `(` at this depth is a [`SyntaxError::TooDeep`]. Every tree the
/// reader builds is walked recursively (writing, comparing, dropping, archiving), so the depth
/// is bounded; real games nest a handful of levels.
pub const MAX_VARIATION_DEPTH: u32 = 100;

/// A problem with the text of a game, found while reading it. The reader reports it to the
/// visitor ([`Visitor::syntax_error`](super::Visitor::syntax_error)) and goes on; the game is
/// not valid.
///
/// ```
/// use chessbits::pgn::{PgnReader, SyntaxError, GameErrorKind};
/// let pgn = b"1. e4 {unclosed\n\n[Event \"Next\"]\n\n1. d4 *";
/// let mut games = PgnReader::new(&pgn[..]).into_games();
/// let broken = games.next().unwrap().unwrap_err();
/// assert_eq!(broken.to_string(), "line 1: comment not closed before the next game or the end");
/// assert!(games.next().unwrap().is_ok(), "reading goes on with the next game");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum SyntaxError {
    /// A `{` comment not closed before a new game's tags (a tag line after a blank line) or
    /// the end of the input; reported at the line the comment starts.
    UnclosedComment,
    /// A `(` not closed before a new game's tags or the end of the input; reported at the line
    /// the outermost open variation starts.
    UnclosedVariation,
    /// A character that has no place where it stands: `[` inside movetext (not starting a tag
    /// line), `]`, `}` or `)` without its opening.
    Unexpected(char),
    /// A tag pair that is not `[Name "value"]`.
    MalformedTag,
    /// `$` without digits, or with a number above 255.
    BadNag(String),
    /// A run of `!` and `?` that is not one of `!`, `?`, `!!`, `??`, `!?`, `?!`.
    UnknownAnnotation(String),
    /// A NAG before the first move of a line: it annotates nothing.
    NagWithoutMove,
    /// A variation before the first move of a line: it is an alternative to nothing.
    VariationWithoutMove,
    /// A result (`1-0`, `0-1`, `1/2-1/2`, `*`) inside a variation: only the game has a result,
    /// and a tree of moves has no place to keep it.
    ResultInVariation,
    /// Variations nested deeper than [`MAX_VARIATION_DEPTH`].
    TooDeep,
    /// A comment or tag longer than [`MAX_TOKEN_BYTES`].
    TokenTooLong,
    /// A game longer than [`MAX_GAME_BYTES`] (reported at its first line, before any other error).
    GameTooLong,
}

impl fmt::Display for SyntaxError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SyntaxError::UnclosedComment => f.write_str("comment not closed before the next game or the end"),
            SyntaxError::UnclosedVariation => f.write_str("variation not closed before the next game or the end"),
            SyntaxError::Unexpected(c) => write!(f, "unexpected '{c}' in movetext"),
            SyntaxError::MalformedTag => f.write_str("malformed tag pair"),
            SyntaxError::BadNag(text) => write!(f, "bad NAG '{text}' (0 to 255)"),
            SyntaxError::UnknownAnnotation(text) => write!(f, "unknown annotation '{text}'"),
            SyntaxError::NagWithoutMove => f.write_str("NAG before any move"),
            SyntaxError::VariationWithoutMove => f.write_str("variation before any move"),
            SyntaxError::ResultInVariation => f.write_str("result inside a variation"),
            SyntaxError::TooDeep => write!(f, "variations nested deeper than {MAX_VARIATION_DEPTH}"),
            SyntaxError::TokenTooLong => write!(f, "comment or tag longer than {} MiB", MAX_TOKEN_BYTES >> 20),
            SyntaxError::GameTooLong => write!(f, "game longer than {} MiB", MAX_GAME_BYTES >> 20),
        }
    }
}

impl std::error::Error for SyntaxError {}

/// Whether `bytes`, which start with `[`, begin a tag pair: `[`, a name (a letter or digit, then
/// letters, digits and `_+#=:-`, at most 200 bytes), spaces or tabs (at most 40), `"`. `None` when
/// the bytes end before that is decided and more may come.
pub(super) fn starts_tag_pair(bytes: &[u8], more: bool) -> Option<bool> {
    let undecided = if more { None } else { Some(false) };
    let mut i = 1;
    match bytes.get(i) {
        None => return undecided,
        Some(b) if b.is_ascii_alphanumeric() => i += 1,
        Some(_) => return Some(false),
    }
    loop {
        match bytes.get(i) {
            None => return undecided,
            Some(b) if b.is_ascii_alphanumeric() || b"_+#=:-".contains(b) => {
                if i > 200 {
                    return Some(false);
                }
                i += 1;
            }
            Some(_) => break,
        }
    }
    let name_end = i;
    loop {
        match bytes.get(i) {
            None => return undecided,
            Some(b' ' | b'\t') if i - name_end < 40 => i += 1,
            Some(&b) => return Some(b == b'"'),
        }
    }
}

/// Whether `before` ends with a blank line and a line break: what precedes a tag line that
/// starts a new game inside an unclosed comment. A blank line holds at most 256 spaces or tabs.
pub(super) fn ends_with_blank_line(before: &[u8]) -> bool {
    let mut j = before.len();
    let step_break = |j: &mut usize| -> bool {
        match before[..*j].last() {
            Some(b'\n') => {
                *j -= 1;
                if before[..*j].last() == Some(&b'\r') {
                    *j -= 1;
                }
                true
            }
            Some(b'\r') => {
                *j -= 1;
                true
            }
            _ => false,
        }
    };
    if !step_break(&mut j) {
        return false;
    }
    let blanks = before[..j]
        .iter()
        .rev()
        .take_while(|&&b| b == b' ' || b == b'\t')
        .count();
    if blanks > 256 {
        return false;
    }
    j -= blanks;
    step_break(&mut j)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tag_pairs_are_recognised() {
        assert_eq!(starts_tag_pair(b"[Event \"x\"]", false), Some(true));
        assert_eq!(starts_tag_pair(b"[Event\"x\"]", false), Some(true));
        assert_eq!(starts_tag_pair(b"[%clk 0:01]", false), Some(false));
        assert_eq!(starts_tag_pair(b"[ Event \"x\"]", false), Some(false));
        assert_eq!(starts_tag_pair(b"[Event x]", false), Some(false));
        assert_eq!(starts_tag_pair(b"[Eve", true), None);
        assert_eq!(starts_tag_pair(b"[Eve", false), Some(false));
        assert_eq!(starts_tag_pair(b"[", true), None);
    }

    #[test]
    fn blank_lines_of_every_style() {
        for text in [&b"x\n\n"[..], b"x\r\n\r\n", b"x\r\r", b"x\n  \t\n", b"\n\n"] {
            assert!(ends_with_blank_line(text), "{text:?}");
        }
        for text in [&b"x\n"[..], b"x\r\n", b"x\n y\n", b"", b"\n", b"x\n\nx"] {
            assert!(!ends_with_blank_line(text), "{text:?}");
        }
        let mut long = b"x\n".to_vec();
        long.extend(std::iter::repeat_n(b' ', 300));
        long.push(b'\n');
        assert!(!ends_with_blank_line(&long));
    }
}
