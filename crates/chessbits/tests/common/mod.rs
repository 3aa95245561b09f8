//! Test-, example- and benchmark-only helpers, one home for all of them: where the data is (the
//! bundled `testdata/` and the full `../shared/data`, same layout), its games (read with the
//! library's PGN reader, which `pgn_shared.rs` checks on the same files), their positions, the
//! perft suites, and random legal games.
#![allow(dead_code)]

use std::fs::File;
use std::io::BufReader;
use std::path::{Path, PathBuf};

use chessbits::lists::MoveList;
use chessbits::movegen::suite::{parse_suite, PerftCase};
use chessbits::moves::Move;
use chessbits::pgn::PgnReader;
use chessbits::position::{Position, Setup, Validation};

/// The PGN files with real games, in both data directories: (file name, is lichess online play).
/// In `testdata/` each is a prefix of the file of `../shared/data` (see `testdata/README.md`).
pub const PGN_FILES: [(&str, bool); 4] = [
    ("shakmaty_lichess_db_1000k.pgn", true),
    ("shakmaty_twic1599_1000k.pgn", false),
    ("notnil_twic0920.pgn", false),
    ("notnil_Carlsen.pgn", false),
];

/// The bundled test data, `testdata/` at the repository root: a compact subset of the shared
/// corpora in the same layout, what the default tests read.
pub fn testdata_path() -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../testdata"))
}

/// The full shared corpora, `../shared/data` beside the repository (sources in
/// `testdata/README.md`): read by the ignored `shared_data_*` tests, the tuning and all-depth
/// tests, the examples and the benchmarks.
pub fn shared_path() -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared/data"))
}

/// The full shared corpora if they are there, else the bundled `testdata/` (a note on standard
/// error says so): what the benchmarks read, so that they run on a fresh checkout too.
pub fn data_path() -> PathBuf {
    let shared = shared_path();
    if shared.join("pgn").is_dir() {
        shared
    } else {
        eprintln!("note: {} not found; using the bundled testdata/", shared.display());
        testdata_path()
    }
}

/// Every file below `relative` in the data directory `root` (any depth), sorted.
pub fn files_below(root: &Path, relative: &str) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut dirs = vec![root.join(relative)];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
            let path = entry.unwrap().path();
            if path.is_dir() {
                dirs.push(path);
            } else {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

/// The bytes of `relative` in the data directory `root`.
pub fn read_data(root: &Path, relative: &str) -> Vec<u8> {
    let path = root.join(relative);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The positions of the perft suite `perft/<name>` in the data directory `root` (never empty).
pub fn perft_suite(root: &Path, name: &str) -> Vec<PerftCase> {
    let relative = format!("perft/{name}");
    let text = String::from_utf8(read_data(root, &relative)).unwrap_or_else(|e| panic!("{relative}: {e}"));
    let cases = parse_suite(&text).unwrap_or_else(|e| panic!("{relative}: {e}"));
    assert!(!cases.is_empty(), "{relative}: no positions");
    cases
}

/// A position of a perft suite or a test list. These hold composed positions too (the one with
/// 270 legal moves, nine pawns, ...), which [`Position::from_fen`] rejects as unreachable in a
/// game: they are read with [`Validation::Composed`].
pub fn composed_position(fen: &str) -> Position {
    Position::from_fen_with(fen, Validation::Composed).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

/// A reader that hands out one byte per read: every buffer boundary falls everywhere.
pub struct Trickle<'a>(pub &'a [u8]);

impl std::io::Read for Trickle<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        match (self.0.split_first(), buf.first_mut()) {
            (Some((&byte, rest)), Some(slot)) => {
                *slot = byte;
                self.0 = rest;
                Ok(1)
            }
            _ => Ok(0),
        }
    }
}

/// One game of a file: its 1-based number in the file, its start position and its mainline.
pub struct LoadedGame {
    pub number: usize,
    pub start: Position,
    pub moves: Vec<Move>,
}

impl LoadedGame {
    /// Every position of the mainline: the start and the position after each move.
    pub fn positions(&self) -> Vec<Position> {
        let mut pos = self.start.clone();
        let mut out = Vec::with_capacity(self.moves.len() + 1);
        out.push(pos.clone());
        for &m in &self.moves {
            pos.play_unchecked(m);
            out.push(pos.clone());
        }
        out
    }
}

/// Reads every game of `pgn/<name>` in the data directory `root`; panics with the game number on
/// a game the reader rejects (the games of `PGN_FILES` are known to be clean).
pub fn load_pgn(root: &Path, name: &str) -> Vec<LoadedGame> {
    let path = root.join("pgn").join(name);
    let file = File::open(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    PgnReader::new(BufReader::new(file))
        .into_games()
        .enumerate()
        .map(|(i, game)| {
            let game = game.unwrap_or_else(|e| panic!("{name} game {}: {e}", i + 1));
            let moves = game.mainline().collect();
            LoadedGame {
                number: i + 1,
                start: game.start,
                moves,
            }
        })
        .collect()
}

/// The positions of the first `max_games` games of `pgn/<name>` in `root`, game by game, as setups.
pub fn file_setups(root: &Path, name: &str, max_games: usize) -> Vec<Vec<Setup>> {
    load_pgn(root, name)
        .iter()
        .take(max_games)
        .map(|game| game.positions().iter().map(Position::to_setup).collect())
        .collect()
}

/// A setup from a FEN (through the core's parser).
pub fn setup(fen: &str) -> Setup {
    Position::from_fen(fen)
        .unwrap_or_else(|e| panic!("{fen}: {e}"))
        .to_setup()
}

/// A xorshift64 generator: deterministic, seedable, good enough to pick moves.
pub struct Rng(u64);

impl Rng {
    /// A generator from any seed (zero is mapped to a valid state).
    pub fn new(seed: u64) -> Rng {
        Rng(seed | 1)
    }

    /// The next number.
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// A number below `n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// A random legal game of at most `max_plies` from `start` (shorter if it ends in mate or
/// stalemate). With `prefer_tactical`, a capture or promotion is chosen a third of the time when
/// there is one, so material comes off the board and promotions happen.
pub fn random_moves(start: &Position, rng: &mut Rng, max_plies: usize, prefer_tactical: bool) -> Vec<Move> {
    let mut pos = start.clone();
    let mut list = MoveList::new();
    let mut moves = Vec::new();
    for _ in 0..max_plies {
        pos.legal_moves_into(&mut list);
        if list.is_empty() {
            break;
        }
        let tactical: Vec<Move> = if prefer_tactical {
            list.iter()
                .copied()
                .filter(|m| m.is_capture() || m.is_promotion())
                .collect()
        } else {
            Vec::new()
        };
        let m = if !tactical.is_empty() && rng.next() % 3 == 0 {
            tactical[rng.below(tactical.len())]
        } else {
            list[rng.below(list.len())]
        };
        pos.play_unchecked(m);
        moves.push(m);
    }
    moves
}

/// The positions of a random legal game from `start` (see [`random_moves`]), as setups.
pub fn random_setups(start: &Position, seed: u64, max_plies: usize, prefer_tactical: bool) -> Vec<Setup> {
    let moves = random_moves(start, &mut Rng::new(seed), max_plies, prefer_tactical);
    LoadedGame {
        number: 0,
        start: start.clone(),
        moves,
    }
    .positions()
    .iter()
    .map(Position::to_setup)
    .collect()
}
