//! Tuning the piece-square tables by gradient descent on the Texel error.
//!
//! The local search of [`crate::tune`] moves one weight at a time and evaluates every sample
//! per trial: fine for 41 weights, far too slow for 768 squares. The evaluation is linear in
//! the square values (each piece adds its middlegame value × phase / 24 and its endgame value
//! × (24 − phase) / 24), so each sample becomes a sparse feature vector once, its evaluation
//! with the current tables is kept, and the corrections to the tables are fitted with Adam on
//! the mean squared error of `σ(eval)` against the game results, with an L2 penalty that keeps
//! rarely seen squares near the current tables. A tenth of the samples (in blocks, so whole
//! games) is held out, to see the fit generalise.

use chessbits::position::Position;
use chessbits::types::Color;

use crate::eval::params::{Params, PST_SCALE};
use crate::eval::{evaluate_with, FULL_PHASE};
use crate::tune::Sample;

/// Corrections: `[phase (0 mg, 1 eg)][role][square from White's side]`, flattened.
pub const FEATURES: usize = 2 * 6 * 64;

struct Prepared {
    /// White's evaluation with the current tables.
    base: f64,
    result: f64,
    /// (feature, coefficient) pairs.
    features: Vec<(u16, f32)>,
}

fn prepare(pos: &Position, result: f64, params: &Params) -> Prepared {
    let e = evaluate_with(pos, params) as f64;
    let base = if pos.turn() == Color::White { e } else { -e };
    let board = pos.board();
    let phase = crate::eval::phase(board) as f32;
    let full = FULL_PHASE as f32;
    let mg_scale = params.0[PST_SCALE] as f32 / 100.0;
    let eg_scale = params.0[PST_SCALE + 1] as f32 / 100.0;
    let mut features = Vec::with_capacity(64);
    for sq in board.occupied() {
        let Some(piece) = board.piece_at(sq) else { continue };
        let (relative, sign) = if piece.color == Color::White {
            (sq, 1.0)
        } else {
            (sq.flip_vertical(), -1.0)
        };
        let i = piece.role.index() * 64 + relative.index();
        features.push((i as u16, sign * mg_scale * phase / full));
        features.push(((384 + i) as u16, sign * eg_scale * (full - phase) / full));
    }
    Prepared { base, result, features }
}

fn sigmoid(e: f64, k: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-k * e / 400.0))
}

fn error(samples: &[Prepared], delta: &[f64], k: f64) -> f64 {
    let sum: f64 = samples
        .iter()
        .map(|s| {
            let e = s.base
                + s.features
                    .iter()
                    .map(|&(i, c)| delta[i as usize] * c as f64)
                    .sum::<f64>();
            let d = s.result - sigmoid(e, k);
            d * d
        })
        .sum();
    sum / samples.len().max(1) as f64
}

/// Fits corrections to the piece-square tables (centipawns, indexed as [`FEATURES`]) over
/// `iterations` of full-batch Adam with L2 weight `lambda`; `k` is the scaling constant fitted
/// by [`crate::tune::fit_k`]. `progress` receives the training and held-out errors.
pub fn tune_pst(
    samples: &[Sample],
    params: &Params,
    k: f64,
    iterations: usize,
    lambda: f64,
    progress: &mut dyn FnMut(&str),
) -> Vec<f64> {
    let prepared: Vec<Prepared> = samples.iter().map(|s| prepare(&s.pos, s.result, params)).collect();
    // Every tenth block of 1,000 consecutive samples (about fifteen games) is held out:
    // positions of one game are alike, so single positions held out would flatter the fit.
    let (mut train, mut test) = (Vec::new(), Vec::new());
    for (i, p) in prepared.into_iter().enumerate() {
        if (i / 1000) % 10 == 9 {
            test.push(p);
        } else {
            train.push(p);
        }
    }
    let mut delta = vec![0.0f64; FEATURES];
    let (mut m, mut v) = (vec![0.0f64; FEATURES], vec![0.0f64; FEATURES]);
    let (beta1, beta2, rate) = (0.9f64, 0.999f64, 1.0f64);
    let ln10 = std::f64::consts::LN_10;
    progress(&format!(
        "start: train {:.6} test {:.6}",
        error(&train, &delta, k),
        error(&test, &delta, k)
    ));
    for t in 1..=iterations {
        let mut grad = vec![0.0f64; FEATURES];
        for s in &train {
            let e = s.base
                + s.features
                    .iter()
                    .map(|&(i, c)| delta[i as usize] * c as f64)
                    .sum::<f64>();
            let p = sigmoid(e, k);
            let g = -2.0 * (s.result - p) * p * (1.0 - p) * k * ln10 / 400.0;
            for &(i, c) in &s.features {
                grad[i as usize] += g * c as f64;
            }
        }
        let n = train.len().max(1) as f64;
        for i in 0..FEATURES {
            let g = grad[i] / n + 2.0 * lambda * delta[i];
            m[i] = beta1 * m[i] + (1.0 - beta1) * g;
            v[i] = beta2 * v[i] + (1.0 - beta2) * g * g;
            let mh = m[i] / (1.0 - beta1.powi(t as i32));
            let vh = v[i] / (1.0 - beta2.powi(t as i32));
            delta[i] -= rate * mh / (vh.sqrt() + 1e-12);
        }
        if t % 100 == 0 || t == iterations {
            progress(&format!(
                "iteration {t}: train {:.6} test {:.6}",
                error(&train, &delta, k),
                error(&test, &delta, k)
            ));
        }
    }
    delta
}

/// The corrections as the Rust source of `eval/pst_tuned.rs`'s table, rounded.
pub fn rust_table(delta: &[f64]) -> String {
    let mut text = String::from("pub(crate) static TUNED: [[[i16; 64]; 6]; 2] = [\n");
    for phase in 0..2 {
        text += "    [\n";
        for role in 0..6 {
            text += "        [\n";
            for rank in 0..8 {
                text += "            ";
                for file in 0..8 {
                    let sq = rank * 8 + file;
                    // Pawns never stand on the first or last rank.
                    let value = if role == 0 && (rank == 0 || rank == 7) {
                        0
                    } else {
                        delta[phase * 384 + role * 64 + sq].round() as i32
                    };
                    text += &format!("{value}, ");
                }
                text = text.trim_end().to_string() + "\n";
            }
            text += "        ],\n";
        }
        text += "    ],\n";
    }
    text += "];\n";
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::params::DEFAULT;
    use crate::tune::positions_from_pgn;

    #[test]
    fn fits_finite_corrections_and_prints_a_table() {
        let pgn = b"[Result \"1-0\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 6. Re1 b5 7. Bb3 d6 1-0\n";
        let samples = positions_from_pgn(&pgn[..]).unwrap();
        let mut lines = 0;
        let delta = tune_pst(&samples, &DEFAULT, 1.0, 20, 1e-7, &mut |_| lines += 1);
        assert_eq!(delta.len(), FEATURES);
        assert!(delta.iter().all(|d| d.is_finite()));
        // White won: the squares White's pieces stand on gain.
        assert!(delta.iter().sum::<f64>() > 0.0);
        assert!(lines >= 2);
        let table = rust_table(&delta);
        assert_eq!(table.lines().count(), 2 + 2 * (2 + 6 * 10));
    }
}
