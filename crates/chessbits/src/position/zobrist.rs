//! Zobrist keys with the Polyglot random numbers, so keys equal Polyglot book keys.

use super::polyglot_keys::POLYGLOT_RANDOM;
use crate::types::{CastlingRights, CastlingSide, Color, File, Piece, Square};

const CASTLING_OFFSET: usize = 768;
const EN_PASSANT_OFFSET: usize = 772;
const TURN_OFFSET: usize = 780;

/// The key of `piece` standing on `sq`.
#[inline(always)]
pub fn piece_key(piece: Piece, sq: Square) -> u64 {
    // Polyglot orders kinds black pawn, white pawn, black knight, ...
    let kind = 2 * piece.role.index() + (piece.color == Color::White) as usize;
    POLYGLOT_RANDOM[(64 * kind + sq.index()) % CASTLING_OFFSET]
}

/// The key of one castling right.
#[inline(always)]
pub fn castling_key(color: Color, side: CastlingSide) -> u64 {
    POLYGLOT_RANDOM[CASTLING_OFFSET + 2 * color.index() + side.index()]
}

/// The key of an en passant square on `file` (only hashed when a capture is possible).
#[inline(always)]
pub fn en_passant_key(file: File) -> u64 {
    POLYGLOT_RANDOM[EN_PASSANT_OFFSET + file.index()]
}

/// Xored into the key when White is to move.
#[inline(always)]
pub fn white_to_move_key() -> u64 {
    POLYGLOT_RANDOM[TURN_OFFSET]
}

/// The key of a set of castling rights, given the kings' squares (a right's side is the side of
/// its king the rook stands on).
pub fn castling_rights_key(rights: CastlingRights, kings: [Option<Square>; 2]) -> u64 {
    let mut key = 0;
    for color in Color::ALL {
        let Some(king) = kings[color.index()] else { continue };
        for side in CastlingSide::ALL {
            if rights.has(color, side, king) {
                key ^= castling_key(color, side);
            }
        }
    }
    key
}
