//! `chessbits-train`: trains the engine's NNUE network on training-data files (see the crate's
//! README and library docs).

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Parser;
use indicatif::{ProgressBar, ProgressStyle};

use chessbits_train::data::{load, TrainError};
use chessbits_train::plot::loss_plot;
use chessbits_train::recipe::{loss_csv, recipe, write_text, RecipeInputs};
use chessbits_train::train::{train, TrainConfig};

/// Trains a (768 -> N)x2 -> 1 SCReLU network for chessbits-engine on its training data (CPU).
#[derive(Parser, Debug)]
#[command(name = "chessbits-train", version)]
struct Cli {
    /// A training-data file written by `chessbits-engine datagen` (repeatable).
    #[arg(long, required = true)]
    data: Vec<PathBuf>,
    /// The network file to write (the recipe goes to FILE.recipe).
    #[arg(short, long)]
    output: PathBuf,
    /// Hidden width N.
    #[arg(long, default_value_t = 128)]
    hidden: usize,
    /// Passes over the training positions.
    #[arg(long, default_value_t = 10)]
    epochs: usize,
    /// Positions per Adam step.
    #[arg(long, default_value_t = 4096)]
    batch: usize,
    /// Adam's learning rate.
    #[arg(long, default_value_t = 0.001)]
    lr: f32,
    /// Learning-rate factor applied after each epoch.
    #[arg(long, default_value_t = 1.0)]
    lr_decay: f32,
    /// Weight of the search score in the target (the rest: the game result).
    #[arg(long, default_value_t = 0.75)]
    lambda: f32,
    /// Seed of the initial weights, the shuffles and the validation split.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Threads (the result does not depend on it) [default: all cores].
    #[arg(long)]
    threads: Option<usize>,
    /// Write the network of the epoch with the lowest validation loss, not the last one's.
    #[arg(long)]
    keep_best: bool,
    /// Fraction of the games held out for validation.
    #[arg(long, default_value_t = 0.05)]
    validation: f64,
    /// Write the losses per epoch as CSV here.
    #[arg(long)]
    csv: Option<PathBuf>,
    /// Draw the losses per epoch as a PNG here.
    #[arg(long)]
    plot: Option<PathBuf>,
    /// No progress bar.
    #[arg(long, short)]
    quiet: bool,
}

fn run(cli: Cli) -> Result<(), TrainError> {
    let config = TrainConfig {
        hidden: cli.hidden,
        epochs: cli.epochs,
        batch: cli.batch,
        lr: cli.lr,
        lr_decay: cli.lr_decay,
        lambda: cli.lambda,
        seed: cli.seed,
        threads: cli.threads.unwrap_or_else(|| TrainConfig::default().threads),
        keep_best: cli.keep_best,
    };
    config.validate()?;
    if !(0.0..1.0).contains(&cli.validation) {
        return Err(TrainError::Config("--validation must be in 0..1".into()));
    }
    let loaded = load(&cli.data, cli.validation, cli.seed)?;
    let (train_set, validation_set) = (&loaded.train, &loaded.validation);
    eprintln!(
        "{} games: {} training positions, {} validation, {} skipped by the filters",
        loaded.games,
        train_set.len(),
        validation_set.len(),
        loaded.skipped
    );
    let bar = if cli.quiet {
        ProgressBar::hidden()
    } else {
        ProgressBar::new((config.epochs * train_set.len()) as u64)
    };
    bar.set_style(
        ProgressStyle::with_template("{elapsed_precise} [{bar:40}] {pos}/{len} positions, {per_sec} {msg}")
            .expect("a valid template")
            .progress_chars("=> "),
    );
    let total = train_set.len();
    let (params, stats) = train(
        &config,
        train_set,
        validation_set,
        |epoch, done, _| bar.set_position(((epoch - 1) * total + done) as u64),
        |e| {
            let line = format!(
                "epoch {}: train loss {:.6}, validation loss {:.6}, {:.2} s ({:.2} s per million positions)",
                e.epoch,
                e.train_loss,
                e.validation_loss,
                e.seconds,
                e.seconds * 1e6 / total as f64
            );
            bar.println(&line);
            if bar.is_hidden() {
                eprintln!("{line}");
            }
        },
    )?;
    bar.finish_and_clear();
    let bytes = params.quantise().to_bytes();
    std::fs::write(&cli.output, bytes).map_err(|source| TrainError::Io {
        path: cli.output.clone(),
        source,
    })?;
    let inputs = RecipeInputs {
        data: &cli.data,
        validation: cli.validation,
        positions: (train_set.len(), validation_set.len()),
        stats: &stats,
    };
    let mut recipe_path = cli.output.clone().into_os_string();
    recipe_path.push(".recipe");
    write_text(&PathBuf::from(recipe_path), &recipe(&config, &inputs)?)?;
    if let Some(path) = &cli.csv {
        write_text(path, &loss_csv(&stats))?;
    }
    if let Some(path) = &cli.plot {
        let train_losses: Vec<f64> = stats.iter().map(|e| e.train_loss).collect();
        let validation_losses: Vec<f64> = stats.iter().map(|e| e.validation_loss).collect();
        let io = |source| TrainError::Io {
            path: path.clone(),
            source,
        };
        let file = std::fs::File::create(path).map_err(io)?;
        loss_plot(&train_losses, &validation_losses)
            .write_png(std::io::BufWriter::new(file))
            .map_err(io)?;
    }
    eprintln!("wrote {}", cli.output.display());
    Ok(())
}

fn main() -> ExitCode {
    match run(Cli::parse()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("chessbits-train: error: {e}");
            ExitCode::FAILURE
        }
    }
}
