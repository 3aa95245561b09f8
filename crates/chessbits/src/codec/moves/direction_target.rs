//! Direction-target: a move written as its target square and the direction it came from; the
//! from-square is found on the board by ray lookup and bitscan.
//!
//! # Layout (12 bits in a `u16`, bits 12–15 zero)
//!
//! ```text
//!  11  10 9       6 5        0
//! +------+---------+----------+
//! | spec |  dir    |  target  |
//! +------+---------+----------+
//! ```
//!
//! - `target`: the square index (a1 = 0 … h8 = 63); for a castle, the castling rook's square
//!   (the move is "king takes own rook", as in [`Move`]).
//! - `dir`: the direction of travel from the from-square to the target:
//!   0–7 the rays N, NE, E, SE, S, SW, W, NW (north = towards the eighth rank, east = towards the
//!   h-file); 8–15 the knight jumps NNE (+1 file, +2 ranks), ENE (+2, +1), ESE (+2, −1),
//!   SSE (+1, −2), SSW (−1, −2), WSW (−2, −1), WNW (−2, +1), NNW (−1, +2).
//! - `spec`: for a pawn move onto the last rank, the promotion: knight 0, bishop 1, rook 2,
//!   queen 3. Otherwise 0 for an ordinary move, 1 for castling king side, 2 for castling queen
//!   side (3 is unused).
//!
//! # Decoding
//!
//! For a knight direction the from-square is the target minus the jump. For a ray direction it
//! is the nearest occupied square from the target looking back against the direction: the
//! empty-board ray from the target in the opposite direction, intersected with the occupancy,
//! bitscanned forward ([`Bitboard::first`]) when that ray runs towards higher squares (N, NE, E,
//! NW) and in reverse ([`Bitboard::last`]) otherwise. Every legal move has an empty path, so
//! this is its from-square; for a castle the squares between king and rook are empty too. The
//! move's kind (capture, en passant, double push, promotion) is then read off the board, and the
//! move is checked to be legal.
//!
//! ```
//! use chessbits::codec::moves::direction_target::{decode, encode};
//! use chessbits::notation::uci::parse_uci;
//! use chessbits::position::Position;
//! let pos = Position::startpos();
//! let m = parse_uci(&pos, "g1f3").unwrap();
//! // f3 = 21, NNW = 15: 15 << 6 | 21.
//! assert_eq!(encode(&pos, m), Ok(15 << 6 | 21));
//! assert_eq!(decode(&pos, 15 << 6 | 21), Ok(m));
//! ```

use super::tables::{direction, knight_step, ray};
use super::MoveCodeError;
use crate::moves::{Move, MoveKind};
use crate::position::Position;
use crate::types::{Bitboard, CastlingSide, Piece, Rank, Role, Square};

/// Codes run below this: 12 bits.
///
/// ```
/// use chessbits::codec::moves::direction_target::{decode, CODE_LIMIT};
/// use chessbits::position::Position;
/// assert!(decode(&Position::startpos(), CODE_LIMIT).is_err());
/// ```
pub const CODE_LIMIT: u16 = 1 << 12;

/// `spec` value of a king-side castle.
const KING_SIDE: u16 = 1;
/// `spec` value of a queen-side castle.
const QUEEN_SIDE: u16 = 2;

/// The 12-bit code of `m` in `pos`. Checks that a piece of the side to move stands on the
/// from-square ([`MoveCodeError::PieceMismatch`]) and that the step is a ray or knight step
/// ([`MoveCodeError::InvalidParts`]); legality is left to the decoder.
///
/// ```
/// use chessbits::codec::moves::direction_target::encode;
/// use chessbits::moves::Move;
/// use chessbits::notation::uci::parse_uci;
/// use chessbits::position::Position;
/// let pos = Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").unwrap();
/// let castle = parse_uci(&pos, "e1c1").unwrap();
/// // Target a1 (the rook), direction W = 6, spec 2 = queen side.
/// assert_eq!(encode(&pos, castle), Ok(2 << 10 | 6 << 6));
/// ```
pub fn encode(pos: &Position, m: Move) -> Result<u16, MoveCodeError> {
    let (from, to) = (m.from(), m.to());
    match pos.piece_at(from) {
        Some(piece) if piece.color == pos.turn() => {}
        _ => return Err(MoveCodeError::PieceMismatch(from)),
    }
    let dir = direction(from, to).ok_or(MoveCodeError::InvalidParts("not a ray or knight step"))?;
    let spec = match (m.castling_side(), m.promotion()) {
        (Some(CastlingSide::KingSide), _) => KING_SIDE,
        (Some(CastlingSide::QueenSide), _) => QUEEN_SIDE,
        (None, Some(role)) => role.index() as u16 - 1,
        (None, None) => 0,
    };
    Ok(spec << 10 | u16::from(dir) << 6 | to.index() as u16)
}

/// The legal move of `pos` that `code` names. Fails on reserved bits
/// ([`MoveCodeError::CodeOutOfRange`]), on a line or jump that leads to no piece of the side to
/// move, on a `spec` that does not fit the piece, and on illegal moves.
///
/// ```
/// use chessbits::codec::moves::direction_target::decode;
/// use chessbits::codec::moves::MoveCodeError;
/// use chessbits::position::Position;
/// let pos = Position::startpos();
/// // Target e4 (28), direction N (0): the e2 pawn's double push.
/// assert_eq!(decode(&pos, 28).unwrap().to_string(), "e2e4");
/// // Target e5 (36), direction N: the first piece south of e5 is the e2 pawn, which cannot go there.
/// assert!(matches!(decode(&pos, 36), Err(MoveCodeError::IllegalMove(_))));
/// assert!(matches!(decode(&pos, 1 << 12), Err(MoveCodeError::CodeOutOfRange { .. })));
/// ```
pub fn decode(pos: &Position, code: u16) -> Result<Move, MoveCodeError> {
    if code >= CODE_LIMIT {
        return Err(MoveCodeError::CodeOutOfRange {
            code: code.into(),
            limit: CODE_LIMIT.into(),
        });
    }
    let to = Square::from_index_masked(u32::from(code & 63));
    let dir = usize::from((code >> 6) & 15);
    let spec = code >> 10;
    let from = origin(pos, to, dir).ok_or(MoveCodeError::InvalidParts("no piece on that line or jump"))?;
    let us = pos.turn();
    let role = match pos.piece_at(from) {
        Some(Piece { color, role }) if color == us => role,
        _ => return Err(MoveCodeError::PieceMismatch(from)),
    };
    let captures = pos.board().by_color(!us).contains(to);
    let promotes = role == Role::Pawn && to.rank() == Rank::EIGHTH.relative_to(us);
    let kind = match spec {
        _ if promotes => MoveKind::promotion(Role::PROMOTIONS[usize::from(spec & 3)], captures),
        KING_SIDE | QUEEN_SIDE if role == Role::King => MoveKind::castle(if spec == KING_SIDE {
            CastlingSide::KingSide
        } else {
            CastlingSide::QueenSide
        }),
        0 if captures => MoveKind::Capture,
        0 if role == Role::Pawn && from.distance(to) == 2 => MoveKind::DoublePush,
        0 if role == Role::Pawn && pos.ep_square() == Some(to) && from.file() != to.file() => MoveKind::EnPassant,
        0 => MoveKind::Quiet,
        _ => return Err(MoveCodeError::InvalidParts("special bits that do not fit the move")),
    };
    let m = Move::new(from, to, kind);
    if pos.is_legal(m) {
        Ok(m)
    } else {
        Err(MoveCodeError::IllegalMove(m))
    }
}

/// The from-square of a move reaching `to` in direction `dir` (0..16): the jump back for a
/// knight direction, the nearest occupied square back along the ray otherwise.
fn origin(pos: &Position, to: Square, dir: usize) -> Option<Square> {
    if dir >= 8 {
        return knight_step(to, (dir - 8 + 4) % 8);
    }
    let back = (dir + 4) % 8;
    let blockers = Bitboard(ray(back, to)) & pos.board().occupied();
    // N, NE, E and NW run towards higher square indices: the nearest blocker is the lowest.
    match back {
        0 | 1 | 2 | 7 => blockers.first(),
        _ => blockers.last(),
    }
}
