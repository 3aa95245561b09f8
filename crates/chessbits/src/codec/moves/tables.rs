//! Board-independent lookup tables shared by the move codes, built by `const fn` at compile time.
//!
//! - [`empty_attacks`]: where a knight, bishop, rook, queen or king on a square could go on an
//!   empty board (its "influence", whose sizes the seed sums to 336, 560, 896, 1456 and 420);
//! - [`target_index`] / [`nth_target`]: the rank of a target inside that set and its inverse —
//!   the seed's `piece_move_index` for non-pawn pieces;
//! - [`pair_index`] / [`pair_squares`]: every (from, to) pair of a role numbered from 0, from-square
//!   major, target ascending — the backbone of the 16-bit enumeration;
//! - [`direction`] / [`ray`]: the 16 directions of the direction-target code.

use crate::types::geometry::{self, KNIGHT_STEPS, RAY_STEPS};
use crate::types::{Role, Square};

/// Marks "no such entry" in the `u8` tables.
pub(crate) const NONE: u8 = 0xff;

/// The empty-board ray from `sq` in ray direction `dir` (0..8, index of [`RAY_STEPS`]), `sq`
/// excluded.
const fn ray_bits(sq: usize, dir: usize) -> u64 {
    geometry::ray(sq, RAY_STEPS[dir], 0)
}

/// Empty-board targets of the role with index `role` on `sq`; zero for the pawn.
const fn empty_attack_bits(role: usize, sq: usize) -> u64 {
    match role {
        1 => geometry::leaper(sq, &KNIGHT_STEPS),
        2 => ray_bits(sq, 1) | ray_bits(sq, 3) | ray_bits(sq, 5) | ray_bits(sq, 7),
        3 => ray_bits(sq, 0) | ray_bits(sq, 2) | ray_bits(sq, 4) | ray_bits(sq, 6),
        4 => empty_attack_bits(2, sq) | empty_attack_bits(3, sq),
        5 => geometry::leaper(sq, &RAY_STEPS),
        _ => 0,
    }
}

/// The number of (from, to) pairs of every non-pawn role: its influence quantity.
pub(crate) const PAIR_TOTAL: usize = 336 + 560 + 896 + 1456 + 420;

struct Tables {
    /// `[role][sq]` empty-board targets.
    empty: [[u64; 64]; 6],
    /// `[role][from][to]` the rank of `to` among the targets of `from`, or [`NONE`].
    target_index: [[[u8; 64]; 64]; 6],
    /// `[role][from][i]` the `i`-th target of `from`, or [`NONE`].
    nth_target: [[[u8; 27]; 64]; 6],
    /// `[role][from]` the number of pairs of the role with a smaller from-square; `[role][64]` is
    /// the role's total.
    pair_offset: [[u16; 65]; 6],
    /// `[role]` where the role's pairs start in `pairs`.
    pair_start: [u16; 6],
    /// Every pair as `from << 6 | to`, role by role (knight .. king), from-square major.
    pairs: [u16; PAIR_TOTAL],
    /// `[from][to]` the direction (0..16) of the step from `from` to `to`, or [`NONE`].
    direction: [[u8; 64]; 64],
    /// `[dir][sq]` the empty-board ray of ray direction `dir` (0..8) from `sq`.
    rays: [[u64; 64]; 8],
}

const fn build() -> Tables {
    let mut t = Tables {
        empty: [[0; 64]; 6],
        target_index: [[[NONE; 64]; 64]; 6],
        nth_target: [[[NONE; 27]; 64]; 6],
        pair_offset: [[0; 65]; 6],
        pair_start: [0; 6],
        pairs: [0; PAIR_TOTAL],
        direction: [[NONE; 64]; 64],
        rays: [[0; 64]; 8],
    };
    let mut next_pair = 0usize;
    let mut role = 1;
    while role < 6 {
        t.pair_start[role] = next_pair as u16;
        let mut from = 0;
        while from < 64 {
            let bits = empty_attack_bits(role, from);
            t.empty[role][from] = bits;
            t.pair_offset[role][from] = (next_pair - t.pair_start[role] as usize) as u16;
            let mut i = 0;
            let mut to = 0;
            while to < 64 {
                if bits & (1 << to) != 0 {
                    t.target_index[role][from][to] = i as u8;
                    t.nth_target[role][from][i] = to as u8;
                    t.pairs[next_pair] = ((from << 6) | to) as u16;
                    next_pair += 1;
                    i += 1;
                }
                to += 1;
            }
            from += 1;
        }
        t.pair_offset[role][64] = (next_pair - t.pair_start[role] as usize) as u16;
        role += 1;
    }
    let mut from = 0;
    while from < 64 {
        let mut dir = 0;
        while dir < 8 {
            let ray = ray_bits(from, dir);
            t.rays[dir][from] = ray;
            let mut to = 0;
            while to < 64 {
                if ray & (1 << to) != 0 {
                    t.direction[from][to] = dir as u8;
                }
                to += 1;
            }
            if let Some(to) = geometry::offset(from, KNIGHT_STEPS[dir], 1) {
                t.direction[from][to] = 8 + dir as u8;
            }
            dir += 1;
        }
        from += 1;
    }
    t
}

static TABLES: Tables = build();

/// Empty-board targets (as a bit set) of `role` on `sq`; empty for the pawn.
#[cfg(test)]
pub(crate) fn empty_attacks(role: Role, sq: Square) -> u64 {
    TABLES.empty[role.index()][sq.index()]
}

/// The rank of `to` among the empty-board targets of `role` on `from` (targets counted in square
/// order), or `None` if `role` cannot go there.
#[inline(always)]
pub(crate) fn target_index(role: Role, from: Square, to: Square) -> Option<u8> {
    match TABLES.target_index[role.index()][from.index()][to.index()] {
        NONE => None,
        i => Some(i),
    }
}

/// The `i`-th empty-board target of `role` on `from`, if it has that many.
#[inline(always)]
pub(crate) fn nth_target(role: Role, from: Square, i: usize) -> Option<Square> {
    match TABLES.nth_target[role.index()][from.index()].get(i) {
        Some(&sq) if sq != NONE => Square::new(sq),
        _ => None,
    }
}

/// The number of the (from, to) pair among all pairs of `role`, or `None` if `role` cannot go
/// from `from` to `to`.
#[inline(always)]
pub(crate) fn pair_index(role: Role, from: Square, to: Square) -> Option<u16> {
    let rank = target_index(role, from, to)?;
    Some(TABLES.pair_offset[role.index()][from.index()] + rank as u16)
}

/// The number of (from, to) pairs of `role`.
#[inline(always)]
pub(crate) fn pair_count(role: Role) -> u16 {
    TABLES.pair_offset[role.index()][64]
}

/// The (from, to) pair numbered `pair` among the pairs of `role`.
#[inline(always)]
pub(crate) fn pair_squares(role: Role, pair: u16) -> Option<(Square, Square)> {
    if pair >= pair_count(role) {
        return None;
    }
    let packed = *TABLES
        .pairs
        .get(TABLES.pair_start[role.index()] as usize + pair as usize)?;
    Some((
        Square::from_index_masked((packed >> 6) as u32),
        Square::from_index_masked(packed as u32),
    ))
}

/// The direction (0..8 rays N, NE, E, SE, S, SW, W, NW; 8..16 knight jumps NNE, ENE, ESE, SSE,
/// SSW, WSW, WNW, NNW) leading from `from` to `to`, if any.
#[inline(always)]
pub(crate) fn direction(from: Square, to: Square) -> Option<u8> {
    match TABLES.direction[from.index()][to.index()] {
        NONE => None,
        d => Some(d),
    }
}

/// The empty-board ray from `sq` in ray direction `dir` (0..8), `sq` excluded.
#[inline(always)]
pub(crate) fn ray(dir: usize, sq: Square) -> u64 {
    match TABLES.rays.get(dir) {
        Some(rays) => rays[sq.index()],
        None => 0,
    }
}

/// The square one knight jump `dir` (0..8) away from `sq`, if on the board.
#[inline]
pub(crate) fn knight_step(sq: Square, dir: usize) -> Option<Square> {
    let step = *KNIGHT_STEPS.get(dir)?;
    geometry::offset(sq.index(), step, 1).and_then(|i| Square::new(i as u8))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::attacks;
    use crate::types::{Bitboard, Color};

    #[test]
    fn influence_quantities_match_the_seed() {
        let counts: Vec<u16> = [Role::Knight, Role::Bishop, Role::Rook, Role::Queen, Role::King]
            .iter()
            .map(|&r| pair_count(r))
            .collect();
        assert_eq!(counts, vec![336, 560, 896, 1456, 420]);
    }

    #[test]
    fn empty_attacks_agree_with_the_attack_tables() {
        for sq in Square::all() {
            for role in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen, Role::King] {
                let expected = attacks::empty_board(Color::White, role, sq);
                assert_eq!(Bitboard(empty_attacks(role, sq)), expected, "{role:?} {sq}");
            }
        }
    }

    #[test]
    fn pairs_and_indices_are_inverse() {
        for role in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen, Role::King] {
            for pair in 0..pair_count(role) {
                let (from, to) = pair_squares(role, pair).unwrap();
                assert_eq!(pair_index(role, from, to), Some(pair));
                let i = target_index(role, from, to).unwrap();
                assert_eq!(nth_target(role, from, i as usize), Some(to));
            }
            assert_eq!(pair_squares(role, pair_count(role)), None);
        }
    }

    #[test]
    fn directions_cover_queen_and_knight_moves() {
        for from in Square::all() {
            for to in Square::all() {
                let queen = Bitboard(empty_attacks(Role::Queen, from)).contains(to);
                let knight = Bitboard(empty_attacks(Role::Knight, from)).contains(to);
                match direction(from, to) {
                    Some(d) if d < 8 => {
                        assert!(queen);
                        assert!(Bitboard(ray(d as usize, from)).contains(to));
                    }
                    Some(d) => {
                        assert!(knight);
                        assert_eq!(knight_step(from, d as usize - 8), Some(to));
                    }
                    None => assert!(!queen && !knight),
                }
            }
        }
    }
}
