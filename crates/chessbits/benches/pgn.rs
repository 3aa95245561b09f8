//! PGN reading throughput of chessbits against pgn-reader (with shakmaty for the moves), in one
//! process, on the shared PGN files concatenated in memory.
//!
//! Run with `cargo bench -p chessbits --bench pgn [-- MODE... --reps N]`, MODE being `replay` or
//! `tokens` (default: both). See BENCHMARKS.md at the repository root.
//!
//! - `tokens`: lex every game and parse every SAN token, variations included, counting tokens
//!   (ours: a [`Visitor`] counting [`SanToken`]s; pgn-reader: a visitor counting `SanPlus`es);
//! - `replay`: also play every move, variations included, from the `[FEN]` tag if any (ours:
//!   [`Validator`]; pgn-reader: a visitor keeping a stack of shakmaty positions, resolving each
//!   SAN with `San::to_move` and playing it).
//!
//! Before timing, both readers must agree on the number of games, SAN tokens and main-line
//! plies, with no game rejected. One measurement is as many passes over the data as take the
//! faster reader ~150 ms; rounds are interleaved, the first reader alternating; time is the
//! thread's CPU time; the best round is reported. Without `--bench` (as under
//! `cargo test --benches`) it only runs the agreement check.

#[path = "support/clock.rs"]
mod clock;
#[path = "../tests/common/mod.rs"]
mod common;

use std::hint::black_box;
use std::ops::ControlFlow;
use std::time::Duration;

use chessbits::pgn::{PgnReader, SanToken, Validator, Visitor};
use clock::Clock;
use shakmaty::{CastlingMode, Chess, Position as _};

/// Every `.pgn` file of the shared data directory (not its subdirectories), in name order,
/// concatenated with a blank line between files.
fn load() -> Vec<u8> {
    let dir = common::data_path().join("pgn");
    let mut paths: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|path| path.extension().is_some_and(|ext| ext == "pgn"))
        .collect();
    paths.sort();
    let mut data = Vec::new();
    for path in paths {
        data.extend(std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display())));
        data.extend_from_slice(b"\n\n");
    }
    data
}

/// What a pass over the data found: games, SAN tokens (all lines), main-line plies, bad games.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
struct Counts {
    games: u64,
    sans: u64,
    plies: u64,
    errors: u64,
}

/// chessbits, `tokens` mode: counts SAN tokens that parse.
#[derive(Default)]
struct OurTokens {
    sans: u64,
    errors: u64,
}

impl Visitor for OurTokens {
    type Output = ();
    fn san(&mut self, token: SanToken<'_>) {
        match token.san {
            Ok(_) => self.sans += 1,
            Err(_) => self.errors += 1,
        }
    }
    fn end_game(&mut self) {}
}

/// How many times `read_game` returns a game, until the end or an error.
fn count_games(mut read_game: impl FnMut() -> bool) -> u64 {
    let mut games = 0;
    while read_game() {
        games += 1;
    }
    games
}

fn ours_tokens(data: &[u8]) -> Counts {
    let mut reader = PgnReader::new(data);
    let mut visitor = OurTokens::default();
    let games = count_games(|| matches!(reader.read_game(&mut visitor), Ok(Some(()))));
    Counts {
        games,
        sans: visitor.sans,
        plies: 0,
        errors: visitor.errors,
    }
}

fn ours_replay(data: &[u8]) -> Counts {
    let mut reader = PgnReader::new(data);
    let mut validator = Validator::new();
    let mut counts = Counts::default();
    while let Ok(Some(result)) = reader.read_game(&mut validator) {
        counts.games += 1;
        match result {
            Ok(summary) => counts.plies += u64::from(summary.plies),
            Err(_) => counts.errors += 1,
        }
    }
    counts
}

/// pgn-reader, `tokens` mode: counts SAN tokens (it hands over only those that parse).
#[derive(Default)]
struct PeerTokens {
    sans: u64,
}

impl pgn_reader::Visitor for PeerTokens {
    type Tags = ();
    type Movetext = ();
    type Output = ();

    fn begin_tags(&mut self) -> ControlFlow<(), ()> {
        ControlFlow::Continue(())
    }
    fn begin_movetext(&mut self, _tags: ()) -> ControlFlow<(), ()> {
        ControlFlow::Continue(())
    }
    fn san(&mut self, _movetext: &mut (), san_plus: pgn_reader::SanPlus) -> ControlFlow<()> {
        black_box(san_plus);
        self.sans += 1;
        ControlFlow::Continue(())
    }
    fn begin_variation(&mut self, _movetext: &mut ()) -> ControlFlow<(), pgn_reader::Skip> {
        ControlFlow::Continue(pgn_reader::Skip(false))
    }
    fn end_game(&mut self, _movetext: ()) {}
}

fn peer_tokens(data: &[u8]) -> Counts {
    let mut reader = pgn_reader::Reader::new(data);
    let mut visitor = PeerTokens::default();
    let games = count_games(|| matches!(reader.read_game(&mut visitor), Ok(Some(()))));
    Counts {
        games,
        sans: visitor.sans,
        ..Counts::default()
    }
}

/// pgn-reader, `replay` mode: one frame per open line, holding the line's position and the
/// position before its last move (where a variation starts).
struct PeerReplay {
    frames: Vec<(Chess, Chess)>,
    plies: u64,
}

impl pgn_reader::Visitor for PeerReplay {
    /// The start position, from a `[FEN]` tag; `None` if that FEN is bad.
    type Tags = Option<Chess>;
    type Movetext = bool;
    /// Main-line plies, or `None` for a bad game.
    type Output = Option<u64>;

    fn begin_tags(&mut self) -> ControlFlow<Option<u64>, Option<Chess>> {
        ControlFlow::Continue(Some(Chess::default()))
    }
    fn tag(
        &mut self,
        tags: &mut Option<Chess>,
        name: &[u8],
        value: pgn_reader::RawTag<'_>,
    ) -> ControlFlow<Option<u64>> {
        if name == b"FEN" {
            *tags = shakmaty::fen::Fen::from_ascii(value.as_bytes())
                .ok()
                .and_then(|fen| fen.into_position(CastlingMode::Chess960).ok());
        }
        ControlFlow::Continue(())
    }
    fn begin_movetext(&mut self, start: Option<Chess>) -> ControlFlow<Option<u64>, bool> {
        let Some(start) = start else {
            return ControlFlow::Break(None);
        };
        self.frames.clear();
        self.frames.push((start.clone(), start));
        self.plies = 0;
        ControlFlow::Continue(true)
    }
    fn san(&mut self, ok: &mut bool, san_plus: pgn_reader::SanPlus) -> ControlFlow<Option<u64>> {
        let main_line = self.frames.len() == 1;
        let Some((position, before)) = self.frames.last_mut() else {
            return ControlFlow::Break(None);
        };
        match san_plus.san.to_move(position) {
            Ok(m) => {
                before.clone_from(position);
                position.play_unchecked(m);
                self.plies += u64::from(main_line);
                ControlFlow::Continue(())
            }
            Err(_) => {
                *ok = false;
                ControlFlow::Break(None)
            }
        }
    }
    fn begin_variation(&mut self, _ok: &mut bool) -> ControlFlow<Option<u64>, pgn_reader::Skip> {
        let Some((_, before)) = self.frames.last() else {
            return ControlFlow::Break(None);
        };
        let start = before.clone();
        self.frames.push((start.clone(), start));
        ControlFlow::Continue(pgn_reader::Skip(false))
    }
    fn end_variation(&mut self, _ok: &mut bool) -> ControlFlow<Option<u64>> {
        self.frames.pop();
        ControlFlow::Continue(())
    }
    fn end_game(&mut self, ok: bool) -> Option<u64> {
        ok.then_some(self.plies)
    }
}

fn peer_replay(data: &[u8]) -> Counts {
    let mut reader = pgn_reader::Reader::new(data);
    let mut visitor = PeerReplay {
        frames: Vec::new(),
        plies: 0,
    };
    let mut counts = Counts::default();
    while let Ok(Some(result)) = reader.read_game(&mut visitor) {
        counts.games += 1;
        match result {
            Some(plies) => counts.plies += plies,
            None => counts.errors += 1,
        }
    }
    counts
}

#[derive(Copy, Clone, PartialEq, Eq, Debug)]
enum Mode {
    Tokens,
    Replay,
}

impl Mode {
    fn name(self) -> &'static str {
        match self {
            Mode::Tokens => "tokens",
            Mode::Replay => "replay",
        }
    }

    /// chessbits and pgn-reader for this mode.
    fn runners(self) -> [fn(&[u8]) -> Counts; 2] {
        match self {
            Mode::Tokens => [ours_tokens, peer_tokens],
            Mode::Replay => [ours_replay, peer_replay],
        }
    }
}

/// Runs `run` `passes` times; returns the counts of one pass and the CPU time of all (wall time
/// if unavailable).
fn measure(run: fn(&[u8]) -> Counts, data: &[u8], passes: u32) -> (Counts, Duration) {
    let clock = Clock::start();
    let mut counts = Counts::default();
    for _ in 0..passes {
        counts = black_box(run(black_box(data)));
    }
    let elapsed = clock.elapsed();
    (counts, elapsed)
}

/// Both readers must see the same games and moves, and reject none.
fn check(mode: Mode, ours: Counts, peer: Counts) {
    assert_eq!(
        ours.errors,
        0,
        "chessbits rejected games in {} mode: {ours:?}",
        mode.name()
    );
    assert_eq!(
        peer.errors,
        0,
        "pgn-reader rejected games in {} mode: {peer:?}",
        mode.name()
    );
    assert_eq!(ours.games, peer.games, "{} mode: game counts differ", mode.name());
    match mode {
        Mode::Tokens => assert_eq!(ours.sans, peer.sans, "SAN token counts differ"),
        Mode::Replay => assert_eq!(ours.plies, peer.plies, "main-line ply counts differ"),
    }
}

fn main() {
    let mut timed = false;
    let mut rounds = 7;
    let mut modes = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--bench" => timed = true,
            "--reps" | "--rounds" => rounds = args.next().and_then(|n| n.parse().ok()).unwrap_or(7).max(1),
            "tokens" => modes.push(Mode::Tokens),
            "replay" => modes.push(Mode::Replay),
            _ => {}
        }
    }
    if modes.is_empty() {
        modes = vec![Mode::Tokens, Mode::Replay];
    }
    let data = load();
    let megabytes = data.len() as f64 / 1e6;
    if !timed {
        for mode in modes {
            let [ours, peer] = mode.runners();
            let (ours, peer) = (ours(&data), peer(&data));
            check(mode, ours, peer);
            println!("{}: {ours:?}", mode.name());
        }
        println!("pgn bench smoke test: chessbits and pgn-reader agree on {megabytes:.1} MB");
        return;
    }

    println!("{megabytes:.2} MB of PGN; best of {rounds} interleaved rounds of ~150 ms, thread CPU time\n");
    println!("| mode | games | SAN tokens | main-line plies | chessbits MB/s | pgn-reader MB/s | ours/pgn-reader |");
    println!("|---|---:|---:|---:|---:|---:|---:|");
    for mode in modes {
        let runners = mode.runners();
        // Verification, warm-up and calibration: enough passes for ~150 ms of the faster reader.
        let (ours, ours_time) = measure(runners[0], &data, 1);
        let (peer, peer_time) = measure(runners[1], &data, 1);
        check(mode, ours, peer);
        let fastest = ours_time.min(peer_time).as_secs_f64().max(1e-6);
        let passes = (0.15 / fastest).ceil().max(1.0) as u32;
        let mut best = [Duration::MAX; 2];
        for round in 0..rounds {
            for k in 0..2 {
                let which = (round + k) % 2;
                let (_, time) = measure(runners[which], &data, passes);
                best[which] = best[which].min(time);
            }
        }
        let speed = best.map(|t| megabytes * f64::from(passes) / t.as_secs_f64());
        let (sans, plies) = match mode {
            Mode::Tokens => (ours.sans.to_string(), "–".to_string()),
            Mode::Replay => ("–".to_string(), ours.plies.to_string()),
        };
        println!(
            "| {} | {} | {sans} | {plies} | {:.1} | {:.1} | {:.2} |",
            mode.name(),
            ours.games,
            speed[0],
            speed[1],
            speed[0] / speed[1]
        );
    }
}
