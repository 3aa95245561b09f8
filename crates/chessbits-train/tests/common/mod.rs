//! Helpers of the trainer's tests: small training-data files made here, and the real binary.

#![allow(dead_code)]

use std::path::Path;
use std::process::{Command, Output};

use chessbits::position::Position;
use chessbits_engine::datagen::format::{GameWriter, TrainingGame, Wdl};
use chessbits_engine::eval::evaluate;
use chessbits_engine::rng::SplitMix64;

/// `games` games of random legal moves from the start position (up to 80 plies), each position
/// scored by the hand-tuned evaluation (so a network has something learnable), the result
/// following the last score's sign.
pub fn random_games(games: usize, seed: u64) -> Vec<TrainingGame> {
    let mut rng = SplitMix64::new(seed);
    (0..games)
        .map(|_| {
            let start = Position::startpos();
            let mut pos = start.clone();
            let (mut moves, mut scores) = (Vec::new(), Vec::new());
            for _ in 0..20 + rng.below(60) {
                let legal = pos.legal_moves();
                if legal.is_empty() {
                    break;
                }
                scores.push(evaluate(&pos).clamp(-3000, 3000));
                let m = legal[rng.below(legal.len())];
                moves.push(m);
                pos.play_unchecked(m);
            }
            let white = evaluate(&pos)
                * if pos.turn() == chessbits::types::Color::White {
                    1
                } else {
                    -1
                };
            let result = match white {
                s if s > 100 => Wdl::WhiteWins,
                s if s < -100 => Wdl::BlackWins,
                _ => Wdl::Draw,
            };
            TrainingGame {
                start,
                moves,
                scores,
                result,
            }
        })
        .collect()
}

/// Writes `games` as a training-data file at `path`.
pub fn write_games(path: &Path, games: &[TrainingGame]) {
    let mut writer = GameWriter::new(std::fs::File::create(path).unwrap()).unwrap();
    for g in games {
        writer.write_game(g).unwrap();
    }
    writer.finish().unwrap();
}

/// Runs `chessbits-train` with `args`.
pub fn run_train(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_chessbits-train"))
        .args(args)
        .output()
        .unwrap()
}
