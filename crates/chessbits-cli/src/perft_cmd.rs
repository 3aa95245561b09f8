//! `chessbits perft`: node counts for one position or a whole suite.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use crate::json::Json;
use crate::output::say;
use chessbits::lists::MoveList;
use chessbits::movegen::suite::parse_suite;
use chessbits::movegen::{perft_with, PerftMode, MAX_PERFT_DEPTH};
use chessbits::moves::Move;
use chessbits::position::Position;

#[derive(clap::Args)]
pub struct PerftArgs {
    /// The position (FEN or EPD); the start position if omitted.
    #[arg(long, conflicts_with = "suite")]
    fen: Option<String>,
    /// Search depth, for --fen or the start position (at most 32, `movegen::MAX_PERFT_DEPTH`).
    #[arg(long, default_value_t = 5, conflicts_with = "suite")]
    depth: u32,
    /// Print the node count below each root move first (`uci: count`); not with --suite.
    #[arg(long, conflicts_with = "suite")]
    divide: bool,
    /// Threads that split the root moves (or the suite's positions).
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// An EPD suite (`FEN ;D1 n ;D2 n`) or a `.perft` suite (`id`/`epd`/`perft d n` blocks).
    #[arg(long)]
    suite: Option<PathBuf>,
    /// With --suite (only): skip expected counts deeper than this.
    #[arg(long)]
    max_depth: Option<u32>,
    /// How leaves are counted.
    #[arg(long, value_enum, default_value = "bulk")]
    mode: Mode,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    validation: crate::fen_arg::ValidationArg,
}

#[derive(Copy, Clone, clap::ValueEnum)]
enum Mode {
    Bulk,
    Make,
    List,
}

impl From<Mode> for PerftMode {
    fn from(m: Mode) -> PerftMode {
        match m {
            Mode::Bulk => PerftMode::Bulk,
            Mode::Make => PerftMode::MakeLeaves,
            Mode::List => PerftMode::ListLeaves,
        }
    }
}

pub fn run(args: PerftArgs) -> Result<ExitCode, String> {
    // Checked here, not by clap's `requires`: clap waives a requirement on an argument that
    // conflicts with one present, and --depth (conflicting with --suite) always has its default.
    if args.max_depth.is_some() && args.suite.is_none() {
        return Err("--max-depth applies only to --suite (use --depth for one position)".to_string());
    }
    match &args.suite {
        Some(path) => run_suite(path, &args),
        None => run_position(&args),
    }
}

/// Perft of each root move, the root moves shared out over `threads` threads.
fn divide(pos: &Position, depth: u32, threads: usize, mode: PerftMode) -> Vec<(Move, u64)> {
    let mut list = MoveList::new();
    pos.legal_moves_into(&mut list);
    let moves: Vec<Move> = list.to_vec();
    let count_below = |m: Move| {
        let mut child = pos.clone();
        child.play_unchecked(m);
        (m, perft_with(&child, depth - 1, mode))
    };
    let threads = threads.clamp(1, moves.len().max(1));
    if threads == 1 {
        return moves.into_iter().map(count_below).collect();
    }
    let chunks: Vec<Vec<Move>> = (0..threads)
        .map(|t| moves.iter().copied().skip(t).step_by(threads).collect())
        .collect();
    let mut results: Vec<(Move, u64)> = std::thread::scope(|scope| {
        let handles: Vec<_> = chunks
            .iter()
            .map(|chunk| scope.spawn(|| chunk.iter().map(|&m| count_below(m)).collect::<Vec<_>>()))
            .collect();
        handles.into_iter().flat_map(|h| h.join().unwrap_or_default()).collect()
    });
    // Back to move-list order.
    results.sort_by_key(|&(m, _)| moves.iter().position(|&x| x == m));
    results
}

fn count(pos: &Position, depth: u32, threads: usize, mode: PerftMode) -> u64 {
    if depth == 0 {
        return 1;
    }
    if threads <= 1 {
        return perft_with(pos, depth, mode);
    }
    divide(pos, depth, threads, mode).iter().map(|&(_, n)| n).sum()
}

fn run_position(args: &PerftArgs) -> Result<ExitCode, String> {
    // Checked before anything runs: the library would panic (the recursion would otherwise
    // overflow the stack), and no such count could be finished or held in a u64 anyway.
    if args.depth > MAX_PERFT_DEPTH {
        return Err(format!(
            "--depth {}: the maximum perft depth is {MAX_PERFT_DEPTH}",
            args.depth
        ));
    }
    let pos = match &args.fen {
        Some(fen) => {
            crate::fen_arg::position_of_with(fen, args.validation.validation()).map_err(|e| format!("--fen: {e}"))?
        }
        None => Position::startpos(),
    };
    let mode = PerftMode::from(args.mode);
    let start = Instant::now();
    let mut divided = Vec::new();
    let nodes = if args.divide && args.depth > 0 {
        let results = divide(&pos, args.depth, args.threads, mode);
        for (m, n) in &results {
            let uci = m.uci(pos.is_chess960()).to_string();
            if !args.json {
                say!("{uci}: {n}");
            }
            divided.push(Json::obj([("move", Json::from(uci)), ("nodes", Json::from(*n))]));
        }
        results.iter().map(|&(_, n)| n).sum()
    } else {
        count(&pos, args.depth, args.threads, mode)
    };
    let secs = start.elapsed().as_secs_f64();
    if args.json {
        let mut pairs = vec![
            ("fen", Json::from(pos.fen())),
            ("depth", Json::from(args.depth)),
            ("nodes", Json::from(nodes)),
            ("seconds", Json::from(secs)),
        ];
        if args.divide {
            pairs.push(("divide", Json::Arr(divided)));
        }
        say!("{}", Json::obj(pairs));
        return Ok(ExitCode::SUCCESS);
    }
    eprintln!("time {:.3} s, {:.1} Mnps", secs, nodes as f64 / secs.max(1e-9) / 1e6);
    say!("nodes {nodes}");
    Ok(ExitCode::SUCCESS)
}

fn run_suite(path: &PathBuf, args: &PerftArgs) -> Result<ExitCode, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let cases = parse_suite(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    let mode = PerftMode::from(args.mode);
    let (mut passed, mut failed) = (0u64, 0u64);
    let (mut total_nodes, started) = (0u64, Instant::now());
    let mut rows = Vec::new();
    for case in &cases {
        let pos = match Position::from_fen_with(&case.fen, args.validation.validation()) {
            Ok(pos) => pos,
            Err(e) => {
                if args.json {
                    rows.push(Json::obj([
                        ("fen", Json::from(case.fen.as_str())),
                        ("error", Json::from(e.to_string())),
                        ("ok", Json::Bool(false)),
                    ]));
                } else {
                    say!("{} FAIL: {e}", case.id);
                }
                failed += 1;
                continue;
            }
        };
        for &(depth, expected) in &case.expected {
            if args.max_depth.is_some_and(|max| depth > max) {
                continue;
            }
            let start = Instant::now();
            let nodes = count(&pos, depth, args.threads, mode);
            let secs = start.elapsed().as_secs_f64();
            total_nodes += nodes;
            let verdict = if nodes == expected { "ok" } else { "FAIL" };
            if nodes == expected {
                passed += 1;
            } else {
                failed += 1;
            }
            if args.json {
                rows.push(Json::obj([
                    ("fen", Json::from(case.fen.as_str())),
                    ("depth", Json::from(depth)),
                    ("nodes", Json::from(nodes)),
                    ("expected", Json::from(expected)),
                    ("ok", Json::Bool(nodes == expected)),
                ]));
            } else if nodes != expected || cases.len() <= 32 {
                say!(
                    "{} depth {depth}: {nodes} (expected {expected}) {verdict}  {:.1} Mnps",
                    case.fen,
                    nodes as f64 / secs.max(1e-9) / 1e6
                );
            }
        }
    }
    let secs = started.elapsed().as_secs_f64();
    if args.json {
        let value = Json::obj([
            ("passed", Json::from(passed)),
            ("failed", Json::from(failed)),
            ("nodes", Json::from(total_nodes)),
            ("seconds", Json::from(secs)),
            ("results", Json::Arr(rows)),
        ]);
        say!("{value}");
    } else {
        say!(
            "total {total_nodes} nodes in {secs:.2} s, {:.1} Mnps",
            total_nodes as f64 / secs.max(1e-9) / 1e6
        );
        say!("{passed} passed, {failed} failed");
    }
    Ok(if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}
