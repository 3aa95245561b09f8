//! Per piece and square enumeration (BCGN style): one byte per move without move generation.
//!
//! Every role has an upper bound on the moves one piece of it can make from any square, whatever
//! the board (the seed's table):
//!
//! | role | bound | where it is reached |
//! |---|---:|---|
//! | pawn | 12 | seventh rank: 3 targets × 4 promotions |
//! | knight | 8 | the 16 squares of the extended center |
//! | bishop | 13 | the 4 center squares |
//! | rook | 14 | any square |
//! | queen | 27 | the 4 center squares |
//! | king | 8 + 2 | the 2 castles count only while the side to move has a castling right |
//!
//! # Layout
//!
//! The side to move's pieces get consecutive ranges of numbers, by role (pawn, knight, bishop,
//! rook, queen, king), then by square ascending within a role; each piece's range is as long as
//! its role's bound. A move's code is the start of its piece's range plus the piece's
//! `piece_move_index`:
//!
//! ```text
//! offset = Σ_{role' < role} popcount(our role' pieces) * bound(role')
//!        + popcount(our role pieces on squares below from) * bound(role)
//! code   = offset + piece_move_index(role, from, to, promotion)
//! ```
//!
//! `piece_move_index` uses board-independent lookup tables only:
//!
//! - knight, bishop, rook, queen, king: the rank of `to` among the squares the piece could reach
//!   from `from` on an empty board, counted in square order (a1 = 0 … h8 = 63); king castles are
//!   8 (king side) and 9 (queen side);
//! - pawn, with squares relative to the mover (Black mirrored top-bottom): a step to the a-file
//!   side (`to = from + 7`) is 0, the push (`+ 8`) 1, a step to the h-file side (`+ 9`) 2, the double
//!   push 3; from the seventh rank the steps are promotions: `step * 4 + promo` (knight 0, bishop
//!   1, rook 2, queen 3), 0 to 11. En passant is the diagonal step.
//!
//! The total bound (the sum over our pieces) depends on the position alone. While it is at most
//! 256 the code is **one byte**. Otherwise — e.g. five queens and six rooks after eight promotions,
//! or the 270-move position `kBQQQQQQ/BR5Q/Q6Q/Q6Q/Q6Q/Q6Q/Q6Q/KQQQQQQQ w - -` — the fallback is
//! **two bytes**: the 16-bit [`Move`] (`Move::bits`, big-endian), so the fallback needs no move
//! generation either. Decoding reads one or two bytes as the position says, so no flag is stored.
//!
//! With the standard army the bound is 201, plus 2 while castling is possible; every promotion to
//! a knight lowers it by 4, to a bishop raises it by 1, to a rook by 2, to a queen by 15. So
//! without castling rights every army promoted from the standard one fits in a byte while it has
//! at most four queens: eight promotions, `n` of them to queens, the rest to rooks, give
//! `217 + 13 n`, 256 for `n = 3`.
//!
//! Encoding checks only that the mover is ours and that its role can make the step; decoding
//! checks the decoded move is legal ([`MoveCodeError::IllegalMove`] otherwise).
//!
//! ```
//! use chessbits::codec::moves::per_square::{self, PerSquareCode};
//! use chessbits::notation::uci::parse_uci;
//! use chessbits::position::Position;
//! let pos = Position::startpos();
//! assert_eq!(per_square::total_bound(&pos), 8 * 12 + 2 * 8 + 2 * 13 + 2 * 14 + 27 + 10);
//! let m = parse_uci(&pos, "g1f3").unwrap();
//! // Pawns take 0..96, the b1 knight 96..104, the g1 knight 104..112; f3 is its second target.
//! assert_eq!(per_square::encode(&pos, m), Ok(PerSquareCode::Byte(105)));
//! assert_eq!(per_square::decode(&pos, PerSquareCode::Byte(105)), Ok(m));
//! ```

use super::tables::{nth_target, target_index};
use super::MoveCodeError;
use crate::moves::{Move, MoveKind};
use crate::position::Position;
use crate::types::{Bitboard, CastlingSide, Color, Piece, Rank, Role, Square};

/// The seed's upper bounds by role index (pawn … king); the king's includes its 2 castles.
///
/// ```
/// use chessbits::codec::moves::per_square::BOUNDS;
/// use chessbits::types::Role;
/// assert_eq!(BOUNDS[Role::Queen.index()], 27);
/// ```
pub const BOUNDS: [u16; 6] = [12, 8, 13, 14, 27, 10];

/// One move's code: a byte, or the 16-bit move where the position's bound exceeds 256.
///
/// ```
/// use chessbits::codec::moves::per_square::PerSquareCode;
/// assert_eq!(PerSquareCode::Byte(7).to_bytes(), vec![7]);
/// assert_eq!(PerSquareCode::Wide(0x1234).to_bytes(), vec![0x12, 0x34]);
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum PerSquareCode {
    /// The per-square index (the position's total bound is at most 256).
    Byte(u8),
    /// The fallback: [`Move::bits`].
    Wide(u16),
}

impl PerSquareCode {
    /// The code as it is stored: one byte, or two big-endian.
    ///
    /// ```
    /// use chessbits::codec::moves::per_square::PerSquareCode;
    /// assert_eq!(PerSquareCode::Wide(1).to_bytes().len(), 2);
    /// ```
    pub fn to_bytes(self) -> Vec<u8> {
        match self {
            PerSquareCode::Byte(b) => vec![b],
            PerSquareCode::Wide(w) => w.to_be_bytes().to_vec(),
        }
    }
}

/// The bound of one piece of `role` for the side to move in `pos`: the seed's, except that the
/// king counts its 2 castles only while its side has a castling right.
///
/// ```
/// use chessbits::codec::moves::per_square::bound;
/// use chessbits::position::Position;
/// use chessbits::types::Role;
/// assert_eq!(bound(&Position::startpos(), Role::King), 10);
/// let pos = Position::from_fen("4k3/8/8/8/8/8/8/4K3 w - - 0 1").unwrap();
/// assert_eq!(bound(&pos, Role::King), 8);
/// ```
pub fn bound(pos: &Position, role: Role) -> u16 {
    match role {
        Role::King if !pos.castling().has_color(pos.turn()) => 8,
        _ => BOUNDS[role.index()],
    }
}

/// The sum of the bounds of the side to move's pieces: codes run from 0 to this (exclusive).
///
/// ```
/// use chessbits::codec::moves::per_square::total_bound;
/// use chessbits::position::{Position, Validation};
/// let fen = "kBQQQQQQ/BR5Q/Q6Q/Q6Q/Q6Q/Q6Q/Q6Q/KQQQQQQQ w - - 0 1"; // composed
/// let pos = Position::from_fen_with(fen, Validation::Composed).unwrap();
/// assert!(total_bound(&pos) > 256);
/// ```
pub fn total_bound(pos: &Position) -> u32 {
    Role::ALL
        .iter()
        .map(|&role| ours(pos, role).count() * u32::from(bound(pos, role)))
        .sum()
}

/// Whether the moves of `pos` take one byte each (the total bound is at most 256).
///
/// ```
/// use chessbits::codec::moves::per_square::fits_in_byte;
/// use chessbits::position::Position;
/// assert!(fits_in_byte(&Position::startpos()));
/// ```
pub fn fits_in_byte(pos: &Position) -> bool {
    total_bound(pos) <= 256
}

/// The seed's `piece_move_index`: the number (below the role's bound) of the move of a `role`
/// of `color` from `m.from()`; board independent. `None` if the role cannot make that step.
///
/// ```
/// use chessbits::codec::moves::per_square::piece_move_index;
/// use chessbits::moves::{Move, MoveKind};
/// use chessbits::types::{CastlingSide, Color, Role, Square};
/// let push = Move::new(Square::E7, Square::E5, MoveKind::DoublePush);
/// assert_eq!(piece_move_index(Color::Black, Role::Pawn, push), Some(3));
/// let castle = Move::castle(Square::E1, Square::A1, CastlingSide::QueenSide);
/// assert_eq!(piece_move_index(Color::White, Role::King, castle), Some(9));
/// let promo = Move::new(Square::B7, Square::A8, MoveKind::QueenPromoCapture);
/// assert_eq!(piece_move_index(Color::White, Role::Pawn, promo), Some(3));
/// ```
pub fn piece_move_index(color: Color, role: Role, m: Move) -> Option<u8> {
    if let Some(side) = m.castling_side() {
        return (role == Role::King).then_some(8 + side.index() as u8);
    }
    if role != Role::Pawn {
        return if m.is_promotion() {
            None
        } else {
            target_index(role, m.from(), m.to())
        };
    }
    let (from, to) = (m.from().relative_to(color), m.to().relative_to(color));
    let file_step = to.file().index() as i32 - from.file().index() as i32;
    let rank_step = to.rank().index() as i32 - from.rank().index() as i32;
    let on_seventh = from.rank() == Rank::SEVENTH;
    match (rank_step, file_step, m.promotion()) {
        (1, -1..=1, Some(promo)) if on_seventh && promo != Role::Pawn && promo != Role::King => {
            Some(((file_step + 1) * 4) as u8 + promo.index() as u8 - 1)
        }
        (1, -1..=1, None) if !on_seventh && from.rank() != Rank::FIRST => Some((file_step + 1) as u8),
        (2, 0, None) if from.rank() == Rank::SECOND => Some(3),
        _ => None,
    }
}

/// The code of `m` in `pos`. Expects a legal move; checks that the mover is the side to move's
/// ([`MoveCodeError::PieceMismatch`]) and that its role can make the step
/// ([`MoveCodeError::InvalidParts`]).
///
/// ```
/// use chessbits::codec::moves::per_square::{encode, PerSquareCode};
/// use chessbits::notation::uci::parse_uci;
/// use chessbits::position::Position;
/// let pos = Position::startpos();
/// assert_eq!(encode(&pos, parse_uci(&pos, "a2a3").unwrap()), Ok(PerSquareCode::Byte(1)));
/// ```
pub fn encode(pos: &Position, m: Move) -> Result<PerSquareCode, MoveCodeError> {
    let us = pos.turn();
    let from = m.from();
    let role = match pos.piece_at(from) {
        Some(Piece { color, role }) if color == us => role,
        _ => return Err(MoveCodeError::PieceMismatch(from)),
    };
    let local = piece_move_index(us, role, m).ok_or(MoveCodeError::InvalidParts("the piece cannot make that step"))?;
    if !fits_in_byte(pos) {
        return Ok(PerSquareCode::Wide(m.bits()));
    }
    let mut offset = 0u32;
    for &lower in Role::ALL.iter().take(role.index()) {
        offset += ours(pos, lower).count() * u32::from(bound(pos, lower));
    }
    let before = Bitboard((1u64 << from.index()) - 1);
    offset += (ours(pos, role) & before).count() * u32::from(bound(pos, role));
    let code = offset + u32::from(local);
    u8::try_from(code)
        .map(PerSquareCode::Byte)
        .map_err(|_| MoveCodeError::CodeOutOfRange { code, limit: 256 })
}

/// The legal move of `pos` that `code` names. The code's width must be the one the position
/// calls for ([`MoveCodeError::CodeOutOfRange`] otherwise); a code naming no move or an illegal
/// one is an error too.
///
/// ```
/// use chessbits::codec::moves::per_square::{decode, PerSquareCode};
/// use chessbits::codec::moves::MoveCodeError;
/// use chessbits::position::Position;
/// let pos = Position::startpos();
/// assert_eq!(decode(&pos, PerSquareCode::Byte(1)).unwrap().to_string(), "a2a3");
/// // 0 = a2 to the left: off the board.
/// assert!(matches!(decode(&pos, PerSquareCode::Byte(0)), Err(MoveCodeError::InvalidParts(_))));
/// // 2 = a2xb3: nothing to capture.
/// assert!(matches!(decode(&pos, PerSquareCode::Byte(2)), Err(MoveCodeError::IllegalMove(_))));
/// ```
pub fn decode(pos: &Position, code: PerSquareCode) -> Result<Move, MoveCodeError> {
    let m = match (code, fits_in_byte(pos)) {
        (PerSquareCode::Byte(b), true) => decode_index(pos, u32::from(b))?,
        (PerSquareCode::Wide(w), false) => Move::from_bits(w).ok_or(MoveCodeError::CodeOutOfRange {
            code: w.into(),
            limit: u16::MAX.into(),
        })?,
        (PerSquareCode::Byte(b), false) => {
            return Err(MoveCodeError::CodeOutOfRange {
                code: b.into(),
                limit: 0,
            })
        }
        (PerSquareCode::Wide(w), true) => {
            return Err(MoveCodeError::CodeOutOfRange {
                code: w.into(),
                limit: 256,
            })
        }
    };
    if pos.is_legal(m) {
        Ok(m)
    } else {
        Err(MoveCodeError::IllegalMove(m))
    }
}

/// Appends the code of `m` to `out` (one or two bytes).
///
/// ```
/// use chessbits::codec::moves::per_square::{read, write};
/// use chessbits::notation::uci::parse_uci;
/// use chessbits::position::Position;
/// let pos = Position::startpos();
/// let m = parse_uci(&pos, "e2e4").unwrap();
/// let mut out = Vec::new();
/// write(&pos, m, &mut out).unwrap();
/// assert_eq!(read(&pos, &out), Ok((m, 1)));
/// ```
pub fn write(pos: &Position, m: Move, out: &mut Vec<u8>) -> Result<(), MoveCodeError> {
    out.extend(encode(pos, m)?.to_bytes());
    Ok(())
}

/// Reads one code from the start of `bytes`: the move and the number of bytes used.
///
/// ```
/// use chessbits::codec::moves::per_square::read;
/// use chessbits::codec::moves::MoveCodeError;
/// use chessbits::position::Position;
/// assert_eq!(read(&Position::startpos(), &[]), Err(MoveCodeError::UnexpectedEnd));
/// ```
pub fn read(pos: &Position, bytes: &[u8]) -> Result<(Move, usize), MoveCodeError> {
    let (code, used) = if fits_in_byte(pos) {
        (
            PerSquareCode::Byte(*bytes.first().ok_or(MoveCodeError::UnexpectedEnd)?),
            1,
        )
    } else {
        match bytes {
            [high, low, ..] => (PerSquareCode::Wide(u16::from_be_bytes([*high, *low])), 2),
            _ => return Err(MoveCodeError::UnexpectedEnd),
        }
    };
    Ok((decode(pos, code)?, used))
}

/// The codes of a game's moves from `start`, concatenated. Every move must be legal where it is
/// played ([`MoveCodeError::IllegalMove`]). The stream needs no length: [`decode_game`] reads
/// codes until the bytes run out.
///
/// ```
/// use chessbits::codec::moves::per_square::{decode_game, encode_game};
/// use chessbits::notation::uci::parse_uci;
/// use chessbits::position::Position;
/// let mut pos = Position::startpos();
/// let mut moves = Vec::new();
/// for uci in ["e2e4", "e7e5", "g1f3"] {
///     let m = parse_uci(&pos, uci).unwrap();
///     pos.play_unchecked(m);
///     moves.push(m);
/// }
/// let bytes = encode_game(&Position::startpos(), &moves).unwrap();
/// assert_eq!(bytes.len(), 3);
/// assert_eq!(decode_game(&Position::startpos(), &bytes), Ok(moves));
/// ```
pub fn encode_game(start: &Position, moves: &[Move]) -> Result<Vec<u8>, MoveCodeError> {
    let mut pos = start.clone();
    let mut out = Vec::with_capacity(moves.len());
    for &m in moves {
        if !pos.is_legal(m) {
            return Err(MoveCodeError::IllegalMove(m));
        }
        write(&pos, m, &mut out)?;
        pos.play_unchecked(m);
    }
    Ok(out)
}

/// The moves of a stream written by [`encode_game`].
///
/// ```
/// use chessbits::codec::moves::per_square::decode_game;
/// use chessbits::position::Position;
/// assert!(decode_game(&Position::startpos(), &[255]).is_err());
/// ```
pub fn decode_game(start: &Position, mut bytes: &[u8]) -> Result<Vec<Move>, MoveCodeError> {
    let mut pos = start.clone();
    let mut moves = Vec::with_capacity(bytes.len());
    while !bytes.is_empty() {
        let (m, used) = read(&pos, bytes)?;
        bytes = bytes.get(used..).unwrap_or_default();
        pos.play_unchecked(m);
        moves.push(m);
    }
    Ok(moves)
}

/// The side to move's pieces of `role`.
fn ours(pos: &Position, role: Role) -> Bitboard {
    pos.board().by_piece(Piece::new(pos.turn(), role))
}

/// The move numbered `index` among the side to move's ranges, before the legality check.
fn decode_index(pos: &Position, index: u32) -> Result<Move, MoveCodeError> {
    let out_of_range = MoveCodeError::CodeOutOfRange {
        code: index,
        limit: total_bound(pos),
    };
    let mut rest = index;
    for role in Role::ALL {
        let pieces = ours(pos, role);
        let bound = u32::from(bound(pos, role));
        let span = pieces.count() * bound;
        if rest >= span {
            rest -= span;
            continue;
        }
        let from = pieces.into_iter().nth((rest / bound) as usize).ok_or(out_of_range)?;
        return piece_move(pos, role, from, (rest % bound) as u8);
    }
    Err(out_of_range)
}

/// The move with `piece_move_index` `local` of our `role` on `from`, its kind read off the board.
fn piece_move(pos: &Position, role: Role, from: Square, local: u8) -> Result<Move, MoveCodeError> {
    let us = pos.turn();
    let no_step = MoveCodeError::InvalidParts("the piece has no move with that number");
    if role == Role::King && local >= 8 {
        let side = if local == 8 {
            CastlingSide::KingSide
        } else {
            CastlingSide::QueenSide
        };
        let rook = pos.castling().rook(us, side, from).ok_or(no_step)?;
        return Ok(Move::castle(from, rook, side));
    }
    let capture = pos.board().by_color(!us);
    if role != Role::Pawn {
        let to = nth_target(role, from, local.into()).ok_or(no_step)?;
        let kind = if capture.contains(to) {
            MoveKind::Capture
        } else {
            MoveKind::Quiet
        };
        return Ok(Move::new(from, to, kind));
    }
    let rel_from = from.relative_to(us);
    let promoting = rel_from.rank() == Rank::SEVENTH;
    let (step, promotion) = if promoting {
        (local / 4, Some(Role::PROMOTIONS[usize::from(local % 4)]))
    } else {
        (local, None)
    };
    let rel_to = match step {
        0 if rel_from.file().index() > 0 => rel_from.offset(7),
        1 => rel_from.offset(8),
        2 if rel_from.file().index() < 7 => rel_from.offset(9),
        3 if rel_from.rank() == Rank::SECOND => rel_from.offset(16),
        _ => None,
    }
    .ok_or(no_step)?;
    let to = rel_to.relative_to(us);
    let captures = capture.contains(to);
    let kind = match promotion {
        Some(promo) => MoveKind::promotion(promo, captures),
        None if step == 3 => MoveKind::DoublePush,
        None if step != 1 && pos.ep_square() == Some(to) => MoveKind::EnPassant,
        None if captures => MoveKind::Capture,
        None => MoveKind::Quiet,
    };
    Ok(Move::new(from, to, kind))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::Color;

    #[test]
    fn piece_move_indices_stay_below_the_bounds_and_invert() {
        for role in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen, Role::King] {
            let mut max = 0;
            for from in Square::all() {
                for to in Square::all() {
                    if let Some(i) = piece_move_index(Color::White, role, Move::new(from, to, MoveKind::Quiet)) {
                        assert_eq!(nth_target(role, from, i.into()), Some(to));
                        max = max.max(i + 1);
                    }
                }
            }
            let castles = if role == Role::King { 2 } else { 0 };
            assert_eq!(u16::from(max) + castles, BOUNDS[role.index()], "{role:?}");
        }
    }

    #[test]
    fn pawn_indices_cover_0_to_11() {
        let mut seen = [0u32; 12];
        for color in Color::ALL {
            for from in Square::all() {
                for to in Square::all() {
                    for kind in (0..16).filter_map(MoveKind::from_code).filter(|k| !k.is_castle()) {
                        if let Some(i) = piece_move_index(color, Role::Pawn, Move::new(from, to, kind)) {
                            seen[usize::from(i)] += 1;
                        }
                    }
                }
            }
        }
    }
}
