//! Incremental accumulators: a per-ply stack of the two perspectives' feature-transformer
//! outputs, updated from the pieces a move adds and removes instead of refreshed from scratch.
//!
//! Each ply holds White's `N` values, then Black's, as `i16` (the [parent module](super)
//! explains why they fit). Making a move writes ply `p + 1` from ply `p`; unmaking needs
//! nothing (the caller returns to ply `p`, still intact); a null move copies ply `p`. The
//! changed pieces are found by comparing the colour and role bitboards before and after the
//! move, so every move kind (quiet, capture, promotion, castling of both kinds, en passant)
//! is handled alike. [`AccumulatorStack::evaluate`] equals [`Network::evaluate`] exactly.
//!
//! Where the CPU has AVX2 (detected at run time) the update runs the same loops compiled for it,
//! and the output layer multiplies in 16-bit lanes when the network's output weights are narrow
//! enough (`|w| · QA ≤ 32 767`), else in 32-bit lanes. Measured on `bench` (one thread,
//! Intel Xeon `cpu family` 6 `model` 167): the output layer fell from 18 % to 4 % of the profile,
//! and with the update in one pass and the hash prefetch 1.43 M → 1.99 M nodes a second.
//!
//! ```
//! use chessbits::position::Position;
//! use chessbits_engine::eval::nnue::accumulator::{AccumulatorStack, Snapshot};
//! use chessbits_engine::eval::nnue::Network;
//! let net = Network::seeded(16, 7);
//! let mut pos = Position::startpos();
//! let mut stack = AccumulatorStack::new(&net, 4);
//! stack.refresh(&net, 0, &pos);
//! let m = pos.legal_moves()[0];
//! let before = Snapshot::of(pos.board());
//! pos.play_unchecked(m);
//! stack.update(&net, 0, &before, pos.board());
//! assert_eq!(stack.evaluate(&net, 1, pos.turn()), net.evaluate(&pos));
//! ```

use chessbits::position::{Board, Position};
use chessbits::types::{Bitboard, Color, Role};

use super::{feature_index, Network};

/// The colour and role bitboards of a board: what [`AccumulatorStack::update`] compares.
#[derive(Clone, Copy, Debug)]
pub struct Snapshot {
    colors: [Bitboard; 2],
    roles: [Bitboard; 6],
}

impl Snapshot {
    /// The bitboards of `board`.
    #[inline]
    pub fn of(board: &Board) -> Snapshot {
        Snapshot {
            colors: Color::ALL.map(|c| board.by_color(c)),
            roles: Role::ALL.map(|r| board.by_role(r)),
        }
    }
}

/// At most this many pieces appear or disappear in one move (castling: 2 and 2).
const MAX_CHANGES: usize = 4;

/// A stack of accumulator pairs, one per ply (see the [module docs](self)).
#[derive(Clone, Debug)]
pub struct AccumulatorStack {
    hidden: usize,
    /// Ply-major: ply `p`'s White values at `2pN`, its Black values at `(2p + 1)N`.
    data: Vec<i16>,
    /// Whether the AVX2 paths may be used (detected at run time): the update and the output.
    avx2: bool,
    /// Whether the network's output weights are narrow enough for the 16-bit output path:
    /// `QA ≤ 255` and `|w| · QA ≤ 32 767` for every output weight (see [`screlu_dot_madd_avx2`]).
    narrow: bool,
}

impl AccumulatorStack {
    /// A stack of `plies` accumulator pairs for `net` (all zero until refreshed). The stack
    /// belongs to that network: it is given the same one in every call.
    pub fn new(net: &Network, plies: usize) -> AccumulatorStack {
        let narrow = net.qa <= FAST_QA
            && net
                .out_weights
                .iter()
                .all(|&w| i32::from(w).abs() * net.qa <= i32::from(i16::MAX));
        AccumulatorStack {
            hidden: net.hidden,
            data: vec![0; 2 * plies.max(1) * net.hidden],
            avx2: avx2_detected(),
            narrow,
        }
    }

    /// Turns the AVX2 paths off (`false`) or back on where the CPU has it; for tests that
    /// compare them with the portable paths. Returns whether they are on.
    pub fn set_simd(&mut self, on: bool) -> bool {
        self.avx2 = on && avx2_detected();
        self.avx2
    }

    /// The number of plies the stack holds.
    pub fn plies(&self) -> usize {
        self.data.len() / (2 * self.hidden)
    }

    fn pair(&self, ply: usize) -> (&[i16], &[i16]) {
        let n = self.hidden;
        self.data[2 * ply * n..2 * (ply + 1) * n].split_at(n)
    }

    /// Recomputes ply `ply` from scratch for `pos` (the root).
    pub fn refresh(&mut self, net: &Network, ply: usize, pos: &Position) {
        let n = self.hidden;
        let board = pos.board();
        let (white, black) = self.data[2 * ply * n..2 * (ply + 1) * n].split_at_mut(n);
        for (perspective, acc) in [(Color::White, white), (Color::Black, black)] {
            acc.copy_from_slice(&net.ft_biases);
            for (sq, piece) in board.pieces() {
                let f = feature_index(perspective, piece.color, piece.role.index(), sq);
                add_row(acc, &net.ft_weights[f * n..(f + 1) * n]);
            }
        }
    }

    /// Writes ply `ply + 1` from ply `ply` for the move that turned a board whose bitboards
    /// were `before` into `after`.
    pub fn update(&mut self, net: &Network, ply: usize, before: &Snapshot, after: &Board) {
        let now = Snapshot::of(after);
        // (colour, role index, square) of pieces that appeared and disappeared.
        let mut added = [(Color::White, 0usize, 0usize); MAX_CHANGES];
        let mut removed = added;
        let (mut n_added, mut n_removed) = (0, 0);
        for (ci, color) in Color::ALL.into_iter().enumerate() {
            for role in 0..6 {
                let old = before.colors[ci] & before.roles[role];
                let new = now.colors[ci] & now.roles[role];
                if old == new {
                    continue;
                }
                for sq in new & !old {
                    added[n_added] = (color, role, sq.index());
                    n_added += 1;
                }
                for sq in old & !new {
                    removed[n_removed] = (color, role, sq.index());
                    n_removed += 1;
                }
            }
        }
        let n = self.hidden;
        let (src, dst) = self.data[2 * ply * n..2 * (ply + 2) * n].split_at_mut(2 * n);
        let (src_white, src_black) = src.split_at(n);
        let (white, black) = dst.split_at_mut(n);
        for (perspective, acc, from) in [(Color::White, white, src_white), (Color::Black, black, src_black)] {
            let flip = if perspective == Color::White { 0 } else { 56 };
            let index = |&(color, role, sq): &(Color, usize, usize)| {
                384 * usize::from(color != perspective) + 64 * role + (sq ^ flip)
            };
            let mut adds = [0usize; MAX_CHANGES];
            let mut subs = [0usize; MAX_CHANGES];
            for (slot, change) in adds.iter_mut().zip(&added[..n_added]) {
                *slot = index(change);
            }
            for (slot, change) in subs.iter_mut().zip(&removed[..n_removed]) {
                *slot = index(change);
            }
            let (adds, subs) = (&adds[..n_added], &subs[..n_removed]);
            #[cfg(target_arch = "x86_64")]
            #[allow(unsafe_code)]
            if self.avx2 {
                // SAFETY: `avx2` is only true when `is_x86_feature_detected!("avx2")` said so.
                unsafe { apply_changes_avx2(acc, from, &net.ft_weights, adds, subs) };
                continue;
            }
            apply_changes(acc, from, &net.ft_weights, adds, subs);
        }
    }

    /// Copies ply `ply` to ply `ply + 1` (a null move: the pieces do not change).
    pub fn copy(&mut self, ply: usize) {
        let n = 2 * self.hidden;
        self.data.copy_within(ply * n..(ply + 1) * n, (ply + 1) * n);
    }

    /// The network's output for ply `ply` with `stm` to move, centipawns from its view.
    #[inline]
    pub fn evaluate(&self, net: &Network, ply: usize, stm: Color) -> i32 {
        let (white, black) = self.pair(ply);
        let (us, them) = match stm {
            Color::White => (white, black),
            Color::Black => (black, white),
        };
        if net.qa > FAST_QA {
            return net.output(us, them);
        }
        let (w_us, w_them) = net.out_weights.split_at(self.hidden);
        #[cfg(target_arch = "x86_64")]
        #[allow(unsafe_code)]
        if self.avx2 {
            if self.narrow {
                // `narrow` implies `QA ≤ 255`: it fits `i16`.
                let qa = net.qa as i16;
                // SAFETY: `avx2` is only true when `is_x86_feature_detected!("avx2")` said so;
                // `narrow` is the bound the 16-bit products need.
                return net
                    .finish(unsafe { screlu_dot_madd_avx2(us, w_us, qa) + screlu_dot_madd_avx2(them, w_them, qa) });
            }
            // SAFETY: as above.
            return net.finish(unsafe { screlu_dot_avx2(us, w_us, net.qa) + screlu_dot_avx2(them, w_them, net.qa) });
        }
        net.finish(screlu_dot(us, w_us, net.qa) + screlu_dot(them, w_them, net.qa))
    }
}

fn avx2_detected() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::is_x86_feature_detected!("avx2")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// The largest `QA` for which `clamp(a, 0, QA)² · w` fits in `i32` for any `i16` weight
/// (255² · 32 768 < 2³¹), so [`screlu_dot`] may multiply in `i32` lanes.
const FAST_QA: i32 = 255;

/// `Σ clamp(acc[i], 0, qa)² · weights[i]` as [`Network::output`] computes it, with the products
/// in `i32` lanes and the sum in `i64`; only for `qa ≤ FAST_QA`. The portable path.
#[inline(always)]
fn screlu_dot(acc: &[i16], weights: &[i16], qa: i32) -> i64 {
    acc.iter()
        .zip(weights)
        .map(|(&a, &w)| {
            let c = i32::from(a).clamp(0, qa);
            i64::from(c * c * i32::from(w))
        })
        .sum()
}

/// [`screlu_dot`] compiled for AVX2 (the compiler vectorises the same loop 256 bits wide).
///
/// # Safety
/// The CPU must support AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[allow(unsafe_code)]
unsafe fn screlu_dot_avx2(acc: &[i16], weights: &[i16], qa: i32) -> i64 {
    screlu_dot(acc, weights, qa)
}

/// [`screlu_dot`] in 16-bit lanes (a form of the "lizard" SCReLU trick): with `c = clamp(a, 0,
/// QA)`, `t = c · w` is exact in `i16` when `|w| · QA ≤ 32 767`, and one `madd` gives `c · t + c' ·
/// t'` in `i32` (at most 2 · 255 · 32 767 a lane each step). The lanes are widened to `i64` every 64
/// steps (64 · 16.7 M < 2³¹), so the sum is exact for any width: the same value as
/// [`screlu_dot`], 16 products an instruction instead of 4. Measured on `bench`: see
/// BENCHMARKS.md ("Engine speed").
///
/// # Safety
/// The CPU must support AVX2, `qa` must be at most 255 and every weight `|w| · qa ≤ 32 767`.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[allow(unsafe_code)]
unsafe fn screlu_dot_madd_avx2(acc: &[i16], weights: &[i16], qa: i16) -> i64 {
    use std::arch::x86_64::{
        __m256i, _mm256_add_epi32, _mm256_loadu_si256, _mm256_madd_epi16, _mm256_max_epi16, _mm256_min_epi16,
        _mm256_mullo_epi16, _mm256_set1_epi16, _mm256_setzero_si256, _mm256_storeu_si256,
    };
    const STEP: usize = 16;
    const STEPS_PER_WIDENING: usize = 64;
    let n = acc.len().min(weights.len());
    let vector_end = n / STEP * STEP;
    let mut total = 0i64;
    // SAFETY: every load reads 16 `i16` at `i` with `i + 16 ≤ vector_end ≤ n`, inside both
    // slices (unaligned loads, which need no alignment); the store writes 32 bytes into an
    // `[i32; 8]`. The CPU has AVX2 (the caller's promise). `unused_unsafe`: newer compilers
    // treat the value-only intrinsics as safe inside an AVX2 function.
    #[allow(unused_unsafe)]
    unsafe {
        let (zero, top) = (_mm256_setzero_si256(), _mm256_set1_epi16(qa));
        let mut start = 0;
        while start < vector_end {
            let end = (start + STEP * STEPS_PER_WIDENING).min(vector_end);
            let mut sum = _mm256_setzero_si256();
            let mut i = start;
            while i < end {
                let a = _mm256_loadu_si256(acc.as_ptr().add(i).cast::<__m256i>());
                let w = _mm256_loadu_si256(weights.as_ptr().add(i).cast::<__m256i>());
                let c = _mm256_min_epi16(_mm256_max_epi16(a, zero), top);
                sum = _mm256_add_epi32(sum, _mm256_madd_epi16(c, _mm256_mullo_epi16(c, w)));
                i += STEP;
            }
            let mut lanes = [0i32; 8];
            _mm256_storeu_si256(lanes.as_mut_ptr().cast::<__m256i>(), sum);
            total += lanes.iter().map(|&lane| i64::from(lane)).sum::<i64>();
            start = end;
        }
    }
    total + screlu_dot(&acc[vector_end..n], &weights[vector_end..n], i32::from(qa))
}

/// Writes `acc` as `from` plus the rows of the features `adds` minus those of `subs` (rows of
/// `N = acc.len()` weights in `weights`): the first added and the first removed row are applied
/// in the pass that copies `from`, the others in place. The portable path.
#[inline(always)]
fn apply_changes(acc: &mut [i16], from: &[i16], weights: &[i16], adds: &[usize], subs: &[usize]) {
    let n = acc.len();
    let row = |f: usize| &weights[f * n..(f + 1) * n];
    match (adds.first(), subs.first()) {
        (Some(&add), Some(&sub)) => {
            for (((a, &s), &plus), &minus) in acc.iter_mut().zip(from).zip(row(add)).zip(row(sub)) {
                *a = s.wrapping_add(plus).wrapping_sub(minus);
            }
            adds[1..].iter().for_each(|&f| add_row(acc, row(f)));
            subs[1..].iter().for_each(|&f| sub_row(acc, row(f)));
        }
        // Every move moves a piece; kept for a caller that passes equal boards.
        _ => {
            acc.copy_from_slice(from);
            adds.iter().for_each(|&f| add_row(acc, row(f)));
            subs.iter().for_each(|&f| sub_row(acc, row(f)));
        }
    }
}

/// [`apply_changes`] compiled for AVX2 (the compiler vectorises the same loops 256 bits wide
/// instead of 128).
///
/// # Safety
/// The CPU must support AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[allow(unsafe_code)]
unsafe fn apply_changes_avx2(acc: &mut [i16], from: &[i16], weights: &[i16], adds: &[usize], subs: &[usize]) {
    apply_changes(acc, from, weights, adds, subs)
}

// Wrapping: a network file whose weights overflow `i16` must not panic (it evaluates wrongly,
// which the trainer's weight clip rules out for real networks).
#[inline]
fn add_row(acc: &mut [i16], row: &[i16]) {
    for (a, &w) in acc.iter_mut().zip(row) {
        *a = a.wrapping_add(w);
    }
}

#[inline]
fn sub_row(acc: &mut [i16], row: &[i16]) {
    for (a, &w) in acc.iter_mut().zip(row) {
        *a = a.wrapping_sub(w);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::SplitMix64;

    /// Accumulator values over the whole `i16` range (most of them clamped) and weights at the
    /// largest magnitude the 16-bit path allows, at widths that are and are not multiples of 16,
    /// up to the largest a file may have (several widenings to `i64`).
    #[test]
    #[allow(unsafe_code)]
    fn the_16_bit_output_path_equals_the_portable_one() {
        if !avx2_detected() {
            return;
        }
        let mut rng = SplitMix64::new(11);
        for (n, qa) in [
            (256, 255),
            (40, 255),
            (7, 200),
            (super::super::MAX_HIDDEN, 255),
            (1040, 1),
        ] {
            let limit = i32::from(i16::MAX) / qa;
            for round in 0..4 {
                let acc: Vec<i16> = (0..n).map(|_| rng.next_u64() as i16).collect();
                let weights: Vec<i16> = (0..n)
                    .map(|i| match round {
                        // All at the bound, with both signs: the largest sums.
                        0 => limit as i16,
                        1 => -limit as i16,
                        _ => ((rng.next_u64() % (2 * limit as u64 + 1)) as i32 - limit) as i16,
                    } * if round > 1 && i % 3 == 0 { -1 } else { 1 })
                    .collect();
                let acc_top: Vec<i16> = acc.iter().map(|_| i16::MAX).collect();
                for values in [&acc, &acc_top] {
                    // SAFETY: AVX2 detected above; `qa ≤ 255` and `|w| · qa ≤ 32 767` by construction.
                    let fast = unsafe { screlu_dot_madd_avx2(values, &weights, qa as i16) };
                    assert_eq!(
                        fast,
                        screlu_dot(values, &weights, qa),
                        "width {n}, QA {qa}, round {round}"
                    );
                }
            }
        }
    }

    /// The update compiled for AVX2 writes what the portable update writes, for every count of
    /// added and removed rows a move has (and none at all), at widths that are and are not
    /// multiples of the vector width; wrapping included.
    #[test]
    #[allow(unsafe_code)]
    fn the_avx2_update_equals_the_portable_one() {
        if !avx2_detected() {
            return;
        }
        let mut rng = SplitMix64::new(12);
        for n in [256, 33, 1] {
            let weights: Vec<i16> = (0..8 * n).map(|_| rng.next_u64() as i16).collect();
            let from: Vec<i16> = (0..n).map(|_| rng.next_u64() as i16).collect();
            for (adds, subs) in [
                (&[1][..], &[2][..]),
                (&[3][..], &[4, 5][..]),
                (&[6, 7][..], &[0, 1][..]),
                (&[][..], &[][..]),
                (&[2][..], &[][..]),
            ] {
                let mut portable = vec![0; n];
                let mut simd = vec![0; n];
                apply_changes(&mut portable, &from, &weights, adds, subs);
                // SAFETY: AVX2 detected above.
                unsafe { apply_changes_avx2(&mut simd, &from, &weights, adds, subs) };
                assert_eq!(simd, portable, "width {n}, adds {adds:?}, subs {subs:?}");
                let mut expected = from.clone();
                adds.iter()
                    .for_each(|&f| add_row(&mut expected, &weights[f * n..(f + 1) * n]));
                subs.iter()
                    .for_each(|&f| sub_row(&mut expected, &weights[f * n..(f + 1) * n]));
                assert_eq!(portable, expected, "width {n}, adds {adds:?}, subs {subs:?}");
            }
        }
    }
}
