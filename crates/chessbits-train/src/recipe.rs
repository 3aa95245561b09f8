//! What a run writes beside the network: the losses per epoch as CSV and the recipe (how to make
//! the same network again).

use std::fmt::Write as _;
use std::fs::File;
use std::io::{BufReader, Write};
use std::path::{Path, PathBuf};

use crate::data::TrainError;
use crate::sha256::sha256_hex;
use crate::train::{EpochStats, TrainConfig};

/// The CSV: a header line, then `epoch,train_loss,validation_loss,seconds` per epoch.
pub fn loss_csv(stats: &[EpochStats]) -> String {
    let mut s = String::from("epoch,train_loss,validation_loss,seconds\n");
    for e in stats {
        let _ = writeln!(
            s,
            "{},{:.8},{:.8},{:.3}",
            e.epoch, e.train_loss, e.validation_loss, e.seconds
        );
    }
    s
}

/// The SHA-256 of the file at `path`.
pub fn file_sha256(path: &Path) -> Result<String, TrainError> {
    let io = |source| TrainError::Io {
        path: path.to_owned(),
        source,
    };
    sha256_hex(BufReader::new(File::open(path).map_err(io)?)).map_err(io)
}

/// What the recipe records besides the configuration.
#[derive(Clone, Debug)]
pub struct RecipeInputs<'a> {
    /// The data files.
    pub data: &'a [PathBuf],
    /// The validation fraction (by game).
    pub validation: f64,
    /// Training and validation positions.
    pub positions: (usize, usize),
    /// The epochs' records.
    pub stats: &'a [EpochStats],
}

/// The recipe text: `key: value` lines (data files with their SHA-256, then the options and the
/// final losses).
pub fn recipe(config: &TrainConfig, inputs: &RecipeInputs) -> Result<String, TrainError> {
    let mut s = String::from("# chessbits-train recipe: the network beside this file was made by\n");
    let _ = writeln!(s, "trainer: chessbits-train {}", env!("CARGO_PKG_VERSION"));
    for path in inputs.data {
        let _ = writeln!(s, "data: {} sha256={}", path.display(), file_sha256(path)?);
    }
    let _ = writeln!(
        s,
        "architecture: (768 -> {})x2 -> 1, SCReLU, QA 255, QB 64, scale 400",
        config.hidden
    );
    let _ = writeln!(s, "seed: {}", config.seed);
    let _ = writeln!(s, "epochs: {}", config.epochs);
    let _ = writeln!(s, "batch: {}", config.batch);
    let _ = writeln!(s, "lr: {} (x{} per epoch)", config.lr, config.lr_decay);
    let _ = writeln!(s, "lambda: {}", config.lambda);
    let _ = writeln!(s, "validation: {} of the games", inputs.validation);
    let _ = writeln!(
        s,
        "positions: {} training, {} validation",
        inputs.positions.0, inputs.positions.1
    );
    if let Some(last) = inputs.stats.last() {
        let _ = writeln!(s, "final train loss: {:.8}", last.train_loss);
        let _ = writeln!(s, "final validation loss: {:.8}", last.validation_loss);
    }
    if let Some(kept) = kept_epoch(config, inputs.stats) {
        let _ = writeln!(
            s,
            "kept: epoch {} (the lowest validation loss, {:.8}; --keep-best)",
            kept.epoch, kept.validation_loss
        );
    }
    Ok(s)
}

/// The epoch whose weights [`crate::train::train`] returned when `config.keep_best` is set:
/// the first with the lowest validation loss (`None` without `keep_best` or validation).
pub fn kept_epoch<'a>(config: &TrainConfig, stats: &'a [EpochStats]) -> Option<&'a EpochStats> {
    if !config.keep_best || stats.iter().any(|e| e.validation_loss.is_nan()) {
        return None;
    }
    stats.iter().reduce(|best, e| {
        if e.validation_loss < best.validation_loss {
            e
        } else {
            best
        }
    })
}

/// Writes `text` to `path`.
pub fn write_text(path: &Path, text: &str) -> Result<(), TrainError> {
    let io = |source| TrainError::Io {
        path: path.to_owned(),
        source,
    };
    File::create(path)
        .and_then(|mut f| f.write_all(text.as_bytes()))
        .map_err(io)
}
