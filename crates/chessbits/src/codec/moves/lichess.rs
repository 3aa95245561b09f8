//! The lichess scheme, as a baseline for the [entropy coder](super::entropy): the legal moves are
//! sorted by a fixed heuristic and the rank of the played move is written with a fixed Huffman code.
//!
//! This follows the description of lichess's game compression (lichess-org/compression); the code
//! and the Huffman table here are our own (the table is fitted to the training half of the shared
//! games, see `tests/entropy_tune.rs`).
//!
//! # Ranking
//!
//! Every legal move gets a 32-bit key and the moves are sorted by descending key (keys are unique
//! because they end with the squares). From the most significant bits down:
//!
//! | bits  | value |
//! |-------|-------|
//! | 26-28 | promotion role index (knight 1 .. queen 4), 0 without promotion |
//! | 25    | capture (en passant included) |
//! | 22-24 | 6 if no enemy pawn attacks the target square, else `5 − role index` (pawn 0 .. king 5) |
//! | 12-21 | `512 + PST[role][to] − PST[role][from]` |
//! | 6-11  | target square index (a1 = 0; the rook's square for castling) |
//! | 0-5   | origin square index |
//!
//! `PST` is the classic "simplified evaluation function" piece-square table (middle-game king),
//! read from the mover's side. Castling moves count as king moves to the rook's square.
//!
//! # Code
//!
//! The rank `i` of the played move is written as the canonical Huffman code of `min(i, 255)`
//! (MSB first, with [`BitWriter`]); a rank ≥ 255 is followed by
//! `i − 255` in 10 bits. Canonical code: codes are assigned in order of (length, symbol), each the
//! previous plus one, shifted left when the length grows. The number of plies is stored outside.

use core::fmt;

use crate::attacks;
use crate::codec::bits::{BitReader, BitWriter};
use crate::moves::Move;
use crate::moves::MoveList;
use crate::position::Position;
use crate::types::{Role, Square};

/// Why a game cannot be encoded or decoded with the lichess scheme.
///
/// ```
/// use chessbits::codec::moves::lichess::{decode_game, LichessError};
/// use chessbits::position::Position;
/// // All ones: the longest codes, ranks far beyond the 20 legal moves.
/// assert_eq!(decode_game(&Position::startpos(), &[0xFF; 8], 1), Err(LichessError::BadRank { ply: 0 }));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum LichessError {
    /// Encoding: the move at `ply` is not legal in its position.
    IllegalMove {
        /// Index of the move in the game.
        ply: usize,
        /// The move.
        mv: Move,
    },
    /// Decoding: the code at `ply` names a rank past the last legal move, or no move is legal.
    BadRank {
        /// Index of the move being decoded.
        ply: usize,
    },
    /// Decoding: the bits end inside the code of move `ply`.
    Truncated {
        /// Index of the move being decoded.
        ply: usize,
    },
}

impl fmt::Display for LichessError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LichessError::IllegalMove { ply, mv } => write!(f, "move {mv} at ply {ply} is not legal"),
            LichessError::BadRank { ply } => write!(f, "no legal move of that rank at ply {ply}"),
            LichessError::Truncated { ply } => write!(f, "lichess-coded game ends before ply {ply}"),
        }
    }
}

impl std::error::Error for LichessError {}

/// Simplified-evaluation piece-square tables, rank 8 first, from White's side.
#[rustfmt::skip]
const PST: [[i16; 64]; 6] = [
    [  0,  0,  0,  0,  0,  0,  0,  0,
      50, 50, 50, 50, 50, 50, 50, 50,
      10, 10, 20, 30, 30, 20, 10, 10,
       5,  5, 10, 25, 25, 10,  5,  5,
       0,  0,  0, 20, 20,  0,  0,  0,
       5, -5,-10,  0,  0,-10, -5,  5,
       5, 10, 10,-20,-20, 10, 10,  5,
       0,  0,  0,  0,  0,  0,  0,  0],
    [-50,-40,-30,-30,-30,-30,-40,-50,
     -40,-20,  0,  0,  0,  0,-20,-40,
     -30,  0, 10, 15, 15, 10,  0,-30,
     -30,  5, 15, 20, 20, 15,  5,-30,
     -30,  0, 15, 20, 20, 15,  0,-30,
     -30,  5, 10, 15, 15, 10,  5,-30,
     -40,-20,  0,  5,  5,  0,-20,-40,
     -50,-40,-30,-30,-30,-30,-40,-50],
    [-20,-10,-10,-10,-10,-10,-10,-20,
     -10,  0,  0,  0,  0,  0,  0,-10,
     -10,  0,  5, 10, 10,  5,  0,-10,
     -10,  5,  5, 10, 10,  5,  5,-10,
     -10,  0, 10, 10, 10, 10,  0,-10,
     -10, 10, 10, 10, 10, 10, 10,-10,
     -10,  5,  0,  0,  0,  0,  5,-10,
     -20,-10,-10,-10,-10,-10,-10,-20],
    [  0,  0,  0,  0,  0,  0,  0,  0,
       5, 10, 10, 10, 10, 10, 10,  5,
      -5,  0,  0,  0,  0,  0,  0, -5,
      -5,  0,  0,  0,  0,  0,  0, -5,
      -5,  0,  0,  0,  0,  0,  0, -5,
      -5,  0,  0,  0,  0,  0,  0, -5,
      -5,  0,  0,  0,  0,  0,  0, -5,
       0,  0,  0,  5,  5,  0,  0,  0],
    [-20,-10,-10, -5, -5,-10,-10,-20,
     -10,  0,  0,  0,  0,  0,  0,-10,
     -10,  0,  5,  5,  5,  5,  0,-10,
      -5,  0,  5,  5,  5,  5,  0, -5,
       0,  0,  5,  5,  5,  5,  0, -5,
     -10,  5,  5,  5,  5,  5,  0,-10,
     -10,  0,  5,  0,  0,  0,  0,-10,
     -20,-10,-10, -5, -5,-10,-10,-20],
    [-30,-40,-40,-50,-50,-40,-40,-30,
     -30,-40,-40,-50,-50,-40,-40,-30,
     -30,-40,-40,-50,-50,-40,-40,-30,
     -30,-40,-40,-50,-50,-40,-40,-30,
     -20,-30,-30,-40,-40,-30,-30,-20,
     -10,-20,-20,-20,-20,-20,-20,-10,
      20, 20,  0,  0,  0,  0, 20, 20,
      20, 30, 10,  0,  0, 10, 30, 20],
];

/// Huffman code lengths of ranks 0..=255, fitted to the training games.
///
/// ```
/// use chessbits::codec::moves::lichess::CODE_LENGTHS;
/// // A complete prefix code: the Kraft sum is exactly one.
/// let kraft: f64 = CODE_LENGTHS.iter().map(|&l| 0.5f64.powi(l as i32)).sum();
/// assert!((kraft - 1.0).abs() < 1e-12);
/// assert!(CODE_LENGTHS[0] <= CODE_LENGTHS[10]);
/// ```
#[rustfmt::skip]
pub const CODE_LENGTHS: [u8; 256] = [
    3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 5, 5, 5, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 7, 7, 7, 7, 7,
    8, 8, 8, 9, 9, 9, 10, 10, 10, 11, 11, 12, 12, 12, 13, 14, 13, 16, 16, 16, 15, 16, 17, 18, 18, 18, 18, 18, 18, 18, 18, 18,
    18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18,
    18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18,
    18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18,
    18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18,
    18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18,
    18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 17, 17, 17, 17, 17, 17, 17, 17, 17, 17, 17, 17, 17,
];

/// Longest code in [`CODE_LENGTHS`].
const MAX_LENGTH: usize = 32;

#[inline]
fn pst(role: Role, sq: Square, pos: &Position) -> i32 {
    // The table is written rank 8 first: index 0 is a8 for White.
    let relative = sq.relative_to(pos.turn()).index() ^ 56;
    i32::from(PST[role.index()][relative])
}

/// The ranking key of the legal move `m` in `pos` (see the module docs).
///
/// ```
/// use chessbits::codec::moves::lichess::rank_key;
/// use chessbits::notation::uci::parse_uci;
/// use chessbits::position::Position;
/// let pos = Position::startpos();
/// let e4 = parse_uci(&pos, "e2e4").unwrap();
/// let a3 = parse_uci(&pos, "a2a3").unwrap();
/// assert!(rank_key(&pos, e4) > rank_key(&pos, a3));
/// ```
#[inline]
pub fn rank_key(pos: &Position, m: Move) -> u32 {
    let board = pos.board();
    let us = pos.turn();
    let role = board.role_at(m.from()).unwrap_or(Role::Pawn);
    let promotion = m.promotion().map_or(0, |r| r.index() as u32);
    let their_pawns = board.by_role(Role::Pawn) & board.by_color(!us);
    let pawn_defended = (attacks::pawn(us, m.to()) & their_pawns).any();
    let safety = if pawn_defended { 5 - role.index() as u32 } else { 6 };
    let gain = (512 + pst(role, m.to(), pos) - pst(role, m.from(), pos)).clamp(0, 1023) as u32;
    promotion << 26
        | (m.is_capture() as u32) << 25
        | safety << 22
        | gain << 12
        | (m.to().index() as u32) << 6
        | m.from().index() as u32
}

/// Sorts `moves` (legal in `pos`) from most to least likely by the lichess heuristic.
///
/// ```
/// use chessbits::codec::moves::lichess::sort_moves;
/// use chessbits::lists::MoveList;
/// use chessbits::position::Position;
/// let pos = Position::startpos();
/// let mut moves = MoveList::new();
/// pos.legal_moves_into(&mut moves);
/// sort_moves(&pos, &mut moves);
/// // Knights gain 50 table points (b1/g1 −40 to c3/f3 +10), the centre pawns 40.
/// let first: Vec<String> = moves[..4].iter().map(|m| m.to_string()).collect();
/// assert_eq!(first, ["g1f3", "b1c3", "e2e4", "d2d4"]);
/// ```
pub fn sort_moves(pos: &Position, moves: &mut [Move]) {
    // One key per move, computed once (a sort by key would compute two per comparison): the key
    // and the move packed in one integer, so sorting the integers sorts the moves. Keys are unique,
    // so the order is the same as sorting by key alone.
    // No position has more than 218 legal moves; a longer list is sorted the slow way.
    const MOST: usize = 256;
    if moves.len() > MOST {
        moves.sort_unstable_by_key(|&m| core::cmp::Reverse(rank_key(pos, m)));
        return;
    }
    let mut keyed = [0u64; MOST];
    let keyed = &mut keyed[..moves.len()];
    for (slot, &m) in keyed.iter_mut().zip(moves.iter()) {
        *slot = u64::from(rank_key(pos, m)) << 16 | u64::from(m.bits());
    }
    keyed.sort_unstable_by(|a, b| b.cmp(a));
    for (m, &k) in moves.iter_mut().zip(keyed.iter()) {
        *m = Move::from_bits(k as u16).unwrap_or(*m);
    }
}

/// Canonical Huffman code: `codes[symbol] = (code, length)` and, per length, the first code and the
/// first index into `order` (symbols sorted by length then value).
struct Canonical {
    codes: [(u32, u8); 256],
    first_code: [u32; MAX_LENGTH + 2],
    first_index: [usize; MAX_LENGTH + 2],
    count: [usize; MAX_LENGTH + 2],
    order: [u8; 256],
}

fn canonical() -> Canonical {
    let mut c = Canonical {
        codes: [(0, 0); 256],
        first_code: [0; MAX_LENGTH + 2],
        first_index: [0; MAX_LENGTH + 2],
        count: [0; MAX_LENGTH + 2],
        order: [0; 256],
    };
    for &len in &CODE_LENGTHS {
        c.count[(len as usize).min(MAX_LENGTH)] += 1;
    }
    let mut code = 0u32;
    let mut index = 0usize;
    for len in 1..=MAX_LENGTH {
        c.first_code[len] = code;
        c.first_index[len] = index;
        index += c.count[len];
        code = (code + c.count[len] as u32) << 1;
    }
    let mut next = c.first_code;
    let mut slot = c.first_index;
    for (symbol, &len) in CODE_LENGTHS.iter().enumerate() {
        let len = (len as usize).min(MAX_LENGTH);
        c.codes[symbol] = (next[len], len as u8);
        next[len] += 1;
        if let Some(entry) = c.order.get_mut(slot[len]) {
            *entry = symbol as u8;
        }
        slot[len] += 1;
    }
    c
}

/// Encodes the moves of a game played from `start` with the lichess scheme; the number of moves
/// is not stored.
///
/// ```
/// use chessbits::codec::moves::lichess::{decode_game, encode_game};
/// use chessbits::notation::uci::parse_uci;
/// use chessbits::position::Position;
/// let start = Position::startpos();
/// let mut pos = start.clone();
/// let mut moves = Vec::new();
/// for uci in ["e2e4", "c7c5", "g1f3", "d7d6"] {
///     let m = parse_uci(&pos, uci).unwrap();
///     pos.play_unchecked(m);
///     moves.push(m);
/// }
/// let bytes = encode_game(&start, &moves).unwrap();
/// assert_eq!(decode_game(&start, &bytes, moves.len()).unwrap(), moves);
/// ```
pub fn encode_game(start: &Position, moves: &[Move]) -> Result<Vec<u8>, LichessError> {
    let mut writer = BitWriter::new();
    encode_into(start, moves, &mut writer)?;
    Ok(writer.finish())
}

/// Like [`encode_game`], writing into `writer` (so the exact bit count is known).
///
/// ```
/// use chessbits::codec::bits::BitWriter;
/// use chessbits::codec::moves::lichess::encode_into;
/// use chessbits::position::Position;
/// let mut writer = BitWriter::new();
/// encode_into(&Position::startpos(), &[], &mut writer).unwrap();
/// assert_eq!(writer.bit_len(), 0);
/// ```
pub fn encode_into(start: &Position, moves: &[Move], writer: &mut BitWriter) -> Result<(), LichessError> {
    let code = canonical();
    let mut pos = start.clone();
    let mut list = MoveList::new();
    for (ply, &m) in moves.iter().enumerate() {
        pos.legal_moves_into(&mut list);
        sort_moves(&pos, &mut list);
        let rank = list
            .iter()
            .position(|&legal| legal == m)
            .ok_or(LichessError::IllegalMove { ply, mv: m })?;
        let (bits, len) = code.codes[rank.min(255)];
        writer.write(u64::from(bits), u32::from(len));
        if rank >= 255 {
            writer.write((rank - 255) as u64, 10);
        }
        pos.play_unchecked(m);
    }
    Ok(())
}

/// Decodes `ply_count` moves of a game played from `start`.
///
/// ```
/// use chessbits::codec::moves::lichess::{decode_game, LichessError};
/// use chessbits::position::Position;
/// assert_eq!(decode_game(&Position::startpos(), &[], 1), Err(LichessError::Truncated { ply: 0 }));
/// ```
pub fn decode_game(start: &Position, bytes: &[u8], ply_count: usize) -> Result<Vec<Move>, LichessError> {
    let code = canonical();
    let mut reader = BitReader::new(bytes);
    let mut pos = start.clone();
    let mut list = MoveList::new();
    let mut out = Vec::with_capacity(ply_count.min(1024));
    for ply in 0..ply_count {
        let truncated = |_| LichessError::Truncated { ply };
        let mut value = 0u32;
        let mut symbol = None;
        for len in 1..=MAX_LENGTH {
            value = value << 1 | reader.read_bit().map_err(truncated)? as u32;
            let offset = value.wrapping_sub(code.first_code[len]);
            if value >= code.first_code[len] && (offset as usize) < code.count[len] {
                symbol = code.order.get(code.first_index[len] + offset as usize).copied();
                break;
            }
        }
        let mut rank = symbol.ok_or(LichessError::BadRank { ply })? as usize;
        if rank == 255 {
            rank += reader.read(10).map_err(truncated)? as usize;
        }
        pos.legal_moves_into(&mut list);
        sort_moves(&pos, &mut list);
        let m = list.get(rank).copied().ok_or(LichessError::BadRank { ply })?;
        pos.play_unchecked(m);
        out.push(m);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The packed-key sort gives the order of a plain sort by descending key, in random games.
    #[test]
    fn sort_moves_orders_by_descending_key() {
        let mut seed = 0x2545_F491_4F6C_DD1Du64;
        let mut list = MoveList::new();
        for _ in 0..50 {
            let mut pos = Position::startpos();
            for _ in 0..120 {
                pos.legal_moves_into(&mut list);
                if list.is_empty() {
                    break;
                }
                let mut expected: Vec<Move> = list.to_vec();
                expected.sort_by_key(|&m| core::cmp::Reverse(rank_key(&pos, m)));
                let mut sorted: Vec<Move> = list.to_vec();
                sort_moves(&pos, &mut sorted);
                assert_eq!(sorted, expected, "{}", pos.fen());
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                pos.play_unchecked(list[(seed >> 8) as usize % list.len()]);
            }
        }
    }
}
