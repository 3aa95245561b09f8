//! Attack tables for every piece.
//!
//! Leapers (knight, king, pawn) and the lines between squares are plain tables; sliders use one
//! shared lookup table indexed by PEXT or a magic multiply (see [`sliders`]). All tables are
//! built by `const fn` at compile time: no start-up cost, no generated source.
//!
//! ```
//! use chessbits::attacks;
//! use chessbits::types::{Bitboard, Square};
//! assert_eq!(attacks::knight(Square::A1).count(), 2);
//! let blockers = Bitboard::from_square(Square::A4);
//! assert_eq!(attacks::rook(Square::A1, blockers).count(), 3 + 7);
//! assert_eq!(attacks::between(Square::A1, Square::D4).count(), 2);
//! ```

mod leapers;
mod magics;
mod rays;
pub mod sliders;

pub use leapers::{king, knight, pawn};
pub use rays::{aligned, between, line};
pub use sliders::{bishop, rook};

use crate::types::{Bitboard, Color, Piece, Role, Square};

/// Queen attacks from `sq` with `occupied` blocking.
#[inline(always)]
pub fn queen(sq: Square, occupied: Bitboard) -> Bitboard {
    rook(sq, occupied) | bishop(sq, occupied)
}

/// The squares `piece` on `sq` attacks with `occupied` blocking.
#[inline]
pub fn attacks(piece: Piece, sq: Square, occupied: Bitboard) -> Bitboard {
    match piece.role {
        Role::Pawn => pawn(piece.color, sq),
        Role::Knight => knight(sq),
        Role::Bishop => bishop(sq, occupied),
        Role::Rook => rook(sq, occupied),
        Role::Queen => queen(sq, occupied),
        Role::King => king(sq),
    }
}

/// Where `role` of `color` on `sq` could move or capture on an empty board, ignoring pawn pushes.
#[inline]
pub fn empty_board(color: Color, role: Role, sq: Square) -> Bitboard {
    attacks(Piece::new(color, role), sq, Bitboard::EMPTY)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slider_tables_match_ray_walking() {
        let mut x = 0x1234_5678_9abc_def1u64;
        for _ in 0..20_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let occ = Bitboard(x & (x >> 3));
            let sq = Square::from_index_masked((x >> 58) as u32);
            assert_eq!(rook(sq, occ), sliders::rook_slow(sq, occ));
            assert_eq!(bishop(sq, occ), sliders::bishop_slow(sq, occ));
        }
    }

    #[test]
    fn leaper_counts() {
        let total: u32 = Square::all().map(|s| knight(s).count()).sum();
        assert_eq!(total, 336);
        let total: u32 = Square::all().map(|s| king(s).count()).sum();
        assert_eq!(total, 420);
        assert_eq!(pawn(Color::White, Square::E4).count(), 2);
        assert_eq!(pawn(Color::Black, Square::A5), Bitboard::from_square(Square::B4));
    }

    #[test]
    fn lines() {
        assert_eq!(line(Square::A1, Square::C3).count(), 8);
        assert!(line(Square::A1, Square::B3).is_empty());
        assert!(aligned(Square::A1, Square::H8, Square::D4));
        assert_eq!(between(Square::E1, Square::E8).count(), 6);
        assert!(between(Square::E1, Square::E2).is_empty());
    }
}
