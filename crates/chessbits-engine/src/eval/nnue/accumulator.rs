//! Incremental accumulators: a per-ply stack of the two perspectives' feature-transformer
//! outputs, updated from the pieces a move adds and removes instead of refreshed from scratch.
//!
//! Each ply holds White's `N` values, then Black's, as `i16` (the [parent module](super)
//! explains why they fit). Making a move writes ply `p + 1` from ply `p`; unmaking needs
//! nothing (the caller returns to ply `p`, still intact); a null move copies ply `p`. The
//! changed pieces are found by comparing the colour and role bitboards before and after the
//! move, so every move kind (quiet, capture, promotion, castling of both kinds, en passant)
//! is handled alike. [`AccumulatorStack::evaluate`] equals [`Network::evaluate`] exactly; its
//! output layer runs the same loop compiled for AVX2 where the CPU has it (detected at run time;
//! measured: the output layer fell from 17 % to 5 % of a `bench` profile at `N` = 128).
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
    /// Whether [`evaluate`](Self::evaluate) may use the AVX2 output path (detected at run time).
    avx2: bool,
}

impl AccumulatorStack {
    /// A stack of `plies` accumulator pairs for `net` (all zero until refreshed).
    pub fn new(net: &Network, plies: usize) -> AccumulatorStack {
        AccumulatorStack {
            hidden: net.hidden,
            data: vec![0; 2 * plies.max(1) * net.hidden],
            avx2: avx2_detected(),
        }
    }

    /// Turns the AVX2 output path off (`false`) or back on where the CPU has it; for tests
    /// that compare the two paths. Returns whether it is on.
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
        dst.copy_from_slice(src);
        let (white, black) = dst.split_at_mut(n);
        for (perspective, acc) in [(Color::White, white), (Color::Black, black)] {
            let flip = if perspective == Color::White { 0 } else { 56 };
            let index = |&(color, role, sq): &(Color, usize, usize)| {
                384 * usize::from(color != perspective) + 64 * role + (sq ^ flip)
            };
            for f in added[..n_added].iter().map(index) {
                add_row(acc, &net.ft_weights[f * n..(f + 1) * n]);
            }
            for f in removed[..n_removed].iter().map(index) {
                sub_row(acc, &net.ft_weights[f * n..(f + 1) * n]);
            }
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
            // SAFETY: `avx2` is only true when `is_x86_feature_detected!("avx2")` said so.
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
