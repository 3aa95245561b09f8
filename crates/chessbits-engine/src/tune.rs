//! Texel tuning of the evaluation weights on positions from games with their results.
//!
//! Each sampled position gets the game's result from White's side (1, ½, 0). With the
//! evaluation `e` (centipawns, White's side) the predicted result is `σ(e) = 1 / (1 +
//! 10^(−K·e/400))`; the error is the mean of `(result − σ(e))²`. `K` is fitted first with the
//! default weights, then every weight in turn is moved up or down by a step while that lowers
//! the error (the local search of Texel's method), over several passes with shrinking steps.
//!
//! Positions: from move 5 on, not in check, the move played from it quiet (not a capture or
//! promotion), and no capture or promotion that wins material by static exchange — a cheap
//! stand-in for "the position is quiet", so that the static evaluation is a fair guess of its
//! value.
//!
//! ```
//! use chessbits_engine::tune::{positions_from_pgn, mean_error};
//! use chessbits_engine::eval::params::DEFAULT;
//! let pgn = b"[Result \"1-0\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 6. Re1 b5 1-0\n";
//! let samples = positions_from_pgn(&pgn[..]).unwrap();
//! assert!(!samples.is_empty() && samples.iter().all(|s| s.result == 1.0));
//! assert!(mean_error(&samples, &DEFAULT, 1.0) < 0.5);
//! ```

use std::io::Read;

use chessbits::pgn::{GameResult, PgnReader};
use chessbits::position::Position;
use chessbits::types::Color;

use crate::eval::evaluate_with;
use crate::eval::params::{name, Params, COUNT};

/// One training position with its game's result for White.
#[derive(Clone, Debug)]
pub struct Sample {
    /// The position.
    pub pos: Position,
    /// 1 for a White win, 0.5 for a draw, 0 for a Black win.
    pub result: f64,
}

/// The samples of every game with a decisive or drawn result in a PGN stream.
pub fn positions_from_pgn(input: impl Read) -> std::io::Result<Vec<Sample>> {
    let mut samples = Vec::new();
    for game in PgnReader::new(input).into_games() {
        let game = match game {
            Ok(game) => game,
            Err(chessbits::pgn::PgnError::Io(e)) => return Err(e),
            Err(_) => continue,
        };
        let result = match game.declared_result() {
            GameResult::WhiteWins => 1.0,
            GameResult::BlackWins => 0.0,
            GameResult::Draw => 0.5,
            GameResult::Unknown => continue,
        };
        let mut pos = game.start.clone();
        for (ply, m) in game.mainline().enumerate() {
            if m.is_null() || !pos.is_legal(m) {
                break;
            }
            if ply >= 8 && !pos.is_check() && !m.is_tactical() && !has_winning_capture(&pos) {
                samples.push(Sample {
                    pos: pos.clone(),
                    result,
                });
            }
            pos.play_unchecked(m);
        }
    }
    Ok(samples)
}

/// Whether the side to move can win material at once (a capture or promotion with a positive
/// static exchange): then the static evaluation misjudges the position.
fn has_winning_capture(pos: &Position) -> bool {
    let mut list = chessbits::lists::MoveList::new();
    pos.tactical_moves_into(&mut list);
    list.iter().any(|&m| pos.see_ge(m, 1))
}

fn white_eval(pos: &Position, params: &Params) -> f64 {
    let e = evaluate_with(pos, params) as f64;
    if pos.turn() == Color::White {
        e
    } else {
        -e
    }
}

fn sigmoid(e: f64, k: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-k * e / 400.0))
}

/// The mean squared error of the predicted against the actual results.
pub fn mean_error(samples: &[Sample], params: &Params, k: f64) -> f64 {
    if samples.is_empty() {
        return 0.0;
    }
    let sum: f64 = samples
        .iter()
        .map(|s| {
            let d = s.result - sigmoid(white_eval(&s.pos, params), k);
            d * d
        })
        .sum();
    sum / samples.len() as f64
}

/// The scaling constant `K` that minimises the error with `params` (golden-section search).
pub fn fit_k(samples: &[Sample], params: &Params) -> f64 {
    let (mut a, mut b) = (0.1f64, 3.0f64);
    let g = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..30 {
        let c = b - g * (b - a);
        let d = a + g * (b - a);
        if mean_error(samples, params, c) < mean_error(samples, params, d) {
            b = d;
        } else {
            a = c;
        }
    }
    (a + b) / 2.0
}

/// What a tuning run found.
#[derive(Clone, Debug)]
pub struct TuneReport {
    /// The fitted `K`.
    pub k: f64,
    /// The error with the starting weights.
    pub error_before: f64,
    /// The error with the tuned weights.
    pub error_after: f64,
    /// The tuned weights.
    pub params: Params,
}

/// Texel's local search from `start`: `passes` passes over all weights, steps 8, 4, 2, 1 …
/// (at least 1). `progress` receives one line per pass.
pub fn tune(samples: &[Sample], start: &Params, passes: usize, progress: &mut dyn FnMut(&str)) -> TuneReport {
    let k = fit_k(samples, start);
    let error_before = mean_error(samples, start, k);
    let mut params = start.clone();
    let mut best = error_before;
    for pass in 0..passes {
        let step = (8 >> pass.min(3)).max(1);
        let mut improved = 0;
        for i in 0..COUNT {
            for delta in [step, -step] {
                let mut trial = params.clone();
                trial.0[i] += delta;
                let e = mean_error(samples, &trial, k);
                if e < best {
                    best = e;
                    params = trial;
                    improved += 1;
                    break;
                }
            }
        }
        progress(&format!(
            "pass {} step {step}: error {best:.6}, {improved} weights moved",
            pass + 1
        ));
    }
    TuneReport {
        k,
        error_before,
        error_after: best,
        params,
    }
}

/// The report as text: K, errors, and every weight that changed.
pub fn describe(report: &TuneReport, start: &Params, samples: usize) -> String {
    let mut text = format!(
        "positions {samples}\nK {:.4}\nerror before {:.6}\nerror after  {:.6}\n",
        report.k, report.error_before, report.error_after
    );
    for i in 0..COUNT {
        if report.params.0[i] != start.0[i] {
            text += &format!("{:<22} {:>5} -> {:>5}\n", name(i), start.0[i], report.params.0[i]);
        }
    }
    text += &format!("weights {:?}\n", report.params.0);
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::params::DEFAULT;

    #[test]
    fn tuning_never_raises_the_error() {
        let pgn = b"[Result \"0-1\"]\n\n1. f3 e5 2. g4 d6 3. h3 Nc6 4. a3 Nf6 5. b3 Be7 6. c3 O-O 7. d3 Re8 8. e3 Bf8 0-1\n\n[Result \"1/2-1/2\"]\n\n1. d4 d5 2. c4 e6 3. Nc3 Nf6 4. Bg5 Be7 5. e3 O-O 6. Nf3 h6 1/2-1/2\n";
        let samples = positions_from_pgn(&pgn[..]).unwrap();
        assert!(samples.len() > 5);
        let report = tune(&samples, &DEFAULT, 1, &mut |_| {});
        assert!(report.error_after <= report.error_before);
        assert!(describe(&report, &DEFAULT, samples.len()).contains("error after"));
    }
}
