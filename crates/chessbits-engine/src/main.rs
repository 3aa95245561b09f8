//! `chessbits-engine`: speaks UCI on stdin/stdout; `chessbits-engine bench [depth] [threads]
//! [hash MiB]` runs the benchmark (16 MiB of hash by default); `chessbits-engine tune [--passes N] FILE.pgn...` tunes the evaluation
//! weights, `tune --pst ITERATIONS [--lambda L] FILE.pgn...` the piece-square tables (prints the
//! table; `L` is the L2 penalty, 1e-6 by default); `datagen --out FILE [...]` plays self-play
//! games and writes them as training data.

use std::io::BufReader;

use chessbits_engine::bench::{bench, DEFAULT_DEPTH};
use chessbits_engine::uci::{run_uci, Stdout};

const USAGE: &str = "\
chessbits-engine: a UCI chess engine (speaks UCI on standard input and output when started
without arguments, as a GUI starts it).

Usage:
  chessbits-engine                       the UCI loop (type 'uci', 'isready', 'go depth 10', 'quit')
  chessbits-engine bench [DEPTH] [THREADS] [HASH_MIB]
                                         search the benchmark positions; prints nodes and nodes/s
  chessbits-engine tune [--passes N] FILE.pgn...
  chessbits-engine tune --pst ITERATIONS [--lambda L] FILE.pgn...
                                         tune the evaluation on the games of FILE.pgn
  chessbits-engine datagen --out FILE [--games N] [--nodes N] [--threads N] [--seed S]
                   [--random-plies N] [--max-plies N] [--hash MIB]
                   [--eval embedded|hand-tuned|NET.nnue]
                                         self-play training data (resumes an existing FILE;
                                         defaults: 1000 games, 5000 nodes a move, all cores,
                                         seed 1, 4 random plies, 400 plies, 4 MiB, the
                                         embedded network)
  chessbits-engine --help | --version";

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("-h" | "--help" | "help") => {
            println!("{USAGE}");
            return;
        }
        Some("-V" | "--version") => {
            println!("chessbits-engine {}", env!("CARGO_PKG_VERSION"));
            return;
        }
        None | Some("bench" | "tune" | "datagen") => {}
        Some(other) => {
            // A typo must not silently start the UCI loop and wait for input.
            eprintln!("chessbits-engine: unknown argument '{other}'\n\n{USAGE}");
            std::process::exit(2);
        }
    }
    // `bench --help`, `datagen --help`: the usage, as `--help` alone prints it.
    if args.iter().skip(1).any(|a| a == "-h" || a == "--help") {
        println!("{USAGE}");
        return;
    }
    if args.first().map(String::as_str) == Some("bench") {
        std::process::exit(bench_command(&args[1..]));
    }
    if args.first().map(String::as_str) == Some("datagen") {
        std::process::exit(datagen(&args[1..]));
    }
    if args.first().map(String::as_str) == Some("tune") {
        std::process::exit(tune(&args[1..]));
    }
    run_uci(BufReader::new(std::io::stdin()), Stdout);
}

/// `bench [DEPTH] [THREADS] [HASH_MIB]`: each argument a positive number, or the usage and 2.
fn bench_command(args: &[String]) -> i32 {
    let names = ["DEPTH", "THREADS", "HASH_MIB"];
    let defaults = [DEFAULT_DEPTH as usize, 1, 16];
    if args.len() > names.len() {
        eprintln!("bench: at most {} arguments\n\n{USAGE}", names.len());
        return 2;
    }
    let mut values = defaults;
    for (i, arg) in args.iter().enumerate() {
        match arg.parse::<usize>() {
            Ok(n) if n > 0 => values[i] = n,
            _ => {
                eprintln!("bench: {} must be a positive number, not '{arg}'\n\n{USAGE}", names[i]);
                return 2;
            }
        }
    }
    let [depth, threads, hash_mb] = values;
    println!("{}", bench(i32::try_from(depth).unwrap_or(i32::MAX), threads, hash_mb));
    0
}

/// `tune [--passes N] FILE.pgn...`: Texel tuning from the default weights; prints the report.
fn tune(args: &[String]) -> i32 {
    use chessbits_engine::eval::params::DEFAULT;
    use chessbits_engine::tune::{describe, positions_from_pgn, tune};
    let mut passes = 4;
    let mut files = Vec::new();
    let mut pst: Option<usize> = None;
    let mut lambda = 1e-6;
    let mut i = 0;
    while i < args.len() {
        if args[i] == "--lambda" {
            match args.get(i + 1).and_then(|p| p.parse().ok()) {
                Some(l) => lambda = l,
                None => {
                    eprintln!("tune: --lambda needs a number");
                    return 2;
                }
            }
            i += 2;
        } else if args[i] == "--pst" {
            match args.get(i + 1).and_then(|p| p.parse().ok()) {
                Some(n) => pst = Some(n),
                None => {
                    eprintln!("tune: --pst needs a number of iterations");
                    return 2;
                }
            }
            i += 2;
        } else if args[i] == "--passes" {
            match args.get(i + 1).and_then(|p| p.parse().ok()) {
                Some(p) => passes = p,
                None => {
                    eprintln!("tune: --passes needs a number");
                    return 2;
                }
            }
            i += 2;
        } else {
            files.push(&args[i]);
            i += 1;
        }
    }
    if files.is_empty() {
        eprintln!("usage: chessbits-engine tune [--passes N | --pst ITERATIONS [--lambda L]] FILE.pgn...");
        return 2;
    }
    let mut samples = Vec::new();
    for file in files {
        match std::fs::File::open(file).and_then(|f| positions_from_pgn(std::io::BufReader::new(f))) {
            Ok(s) => samples.extend(s),
            Err(e) => {
                eprintln!("tune: {file}: {e}");
                return 2;
            }
        }
    }
    if let Some(iterations) = pst {
        let k = chessbits_engine::tune::fit_k(&samples, &DEFAULT);
        eprintln!("positions {} K {k:.4}", samples.len());
        let delta = chessbits_engine::tune_pst::tune_pst(&samples, &DEFAULT, k, iterations, lambda, &mut |line| {
            eprintln!("{line}")
        });
        print!("{}", chessbits_engine::tune_pst::rust_table(&delta));
        return 0;
    }
    let report = tune(&samples, &DEFAULT, passes, &mut |line| eprintln!("{line}"));
    print!("{}", describe(&report, &DEFAULT, samples.len()));
    0
}

/// `datagen --out FILE [options]`: plays and writes self-play games; progress on stderr.
fn datagen(args: &[String]) -> i32 {
    use chessbits_engine::datagen::format::MAX_PLIES;
    use chessbits_engine::datagen::{generate, DatagenConfig};
    let mut config = DatagenConfig::default();
    let mut out = None;
    let mut i = 0;
    while i < args.len() {
        let value = args.get(i + 1);
        let number = |name: &str| -> Result<u64, String> {
            value
                .and_then(|v| v.parse().ok())
                .ok_or_else(|| format!("datagen: {name} needs a number"))
        };
        let parsed = match args[i].as_str() {
            "--out" => match value {
                Some(path) => {
                    out = Some(std::path::PathBuf::from(path));
                    Ok(())
                }
                None => Err("datagen: --out needs a file name".to_string()),
            },
            "--games" => number("--games").map(|n| config.games = n),
            "--nodes" => number("--nodes").map(|n| config.nodes = n.max(1)),
            "--threads" => number("--threads").map(|n| config.threads = (n as usize).max(1)),
            "--seed" => number("--seed").map(|n| config.seed = n),
            "--random-plies" => number("--random-plies").map(|n| config.random_plies = n as usize),
            "--max-plies" => number("--max-plies").map(|n| config.max_plies = n.clamp(1, MAX_PLIES.into()) as usize),
            "--hash" => number("--hash").map(|n| config.hash_mb = (n as usize).clamp(1, 4096)),
            "--eval" => match value.map(String::as_str) {
                Some("embedded") => {
                    config.network = Some(chessbits_engine::eval::nnue::embedded::network());
                    Ok(())
                }
                Some("hand-tuned") => {
                    config.network = None;
                    Ok(())
                }
                Some(path) => chessbits_engine::eval::nnue::Network::load(path)
                    .map(|net| config.network = Some(std::sync::Arc::new(net)))
                    .map_err(|e| format!("datagen: --eval {path}: {e}")),
                None => Err("datagen: --eval needs 'embedded', 'hand-tuned' or a network file".to_string()),
            },
            other => Err(format!("datagen: unknown option '{other}'")),
        };
        if let Err(message) = parsed {
            eprintln!("{message}\n\n{USAGE}");
            return 2;
        }
        i += 2;
    }
    let Some(out) = out else {
        eprintln!("datagen: --out FILE is required\n\n{USAGE}");
        return 2;
    };
    let mut last_report = 0.0;
    let result = generate(&out, &config, &mut |p| {
        // About once a second, and at the end.
        if p.seconds - last_report >= 1.0 || p.games == p.target {
            last_report = p.seconds;
            eprintln!(
                "datagen: games {}/{} positions {} ({:.0}/s) bytes/position {:.2}",
                p.games,
                p.target,
                p.positions,
                p.positions as f64 / p.seconds.max(1e-9),
                p.bytes as f64 / p.positions.max(1) as f64
            );
        }
    });
    match result {
        Ok(summary) => {
            eprintln!(
                "datagen: {} games resumed, {} played, {} positions, {} bytes",
                summary.resumed, summary.played, summary.positions, summary.bytes
            );
            0
        }
        Err(e) => {
            eprintln!("datagen: {}: {e}", out.display());
            1
        }
    }
}
