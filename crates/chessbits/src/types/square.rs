//! Squares, files and ranks.
//!
//! Squares are numbered 0 (a1) to 63 (h8), rank-major: `index = rank * 8 + file`.

use core::fmt;
use core::str::FromStr;

use super::Color;

/// A file, `a` (0) to `h` (7).
///
/// ```
/// use chessbits::types::File;
/// assert_eq!(File::from_char('c'), Some(File::C));
/// assert_eq!(File::H.char(), 'h');
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct File(u8);

/// A rank, `1` (0) to `8` (7).
///
/// ```
/// use chessbits::types::Rank;
/// assert_eq!(Rank::from_char('8'), Some(Rank::EIGHTH));
/// assert_eq!(Rank::FIRST.index(), 0);
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Rank(u8);

impl File {
    pub const A: File = File(0);
    pub const B: File = File(1);
    pub const C: File = File(2);
    pub const D: File = File(3);
    pub const E: File = File(4);
    pub const F: File = File(5);
    pub const G: File = File(6);
    pub const H: File = File(7);
    pub const ALL: [File; 8] = [File(0), File(1), File(2), File(3), File(4), File(5), File(6), File(7)];

    /// The file with index `i` (0 to 7).
    #[inline]
    pub const fn new(i: u8) -> Option<File> {
        if i < 8 {
            Some(File(i))
        } else {
            None
        }
    }
    /// 0 (a) to 7 (h).
    #[inline(always)]
    pub const fn index(self) -> usize {
        (self.0 & 7) as usize
    }
    /// `'a'` to `'h'`.
    pub const fn char(self) -> char {
        (b'a' + self.0) as char
    }
    /// Parses `'a'` to `'h'`.
    pub const fn from_char(c: char) -> Option<File> {
        if c >= 'a' && c <= 'h' {
            Some(File(c as u8 - b'a'))
        } else {
            None
        }
    }
    /// The file mirrored left-right (a ↔ h).
    pub const fn flip(self) -> File {
        File(7 - self.0)
    }
}

impl Rank {
    pub const FIRST: Rank = Rank(0);
    pub const SECOND: Rank = Rank(1);
    pub const THIRD: Rank = Rank(2);
    pub const FOURTH: Rank = Rank(3);
    pub const FIFTH: Rank = Rank(4);
    pub const SIXTH: Rank = Rank(5);
    pub const SEVENTH: Rank = Rank(6);
    pub const EIGHTH: Rank = Rank(7);
    pub const ALL: [Rank; 8] = [Rank(0), Rank(1), Rank(2), Rank(3), Rank(4), Rank(5), Rank(6), Rank(7)];

    /// The rank with index `i` (0 to 7).
    #[inline]
    pub const fn new(i: u8) -> Option<Rank> {
        if i < 8 {
            Some(Rank(i))
        } else {
            None
        }
    }
    /// 0 (first rank) to 7 (eighth rank).
    #[inline(always)]
    pub const fn index(self) -> usize {
        (self.0 & 7) as usize
    }
    /// `'1'` to `'8'`.
    pub const fn char(self) -> char {
        (b'1' + self.0) as char
    }
    /// Parses `'1'` to `'8'`.
    pub const fn from_char(c: char) -> Option<Rank> {
        if c >= '1' && c <= '8' {
            Some(Rank(c as u8 - b'1'))
        } else {
            None
        }
    }
    /// The rank seen from `color`'s side: `relative(Black)` of the first rank is the eighth.
    #[inline(always)]
    pub const fn relative_to(self, color: Color) -> Rank {
        match color {
            Color::White => self,
            Color::Black => Rank(7 - self.0),
        }
    }
    /// The rank mirrored top-bottom (1 ↔ 8).
    pub const fn flip(self) -> Rank {
        Rank(7 - self.0)
    }
}

/// A square, a1 (0) to h8 (63).
///
/// ```
/// use chessbits::types::{File, Rank, Square};
/// let e4: Square = "e4".parse().unwrap();
/// assert_eq!(e4, Square::from_coords(File::E, Rank::FOURTH));
/// assert_eq!(e4.index(), 28);
/// assert_eq!(e4.to_string(), "e4");
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

macro_rules! square_consts {
    ($($name:ident = $i:expr),* $(,)?) => { $(pub const $name: Square = Square($i);)* };
}

impl Square {
    square_consts! {
        A1 = 0, B1 = 1, C1 = 2, D1 = 3, E1 = 4, F1 = 5, G1 = 6, H1 = 7,
        A2 = 8, B2 = 9, C2 = 10, D2 = 11, E2 = 12, F2 = 13, G2 = 14, H2 = 15,
        A3 = 16, B3 = 17, C3 = 18, D3 = 19, E3 = 20, F3 = 21, G3 = 22, H3 = 23,
        A4 = 24, B4 = 25, C4 = 26, D4 = 27, E4 = 28, F4 = 29, G4 = 30, H4 = 31,
        A5 = 32, B5 = 33, C5 = 34, D5 = 35, E5 = 36, F5 = 37, G5 = 38, H5 = 39,
        A6 = 40, B6 = 41, C6 = 42, D6 = 43, E6 = 44, F6 = 45, G6 = 46, H6 = 47,
        A7 = 48, B7 = 49, C7 = 50, D7 = 51, E7 = 52, F7 = 53, G7 = 54, H7 = 55,
        A8 = 56, B8 = 57, C8 = 58, D8 = 59, E8 = 60, F8 = 61, G8 = 62, H8 = 63,
    }

    /// The square with index `i` (0 to 63).
    #[inline]
    pub const fn new(i: u8) -> Option<Square> {
        if i < 64 {
            Some(Square(i))
        } else {
            None
        }
    }

    /// The square with index `i & 63`: for indices known to be in range.
    #[inline(always)]
    pub const fn from_index_masked(i: u32) -> Square {
        Square((i & 63) as u8)
    }

    /// The square on `file` and `rank`.
    #[inline(always)]
    pub const fn from_coords(file: File, rank: Rank) -> Square {
        Square(rank.0 * 8 + file.0)
    }

    /// 0 (a1) to 63 (h8). Always below 64, so indexing a `[T; 64]` needs no bounds check.
    #[inline(always)]
    pub const fn index(self) -> usize {
        (self.0 & 63) as usize
    }

    #[inline(always)]
    pub const fn file(self) -> File {
        File(self.0 & 7)
    }

    #[inline(always)]
    pub const fn rank(self) -> Rank {
        Rank(self.0 >> 3)
    }

    /// The square mirrored top-bottom (a1 ↔ a8): the same square seen from Black's side.
    #[inline(always)]
    pub const fn flip_vertical(self) -> Square {
        Square(self.0 ^ 56)
    }

    /// The square mirrored left-right (a1 ↔ h1).
    #[inline(always)]
    pub const fn flip_horizontal(self) -> Square {
        Square(self.0 ^ 7)
    }

    /// The square seen from `color`'s side (flipped for Black).
    #[inline(always)]
    pub const fn relative_to(self, color: Color) -> Square {
        match color {
            Color::White => self,
            Color::Black => self.flip_vertical(),
        }
    }

    /// The square `delta` steps away in index (8 = one rank up), if on the board.
    /// Does not check wrapping across the a/h files.
    #[inline]
    pub const fn offset(self, delta: i8) -> Option<Square> {
        let i = self.0 as i16 + delta as i16;
        if i >= 0 && i < 64 {
            Some(Square(i as u8))
        } else {
            None
        }
    }

    /// Chebyshev (king-step) distance.
    pub const fn distance(self, other: Square) -> u8 {
        let df = (self.0 & 7).abs_diff(other.0 & 7);
        let dr = (self.0 >> 3).abs_diff(other.0 >> 3);
        if df > dr {
            df
        } else {
            dr
        }
    }

    /// All 64 squares, a1 first.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..64).map(Square)
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        super::display_padded(f, |w| {
            w.write_char(self.file().char())?;
            w.write_char(self.rank().char())
        })
    }
}

impl fmt::Display for File {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        super::display_padded(f, |w| w.write_char(self.char()))
    }
}

impl fmt::Display for Rank {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        super::display_padded(f, |w| w.write_char(self.char()))
    }
}

/// A string that is not a square name such as `e4`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseSquareError;

impl fmt::Display for ParseSquareError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("invalid square name (expected a file a-h and a rank 1-8)")
    }
}

impl std::error::Error for ParseSquareError {}

impl FromStr for Square {
    type Err = ParseSquareError;
    fn from_str(s: &str) -> Result<Square, ParseSquareError> {
        let mut chars = s.chars();
        match (chars.next(), chars.next(), chars.next()) {
            (Some(f), Some(r), None) => match (File::from_char(f), Rank::from_char(r)) {
                (Some(f), Some(r)) => Ok(Square::from_coords(f, r)),
                _ => Err(ParseSquareError),
            },
            _ => Err(ParseSquareError),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn square_names_round_trip() {
        for sq in Square::all() {
            assert_eq!(sq.to_string().parse::<Square>(), Ok(sq));
        }
        assert!("i1".parse::<Square>().is_err());
        assert!("a9".parse::<Square>().is_err());
        assert!("a".parse::<Square>().is_err());
        assert!("a1x".parse::<Square>().is_err());
    }

    #[test]
    fn flips_and_distance() {
        assert_eq!(Square::E2.flip_vertical(), Square::E7);
        assert_eq!(Square::A1.flip_horizontal(), Square::H1);
        assert_eq!(Square::A1.distance(Square::H8), 7);
        assert_eq!(Square::E4.relative_to(Color::Black), Square::E5);
    }
}
