//! Entropy-coded games: every move is range-coded with the probability a tuned model gives it among
//! the legal moves of its position. On the shared games it takes about 3.2 bits per move on lichess
//! games and 3.3 on master games (held-out halves), against 4.5 and 4.7 for the
//! [lichess scheme](super::lichess) and 5.1 to 5.3 for a plain index into the legal move list.
//!
//! ```
//! use chessbits::codec::moves::entropy::{decode_game, encode_game};
//! use chessbits::notation::uci::parse_uci;
//! use chessbits::position::Position;
//! let start = Position::startpos();
//! let mut pos = start.clone();
//! let mut moves = Vec::new();
//! for uci in ["e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6", "b5a4", "g8f6", "e1g1"] {
//!     let m = parse_uci(&pos, uci).unwrap();
//!     pos.play_unchecked(m);
//!     moves.push(m);
//! }
//! let bytes = encode_game(&start, &moves).unwrap();
//! assert!(bytes.len() <= 3, "{} bytes for 9 plies", bytes.len());
//! // The number of plies is not stored in the bytes: the caller keeps it.
//! assert_eq!(decode_game(&start, &bytes, moves.len()).unwrap(), moves);
//! ```
//!
//! # Format
//!
//! A game is the byte string of the [range coder](crate::codec::range_coder) after coding one symbol per ply;
//! nothing else (no header, no length: the ply count is kept outside, e.g. in a container next to
//! the bytes, so no end-of-game symbol costs bits on every move). A game of no plies, or of forced
//! moves only, is zero bytes. For each ply, from the start position:
//!
//! 1. the legal moves in [`Position::legal_moves`] order;
//! 2. their frequencies from [`model::MoveModel::frequencies`] (integers ≥ 1, total ≤ 2^16);
//! 3. the played move is coded as the symbol `[cum, cum + freq)` of that total, `cum` being the sum
//!    of the frequencies of the moves before it in the list;
//! 4. the model observes the move ([`model::MoveModel::observe`]) and it is made.
//!
//! The decoder repeats the same steps, finding the move whose interval holds the decoded target.
//!
//! # What decoding detects
//!
//! The code stores no length: the decoder trusts the ply count it is given and checks that the
//! bytes are exactly what the encoder writes for that many moves (the decoder is canonical: a
//! game that decodes re-encodes to the same bytes). Every other byte string is an error:
//!
//! - a decode that needs bytes past the end of the code beyond the zero bytes the encoder's
//!   final flush leaves out (the decoder's window is four bytes and the flush writes at most
//!   one, so three or four), is [`EntropyError::Truncated`]: it would be decoding nothing;
//! - a code that ends otherwise than the encoder ends it after the last move (a byte left over
//!   or missing, a last byte no flush writes) is [`EntropyError::NonCanonical`];
//! - a target past the last move's interval is [`EntropyError::Corrupt`], a ply asked for after
//!   the game is over [`EntropyError::NoLegalMove`].
//!
//! What no decoder can detect is bytes that are the code of *another* game of the asked length,
//! and a cut code or a ply count too high is often exactly that. The flush writes the shortest
//! tail that identifies the final interval, so the bytes leave up to about a byte's worth of
//! that interval unused: the game with one more move, the one whose interval holds the flushed
//! value, usually has the same code; and a code without its last byte is a rounder value, often
//! the flushed value of a game that differs in its last moves. `tests/entropy_robustness.rs` measures it on the
//! bundled games (420): of the codes cut by one byte 63% decode (to another game), of those
//! cut by more 0.5%, and decoded with one or two plies too many 90% and 80%; random games do
//! no better. Those all re-encode to exactly the bytes given; every other case is an error. So
//! the ply count must come from where the code is kept (a column, a block's header), and a
//! container that must catch damage keeps a checksum next to the bytes, as the archive's
//! blocks do (CRC-32).
//!
//! # The model
//!
//! A move's score is a sum of integer parameters (units of 1/16 bit, tuned offline, see below),
//! one per feature the move switches on; the score becomes a frequency through an exponential
//! (`2^(score in bits)`, integer formulas in [`model`]). Parameters are looked up in tables whose
//! layout is [`model::layout`]. All squares are relative to the mover (White's square index, XOR 56
//! for Black). Attacks are those of the current position; a slider's attacks stop at the first
//! piece; "cheaper" means by piece value P < N = B < R < Q.
//!
//! Prepared once per position:
//!
//! - phase `p = (min(24, N + B + 2R + 4Q) · 16 + 12) / 24` (all pieces of both sides, integer
//!   division), from 0 (no pieces) to 16 (all);
//! - their attack map (squares attacked at least once, at least twice), their pawn captures, their
//!   knight and bishop attacks (*minor*), their rook attacks; our attack map (once, twice);
//! - *threatened*: our non-king pieces that are a non-pawn attacked by a pawn, a rook or queen
//!   attacked by a minor piece, a queen attacked by a rook, or attacked and not defended;
//! - *attacked by last*: our pieces the piece on the opponent's last target square attacks;
//! - *check squares* per role: where that piece of ours would attack their king (none for a king);
//! - *discoverers*: our pieces that are the only piece between one of our sliders and their king;
//! - *targets* per role: their pieces worth attacking: for a pawn any piece but pawns and the king,
//!   for a knight or bishop rooks and queens, for a rook queens, plus for every role (but the king,
//!   who has none) their pieces other than the king that they do not defend; and per role the
//!   *threat squares*, from which that piece of ours would attack one of its targets (the targets'
//!   own attacks reversed: pawn captures, knight jumps, slider lines through the current board).
//!
//! Features of a move (table, index):
//!
//! - castling: `PST_FROM[king][from]`, `PST_TO[king][king's destination]` and `CASTLE[side]` only;
//! - `PST_FROM[role][from]` and `PST_TO[role][to]`, *tapered*: the pair `(mg, eg)` counts
//!   `(p · mg + (16 − p) · eg) / 16`; a promotion counts as a pawn move;
//! - `OPENING[bucket][from or to][role][square]` while the full-move number is at most 20 (buckets:
//!   moves 1 to 8 each, 9-10, 11-12, 13-15, 16-20);
//! - `MOVER[role][mover attacked by last][mover is the piece we moved last]`;
//! - `NEAR_LAST_FROM[d]` and `NEAR_LAST_TO[role][capture][last move was a capture][d]`, `d` the king
//!   distance from the square left, resp. reached, to the opponent's last target (none on the
//!   first ply); a recapture is `d = 0`;
//! - `TACTICS[role][victim][danger][mover threatened][flag]`: victim 0 for no capture, else 1 + the
//!   captured role (pawn 1 .. queen 5; en passant is a pawn); danger of the target square: 0 not
//!   attacked by them, 5 attacked by a pawn, 4 attacked by a cheaper piece (a minor piece for a rook
//!   or queen, a rook for a queen), 3 not defended by another of our pieces, 2 attacked twice and
//!   defended, 1 attacked once and defended, where *defended* means attacked by us twice if the mover
//!   attacks its target (every move but a pawn push), else once; flag: for the king, whether we may
//!   still castle, else whether the arriving piece (the promoted one) checks directly;
//! - `DISCOVERED_CHECK` if the mover is a discoverer leaving the line to their king;
//! - `PROMOTION[knight, bishop, rook, queen]`;
//! - `THREAT[role]` if the target square is a threat square of the mover's role and the square left
//!   is not;
//! - `HISTORY[times this side played this from-to in the game, capped at 2][the move undoes our
//!   last move]`.
//!
//! # Speed
//!
//! Scoring every legal move (a dozen table lookups each, after attack maps built once per position
//! with shift-and-mask fills) costs about four times the legal move generation itself: on the
//! development machine about 1 M plies per second per core, encoding or decoding
//! (`benches/move_code_bits.rs` measures it), where generating and making the moves alone runs at
//! about 5 M. Encoder and decoder reuse their buffers ([`GameEncoder`], [`GameDecoder`]); nothing is
//! allocated per move.
//!
//! # Sampling
//!
//! The model is also a generator of games: [`sample::Sampler`] draws each move with the
//! probability its code gives it (`freq / total`), from a seeded [`sample::SplitMix64`]
//! (`chessbits synth` writes lichess-like PGN collections of any size that way). Games so drawn
//! cost the model's entropy, about 3.3 bits a move, as real ones do.
//!
//! # Tuning
//!
//! The parameters were fitted by `tests/entropy_tune.rs` (an ignored test) on the *odd-numbered*
//! games (1st, 3rd, ...) of each shared PGN file: a softmax over the legal moves fitted by
//! minibatch Adam on the mean code length with a small L2 penalty, in floating point, then rounded
//! to 1/16 bit. The even-numbered games are the held-out half the figures above come from.

mod features;
pub mod model;
mod params;
pub mod sample;

use core::fmt;

use crate::moves::Move;
use crate::position::Position;

use crate::codec::range_coder::{RangeDecoder, RangeEncoder, RangeError};
use model::MoveModel;

/// Why a game cannot be encoded or decoded.
///
/// ```
/// use chessbits::codec::moves::entropy::{decode_game, EntropyError};
/// use chessbits::position::Position;
/// // Stalemate: no move to decode.
/// let pos = Position::from_fen("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1").unwrap();
/// assert_eq!(decode_game(&pos, &[], 1), Err(EntropyError::NoLegalMove { ply: 0 }));
/// assert_eq!(EntropyError::NonCanonical.to_string(), "entropy-coded game does not end where its moves end");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum EntropyError {
    /// Encoding: the move at `ply` (0-based) is not legal in its position.
    IllegalMove {
        /// Index of the move in the game.
        ply: usize,
        /// The move.
        mv: Move,
    },
    /// Decoding: the game has no legal move at `ply` but more plies were asked for.
    NoLegalMove {
        /// Index of the missing move.
        ply: usize,
    },
    /// Decoding: the bytes do not select a move at `ply`.
    Corrupt {
        /// Index of the move being decoded.
        ply: usize,
    },
    /// Decoding: the bytes end before move `ply` is complete.
    Truncated {
        /// Index of the move being decoded.
        ply: usize,
    },
    /// Decoding: all moves decoded, but the bytes do not end where the encoder ends them (bytes
    /// missing, left over, or a tail no encoder writes).
    NonCanonical,
}

impl fmt::Display for EntropyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EntropyError::IllegalMove { ply, mv } => write!(f, "move {mv} at ply {ply} is not legal"),
            EntropyError::NoLegalMove { ply } => write!(f, "no legal move at ply {ply}: the game is over"),
            EntropyError::Corrupt { ply } => write!(f, "corrupt entropy-coded move at ply {ply}"),
            EntropyError::Truncated { ply } => write!(f, "entropy-coded game ends before ply {ply}"),
            EntropyError::NonCanonical => f.write_str("entropy-coded game does not end where its moves end"),
        }
    }
}

impl std::error::Error for EntropyError {}

fn at_ply(ply: usize) -> impl Fn(RangeError) -> EntropyError {
    move |e| match e {
        RangeError::Corrupt => EntropyError::Corrupt { ply },
        RangeError::Truncated => EntropyError::Truncated { ply },
        RangeError::NonCanonical => EntropyError::NonCanonical,
    }
}

/// Encodes games; reuses its buffers from game to game.
///
/// ```
/// use chessbits::codec::moves::entropy::{GameDecoder, GameEncoder};
/// use chessbits::notation::uci::parse_uci;
/// use chessbits::position::Position;
/// let start = Position::startpos();
/// let mut pos = start.clone();
/// let mut moves = Vec::new();
/// for uci in ["e2e4", "e7e5", "g1f3", "b8c6"] {
///     let m = parse_uci(&pos, uci).unwrap();
///     pos.play_unchecked(m);
///     moves.push(m);
/// }
/// let mut bytes = Vec::new();
/// GameEncoder::new().encode_into(&start, &moves, &mut bytes).unwrap();
/// let mut decoded = Vec::new();
/// GameDecoder::new().decode_into(&start, &bytes, moves.len(), &mut decoded).unwrap();
/// assert_eq!(decoded, moves);
/// ```
pub struct GameEncoder {
    model: MoveModel,
}

impl Default for GameEncoder {
    fn default() -> GameEncoder {
        GameEncoder::new()
    }
}

impl GameEncoder {
    /// A new encoder.
    ///
    /// ```
    /// use chessbits::codec::moves::entropy::GameEncoder;
    /// use chessbits::position::Position;
    /// let mut out = Vec::new();
    /// GameEncoder::new().encode_into(&Position::startpos(), &[], &mut out).unwrap();
    /// assert!(out.is_empty());
    /// ```
    pub fn new() -> GameEncoder {
        GameEncoder {
            model: MoveModel::new(),
        }
    }

    /// Appends the code of `moves`, played from `start`, to `out`. The number of moves is not
    /// stored: the decoder must be told it. On error `out` is left as it was.
    ///
    /// ```
    /// use chessbits::codec::moves::entropy::GameEncoder;
    /// use chessbits::notation::uci::parse_uci;
    /// use chessbits::position::Position;
    /// let start = Position::startpos();
    /// let e4 = parse_uci(&start, "e2e4").unwrap();
    /// let mut out = vec![0xAB];
    /// GameEncoder::new().encode_into(&start, &[e4], &mut out).unwrap();
    /// assert_eq!(out[0], 0xAB, "appends after what is there");
    /// assert!(out.len() <= 2);
    /// ```
    pub fn encode_into(&mut self, start: &Position, moves: &[Move], out: &mut Vec<u8>) -> Result<(), EntropyError> {
        let original_len = out.len();
        let result = self.encode_moves(start, moves, out);
        if result.is_err() {
            out.truncate(original_len);
        }
        result
    }

    fn encode_moves(&mut self, start: &Position, moves: &[Move], out: &mut Vec<u8>) -> Result<(), EntropyError> {
        self.model.reset();
        let mut pos = start.clone();
        let mut enc = RangeEncoder::new(out);
        for (ply, &m) in moves.iter().enumerate() {
            let (cum, freq, total) = self
                .model
                .symbol_of(&pos, m)
                .ok_or(EntropyError::IllegalMove { ply, mv: m })?;
            enc.encode(cum, freq, total);
            self.model.observe(&pos, m);
            pos.play_unchecked(m);
        }
        enc.finish();
        Ok(())
    }
}

/// Decodes games; reuses its buffers from game to game.
///
/// ```
/// use chessbits::codec::moves::entropy::{EntropyError, GameDecoder};
/// use chessbits::position::Position;
/// let mut moves = Vec::new();
/// let err = GameDecoder::new().decode_into(&Position::startpos(), &[0xff, 0x00], 3, &mut moves);
/// assert!(err.is_err());
/// ```
pub struct GameDecoder {
    model: MoveModel,
}

impl Default for GameDecoder {
    fn default() -> GameDecoder {
        GameDecoder::new()
    }
}

impl GameDecoder {
    /// A new decoder.
    ///
    /// ```
    /// use chessbits::codec::moves::entropy::GameDecoder;
    /// use chessbits::position::Position;
    /// let mut moves = Vec::new();
    /// GameDecoder::new().decode_into(&Position::startpos(), &[], 0, &mut moves).unwrap();
    /// assert!(moves.is_empty());
    /// ```
    pub fn new() -> GameDecoder {
        GameDecoder {
            model: MoveModel::new(),
        }
    }

    /// Decodes `ply_count` moves played from `start` out of `bytes`, appending them to `out`. On
    /// error the moves decoded before it stay in `out`. Work is proportional to `ply_count` at
    /// most: decoding stops at the first move the bytes cannot give.
    ///
    /// ```
    /// use chessbits::codec::moves::entropy::{encode_game, GameDecoder};
    /// use chessbits::notation::uci::parse_uci;
    /// use chessbits::position::Position;
    /// let start = Position::startpos();
    /// let d4 = parse_uci(&start, "d2d4").unwrap();
    /// let bytes = encode_game(&start, &[d4]).unwrap();
    /// let mut moves = Vec::new();
    /// GameDecoder::new().decode_into(&start, &bytes, 1, &mut moves).unwrap();
    /// assert_eq!(moves, [d4]);
    /// ```
    pub fn decode_into(
        &mut self,
        start: &Position,
        bytes: &[u8],
        ply_count: usize,
        out: &mut Vec<Move>,
    ) -> Result<(), EntropyError> {
        self.model.reset();
        let mut pos = start.clone();
        let mut dec = RangeDecoder::new(bytes);
        for ply in 0..ply_count {
            let total = self.model.prepare(&pos);
            if total == 0 {
                return Err(EntropyError::NoLegalMove { ply });
            }
            let target = dec.target(total).map_err(at_ply(ply))?;
            let (m, cum, freq) = self.model.find(target).ok_or(EntropyError::Corrupt { ply })?;
            dec.consume(cum, freq).map_err(at_ply(ply))?;
            self.model.observe(&pos, m);
            pos.play_unchecked(m);
            out.push(m);
        }
        dec.finish().map_err(at_ply(ply_count))
    }
}

/// Encodes the moves of a game played from `start`; the number of moves is not stored.
///
/// ```
/// use chessbits::codec::moves::entropy::{decode_game, encode_game};
/// use chessbits::notation::uci::parse_uci;
/// use chessbits::position::Position;
/// let start = Position::startpos();
/// let mut pos = start.clone();
/// let mut moves = Vec::new();
/// for uci in ["d2d4", "d7d5", "c2c4", "e7e6", "b1c3", "g8f6"] {
///     let m = parse_uci(&pos, uci).unwrap();
///     pos.play_unchecked(m);
///     moves.push(m);
/// }
/// let bytes = encode_game(&start, &moves).unwrap();
/// assert!(bytes.len() <= 3);
/// assert_eq!(decode_game(&start, &bytes, moves.len()).unwrap(), moves);
/// ```
pub fn encode_game(start: &Position, moves: &[Move]) -> Result<Vec<u8>, EntropyError> {
    let mut out = Vec::new();
    GameEncoder::new().encode_into(start, moves, &mut out)?;
    Ok(out)
}

/// Decodes `ply_count` moves of a game played from `start`.
///
/// ```
/// use chessbits::codec::moves::entropy::{decode_game, EntropyError};
/// use chessbits::position::Position;
/// let start = Position::startpos();
/// assert_eq!(decode_game(&start, &[], 0), Ok(vec![]));
/// assert_eq!(decode_game(&start, &[7], 0), Err(EntropyError::NonCanonical));
/// ```
pub fn decode_game(start: &Position, bytes: &[u8], ply_count: usize) -> Result<Vec<Move>, EntropyError> {
    let mut out = Vec::with_capacity(ply_count.min(1024));
    GameDecoder::new().decode_into(start, bytes, ply_count, &mut out)?;
    Ok(out)
}
