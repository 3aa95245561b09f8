//! One clock for every timing program of `benches/` (included with `#[path]`).
//!
//! It measures the CPU time of the calling thread, which the time slices given to other
//! processes on a shared machine do not inflate; where the system does not tell, wall time.
//! Work spread over several threads is measured in wall time ([`Clock::wall`]): the calling
//! thread's CPU time would leave the others out.
#![allow(dead_code)]

use std::time::{Duration, Instant};

use cpu_time::ThreadTime;

/// A started measurement.
pub struct Clock {
    cpu: Option<ThreadTime>,
    wall: Instant,
}

impl Clock {
    /// Starts measuring this thread's CPU time (wall time if unavailable).
    pub fn start() -> Clock {
        Clock {
            cpu: ThreadTime::try_now().ok(),
            wall: Instant::now(),
        }
    }

    /// Starts measuring wall time: for work on several threads.
    pub fn wall() -> Clock {
        Clock {
            cpu: None,
            wall: Instant::now(),
        }
    }

    /// CPU time for work on one thread, wall time for more (`threads` as the work is configured:
    /// 1 for the calling thread alone).
    pub fn for_threads(threads: usize) -> Clock {
        if threads == 1 {
            Clock::start()
        } else {
            Clock::wall()
        }
    }

    /// The time since the start.
    pub fn elapsed(&self) -> Duration {
        self.cpu
            .as_ref()
            .and_then(|t| t.try_elapsed().ok())
            .unwrap_or_else(|| self.wall.elapsed())
    }

    /// The time since the start in seconds, at least a microsecond (so rates stay finite).
    pub fn seconds(&self) -> f64 {
        self.elapsed().as_secs_f64().max(1e-6)
    }
}

/// The shortest time of `rounds` runs of `f`, in seconds.
pub fn best_of(rounds: usize, mut f: impl FnMut()) -> f64 {
    (0..rounds.max(1))
        .map(|_| {
            let clock = Clock::start();
            f();
            clock.seconds()
        })
        .fold(f64::INFINITY, f64::min)
}

/// The program's arguments without the `--bench` that `cargo bench` passes.
pub fn args() -> Vec<String> {
    std::env::args().skip(1).filter(|a| a != "--bench").collect()
}

/// Whether `cargo bench` runs the program (it passes `--bench`). `cargo test --benches` (and
/// `--all-targets`) runs bench programs without it: then a measurement program only says how
/// to run it, and `main` returns at once.
pub fn benchmarking(name: &str) -> bool {
    let timed = std::env::args().any(|a| a == "--bench");
    if !timed {
        println!("{name}: a measurement program; run it with `cargo bench --bench {name}`");
    }
    timed
}
