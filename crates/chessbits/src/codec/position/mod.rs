//! Position codes: a [`Setup`] as a short string of bits, and back.
//!
//! Five codes, from the simplest to the smallest, all behind one trait, [`PositionCodec`]:
//!
//! | code | module | idea | start position | bound (game positions) | average: lichess / masters |
//! |---|---|---|---|---|---|
//! | `stream` | [`stream`] | 4-bit piece codes, 4-bit codes for runs of empty squares | 160 bits | 272 bits (34 bytes) | 173.5 / 173.6 bits |
//! | `huffman` | [`huffman`] | the seed's prefix code, an empty square in 1 bit | 176 bits | 204 bits | 140.9 / 137.9 bits |
//! | `huffman-multi` | [`huffman_multi`] | the seed's multi-table code: a category of home rooks implies them, castling and kings | 146 bits | 203 bits | 130.8 / 131.2 bits |
//! | `huffman-tuned` | [`huffman_tuned`] | kings and castling apart, runs, implied colors | 139 bits | 190 bits (24 bytes) | 135.4 / 134.1 bits |
//! | `compact` | [`compact`] | range code with a model trained on real games | 34 bits | 201 bits | 76.6 / 78.1 bits |
//!
//! The averages are over every position of the shared games (28,976 positions of the lichess file,
//! 449,137 of the three master files), counting the bits of the code without byte padding; the
//! compact code's model was trained on the master files only, so the lichess figure is for unseen
//! games. For comparison, lichess's binary FEN (64 occupancy bits and 4 bits a piece, clocks
//! apart) takes 157 bits on the lichess games and 154 on the master games. The largest codes met
//! there: 236, 178, 176, 172 and 193 bits.
//!
//! Each module documents its exact bit layout, which setups it accepts and its worst case.
//!
//! # What is preserved
//!
//! Every code stores the board, the side to move, the castling rights, the en passant square and the
//! halfmove clock, and gives them back exactly. **No code stores the fullmove number**: it is not
//! part of the position (the seed's list of what a position needs leaves it out) and would cost about
//! seven bits; decoding always yields `fullmove_number == 1`. So for every setup `s` a code accepts,
//! `decode(&encode(&s)?)? == Setup { fullmove_number: 1, ..s }`.
//!
//! A code refuses (with [`PositionCodeError::Unsupported`]) the setups it cannot represent, e.g.
//! Chess960 castling rights in the `stream`, `huffman` and `huffman-tuned` codes. Every setup of a
//! legal standard chess position (as [`Position::to_setup`](crate::position::Position::to_setup)
//! gives them) is accepted by all five; `huffman-multi` and `compact` accept Chess960 positions too.
//!
//! # Canonical decoding
//!
//! Decoders are strict: they accept only what the encoder writes, byte for byte, so that
//! `decode(bytes) == Ok(s)` implies `encode(&s) == Ok(bytes)`. Garbage, truncated or padded input
//! gives a typed error (or, rarely, a different valid setup), never a panic. The strictness is
//! obtained the simple way: after parsing, the decoder encodes what it found and compares.
//!
//! # Bits and bytes
//!
//! [`PositionCodec::encoded_bits`] is the length of the code itself, the number the worst-case
//! bounds are about. [`PositionCodec::encode`] adds what is needed to make it bytes: zero padding
//! up to a whole byte, and for `huffman` and `huffman-multi` a final 1 bit first (their decoders must know exactly where
//! the bits end).
//!
//! ```
//! use chessbits::codec::position::{self, PositionCodec};
//! use chessbits::position::Setup;
//!
//! let start = Setup::standard();
//! for codec in position::all() {
//!     let bytes = codec.encode(&start).unwrap();
//!     assert_eq!(codec.decode(&bytes).unwrap(), start);
//!     assert!(codec.encoded_bits(&start).unwrap() <= 8 * bytes.len() as u64);
//! }
//! ```

use core::fmt;

use crate::codec::bits::{BitReader, BitWriter, EndOfInput};
use crate::codec::range_coder::RangeError;
use crate::position::{Board, Setup};
use crate::types::{CastlingRights, Color};

pub mod compact;
mod compact_model;
pub mod huffman;
mod huffman_board;
pub mod huffman_multi;
pub mod huffman_tuned;
mod kings;
pub mod stream;

pub use compact::Compact;
pub use huffman::Huffman;
pub use huffman_multi::HuffmanMulti;
pub use huffman_tuned::HuffmanTuned;
pub use stream::Stream;

/// Why a setup cannot be encoded, or bytes cannot be decoded.
///
/// ```
/// use chessbits::codec::position::{stream, PositionCodeError};
/// assert_eq!(stream::decode(&[]), Err(PositionCodeError::Truncated));
/// assert_eq!(PositionCodeError::Truncated.to_string(), "the code ends too early");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum PositionCodeError {
    /// The setup is outside what this code can represent; the text says what.
    Unsupported(&'static str),
    /// The bytes end before the code does.
    Truncated,
    /// The bytes are not a code this decoder's encoder writes; the text says what is wrong.
    Invalid(&'static str),
}

impl fmt::Display for PositionCodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionCodeError::Unsupported(why) => write!(f, "cannot encode this setup: {why}"),
            PositionCodeError::Truncated => f.write_str("the code ends too early"),
            PositionCodeError::Invalid(why) => write!(f, "invalid code: {why}"),
        }
    }
}

impl std::error::Error for PositionCodeError {}

impl From<EndOfInput> for PositionCodeError {
    fn from(_: EndOfInput) -> PositionCodeError {
        PositionCodeError::Truncated
    }
}

/// The compact code's range decoder's complaints.
impl From<RangeError> for PositionCodeError {
    fn from(error: RangeError) -> PositionCodeError {
        match error {
            RangeError::Truncated => PositionCodeError::Truncated,
            RangeError::NonCanonical => PositionCodeError::Invalid("range code does not end where its symbols end"),
            _ => PositionCodeError::Invalid("corrupt range code"),
        }
    }
}

/// A position code: a name, an encoder and a strict decoder.
///
/// ```
/// use chessbits::codec::position::{Compact, PositionCodec};
/// use chessbits::position::Setup;
/// let bytes = Compact.encode(&Setup::standard()).unwrap();
/// assert_eq!(bytes.len(), 5);
/// assert_eq!(Compact.decode(&bytes).unwrap(), Setup::standard());
/// assert_eq!(Compact.name(), "compact");
/// ```
pub trait PositionCodec {
    /// A short name, as the CLI shows it.
    fn name(&self) -> &'static str;

    /// One line saying what the code does.
    fn description(&self) -> &'static str;

    /// The code of `setup` as bytes (see the module documentation for the padding).
    fn encode(&self, setup: &Setup) -> Result<Vec<u8>, PositionCodeError>;

    /// The length of the code of `setup` in bits, without byte padding.
    fn encoded_bits(&self, setup: &Setup) -> Result<u64, PositionCodeError>;

    /// The setup these bytes encode, with `fullmove_number` 1.
    fn decode(&self, bytes: &[u8]) -> Result<Setup, PositionCodeError>;
}

/// The five codes, simplest first: for tools that compare them.
///
/// ```
/// let names: Vec<_> = chessbits::codec::position::all().iter().map(|c| c.name()).collect();
/// assert_eq!(names, ["stream", "huffman", "huffman-multi", "huffman-tuned", "compact"]);
/// ```
pub fn all() -> [&'static dyn PositionCodec; 5] {
    [&Stream, &Huffman, &HuffmanMulti, &HuffmanTuned, &Compact]
}

/// The halfmove clock in the seed's 7 bits: 0 to 126 as they are, 127 followed by the clock in 32
/// bits for larger ones (a game can run past the 50-move rule, which must be claimed).
fn write_clock7(w: &mut BitWriter, clock: u32) {
    if clock < 127 {
        w.write(u64::from(clock), 7);
    } else {
        w.write(127, 7);
        w.write(u64::from(clock), 32);
    }
}

fn read_clock7(r: &mut BitReader<'_>) -> Result<u32, PositionCodeError> {
    let short = r.read(7)?;
    if short < 127 {
        Ok(short as u32)
    } else {
        Ok(r.read(32)? as u32)
    }
}

/// A decoded setup before its board and rights are filled in: empty board, no castling rights,
/// no en passant square, fullmove number 1 (no code stores it).
fn decoded_setup(turn: Color, halfmove_clock: u32) -> Setup {
    Setup {
        board: Board::empty(),
        turn,
        castling: CastlingRights::NONE,
        ep_square: None,
        halfmove_clock,
        fullmove_number: 1,
    }
}

/// The side to move from its bit (0 White, 1 Black), as every code stores it.
fn read_turn(r: &mut BitReader<'_>) -> Result<Color, PositionCodeError> {
    Ok(if r.read_bit()? { Color::Black } else { Color::White })
}

/// Implements [`PositionCodec`] for a code's unit struct by delegating to the `encode`,
/// `encoded_bits` and `decode` functions of the module the macro is used in.
macro_rules! impl_position_codec {
    ($codec:ty, $name:literal, $description:literal) => {
        impl $crate::codec::position::PositionCodec for $codec {
            fn name(&self) -> &'static str {
                $name
            }

            fn description(&self) -> &'static str {
                $description
            }

            fn encode(
                &self,
                setup: &$crate::position::Setup,
            ) -> Result<Vec<u8>, $crate::codec::position::PositionCodeError> {
                encode(setup)
            }

            fn encoded_bits(
                &self,
                setup: &$crate::position::Setup,
            ) -> Result<u64, $crate::codec::position::PositionCodeError> {
                encoded_bits(setup)
            }

            fn decode(
                &self,
                bytes: &[u8],
            ) -> Result<$crate::position::Setup, $crate::codec::position::PositionCodeError> {
                decode(bytes)
            }
        }
    };
}
use impl_position_codec;

/// How a code's bits become bytes, and which bits of the bytes its reader sees.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Framing {
    /// Zero bits up to a whole byte; the reader sees every bit, padding included (the code itself
    /// tells where it ends).
    Padded,
    /// A 1 bit, the end marker, then zero bits up to a whole byte; the reader sees exactly the bits
    /// before the marker.
    EndMarker,
}

impl Framing {
    fn bytes(self, w: BitWriter) -> Vec<u8> {
        match self {
            Framing::Padded => w.finish(),
            Framing::EndMarker => w.finish_with_end_marker(),
        }
    }

    fn reader(self, bytes: &[u8]) -> Result<BitReader<'_>, PositionCodeError> {
        match self {
            Framing::Padded => Ok(BitReader::new(bytes)),
            Framing::EndMarker => {
                BitReader::before_end_marker(bytes).ok_or(PositionCodeError::Invalid("no end marker"))
            }
        }
    }
}

/// The public `encode`, `encoded_bits` and `decode` functions of a code module whose private
/// `write(&Setup) -> Result<BitWriter, _>` and `read(&mut BitReader) -> Result<Setup, _>` do the
/// work: the bits framed as bytes, and a strict decoder (see [`ensure_canonical`]). Each function
/// takes the documentation written before its name.
macro_rules! code_functions {
    (
        framing: $framing:expr,
        $(#[$encode_doc:meta])* encode;
        $(#[$bits_doc:meta])* encoded_bits;
        $(#[$decode_doc:meta])* decode;
    ) => {
        $(#[$encode_doc])*
        pub fn encode(setup: &Setup) -> Result<Vec<u8>, PositionCodeError> {
            Ok($framing.bytes(write(setup)?))
        }

        $(#[$bits_doc])*
        pub fn encoded_bits(setup: &Setup) -> Result<u64, PositionCodeError> {
            Ok(write(setup)?.bit_len())
        }

        $(#[$decode_doc])*
        pub fn decode(bytes: &[u8]) -> Result<Setup, PositionCodeError> {
            let setup = read(&mut $framing.reader(bytes)?)?;
            $crate::codec::position::ensure_canonical(bytes, setup, encode)
        }
    };
}
use code_functions;

/// Checks that `bytes` are exactly what the encoder writes for the `decoded` setup: the one check
/// that makes every decoder strict (see the module documentation).
fn ensure_canonical(
    bytes: &[u8],
    decoded: Setup,
    encode: impl Fn(&Setup) -> Result<Vec<u8>, PositionCodeError>,
) -> Result<Setup, PositionCodeError> {
    match encode(&decoded) {
        Ok(again) if again == bytes => Ok(decoded),
        Ok(_) => Err(PositionCodeError::Invalid(
            "not the canonical code of the position it describes",
        )),
        Err(PositionCodeError::Unsupported(why)) => Err(PositionCodeError::Invalid(why)),
        Err(other) => Err(other),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clock_round_trips_small_and_large() {
        for clock in [0, 1, 99, 100, 126, 127, 150, 1000, u32::MAX] {
            let mut w = BitWriter::new();
            write_clock7(&mut w, clock);
            assert_eq!(w.bit_len(), if clock < 127 { 7 } else { 39 });
            let bytes = w.finish();
            assert_eq!(read_clock7(&mut BitReader::new(&bytes)), Ok(clock));
        }
    }
}
