//! Playing below full strength (`UCI_LimitStrength`, `UCI_Elo`): a shallower search and, among
//! the best few root moves, a weaker one picked now and then.
//!
//! A rating becomes a *level* from 0 (weakest) to 20 (full strength). The level bounds the
//! search depth (`1 + level` plies; no bound at 20) and sets a *weakness* (`120 − 2·level`).
//! The search looks at [`Strength::LINES`] root moves as MultiPV lines; the move played is the
//! line whose score plus a push is largest, where a line `d` centipawns behind the best gets
//! the push `(weakness·d + spread·r) / 128`, `r` uniform in `0..weakness` and `spread` the gap
//! between the best and worst line (at most a pawn). At low levels moves a pawn or so worse
//! are often preferred; near 20 almost never. This is Stockfish's "skill level" scheme, the
//! one GUIs' users know; its rating scale here is our own, calibrated by matches against
//! Stockfish's `UCI_Elo` levels (docs/engine.md has the table and the command).

use super::score::is_mate;
use crate::rng::SplitMix64;

/// A strength limit: the rating asked for, and the random state of the move choice.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Strength {
    elo: u32,
    seed: u64,
}

impl Strength {
    /// The measured ratings of levels 0, 9 and 20 on Stockfish's `UCI_Elo` scale (matches
    /// against Stockfish 15.1 at 0.1 s a move, docs/engine.md; where two matches measured a
    /// level, their mean): the level of a rating is interpolated between them.
    pub const SCALE: [(u32, u32); 3] = [(0, 970), (9, 1670), (20, 2140)];
    /// The lowest rating `UCI_Elo` accepts: level 0's.
    pub const MIN_ELO: u32 = Self::SCALE[0].1;
    /// The highest: the full-strength engine's rating on this scale.
    pub const MAX_ELO: u32 = Self::SCALE[Self::SCALE.len() - 1].1;
    /// Root moves searched as MultiPV lines to choose from.
    pub const LINES: usize = 4;

    /// A limit at `elo` (clamped to [`MIN_ELO`](Self::MIN_ELO)..=[`MAX_ELO`](Self::MAX_ELO)),
    /// choosing with the random stream `seed` (the same seed and lines give the same move; the
    /// UCI engine takes a new seed for every search).
    ///
    /// ```
    /// use chessbits_engine::search::strength::Strength;
    /// assert_eq!(Strength::new(800, 1).elo(), Strength::MIN_ELO);
    /// assert_eq!(Strength::new(1670, 1).level(), 9);
    /// assert_eq!(Strength::new(1900, 1).level(), 14);
    /// assert_eq!(Strength::new(Strength::MAX_ELO, 1).level(), 20);
    /// assert_eq!(Strength::new(Strength::MIN_ELO, 1).level(), 0);
    /// ```
    pub fn new(elo: u32, seed: u64) -> Strength {
        Strength {
            elo: elo.clamp(Self::MIN_ELO, Self::MAX_ELO),
            seed,
        }
    }

    /// The rating asked for (clamped).
    pub fn elo(&self) -> u32 {
        self.elo
    }

    /// The level, 0 to 20: interpolated in [`SCALE`](Self::SCALE).
    pub fn level(&self) -> u32 {
        let segment = Self::SCALE
            .windows(2)
            .find(|w| self.elo <= w[1].1)
            .unwrap_or(&Self::SCALE[1..]);
        let [(level0, elo0), (level1, elo1)] = [segment[0], segment[segment.len() - 1]];
        level0 + (self.elo.max(elo0) - elo0) * (level1 - level0) / (elo1 - elo0).max(1)
    }

    /// The deepest iteration allowed, `None` at full strength.
    ///
    /// ```
    /// use chessbits_engine::search::strength::Strength;
    /// assert_eq!(Strength::new(Strength::MIN_ELO, 1).max_depth(), Some(1));
    /// assert_eq!(Strength::new(Strength::MAX_ELO, 1).max_depth(), None);
    /// ```
    pub fn max_depth(&self) -> Option<i32> {
        let level = self.level();
        (level < 20).then_some(1 + level as i32)
    }

    /// Picks the index of the line to play among `scores` (centipawns, best first, as the
    /// search orders its MultiPV lines).
    ///
    /// ```
    /// use chessbits_engine::search::strength::Strength;
    /// let scores = [50, 40, -30, -200];
    /// // Full strength always plays the best line.
    /// assert!((0..100).all(|seed| Strength::new(Strength::MAX_ELO, seed).pick(&scores) == 0));
    /// // The weakest level sometimes plays a move a tenth of a pawn worse.
    /// assert!((0..100).any(|seed| Strength::new(Strength::MIN_ELO, seed).pick(&scores) != 0));
    /// ```
    pub fn pick(&self, scores: &[i32]) -> usize {
        let level = self.level();
        let (Some(&top), Some(&worst)) = (scores.first(), scores.last()) else {
            return 0;
        };
        // Full strength, one line, or a mate found: the best line.
        if level >= 20 || scores.len() == 1 || is_mate(top) {
            return 0;
        }
        let weakness = i64::from(120 - 2 * level);
        let spread = i64::from(top - worst).clamp(0, 100);
        let mut rng = SplitMix64::new(self.seed);
        let mut best = (0, i64::MIN);
        for (i, &score) in scores.iter().enumerate() {
            if is_mate(score) {
                // Never walk into a mate the search saw.
                continue;
            }
            let random = rng.below(weakness as usize) as i64;
            let push = (weakness * i64::from(top - score) + spread * random) / 128;
            let value = i64::from(score) + push;
            if value > best.1 {
                best = (i, value);
            }
        }
        best.0
    }
}
