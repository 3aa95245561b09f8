//! Standard Algebraic Notation (SAN): `Nf3`, `exd5`, `e8=Q+`, `O-O-O#`.
//!
//! A [`San`] is the notation itself, a value that knows nothing about the position: the piece
//! role, the optional disambiguation, the capture mark, the target square and the promotion —
//! or a castle, or the null move. A [`SanPlus`] adds the check or mate suffix.
//!
//! Two parsers:
//!
//! - [`San::parse_strict`]: exactly the SAN of the PGN standard (plus `--` and `Z0` for the null
//!   move), so that what it accepts is what [`Display`](fmt::Display) writes; [`FromStr`] is
//!   the same but also takes (and drops) a check or mate mark: `"Nf3+".parse::<San>()`;
//! - [`San::parse_lenient`] (what the PGN reader uses): works on bytes without allocating and
//!   accepts what real files contain: `0-0`, `e8Q`, `e8(Q)`, `exd6 e.p.`, long algebraic
//!   `Ng1-f3` / `e2e4`, a missing `x`, trailing `!?`, `+`, `#`, `‡`.
//!
//! Turning notation into a move needs the position: [`Position::parse_san`] (or [`San::to_move`])
//! resolves it (typed errors: no such legal move, ambiguous), and [`Position::san`] writes the
//! SAN of a move with minimal disambiguation and the right suffix (the free function
//! [`san_of`] is the same).
//!
//! [`Position::parse_san`]: crate::position::Position::parse_san
//! [`Position::san`]: crate::position::Position::san
//!
//! ```
//! use chessbits::notation::san::{San, SanPlus};
//! use chessbits::position::Position;
//!
//! let pos = Position::startpos();
//! let san: San = "Nf3".parse().unwrap();
//! let m = san.to_move(&pos).unwrap();
//! assert_eq!(m.to_string(), "g1f3");
//! assert_eq!(pos.san(m).to_string(), "Nf3");
//! // The lenient parser reads what PGN files contain.
//! let lenient = San::parse_lenient(b"Ng1-f3!?").unwrap();
//! assert_eq!(lenient.san.to_move(&pos), Ok(m));
//! ```

use core::fmt;
use core::str::FromStr;

use crate::types::{display_padded, CastlingSide, File, Rank, Role, Square};

mod resolve;

pub use resolve::{san_of, suffix_of};

/// A move in SAN, without check or mate suffix.
///
/// `Normal` keeps the disambiguation exactly as written, so a superfluous one (`Nbd7` where
/// `Nd7` is unique) survives parsing and writing; [`san_of`] only produces minimal ones.
///
/// ```
/// use chessbits::notation::san::San;
/// use chessbits::types::{Role, Square, File};
/// let san: San = "Nbd7".parse().unwrap();
/// assert_eq!(
///     san,
///     San::Normal { role: Role::Knight, file: Some(File::B), rank: None, capture: false,
///                   to: Square::D7, promotion: None }
/// );
/// assert_eq!(san.to_string(), "Nbd7");
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum San {
    /// A piece or pawn move.
    Normal {
        /// The role of the moving piece (`Pawn` when no letter is written).
        role: Role,
        /// The file of the origin square, when written.
        file: Option<File>,
        /// The rank of the origin square, when written.
        rank: Option<Rank>,
        /// Whether the move is marked as a capture (`x`).
        capture: bool,
        /// The target square.
        to: Square,
        /// The promotion role, for pawn moves to the last rank.
        promotion: Option<Role>,
    },
    /// `O-O` or `O-O-O`, in standard chess and Chess960 alike.
    Castle(CastlingSide),
    /// The null move: written `--` (also read as `Z0`).
    Null,
}

/// The check or mate mark after a move.
///
/// ```
/// use chessbits::notation::san::Suffix;
/// assert_eq!(Suffix::Checkmate.char(), '#');
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Suffix {
    /// `+`
    Check,
    /// `#`
    Checkmate,
}

impl Suffix {
    /// `+` or `#`.
    ///
    /// ```
    /// use chessbits::notation::san::Suffix;
    /// assert_eq!(Suffix::Check.char(), '+');
    /// ```
    pub const fn char(self) -> char {
        match self {
            Suffix::Check => '+',
            Suffix::Checkmate => '#',
        }
    }
}

/// A [`San`] with its check or mate suffix: what a PGN file holds for a move.
///
/// ```
/// use chessbits::notation::san::{SanPlus, Suffix};
/// let san: SanPlus = "Qxf7#".parse().unwrap();
/// assert_eq!(san.suffix, Some(Suffix::Checkmate));
/// assert_eq!(san.to_string(), "Qxf7#");
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct SanPlus {
    /// The move.
    pub san: San,
    /// `+`, `#`, or nothing.
    pub suffix: Option<Suffix>,
}

/// Why SAN could not be parsed or resolved.
///
/// ```
/// use chessbits::notation::san::{San, SanError};
/// use chessbits::position::Position;
/// assert_eq!("Nf9".parse::<San>(), Err(SanError::Malformed));
/// let san: San = "Nd4".parse().unwrap();
/// assert_eq!(san.to_move(&Position::startpos()), Err(SanError::Illegal));
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum SanError {
    /// The text is not SAN.
    Malformed,
    /// No legal move in the position matches.
    Illegal,
    /// More than one legal move matches.
    Ambiguous,
}

impl fmt::Display for SanError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            SanError::Malformed => "malformed move",
            SanError::Illegal => "illegal move",
            SanError::Ambiguous => "ambiguous move",
        })
    }
}

impl std::error::Error for SanError {}

/// SAN text that names no legal move: the text as given and why ([`SanError`]: malformed,
/// illegal or ambiguous).
///
/// ```
/// use chessbits::notation::san::SanError;
/// use chessbits::position::Position;
/// let pos = Position::from_fen("4k3/8/8/8/8/8/8/3NK2N w - - 0 1").unwrap();
/// let err = pos.parse_san("Nf2").unwrap_err();
/// assert_eq!((err.text.as_str(), err.kind), ("Nf2", SanError::Ambiguous));
/// assert_eq!(err.to_string(), "ambiguous move 'Nf2'");
/// assert_eq!(pos.parse_san("Nz9").unwrap_err().kind, SanError::Malformed);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct InvalidSan {
    /// The text that was given.
    pub text: String,
    /// What is wrong with it.
    pub kind: SanError,
}

impl fmt::Display for InvalidSan {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} '{}'", self.kind, self.text)
    }
}

impl std::error::Error for InvalidSan {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.kind)
    }
}

/// `a`..`h` to a file (bytes below `a` wrap round to large values, which `File::new` refuses).
#[inline]
fn file_of(byte: u8) -> Option<File> {
    File::new(byte.wrapping_sub(b'a'))
}

/// `1`..`8` to a rank.
#[inline]
fn rank_of(byte: u8) -> Option<Rank> {
    Rank::new(byte.wrapping_sub(b'1'))
}

/// An upper-case piece letter (no pawn) to its role.
#[inline]
fn piece_of(byte: u8) -> Option<Role> {
    match byte {
        b'N' => Some(Role::Knight),
        b'B' => Some(Role::Bishop),
        b'R' => Some(Role::Rook),
        b'Q' => Some(Role::Queen),
        b'K' => Some(Role::King),
        _ => None,
    }
}

/// A promotion letter, upper or lower case.
#[inline]
fn promotion_of(byte: u8) -> Option<Role> {
    piece_of(byte.to_ascii_uppercase()).filter(|&role| role != Role::King)
}

/// Splits `body` into what precedes the target square and the target square (its last two
/// bytes).
#[inline]
fn split_target(body: &[u8]) -> Result<(&[u8], Square), SanError> {
    let [prefix @ .., to_file, to_rank] = body else {
        return Err(SanError::Malformed);
    };
    match (file_of(*to_file), rank_of(*to_rank)) {
        (Some(file), Some(rank)) => Ok((prefix, Square::from_coords(file, rank))),
        _ => Err(SanError::Malformed),
    }
}

/// Splits a leading piece letter (pawn if none) and then an origin file, if any, off `prefix`.
#[inline]
fn split_role_and_file(prefix: &[u8]) -> (Role, Option<File>, &[u8]) {
    let (role, prefix) = match prefix {
        [letter, rest @ ..] if piece_of(*letter).is_some() => (piece_of(*letter).unwrap_or(Role::Pawn), rest),
        _ => (Role::Pawn, prefix),
    };
    let (file, rest) = split_file(prefix);
    (role, file, rest)
}

/// Splits a leading origin file, if any, off `prefix`.
#[inline]
fn split_file(prefix: &[u8]) -> (Option<File>, &[u8]) {
    match prefix {
        [byte, rest @ ..] if file_of(*byte).is_some() => (file_of(*byte), rest),
        _ => (None, prefix),
    }
}

/// Splits a final `+` or `#` off `bytes`.
#[inline(always)]
pub(crate) fn split_suffix(bytes: &[u8]) -> (&[u8], Option<Suffix>) {
    match bytes {
        [rest @ .., b'+'] => (rest, Some(Suffix::Check)),
        [rest @ .., b'#'] => (rest, Some(Suffix::Checkmate)),
        _ => (bytes, None),
    }
}

/// Writes `body` and then the suffix, if any: the display of [`SanPlus`] and of LAN with suffix.
pub(crate) fn write_with_suffix(
    f: &mut fmt::Formatter<'_>,
    body: &dyn fmt::Display,
    suffix: Option<Suffix>,
) -> fmt::Result {
    // The body is written through `{}` into the buffer, so only the whole is padded.
    display_padded(f, |w| {
        write!(w, "{body}")?;
        match suffix {
            Some(suffix) => w.write_char(suffix.char()),
            None => Ok(()),
        }
    })
}

/// The castle written `body`, in any of the usual spellings.
fn castle_of(body: &[u8]) -> Option<CastlingSide> {
    match body {
        b"O-O" | b"0-0" | b"o-o" => Some(CastlingSide::KingSide),
        b"O-O-O" | b"0-0-0" | b"o-o-o" => Some(CastlingSide::QueenSide),
        _ => None,
    }
}

/// Strips trailing annotations and suffixes from `bytes`, returning the rest and the strongest
/// suffix seen. Handles `!`, `?`, `+`, `++`, `#`, `‡` (mate), `†` (check) and `e.p.`.
fn strip_suffixes(mut bytes: &[u8]) -> (&[u8], Option<Suffix>) {
    let mut suffix = None;
    let mut raise = |s: Suffix| {
        if suffix != Some(Suffix::Checkmate) {
            suffix = Some(s);
        }
    };
    loop {
        bytes = bytes.trim_ascii_end();
        match bytes {
            [rest @ .., b'!' | b'?'] => bytes = rest,
            [rest @ .., b'+', b'+'] => {
                raise(Suffix::Checkmate);
                bytes = rest;
            }
            [rest @ .., b'+'] => {
                raise(Suffix::Check);
                bytes = rest;
            }
            [rest @ .., b'#'] | [rest @ .., 0xe2, 0x80, 0xa1] => {
                raise(Suffix::Checkmate);
                bytes = rest;
            }
            [rest @ .., 0xe2, 0x80, 0xa0] => {
                raise(Suffix::Check);
                bytes = rest;
            }
            [rest @ .., b'e', b'.', b'p', b'.'] if !rest.is_empty() => bytes = rest,
            _ => return (bytes, suffix),
        }
    }
}

impl San {
    /// A piece or pawn move without promotion.
    #[inline(always)]
    pub(crate) const fn normal(role: Role, file: Option<File>, rank: Option<Rank>, capture: bool, to: Square) -> San {
        San::Normal {
            role,
            file,
            rank,
            capture,
            to,
            promotion: None,
        }
    }

    /// The same piece or pawn move promoting to `role`.
    #[inline(always)]
    const fn promoted(self, role: Option<Role>) -> San {
        match self {
            San::Normal {
                role: mover,
                file,
                rank,
                capture,
                to,
                ..
            } => San::Normal {
                role: mover,
                file,
                rank,
                capture,
                to,
                promotion: role,
            },
            other => other,
        }
    }

    /// Parses SAN leniently from bytes, as found in real PGN files, without allocating.
    ///
    /// Accepts, besides strict SAN: castling with zeros or lower case (`0-0`, `o-o-o`), null
    /// moves `--`, `Z0`, `0000`; superfluous disambiguation; promotions `e8Q`, `e8=Q`, `e8(Q)`,
    /// `e8/Q`, `e8q`; `exd6 e.p.`; long algebraic `Ng1-f3`, `Qh4xe1`, `e2e4`, `e2-e4`, `e7e8q`;
    /// `:` or `X` as capture mark, or none at all; an explicit pawn letter `P`; trailing `!`, `?`
    /// annotations and `+`, `++`, `#`, `†`, `‡` suffixes.
    ///
    /// ```
    /// use chessbits::notation::san::{San, Suffix};
    /// use chessbits::types::{Role, Square};
    /// let parsed = San::parse_lenient(b"e8(Q)+!?").unwrap();
    /// assert_eq!(parsed.suffix, Some(Suffix::Check));
    /// assert_eq!(parsed.san.to_string(), "e8=Q");
    /// assert_eq!(San::parse_lenient(b"0-0-0").unwrap().san.to_string(), "O-O-O");
    /// assert!(San::parse_lenient(b"Nf3-").is_err());
    /// ```
    #[inline(always)]
    pub fn parse_lenient(bytes: &[u8]) -> Result<SanPlus, SanError> {
        // Fast path: the forms that make up nearly all real moves, with at most a `+` or `#`.
        let (body, suffix) = split_suffix(bytes);
        match San::parse_common(body) {
            Some(san) => Ok(SanPlus { san, suffix }),
            None => San::parse_lenient_general(bytes),
        }
    }

    /// [`San::parse_lenient`] for every form but the common ones: kept out of line so that the
    /// fast path inlines into the reader.
    #[inline(never)]
    fn parse_lenient_general(bytes: &[u8]) -> Result<SanPlus, SanError> {
        let (body, suffix) = strip_suffixes(bytes.trim_ascii_start());
        let san = match body {
            b"--" | b"Z0" | b"0000" | b"@@@@" => San::Null,
            _ => match castle_of(body) {
                Some(side) => San::Castle(side),
                None => San::parse_lenient_normal(body)?,
            },
        };
        Ok(SanPlus { san, suffix })
    }

    /// The common shapes of SAN, decided in one match: `e4`, `Nf3`, `Nxf3`, `exd5`, `O-O`,
    /// `O-O-O`; `None` for anything else (which the general parser then reads).
    #[inline(always)]
    fn parse_common(body: &[u8]) -> Option<San> {
        let (role, file, capture, to_file, to_rank) = match *body {
            [b'O', b'-', b'O'] => return Some(San::Castle(CastlingSide::KingSide)),
            [b'O', b'-', b'O', b'-', b'O'] => return Some(San::Castle(CastlingSide::QueenSide)),
            [to_file, to_rank] => (Role::Pawn, None, false, to_file, to_rank),
            [letter, to_file, to_rank] => (piece_of(letter)?, None, false, to_file, to_rank),
            [first, b'x', to_file, to_rank] => match piece_of(first) {
                Some(role) => (role, None, true, to_file, to_rank),
                None => (Role::Pawn, Some(file_of(first)?), true, to_file, to_rank),
            },
            _ => return None,
        };
        let to = Square::from_coords(file_of(to_file)?, rank_of(to_rank)?);
        Some(San::normal(role, file, None, capture, to))
    }

    /// The piece or pawn move part of [`San::parse_lenient`].
    fn parse_lenient_normal(body: &[u8]) -> Result<San, SanError> {
        // Promotion, read from the end: `(Q)`, `=Q`, `/Q`, `Q`, or lower case after a rank.
        let (body, promotion) = match body {
            [rest @ .., b'(', letter, b')'] => (rest, Some(promotion_of(*letter).ok_or(SanError::Malformed)?)),
            [rest @ .., b'=' | b'/', letter] => (rest, Some(promotion_of(*letter).ok_or(SanError::Malformed)?)),
            [rest @ .., b'1'..=b'8', letter @ (b'N' | b'B' | b'R' | b'Q' | b'n' | b'b' | b'r' | b'q')] => {
                (&body[..rest.len() + 1], promotion_of(*letter))
            }
            _ => (body, None),
        };
        let (prefix, to) = split_target(body)?;
        let (role, file, prefix) = match prefix {
            // An explicit pawn letter.
            [b'P', rest @ ..] => {
                let (file, rest) = split_file(rest);
                (Role::Pawn, file, rest)
            }
            _ => split_role_and_file(prefix),
        };
        let (rank, prefix) = match prefix {
            [byte, rest @ ..] if rank_of(*byte).is_some() => (rank_of(*byte), rest),
            _ => (None, prefix),
        };
        let capture = match prefix {
            [] | [b'-'] => false,
            [b'x' | b'X' | b':'] => true,
            _ => return Err(SanError::Malformed),
        };
        if promotion.is_some() && role != Role::Pawn {
            return Err(SanError::Malformed);
        }
        Ok(San::normal(role, file, rank, capture, to).promoted(promotion))
    }

    /// Parses strict SAN from bytes: exactly the forms [`Display`](fmt::Display) writes (and
    /// `Z0`), no suffix. Pawn moves must be well formed: a capture names the adjacent origin file,
    /// a push names none, a promotion is present exactly on the last ranks.
    ///
    /// ```
    /// use chessbits::notation::san::San;
    /// assert!(San::parse_strict(b"exd5").is_ok());
    /// assert!(San::parse_strict(b"e8Q").is_err());
    /// assert!(San::parse_strict(b"Nf3+").is_err());
    /// ```
    pub fn parse_strict(bytes: &[u8]) -> Result<San, SanError> {
        match bytes {
            b"--" | b"Z0" => return Ok(San::Null),
            b"O-O" => return Ok(San::Castle(CastlingSide::KingSide)),
            b"O-O-O" => return Ok(San::Castle(CastlingSide::QueenSide)),
            _ => {}
        }
        let (body, promotion) = match bytes {
            [rest @ .., b'=', letter @ (b'N' | b'B' | b'R' | b'Q')] => (rest, promotion_of(*letter)),
            _ => (bytes, None),
        };
        let (prefix, to) = split_target(body)?;
        let (role, file, prefix) = split_role_and_file(prefix);
        let (rank, capture) = match prefix {
            [] => (None, false),
            [b'x'] => (None, true),
            [byte] => (Some(rank_of(*byte).ok_or(SanError::Malformed)?), false),
            [byte, b'x'] => (Some(rank_of(*byte).ok_or(SanError::Malformed)?), true),
            _ => return Err(SanError::Malformed),
        };
        if role == Role::Pawn {
            let last_rank = to.rank() == Rank::FIRST || to.rank() == Rank::EIGHTH;
            let adjacent = file.is_some_and(|f| f.index().abs_diff(to.file().index()) == 1);
            if rank.is_some() || capture != file.is_some() || (capture && !adjacent) || last_rank != promotion.is_some()
            {
                return Err(SanError::Malformed);
            }
        } else if promotion.is_some() {
            return Err(SanError::Malformed);
        }
        Ok(San::normal(role, file, rank, capture, to).promoted(promotion))
    }
}

impl San {
    /// Strict SAN with an optional `+` or `#`, which is dropped: what `"Nf3+".parse::<San>()`
    /// does. ([`San::parse_strict`] refuses the mark, so that what it accepts is exactly what
    /// [`Display`](fmt::Display) writes.)
    ///
    /// ```
    /// use chessbits::notation::san::San;
    /// let san: San = "Nf3+".parse().unwrap();
    /// assert_eq!(san.to_string(), "Nf3");
    /// assert_eq!(San::parse_strict_ignoring_suffix(b"O-O#"), San::parse_strict(b"O-O"));
    /// assert!("Nf3++".parse::<San>().is_err());
    /// ```
    pub fn parse_strict_ignoring_suffix(bytes: &[u8]) -> Result<San, SanError> {
        SanPlus::parse_strict(bytes).map(|plus| plus.san)
    }
}

impl SanPlus {
    /// Parses strict SAN with an optional `+` or `#` from bytes (see [`San::parse_strict`]).
    ///
    /// ```
    /// use chessbits::notation::san::{SanPlus, Suffix};
    /// let san = SanPlus::parse_strict(b"O-O+").unwrap();
    /// assert_eq!(san.suffix, Some(Suffix::Check));
    /// ```
    pub fn parse_strict(bytes: &[u8]) -> Result<SanPlus, SanError> {
        let (body, suffix) = split_suffix(bytes);
        Ok(SanPlus {
            san: San::parse_strict(body)?,
            suffix,
        })
    }
}

/// Implements [`FromStr`] for a notation type through its parser of bytes.
macro_rules! from_str_by {
    ($type:ty, $parse:path, $doc:literal) => {
        impl FromStr for $type {
            type Err = SanError;

            #[doc = $doc]
            fn from_str(s: &str) -> Result<$type, SanError> {
                $parse(s.as_bytes())
            }
        }
    };
}
pub(crate) use from_str_by;

from_str_by!(
    San,
    San::parse_strict_ignoring_suffix,
    "Strict SAN; a check or mate mark is allowed and dropped (see [`San::parse_strict_ignoring_suffix`])."
);
from_str_by!(
    SanPlus,
    SanPlus::parse_strict,
    "Strict SAN with optional suffix, see [`SanPlus::parse_strict`]."
);

impl fmt::Display for San {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        display_padded(f, |w| self.write_to(w))
    }
}

impl San {
    /// Writes the notation (no padding: see [`display_padded`]).
    fn write_to(&self, w: &mut dyn fmt::Write) -> fmt::Result {
        match *self {
            San::Normal {
                role,
                file,
                rank,
                capture,
                to,
                promotion,
            } => {
                if role != Role::Pawn {
                    w.write_char(role.upper_char())?;
                }
                if let Some(file) = file {
                    w.write_char(file.char())?;
                }
                if let Some(rank) = rank {
                    w.write_char(rank.char())?;
                }
                if capture {
                    w.write_char('x')?;
                }
                w.write_char(to.file().char())?;
                w.write_char(to.rank().char())?;
                if let Some(role) = promotion {
                    w.write_char('=')?;
                    w.write_char(role.upper_char())?;
                }
                Ok(())
            }
            San::Castle(CastlingSide::KingSide) => w.write_str("O-O"),
            San::Castle(CastlingSide::QueenSide) => w.write_str("O-O-O"),
            San::Null => w.write_str("--"),
        }
    }
}

impl fmt::Display for SanPlus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_with_suffix(f, &self.san, self.suffix)
    }
}

#[cfg(test)]
mod tests;
