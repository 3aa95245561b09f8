//! Opening PGN input: plain text, or gzip or zstd recognised by their first bytes and decompressed
//! on the fly (with the `gzip` and `zstd` features); UTF-16 text refused with a hint.

use core::fmt;
use std::fs::File;
use std::io::{self, Chain, Cursor, Read, Take};
use std::path::Path;

use super::build::Games;
use super::reader::PgnReader;

/// The first bytes of a gzip member.
const GZIP_MAGIC: [u8; 2] = [0x1f, 0x8b];
/// The first bytes of a zstd frame.
const ZSTD_MAGIC: [u8; 4] = [0x28, 0xb5, 0x2f, 0xfd];
/// Buffer of the compressed bytes in front of a decoder.
#[cfg(any(feature = "gzip", feature = "zstd"))]
const BUFFER: usize = 1 << 16;

/// How an input is compressed, as its first bytes tell.
///
/// ```
/// use chessbits::pgn::Compression;
/// assert_eq!(Compression::detect(b"\x1f\x8b\x08\x00"), Compression::Gzip);
/// assert_eq!(Compression::detect(b"\x28\xb5\x2f\xfd"), Compression::Zstd);
/// assert_eq!(Compression::detect(b"[Eve"), Compression::None);
/// assert_eq!(Compression::Zstd.to_string(), "zstd");
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Compression {
    /// Plain text.
    None,
    /// gzip (one or more members, as `cat a.gz b.gz` makes).
    Gzip,
    /// zstd (one or more frames).
    Zstd,
}

impl Compression {
    /// The compression whose magic number `head` starts with (four bytes suffice).
    ///
    /// ```
    /// use chessbits::pgn::Compression;
    /// assert_eq!(Compression::detect(b"\x1f"), Compression::None);
    /// ```
    pub fn detect(head: &[u8]) -> Compression {
        if head.starts_with(&GZIP_MAGIC) {
            Compression::Gzip
        } else if head.starts_with(&ZSTD_MAGIC) {
            Compression::Zstd
        } else {
            Compression::None
        }
    }

    /// Whether this build can decompress it (the cargo feature `gzip` or `zstd`).
    ///
    /// ```
    /// use chessbits::pgn::Compression;
    /// assert!(Compression::None.is_supported());
    /// assert_eq!(Compression::Zstd.is_supported(), cfg!(feature = "zstd"));
    /// ```
    pub fn is_supported(self) -> bool {
        match self {
            Compression::None => true,
            Compression::Gzip => cfg!(feature = "gzip"),
            Compression::Zstd => cfg!(feature = "zstd"),
        }
    }
}

impl fmt::Display for Compression {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Compression::None => "none",
            Compression::Gzip => "gzip",
            Compression::Zstd => "zstd",
        })
    }
}

/// Why an input cannot be read as PGN text. Carried inside the [`io::Error`] that
/// [`decompress`] returns (kind [`InvalidData`](io::ErrorKind::InvalidData)); get it back with
/// [`InputError::of`].
///
/// ```
/// use chessbits::pgn::{decompress, Compression, InputError};
/// let utf16 = decompress(&b"\xff\xfe[\0E\0"[..]).err().unwrap();
/// assert_eq!(InputError::of(&utf16), Some(&InputError::Utf16));
/// if !cfg!(feature = "zstd") {
///     let zstd = decompress(&b"\x28\xb5\x2f\xfd\0\0"[..]).err().unwrap();
///     assert_eq!(InputError::of(&zstd), Some(&InputError::Unsupported(Compression::Zstd)));
///     assert_eq!(zstd.to_string(), "zstd-compressed input, but chessbits was built without the `zstd` feature");
/// }
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum InputError {
    /// Compressed input that this build cannot decompress: the cargo feature (`gzip`, `zstd`)
    /// is off.
    Unsupported(Compression),
    /// UTF-16 text (a byte-order mark, or ASCII with every other byte zero), not PGN's UTF-8 or
    /// Latin-1.
    Utf16,
    /// A game longer than [`MAX_GAME_BYTES`](super::MAX_GAME_BYTES), starting on `first_line`,
    /// reported as soon as it passed the limit: only by a reader told to stop there
    /// ([`PgnReader::stop_at_too_long_game`](super::PgnReader::stop_at_too_long_game)).
    GameTooLong {
        /// The line the game starts on.
        first_line: u32,
    },
}

impl InputError {
    /// The `InputError` inside `error`, if that is what it carries.
    ///
    /// ```
    /// use chessbits::pgn::InputError;
    /// assert_eq!(InputError::of(&std::io::Error::other("x")), None);
    /// ```
    pub fn of(error: &io::Error) -> Option<&InputError> {
        error.get_ref()?.downcast_ref()
    }
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            InputError::Unsupported(c) => {
                write!(
                    f,
                    "{c}-compressed input, but chessbits was built without the `{c}` feature"
                )
            }
            InputError::Utf16 => f.write_str(
                "the text is UTF-16, not PGN's UTF-8 or Latin-1: convert it first (iconv -f UTF-16 -t UTF-8)",
            ),
            InputError::GameTooLong { first_line } => {
                write!(f, "line {first_line}: {}", super::SyntaxError::GameTooLong)
            }
        }
    }
}

impl std::error::Error for InputError {}

impl From<InputError> for io::Error {
    fn from(error: InputError) -> io::Error {
        io::Error::new(io::ErrorKind::InvalidData, error)
    }
}

/// The input with the first bytes that were looked at put back in front.
type Peeked<R> = Chain<Take<Cursor<[u8; 4]>>, R>;

/// An input, decompressed if it was compressed: what [`decompress`] returns.
///
/// ```
/// use std::io::Read;
/// let mut text = String::new();
/// chessbits::pgn::decompress(&b"1. e4 *"[..]).unwrap().read_to_string(&mut text).unwrap();
/// assert_eq!(text, "1. e4 *");
/// ```
pub struct Decompressed<R: Read> {
    inner: Inner<R>,
}

enum Inner<R: Read> {
    Plain(Peeked<R>),
    #[cfg(feature = "gzip")]
    Gzip(flate2::bufread::MultiGzDecoder<io::BufReader<Peeked<R>>>),
    #[cfg(feature = "zstd")]
    Zstd(zstd::stream::read::Decoder<'static, io::BufReader<Peeked<R>>>),
}

impl<R: Read> Decompressed<R> {
    /// How the input was compressed.
    ///
    /// ```
    /// use chessbits::pgn::{decompress, Compression};
    /// assert_eq!(decompress(&b"1. d4 *"[..]).unwrap().compression(), Compression::None);
    /// ```
    pub fn compression(&self) -> Compression {
        match self.inner {
            Inner::Plain(_) => Compression::None,
            #[cfg(feature = "gzip")]
            Inner::Gzip(_) => Compression::Gzip,
            #[cfg(feature = "zstd")]
            Inner::Zstd(_) => Compression::Zstd,
        }
    }
}

impl<R: Read> Read for Decompressed<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match &mut self.inner {
            Inner::Plain(r) => r.read(buf),
            #[cfg(feature = "gzip")]
            Inner::Gzip(r) => r.read(buf),
            #[cfg(feature = "zstd")]
            Inner::Zstd(r) => r.read(buf),
        }
    }
}

/// `input` decompressed if its first bytes are the gzip or zstd magic number (by content, not by
/// name: standard input works too; concatenated gzip members and zstd frames are read to the
/// end), as it is otherwise.
///
/// Errors: a read error; UTF-16 text, or compressed input this build has no feature for: an
/// [`io::Error`] carrying an [`InputError`]. Never garbage games from compressed bytes.
///
/// ```
/// use chessbits::pgn::{decompress, PgnReader};
/// let input = decompress(&b"[Event \"x\"]\n\n1. e4 *"[..]).unwrap();
/// assert_eq!(PgnReader::new(input).into_games().count(), 1);
/// ```
pub fn decompress<R: Read>(mut input: R) -> io::Result<Decompressed<R>> {
    // Up to four bytes decide the format; a short read from a pipe must not hide a magic number.
    let mut head = [0u8; 4];
    let len = read_full(&mut input, &mut head)?;
    if is_utf16(&head[..len]) {
        return Err(InputError::Utf16.into());
    }
    let compression = Compression::detect(&head[..len]);
    let peeked = Cursor::new(head).take(len as u64).chain(input);
    let inner = match compression {
        Compression::None => Inner::Plain(peeked),
        #[cfg(feature = "gzip")]
        Compression::Gzip => Inner::Gzip(flate2::bufread::MultiGzDecoder::new(io::BufReader::with_capacity(
            BUFFER, peeked,
        ))),
        #[cfg(feature = "zstd")]
        Compression::Zstd => Inner::Zstd(zstd::stream::read::Decoder::with_buffer(io::BufReader::with_capacity(
            BUFFER, peeked,
        ))?),
        #[allow(unreachable_patterns)]
        other => return Err(InputError::Unsupported(other).into()),
    };
    Ok(Decompressed { inner })
}

/// The games of `input` (decompressed as [`decompress`] does), as an iterator of
/// `Result<GameTree, PgnError>`.
///
/// ```
/// use chessbits::pgn;
/// let mut games = pgn::read(&b"1. e4 e5 *\n\n1. e5 *"[..]).unwrap();
/// assert_eq!(games.next().unwrap().unwrap().mainline().count(), 2);
/// assert!(games.next().unwrap().is_err()); // 1. e5 is illegal
/// assert!(games.next().is_none());
/// ```
pub fn read<R: Read>(input: R) -> io::Result<Games<Decompressed<R>>> {
    Ok(PgnReader::new(decompress(input)?).into_games())
}

/// The games of the file at `path` (plain, gzip or zstd, recognised by content), as an iterator
/// of `Result<GameTree, PgnError>`. Errors opening the file or with its first bytes come first;
/// each game then is a game or the reason it could not be read, and reading goes on.
///
/// ```no_run
/// use chessbits::pgn;
/// for game in pgn::read_file("lichess_db_standard_rated_2013-01.pgn.zst")? {
///     match game {
///         Ok(game) => println!("{} moves", game.mainline().count()),
///         Err(error) => eprintln!("{error}"),
///     }
/// }
/// # Ok::<(), std::io::Error>(())
/// ```
pub fn read_file(path: impl AsRef<Path>) -> io::Result<Games<Decompressed<File>>> {
    read(File::open(path)?)
}

/// Whether the first bytes of a text are UTF-16: a byte-order mark, or ASCII with every other byte
/// zero (`[\0E\0` or `\0[\0E`). No PGN byte is zero.
fn is_utf16(head: &[u8]) -> bool {
    match head {
        [0xff, 0xfe, ..] | [0xfe, 0xff, ..] => true,
        [a, 0, b, 0] | [0, a, 0, b] => *a != 0 && *b != 0,
        _ => false,
    }
}

/// Reads into `buf` until it is full or the input ends; returns the bytes read. A pipe may hand
/// over fewer bytes a call than asked for: this is how the first bytes of an input are read to
/// tell its format by content.
///
/// ```
/// let mut head = [0u8; 4];
/// let n = chessbits::pgn::read_full(&mut &b"[Ev"[..], &mut head).unwrap();
/// assert_eq!(&head[..n], b"[Ev");
/// ```
pub fn read_full(input: &mut impl Read, buf: &mut [u8]) -> io::Result<usize> {
    let mut filled = 0;
    while filled < buf.len() {
        match input.read(&mut buf[filled..]) {
            Ok(0) => break,
            Ok(n) => filled += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(filled)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read_all(bytes: &[u8]) -> io::Result<Vec<u8>> {
        let mut out = Vec::new();
        decompress(bytes)?.read_to_end(&mut out)?;
        Ok(out)
    }

    #[test]
    fn short_input_and_near_magic_numbers_are_text() {
        for content in [&b""[..], b"*", b"\x1f", b"\x28\xb5\x2f", b"\x1f\x8a"] {
            assert_eq!(read_all(content).unwrap(), content);
        }
    }

    #[test]
    fn utf16_is_refused_latin1_and_utf8_read() {
        let text = "[Event \"x\"]\n";
        let le: Vec<u8> = text.encode_utf16().flat_map(u16::to_le_bytes).collect();
        let be: Vec<u8> = text.encode_utf16().flat_map(u16::to_be_bytes).collect();
        for bytes in [le.clone(), be.clone(), [&[0xff, 0xfe][..], &le].concat()] {
            let error = read_all(&bytes).unwrap_err();
            assert_eq!(InputError::of(&error), Some(&InputError::Utf16));
            assert!(error.to_string().contains("UTF-16"));
        }
        for bytes in [&b"[Event \"Andr\x82\"]"[..], b"\xef\xbb\xbf[Event \"x\"]"] {
            assert_eq!(read_all(bytes).unwrap(), bytes);
        }
    }

    #[test]
    fn compressed_input_without_its_feature_is_a_typed_error() {
        for (bytes, compression) in [
            (&b"\x1f\x8b\x08\x00garbage"[..], Compression::Gzip),
            (b"\x28\xb5\x2f\xfdgarbage", Compression::Zstd),
        ] {
            let result = read_all(bytes);
            if compression.is_supported() {
                // Garbage after the magic number: an error, not a panic.
                assert!(result.is_err());
            } else {
                let error = result.unwrap_err();
                assert_eq!(InputError::of(&error), Some(&InputError::Unsupported(compression)));
                assert!(error
                    .to_string()
                    .contains(&format!("without the `{compression}` feature")));
                assert!(read(bytes).is_err(), "no games from compressed bytes");
            }
        }
    }
}
