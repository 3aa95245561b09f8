//! Lines and segments between squares, built at compile time.

use crate::types::geometry::{offset, RAY_STEPS};
use crate::types::{Bitboard, Square};

/// The direction index (into `RAY_STEPS`) from `a` towards `b`, if they share a line.
const fn direction(a: usize, b: usize) -> Option<usize> {
    let df = (b % 8) as i8 - (a % 8) as i8;
    let dr = (b / 8) as i8 - (a / 8) as i8;
    if a == b || !(df == 0 || dr == 0 || df == dr || df == -dr) {
        return None;
    }
    let (sf, sr) = (df.signum(), dr.signum());
    let mut d = 0;
    while d < 8 {
        if RAY_STEPS[d].0 == sf && RAY_STEPS[d].1 == sr {
            return Some(d);
        }
        d += 1;
    }
    None
}

/// The squares from `from` along direction `dir`, `from` excluded, up to the edge or to `stop`
/// (excluded).
const fn walk(from: usize, dir: usize, stop: usize) -> u64 {
    let mut bits = 0u64;
    let mut n = 1;
    while let Some(sq) = offset(from, RAY_STEPS[dir], n) {
        if sq == stop {
            break;
        }
        bits |= 1 << sq;
        n += 1;
    }
    bits
}

const fn build() -> ([[Bitboard; 64]; 64], [[Bitboard; 64]; 64]) {
    let mut between = [[Bitboard::EMPTY; 64]; 64];
    let mut line = [[Bitboard::EMPTY; 64]; 64];
    let mut a = 0;
    while a < 64 {
        let mut b = 0;
        while b < 64 {
            if let Some(d) = direction(a, b) {
                between[a][b] = Bitboard(walk(a, d, b));
                let full = walk(a, d, 64) | walk(a, (d + 4) % 8, 64) | 1 << a;
                line[a][b] = Bitboard(full);
            }
            b += 1;
        }
        a += 1;
    }
    (between, line)
}

static TABLES: ([[Bitboard; 64]; 64], [[Bitboard; 64]; 64]) = build();

/// The squares strictly between `a` and `b` on a shared rank, file or diagonal; empty otherwise.
#[inline(always)]
pub fn between(a: Square, b: Square) -> Bitboard {
    TABLES.0[a.index()][b.index()]
}

/// The whole rank, file or diagonal through `a` and `b` (edge to edge, both included); empty if
/// they share none.
#[inline(always)]
pub fn line(a: Square, b: Square) -> Bitboard {
    TABLES.1[a.index()][b.index()]
}

/// Whether `c` lies on the line through `a` and `b`.
#[inline(always)]
pub fn aligned(a: Square, b: Square, c: Square) -> bool {
    line(a, b).contains(c)
}
