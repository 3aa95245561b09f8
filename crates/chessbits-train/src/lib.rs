//! # chessbits-train
//!
//! A CPU trainer for the [NNUE network](chessbits_engine::eval::nnue) of `chessbits-engine`:
//! `(768 → N)×2 → 1` with perspective and SCReLU, trained in `f32` on the engine's own
//! self-play data ([`chessbits_engine::datagen`]).
//!
//! - [`data`]: positions loaded from training-data files, split by game;
//! - [`model`]: the float network, its forward and backward passes, quantisation;
//! - [`train`](mod@train): mini-batch Adam, bitwise deterministic for any thread count;
//! - [`plot`]: the loss curves as a PNG;
//! - [`recipe`]: the CSV of losses and the recipe written beside the network;
//! - [`sha256`]: the data files' fingerprints in the recipe.
//!
//! The loss is the mean of `(σ(out) − t)²` over positions, with the network's float output
//! `out` (the evaluation over `SCALE` = 400) and the target
//! `t = λ·σ(score/400) + (1 − λ)·result` (score: the search's, result: the game's for the side
//! to move).
//!
//! ```
//! use chessbits_train::data::Dataset;
//! use chessbits_train::train::{train, TrainConfig};
//! let mut data = Dataset::new();
//! data.push(&[12, 5 * 64 + 4, 384 + 5 * 64 + 60], 150, 1.0);
//! data.push(&[5 * 64 + 4, 384 + 5 * 64 + 60], 0, 0.5);
//! let config = TrainConfig { hidden: 4, epochs: 3, batch: 2, threads: 1, ..TrainConfig::default() };
//! let (params, stats) = train(&config, &data, &Dataset::new(), |_, _, _| {}, |_| {}).unwrap();
//! assert_eq!(stats.len(), 3);
//! assert_eq!(params.quantise().hidden, 4);
//! ```

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod data;
pub mod model;
pub mod plot;
pub mod recipe;
pub mod sha256;
pub mod train;
