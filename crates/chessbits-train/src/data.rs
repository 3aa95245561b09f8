//! Training positions in memory: each position's active inputs (side to move's perspective; the
//! other's are their mirrors), search score and result, read from the engine's training-data
//! files with the reader's standard filters, and split by game into training and validation.

use std::fmt;
use std::fs::File;
use std::io::BufReader;
use std::path::{Path, PathBuf};

use chessbits_engine::datagen::format::FormatError;
use chessbits_engine::datagen::game_seed;
use chessbits_engine::datagen::reader::{Filters, PositionReader};
use chessbits_engine::eval::nnue::active_features;
use chessbits_engine::rng::SplitMix64;

use crate::model::target;

/// Why the data could not be loaded (or a run could not start).
#[derive(Debug)]
#[non_exhaustive]
pub enum TrainError {
    /// A file could not be opened, read or written.
    Io {
        /// The file.
        path: PathBuf,
        /// What failed.
        source: std::io::Error,
    },
    /// A data file is not a valid training-data file.
    Data {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        source: FormatError,
    },
    /// The files hold no training position (after filtering and the validation split).
    NoPositions,
    /// An option is out of range; the text says which.
    Config(String),
}

impl fmt::Display for TrainError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TrainError::Io { path, source } => write!(f, "{}: {source}", path.display()),
            TrainError::Data { path, source } => write!(f, "{}: {source}", path.display()),
            TrainError::NoPositions => f.write_str("the data files hold no training position"),
            TrainError::Config(what) => f.write_str(what),
        }
    }
}

impl std::error::Error for TrainError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            TrainError::Io { source, .. } => Some(source),
            TrainError::Data { source, .. } => Some(source),
            _ => None,
        }
    }
}

/// Positions as the trainer needs them.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Dataset {
    /// The active inputs of all positions, concatenated.
    features: Vec<u16>,
    /// Position `i`'s inputs are `features[offsets[i]..offsets[i + 1]]`.
    offsets: Vec<usize>,
    /// Search scores, centipawns, side to move's view.
    scores: Vec<i32>,
    /// Results for the side to move (1, 0.5, 0).
    results: Vec<f32>,
}

impl Dataset {
    /// An empty set.
    pub fn new() -> Dataset {
        Dataset {
            offsets: vec![0],
            ..Dataset::default()
        }
    }

    /// Adds a position by its side to move's active inputs, score and result.
    pub fn push(&mut self, features: &[usize], score: i32, result: f32) {
        if self.offsets.is_empty() {
            self.offsets.push(0);
        }
        self.features.extend(features.iter().map(|&f| f as u16));
        self.offsets.push(self.features.len());
        self.scores.push(score);
        self.results.push(result);
    }

    /// The number of positions.
    pub fn len(&self) -> usize {
        self.scores.len()
    }

    /// Whether there is no position.
    pub fn is_empty(&self) -> bool {
        self.scores.is_empty()
    }

    /// Position `i`'s active inputs.
    pub fn features(&self, i: usize) -> &[u16] {
        &self.features[self.offsets[i]..self.offsets[i + 1]]
    }

    /// Position `i`'s training target with blend `lambda`.
    pub fn target(&self, i: usize, lambda: f32) -> f32 {
        target(self.scores[i], self.results[i], lambda)
    }
}

/// The loaded data: the training and validation positions, and what the files held.
#[derive(Clone, Debug)]
pub struct Loaded {
    /// The training positions.
    pub train: Dataset,
    /// The validation positions.
    pub validation: Dataset,
    /// Games read.
    pub games: u64,
    /// Positions skipped by the reader's filters.
    pub skipped: u64,
}

/// Whether game `game` of file `file` goes to validation (`fraction` of the games, chosen by
/// `seed`): whole games, so that near-identical positions do not straddle the split.
pub fn is_validation(seed: u64, file: usize, game: u64, fraction: f64) -> bool {
    let h = SplitMix64::new(game_seed(seed, game) ^ (file as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)).next_u64();
    ((h >> 11) as f64 / (1u64 << 53) as f64) < fraction
}

/// Reads `paths` with the standard filters and splits them.
pub fn load(paths: &[PathBuf], validation: f64, seed: u64) -> Result<Loaded, TrainError> {
    let mut loaded = Loaded {
        train: Dataset::new(),
        validation: Dataset::new(),
        games: 0,
        skipped: 0,
    };
    for (i, path) in paths.iter().enumerate() {
        load_file(path, i, validation, seed, &mut loaded)?;
    }
    if loaded.train.is_empty() {
        return Err(TrainError::NoPositions);
    }
    Ok(loaded)
}

fn load_file(path: &Path, file: usize, validation: f64, seed: u64, loaded: &mut Loaded) -> Result<(), TrainError> {
    let data_err = |source| TrainError::Data {
        path: path.to_owned(),
        source,
    };
    let input = File::open(path).map_err(|source| TrainError::Io {
        path: path.to_owned(),
        source,
    })?;
    let mut reader = PositionReader::new(BufReader::new(input), Filters::default()).map_err(data_err)?;
    for p in reader.by_ref() {
        let p = p.map_err(data_err)?;
        let set = if is_validation(seed, file, p.game, validation) {
            &mut loaded.validation
        } else {
            &mut loaded.train
        };
        set.push(&active_features(&p.position), p.score, p.result);
    }
    loaded.games += reader.games_read();
    loaded.skipped += reader.skipped().total();
    Ok(())
}
