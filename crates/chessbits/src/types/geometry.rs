//! Board geometry, in one place: file and rank masks, the steps of every piece, and empty-board
//! rays and leaper sets built by `const fn`.
//!
//! The attack tables (`attacks`) and the codes (`codec`) are built from these; the test oracle
//! keeps its own 0x88 geometry on purpose (it must stay independent of the generator).
//!
//! The *order* of [`RAY_STEPS`] and [`KNIGHT_STEPS`] is part of a frozen format: the
//! direction-target move code (`codec::moves::direction_target`) writes a move's direction as its
//! index in these arrays. Opposite ray directions are four apart (`(d + 4) % 8`).

/// A step on the board: (file step, rank step).
pub(crate) type Step = (i8, i8);

/// The a-file.
pub(crate) const FILE_A: u64 = 0x0101_0101_0101_0101;
/// The b-file.
pub(crate) const FILE_B: u64 = FILE_A << 1;
/// The g-file.
pub(crate) const FILE_G: u64 = FILE_A << 6;
/// The h-file.
pub(crate) const FILE_H: u64 = FILE_A << 7;
/// The first rank.
pub(crate) const RANK_1: u64 = 0xff;

/// The eight ray directions in compass order, clockwise from north: N, NE, E, SE, S, SW, W, NW.
/// Also the king's steps. The order is frozen (see the module docs).
pub(crate) const RAY_STEPS: [Step; 8] = [(0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1)];
/// The rook's directions: N, E, S, W.
pub(crate) const ORTHOGONAL: [Step; 4] = [RAY_STEPS[0], RAY_STEPS[2], RAY_STEPS[4], RAY_STEPS[6]];
/// The bishop's directions: NE, SE, SW, NW.
pub(crate) const DIAGONAL: [Step; 4] = [RAY_STEPS[1], RAY_STEPS[3], RAY_STEPS[5], RAY_STEPS[7]];
/// The eight knight jumps, clockwise from north: NNE, ENE, ESE, SSE, SSW, WSW, WNW, NNW. The order
/// is frozen (see the module docs).
pub(crate) const KNIGHT_STEPS: [Step; 8] = [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)];
/// The captures of a pawn, by color index (White, Black): towards the a-file, towards the h-file.
pub(crate) const PAWN_CAPTURE_STEPS: [[Step; 2]; 2] = [[(-1, 1), (1, 1)], [(-1, -1), (1, -1)]];

/// The square index `n` steps of `step` away from square index `sq`, if on the board.
pub(crate) const fn offset(sq: usize, step: Step, n: i8) -> Option<usize> {
    let f = (sq % 8) as i8 + step.0 * n;
    let r = (sq / 8) as i8 + step.1 * n;
    if f < 0 || f > 7 || r < 0 || r > 7 {
        None
    } else {
        Some((r * 8 + f) as usize)
    }
}

/// The ray from `sq` along `step` (`sq` excluded) up to and including the first square of
/// `occupied` on it, or to the edge.
pub(crate) const fn ray(sq: usize, step: Step, occupied: u64) -> u64 {
    let mut bits = 0u64;
    let mut n = 1;
    while let Some(to) = offset(sq, step, n) {
        bits |= 1 << to;
        if occupied & (1 << to) != 0 {
            break;
        }
        n += 1;
    }
    bits
}

/// The union of [`ray`]s from `sq` along every step of `steps`.
pub(crate) const fn rays(sq: usize, steps: &[Step], occupied: u64) -> u64 {
    let mut bits = 0u64;
    let mut i = 0;
    while i < steps.len() {
        bits |= ray(sq, steps[i], occupied);
        i += 1;
    }
    bits
}

/// The squares one step of `steps` away from `sq`.
pub(crate) const fn leaper(sq: usize, steps: &[Step]) -> u64 {
    let mut bits = 0u64;
    let mut i = 0;
    while i < steps.len() {
        if let Some(to) = offset(sq, steps[i], 1) {
            bits |= 1 << to;
        }
        i += 1;
    }
    bits
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn opposite_directions_are_four_apart() {
        for d in 0..8 {
            let (a, b) = (RAY_STEPS[d], RAY_STEPS[(d + 4) % 8]);
            assert_eq!((a.0 + b.0, a.1 + b.1), (0, 0));
        }
    }

    #[test]
    fn rays_and_leapers_on_an_empty_board() {
        // a1: the long diagonal and the first rank and a-file.
        assert_eq!(rays(0, &DIAGONAL, 0), 0x8040_2010_0804_0200);
        assert_eq!(rays(0, &ORTHOGONAL, 0), (FILE_A | RANK_1) & !1);
        // A blocker ends the ray and is included.
        assert_eq!(ray(0, RAY_STEPS[2], 1 << 3), 0b1110);
        assert_eq!(leaper(0, &KNIGHT_STEPS).count_ones(), 2);
        assert_eq!(leaper(27, &RAY_STEPS).count_ones(), 8);
        assert_eq!(FILE_B | FILE_G, 0x4242_4242_4242_4242);
    }
}
