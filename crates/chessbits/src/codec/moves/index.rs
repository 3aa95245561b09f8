//! Move index: a move written as its position in the deterministic move list of its position.
//!
//! The lists are [`Position::legal_moves`] (legal set) and [`Position::pseudo_legal_moves`]
//! (pseudo-legal set), whose order is fixed by the generator; see [`MoveListKind`] for the exact
//! pseudo-legal definition. Three forms:
//!
//! # (a) One byte per move, legal list
//!
//! With `n` legal moves and index `i`: if `n <= 256` the code is the single byte `i`. Otherwise
//! (positions like `kBQQQQQQ/BR5Q/Q6Q/Q6Q/Q6Q/Q6Q/Q6Q/KQQQQQQQ w - -` with 270 moves) byte value
//! 255 is an escape: `i` is written as `⌊i / 255⌋` bytes 255 followed by one byte `i mod 255`,
//! and the reader adds bytes up to and including the first one below 255. Index 260 of 270 is
//! `[255, 5]`; index 254 is `[254]`. In games nearly every position has `n <= 256`, so nearly
//! every move is one byte. A game is the concatenation of its moves' codes; no length is needed.
//!
//! # (b), (c) ⌈log₂ n⌉ bits per move, legal or pseudo-legal list
//!
//! Each index takes `bits_for(n) = ⌈log₂ n⌉` bits (0 bits when `n = 1`), written most significant
//! bit first with [`BitWriter`]. A position without moves cannot encode a move
//! ([`MoveCodeError::NoMoves`]). Because forced moves take no bits, a game's stream cannot tell
//! its own length, so a game is written as:
//!
//! ```text
//! ply count: unsigned LEB128 (7 bits a byte, low group first, high bit = more; shortest form
//!            only), at most 2^20
//! indices:   bits_for(n) bits each, MSB first, concatenated
//! padding:   zero bits up to the next byte boundary
//! ```
//!
//! The decoder rejects indices `>= n`, decoded pseudo-legal moves that are illegal, and anything
//! but zero padding after the last move ([`MoveCodeError::TrailingData`]).
//!
//! ```
//! use chessbits::codec::moves::index::{self, MoveListKind};
//! use chessbits::notation::uci::parse_uci;
//! use chessbits::position::Position;
//! let start = Position::startpos();
//! let mut pos = start.clone();
//! let mut moves = Vec::new();
//! for uci in ["e2e4", "e7e5", "g1f3", "b8c6"] {
//!     let m = parse_uci(&pos, uci).unwrap();
//!     pos.play_unchecked(m);
//!     moves.push(m);
//! }
//! let bytes = index::encode_game_bits(&start, MoveListKind::Legal, &moves).unwrap();
//! // 1 header byte, then 5 bits a move (at most 32 moves to choose from each time): 3 bytes.
//! assert_eq!(bytes.len(), 4);
//! assert_eq!(index::decode_game_bits(&start, MoveListKind::Legal, &bytes), Ok(moves));
//! ```

use super::MoveCodeError;
use crate::codec::bits::{BitReader, BitWriter};
use crate::moves::Move;
use crate::moves::MoveList;
use crate::position::Position;

/// Which move list the index points into.
///
/// ```
/// use chessbits::codec::moves::index::MoveListKind;
/// use chessbits::lists::MoveList;
/// use chessbits::position::Position;
/// // White in check: the pinned and king-exposing moves count as pseudo-legal only.
/// let pos = Position::from_fen("4k3/8/8/8/8/8/3r4/4K3 w - - 0 1").unwrap();
/// let mut list = MoveList::new();
/// MoveListKind::Legal.generate(&pos, &mut list);
/// let legal = list.len();
/// MoveListKind::PseudoLegal.generate(&pos, &mut list);
/// assert!(list.len() > legal);
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum MoveListKind {
    /// [`Position::legal_moves`].
    Legal,
    /// [`Position::pseudo_legal_moves`]: every move by the rules of its piece, the own king's
    /// safety not checked; en passant only where the position keeps an en passant square (a pawn
    /// of the side to move can capture there); castles only when legal (never out of check).
    /// This is the set of python-chess's `generate_pseudo_legal_moves`.
    PseudoLegal,
}

impl MoveListKind {
    /// Fills `list` (cleared first) with the moves of this set in `pos`, in generation order.
    ///
    /// ```
    /// use chessbits::codec::moves::index::MoveListKind;
    /// use chessbits::lists::MoveList;
    /// use chessbits::position::Position;
    /// let mut list = MoveList::new();
    /// MoveListKind::PseudoLegal.generate(&Position::startpos(), &mut list);
    /// assert_eq!(list.len(), 20);
    /// ```
    pub fn generate(self, pos: &Position, list: &mut MoveList) {
        match self {
            MoveListKind::Legal => pos.legal_moves_into(list),
            MoveListKind::PseudoLegal => pos.pseudo_legal_moves_into(list),
        }
    }
}

/// ⌈log₂ n⌉: the bits an index into `n` moves takes; 0 for `n <= 1`.
///
/// ```
/// use chessbits::codec::moves::index::bits_for;
/// assert_eq!([bits_for(1), bits_for(2), bits_for(20), bits_for(32), bits_for(33)], [0, 1, 5, 5, 6]);
/// ```
pub const fn bits_for(n: usize) -> u32 {
    if n <= 1 {
        0
    } else {
        usize::BITS - (n - 1).leading_zeros()
    }
}

/// The index of `m` in the `set` list of `pos`; [`MoveCodeError::IllegalMove`] if not in it.
///
/// ```
/// use chessbits::codec::moves::index::{index_of, MoveListKind};
/// use chessbits::notation::uci::parse_uci;
/// use chessbits::position::Position;
/// let pos = Position::startpos();
/// let m = parse_uci(&pos, "b1c3").unwrap();
/// assert!(index_of(&pos, MoveListKind::Legal, m).unwrap() < 20);
/// ```
pub fn index_of(pos: &Position, set: MoveListKind, m: Move) -> Result<usize, MoveCodeError> {
    let mut list = MoveList::new();
    set.generate(pos, &mut list);
    list.iter().position(|&x| x == m).ok_or(MoveCodeError::IllegalMove(m))
}

/// The move at `index` in the `set` list of `pos`, checked to be legal.
///
/// ```
/// use chessbits::codec::moves::index::{move_at, MoveListKind};
/// use chessbits::codec::moves::MoveCodeError;
/// use chessbits::position::Position;
/// let pos = Position::startpos();
/// assert_eq!(move_at(&pos, MoveListKind::Legal, 20), Err(MoveCodeError::IndexOutOfRange { index: 20, len: 20 }));
/// ```
pub fn move_at(pos: &Position, set: MoveListKind, index: usize) -> Result<Move, MoveCodeError> {
    let mut list = MoveList::new();
    set.generate(pos, &mut list);
    checked_move_at(pos, set, &list, index)
}

/// Appends the one-byte code (a) of the legal move `m` to `out`: one byte, or the escape form in
/// positions with more than 256 moves (see the module docs).
///
/// ```
/// use chessbits::codec::moves::index::{read_byte_index, write_byte_index};
/// use chessbits::notation::uci::parse_uci;
/// use chessbits::position::Position;
/// let pos = Position::startpos();
/// let m = parse_uci(&pos, "d2d4").unwrap();
/// let mut out = Vec::new();
/// write_byte_index(&pos, m, &mut out).unwrap();
/// assert_eq!(out.len(), 1);
/// assert_eq!(read_byte_index(&pos, &out), Ok((m, 1)));
/// ```
pub fn write_byte_index(pos: &Position, m: Move, out: &mut Vec<u8>) -> Result<(), MoveCodeError> {
    let mut list = MoveList::new();
    pos.legal_moves_into(&mut list);
    let index = list.iter().position(|&x| x == m).ok_or(MoveCodeError::IllegalMove(m))?;
    write_escaped(index, list.len(), out);
    Ok(())
}

/// Reads one code written by [`write_byte_index`] from the start of `bytes`: the move and the
/// number of bytes used.
///
/// ```
/// use chessbits::codec::moves::index::read_byte_index;
/// use chessbits::codec::moves::MoveCodeError;
/// use chessbits::position::Position;
/// assert!(matches!(read_byte_index(&Position::startpos(), &[200]), Err(MoveCodeError::IndexOutOfRange { .. })));
/// ```
pub fn read_byte_index(pos: &Position, bytes: &[u8]) -> Result<(Move, usize), MoveCodeError> {
    let mut list = MoveList::new();
    pos.legal_moves_into(&mut list);
    let (index, used) = read_escaped(bytes, list.len())?;
    Ok((checked_move_at(pos, MoveListKind::Legal, &list, index)?, used))
}

/// Appends the ⌈log₂ n⌉-bit index of `m` in the `set` list of `pos`; returns the bits written.
///
/// ```
/// use chessbits::codec::bits::BitWriter;
/// use chessbits::codec::moves::index::{write_bit_index, MoveListKind};
/// use chessbits::notation::uci::parse_uci;
/// use chessbits::position::Position;
/// let pos = Position::startpos();
/// let mut w = BitWriter::new();
/// assert_eq!(write_bit_index(&pos, MoveListKind::Legal, parse_uci(&pos, "e2e4").unwrap(), &mut w), Ok(5));
/// ```
pub fn write_bit_index(pos: &Position, set: MoveListKind, m: Move, w: &mut BitWriter) -> Result<u32, MoveCodeError> {
    let mut list = MoveList::new();
    set.generate(pos, &mut list);
    let index = list.iter().position(|&x| x == m).ok_or(MoveCodeError::IllegalMove(m))?;
    let bits = bits_for(list.len());
    w.write(index as u64, bits);
    Ok(bits)
}

/// Reads one index written by [`write_bit_index`] and returns its (legal) move.
///
/// ```
/// use chessbits::codec::bits::BitReader;
/// use chessbits::codec::moves::index::{read_bit_index, MoveListKind};
/// use chessbits::codec::moves::MoveCodeError;
/// use chessbits::position::Position;
/// let pos = Position::startpos();
/// // 5 bits 11111 = 31: past the 20 moves.
/// let mut r = BitReader::new(&[0xff]);
/// assert!(matches!(read_bit_index(&pos, MoveListKind::Legal, &mut r), Err(MoveCodeError::IndexOutOfRange { .. })));
/// ```
pub fn read_bit_index(pos: &Position, set: MoveListKind, r: &mut BitReader) -> Result<Move, MoveCodeError> {
    let mut list = MoveList::new();
    set.generate(pos, &mut list);
    if list.is_empty() {
        return Err(MoveCodeError::NoMoves);
    }
    let index = r.read(bits_for(list.len()))?;
    checked_move_at(pos, set, &list, usize::try_from(index).unwrap_or(usize::MAX))
}

/// A game from `start` in the one-byte form (a): each move's code, concatenated.
///
/// ```
/// use chessbits::codec::moves::index::{decode_game_bytes, encode_game_bytes};
/// use chessbits::notation::uci::parse_uci;
/// use chessbits::position::Position;
/// let start = Position::startpos();
/// let m = parse_uci(&start, "c2c4").unwrap();
/// let bytes = encode_game_bytes(&start, &[m]).unwrap();
/// assert_eq!(decode_game_bytes(&start, &bytes), Ok(vec![m]));
/// ```
pub fn encode_game_bytes(start: &Position, moves: &[Move]) -> Result<Vec<u8>, MoveCodeError> {
    let mut pos = start.clone();
    let mut out = Vec::with_capacity(moves.len());
    for &m in moves {
        write_byte_index(&pos, m, &mut out)?;
        pos.play_unchecked(m);
    }
    Ok(out)
}

/// The moves of a stream written by [`encode_game_bytes`] (read until the bytes run out).
///
/// ```
/// use chessbits::codec::moves::index::decode_game_bytes;
/// use chessbits::position::Position;
/// assert_eq!(decode_game_bytes(&Position::startpos(), &[]), Ok(vec![]));
/// ```
pub fn decode_game_bytes(start: &Position, mut bytes: &[u8]) -> Result<Vec<Move>, MoveCodeError> {
    let mut pos = start.clone();
    let mut moves = Vec::with_capacity(bytes.len());
    while !bytes.is_empty() {
        let (m, used) = read_byte_index(&pos, bytes)?;
        bytes = bytes.get(used..).unwrap_or_default();
        pos.play_unchecked(m);
        moves.push(m);
    }
    Ok(moves)
}

/// The most plies a bit-packed game may hold: far beyond any game the 75-move rule allows, and
/// it bounds the work a forged header can cause (forced moves take no bits).
///
/// ```
/// use chessbits::codec::moves::index::{decode_game_bits, MoveListKind, MAX_PLIES};
/// use chessbits::position::Position;
/// // A header announcing MAX_PLIES + 1 plies (LEB128 of 2^20 + 1).
/// assert!(MAX_PLIES == 1 << 20);
/// assert!(decode_game_bits(&Position::startpos(), MoveListKind::Legal, &[0x81, 0x80, 0x40]).is_err());
/// ```
pub const MAX_PLIES: usize = 1 << 20;

/// A game from `start` in the bit-packed form (b) or (c): LEB128 ply count, then the indices.
///
/// ```
/// use chessbits::codec::moves::index::{encode_game_bits, MoveListKind};
/// use chessbits::position::Position;
/// assert_eq!(encode_game_bits(&Position::startpos(), MoveListKind::PseudoLegal, &[]), Ok(vec![0]));
/// ```
pub fn encode_game_bits(start: &Position, set: MoveListKind, moves: &[Move]) -> Result<Vec<u8>, MoveCodeError> {
    if moves.len() > MAX_PLIES {
        return Err(MoveCodeError::CodeOutOfRange {
            code: u32::try_from(moves.len()).unwrap_or(u32::MAX),
            limit: MAX_PLIES as u32,
        });
    }
    let mut w = BitWriter::new();
    let mut count = moves.len();
    loop {
        let more = count >= 0x80;
        w.write((count & 0x7f) as u64 | if more { 0x80 } else { 0 }, 8);
        count >>= 7;
        if !more {
            break;
        }
    }
    let mut pos = start.clone();
    for &m in moves {
        // The pseudo-legal list may hold illegal moves; a game may not.
        if set == MoveListKind::PseudoLegal && !pos.is_legal(m) {
            return Err(MoveCodeError::IllegalMove(m));
        }
        write_bit_index(&pos, set, m, &mut w)?;
        pos.play_unchecked(m);
    }
    Ok(w.finish())
}

/// The moves of a stream written by [`encode_game_bits`] with the same `set`.
///
/// ```
/// use chessbits::codec::moves::index::{decode_game_bits, MoveListKind};
/// use chessbits::codec::moves::MoveCodeError;
/// use chessbits::position::Position;
/// let start = Position::startpos();
/// // Two plies announced, 8 bits of indices present: 5 for the first, 3 of the second's 5.
/// assert_eq!(decode_game_bits(&start, MoveListKind::Legal, &[2, 0]), Err(MoveCodeError::UnexpectedEnd));
/// assert_eq!(decode_game_bits(&start, MoveListKind::Legal, &[0, 0]), Err(MoveCodeError::TrailingData));
/// ```
pub fn decode_game_bits(start: &Position, set: MoveListKind, bytes: &[u8]) -> Result<Vec<Move>, MoveCodeError> {
    let mut r = BitReader::new(bytes);
    let mut plies = 0usize;
    let mut shift = 0;
    loop {
        let byte = r.read(8)?;
        plies |= ((byte & 0x7f) as usize) << shift;
        shift += 7;
        if plies > MAX_PLIES {
            return Err(MoveCodeError::CodeOutOfRange {
                code: u32::try_from(plies).unwrap_or(u32::MAX),
                limit: MAX_PLIES as u32,
            });
        }
        if byte & 0x80 == 0 {
            // A zero final group after the first byte is an overlong form: one count, one stream.
            if byte == 0 && shift > 7 {
                return Err(MoveCodeError::InvalidParts("overlong ply count"));
            }
            break;
        }
        if shift > 21 {
            return Err(MoveCodeError::CodeOutOfRange {
                code: u32::MAX,
                limit: MAX_PLIES as u32,
            });
        }
    }
    let mut pos = start.clone();
    let mut moves = Vec::with_capacity(plies.min(bytes.len() * 8));
    for _ in 0..plies {
        let m = read_bit_index(&pos, set, &mut r)?;
        pos.play_unchecked(m);
        moves.push(m);
    }
    if r.remaining() >= 8 || r.read(r.remaining() as u32)? != 0 {
        return Err(MoveCodeError::TrailingData);
    }
    Ok(moves)
}

/// `list[index]`, checked to exist and (for the pseudo-legal set) to be legal.
fn checked_move_at(pos: &Position, set: MoveListKind, list: &MoveList, index: usize) -> Result<Move, MoveCodeError> {
    let m = *list
        .get(index)
        .ok_or(MoveCodeError::IndexOutOfRange { index, len: list.len() })?;
    if set == MoveListKind::PseudoLegal && !pos.is_legal(m) {
        return Err(MoveCodeError::IllegalMove(m));
    }
    Ok(m)
}

/// Writes `index` (below `len`) in the one-byte form with the 255 escape for lists over 256.
fn write_escaped(mut index: usize, len: usize, out: &mut Vec<u8>) {
    if len > 256 {
        while index >= 255 {
            out.push(255);
            index -= 255;
        }
    }
    out.push(index as u8);
}

/// Reads an index written by [`write_escaped`] for a list of `len` moves: (index, bytes used).
fn read_escaped(bytes: &[u8], len: usize) -> Result<(usize, usize), MoveCodeError> {
    if len == 0 {
        return Err(MoveCodeError::NoMoves);
    }
    let first = *bytes.first().ok_or(MoveCodeError::UnexpectedEnd)?;
    if len <= 256 {
        return Ok((first.into(), 1));
    }
    let mut index = 0usize;
    for (i, &b) in bytes.iter().enumerate() {
        index += usize::from(b);
        if b < 255 {
            return Ok((index, i + 1));
        }
        if index >= len {
            // An escape that already passes the list: stop before reading on.
            return Err(MoveCodeError::IndexOutOfRange { index, len });
        }
    }
    Err(MoveCodeError::UnexpectedEnd)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escape_round_trips_and_is_prefix_free() {
        for len in [1usize, 200, 256, 257, 270, 600] {
            for index in 0..len {
                let mut out = Vec::new();
                write_escaped(index, len, &mut out);
                out.push(7); // Whatever follows must not be read.
                let used = out.len() - 1;
                assert_eq!(read_escaped(&out, len), Ok((index, used)));
                assert_eq!(used, if len <= 256 { 1 } else { index / 255 + 1 });
            }
        }
        assert_eq!(
            read_escaped(&[255, 255], 300),
            Err(MoveCodeError::IndexOutOfRange { index: 510, len: 300 })
        );
        assert_eq!(read_escaped(&[255], 300), Err(MoveCodeError::UnexpectedEnd));
    }

    #[test]
    fn bits_for_is_ceil_log2() {
        for n in 1..2000usize {
            let bits = bits_for(n);
            assert!(1usize << bits >= n);
            assert!(bits == 0 || 1usize << (bits - 1) < n);
        }
    }
}
