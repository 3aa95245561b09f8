//! The trainer: its gradients, that it learns, determinism, and the quantised network beside
//! the float one.

use std::fs::File;
use std::io::BufReader;

use chessbits_engine::datagen::reader::{Filters, PositionReader};
use chessbits_engine::eval::nnue::{active_features, Network};
use chessbits_train::data::{load, Dataset, Loaded};
use chessbits_train::model::Params;
use chessbits_train::train::{loss_and_gradient, mean_loss, train, EpochStats, TrainConfig};

use crate::common::{random_games, write_games};

/// A data file of `games` random games in a temporary directory, loaded (10 % validation).
fn dataset(games: usize, seed: u64) -> (tempfile::TempDir, std::path::PathBuf, Loaded) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("data.cbtd");
    write_games(&path, &random_games(games, seed));
    let loaded = load(std::slice::from_ref(&path), 0.1, 1).unwrap();
    (dir, path, loaded)
}

fn run(config: &TrainConfig, loaded: &Loaded) -> (Params, Vec<EpochStats>) {
    train(config, &loaded.train, &loaded.validation, |_, _, _| {}, |_| {}).unwrap()
}

#[test]
fn the_backward_pass_matches_finite_differences() {
    let (_dir, _path, loaded) = dataset(4, 11);
    // A small subset keeps the loop over all parameters cheap.
    let mut data = Dataset::new();
    for i in 0..12 {
        let f: Vec<usize> = loaded.train.features(i).iter().map(|&f| usize::from(f)).collect();
        data.push(&f, [-250, 40, 600][i % 3], [0.0, 0.5, 1.0][i % 3]);
    }
    let mut params = Params::init(4, 3);
    // Larger output weights and a bias: every parameter group gets a sizeable gradient.
    let o = 768 * 4 + 4;
    for (k, w) in params.data[o..o + 8].iter_mut().enumerate() {
        *w = [0.9, -0.7, 1.3, 0.4, -1.1, 0.6, -0.3, 1.0][k];
    }
    params.data[o + 8] = 0.2;
    for (k, b) in params.data[768 * 4..o].iter_mut().enumerate() {
        *b = 0.1 * k as f32;
    }
    let lambda = 0.6;
    let (_, grad) = loss_and_gradient(&params, &data, lambda);
    let eps = 1e-3f32;
    let (mut diff, mut norm, mut checked) = (0.0f64, 0.0f64, 0);
    for (j, &g) in grad.iter().enumerate() {
        let mut plus = params.clone();
        plus.data[j] += eps;
        let mut minus = params.clone();
        minus.data[j] -= eps;
        let numeric = (loss_and_gradient(&plus, &data, lambda).0 - loss_and_gradient(&minus, &data, lambda).0)
            / (2.0 * f64::from(eps));
        let analytic = f64::from(g);
        if numeric != 0.0 || analytic != 0.0 {
            checked += 1;
        }
        diff += (numeric - analytic).powi(2);
        norm += numeric.powi(2);
    }
    assert!(checked > 100, "only {checked} parameters have a gradient");
    assert!(
        norm.sqrt() > 1e-3,
        "the gradient is too small to check: {}",
        norm.sqrt()
    );
    assert!(
        (diff / norm).sqrt() < 1e-2,
        "relative gradient error {}",
        (diff / norm).sqrt()
    );
}

#[test]
fn training_lowers_the_loss() {
    let (_dir, _path, loaded) = dataset(250, 2);
    assert!(loaded.train.len() > 5000 && loaded.validation.len() > 500);
    let config = TrainConfig {
        hidden: 8,
        epochs: 4,
        batch: 256,
        lr: 0.01,
        threads: 2,
        ..TrainConfig::default()
    };
    let before = mean_loss(&Params::init(8, config.seed), &loaded.train, config.lambda, 1);
    let (params, stats) = run(&config, &loaded);
    let after = mean_loss(&params, &loaded.train, config.lambda, 1);
    assert!(after < before * 0.6, "training loss {before} -> {after}");
    assert!(stats.last().unwrap().train_loss < stats[0].train_loss);
    assert!(stats.windows(2).all(|w| w[1].train_loss < w[0].train_loss), "{stats:?}");
    // The validation loss recorded is that of the final weights (random games from a few
    // held-out games are too few to show generalisation: the measurement on real data does).
    let validation = mean_loss(&params, &loaded.validation, config.lambda, 1);
    assert_eq!(stats.last().unwrap().validation_loss.to_bits(), validation.to_bits());
}

#[test]
fn the_same_seed_gives_bitwise_the_same_network_for_any_thread_count() {
    let (_dir, _path, loaded) = dataset(80, 3);
    // Batches of several chunks (the unit of work of a thread) and a short last batch.
    let config = TrainConfig {
        hidden: 8,
        epochs: 2,
        batch: 1500,
        threads: 1,
        ..TrainConfig::default()
    };
    assert!(loaded.train.len() > 3000 && loaded.train.len() % 1500 != 0);
    let bits = |p: &Params| p.data.iter().map(|w| w.to_bits()).collect::<Vec<u32>>();
    let (p1, s1) = run(&config, &loaded);
    let loss_bits = |s: &[EpochStats]| {
        s.iter()
            .map(|e| (e.train_loss.to_bits(), e.validation_loss.to_bits()))
            .collect::<Vec<_>>()
    };
    for threads in [1, 2, 3] {
        let (p, s) = run(
            &TrainConfig {
                threads,
                ..config.clone()
            },
            &loaded,
        );
        assert_eq!(bits(&p), bits(&p1), "{threads} threads");
        assert_eq!(loss_bits(&s), loss_bits(&s1), "{threads} threads");
    }
    let (other, _) = run(
        &TrainConfig {
            seed: 2,
            ..config.clone()
        },
        &loaded,
    );
    assert_ne!(bits(&other), bits(&p1));
}

#[test]
fn the_quantised_network_evaluates_like_the_float_one() {
    let (_dir, path, loaded) = dataset(30, 4);
    let config = TrainConfig {
        hidden: 32,
        epochs: 3,
        batch: 256,
        lr: 0.005,
        ..TrainConfig::default()
    };
    let (params, _) = run(&config, &loaded);
    let net = Network::from_bytes(&params.quantise().to_bytes()).unwrap();
    let reader = PositionReader::new(BufReader::new(File::open(&path).unwrap()), Filters::none()).unwrap();
    let (mut worst, mut total, mut count, mut spread) = (0.0f32, 0.0f32, 0, 0.0f32);
    for p in reader {
        let pos = p.unwrap().position;
        let features: Vec<u16> = active_features(&pos).iter().map(|&f| f as u16).collect();
        let float = params.eval_cp(&features);
        let err = (net.evaluate(&pos) as f32 - float).abs();
        worst = worst.max(err);
        total += err;
        spread = spread.max(float.abs());
        count += 1;
    }
    assert!(count > 500);
    // The trained net says something (evaluations of hundreds of centipawns) …
    assert!(spread > 100.0, "largest float evaluation {spread}");
    // … and the integer arithmetic follows it within the rounding of the weights.
    // Rounding a weight to 1/255 (feature transformer) or 1/64 (output) moves the output by
    // about 5 cp on average here; broken scales or layouts would be off by hundreds.
    assert!(worst <= 30.0, "worst difference {worst} cp");
    assert!(
        total / (count as f32) <= 8.0,
        "mean difference {} cp",
        total / count as f32
    );
}

#[test]
fn keep_best_returns_the_epoch_with_the_lowest_validation_loss() {
    let (_dir, _path, loaded) = dataset(120, 5);
    // A high learning rate over a few epochs: the validation loss does not fall every epoch.
    let config = TrainConfig {
        hidden: 8,
        epochs: 6,
        batch: 128,
        lr: 0.05,
        threads: 2,
        ..TrainConfig::default()
    };
    let (last, stats) = run(&config, &loaded);
    let kept = chessbits_train::recipe::kept_epoch(
        &TrainConfig {
            keep_best: true,
            ..config.clone()
        },
        &stats,
    )
    .unwrap();
    let (best, best_stats) = run(
        &TrainConfig {
            keep_best: true,
            ..config.clone()
        },
        &loaded,
    );
    let losses = |s: &[EpochStats]| s.iter().map(|e| (e.train_loss, e.validation_loss)).collect::<Vec<_>>();
    assert_eq!(
        losses(&best_stats),
        losses(&stats),
        "keep_best changes what is returned, not the training"
    );
    assert_ne!(
        kept.epoch, config.epochs,
        "the data should make a middle epoch the best: {stats:?}"
    );
    let loss = mean_loss(&best, &loaded.validation, config.lambda, 1);
    assert_eq!(
        loss.to_bits(),
        kept.validation_loss.to_bits(),
        "epoch {} of {stats:?}",
        kept.epoch
    );
    assert!(stats.iter().all(|e| e.validation_loss >= loss));
    assert_ne!(best.data, last.data);
    // Run training with the same epochs cut at the kept one: the same weights.
    let (cut, _) = run(
        &TrainConfig {
            epochs: kept.epoch,
            ..config.clone()
        },
        &loaded,
    );
    assert_eq!(cut.data, best.data);
}
