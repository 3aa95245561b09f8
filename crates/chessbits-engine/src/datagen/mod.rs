//! Training data for an evaluation network: self-play games at a fixed node budget, stored in
//! [our format](mod@format) and read back as [training positions](reader).
//!
//! [`generate`] plays games number `0..games` of a run: game `i` depends only on the run's seed
//! and `i` (its own random opening, a fresh transposition table and history, one search thread),
//! so the file is the same whatever the number of threads playing them; games are written in
//! index order. Rerunning on an existing file continues after the games already there.
//!
//! A game starts with a line of the lichess opening tables (the core's `eco` feature), chosen by
//! the game's seed, then a few random legal plies; then both sides play the search's best move
//! at [`DatagenConfig::nodes`] nodes. It ends by the rules (mate, stalemate, insufficient
//! material, threefold repetition and the fifty-move rule, claimed at once), or by adjudication:
//! a win once the score is at least [`WIN_SCORE`] for the same side on [`WIN_PLIES`] plies in a
//! row, a draw after [`DRAW_PLIES`] plies in a row within [`DRAW_SCORE`] of zero past ply
//! [`DRAW_FROM_PLY`], or at [`DatagenConfig::max_plies`].

pub mod format;
pub mod reader;

use std::fs::{File, OpenOptions};
use std::io::{BufReader, BufWriter, Seek, SeekFrom, Write};
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc;
use std::sync::Arc;
use std::time::Instant;

use chessbits::codec::moves::entropy::GameEncoder;
use chessbits::game::{Game, GameResult};
use chessbits::position::Position;
use chessbits::types::Color;

use crate::eval::nnue::Network;
use crate::search::{run, Control, Limits, SearchThreads};
use crate::tt::TranspositionTable;
use format::{encode_record, FormatError, GameReader, GameWriter, TrainingGame, Wdl};

/// Adjudicated as a win once the mover's score is at least this…
pub const WIN_SCORE: i32 = 1000;
/// …for the same side on this many plies in a row.
pub const WIN_PLIES: usize = 4;
/// Adjudicated as a draw after this many plies in a row with scores within `DRAW_SCORE` of 0…
pub const DRAW_PLIES: usize = 12;
/// …(centipawns)…
pub const DRAW_SCORE: i32 = 10;
/// …once the game is this many plies long.
pub const DRAW_FROM_PLY: usize = 80;

/// How to generate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DatagenConfig {
    /// The number of games the file should hold at the end.
    pub games: u64,
    /// Nodes searched per move.
    pub nodes: u64,
    /// Threads playing games (each its own games, one search thread each).
    pub threads: usize,
    /// The run's seed: with the game index, it decides each game.
    pub seed: u64,
    /// Random legal plies played after the opening line.
    pub random_plies: usize,
    /// A game still going at this many plies is a draw.
    pub max_plies: usize,
    /// Transposition table per thread, MiB (cleared before each game).
    pub hash_mb: usize,
    /// The evaluation the games are played with: a network, or `None` for the hand-tuned one.
    /// The default is the engine's: the [embedded](crate::eval::nnue::embedded) network.
    pub network: Option<Arc<Network>>,
}

impl Default for DatagenConfig {
    fn default() -> DatagenConfig {
        DatagenConfig {
            games: 1000,
            nodes: 5000,
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            seed: 1,
            random_plies: 4,
            max_plies: 400,
            hash_mb: 4,
            network: Some(crate::eval::nnue::embedded::network()),
        }
    }
}

/// What a run did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DatagenSummary {
    /// Games found in the file before the run.
    pub resumed: u64,
    /// Games played and written by the run.
    pub played: u64,
    /// Positions (scored plies) of the games played.
    pub positions: u64,
    /// Bytes of the games played.
    pub bytes: u64,
}

/// The games' only source of randomness (a re-export: the generator lives in [`crate::rng`]).
pub use crate::rng::SplitMix64;

/// The seed of game `index` of a run seeded with `seed`.
pub fn game_seed(seed: u64, index: u64) -> u64 {
    SplitMix64::new(seed ^ SplitMix64::new(index).next_u64()).next_u64()
}

/// The opening of a game: a lichess line, then `random_plies` random legal moves (retrying with
/// the next numbers of `rng` while the result is a finished game).
pub fn opening(rng: &mut SplitMix64, random_plies: usize) -> Position {
    let lines = chessbits::eco::lines();
    loop {
        let mut pos = Position::startpos();
        for &m in &lines[rng.below(lines.len())].moves {
            pos.play_unchecked(m);
        }
        let mut ok = true;
        for _ in 0..random_plies {
            let legal = pos.legal_moves();
            if legal.is_empty() {
                ok = false;
                break;
            }
            pos.play_unchecked(legal[rng.below(legal.len())]);
        }
        if ok && pos.count_legal_moves() > 0 {
            return pos;
        }
    }
}

/// Plays game `index` of a run (see the [module docs](self)).
pub fn play_game(config: &DatagenConfig, index: u64, tt: &TranspositionTable) -> TrainingGame {
    let mut rng = SplitMix64::new(game_seed(config.seed, index));
    let start = opening(&mut rng, config.random_plies);
    // The Game keeps the signature list: repetitions count from the start position on.
    let mut game = Game::from_position(start.clone());
    let mut threads = SearchThreads::new(1);
    tt.clear();
    let limits = Limits {
        nodes: Some(config.nodes),
        quiet: true,
        network: config.network.clone(),
        ..Limits::default()
    };
    let mut scores = Vec::new();
    let (mut win_run, mut draw_run) = (0usize, 0usize);
    let mut last_winner = None;
    let result = loop {
        if let Some(outcome) = game.outcome_with_claims() {
            break match outcome.result() {
                GameResult::WhiteWins => Wdl::WhiteWins,
                GameResult::BlackWins => Wdl::BlackWins,
                _ => Wdl::Draw,
            };
        }
        if scores.len() >= config.max_plies.min(format::MAX_PLIES as usize) {
            break Wdl::Draw;
        }
        let found = run(&game, &limits, tt, &Control::new(), &mut threads, &mut |_| {});
        let Some(best) = found.best_move else {
            break Wdl::Draw; // unreachable: the game is not over
        };
        let score = found.score;
        let mover = game.position().turn();
        scores.push(score);
        game.push(best).expect("the search plays legal moves");
        // Adjudication on the score just searched.
        let winner = match score {
            s if s >= WIN_SCORE => Some(mover),
            s if s <= -WIN_SCORE => Some(!mover),
            _ => None,
        };
        win_run = if winner.is_some() && winner == last_winner {
            win_run + 1
        } else {
            usize::from(winner.is_some())
        };
        last_winner = winner;
        if win_run >= WIN_PLIES {
            break if winner == Some(Color::White) {
                Wdl::WhiteWins
            } else {
                Wdl::BlackWins
            };
        }
        draw_run = if score.abs() <= DRAW_SCORE { draw_run + 1 } else { 0 };
        if draw_run >= DRAW_PLIES && scores.len() >= DRAW_FROM_PLY {
            break Wdl::Draw;
        }
    };
    TrainingGame {
        start,
        moves: game.moves().to_vec(),
        scores,
        result,
    }
}

/// Why a run failed.
#[derive(Debug)]
pub enum DatagenError {
    /// The existing file could not be read, or writing failed.
    Format(FormatError),
    /// Opening, cutting or writing the file failed.
    Io(std::io::Error),
}

impl std::fmt::Display for DatagenError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DatagenError::Format(e) => write!(f, "{e}"),
            DatagenError::Io(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for DatagenError {}

impl From<FormatError> for DatagenError {
    fn from(e: FormatError) -> DatagenError {
        DatagenError::Format(e)
    }
}

impl From<std::io::Error> for DatagenError {
    fn from(e: std::io::Error) -> DatagenError {
        DatagenError::Io(e)
    }
}

/// Counts the complete games of an existing file and cuts a truncated last one off; returns the
/// count. A file with a bad header or a corrupt game is an error (it is not ours to overwrite).
pub fn resume_point(file: &mut File) -> Result<u64, DatagenError> {
    file.seek(SeekFrom::Start(0))?;
    let mut reader = GameReader::new(BufReader::new(&mut *file))?;
    loop {
        match reader.next_body() {
            Ok(Some(_)) => {}
            Ok(None) => break,
            Err(FormatError::Truncated { .. }) => break,
            Err(e) => return Err(e.into()),
        }
    }
    let (games, end) = (reader.games_read(), reader.offset());
    drop(reader);
    file.set_len(end)?;
    file.seek(SeekFrom::Start(end))?;
    Ok(games)
}

/// Progress of a run, for the caller to show.
#[derive(Clone, Copy, Debug)]
pub struct Progress {
    /// Games in the file now.
    pub games: u64,
    /// Games the file should hold.
    pub target: u64,
    /// Positions written by this run.
    pub positions: u64,
    /// Bytes written by this run.
    pub bytes: u64,
    /// Seconds since the run started.
    pub seconds: f64,
}

/// Plays games until the file at `path` holds `config.games` of them (creating it, or continuing
/// it); `progress` is called after every game written.
pub fn generate(
    path: &Path,
    config: &DatagenConfig,
    progress: &mut dyn FnMut(&Progress),
) -> Result<DatagenSummary, DatagenError> {
    let mut file = OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(path)?;
    let resumed = if file.metadata()?.len() == 0 {
        file.write_all(&format::header())?;
        0
    } else {
        resume_point(&mut file)?
    };
    let mut writer = GameWriter::append(BufWriter::new(file));
    let mut summary = DatagenSummary {
        resumed,
        ..DatagenSummary::default()
    };
    let start = Instant::now();
    let next = AtomicU64::new(resumed);
    let threads = config.threads.max(1);
    let result = std::thread::scope(|scope| -> Result<(), DatagenError> {
        let (tx, rx) = mpsc::sync_channel::<(u64, Vec<u8>, u64)>(threads * 4);
        for _ in 0..threads {
            let tx = tx.clone();
            let next = &next;
            scope.spawn(move || {
                let tt = TranspositionTable::new(config.hash_mb.max(1));
                let mut encoder = GameEncoder::new();
                loop {
                    let index = next.fetch_add(1, Ordering::Relaxed);
                    if index >= config.games {
                        break;
                    }
                    let game = play_game(config, index, &tt);
                    let mut record = Vec::new();
                    // The search plays legal moves and bounded scores: the encoder accepts them.
                    encode_record(&game, &mut encoder, &mut record).expect("a self-play game encodes");
                    if tx.send((index, record, game.moves.len() as u64)).is_err() {
                        break; // the writer failed and stopped listening
                    }
                }
            });
        }
        drop(tx);
        // Games finish out of order; they are written in index order.
        let mut waiting = std::collections::BTreeMap::new();
        let mut to_write = resumed;
        for (index, record, plies) in rx {
            waiting.insert(index, (record, plies));
            while let Some((record, plies)) = waiting.remove(&to_write) {
                writer.write_record(&record)?;
                to_write += 1;
                summary.played += 1;
                summary.positions += plies;
                summary.bytes += record.len() as u64;
                progress(&Progress {
                    games: to_write,
                    target: config.games,
                    positions: summary.positions,
                    bytes: summary.bytes,
                    seconds: start.elapsed().as_secs_f64(),
                });
            }
        }
        Ok(())
    });
    // Leave the games written so far in the file even when the run failed.
    let flushed = writer.finish();
    result?;
    flushed?.into_inner().map_err(|e| e.into_error())?.sync_all()?;
    Ok(summary)
}
