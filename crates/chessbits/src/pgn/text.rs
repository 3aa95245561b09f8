//! Text of tags and comments: PGN files come in UTF-8 or, older ones, Latin-1.

use std::borrow::Cow;

/// `bytes` as text: UTF-8 if that is what they are, else Latin-1 (every byte one character,
/// which never fails).
///
/// ```
/// use chessbits::pgn::decode_text;
/// assert_eq!(decode_text("Réti".as_bytes()), "Réti");
/// assert_eq!(decode_text(b"R\xe9ti"), "Réti");
/// ```
pub fn decode(bytes: &[u8]) -> Cow<'_, str> {
    match core::str::from_utf8(bytes) {
        Ok(text) => Cow::Borrowed(text),
        Err(_) => Cow::Owned(bytes.iter().map(|&b| char::from(b)).collect()),
    }
}

/// A comment's text as the owned game keeps it: trimmed, every line break (`\n`, `\r\n`, `\r`)
/// one space. Line breaks in a comment are the wrapping of the file it came from; normalizing
/// them lets the writer wrap comments again and read back the same text.
///
/// ```
/// use chessbits::pgn::normalize_comment;
/// assert_eq!(normalize_comment(" a long\r\ncomment  "), "a long comment");
/// ```
pub fn normalize_comment(text: &str) -> String {
    let trimmed = text.trim_matches(|c: char| c.is_ascii_whitespace());
    let mut out = String::with_capacity(trimmed.len());
    let mut chars = trimmed.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\r' => {
                if chars.peek() == Some(&'\n') {
                    chars.next();
                }
                out.push(' ');
            }
            '\n' => out.push(' '),
            _ => out.push(c),
        }
    }
    out
}
