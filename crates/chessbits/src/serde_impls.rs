//! `serde` support (cargo feature `serde`, off by default) for the value types, in the forms people
//! read, as strings, in every format:
//!
//! | type | form | example |
//! |---|---|---|
//! | [`Square`] | name | `"e4"` |
//! | [`File`], [`Rank`] | letter, digit | `"e"`, `"4"` |
//! | [`Color`] | name (`"w"`/`"b"` accepted too) | `"white"` |
//! | [`Role`] | lower-case letter (either case accepted) | `"n"` |
//! | [`Piece`] | FEN letter | `"N"`, `"n"` |
//! | [`San`], [`SanPlus`] | SAN | `"Nf3"`, `"Qxf7#"` |
//! | [`UciParts`] | UCI | `"e7e8q"` |
//! | [`Position`] | FEN (X-FEN castling) | `"rnbqkbnr/... w KQkq - 0 1"` |
//! | [`Move`] | its 16 bits, a number | `796` |
//!
//! A [`Move`] is a number, not text: its 16 bits say what kind of move it is (castle, en passant,
//! promotion), which UCI text alone cannot say without the position; the bits come back exactly.
//! For text, serialize the [`SanPlus`] or [`UciParts`] of the move. A [`Position`] comes back from
//! its FEN, so a Chess960 position whose castling rights look standard comes back as standard
//! chess; it is read with `Validation::Composed`, so a composed position (material or checks no
//! game reaches) comes back too.
//!
//! ```
//! use chessbits::{Color, Piece, Position, SanPlus, Square};
//!
//! assert_eq!(serde_json::to_string(&Square::E4).unwrap(), r#""e4""#);
//! assert_eq!(serde_json::from_str::<Color>(r#""black""#).unwrap(), Color::Black);
//! let pos: Position = serde_json::from_str(r#""4k3/8/8/8/8/8/8/4K2R w K - 0 1""#).unwrap();
//! let san: SanPlus = serde_json::from_str(r#""Rh8#""#).unwrap();
//! assert_eq!(serde_json::to_string(&pos).unwrap(), r#""4k3/8/8/8/8/8/8/4K2R w K - 0 1""#);
//! assert_eq!(serde_json::to_string(&san).unwrap(), r#""Rh8#""#);
//! assert!(serde_json::from_str::<Piece>(r#""x""#).is_err());
//! ```

use core::fmt;
use core::str::FromStr;

use serde::de::{self, Deserialize, Deserializer, Unexpected, Visitor};
use serde::ser::{Serialize, Serializer};

use crate::moves::Move;
use crate::notation::san::{San, SanPlus};
use crate::notation::uci::{parse_parts, UciParts};
use crate::position::Position;
use crate::types::{Color, File, Piece, Rank, Role, Square};

/// A visitor of strings, parsed by `parse`.
struct StrVisitor<T> {
    expecting: &'static str,
    parse: fn(&str) -> Option<T>,
}

impl<T> Visitor<'_> for StrVisitor<T> {
    type Value = T;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.expecting)
    }

    fn visit_str<E: de::Error>(self, text: &str) -> Result<T, E> {
        (self.parse)(text).ok_or_else(|| E::invalid_value(Unexpected::Str(text), &self))
    }
}

/// The only character of `text`.
fn single_char(text: &str) -> Option<char> {
    let mut chars = text.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) => Some(c),
        _ => None,
    }
}

/// `Serialize` as the text `show` gives, `Deserialize` from a string by `parse`.
macro_rules! as_text {
    ($type:ty, $expecting:literal, $show:expr, $parse:expr) => {
        impl Serialize for $type {
            fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                let show: fn(&$type) -> _ = $show;
                serializer.collect_str(&show(self))
            }
        }

        impl<'de> Deserialize<'de> for $type {
            fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<$type, D::Error> {
                deserializer.deserialize_str(StrVisitor {
                    expecting: $expecting,
                    parse: $parse,
                })
            }
        }
    };
}

as_text!(Square, "a square such as \"e4\"", |sq| *sq, |t| t.parse().ok());
as_text!(File, "a file letter \"a\" to \"h\"", |f| *f, |t| File::from_char(
    single_char(t)?
));
as_text!(Rank, "a rank digit \"1\" to \"8\"", |r| *r, |t| Rank::from_char(
    single_char(t)?
));
as_text!(Color, "\"white\" or \"black\"", |c| *c, |t| match t {
    "white" | "w" => Some(Color::White),
    "black" | "b" => Some(Color::Black),
    _ => None,
});
as_text!(Role, "a role letter such as \"n\"", |r| r.char(), |t| Role::from_char(
    single_char(t)?
));
as_text!(Piece, "a FEN piece letter such as \"N\"", |p| p.char(), |t| {
    Piece::from_char(single_char(t)?)
});
as_text!(San, "a move in SAN", |san| *san, |t| San::from_str(t).ok());
as_text!(SanPlus, "a move in SAN", |san| *san, |t| SanPlus::from_str(t).ok());
as_text!(UciParts, "a move in UCI such as \"e7e8q\"", |uci| *uci, |t| {
    parse_parts(t).ok().flatten()
});
// Any position the type can hold comes back, composed ones too (`Validation::Composed`): a
// value serialized must deserialize.
as_text!(Position, "a FEN", |pos| pos.fen(), |t| {
    Position::from_fen_with(t, crate::position::Validation::Composed).ok()
});

impl Serialize for Move {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_u16(self.bits())
    }
}

impl<'de> Deserialize<'de> for Move {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Move, D::Error> {
        let bits = u16::deserialize(deserializer)?;
        Move::from_bits(bits)
            .ok_or_else(|| de::Error::invalid_value(Unexpected::Unsigned(bits.into()), &"the 16 bits of a move"))
    }
}
