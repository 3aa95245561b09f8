//! An NNUE evaluation network: its architecture, its [on-disk format](mod@format) and a plain
//! reference evaluation.
//!
//! # Architecture
//!
//! `(768 → N)×2 → 1` with perspective: one feature transformer (768 inputs, `N` outputs) is
//! applied twice, once from each side's point of view; the two accumulators are concatenated,
//! **the side to move's first**, passed through SCReLU and into one output neuron.
//!
//! **Features.** For the perspective `p` (a colour), a piece of colour `c` and role `r` (pawn 0,
//! knight 1, bishop 2, rook 3, queen 4, king 5) on square `s` (a1 = 0, b1 = 1, …, h8 = 63) is
//! the input
//!
//! ```text
//! index(p, c, r, s) = 384 · [c ≠ p] + 64 · r + (s if p is White, else s XOR 56)
//! ```
//!
//! so each side sees the board from its own first rank ("us" pieces 0–383, "them" 384–767). The
//! other perspective's index of the same piece is `(index + 384) mod 768` with the square's
//! rank mirrored (`XOR 56`): [`mirror_feature`].
//!
//! **Float network** (what the trainer learns; `QA`, `QB` and `SCALE` come from the
//! [header](mod@format)):
//!
//! ```text
//! acc_p[i]  = ft_bias[i] + Σ_{f active for p} ft_weight[f][i]        (i < N, p ∈ {us, them})
//! h         = [SCReLU(acc_us), SCReLU(acc_them)],  SCReLU(x) = clamp(x, 0, 1)²
//! out       = out_bias + Σ_{j < 2N} out_weight[j] · h[j]
//! eval (cp) = out · SCALE                      (from the side to move's view)
//! ```
//!
//! **Quantised network** (what the file stores and [`Network::evaluate`] computes):
//! `ft_weight` and `ft_bias` are multiplied by `QA` and rounded, `out_weight` by `QB`, `out_bias`
//! by `QA · QB`. Then, in integers (accumulator sums in `i32`, products in `i64`; `/` truncates
//! toward zero as in Rust):
//!
//! ```text
//! acc_p[i] = ft_bias[i] + Σ ft_weight[f][i]
//! sum      = Σ_{i<N} clamp(acc_us[i], 0, QA)² · out_weight[i]
//!          + Σ_{i<N} clamp(acc_them[i], 0, QA)² · out_weight[N + i]
//! eval     = (sum / QA + out_bias) · SCALE / (QA · QB)
//! ```
//!
//! The trainer keeps every float weight within ±[`WEIGHT_CLIP`], so an accumulator of at most 32
//! pieces stays well inside `i16` (32 · 1.98 · 255 + |bias| < 32 767): the search's
//! incremental accumulators ([`accumulator`]) use `i16` lanes and equal this full refresh.
//!
//! ```
//! use chessbits::position::Position;
//! use chessbits_engine::eval::nnue::Network;
//! let net = Network::seeded(8, 1);
//! let mut bytes = Vec::new();
//! net.write(&mut bytes).unwrap();
//! let back = Network::read(&bytes[..]).unwrap();
//! assert_eq!(back, net);
//! assert_eq!(back.evaluate(&Position::startpos()), net.evaluate(&Position::startpos()));
//! ```

pub mod accumulator;
pub mod embedded;
pub mod format;

use chessbits::position::Position;
use chessbits::types::{Color, Square};

use crate::rng::SplitMix64;
pub use format::NetworkError;

/// Inputs of the feature transformer: 2 colours × 6 roles × 64 squares.
pub const INPUTS: usize = 768;
/// The default quantisation of the feature transformer (weights and biases).
pub const QA: i32 = 255;
/// The default quantisation of the output weights.
pub const QB: i32 = 64;
/// The default output scale: centipawns per unit of the float output.
pub const SCALE: i32 = 400;
/// The largest hidden width a file may declare.
pub const MAX_HIDDEN: usize = 4096;
/// The trainer clips every float weight to ±this (see the [module docs](self)).
pub const WEIGHT_CLIP: f32 = 1.98;

/// The input index of a piece of colour `color` and role index `role` (0–5) on `sq`, seen from
/// `perspective` (see the [module docs](self)).
pub fn feature_index(perspective: Color, color: Color, role: usize, sq: Square) -> usize {
    let side = usize::from(color != perspective);
    let sq = match perspective {
        Color::White => sq.index(),
        Color::Black => sq.index() ^ 56,
    };
    side * 384 + role * 64 + sq
}

/// The index of the same piece from the other perspective.
pub fn mirror_feature(index: usize) -> usize {
    let other = if index >= 384 { index - 384 } else { index + 384 };
    other ^ 56
}

/// The active inputs of `pos` from the side to move's perspective, in square order (at most 32);
/// the other perspective's are their [`mirror_feature`]s.
pub fn active_features(pos: &Position) -> Vec<usize> {
    let stm = pos.turn();
    let board = pos.board();
    board
        .occupied()
        .into_iter()
        .filter_map(|sq| {
            board
                .piece_at(sq)
                .map(|p| feature_index(stm, p.color, p.role.index(), sq))
        })
        .collect()
}

/// A quantised network (see the [module docs](self) for the layout and the arithmetic).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Network {
    /// The hidden width `N`.
    pub hidden: usize,
    /// The feature transformer's quantisation (`QA`).
    pub qa: i32,
    /// The output layer's quantisation (`QB`).
    pub qb: i32,
    /// Centipawns per unit of the float output.
    pub scale: i32,
    /// `768 × N` weights, row `f` (the `N` weights of input `f`) at `f · N`.
    pub ft_weights: Vec<i16>,
    /// `N` biases of the feature transformer.
    pub ft_biases: Vec<i16>,
    /// `2N` output weights: the side to move's accumulator's `N`, then the other side's.
    pub out_weights: Vec<i16>,
    /// The output bias, at scale `QA · QB`.
    pub out_bias: i32,
}

impl Network {
    /// An all-zero network of width `hidden` with the default scales (evaluates to 0).
    pub fn zeroed(hidden: usize) -> Network {
        Network {
            hidden,
            qa: QA,
            qb: QB,
            scale: SCALE,
            ft_weights: vec![0; INPUTS * hidden],
            ft_biases: vec![0; hidden],
            out_weights: vec![0; 2 * hidden],
            out_bias: 0,
        }
    }

    /// A network of width `hidden` with deterministic pseudo-random weights from `seed` (for
    /// tests and the golden file): feature weights in −64..64, biases in 0..64, output weights
    /// in −64..64, output bias in −4096..4096.
    pub fn seeded(hidden: usize, seed: u64) -> Network {
        let mut rng = SplitMix64::new(seed);
        let mut small = |range: i64, offset: i64| (rng.next_u64() % range as u64) as i64 - offset;
        let mut net = Network::zeroed(hidden);
        for w in &mut net.ft_weights {
            *w = small(128, 64) as i16;
        }
        for b in &mut net.ft_biases {
            *b = small(64, 0) as i16;
        }
        for w in &mut net.out_weights {
            *w = small(128, 64) as i16;
        }
        net.out_bias = small(8192, 4096) as i32;
        net
    }

    /// The accumulator of the perspective whose features are `features`, refreshed from scratch.
    pub fn accumulate(&self, features: impl IntoIterator<Item = usize>) -> Vec<i32> {
        let n = self.hidden;
        let mut acc: Vec<i32> = self.ft_biases.iter().map(|&b| i32::from(b)).collect();
        for f in features {
            for (a, &w) in acc.iter_mut().zip(&self.ft_weights[f * n..(f + 1) * n]) {
                *a += i32::from(w);
            }
        }
        acc
    }

    /// The output for the two accumulators (the side to move's first), centipawns: `i32`
    /// values from [`accumulate`](Self::accumulate) or the `i16` lanes of an
    /// [`accumulator::AccumulatorStack`], the same arithmetic.
    pub fn output<T: Copy + Into<i64>>(&self, us: &[T], them: &[T]) -> i32 {
        let qa = i64::from(self.qa);
        let screlu = |x: T| {
            let c = x.into().clamp(0, qa);
            c * c
        };
        let (w_us, w_them) = self.out_weights.split_at(self.hidden);
        let mut sum: i64 = 0;
        for (&a, &w) in us.iter().zip(w_us) {
            sum += screlu(a) * i64::from(w);
        }
        for (&a, &w) in them.iter().zip(w_them) {
            sum += screlu(a) * i64::from(w);
        }
        self.finish(sum)
    }

    /// The last step of [`output`](Self::output): the output layer's sum (at scale `QA² · QB`)
    /// to centipawns.
    pub(crate) fn finish(&self, sum: i64) -> i32 {
        let qa = i64::from(self.qa);
        let out = (sum / qa + i64::from(self.out_bias)) * i64::from(self.scale) / (qa * i64::from(self.qb));
        out.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32
    }

    /// The evaluation of `pos` in centipawns from the side to move's view: both accumulators
    /// refreshed from scratch, scalar (the oracle of any faster implementation).
    pub fn evaluate(&self, pos: &Position) -> i32 {
        let features = active_features(pos);
        let us = self.accumulate(features.iter().copied());
        let them = self.accumulate(features.iter().map(|&f| mirror_feature(f)));
        self.output(&us, &them)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chessbits::types::Square;

    #[test]
    fn features_mirror_between_perspectives() {
        // A white pawn on e2 seen by White is Black's pawn on e7 seen by Black.
        let e2 = Square::E2;
        let e7 = Square::E7;
        assert_eq!(feature_index(Color::White, Color::White, 0, e2), 12);
        assert_eq!(feature_index(Color::Black, Color::Black, 0, e7), 12);
        assert_eq!(feature_index(Color::Black, Color::White, 0, e2), 384 + 52);
        for f in 0..INPUTS {
            assert_eq!(mirror_feature(mirror_feature(f)), f);
        }
        let start = active_features(&Position::startpos());
        assert_eq!(start.len(), 32);
        assert!(start.iter().all(|&f| f < INPUTS));
    }

    #[test]
    fn the_evaluation_is_colour_symmetric() {
        // The start position and its colour-flipped copy (Black to move) evaluate the same.
        let net = Network::seeded(8, 3);
        let white = Position::from_fen("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3").unwrap();
        let black = Position::from_fen("rnbqkb1r/pppp1ppp/5n2/4p3/4P3/2N5/PPPP1PPP/R1BQKBNR b KQkq - 2 3").unwrap();
        assert_eq!(net.evaluate(&white), net.evaluate(&black));
        assert_ne!(net.evaluate(&white), 0);
    }
}
