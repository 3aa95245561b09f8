//! Zobrist keys with the Polyglot random numbers, so keys equal Polyglot book keys.

use super::polyglot_keys::POLYGLOT_RANDOM;
use crate::types::{CastlingRights, CastlingSide, Color, File, Piece, Square};

const CASTLING_OFFSET: usize = 768;
const EN_PASSANT_OFFSET: usize = 772;
const TURN_OFFSET: usize = 780;

/// The key of `piece` standing on `sq`.
#[inline(always)]
pub fn piece_key(piece: Piece, sq: Square) -> u64 {
    PIECE_KEYS[piece.index()][sq.index()]
}

/// The piece keys rearranged by [`Piece::index`], so that a lookup is one indexed load (both
/// indices are provably in range: no bounds check, no arithmetic).
static PIECE_KEYS: [[u64; 64]; 12] = piece_keys();

const fn piece_keys() -> [[u64; 64]; 12] {
    let mut keys = [[0; 64]; 12];
    let mut piece = 0;
    while piece < 12 {
        // Piece::index is color * 6 + role (White 0); Polyglot orders kinds black pawn, white
        // pawn, black knight, ...: kind = 2 * role + (color == White).
        let (color, role) = (piece / 6, piece % 6);
        let kind = 2 * role + (color == 0) as usize;
        let mut sq = 0;
        while sq < 64 {
            keys[piece][sq] = POLYGLOT_RANDOM[64 * kind + sq];
            sq += 1;
        }
        piece += 1;
    }
    keys
}

/// The key of the piece with mailbox code `code` (see `board::code`) on `sq`; zero for the
/// unused codes, [`super::board::code::EMPTY`] included.
#[inline(always)]
pub(crate) fn code_key(code: u8, sq: Square) -> u64 {
    CODE_KEYS[(code & 15) as usize][sq.index()]
}

/// [`PIECE_KEYS`] indexed by mailbox code (`color << 3 | role`), so that make/unmake need no
/// decoding and no bounds check.
static CODE_KEYS: [[u64; 64]; 16] = code_keys();

const fn code_keys() -> [[u64; 64]; 16] {
    let by_piece = piece_keys();
    let mut keys = [[0; 64]; 16];
    let mut piece = 0;
    while piece < 12 {
        let (color, role) = (piece / 6, piece % 6);
        keys[color << 3 | role] = by_piece[piece];
        piece += 1;
    }
    keys
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
