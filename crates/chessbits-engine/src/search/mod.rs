//! The search: iterative deepening with aspiration windows over a PVS alpha-beta search, and
//! Lazy SMP.
//!
//! [`run`] searches a [`Game`]'s current position with [`Limits`]: the calling thread is the
//! main thread (it reports `info` lines, watches the clock and decides when to stop); helper
//! threads search the same position over the shared [`TranspositionTable`] and finish when the
//! main thread does. Every thread starts from its own copy of the game's signature list (the
//! keys of all positions played), so repetitions reaching back into the game are seen by all.
//!
//! ```
//! use std::sync::Arc;
//! use chessbits::game::Game;
//! use chessbits_engine::search::{run, Control, Limits, SearchThreads};
//! use chessbits_engine::tt::TranspositionTable;
//! let game = Game::from_fen("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1").unwrap();
//! let tt = TranspositionTable::new(1);
//! let limits = Limits { depth: Some(4), ..Limits::default() };
//! let mut threads = SearchThreads::new(1);
//! let result = run(&game, &limits, &tt, &Control::new(), &mut threads, &mut |_| {});
//! assert_eq!(result.best_move.unwrap().to_string(), "a1a8");
//! ```

mod alphabeta;
pub mod picker;
pub mod pv;
pub mod score;
pub mod strength;

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;

use chessbits::game::Game;
use chessbits::lists::{MoveList, SearchStack};
use chessbits::moves::Move;
use chessbits::position::Position;

use crate::eval::nnue::accumulator::AccumulatorStack;
use crate::eval::nnue::Network;
use crate::history::History;
use crate::time::TimeManager;
use crate::tt::TranspositionTable;
use pv::PvTable;
use score::{uci_score, INFINITY, MATE, MATE_BOUND, MAX_PLY};
use strength::Strength;

/// What bounds a search besides the clock.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Deepest iteration.
    pub depth: Option<i32>,
    /// Stop after about this many nodes (all threads together).
    pub nodes: Option<u64>,
    /// Stop once a mate in this many moves (or fewer) is found.
    pub mate: Option<i32>,
    /// Search only these root moves (empty: all).
    pub searchmoves: Vec<Move>,
    /// Lines to report; 0 or 1: one.
    pub multipv: usize,
    /// Print moves in Chess960 castling notation (king takes rook).
    pub chess960: bool,
    /// The clock: soft and hard time limits (none: search until stopped or a limit is hit).
    pub time: TimeManager,
    /// Print `info` lines (bench turns them off).
    pub quiet: bool,
    /// Play below full strength (`UCI_LimitStrength`): a depth bound and a weaker move now and
    /// then, chosen among [`Strength::LINES`] lines.
    pub strength: Option<Strength>,
    /// Evaluate with this network (`EvalFile`), shared read-only by all threads; `None`: the
    /// hand-tuned evaluation.
    pub network: Option<Arc<Network>>,
}

/// Flags shared between the UCI thread and the search: stop and ponder.
#[derive(Debug, Default)]
pub struct Control {
    stop: AtomicBool,
    pondering: AtomicBool,
}

impl Control {
    /// Not stopped, not pondering.
    pub fn new() -> Control {
        Control::default()
    }
    /// Asks every search thread to finish.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }
    /// Whether a stop was asked for.
    pub fn is_stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }
    /// Clears the stop flag before a new search; `pondering` says whether it starts as one.
    pub fn reset(&self, pondering: bool) {
        self.stop.store(false, Ordering::Relaxed);
        self.pondering.store(pondering, Ordering::Relaxed);
    }
    /// Whether the search is a ponder search that has not been hit yet (no clock).
    pub fn is_pondering(&self) -> bool {
        self.pondering.load(Ordering::Relaxed)
    }
    /// `ponderhit`: the clock starts.
    pub fn ponder_hit(&self) {
        self.pondering.store(false, Ordering::Relaxed);
    }
}

/// The outcome of [`run`].
#[derive(Clone, Debug, Default)]
pub struct SearchResult {
    /// The move to play; `None` without legal moves.
    pub best_move: Option<Move>,
    /// The expected reply, for pondering.
    pub ponder_move: Option<Move>,
    /// The score of the best line.
    pub score: i32,
    /// The last completed depth.
    pub depth: i32,
    /// Nodes searched by all threads.
    pub nodes: u64,
}

/// Per-thread state kept between searches: history tables (and their killers).
pub struct SearchThreads {
    histories: Vec<History>,
}

impl SearchThreads {
    /// State for `n` threads (at least one).
    pub fn new(n: usize) -> SearchThreads {
        SearchThreads {
            histories: (0..n.max(1)).map(|_| History::new()).collect(),
        }
    }
    /// The number of threads.
    pub fn len(&self) -> usize {
        self.histories.len()
    }
    /// Never empty; for clippy's `len_without_is_empty`.
    pub fn is_empty(&self) -> bool {
        self.histories.is_empty()
    }
    /// Forgets all history (a new game).
    pub fn clear(&mut self) {
        self.histories.iter_mut().for_each(History::clear);
    }
}

/// What all threads of one search share.
struct Shared<'a> {
    tt: &'a TranspositionTable,
    control: &'a Control,
    limits: &'a Limits,
    nodes: Vec<AtomicU64>,
    /// Set by the main thread when the search ends (a limit, or its last iteration): the
    /// helpers finish. Kept apart from [`Control`]'s stop, which only the user sets, so the
    /// UCI layer can still tell an infinite search to wait for `stop`.
    done: AtomicBool,
}

impl Shared<'_> {
    fn total_nodes(&self) -> u64 {
        self.nodes.iter().map(|n| n.load(Ordering::Relaxed)).sum()
    }
}

/// One search thread.
pub(crate) struct Worker<'a> {
    id: usize,
    main: bool,
    pos: Position,
    /// The signature list: keys of the game's positions, then of the search path.
    keys: Vec<u64>,
    stack: SearchStack,
    history: &'a mut History,
    pv: PvTable,
    nodes: u64,
    seldepth: usize,
    evals: [i32; MAX_PLY + 2],
    /// The move that led to each ply (`None` for a null move or at the root).
    played: [Option<Move>; MAX_PLY + 2],
    /// The depth of the current iteration (extensions stop at twice it).
    root_depth: i32,
    /// The move a singular-extension search leaves out at each ply.
    singular_excluded: [Option<Move>; MAX_PLY + 2],
    /// The continuation context (piece × 64 + to) of the move that led to each ply.
    contexts: [Option<usize>; MAX_PLY + 2],
    /// Per ply, the moves tried so far at the node being searched there (for the history
    /// updates of a cutoff), kept from node to node so that no node allocates.
    tried: Vec<TriedMoves>,
    /// Root moves excluded: the best moves of earlier MultiPV lines.
    excluded: Vec<Move>,
    multipv_index: usize,
    /// The network and this thread's accumulators, when one is loaded.
    nnue: Option<Nnue>,
    shared: &'a Shared<'a>,
}

/// The moves a node has tried, for the history updates when one of them cuts.
#[derive(Default)]
pub(crate) struct TriedMoves {
    /// The quiet moves tried, in order.
    pub(crate) quiets: Vec<Move>,
    /// Their continuation contexts (piece × 64 + to).
    pub(crate) quiet_contexts: Vec<usize>,
    /// The captures tried: (context, victim's role index).
    pub(crate) captures: Vec<(usize, usize)>,
}

impl TriedMoves {
    fn clear(&mut self) {
        self.quiets.clear();
        self.quiet_contexts.clear();
        self.captures.clear();
    }
}

/// A network and the per-ply accumulator stack a worker keeps for it.
pub(crate) struct Nnue {
    net: Arc<Network>,
    stack: AccumulatorStack,
}

impl Nnue {
    /// Accumulators for every ply, ply 0 refreshed for the root `pos`: the only refresh.
    fn new(net: Arc<Network>, pos: &Position) -> Nnue {
        let mut stack = AccumulatorStack::new(&net, MAX_PLY + 2);
        stack.refresh(&net, 0, pos);
        Nnue { net, stack }
    }
}

/// One reported line.
#[derive(Clone, Debug)]
struct Line {
    score: i32,
    pv: Vec<Move>,
}

impl<'a> Worker<'a> {
    fn new(id: usize, game: &Game, history: &'a mut History, shared: &'a Shared<'a>) -> Worker<'a> {
        history.clear_killers();
        Worker {
            id,
            main: id == 0,
            pos: game.position().clone(),
            // The copy synchronised from the root: this thread's own signature list.
            keys: game.keys().to_vec(),
            stack: SearchStack::new(),
            history,
            pv: PvTable::new(),
            nodes: 0,
            seldepth: 0,
            evals: [0; MAX_PLY + 2],
            played: [None; MAX_PLY + 2],
            contexts: [None; MAX_PLY + 2],
            singular_excluded: [None; MAX_PLY + 2],
            tried: (0..MAX_PLY + 2).map(|_| TriedMoves::default()).collect(),
            root_depth: 0,
            excluded: Vec::new(),
            multipv_index: 0,
            nnue: shared
                .limits
                .network
                .as_ref()
                .map(|net| Nnue::new(Arc::clone(net), game.position())),
            shared,
        }
    }

    #[inline]
    fn stopped(&self) -> bool {
        self.shared.done.load(Ordering::Relaxed) || self.shared.control.is_stopped()
    }

    fn publish_nodes(&self) {
        self.shared.nodes[self.id].store(self.nodes, Ordering::Relaxed);
    }

    /// Main thread: stop on the hard time limit or the node limit.
    fn check_limits(&self) {
        let limits = self.shared.limits;
        let control = self.shared.control;
        if let Some(max) = limits.nodes {
            let total = if self.shared.nodes.len() == 1 {
                self.nodes
            } else {
                self.shared.total_nodes()
            };
            if total >= max {
                self.shared.done.store(true, Ordering::Relaxed);
            }
        }
        if !control.is_pondering() && limits.time.hard_exceeded() {
            self.shared.done.store(true, Ordering::Relaxed);
        }
    }

    fn root_allowed(&self, m: Move) -> bool {
        let only = &self.shared.limits.searchmoves;
        (only.is_empty() || only.contains(&m)) && !self.excluded.contains(&m)
    }

    /// One root search with an aspiration window around the previous score.
    fn aspiration(&mut self, depth: i32, previous: Option<i32>) -> i32 {
        let mut window = 25;
        let (mut alpha, mut beta) = match previous {
            Some(p) if depth >= 5 && !score::is_mate(p) => ((p - window).max(-INFINITY), (p + window).min(INFINITY)),
            _ => (-INFINITY, INFINITY),
        };
        self.root_depth = depth;
        loop {
            self.stack.reset();
            let score = self.search(alpha, beta, depth, 0, false);
            if self.stopped() {
                return score;
            }
            if score <= alpha {
                beta = (alpha + beta) / 2;
                alpha = (score - window).max(-INFINITY);
            } else if score >= beta {
                beta = (score + window).min(INFINITY);
            } else {
                return score;
            }
            window += window / 2;
            if window > 1000 {
                alpha = -INFINITY;
                beta = INFINITY;
            }
        }
    }

    /// Iterative deepening; the main thread reports and returns the result.
    fn iterate(&mut self, root_moves: usize, report: &mut dyn FnMut(&str)) -> SearchResult {
        let limits = self.shared.limits;
        let strength_depth = limits.strength.as_ref().and_then(Strength::max_depth);
        let max_depth = limits
            .depth
            .unwrap_or(MAX_PLY as i32 - 1)
            .min(strength_depth.unwrap_or(MAX_PLY as i32))
            .clamp(1, MAX_PLY as i32 - 1);
        let strength_lines = if limits.strength.is_some() { Strength::LINES } else { 1 };
        let lines_wanted = limits.multipv.max(strength_lines).min(root_moves);
        let mut lines: Vec<Line> = Vec::new();
        let mut completed = 0;
        let mut depth = 1;
        while depth <= max_depth {
            // Helpers search half of the iterations one ply deeper, so threads spread out.
            let search_depth = if !self.main && self.id % 2 == 1 {
                depth + 1
            } else {
                depth
            };
            let mut new_lines: Vec<Line> = Vec::new();
            self.excluded.clear();
            self.seldepth = 0;
            for index in 0..lines_wanted {
                self.multipv_index = index;
                let previous = lines.get(index).map(|l| l.score);
                let score = self.aspiration(search_depth, previous);
                if self.stopped() && completed > 0 {
                    break;
                }
                let pv = self.pv.line(0).to_vec();
                let Some(&first) = pv.first() else { break };
                self.excluded.push(first);
                new_lines.push(Line { score, pv });
            }
            if self.stopped() && completed > 0 {
                break;
            }
            if new_lines.is_empty() {
                break;
            }
            lines = new_lines;
            completed = depth;
            if self.main {
                self.publish_nodes();
                if !limits.quiet {
                    self.report_lines(depth, &lines, limits.chess960, report);
                }
                if let Some(mate) = limits.mate {
                    let s = lines[0].score;
                    if s >= MATE_BOUND && (MATE - s + 1) / 2 <= mate {
                        break;
                    }
                }
                if !self.shared.control.is_pondering() && limits.time.soft_exceeded() {
                    break;
                }
            }
            if self.stopped() {
                break;
            }
            depth += 1;
        }
        self.publish_nodes();
        let chosen = match &limits.strength {
            Some(strength) => strength.pick(&lines.iter().map(|l| l.score).collect::<Vec<_>>()),
            None => 0,
        };
        let best = lines.get(chosen);
        SearchResult {
            best_move: best.and_then(|l| l.pv.first().copied()),
            ponder_move: best.and_then(|l| l.pv.get(1).copied()),
            score: best.map_or(0, |l| l.score),
            depth: completed,
            nodes: self.shared.total_nodes(),
        }
    }

    fn report_lines(&self, depth: i32, lines: &[Line], chess960: bool, report: &mut dyn FnMut(&str)) {
        let nodes = self.shared.total_nodes();
        let elapsed = self.shared.limits.time.elapsed_ms();
        let nps = nodes * 1000 / elapsed.max(1);
        let hashfull = self.shared.tt.hashfull();
        for (i, line) in lines.iter().enumerate() {
            let pv: Vec<String> = line.pv.iter().map(|m| m.uci(chess960).to_string()).collect();
            report(&format!(
                "info depth {depth} seldepth {} multipv {} score {} nodes {nodes} nps {nps} hashfull {hashfull} time {elapsed} pv {}",
                self.seldepth.max(depth as usize),
                i + 1,
                uci_score(line.score),
                pv.join(" ")
            ));
        }
    }
}

/// Searches the current position of `game` (see the [module docs](self)). `report` receives
/// the `info` lines; the result is returned, the caller prints `bestmove`.
pub fn run(
    game: &Game,
    limits: &Limits,
    tt: &TranspositionTable,
    control: &Control,
    threads: &mut SearchThreads,
    report: &mut dyn FnMut(&str),
) -> SearchResult {
    tt.new_search();
    let mut root = MoveList::new();
    game.position().legal_moves_into(&mut root);
    let root_moves = root
        .iter()
        .filter(|m| limits.searchmoves.is_empty() || limits.searchmoves.contains(m))
        .count();
    if root_moves == 0 {
        return SearchResult::default();
    }
    let shared = Shared {
        tt,
        control,
        limits,
        nodes: (0..threads.len()).map(|_| AtomicU64::new(0)).collect(),
        done: AtomicBool::new(false),
    };
    let (main_history, helper_histories) = threads.histories.split_at_mut(1);
    let result = std::thread::scope(|scope| {
        for (i, history) in helper_histories.iter_mut().enumerate() {
            let shared = &shared;
            scope.spawn(move || {
                let mut worker = Worker::new(i + 1, game, history, shared);
                worker.iterate(root_moves, &mut |_| {});
            });
        }
        let mut main = Worker::new(0, game, &mut main_history[0], &shared);
        let result = main.iterate(root_moves, report);
        // The main thread decides: the helpers stop with it.
        shared.done.store(true, Ordering::Relaxed);
        result
    });
    let mut result = SearchResult {
        nodes: shared.total_nodes(),
        ..result
    };
    if result.best_move.is_none() {
        // Stopped before the first iteration finished: any allowed legal move beats none.
        result.best_move = root
            .iter()
            .copied()
            .find(|m| limits.searchmoves.is_empty() || limits.searchmoves.contains(m));
    }
    result
}
