//! Knight, king and pawn attack tables, built at compile time.

use crate::types::geometry::{self, Step, KNIGHT_STEPS, PAWN_CAPTURE_STEPS, RAY_STEPS};
use crate::types::{Bitboard, Color, Square};

const fn leaper_table(steps: &[Step]) -> [Bitboard; 64] {
    let mut table = [Bitboard::EMPTY; 64];
    let mut sq = 0;
    while sq < 64 {
        table[sq] = Bitboard(geometry::leaper(sq, steps));
        sq += 1;
    }
    table
}

pub(super) static KNIGHT: [Bitboard; 64] = leaper_table(&KNIGHT_STEPS);
pub(super) static KING: [Bitboard; 64] = leaper_table(&RAY_STEPS);
pub(super) static PAWN: [[Bitboard; 64]; 2] = [
    leaper_table(&PAWN_CAPTURE_STEPS[0]),
    leaper_table(&PAWN_CAPTURE_STEPS[1]),
];

#[inline(always)]
pub fn knight(sq: Square) -> Bitboard {
    KNIGHT[sq.index()]
}

#[inline(always)]
pub fn king(sq: Square) -> Bitboard {
    KING[sq.index()]
}

/// The squares a pawn of `color` on `sq` attacks.
#[inline(always)]
pub fn pawn(color: Color, sq: Square) -> Bitboard {
    PAWN[color.index()][sq.index()]
}
