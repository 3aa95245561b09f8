//! A set of squares in one 64-bit word.
//!
//! Bit `i` stands for the square with index `i` (a1 = bit 0, h8 = bit 63).

use core::fmt;
use core::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not, Sub};

use super::geometry::{FILE_A, RANK_1};
use super::{Color, File, Rank, Square};

/// A set of squares.
///
/// ```
/// use chessbits::types::{Bitboard, Square};
/// let bb = Bitboard::from_square(Square::E4) | Bitboard::from_square(Square::A1);
/// assert_eq!(bb.count(), 2);
/// assert_eq!(bb.into_iter().collect::<Vec<_>>(), vec![Square::A1, Square::E4]);
/// ```
#[derive(Copy, Clone, PartialEq, Eq, Hash, Default)]
pub struct Bitboard(pub u64);

impl Bitboard {
    pub const EMPTY: Bitboard = Bitboard(0);
    pub const FULL: Bitboard = Bitboard(!0);
    pub const DARK_SQUARES: Bitboard = Bitboard(0xaa55_aa55_aa55_aa55);
    pub const LIGHT_SQUARES: Bitboard = Bitboard(0x55aa_55aa_55aa_55aa);
    /// The first and eighth ranks.
    pub const BACKRANKS: Bitboard = Bitboard(0xff00_0000_0000_00ff);

    #[inline(always)]
    pub const fn from_square(sq: Square) -> Bitboard {
        Bitboard(1 << sq.index())
    }

    #[inline(always)]
    pub const fn from_file(file: File) -> Bitboard {
        Bitboard(FILE_A << file.index())
    }

    #[inline(always)]
    pub const fn from_rank(rank: Rank) -> Bitboard {
        Bitboard(RANK_1 << (8 * rank.index()))
    }

    /// The rank seen from `color`'s side, e.g. `relative_rank(Black, Rank::SECOND)` is the seventh.
    #[inline(always)]
    pub const fn relative_rank(color: Color, rank: Rank) -> Bitboard {
        Bitboard::from_rank(rank.relative_to(color))
    }

    #[inline(always)]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    #[inline(always)]
    pub const fn any(self) -> bool {
        self.0 != 0
    }

    #[inline(always)]
    pub const fn contains(self, sq: Square) -> bool {
        self.0 & (1 << sq.index()) != 0
    }

    #[inline(always)]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// More than one square set.
    #[inline(always)]
    pub const fn more_than_one(self) -> bool {
        self.0 & self.0.wrapping_sub(1) != 0
    }

    /// The lowest square, if any.
    #[inline(always)]
    pub const fn first(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Some(Square::from_index_masked(self.0.trailing_zeros()))
        }
    }

    /// The highest square, if any.
    #[inline(always)]
    pub const fn last(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Some(Square::from_index_masked(63 - self.0.leading_zeros()))
        }
    }

    /// The only square of a set with exactly one, else `None`.
    #[inline]
    pub const fn single_square(self) -> Option<Square> {
        if self.0 != 0 && !self.more_than_one() {
            self.first()
        } else {
            None
        }
    }

    #[inline(always)]
    pub const fn with(self, sq: Square) -> Bitboard {
        Bitboard(self.0 | (1 << sq.index()))
    }

    #[inline(always)]
    pub const fn without(self, sq: Square) -> Bitboard {
        Bitboard(self.0 & !(1 << sq.index()))
    }

    /// Each square moved one rank towards the eighth rank; squares on it fall off.
    #[inline(always)]
    pub const fn north(self) -> Bitboard {
        Bitboard(self.0 << 8)
    }

    /// Each square moved one rank towards the first rank.
    #[inline(always)]
    pub const fn south(self) -> Bitboard {
        Bitboard(self.0 >> 8)
    }

    /// One rank forward from `color`'s side.
    #[inline(always)]
    pub const fn forward(self, color: Color) -> Bitboard {
        match color {
            Color::White => self.north(),
            Color::Black => self.south(),
        }
    }

    /// One rank backward from `color`'s side.
    #[inline(always)]
    pub const fn backward(self, color: Color) -> Bitboard {
        match color {
            Color::White => self.south(),
            Color::Black => self.north(),
        }
    }

    /// Mirrored top-bottom.
    #[inline(always)]
    pub const fn flip_vertical(self) -> Bitboard {
        Bitboard(self.0.swap_bytes())
    }

    /// Every subset of `self`, the empty set first (carry-rippler enumeration).
    pub fn subsets(self) -> impl Iterator<Item = Bitboard> {
        let mask = self.0;
        let mut next = Some(0u64);
        core::iter::from_fn(move || {
            let cur = next?;
            let n = cur.wrapping_sub(mask) & mask;
            next = if n == 0 { None } else { Some(n) };
            Some(Bitboard(cur))
        })
    }
}

/// Iterates the squares of a set, lowest first.
#[derive(Clone)]
pub struct BitboardIter(u64);

impl Iterator for BitboardIter {
    type Item = Square;
    #[inline(always)]
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            let sq = Square::from_index_masked(self.0.trailing_zeros());
            self.0 &= self.0 - 1;
            Some(sq)
        }
    }
    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for BitboardIter {}

impl IntoIterator for Bitboard {
    type Item = Square;
    type IntoIter = BitboardIter;
    #[inline(always)]
    fn into_iter(self) -> BitboardIter {
        BitboardIter(self.0)
    }
}

impl FromIterator<Square> for Bitboard {
    fn from_iter<I: IntoIterator<Item = Square>>(iter: I) -> Bitboard {
        iter.into_iter().fold(Bitboard::EMPTY, |bb, sq| bb.with(sq))
    }
}

impl From<Square> for Bitboard {
    #[inline(always)]
    fn from(sq: Square) -> Bitboard {
        Bitboard::from_square(sq)
    }
}

macro_rules! bit_ops {
    ($($trait:ident $method:ident $assign_trait:ident $assign_method:ident $op:tt),*) => {$(
        impl $trait for Bitboard {
            type Output = Bitboard;
            #[inline(always)]
            fn $method(self, rhs: Bitboard) -> Bitboard { Bitboard(self.0 $op rhs.0) }
        }
        impl $assign_trait for Bitboard {
            #[inline(always)]
            fn $assign_method(&mut self, rhs: Bitboard) { self.0 = self.0 $op rhs.0; }
        }
    )*};
}

bit_ops!(BitAnd bitand BitAndAssign bitand_assign &, BitOr bitor BitOrAssign bitor_assign |, BitXor bitxor BitXorAssign bitxor_assign ^);

impl Not for Bitboard {
    type Output = Bitboard;
    #[inline(always)]
    fn not(self) -> Bitboard {
        Bitboard(!self.0)
    }
}

/// Set difference: the squares of `self` not in `rhs`.
impl Sub for Bitboard {
    type Output = Bitboard;
    #[inline(always)]
    fn sub(self, rhs: Bitboard) -> Bitboard {
        Bitboard(self.0 & !rhs.0)
    }
}

impl fmt::Debug for Bitboard {
    /// An 8×8 picture, eighth rank first.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "Bitboard({:#018x})", self.0)?;
        for rank in (0..8).rev() {
            for file in 0..8 {
                let set = self.0 >> (rank * 8 + file) & 1 != 0;
                f.write_str(if set { "1" } else { "." })?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn iteration_and_counts() {
        let bb: Bitboard = [Square::H8, Square::A1, Square::D4].into_iter().collect();
        assert_eq!(bb.count(), 3);
        assert_eq!(bb.first(), Some(Square::A1));
        assert_eq!(bb.last(), Some(Square::H8));
        assert!(bb.more_than_one());
        assert_eq!(Bitboard::from_square(Square::C3).single_square(), Some(Square::C3));
        assert_eq!(bb.into_iter().len(), 3);
    }

    #[test]
    fn subsets_enumerates_all() {
        let mask = Bitboard(0b1011_0000_0001);
        let subsets: Vec<_> = mask.subsets().collect();
        assert_eq!(subsets.len(), 16);
        assert!(subsets.iter().all(|s| (*s - mask).is_empty()));
    }

    #[test]
    fn shifts() {
        assert_eq!(
            Bitboard::from_square(Square::E2).north(),
            Bitboard::from_square(Square::E3)
        );
        assert_eq!(
            Bitboard::from_square(Square::E2).forward(Color::Black),
            Bitboard::from_square(Square::E1)
        );
        assert_eq!(
            Bitboard::from_square(Square::A1).flip_vertical(),
            Bitboard::from_square(Square::A8)
        );
    }
}
