//! Perft throughput of chessbits against cozy-chess and shakmaty, in one process.
//!
//! Run with `cargo bench -p chessbits --bench perft [-- MODE... --reps N --target-ms MS]`, where
//! MODE is `bulk`, `make` or `list` (default: all three). See BENCHMARKS.md at the repository
//! root for the numbers and for the PEXT build.
//!
//! Three ways of counting leaves, each engine doing the same work:
//! - `bulk`: at depth 1, count the legal moves (ours: popcount of target sets; cozy-chess:
//!   `PieceMoves::len`; shakmaty, which has no counting API: `legal_moves().len()`);
//! - `make`: play every leaf move (ours: make/unmake; peers: play on a copy of the board);
//! - `list`: at depth 1, fill each engine's move list type and count it.
//!
//! Every position is first run once per engine and mode: the node counts must agree with each
//! other and with the published perft numbers, else the benchmark aborts. That run also
//! calibrates how many perft calls make one measurement (`--target-ms` for the fastest engine).
//! Measurements are interleaved round-robin, the starting engine rotating per round, so drift
//! in machine load hits every engine alike; time is the thread's CPU time, so a busy machine
//! slows the clock less than it would wall time; the best round is reported (least disturbed by
//! other processes), the median is printed beside it.
//!
//! Run without `--bench` (as `cargo test --benches` does), it only checks node counts at low
//! depth, quickly, and times nothing.

#[path = "support/clock.rs"]
mod clock;
use std::hint::black_box;
use std::time::Duration;

use arrayvec::ArrayVec;
use chessbits::movegen::{perft_with, PerftMode};
use chessbits::position::Position;
use clock::Clock;
use shakmaty::Position as _;

/// One of the six positions of the chessprogramming wiki's "Perft Results" page.
struct Case {
    name: &'static str,
    fen: &'static str,
    /// Published leaf counts for depths 1, 2, ...
    known: &'static [u64],
    /// Depth used for the bulk, make and list modes.
    depths: [u32; 3],
}

const CASES: [Case; 6] = [
    Case {
        name: "startpos",
        fen: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        known: &[20, 400, 8_902, 197_281, 4_865_609, 119_060_324],
        depths: [5, 5, 5],
    },
    Case {
        name: "kiwipete",
        fen: "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        known: &[48, 2_039, 97_862, 4_085_603, 193_690_690],
        depths: [4, 4, 4],
    },
    Case {
        name: "position 3",
        fen: "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        known: &[14, 191, 2_812, 43_238, 674_624, 11_030_083, 178_633_661],
        depths: [6, 6, 6],
    },
    Case {
        name: "position 4",
        fen: "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        known: &[6, 264, 9_467, 422_333, 15_833_292, 706_045_033],
        depths: [5, 4, 4],
    },
    Case {
        name: "position 5",
        fen: "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        known: &[44, 1_486, 62_379, 2_103_487, 89_941_194],
        depths: [4, 4, 4],
    },
    Case {
        name: "position 6",
        fen: "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
        known: &[46, 2_079, 89_890, 3_894_594, 164_075_551],
        depths: [4, 4, 4],
    },
];

#[derive(Copy, Clone, PartialEq, Eq, Debug)]
enum Mode {
    Bulk,
    Make,
    List,
}

impl Mode {
    const ALL: [Mode; 3] = [Mode::Bulk, Mode::Make, Mode::List];

    fn name(self) -> &'static str {
        match self {
            Mode::Bulk => "bulk",
            Mode::Make => "make",
            Mode::List => "list",
        }
    }

    fn title(self) -> &'static str {
        match self {
            Mode::Bulk => "bulk-counted leaves",
            Mode::Make => "make at every leaf",
            Mode::List => "leaves fill a move list",
        }
    }

    fn index(self) -> usize {
        self as usize
    }
}

const ENGINES: [&str; 3] = ["chessbits", "cozy-chess", "shakmaty"];

/// The same position in each engine's type.
struct Boards {
    ours: Position,
    cozy: cozy_chess::Board,
    shakmaty: shakmaty::Chess,
}

impl Boards {
    fn new(fen: &str) -> Boards {
        let ours = Position::from_fen(fen).unwrap_or_else(|e| panic!("chessbits rejects {fen}: {e}"));
        let cozy =
            cozy_chess::Board::from_fen(fen, false).unwrap_or_else(|e| panic!("cozy-chess rejects {fen}: {e:?}"));
        let shakmaty = fen
            .parse::<shakmaty::fen::Fen>()
            .ok()
            .and_then(|f| f.into_position(shakmaty::CastlingMode::Standard).ok())
            .unwrap_or_else(|| panic!("shakmaty rejects {fen}"));
        Boards { ours, cozy, shakmaty }
    }

    /// Leaf count of `engine` (an index into [`ENGINES`]).
    fn perft(&self, engine: usize, mode: Mode, depth: u32) -> u64 {
        match (engine, mode) {
            (0, Mode::Bulk) => perft_with(&self.ours, depth, PerftMode::Bulk),
            (0, Mode::Make) => perft_with(&self.ours, depth, PerftMode::MakeLeaves),
            (0, Mode::List) => perft_with(&self.ours, depth, PerftMode::ListLeaves),
            (1, Mode::Bulk) => cozy_bulk(&self.cozy, depth),
            (1, Mode::Make) => cozy_make(&self.cozy, depth),
            (1, Mode::List) => cozy_list(&self.cozy, depth),
            (_, Mode::Bulk) => shakmaty::perft(&self.shakmaty, depth),
            (_, Mode::Make) => shakmaty_make(&self.shakmaty, depth),
            (_, Mode::List) => shakmaty_list(&self.shakmaty, depth),
        }
    }
}

/// cozy-chess's own perft idiom: the listener gets one piece's targets at a time.
fn cozy_bulk(board: &cozy_chess::Board, depth: u32) -> u64 {
    let mut nodes = 0;
    match depth {
        0 => return 1,
        1 => {
            board.generate_moves(|moves| {
                nodes += moves.len() as u64;
                false
            });
        }
        _ => {
            board.generate_moves(|moves| {
                for mv in moves {
                    let mut child = board.clone();
                    child.play_unchecked(mv);
                    nodes += cozy_bulk(&child, depth - 1);
                }
                false
            });
        }
    }
    nodes
}

fn cozy_make(board: &cozy_chess::Board, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut nodes = 0;
    board.generate_moves(|moves| {
        for mv in moves {
            let mut child = board.clone();
            child.play_unchecked(mv);
            // Keep the leaf's play from being optimised away.
            nodes += if depth == 1 {
                black_box(&child);
                1
            } else {
                cozy_make(&child, depth - 1)
            };
        }
        false
    });
    nodes
}

/// cozy-chess has no move list type; a stack `ArrayVec` of its moves is the allocation-free one.
fn cozy_list(board: &cozy_chess::Board, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut list: ArrayVec<cozy_chess::Move, 256> = ArrayVec::new();
    board.generate_moves(|moves| {
        list.extend(moves);
        false
    });
    if depth == 1 {
        return black_box(&list).len() as u64;
    }
    list.iter()
        .map(|&mv| {
            let mut child = board.clone();
            child.play_unchecked(mv);
            cozy_list(&child, depth - 1)
        })
        .sum()
}

fn shakmaty_make(pos: &shakmaty::Chess, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    pos.legal_moves()
        .into_iter()
        .map(|m| {
            let mut child = pos.clone();
            child.play_unchecked(m);
            if depth == 1 {
                black_box(&child);
                1
            } else {
                shakmaty_make(&child, depth - 1)
            }
        })
        .sum()
}

/// Same tree walk as `shakmaty::perft`, with the depth-1 list kept observable.
fn shakmaty_list(pos: &shakmaty::Chess, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = pos.legal_moves();
    if depth == 1 {
        return black_box(&moves).len() as u64;
    }
    moves
        .into_iter()
        .map(|m| {
            let mut child = pos.clone();
            child.play_unchecked(m);
            shakmaty_list(&child, depth - 1)
        })
        .sum()
}

/// Command line: modes to run, rounds, and the target duration of one measurement.
struct Options {
    modes: Vec<Mode>,
    rounds: usize,
    target: Duration,
    timed: bool,
    /// `--once ENGINE`: run the modes once for that engine over all six positions (bulk at its
    /// depth, make and list one ply less), untimed, for instruction counting under callgrind.
    once: Option<usize>,
}

fn options() -> Options {
    let mut opts = Options {
        modes: Vec::new(),
        rounds: 5,
        target: Duration::from_millis(150),
        timed: false,
        once: None,
    };
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            // Passed by `cargo bench`; absent under `cargo test --benches`.
            "--bench" => opts.timed = true,
            "--reps" | "--rounds" => opts.rounds = args.next().and_then(|n| n.parse().ok()).unwrap_or(5).max(1),
            "--target-ms" => {
                let ms = args.next().and_then(|n| n.parse().ok()).unwrap_or(150);
                opts.target = Duration::from_millis(ms);
            }
            "--once" => opts.once = args.next().and_then(|name| ENGINES.iter().position(|e| *e == name)),
            name => opts.modes.extend(Mode::ALL.into_iter().filter(|m| m.name() == name)),
        }
    }
    if opts.modes.is_empty() {
        opts.modes = Mode::ALL.to_vec();
    }
    opts
}

/// Runs `calls` perfts; returns the leaf count of one and the time of all: the CPU time of this
/// thread, which time slices given to other processes do not inflate (wall time if unavailable).
fn measure(boards: &Boards, engine: usize, mode: Mode, depth: u32, calls: u32) -> (u64, Duration) {
    let clock = Clock::start();
    let mut nodes = 0;
    for _ in 0..calls {
        nodes = black_box(boards.perft(engine, black_box(mode), black_box(depth)));
    }
    let elapsed = clock.elapsed();
    (nodes, elapsed)
}

/// Aborts unless all engines count `known` leaves.
fn check(case: &Case, mode: Mode, depth: u32, counts: &[u64]) {
    let known = case.known[depth as usize - 1];
    for (engine, &n) in ENGINES.iter().zip(counts) {
        assert_eq!(n, known, "{engine} {} {} depth {depth}", case.name, mode.name());
    }
}

fn geomean(values: &[f64]) -> f64 {
    (values.iter().map(|v| v.ln()).sum::<f64>() / values.len() as f64).exp()
}

fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

fn run_mode(opts: &Options, mode: Mode, boards: &[Boards]) {
    println!("\n### {} ({})\n", mode.title(), mode.name());
    println!("| position | depth | leaves × calls | chessbits Mnps | cozy-chess Mnps | shakmaty Mnps | ours/cozy | ours/shakmaty |");
    println!("|---|---:|---:|---:|---:|---:|---:|---:|");
    let (mut vs_cozy, mut vs_shakmaty) = (Vec::new(), Vec::new());
    for (case, boards) in CASES.iter().zip(boards) {
        let depth = case.depths[mode.index()];
        // Warm-up, verification and calibration in one.
        let first: Vec<(u64, Duration)> = (0..ENGINES.len()).map(|e| measure(boards, e, mode, depth, 1)).collect();
        check(case, mode, depth, &first.iter().map(|r| r.0).collect::<Vec<_>>());
        let fastest = first.iter().map(|r| r.1).min().unwrap_or(Duration::from_millis(1));
        let calls = (opts.target.as_secs_f64() / fastest.as_secs_f64().max(1e-6))
            .ceil()
            .max(1.0) as u32;
        let leaves = first[0].0 * u64::from(calls);

        let mut mnps: [Vec<f64>; 3] = Default::default();
        for round in 0..opts.rounds {
            for k in 0..ENGINES.len() {
                let engine = (round + k) % ENGINES.len();
                let (_, time) = measure(boards, engine, mode, depth, calls);
                mnps[engine].push(leaves as f64 / time.as_secs_f64() / 1e6);
            }
        }
        let best: Vec<f64> = mnps.iter().map(|v| v.iter().copied().fold(0.0, f64::max)).collect();
        let med: Vec<f64> = mnps.iter().map(|v| median(v.clone())).collect();
        vs_cozy.push(best[0] / best[1]);
        vs_shakmaty.push(best[0] / best[2]);
        println!(
            "| {} | {depth} | {} × {calls} | {:.1} ({:.1}) | {:.1} ({:.1}) | {:.1} ({:.1}) | {:.2} | {:.2} |",
            case.name,
            first[0].0,
            best[0],
            med[0],
            best[1],
            med[1],
            best[2],
            med[2],
            best[0] / best[1],
            best[0] / best[2],
        );
    }
    println!(
        "| **geomean** | | | | | | **{:.2}** | **{:.2}** |",
        geomean(&vs_cozy),
        geomean(&vs_shakmaty)
    );
}

/// `cargo test --benches`: every engine and mode against the published counts, at low depth.
fn smoke(boards: &[Boards]) {
    for (case, boards) in CASES.iter().zip(boards) {
        for mode in Mode::ALL {
            for depth in 1..=2 {
                let counts: Vec<u64> = (0..ENGINES.len()).map(|e| boards.perft(e, mode, depth)).collect();
                check(case, mode, depth, &counts);
            }
        }
    }
    println!("perft bench smoke test: counts agree for {} positions", CASES.len());
}

fn main() {
    let opts = options();
    let boards: Vec<Boards> = CASES.iter().map(|c| Boards::new(c.fen)).collect();
    if let Some(engine) = opts.once {
        for &mode in &opts.modes {
            let mut leaves = 0;
            for (case, boards) in CASES.iter().zip(&boards) {
                let depth = case.depths[mode.index()] - u32::from(mode != Mode::Bulk);
                let nodes = boards.perft(engine, mode, depth);
                assert_eq!(
                    nodes,
                    case.known[depth as usize - 1],
                    "{} {}",
                    ENGINES[engine],
                    case.name
                );
                leaves += nodes;
            }
            println!("{} {}: {leaves} leaves", ENGINES[engine], mode.name());
        }
        return;
    }
    if !opts.timed {
        smoke(&boards);
        return;
    }
    println!(
        "chessbits slider lookup: {}; {} rounds, ~{} ms per measurement; Mnps = best round (median), thread CPU time",
        if chessbits::attacks::sliders::USES_PEXT {
            "PEXT (feature `pext`; cozy-chess built with its `pext` feature too)"
        } else {
            "magic multiply"
        },
        opts.rounds,
        opts.target.as_millis()
    );
    for &mode in &opts.modes {
        run_mode(&opts, mode, &boards);
    }
}
