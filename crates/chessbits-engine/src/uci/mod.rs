//! The UCI protocol: a command loop that stays responsive while the engine thinks.
//!
//! Three threads take part: an **input** thread reads lines and forwards them over a channel
//! (end of input becomes `quit`); the **command** thread (the caller of [`run_uci`]) handles
//! them one by one; a **search** thread runs each `go` (with its Lazy SMP helpers), prints
//! `info` lines and finally `bestmove`. So `isready`, `stop`, `ponderhit` and `quit` are
//! answered at once during a search. Bad input — an unknown command, a malformed FEN, an
//! illegal move — is answered with `info string` and changes nothing.
//!
//! Lines are read as bytes. `setoption name BookFile value V` takes the bytes of `V` as the
//! path, so a GUI on a Latin-1 system can name `jos\xe9.bin`; any other line that is not UTF-8
//! is answered with `info string` and ignored (a command that arrived garbled is not guessed
//! at). The book is opened at that `setoption` and probed by binary search at each `go`; a
//! file that is missing, unreadable, not a regular file or not a whole number of entries is
//! reported with `info string` and the engine plays without a book.
//!
//! ```
//! use std::io::Cursor;
//! use std::sync::{Arc, Mutex};
//! use chessbits_engine::uci::{run_uci, SharedWriter};
//! let out = SharedWriter::default();
//! run_uci(Cursor::new("uci\nisready\nposition startpos moves e2e4\ngo depth 3\nquit\n"), out.clone());
//! let text = out.contents();
//! assert!(text.contains("uciok") && text.contains("readyok") && text.contains("bestmove "));
//! ```

pub mod options;
pub mod parse;

use std::io::{BufRead, Read, Write};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

use chessbits::game::Game;
use chessbits::movegen::perft_divide;
use chessbits::notation::uci::parse_uci;

use crate::book::{clock_seed, BookFile};
use crate::eval::nnue::{embedded, Network};
use crate::search::strength::Strength;
use crate::search::{run, Control, Limits, SearchThreads};
use crate::time::TimeManager;
use crate::tt::TranspositionTable;
use options::{Change, Options, OPTION_LINES};
use parse::{book_file_value, parse_go, parse_position, parse_setoption};

/// An output sink shared by the command and search threads: whole lines, flushed.
pub trait Output: Send + 'static {
    /// Writes one line.
    fn line(&self, text: &str);
}

/// Standard output.
#[derive(Clone, Copy, Debug, Default)]
pub struct Stdout;

impl Output for Stdout {
    fn line(&self, text: &str) {
        let stdout = std::io::stdout();
        let mut lock = stdout.lock();
        // A closed pipe cannot be reported anywhere: ignore write errors.
        let _ = writeln!(lock, "{text}");
        let _ = lock.flush();
    }
}

/// An in-memory output for tests: every line, shared between clones.
#[derive(Clone, Debug, Default)]
pub struct SharedWriter(Arc<Mutex<String>>);

impl SharedWriter {
    /// Everything written so far.
    pub fn contents(&self) -> String {
        self.0.lock().map(|s| s.clone()).unwrap_or_default()
    }
}

impl Output for SharedWriter {
    fn line(&self, text: &str) {
        if let Ok(mut s) = self.0.lock() {
            s.push_str(text);
            s.push('\n');
        }
    }
}

/// A search running on its own thread.
struct RunningSearch {
    handle: JoinHandle<SearchThreads>,
    limits: Arc<Limits>,
    /// `go perft` cannot be stopped: `quit` leaves it to end with the process.
    stoppable: bool,
}

/// The engine's state between commands.
pub struct Engine<O: Output + Clone> {
    out: O,
    options: Options,
    game: Game,
    tt: Arc<TranspositionTable>,
    control: Arc<Control>,
    /// Per-thread history; moved into the search thread while it runs.
    threads: Option<SearchThreads>,
    search: Option<RunningSearch>,
    /// The `BookFile`, opened when it was set.
    book: Option<BookFile>,
    /// The `EvalFile` network, loaded when it was set; `None`: the embedded one.
    loaded_network: Option<Arc<Network>>,
}

impl<O: Output + Clone> Engine<O> {
    /// An engine writing to `out`, with default options.
    pub fn new(out: O) -> Engine<O> {
        let options = Options::default();
        Engine {
            out,
            tt: Arc::new(TranspositionTable::new(options.hash_mb)),
            threads: Some(SearchThreads::new(options.threads)),
            options,
            game: Game::new(),
            control: Arc::new(Control::new()),
            search: None,
            book: None,
            loaded_network: None,
        }
    }

    fn info(&self, message: &str) {
        self.out.line(&format!("info string {message}"));
    }

    /// Stops a running search and waits for its `bestmove`.
    fn stop_search(&mut self) {
        if let Some(running) = self.search.take() {
            self.control.stop();
            match running.handle.join() {
                Ok(threads) => self.threads = Some(threads),
                Err(_) => {
                    self.info("error: the search thread panicked");
                    self.threads = Some(SearchThreads::new(self.options.threads));
                }
            }
        }
    }

    /// Joins a search that has finished by itself (it printed `bestmove` already).
    fn reap_finished(&mut self) {
        if self.search.as_ref().is_some_and(|s| s.handle.is_finished()) {
            self.stop_search();
        }
    }

    /// Handles one command line; `false` after `quit`.
    pub fn handle(&mut self, line: &str) -> bool {
        self.handle_bytes(line.as_bytes())
    }

    /// Handles one command line as read, without its line end, UTF-8 or not (see the
    /// [module docs](self)); `false` after `quit`.
    pub fn handle_bytes(&mut self, line: &[u8]) -> bool {
        self.reap_finished();
        if let Some(value) = book_file_value(line) {
            self.stop_search();
            self.options.set_book_file(value);
            self.open_book();
            return true;
        }
        match std::str::from_utf8(line) {
            Ok(text) => self.handle_text(text),
            Err(_) => {
                self.info(&format!(
                    "error: the line is not valid UTF-8; ignored: '{}'",
                    String::from_utf8_lossy(line)
                ));
                true
            }
        }
    }

    fn handle_text(&mut self, line: &str) -> bool {
        let tokens: Vec<&str> = line.split_whitespace().collect();
        let Some((&command, args)) = tokens.split_first() else {
            return true;
        };
        match command {
            "uci" => {
                self.out
                    .line(concat!("id name chessbits-engine ", env!("CARGO_PKG_VERSION")));
                self.out.line("id author the chessbits authors");
                for option in OPTION_LINES {
                    self.out.line(option);
                }
                self.out.line("uciok");
            }
            "isready" => self.out.line("readyok"),
            "debug" => {}
            "ucinewgame" => {
                self.stop_search();
                self.tt.clear();
                if let Some(threads) = self.threads.as_mut() {
                    threads.clear();
                }
                self.game = Game::new();
            }
            "position" => {
                self.stop_search();
                match parse_position(args, self.options.chess960) {
                    Ok(game) => self.game = game,
                    Err(e) => self.info(&format!("error: {e}")),
                }
            }
            "setoption" => {
                self.stop_search();
                self.set_option(args);
            }
            "go" => {
                self.stop_search();
                self.go(args);
            }
            "stop" => self.stop_search(),
            "ponderhit" => {
                // Only a ponder search restarts its clock: a stray ponderhit must not.
                if let Some(running) = self.search.as_ref().filter(|_| self.control.is_pondering()) {
                    running.limits.time.restart();
                    self.control.ponder_hit();
                }
            }
            "quit" => {
                if self.search.as_ref().is_some_and(|s| !s.stoppable) {
                    // A perft runs to its end; the process ends now and takes it along.
                    self.search = None;
                }
                self.stop_search();
                return false;
            }
            "bench" => {
                self.stop_search();
                let depth = args
                    .first()
                    .and_then(|d| d.parse().ok())
                    .unwrap_or(crate::bench::DEFAULT_DEPTH);
                let result =
                    crate::bench::run_bench_with(depth, self.options.threads, self.options.hash_mb, self.network());
                let report = crate::bench::report(&result);
                for line in report.lines() {
                    self.out.line(line);
                }
            }
            "d" => self
                .out
                .line(&format!("info string fen {}", self.game.position().fen())),
            other => self.info(&format!("error: unknown command '{other}'")),
        }
        true
    }

    fn set_option(&mut self, args: &[&str]) {
        let Some((name, value)) = parse_setoption(args) else {
            self.info("error: expected 'setoption name <name> [value <value>]'");
            return;
        };
        let previous_eval_file = self.options.eval_file.clone();
        match self.options.set(&name, &value) {
            Ok(Change::Hash) => match TranspositionTable::try_new(self.options.hash_mb) {
                Ok(tt) => self.tt = Arc::new(tt),
                Err(e) => self.info(&format!("error: Hash: {e}; the table keeps its size")),
            },
            Ok(Change::Threads) => self.threads = Some(SearchThreads::new(self.options.threads)),
            Ok(Change::ClearHash) => self.tt.clear(),
            Ok(Change::BookFile) => self.open_book(),
            Ok(Change::EvalFile) => self.load_network(previous_eval_file),
            // Stored evaluations came from the other evaluation.
            Ok(Change::Evaluation) => self.tt.clear(),
            Ok(Change::None) => {}
            Err(e) => self.info(&format!("error: option '{name}': {e}")),
        }
    }

    /// The network to evaluate with: the `EvalFile` one, else the embedded one; `None` (the
    /// hand-tuned evaluation) with `Use NNUE` off, and with `UCI_LimitStrength` on: the
    /// `UCI_Elo` scale was calibrated with the hand-tuned evaluation.
    fn network(&self) -> Option<Arc<Network>> {
        (self.options.use_nnue && !self.options.limit_strength)
            .then(|| self.loaded_network.clone().unwrap_or_else(embedded::network))
    }

    /// Loads `options.eval_file` (the embedded network when empty). A file that cannot serve as
    /// a network is reported and the engine keeps the network it had (`previous` is restored).
    fn load_network(&mut self, previous: String) {
        let path = &self.options.eval_file;
        if path.is_empty() {
            self.loaded_network = None;
        } else {
            match Network::load(path) {
                Ok(net) => self.loaded_network = Some(Arc::new(net)),
                Err(e) => {
                    let kept = if self.loaded_network.is_some() {
                        "the loaded network"
                    } else {
                        "the embedded network"
                    };
                    self.info(&format!(
                        "error: EvalFile '{path}': {e}; keeping the current network ({kept})"
                    ));
                    self.options.eval_file = previous;
                    return;
                }
            }
        }
        // Stored evaluations came from the other network.
        self.tt.clear();
    }

    /// Opens `options.book_file` (none when empty); a file that cannot serve as a book is
    /// reported and leaves the engine without one.
    fn open_book(&mut self) {
        self.book = None;
        let path = &self.options.book_file;
        if path.as_os_str().is_empty() {
            return;
        }
        match BookFile::open(path) {
            Ok(book) => self.book = Some(book),
            Err(e) => self.info(&format!(
                "error: BookFile '{}': {e}; playing without a book",
                path.display()
            )),
        }
    }

    fn go(&mut self, args: &[&str]) {
        let go = match parse_go(args) {
            Ok(go) => go,
            Err(e) => {
                self.info(&format!("error: {e}"));
                return;
            }
        };
        if let Some(depth) = go.perft {
            self.perft(depth);
            return;
        }
        let pos = self.game.position();
        // No move to search: GUIs expect a score before `bestmove 0000` (mated: mate 0). After
        // `go infinite` or `go ponder` the search thread still holds bestmove until `stop`.
        if pos.is_checkmate() || pos.is_stalemate() {
            let score = if pos.is_check() { "mate 0" } else { "cp 0" };
            self.out.line(&format!("info depth 0 score {score}"));
            if !go.infinite && !go.ponder {
                self.out.line("bestmove 0000");
                return;
            }
        }
        let mut searchmoves = Vec::new();
        for text in &go.searchmoves {
            match parse_uci(pos, text) {
                Ok(m) => searchmoves.push(m),
                Err(_) => self.info(&format!("error: searchmoves: illegal move '{text}' ignored")),
            }
        }
        let chess960 = self.options.chess960 || pos.is_chess960();
        let white = pos.turn() == chessbits::types::Color::White;
        if self.options.own_book && !go.infinite && searchmoves.is_empty() {
            match self.book.as_ref().map(|book| book.probe(pos, clock_seed())) {
                Some(Ok(Some(m))) => {
                    self.out.line(&format!("bestmove {}", m.uci(chess960)));
                    return;
                }
                // A file truncated or replaced since it was opened: no book move.
                Some(Err(e)) => self.info(&format!("error: BookFile: {e}; searching instead")),
                Some(Ok(None)) | None => {}
            }
        }
        let time = if go.infinite {
            TimeManager::unlimited()
        } else {
            TimeManager::from_clock(&go.clock(white), self.options.move_overhead)
        };
        let limits = Arc::new(Limits {
            depth: go.depth,
            nodes: go.nodes,
            mate: go.mate,
            searchmoves,
            multipv: self.options.multipv,
            chess960,
            time,
            quiet: false,
            strength: self
                .options
                .limit_strength
                .then(|| Strength::new(self.options.elo, clock_seed())),
            network: self.network(),
        });
        let infinite = go.infinite;
        self.control.reset(go.ponder);
        let mut threads = self
            .threads
            .take()
            .unwrap_or_else(|| SearchThreads::new(self.options.threads));
        let (game, tt, control, out, search_limits) = (
            self.game.clone(),
            Arc::clone(&self.tt),
            Arc::clone(&self.control),
            self.out.clone(),
            Arc::clone(&limits),
        );
        let handle = std::thread::spawn(move || {
            let result = run(&game, &search_limits, &tt, &control, &mut threads, &mut |line| {
                out.line(line)
            });
            // UCI: after `go infinite` or while pondering, bestmove waits for stop/ponderhit.
            while !control.is_stopped() && (infinite || control.is_pondering()) {
                std::thread::sleep(Duration::from_millis(1));
            }
            let text = match (result.best_move, result.ponder_move) {
                (Some(b), Some(p)) => format!("bestmove {} ponder {}", b.uci(chess960), p.uci(chess960)),
                (Some(b), None) => format!("bestmove {}", b.uci(chess960)),
                _ => "bestmove 0000".to_string(),
            };
            out.line(&text);
            threads
        });
        self.search = Some(RunningSearch {
            handle,
            limits,
            stoppable: true,
        });
    }

    /// `go perft N` on the search thread, so `isready` and `quit` stay answered meanwhile.
    fn perft(&mut self, depth: u32) {
        let pos = self.game.position().clone();
        let chess960 = self.options.chess960 || pos.is_chess960();
        let threads = self
            .threads
            .take()
            .unwrap_or_else(|| SearchThreads::new(self.options.threads));
        let out = self.out.clone();
        let handle = std::thread::spawn(move || {
            let mut total = 0;
            for (m, count) in perft_divide(&pos, depth.clamp(1, 12)) {
                out.line(&format!("{}: {count}", m.uci(chess960)));
                total += count;
            }
            out.line("");
            out.line(&format!("Nodes searched: {total}"));
            out.line("");
            threads
        });
        self.search = Some(RunningSearch {
            handle,
            limits: Arc::new(Limits::default()),
            stoppable: false,
        });
    }
}

/// The longest input line the engine reads (1 MiB: a `position` command with 10,000 moves takes
/// about 50 kB); a longer one is ignored with an `info string`.
pub const MAX_LINE_BYTES: u64 = 1 << 20;

/// Reads and drops `input` up to and including the next line feed (or the end of input).
fn skip_line<R: BufRead>(input: &mut R) -> std::io::Result<()> {
    loop {
        let buf = input.fill_buf()?;
        if buf.is_empty() {
            return Ok(());
        }
        match buf.iter().position(|&b| b == b'\n') {
            Some(i) => {
                input.consume(i + 1);
                return Ok(());
            }
            None => {
                let n = buf.len();
                input.consume(n);
            }
        }
    }
}

/// Runs the UCI loop on `input` until `quit` or the end of input, writing to `out`.
pub fn run_uci<R: BufRead + Send + 'static, O: Output + Clone>(input: R, out: O) {
    let (tx, rx) = mpsc::channel::<Vec<u8>>();
    // The input thread: blocking reads never hold up the command loop. It is not joined: at
    // `quit` it may still be blocked in a read, and ends with the process. Lines are bytes:
    // one that is not UTF-8 must not end the input. A line is held up to MAX_LINE_BYTES: the
    // rest of a longer one is skipped as it streams (memory stays bounded) and reported.
    let notices = out.clone();
    std::thread::spawn(move || {
        let mut input = input;
        loop {
            let mut line = Vec::new();
            match (&mut input).take(MAX_LINE_BYTES).read_until(b'\n', &mut line) {
                Ok(0) | Err(_) => break,
                Ok(_) => {}
            }
            if line.len() as u64 == MAX_LINE_BYTES && line.last() != Some(&b'\n') {
                if skip_line(&mut input).is_err() {
                    break;
                }
                notices.line(&format!(
                    "info string error: a line longer than {MAX_LINE_BYTES} bytes; ignored"
                ));
                continue;
            }
            while line.last().is_some_and(|&b| b == b'\n' || b == b'\r') {
                line.pop();
            }
            if tx.send(line).is_err() {
                return;
            }
        }
        let _ = tx.send(b"quit".to_vec());
    });
    let mut engine = Engine::new(out);
    while let Ok(line) = rx.recv() {
        if !engine.handle_bytes(&line) {
            break;
        }
    }
    engine.stop_search();
}
