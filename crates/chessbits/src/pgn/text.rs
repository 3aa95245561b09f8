//! Text of tags and comments, kept as the bytes the file had: PGN files come in UTF-8 or, older
//! ones, Latin-1, sometimes both in one file, sometimes neither. Bytes are only decoded to show
//! them; what is stored, compared and written back is the bytes.

use core::fmt;
use std::borrow::Cow;

/// `bytes` as text: UTF-8 if that is what they are, else Latin-1 (every byte one character,
/// which never fails). For showing text: a game keeps the bytes themselves.
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

/// A tag value as it stands between the quotes, escapes included.
///
/// ```
/// use chessbits::pgn::RawTag;
/// let raw = RawTag(br#"The \"Immortal\" Game"#);
/// assert_eq!(raw.decode(), r#"The "Immortal" Game"#);
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct RawTag<'a>(pub &'a [u8]);

impl<'a> RawTag<'a> {
    /// The value with `\"` and `\\` unescaped, decoded as UTF-8 if valid, else as Latin-1.
    ///
    /// ```
    /// use chessbits::pgn::RawTag;
    /// assert_eq!(RawTag(b"G\xf6teborg").decode(), "Göteborg"); // Latin-1
    /// assert_eq!(RawTag("Göteborg".as_bytes()).decode(), "Göteborg"); // UTF-8
    /// ```
    pub fn decode(&self) -> Cow<'a, str> {
        if self.0.contains(&b'\\') {
            let mut unescaped = Vec::with_capacity(self.0.len());
            let mut bytes = self.0.iter();
            while let Some(&byte) = bytes.next() {
                match (byte, bytes.as_slice().first()) {
                    (b'\\', Some(&next @ (b'\\' | b'"'))) => {
                        unescaped.push(next);
                        bytes.next();
                    }
                    _ => unescaped.push(byte),
                }
            }
            Cow::Owned(decode(&unescaped).into_owned())
        } else {
            decode(self.0)
        }
    }

    /// The raw bytes.
    ///
    /// ```
    /// use chessbits::pgn::RawTag;
    /// assert_eq!(RawTag(b"x").as_bytes(), b"x");
    /// ```
    pub fn as_bytes(&self) -> &'a [u8] {
        self.0
    }
}

/// The text of a comment, between the braces (or after `;`).
///
/// ```
/// use chessbits::pgn::RawComment;
/// assert_eq!(RawComment(b" [%clk 0:01:00] ").decode(), " [%clk 0:01:00] ");
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct RawComment<'a>(pub &'a [u8]);

impl<'a> RawComment<'a> {
    /// The text decoded as UTF-8 if valid, else as Latin-1.
    ///
    /// ```
    /// use chessbits::pgn::RawComment;
    /// assert_eq!(RawComment(b"\xe9chec").decode(), "échec");
    /// ```
    pub fn decode(&self) -> Cow<'a, str> {
        decode(self.0)
    }

    /// The raw bytes.
    ///
    /// ```
    /// use chessbits::pgn::RawComment;
    /// assert_eq!(RawComment(b"x").as_bytes(), b"x");
    /// ```
    pub fn as_bytes(&self) -> &'a [u8] {
        self.0
    }
}

/// A tag pair as the file wrote it: the name, and the value as it stands between its quotes
/// (escapes `\"` and `\\` included), byte for byte.
///
/// ```
/// use chessbits::pgn::Tag;
/// let tag = Tag::new("Event", r#"The "Immortal" Game"#);
/// assert_eq!(tag.raw_value(), br#"The \"Immortal\" Game"#);
/// assert_eq!(tag.value(), r#"The "Immortal" Game"#);
/// assert_eq!(tag.to_string(), r#"[Event "The \"Immortal\" Game"]"#);
/// ```
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Tag {
    name: Vec<u8>,
    raw_value: Vec<u8>,
}

impl Tag {
    /// A tag with `value`, escaped as PGN wants (`"` and `\` get a backslash).
    ///
    /// ```
    /// use chessbits::pgn::Tag;
    /// assert_eq!(Tag::new("Site", r"C:\games").raw_value(), br"C:\\games");
    /// ```
    pub fn new(name: &str, value: &str) -> Tag {
        let mut raw_value = Vec::with_capacity(value.len());
        for &byte in value.as_bytes() {
            if byte == b'"' || byte == b'\\' {
                raw_value.push(b'\\');
            }
            raw_value.push(byte);
        }
        Tag {
            name: name.as_bytes().to_vec(),
            raw_value,
        }
    }

    /// A tag from the bytes of its name and of its value as written between the quotes.
    ///
    /// ```
    /// use chessbits::pgn::Tag;
    /// let tag = Tag::from_raw(b"White", b"\"Mr X\"");
    /// assert_eq!(tag.value(), "\"Mr X\"");
    /// ```
    pub fn from_raw(name: &[u8], raw_value: &[u8]) -> Tag {
        Tag {
            name: name.to_vec(),
            raw_value: raw_value.to_vec(),
        }
    }

    /// The name's bytes.
    ///
    /// ```
    /// assert_eq!(chessbits::pgn::Tag::new("ECO", "C20").name(), b"ECO");
    /// ```
    pub fn name(&self) -> &[u8] {
        &self.name
    }

    /// The value as written between the quotes, escapes included.
    ///
    /// ```
    /// assert_eq!(chessbits::pgn::Tag::new("X", "a\"b").raw_value(), b"a\\\"b");
    /// ```
    pub fn raw_value(&self) -> &[u8] {
        &self.raw_value
    }

    /// The value, unescaped and decoded (UTF-8, else Latin-1).
    ///
    /// ```
    /// use chessbits::pgn::Tag;
    /// assert_eq!(Tag::from_raw(b"White", b"M\xfcller").value(), "Müller");
    /// ```
    pub fn value(&self) -> Cow<'_, str> {
        RawTag(&self.raw_value).decode()
    }

    /// Whether the tag is called `name`.
    ///
    /// ```
    /// assert!(chessbits::pgn::Tag::new("Event", "?").is_named("Event"));
    /// ```
    pub fn is_named(&self, name: &str) -> bool {
        self.name == name.as_bytes()
    }
}

impl fmt::Display for Tag {
    /// `[Name "value"]`, decoded for showing (the bytes may not be UTF-8).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "[{} \"{}\"]", decode(&self.name), decode(&self.raw_value))
    }
}

impl fmt::Debug for Tag {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// A comment's bytes, exactly as between its braces (or after its `;`), spaces and line breaks
/// included.
///
/// ```
/// use chessbits::pgn::Comment;
/// let comment = Comment::from(" [%clk 0:03:00] ");
/// assert_eq!(comment.as_bytes(), b" [%clk 0:03:00] ");
/// assert_eq!(comment.text(), " [%clk 0:03:00] ");
/// assert_eq!(comment, " [%clk 0:03:00] ");
/// ```
#[derive(Clone, PartialEq, Eq, Hash, Default)]
pub struct Comment(Vec<u8>);

impl Comment {
    /// A comment from its bytes.
    ///
    /// ```
    /// assert_eq!(chessbits::pgn::Comment::new(b"\xe9chec".to_vec()).text(), "échec");
    /// ```
    pub fn new(bytes: Vec<u8>) -> Comment {
        Comment(bytes)
    }

    /// The bytes.
    ///
    /// ```
    /// assert_eq!(chessbits::pgn::Comment::from("x").as_bytes(), b"x");
    /// ```
    pub fn as_bytes(&self) -> &[u8] {
        &self.0
    }

    /// The text, decoded (UTF-8, else Latin-1).
    ///
    /// ```
    /// assert_eq!(chessbits::pgn::Comment::from("ok").text(), "ok");
    /// ```
    pub fn text(&self) -> Cow<'_, str> {
        decode(&self.0)
    }
}

impl From<&str> for Comment {
    fn from(text: &str) -> Comment {
        Comment(text.as_bytes().to_vec())
    }
}

impl From<Vec<u8>> for Comment {
    fn from(bytes: Vec<u8>) -> Comment {
        Comment(bytes)
    }
}

impl PartialEq<&str> for Comment {
    fn eq(&self, other: &&str) -> bool {
        self.0 == other.as_bytes()
    }
}

impl PartialEq<str> for Comment {
    fn eq(&self, other: &str) -> bool {
        self.0 == other.as_bytes()
    }
}

impl fmt::Display for Comment {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text())
    }
}

impl fmt::Debug for Comment {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.text(), f)
    }
}
