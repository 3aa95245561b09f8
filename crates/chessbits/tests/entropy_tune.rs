//! Offline tuning of the entropy model's parameters and of the lichess baseline's Huffman table.
//!
//! ```text
//! cargo test --release -p chessbits --test integration entropy_tune:: -- --ignored --nocapture
//! ```
//!
//! Split: in every PGN game file of the full corpora (`../shared/data/pgn/`) the odd-numbered games (1st, 3rd, ...) are the training half;
//! the even-numbered games are never looked at here. The model is a softmax over the legal moves,
//! `P(m) ∝ 2^score(m)` with `score(m) = Σ θ[term.param] · term.weight / 16` (θ in bits), fitted by
//! minibatch Adam on the mean code length plus a small L2 penalty. Floats are used only here; the
//! result is rounded to 1/16 bit and written to `src/codec/moves/entropy/params.rs` when
//! `CHESSBITS_WRITE_PARAMS=1` is set (otherwise printed to stdout only as a summary). The Huffman
//! code lengths of the lichess ranks are printed for `src/codec/moves/lichess.rs`.

use crate::common;

use std::collections::BinaryHeap;
use std::fmt::Write as _;

use chessbits::codec::moves::entropy::model::{layout::PARAM_COUNT, MoveModel};
use chessbits::codec::moves::lichess;
use chessbits::lists::MoveList;
use chessbits::moves::Move;
use chessbits::position::Position;

/// Every training position: its moves' terms, flattened.
#[derive(Default)]
struct Dataset {
    /// Per position: first move index, number of moves, index of the played move.
    positions: Vec<(u32, u16, u16)>,
    /// Per move: first term index (one extra entry at the end).
    move_starts: Vec<u32>,
    params: Vec<u16>,
    weights: Vec<u8>,
}

impl Dataset {
    fn add_game(&mut self, moves: &[Move], ablate: &[(u16, u16)]) {
        let mut model = MoveModel::new();
        let mut pos = Position::startpos();
        let mut list = MoveList::new();
        if self.move_starts.is_empty() {
            self.move_starts.push(0);
        }
        for &m in moves {
            pos.legal_moves_into(&mut list);
            let played = list.iter().position(|&l| l == m).expect("legal move");
            let first_move = self.move_starts.len() as u32 - 1;
            let mut current = 0usize;
            let (params, weights, starts) = (&mut self.params, &mut self.weights, &mut self.move_starts);
            model.visit_terms(&pos, &list, |i, term| {
                while current < i {
                    starts.push(params.len() as u32);
                    current += 1;
                }
                if ablate.iter().any(|&(a, b)| (a..b).contains(&term.param)) {
                    return;
                }
                params.push(term.param);
                weights.push(term.weight);
            });
            while current < list.len() {
                starts.push(self.params.len() as u32);
                current += 1;
            }
            self.positions.push((first_move, list.len() as u16, played as u16));
            model.observe(&pos, m);
            pos.play_unchecked(m);
        }
    }

    /// Mean bits per position under `theta`; adds the gradient (bits per position) to `grad` for
    /// the positions `batch` if given.
    fn loss(&self, theta: &[f64], batch: &[usize], mut grad: Option<&mut [f64]>) -> f64 {
        let mut total = 0.0;
        let mut scores = Vec::new();
        for &p in batch {
            let (first, n, played) = self.positions[p];
            scores.clear();
            let mut best = f64::MIN;
            for m in first as usize..first as usize + n as usize {
                let mut s = 0.0;
                for t in self.move_starts[m] as usize..self.move_starts[m + 1] as usize {
                    s += theta[self.params[t] as usize] * self.weights[t] as f64;
                }
                s /= 16.0;
                best = best.max(s);
                scores.push(s);
            }
            let mut z = 0.0;
            for s in scores.iter_mut() {
                *s = (*s - best).exp2();
                z += *s;
            }
            total += z.log2() - scores[played as usize].log2();
            if let Some(grad) = grad.as_deref_mut() {
                // d bits / d score_i = p_i - [i = played] (in bits per bit of score).
                for (i, m) in (first as usize..first as usize + n as usize).enumerate() {
                    let g = scores[i] / z - if i == played as usize { 1.0 } else { 0.0 };
                    if g.abs() < 1e-9 {
                        continue;
                    }
                    for t in self.move_starts[m] as usize..self.move_starts[m + 1] as usize {
                        grad[self.params[t] as usize] += g * self.weights[t] as f64 / 16.0;
                    }
                }
            }
        }
        total / batch.len().max(1) as f64
    }
}

/// Minibatch Adam on the mean code length plus `l2 · Σ θ²`.
fn fit(data: &Dataset, epochs: usize) -> Vec<f64> {
    let mut theta = vec![0.0f64; PARAM_COUNT];
    let (mut m1, mut m2) = (vec![0.0f64; PARAM_COUNT], vec![0.0f64; PARAM_COUNT]);
    let mut order: Vec<usize> = (0..data.positions.len()).collect();
    let mut rng = common::Rng::new(0x9e37_79b9_7f4a_7c15);
    let batch_size = 2000;
    let l2 = 2e-5;
    let mut step = 0;
    let mut grad = vec![0.0f64; PARAM_COUNT];
    for epoch in 0..epochs {
        for i in (1..order.len()).rev() {
            order.swap(i, rng.below(i + 1));
        }
        let lr = 0.05 * (1.0 - epoch as f64 / epochs as f64).max(0.05);
        let mut epoch_loss = 0.0;
        for batch in order.chunks(batch_size) {
            grad.iter_mut().for_each(|g| *g = 0.0);
            epoch_loss += data.loss(&theta, batch, Some(&mut grad)) * batch.len() as f64;
            step += 1;
            for k in 0..PARAM_COUNT {
                let g = grad[k] / batch.len() as f64 + 2.0 * l2 * theta[k];
                m1[k] = 0.9 * m1[k] + 0.1 * g;
                m2[k] = 0.999 * m2[k] + 0.001 * g * g;
                let mh = m1[k] / (1.0 - 0.9f64.powi(step));
                let vh = m2[k] / (1.0 - 0.999f64.powi(step));
                theta[k] -= lr * mh / (vh.sqrt() + 1e-8);
            }
        }
        println!("epoch {epoch}: {:.4} bits/move", epoch_loss / order.len() as f64);
    }
    theta
}

/// Huffman code lengths for `counts` (every symbol gets a code).
fn huffman_lengths(counts: &[u64]) -> Vec<u8> {
    // Nodes: leaves 0..n, then internal nodes; parent links give depths.
    let n = counts.len();
    let mut parent = vec![usize::MAX; 2 * n];
    let mut heap: BinaryHeap<std::cmp::Reverse<(u64, usize)>> = counts
        .iter()
        .enumerate()
        .map(|(i, &c)| std::cmp::Reverse((c, i)))
        .collect();
    let mut next = n;
    while heap.len() > 1 {
        let std::cmp::Reverse((ca, a)) = heap.pop().unwrap();
        let std::cmp::Reverse((cb, b)) = heap.pop().unwrap();
        parent[a] = next;
        parent[b] = next;
        heap.push(std::cmp::Reverse((ca + cb, next)));
        next += 1;
    }
    (0..n)
        .map(|mut i| {
            let mut depth = 0;
            while parent[i] != usize::MAX {
                i = parent[i];
                depth += 1;
            }
            depth
        })
        .collect()
}

#[test]
#[ignore = "offline tuning: minutes in release mode"]
fn tune() {
    // CHESSBITS_VALIDATE=1: for feature design, fit on games 1, 5, 9, ... and report games 3, 7,
    // 11, ... (both inside the training half) instead of fitting on the whole training half.
    let validate = std::env::var("CHESSBITS_VALIDATE").as_deref() == Ok("1");
    let mut data = Dataset::default();
    let mut validation = Dataset::default();
    let mut rank_counts = vec![1u64; 256];
    let mut list = MoveList::new();
    // Feature ablation for experiments: CHESSBITS_ABLATE="start..end,start..end" parameter ranges.
    let ablate: Vec<(u16, u16)> = std::env::var("CHESSBITS_ABLATE")
        .unwrap_or_default()
        .split(',')
        .filter_map(|r| {
            r.split_once("..")
                .map(|(a, b)| (a.parse().unwrap(), b.parse().unwrap()))
        })
        .collect();
    for (name, _) in common::PGN_FILES {
        for game in common::load_pgn(&common::shared_path(), name) {
            if game.number % 2 == 0 {
                continue; // held out
            }
            if validate && game.number % 4 == 3 {
                validation.add_game(&game.moves, &ablate);
                continue;
            }
            data.add_game(&game.moves, &ablate);
            let mut pos = Position::startpos();
            for &m in &game.moves {
                pos.legal_moves_into(&mut list);
                lichess::sort_moves(&pos, &mut list);
                let rank = list.iter().position(|&l| l == m).unwrap();
                rank_counts[rank.min(255)] += 1;
                pos.play_unchecked(m);
            }
        }
    }
    println!(
        "{} training positions, {} moves, {} terms",
        data.positions.len(),
        data.move_starts.len() - 1,
        data.params.len()
    );

    let lengths = huffman_lengths(&rank_counts);
    assert!(lengths.iter().all(|&l| (1..=32).contains(&l)));
    let mut table = String::new();
    for chunk in lengths.chunks(32) {
        let row: Vec<String> = chunk.iter().map(|l| l.to_string()).collect();
        writeln!(table, "    {},", row.join(", ")).unwrap();
    }
    println!("lichess CODE_LENGTHS:\n{table}");

    let epochs: usize = std::env::var("CHESSBITS_EPOCHS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(12);
    let theta = fit(&data, epochs);
    let all: Vec<usize> = (0..data.positions.len()).collect();
    let quantized: Vec<i8> = theta
        .iter()
        .map(|t| (t * 16.0).round().clamp(-127.0, 127.0) as i8)
        .collect();
    let rounded: Vec<f64> = quantized.iter().map(|&q| q as f64 / 16.0).collect();
    println!(
        "training: {:.4} bits/move (float), {:.4} (rounded)",
        data.loss(&theta, &all, None),
        data.loss(&rounded, &all, None)
    );

    if validate {
        let all: Vec<usize> = (0..validation.positions.len()).collect();
        println!(
            "validation: {:.4} bits/move (rounded)",
            validation.loss(&rounded, &all, None)
        );
        return;
    }
    let mut source = String::from(
        "//! Tuned parameters of the move model, generated by `tests/entropy_tune.rs` from the training half\n\
         //! (odd-numbered games) of the shared PGN files. Do not edit by hand.\n\n\
         use super::features::layout::PARAM_COUNT;\n\n\
         /// Parameters in 1/16 bit (all within ±127), indexed as in [`layout`](super::features::layout).\n\
         #[rustfmt::skip]\n\
         pub(super) static PARAMS: [i8; PARAM_COUNT] = [\n",
    );
    for chunk in quantized.chunks(20) {
        let row: Vec<String> = chunk.iter().map(|q| q.to_string()).collect();
        writeln!(source, "    {},", row.join(", ")).unwrap();
    }
    source.push_str("];\n");
    if std::env::var("CHESSBITS_WRITE_PARAMS").as_deref() == Ok("1") {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/src/codec/moves/entropy/params.rs");
        std::fs::write(path, source).unwrap();
        println!("wrote {path}");
    }
}
