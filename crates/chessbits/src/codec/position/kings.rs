//! Both kings and the standard castling rights in one 12-bit number.
//!
//! The idea is the seed's note on the multi-table approach: two kings stand on distinct squares that
//! do not touch, which leaves 3,612 placements; castling is possible only with a king on its home
//! square, which adds 357 more; 3,969 values fit in 12 bits. The six bits of each king's square
//! therefore carry the four castling bits for free.
//!
//! # Numbering
//!
//! A castling option per color is 0 (no right), 1 (the a-file rook only), 2 (the h-file rook only)
//! or 3 (both). With `valid(k, o)` meaning `k != o` and the squares do not touch:
//!
//! | index | placement |
//! |---|---|
//! | 0 – 3,611 | no rights; the pairs (white king, black king) with `valid`, in order of white king then black king square |
//! | 3,612 – 3,785 | white option `w` 1–3, white king e1, no black right: `3612 + (w-1)·58 + r`, `r` the rank of the black king among the 58 valid squares |
//! | 3,786 – 3,959 | black option `b` 1–3, black king e8, no white right: `3786 + (b-1)·58 + r`, `r` the rank of the white king among the 58 valid squares |
//! | 3,960 – 3,968 | both have rights, kings on e1 and e8: `3960 + (w-1)·3 + (b-1)` |
//!
//! Values from 3,969 to 4,095 are invalid.

use crate::attacks;
use crate::types::{Bitboard, CastlingRights, Color, Square};

/// Width of the number.
pub(super) const BITS: u32 = 12;

const NO_RIGHTS: u16 = 3612;
const WHITE_ONLY: u16 = NO_RIGHTS;
const BLACK_ONLY: u16 = WHITE_ONLY + 3 * 58;
const BOTH: u16 = BLACK_ONLY + 3 * 58;
const END: u16 = BOTH + 9;

/// Squares where the other king may stand when one stands on `king`.
fn valid_partners(king: Square) -> Bitboard {
    !(attacks::king(king).with(king))
}

/// The castling option of `color` (see the module documentation), if its rights are standard: only
/// the corner rooks of its back rank, with the king on the e-file.
fn option(castling: CastlingRights, color: Color, king: Square) -> Option<u16> {
    let rooks = castling.rooks_of(color);
    if rooks.is_empty() {
        return Some(0);
    }
    let home = Square::E1.relative_to(color);
    let a_rook = Square::A1.relative_to(color);
    let h_rook = Square::H1.relative_to(color);
    if king != home || rooks.without(a_rook).without(h_rook).any() {
        return None;
    }
    Some(u16::from(rooks.contains(a_rook)) | u16::from(rooks.contains(h_rook)) << 1)
}

fn rights(color: Color, option: u16) -> CastlingRights {
    let mut rights = CastlingRights::NONE;
    if option & 1 != 0 {
        rights = rights.with_square(Square::A1.relative_to(color));
    }
    if option & 2 != 0 {
        rights = rights.with_square(Square::H1.relative_to(color));
    }
    rights
}

/// Rank of `sq` among the squares of `set` (how many of them are lower).
fn rank_in(set: Bitboard, sq: Square) -> u16 {
    (set & Bitboard((1u64 << sq.index()) - 1)).count() as u16
}

/// The `n`-th lowest square of `set`.
fn nth_in(set: Bitboard, n: u16) -> Option<Square> {
    set.into_iter().nth(usize::from(n))
}

/// The number for the kings on `white` and `black` with `castling`, or `None` if the kings touch or
/// share a square or the rights are not standard ones.
pub(super) fn encode(white: Square, black: Square, castling: CastlingRights) -> Option<u16> {
    if !valid_partners(white).contains(black) {
        return None;
    }
    let w = option(castling, Color::White, white)?;
    let b = option(castling, Color::Black, black)?;
    Some(match (w, b) {
        (0, 0) => {
            let before: u16 = Square::all()
                .take(white.index())
                .map(|k| valid_partners(k).count() as u16)
                .sum();
            before + rank_in(valid_partners(white), black)
        }
        (w, 0) => WHITE_ONLY + (w - 1) * 58 + rank_in(valid_partners(Square::E1), black),
        (0, b) => BLACK_ONLY + (b - 1) * 58 + rank_in(valid_partners(Square::E8), white),
        (w, b) => BOTH + (w - 1) * 3 + (b - 1),
    })
}

/// The kings (white, black) and rights of a number, or `None` for the unused values.
pub(super) fn decode(index: u16) -> Option<(Square, Square, CastlingRights)> {
    if index < NO_RIGHTS {
        let mut left = index;
        for white in Square::all() {
            let partners = valid_partners(white);
            let count = partners.count() as u16;
            if left < count {
                return Some((white, nth_in(partners, left)?, CastlingRights::NONE));
            }
            left -= count;
        }
        None
    } else if index < BLACK_ONLY {
        let (w, r) = ((index - WHITE_ONLY) / 58 + 1, (index - WHITE_ONLY) % 58);
        let black = nth_in(valid_partners(Square::E1), r)?;
        Some((Square::E1, black, rights(Color::White, w)))
    } else if index < BOTH {
        let (b, r) = ((index - BLACK_ONLY) / 58 + 1, (index - BLACK_ONLY) % 58);
        let white = nth_in(valid_partners(Square::E8), r)?;
        Some((white, Square::E8, rights(Color::Black, b)))
    } else if index < END {
        let (w, b) = ((index - BOTH) / 3 + 1, (index - BOTH) % 3 + 1);
        let castling = CastlingRights::from_rooks(rights(Color::White, w).rooks() | rights(Color::Black, b).rooks());
        Some((Square::E1, Square::E8, castling))
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_number_round_trips_and_the_count_is_the_seeds() {
        let mut valid = 0;
        for index in 0..1u16 << BITS {
            if let Some((white, black, castling)) = decode(index) {
                assert_eq!(encode(white, black, castling), Some(index));
                valid += 1;
            }
        }
        assert_eq!(valid, END);
        assert_eq!(NO_RIGHTS, 3612);
        assert_eq!(valid_partners(Square::E1).count(), 58);
    }

    #[test]
    fn touching_kings_and_odd_rights_are_refused() {
        assert_eq!(encode(Square::E1, Square::E2, CastlingRights::NONE), None);
        assert_eq!(encode(Square::E1, Square::E1, CastlingRights::NONE), None);
        let b1 = CastlingRights::NONE.with_square(Square::B1);
        assert_eq!(encode(Square::E1, Square::E8, b1), None);
        let h1 = CastlingRights::NONE.with_square(Square::H1);
        assert_eq!(encode(Square::G1, Square::E8, h1), None);
    }
}
