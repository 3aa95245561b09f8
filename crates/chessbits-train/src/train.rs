//! The training loop: shuffled mini-batches, Adam, deterministic whatever the thread count.
//!
//! A batch is cut into chunks of [`CHUNK`] positions (a number fixed by the batch size alone);
//! each chunk's gradient is summed into its own buffer, by whichever thread, and the buffers are
//! then added in chunk order. So the floating-point sums, and with them the weights and losses,
//! are bitwise the same for any number of threads. Losses are summed the same way, in `f64`.

use std::time::Instant;

use chessbits_engine::rng::SplitMix64;

use crate::data::{Dataset, TrainError};
use crate::model::{Params, Scratch};

/// Positions per gradient chunk (the unit of work of a thread).
pub const CHUNK: usize = 1024;

/// What to train.
#[derive(Clone, Debug, PartialEq)]
pub struct TrainConfig {
    /// The hidden width `N`.
    pub hidden: usize,
    /// Passes over the training positions.
    pub epochs: usize,
    /// Positions per Adam step.
    pub batch: usize,
    /// Adam's learning rate at the first epoch.
    pub lr: f32,
    /// The learning rate is multiplied by this after each epoch.
    pub lr_decay: f32,
    /// The weight of the search score in the target (1 − λ: the game result).
    pub lambda: f32,
    /// Seeds the initial weights and the shuffles.
    pub seed: u64,
    /// Threads computing gradients (the result does not depend on it).
    pub threads: usize,
    /// Return the weights of the epoch with the lowest validation loss (the first of equals)
    /// instead of the last epoch's: a run longer than the data supports then keeps the network
    /// from before it overfitted. Without validation positions the last epoch's are returned.
    pub keep_best: bool,
}

impl Default for TrainConfig {
    fn default() -> TrainConfig {
        TrainConfig {
            hidden: 128,
            epochs: 10,
            batch: 4096,
            lr: 0.001,
            lr_decay: 1.0,
            lambda: 0.75,
            seed: 1,
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            keep_best: false,
        }
    }
}

impl TrainConfig {
    /// Checks the ranges.
    pub fn validate(&self) -> Result<(), TrainError> {
        let bad = |what: &str| Err(TrainError::Config(what.to_owned()));
        if self.hidden == 0 || self.hidden > chessbits_engine::eval::nnue::MAX_HIDDEN {
            return bad("--hidden must be in 1..=4096");
        }
        if self.epochs == 0 || self.batch == 0 || self.threads == 0 {
            return bad("--epochs, --batch and --threads must be at least 1");
        }
        let positive = |x: f32| x.is_finite() && x > 0.0;
        if !positive(self.lr) || !positive(self.lr_decay) {
            return bad("--lr and --lr-decay must be positive");
        }
        if !(0.0..=1.0).contains(&self.lambda) {
            return bad("--lambda must be in 0..=1");
        }
        Ok(())
    }
}

/// One epoch's record.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EpochStats {
    /// 1-based.
    pub epoch: usize,
    /// Mean loss over the epoch's training positions (as the weights were at each batch).
    pub train_loss: f64,
    /// Mean loss over the validation positions after the epoch (NaN without any).
    pub validation_loss: f64,
    /// Wall time of the epoch's training pass, seconds.
    pub seconds: f64,
}

/// Adam (β₁ 0.9, β₂ 0.999, ε 1e-8, bias-corrected).
#[derive(Clone, Debug)]
struct Adam {
    m: Vec<f32>,
    v: Vec<f32>,
    t: i32,
}

impl Adam {
    fn step(&mut self, params: &mut [f32], grad: &[f32], lr: f32) {
        const B1: f32 = 0.9;
        const B2: f32 = 0.999;
        self.t += 1;
        let c1 = 1.0 - B1.powi(self.t);
        let c2 = 1.0 - B2.powi(self.t);
        for ((p, &g), (m, v)) in params
            .iter_mut()
            .zip(grad)
            .zip(self.m.iter_mut().zip(self.v.iter_mut()))
        {
            *m = B1 * *m + (1.0 - B1) * g;
            *v = B2 * *v + (1.0 - B2) * g * g;
            *p -= lr * (*m / c1) / ((*v / c2).sqrt() + 1e-8);
        }
    }
}

/// The sum of the losses of `indices` and, with `grad`, the sum of their gradients added to it.
fn chunk_pass(
    params: &Params,
    data: &Dataset,
    indices: &[u32],
    lambda: f32,
    scratch: &mut Scratch,
    mut grad: Option<&mut [f32]>,
) -> f64 {
    let mut loss = 0.0f64;
    for &i in indices {
        let i = i as usize;
        let out = params.forward(data.features(i), scratch);
        let (l, d) = Params::loss(out, data.target(i, lambda));
        loss += f64::from(l);
        if let Some(g) = grad.as_deref_mut() {
            params.backward(data.features(i), scratch, d, g);
        }
    }
    loss
}

/// Runs `chunk_pass` over `indices` cut into [`CHUNK`]s on `threads` threads; returns the
/// per-chunk loss sums in chunk order (each chunk's gradient in `grads[chunk]` when given).
fn parallel_pass(
    params: &Params,
    data: &Dataset,
    indices: &[u32],
    lambda: f32,
    threads: usize,
    grads: Option<&mut [Vec<f32>]>,
) -> Vec<f64> {
    let chunks: Vec<&[u32]> = indices.chunks(CHUNK).collect();
    let mut losses = vec![0.0f64; chunks.len()];
    let mut grads: Vec<Option<&mut Vec<f32>>> = match grads {
        Some(g) => g.iter_mut().map(Some).collect(),
        None => (0..chunks.len()).map(|_| None).collect(),
    };
    let per_thread = chunks.len().div_ceil(threads.max(1)).max(1);
    let work = |chunks: &[&[u32]], losses: &mut [f64], grads: &mut [Option<&mut Vec<f32>>]| {
        let mut scratch = Scratch::new(params.hidden);
        for ((c, l), g) in chunks.iter().zip(losses.iter_mut()).zip(grads.iter_mut()) {
            let g = g.as_deref_mut().map(|g| {
                g.fill(0.0);
                g.as_mut_slice()
            });
            *l = chunk_pass(params, data, c, lambda, &mut scratch, g);
        }
    };
    if threads <= 1 || chunks.len() <= 1 {
        work(&chunks, &mut losses, &mut grads);
    } else {
        std::thread::scope(|s| {
            for ((c, l), g) in chunks
                .chunks(per_thread)
                .zip(losses.chunks_mut(per_thread))
                .zip(grads.chunks_mut(per_thread))
            {
                s.spawn(|| work(c, l, g));
            }
        });
    }
    losses
}

/// The mean loss of all positions of `data`.
pub fn mean_loss(params: &Params, data: &Dataset, lambda: f32, threads: usize) -> f64 {
    if data.is_empty() {
        return f64::NAN;
    }
    let indices: Vec<u32> = (0..data.len() as u32).collect();
    let sum: f64 = parallel_pass(params, data, &indices, lambda, threads, None)
        .iter()
        .sum();
    sum / data.len() as f64
}

/// The mean loss of `data` and its gradient in the parameters (the gradient check's subject).
pub fn loss_and_gradient(params: &Params, data: &Dataset, lambda: f32) -> (f64, Vec<f32>) {
    let indices: Vec<u32> = (0..data.len() as u32).collect();
    let mut grad = vec![0.0; params.data.len()];
    let loss = chunk_pass(
        params,
        data,
        &indices,
        lambda,
        &mut Scratch::new(params.hidden),
        Some(&mut grad),
    );
    let inv = 1.0 / data.len() as f32;
    grad.iter_mut().for_each(|g| *g *= inv);
    (loss / data.len() as f64, grad)
}

/// Trains from fresh weights; `progress` hears `(epoch, positions done in it, positions per
/// epoch)` after each batch and gets each epoch's record at its end.
pub fn train(
    config: &TrainConfig,
    train: &Dataset,
    validation: &Dataset,
    mut progress: impl FnMut(usize, usize, usize),
    mut epoch_done: impl FnMut(&EpochStats),
) -> Result<(Params, Vec<EpochStats>), TrainError> {
    config.validate()?;
    if train.is_empty() {
        return Err(TrainError::NoPositions);
    }
    let mut params = Params::init(config.hidden, config.seed);
    let len = params.data.len();
    let mut adam = Adam {
        m: vec![0.0; len],
        v: vec![0.0; len],
        t: 0,
    };
    let mut grads = vec![vec![0.0f32; len]; config.batch.div_ceil(CHUNK)];
    let mut order: Vec<u32> = (0..train.len() as u32).collect();
    let mut stats = Vec::with_capacity(config.epochs);
    let mut lr = config.lr;
    // The best epoch so far (keep_best): its validation loss and weights.
    let mut best: Option<(f64, Params)> = None;
    for epoch in 1..=config.epochs {
        let started = Instant::now();
        // Fisher–Yates with the epoch's own stream: the order depends on the seed and epoch only.
        let mut rng = SplitMix64::new(config.seed ^ (epoch as u64).wrapping_mul(0xD1B5_4A32_D192_ED03));
        for i in (1..order.len()).rev() {
            order.swap(i, rng.below(i + 1));
        }
        let mut loss_sum = 0.0f64;
        let mut done = 0;
        for batch in order.chunks(config.batch) {
            let used = batch.len().div_ceil(CHUNK);
            let losses = parallel_pass(
                &params,
                train,
                batch,
                config.lambda,
                config.threads,
                Some(&mut grads[..used]),
            );
            loss_sum += losses.iter().sum::<f64>();
            let (first, rest) = grads.split_at_mut(1);
            for g in &rest[..used - 1] {
                first[0].iter_mut().zip(g).for_each(|(a, &b)| *a += b);
            }
            let inv = 1.0 / batch.len() as f32;
            first[0].iter_mut().for_each(|g| *g *= inv);
            adam.step(&mut params.data, &first[0], lr);
            params.clip();
            done += batch.len();
            progress(epoch, done, train.len());
        }
        let seconds = started.elapsed().as_secs_f64();
        let record = EpochStats {
            epoch,
            train_loss: loss_sum / train.len() as f64,
            validation_loss: mean_loss(&params, validation, config.lambda, config.threads),
            seconds,
        };
        epoch_done(&record);
        let improves = |b: &Option<(f64, Params)>| b.as_ref().is_none_or(|(loss, _)| record.validation_loss < *loss);
        if config.keep_best && !validation.is_empty() && improves(&best) {
            best = Some((record.validation_loss, params.clone()));
        }
        stats.push(record);
        lr *= config.lr_decay;
    }
    Ok((best.map_or(params, |(_, p)| p), stats))
}
