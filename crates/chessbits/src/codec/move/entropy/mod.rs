//! Entropy-coded games: every move is range-coded with the probability a tuned model gives it among
//! the legal moves of its position.
//!
//! (Format details are in this module's docs below; they are precise enough to reimplement.)

mod features;
pub mod model;
mod params;
pub mod range_coder;

use core::fmt;

use crate::lists::MoveList;
use crate::moves::Move;
use crate::position::Position;

use model::MoveModel;
use range_coder::{RangeDecoder, RangeEncoder, RangeError};

/// Why a game cannot be encoded or decoded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
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
/// use chessbits::codec::r#move::entropy::{GameDecoder, GameEncoder};
/// use chessbits::notation::uci::parse_uci;
/// use chessbits::position::Position;
/// let start = Position::startpos();
/// let mut pos = start.clone();
/// let mut moves = Vec::new();
/// for uci in ["e2e4", "e7e5", "g1f3", "b8c6"] {
///     let m = parse_uci(&pos, uci).unwrap();
///     pos.make_move(m);
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
    list: MoveList,
}

impl Default for GameEncoder {
    fn default() -> GameEncoder {
        GameEncoder::new()
    }
}

impl GameEncoder {
    /// A new encoder.
    pub fn new() -> GameEncoder {
        GameEncoder {
            model: MoveModel::new(),
            list: MoveList::new(),
        }
    }

    /// Appends the code of `moves`, played from `start`, to `out`. The number of moves is not
    /// stored: the decoder must be told it. On error `out` is left as it was.
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
            pos.legal_moves(&mut self.list);
            let index = self
                .list
                .iter()
                .position(|&legal| legal == m)
                .ok_or(EntropyError::IllegalMove { ply, mv: m })?;
            let (freqs, total) = self.model.frequencies(&pos, &self.list);
            let cum: u32 = freqs.iter().take(index).sum();
            let freq = freqs.get(index).copied().unwrap_or(1);
            enc.encode(cum, freq, total);
            self.model.observe(&pos, m);
            pos.make_move(m);
        }
        enc.finish();
        Ok(())
    }
}

/// Decodes games; reuses its buffers from game to game.
///
/// ```
/// use chessbits::codec::r#move::entropy::{EntropyError, GameDecoder};
/// use chessbits::position::Position;
/// let mut moves = Vec::new();
/// let err = GameDecoder::new().decode_into(&Position::startpos(), &[0xff, 0x00], 3, &mut moves);
/// assert!(err.is_err());
/// ```
pub struct GameDecoder {
    model: MoveModel,
    list: MoveList,
}

impl Default for GameDecoder {
    fn default() -> GameDecoder {
        GameDecoder::new()
    }
}

impl GameDecoder {
    /// A new decoder.
    pub fn new() -> GameDecoder {
        GameDecoder {
            model: MoveModel::new(),
            list: MoveList::new(),
        }
    }

    /// Decodes `ply_count` moves played from `start` out of `bytes`, appending them to `out`. On
    /// error the moves decoded before it stay in `out`. Work is proportional to `ply_count` at
    /// most: decoding stops at the first move the bytes cannot give.
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
            pos.legal_moves(&mut self.list);
            if self.list.is_empty() {
                return Err(EntropyError::NoLegalMove { ply });
            }
            let (freqs, total) = self.model.frequencies(&pos, &self.list);
            let target = dec.target(total).map_err(at_ply(ply))?;
            let mut cum = 0;
            let mut chosen = None;
            for (i, &f) in freqs.iter().enumerate() {
                if target < cum + f {
                    chosen = Some((i, f));
                    break;
                }
                cum += f;
            }
            let (index, freq) = chosen.ok_or(EntropyError::Corrupt { ply })?;
            dec.consume(cum, freq).map_err(at_ply(ply))?;
            let m = self.list.get(index).copied().ok_or(EntropyError::Corrupt { ply })?;
            self.model.observe(&pos, m);
            pos.make_move(m);
            out.push(m);
        }
        dec.finish().map_err(at_ply(ply_count))
    }
}

/// Encodes the moves of a game played from `start`; the number of moves is not stored.
///
/// ```
/// use chessbits::codec::r#move::entropy::{decode_game, encode_game};
/// use chessbits::notation::uci::parse_uci;
/// use chessbits::position::Position;
/// let start = Position::startpos();
/// let mut pos = start.clone();
/// let mut moves = Vec::new();
/// for uci in ["d2d4", "d7d5", "c2c4", "e7e6", "b1c3", "g8f6"] {
///     let m = parse_uci(&pos, uci).unwrap();
///     pos.make_move(m);
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
/// use chessbits::codec::r#move::entropy::{decode_game, EntropyError};
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
