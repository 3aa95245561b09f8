//! Time management: how long to think about one move.
//!
//! Two limits come out of the clock: the **soft** limit is checked between iterations (do not
//! start another iteration past it), the **hard** limit during the search (stop now). Both
//! keep a `Move Overhead` in reserve for the GUI and the pipe, and the hard limit never
//! exceeds a fraction of the remaining time, so the engine does not lose on time with
//! increments or `movestogo`.
//!
//! ```
//! use chessbits_engine::time::{Clock, TimeManager};
//! let clock = Clock { time: Some(60_000), inc: 1_000, ..Clock::default() };
//! let tm = TimeManager::from_clock(&clock, 50);
//! let (soft, hard) = (tm.soft_ms().unwrap(), tm.hard_ms().unwrap());
//! assert!(soft <= hard && hard < 60_000 / 2);
//! ```

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

/// The side to move's clock from a `go` command, in milliseconds.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    /// Remaining time (`wtime` or `btime`).
    pub time: Option<u64>,
    /// Increment per move.
    pub inc: u64,
    /// Moves to the next time control.
    pub movestogo: Option<u64>,
    /// Fixed time for this move.
    pub movetime: Option<u64>,
}

/// Soft and hard limits, measured from a start that `ponderhit` may move.
#[derive(Debug)]
pub struct TimeManager {
    base: Instant,
    /// Microseconds from `base` to the start of the clock.
    start_us: AtomicU64,
    soft: Option<u64>,
    hard: Option<u64>,
}

impl Default for TimeManager {
    fn default() -> TimeManager {
        TimeManager::unlimited()
    }
}

impl Clone for TimeManager {
    fn clone(&self) -> TimeManager {
        TimeManager {
            base: self.base,
            start_us: AtomicU64::new(self.start_us.load(Ordering::Relaxed)),
            soft: self.soft,
            hard: self.hard,
        }
    }
}

impl TimeManager {
    /// No limits; the clock starts now (for `info time`).
    pub fn unlimited() -> TimeManager {
        TimeManager {
            base: Instant::now(),
            start_us: AtomicU64::new(0),
            soft: None,
            hard: None,
        }
    }

    /// Limits for `clock`, keeping `overhead_ms` in reserve.
    pub fn from_clock(clock: &Clock, overhead_ms: u64) -> TimeManager {
        let mut tm = TimeManager::unlimited();
        if let Some(movetime) = clock.movetime {
            // A fixed time is spent in full: no soft limit, which would end it early. The
            // reserve is at most a twentieth of it: `movetime` has no clock to lose on, a 50 ms
            // reserve would halve a 100 ms move, and a fifth (as before) had us search 81 ms of
            // each 100 ms move while glaurung took 122 ms (`scripts/match.py`'s mean time a move).
            let t = movetime.saturating_sub(overhead_ms.min(movetime / 20)).max(1);
            tm.hard = Some(t);
        } else if let Some(time) = clock.time {
            let safe = time.saturating_sub(overhead_ms).max(1);
            let moves_left = clock.movestogo.unwrap_or(20).clamp(1, 50);
            // An equal share of what is left plus three quarters of the increment: spending
            // less than the increment lets a short clock grow back to a reserve (about 12
            // increments) that absorbs a slow reply of the GUI or a busy machine. With the last
            // move before the control, most of the time (but never all of it). A twentieth,
            // not a thirtieth (and half the increment) as before: at 10 s + 0.1 s that left
            // about 4 s of the 16 a 60-move game has on the clock unused (199 ms a move against
            // Ethereal 12's 247 in the same games).
            let share = safe / moves_left + clock.inc * 3 / 4;
            let cap = if moves_left == 1 { safe * 9 / 10 } else { safe / 3 };
            let hard = (share * 3).min(cap).max(1);
            tm.soft = Some(share.min(hard).max(1));
            tm.hard = Some(hard);
        }
        tm
    }

    /// The soft limit in milliseconds, if any.
    pub fn soft_ms(&self) -> Option<u64> {
        self.soft
    }

    /// The hard limit in milliseconds, if any.
    pub fn hard_ms(&self) -> Option<u64> {
        self.hard
    }

    /// Milliseconds since the clock started.
    pub fn elapsed_ms(&self) -> u64 {
        let now = self.base.elapsed().as_micros() as u64;
        now.saturating_sub(self.start_us.load(Ordering::Relaxed)) / 1000
    }

    /// Restarts the clock now (`ponderhit`: our time starts when the opponent has moved).
    pub fn restart(&self) {
        self.start_us
            .store(self.base.elapsed().as_micros() as u64, Ordering::Relaxed);
    }

    /// Past the soft limit: start no new iteration.
    pub fn soft_exceeded(&self) -> bool {
        // An iteration takes several times the previous one: past 60% of the soft limit the
        // next one would likely not finish anyway.
        self.soft.is_some_and(|s| self.elapsed_ms() * 10 >= s * 6)
    }

    /// Past the hard limit: stop now.
    pub fn hard_exceeded(&self) -> bool {
        self.hard.is_some_and(|h| self.elapsed_ms() >= h)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn never_more_than_the_clock_allows() {
        for time in [10u64, 100, 1_000, 60_000, 600_000] {
            for inc in [0u64, 100, 2_000] {
                for movestogo in [None, Some(1), Some(2), Some(40)] {
                    let clock = Clock {
                        time: Some(time),
                        inc,
                        movestogo,
                        movetime: None,
                    };
                    let tm = TimeManager::from_clock(&clock, 30);
                    let hard = tm.hard_ms().unwrap();
                    assert!(hard <= time.saturating_sub(30).max(1), "{clock:?} {hard}");
                    assert!(tm.soft_ms().unwrap() <= hard);
                    assert!(hard >= 1);
                }
            }
        }
        let tm = TimeManager::from_clock(
            &Clock {
                movetime: Some(500),
                ..Clock::default()
            },
            30,
        );
        assert_eq!(tm.hard_ms(), Some(475));
        let short = Clock {
            movetime: Some(100),
            ..Clock::default()
        };
        assert_eq!(TimeManager::from_clock(&short, 50).hard_ms(), Some(95));
        assert!(TimeManager::from_clock(&Clock::default(), 30).hard_ms().is_none());
    }

    /// Plays `moves` moves at 10 s + 0.1 s, each spending `spend(soft, hard)`; the clock left.
    fn clock_after(moves: usize, spend: impl Fn(u64, u64) -> u64) -> u64 {
        let mut time = 10_000u64;
        for _ in 0..moves {
            let clock = Clock {
                time: Some(time),
                inc: 100,
                ..Clock::default()
            };
            let tm = TimeManager::from_clock(&clock, 50);
            let spent = spend(tm.soft_ms().unwrap(), tm.hard_ms().unwrap());
            assert!(spent < time, "{spent} ms spent of {time}");
            time = time - spent + 100;
        }
        time
    }

    #[test]
    fn the_clock_is_used_but_never_run_out() {
        // Every move to the hard limit: the clock settles at a reserve, never at zero.
        let worst = clock_after(300, |_, hard| hard);
        assert!(worst >= 200, "{worst} ms left");
        // Every move to the soft limit: a 60-move game uses most of its 16 s (the former
        // thirtieth and half increment left over 2.5 s), and still keeps a reserve.
        let typical = clock_after(60, |soft, _| soft);
        assert!((500..2_500).contains(&typical), "{typical} ms left");
    }
}
