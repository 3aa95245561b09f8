//! Bishop and rook attacks by table lookup, built at compile time.
//!
//! Each square has a mask of the squares whose occupancy matters (its rays without the board
//! edge) and a slice of a shared table holding the attacks for every subset of the mask. The
//! subset is turned into an index either by PEXT (cargo feature `pext`, which needs a BMI2 target,
//! e.g. `RUSTFLAGS="-C target-cpu=native"`) or, portably and by default, by a magic multiply:
//! `((occupied & mask) * magic) >> (64 - bits)`. Both give tables of the same size (107,648
//! entries: 102,400 for rooks, 5,248 for bishops); only the order inside each slice differs.
//!
//! PEXT is an explicit opt-in rather than chosen from `target_feature = "bmi2"` alone: AMD Zen 1
//! and Zen 2 have BMI2 but run PEXT in microcode, where it makes perft about three times slower
//! than the magic multiply.

use super::magics::{BISHOP_MAGICS, ROOK_MAGICS};
use crate::types::geometry::{Step, DIAGONAL, ORTHOGONAL};
use crate::types::{Bitboard, Square};

#[cfg(all(feature = "pext", not(all(target_arch = "x86_64", target_feature = "bmi2"))))]
compile_error!(
    "the `pext` feature needs an x86-64 target with BMI2: build with \
     RUSTFLAGS=\"-C target-feature=+bmi2\" (or RUSTFLAGS=\"-C target-cpu=native\" on a CPU that has \
     BMI2), or leave the feature off for the portable magic-multiply lookup"
);

/// The slider lookup indexes its tables with PEXT (feature `pext` on a BMI2 target) rather than
/// with a magic multiply.
pub const USES_PEXT: bool = cfg!(all(feature = "pext", target_arch = "x86_64", target_feature = "bmi2"));

const TABLE_SIZE: usize = 107_648;

/// What one square needs for a lookup.
#[derive(Copy, Clone)]
struct Entry {
    mask: u64,
    magic: u64,
    shift: u32,
    offset: usize,
}

/// `geometry::rays`, written out as one loop: the magic tables call it for every one of their
/// 107,648 entries at compile time, and the plain loop keeps that const evaluation short.
const fn slide(sq: usize, occupied: u64, dirs: &[Step; 4]) -> u64 {
    let mut attacks = 0u64;
    let mut d = 0;
    while d < 4 {
        let (mut f, mut r) = ((sq % 8) as i8 + dirs[d].0, (sq / 8) as i8 + dirs[d].1);
        while f >= 0 && f < 8 && r >= 0 && r < 8 {
            let bit = 1u64 << (r * 8 + f);
            attacks |= bit;
            if occupied & bit != 0 {
                break;
            }
            f += dirs[d].0;
            r += dirs[d].1;
        }
        d += 1;
    }
    attacks
}

const fn relevance_mask(sq: usize, dirs: &[Step; 4]) -> u64 {
    let mut mask = 0u64;
    let mut d = 0;
    while d < 4 {
        let (mut f, mut r) = ((sq % 8) as i8 + dirs[d].0, (sq / 8) as i8 + dirs[d].1);
        // Stop before the edge: a piece on the last square does not change the attack set.
        while f + dirs[d].0 >= 0 && f + dirs[d].0 < 8 && r + dirs[d].1 >= 0 && r + dirs[d].1 < 8 {
            mask |= 1u64 << (r * 8 + f);
            f += dirs[d].0;
            r += dirs[d].1;
        }
        d += 1;
    }
    mask
}

/// The index of an occupancy inside a square's slice.
#[inline(always)]
fn index(e: &Entry, occupied: u64) -> usize {
    #[cfg(all(feature = "pext", target_arch = "x86_64", target_feature = "bmi2"))]
    {
        // SAFETY: this block is compiled only when the whole build targets BMI2 (the `cfg` above),
        // so the PEXT instruction exists on every CPU the binary may run on. The magic-multiply
        // branch below is the safe path, tested by every default build.
        unsafe { core::arch::x86_64::_pext_u64(occupied, e.mask) as usize }
    }
    #[cfg(not(all(feature = "pext", target_arch = "x86_64", target_feature = "bmi2")))]
    {
        ((occupied & e.mask).wrapping_mul(e.magic) >> e.shift) as usize
    }
}

struct Tables {
    rook: [Entry; 64],
    bishop: [Entry; 64],
    attacks: [Bitboard; TABLE_SIZE],
}

const fn fill(
    table: &mut [Bitboard; TABLE_SIZE],
    entries: &mut [Entry; 64],
    magics: &[u64; 64],
    dirs: &[Step; 4],
    mut offset: usize,
    pext: bool,
) -> usize {
    let mut sq = 0;
    while sq < 64 {
        let mask = relevance_mask(sq, dirs);
        let bits = mask.count_ones();
        let entry = Entry {
            mask,
            magic: magics[sq],
            shift: 64 - bits,
            offset,
        };
        // Carry-rippler: visits the subsets of `mask` in increasing order of their PEXT index.
        let mut occupied = 0u64;
        let mut pext_index = 0usize;
        loop {
            let attacks = slide(sq, occupied, dirs);
            let index = if pext {
                pext_index
            } else {
                (occupied.wrapping_mul(entry.magic) >> entry.shift) as usize
            };
            let slot = offset + index;
            // A magic that maps two occupancies with different attacks to one slot is broken.
            assert!(table[slot].0 == 0 || table[slot].0 == attacks, "colliding magic number");
            table[slot] = Bitboard(attacks);
            pext_index += 1;
            occupied = occupied.wrapping_sub(mask) & mask;
            if occupied == 0 {
                break;
            }
        }
        entries[sq] = entry;
        offset += 1 << bits;
        sq += 1;
    }
    offset
}

const fn build(pext: bool) -> Tables {
    let empty = Entry {
        mask: 0,
        magic: 0,
        shift: 0,
        offset: 0,
    };
    let mut t = Tables {
        rook: [empty; 64],
        bishop: [empty; 64],
        attacks: [Bitboard::EMPTY; TABLE_SIZE],
    };
    let end = fill(&mut t.attacks, &mut t.rook, &ROOK_MAGICS, &ORTHOGONAL, 0, pext);
    let end = fill(&mut t.attacks, &mut t.bishop, &BISHOP_MAGICS, &DIAGONAL, end, pext);
    assert!(end == TABLE_SIZE);
    t
}

static TABLES: Tables = build(USES_PEXT);

/// Rook attacks from `sq` with `occupied` blocking.
#[inline(always)]
pub fn rook(sq: Square, occupied: Bitboard) -> Bitboard {
    let e = &TABLES.rook[sq.index()];
    TABLES.attacks[e.offset + index(e, occupied.0)]
}

/// Bishop attacks from `sq` with `occupied` blocking.
#[inline(always)]
pub fn bishop(sq: Square, occupied: Bitboard) -> Bitboard {
    let e = &TABLES.bishop[sq.index()];
    TABLES.attacks[e.offset + index(e, occupied.0)]
}

/// Rook attacks computed by walking the rays: the reference the tables are tested against.
pub fn rook_slow(sq: Square, occupied: Bitboard) -> Bitboard {
    Bitboard(slide(sq.index(), occupied.0, &ORTHOGONAL))
}

/// Bishop attacks computed by walking the rays.
pub fn bishop_slow(sq: Square, occupied: Bitboard) -> Bitboard {
    Bitboard(slide(sq.index(), occupied.0, &DIAGONAL))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every occupancy subset of every square's mask, looked up through the compiled-in index
    /// (magic multiply, or PEXT with the feature), gives the ray-walking attacks. `.ci/run` runs
    /// this in both builds, so the two lookups agree with the reference and with each other.
    #[test]
    fn every_subset_matches_ray_walking() {
        for sq in Square::all() {
            for (entry, dirs, lookup) in [
                (
                    &TABLES.rook[sq.index()],
                    &ORTHOGONAL,
                    rook as fn(Square, Bitboard) -> Bitboard,
                ),
                (&TABLES.bishop[sq.index()], &DIAGONAL, bishop),
            ] {
                let mut occupied = 0u64;
                loop {
                    // Squares outside the mask must not change the result either.
                    let noisy = occupied | (!entry.mask & 0x8100_0000_0000_0081);
                    let expected = Bitboard(slide(sq.index(), occupied, dirs));
                    assert_eq!(lookup(sq, Bitboard(occupied)), expected, "{sq:?} {occupied:#x}");
                    assert_eq!(lookup(sq, Bitboard(noisy)), expected, "{sq:?} {noisy:#x}");
                    occupied = occupied.wrapping_sub(entry.mask) & entry.mask;
                    if occupied == 0 {
                        break;
                    }
                }
            }
        }
    }

    #[test]
    fn pext_only_when_asked_for() {
        assert_eq!(USES_PEXT, cfg!(feature = "pext"));
    }
}
