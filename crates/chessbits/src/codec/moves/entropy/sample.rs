//! Sampling games from the move model: each move is drawn with exactly the probability the
//! entropy code gives it (`freq / total`, see the [parent module](super)), from a seeded
//! pseudo-random generator.
//!
//! Decoding uniformly random bytes with [`GameDecoder`](super::GameDecoder) also samples the
//! model, but through the range coder's finite precision and with a ply count fixed in advance;
//! [`Sampler`] draws one uniform integer below the total per ply and picks the move whose
//! interval holds it, the same interval search as the decoder, so a game stops whenever the
//! caller likes and the same seed always gives the same game.
//!
//! ```
//! use chessbits::codec::moves::entropy::sample::{Sampler, SplitMix64};
//! use chessbits::codec::moves::entropy::{decode_game, encode_game};
//! use chessbits::position::Position;
//! let start = Position::startpos();
//! let mut sampler = Sampler::new();
//! let mut rng = SplitMix64::new(42);
//! let mut pos = start.clone();
//! let mut moves = Vec::new();
//! while moves.len() < 40 {
//!     let Some(m) = sampler.sample(&pos, &mut rng) else { break }; // mate or stalemate
//!     pos.play_unchecked(m);
//!     moves.push(m);
//! }
//! // Every sampled move is legal: the entropy code takes the game back.
//! let bytes = encode_game(&start, &moves).unwrap();
//! assert_eq!(decode_game(&start, &bytes, moves.len()).unwrap(), moves);
//! // The same seed gives the same game.
//! sampler.reset();
//! let mut again = SplitMix64::new(42);
//! assert_eq!(sampler.sample(&start, &mut again), Some(moves[0]));
//! ```

use crate::moves::Move;
use crate::position::Position;

use super::model::MoveModel;

/// SplitMix64 (Steele, Lea and Flood 2014): a 64-bit state stepped by a constant and mixed; small,
/// fast, and every seed (nearby ones included) gives an unrelated stream. Not cryptographic.
///
/// ```
/// use chessbits::codec::moves::entropy::sample::SplitMix64;
/// let mut rng = SplitMix64::new(0);
/// // The reference sequence for seed 0.
/// assert_eq!(rng.next_u64(), 0xe220_a839_7b1d_cdaf);
/// assert_eq!(rng.next_u64(), 0x6e78_9e6a_a1b9_65f4);
/// assert!(rng.below(6) < 6);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    /// A generator started at `seed`.
    pub const fn new(seed: u64) -> SplitMix64 {
        SplitMix64 { state: seed }
    }

    /// SplitMix64's output function on its own: a bijection of the 64-bit integers that spreads
    /// nearby inputs, for deriving independent seeds (`mix(seed ^ mix(i))`).
    ///
    /// ```
    /// use chessbits::codec::moves::entropy::sample::SplitMix64;
    /// assert_ne!(SplitMix64::mix(1) ^ SplitMix64::mix(2), 3);
    /// assert_eq!(SplitMix64::mix(0), 0);
    /// ```
    pub const fn mix(mut z: u64) -> u64 {
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        SplitMix64::mix(self.state)
    }

    /// A uniform integer in `0..n` (0 for `n = 0`), without bias: Lemire's multiply-shift with
    /// rejection of the few values that would favour the low results.
    ///
    /// ```
    /// use chessbits::codec::moves::entropy::sample::SplitMix64;
    /// let mut rng = SplitMix64::new(7);
    /// let mut seen = [0u32; 3];
    /// for _ in 0..3000 {
    ///     seen[rng.below(3) as usize] += 1;
    /// }
    /// assert!(seen.iter().all(|&c| (900..1100).contains(&c)), "{seen:?}");
    /// assert_eq!(rng.below(0), 0);
    /// ```
    pub fn below(&mut self, n: u64) -> u64 {
        if n == 0 {
            return 0;
        }
        let threshold = n.wrapping_neg() % n;
        loop {
            let product = u128::from(self.next_u64()) * u128::from(n);
            if (product as u64) >= threshold {
                return (product >> 64) as u64;
            }
        }
    }

    /// `true` with probability `numerator / denominator` (`false` if the denominator is 0).
    ///
    /// ```
    /// use chessbits::codec::moves::entropy::sample::SplitMix64;
    /// let mut rng = SplitMix64::new(1);
    /// assert!(rng.chance(1, 1));
    /// assert!(!rng.chance(0, 5));
    /// ```
    pub fn chance(&mut self, numerator: u64, denominator: u64) -> bool {
        self.below(denominator) < numerator
    }
}

/// Draws moves from the entropy model: the legal moves of a position with the frequencies of
/// [`MoveModel::frequencies`], one chosen with probability `freq / total`. Keeps the model's
/// memory of the game (last moves, moves repeated), so call [`reset`](Sampler::reset) between
/// games and [`observe`](Sampler::observe) for moves chosen otherwise (an opening line). Reuses
/// its buffers: nothing is allocated per move.
///
/// ```
/// use chessbits::codec::moves::entropy::model::MoveModel;
/// use chessbits::codec::moves::entropy::sample::{Sampler, SplitMix64};
/// use chessbits::position::Position;
/// // The queen takes the undefended knight about as often as the model says.
/// let pos = Position::from_fen("4k3/8/8/3n4/8/8/8/3QK3 w - - 0 30").unwrap();
/// let moves = pos.legal_moves();
/// let mut model = MoveModel::new();
/// let (freqs, total) = model.frequencies(&pos, &moves);
/// let take = moves.iter().position(|m| m.to_string() == "d1d5").unwrap();
/// let expected = f64::from(freqs[take]) / f64::from(total);
/// let mut sampler = Sampler::new();
/// let mut rng = SplitMix64::new(3);
/// let draws = 4000;
/// let hits = (0..draws)
///     .filter(|_| {
///         sampler.reset();
///         sampler.sample(&pos, &mut rng).unwrap().to_string() == "d1d5"
///     })
///     .count();
/// assert!((hits as f64 / draws as f64 - expected).abs() < 0.03);
/// ```
pub struct Sampler {
    model: MoveModel,
}

impl Default for Sampler {
    fn default() -> Sampler {
        Sampler::new()
    }
}

impl Sampler {
    /// A sampler at the start of a game.
    pub fn new() -> Sampler {
        Sampler {
            model: MoveModel::new(),
        }
    }

    /// Forgets the game so far: call before each new game.
    pub fn reset(&mut self) {
        self.model.reset();
    }

    /// Records that `m` is played in `pos` without sampling it (call before making it), so
    /// that the moves that follow are drawn as the model would code them after it.
    pub fn observe(&mut self, pos: &Position, m: Move) {
        self.model.observe(pos, m);
    }

    /// A legal move of `pos` drawn with the model's probability, recorded as played (make it
    /// next); `None` if `pos` has no legal move (checkmate or stalemate). One call of
    /// [`SplitMix64::below`] per move drawn, none for a forced move.
    pub fn sample(&mut self, pos: &Position, rng: &mut SplitMix64) -> Option<Move> {
        let total = self.model.prepare(pos);
        let m = match *self.model.prepared_moves() {
            [] => return None,
            [m] => m,
            [.., last] => {
                let target = rng.below(u64::from(total)) as u32;
                // The target is below the total: `find` always finds it.
                self.model.find(target).map_or(last, |(m, _, _)| m)
            }
        };
        self.model.observe(pos, m);
        Some(m)
    }

    /// The number of legal moves of the position last given to [`sample`](Sampler::sample)
    /// (0 after a mate or stalemate): whether the position after the last move is lost or
    /// drawn is known without generating its moves again.
    ///
    /// ```
    /// use chessbits::codec::moves::entropy::sample::{Sampler, SplitMix64};
    /// use chessbits::position::Position;
    /// let mate = Position::from_fen("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1").unwrap();
    /// let mut sampler = Sampler::new();
    /// assert_eq!(sampler.sample(&mate, &mut SplitMix64::new(0)), None);
    /// assert_eq!(sampler.legal_move_count(), 0);
    /// ```
    pub fn legal_move_count(&self) -> usize {
        self.model.prepared_moves().len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The first move's empirical frequencies over many games follow the model's (a chi-square
    /// statistic far below what a wrong mapping from target to move would give).
    #[test]
    fn first_moves_follow_the_model() {
        let pos = Position::startpos();
        let moves = pos.legal_moves();
        let (freqs, total) = {
            let mut model = MoveModel::new();
            let (f, t) = model.frequencies(&pos, &moves);
            (f.to_vec(), t)
        };
        let mut counts = vec![0u64; moves.len()];
        let mut sampler = Sampler::new();
        let mut rng = SplitMix64::new(2024);
        let draws = 200_000u64;
        for _ in 0..draws {
            sampler.reset();
            let m = sampler.sample(&pos, &mut rng).unwrap();
            counts[moves.iter().position(|&x| x == m).unwrap()] += 1;
        }
        let chi2: f64 = counts
            .iter()
            .zip(&freqs)
            .map(|(&c, &f)| {
                let expected = draws as f64 * f64::from(f) / f64::from(total);
                (c as f64 - expected).powi(2) / expected
            })
            .sum();
        // 19 degrees of freedom: the 99.9% quantile is 43.8.
        assert!(chi2 < 43.8, "chi2 {chi2}, counts {counts:?}, freqs {freqs:?}");
    }

    /// A sampled game, coded and decoded, gives the same moves; and `sample` leaves the model as
    /// the decoder's (so the code of a sampled game is as short as its probability says).
    #[test]
    fn sampled_games_are_legal_and_code_back() {
        let start = Position::startpos();
        let mut sampler = Sampler::new();
        let mut rng = SplitMix64::new(9);
        for _ in 0..50 {
            sampler.reset();
            let mut pos = start.clone();
            let mut moves = Vec::new();
            while moves.len() < 120 {
                let Some(m) = sampler.sample(&pos, &mut rng) else { break };
                assert!(pos.is_legal(m));
                pos.play_unchecked(m);
                moves.push(m);
            }
            let bytes = super::super::encode_game(&start, &moves).unwrap();
            assert_eq!(super::super::decode_game(&start, &bytes, moves.len()).unwrap(), moves);
        }
    }

    #[test]
    fn below_is_uniform_enough_and_in_range() {
        let mut rng = SplitMix64::new(5);
        for n in [1u64, 2, 3, 7, 1 << 16, u64::MAX] {
            for _ in 0..100 {
                assert!(rng.below(n) < n);
            }
        }
    }
}
