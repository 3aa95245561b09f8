//! The index against brute force: every game replayed by the PGN reader's game tree (not the
//! index's main-line reader), positions keyed, and the explorer's counts and the search's game
//! sets of over a thousand query positions compared with what the replay says.

use crate::common;

use std::collections::{BTreeMap, BTreeSet};
use std::fs::File;
use std::path::{Path, PathBuf};

use chessbits::pgn::{GameResult, PgnReader};
use chessbits::position::Position;
use chessbits_index::{
    rating_band, BuildOptions, ExploreOptions, Filters, Index, IndexBuilder, PositionKey, SearchOptions, Speed,
};
use common::pgn_files;

/// What the replay knows of one game.
struct Game {
    outcome: Option<GameResult>,
    speed: Option<Speed>,
    band: Option<u16>,
}

/// Per game: the plies where it stands in a position and the move played at the first.
type PerGame = BTreeMap<u64, (Vec<u32>, Option<String>)>;

/// Per key: its games.
type Occurrences = BTreeMap<u128, PerGame>;

struct Brute {
    games: Vec<Game>,
    occurrences: Occurrences,
    /// A position per key.
    positions: BTreeMap<u128, Position>,
    /// Keys of positions with at most 8 pieces, of games that do not start from the standard
    /// position, and the plies keys were first seen at.
    endgame: BTreeSet<u128>,
    non_standard: BTreeSet<u128>,
    first_ply: BTreeMap<u128, u32>,
}

fn brute_force(files: &[PathBuf]) -> Brute {
    let mut brute = Brute {
        games: Vec::new(),
        occurrences: BTreeMap::new(),
        positions: BTreeMap::new(),
        endgame: BTreeSet::new(),
        non_standard: BTreeSet::new(),
        first_ply: BTreeMap::new(),
    };
    for path in files {
        let mut reader = PgnReader::new(File::open(path).unwrap());
        while let Some(game) = reader.read_owned_game().unwrap() {
            let Ok(game) = game else { continue };
            let id = brute.games.len() as u64;
            let tag_result = match game.tag("Result").as_deref().map(str::trim) {
                Some("1-0") => Some(GameResult::WhiteWins),
                Some("0-1") => Some(GameResult::BlackWins),
                Some("1/2-1/2") => Some(GameResult::Draw),
                _ => None,
            };
            let movetext = Some(game.result).filter(|r| *r != GameResult::Unknown);
            let elo = |name: &str| {
                game.tag(name)
                    .and_then(|v| v.trim().parse::<u16>().ok())
                    .filter(|&e| e > 0 && e <= 9999)
            };
            let band = match (elo("WhiteElo"), elo("BlackElo")) {
                (Some(w), Some(b)) => Some(rating_band(((w as u32 + b as u32) / 2) as u16)),
                _ => None,
            };
            brute.games.push(Game {
                outcome: tag_result.or(movetext),
                speed: game.tag("TimeControl").and_then(|tc| Speed::from_time_control(&tc)),
                band,
            });
            let standard = game.start == Position::startpos();
            let moves: Vec<_> = game.mainline().collect();
            let mut pos = game.start.clone();
            for ply in 0..=moves.len() {
                let key = PositionKey::of(&pos).0;
                let uci = moves
                    .get(ply)
                    .filter(|m| !m.is_null())
                    .map(|m| m.uci(!m.is_standard_castle()).to_string());
                let per_game = brute.occurrences.entry(key).or_default();
                per_game
                    .entry(id)
                    .or_insert_with(|| (Vec::new(), uci))
                    .0
                    .push(ply as u32);
                brute.positions.entry(key).or_insert_with(|| pos.clone());
                brute.first_ply.entry(key).or_insert(ply as u32);
                if pos.board().occupied().count() <= 8 {
                    brute.endgame.insert(key);
                }
                if !standard {
                    brute.non_standard.insert(key);
                }
                match moves.get(ply) {
                    Some(m) if !m.is_null() => {
                        pos.play_unchecked(*m);
                    }
                    _ => break,
                }
            }
        }
    }
    brute
}

/// Query keys of every kind the issue names, chosen deterministically.
fn query_keys(brute: &Brute) -> Vec<u128> {
    let mut chosen = BTreeSet::new();
    let every = |keys: Vec<u128>, n: usize| -> Vec<u128> {
        let step = (keys.len() / n.max(1)).max(1);
        keys.into_iter().step_by(step).take(n).collect()
    };
    let keys = |f: &dyn Fn(u128, &PerGame) -> bool| -> Vec<u128> {
        brute
            .occurrences
            .iter()
            .filter(|(k, g)| f(**k, g))
            .map(|(k, _)| *k)
            .collect()
    };
    // Opening positions reached by several games, transpositions (games reach it at different
    // plies or by different moves), after ply 50, endgames, non-standard starts (Chess960 and
    // set-ups), positions reached twice in one game, and positions of a single game.
    chosen.extend(every(keys(&|k, _| brute.first_ply[&k] <= 12), 300));
    chosen.extend(every(
        keys(&|_, g| {
            let plies: BTreeSet<u32> = g.values().map(|(p, _)| p[0]).collect();
            plies.len() > 1
        }),
        200,
    ));
    chosen.extend(every(keys(&|k, _| brute.first_ply[&k] > 50), 200));
    chosen.extend(every(keys(&|k, _| brute.endgame.contains(&k)), 150));
    chosen.extend(every(keys(&|k, _| brute.non_standard.contains(&k)), 150));
    chosen.extend(every(keys(&|_, g| g.values().any(|(p, _)| p.len() > 1)), 150));
    chosen.extend(every(keys(&|_, g| g.len() == 1), 150));
    chosen.into_iter().collect()
}

fn check(index: &Index, brute: &Brute, keys: &[u128]) -> usize {
    let mut checked = 0;
    for key in keys {
        let pos = &brute.positions[key];
        let games = &brute.occurrences[key];
        let fen = pos.fen();
        // Search: the same games with the same plies.
        let options = SearchOptions {
            limit: usize::MAX,
            ..SearchOptions::default()
        };
        let found = index.search(pos, &options).unwrap();
        assert_eq!(found.total as usize, games.len(), "search total of {fen}");
        let got: Vec<(u64, Vec<u32>)> = found
            .games
            .iter()
            .map(|h| (h.row.game as u64, h.plies.clone()))
            .collect();
        let want: Vec<(u64, Vec<u32>)> = games.iter().map(|(g, (p, _))| (*g, p.clone())).collect();
        assert_eq!(got, want, "search games of {fen}");
        // Explorer: per game at its first visit, decided games only.
        let explorer = index.explore(pos, &ExploreOptions::default()).unwrap();
        let mut totals = [0u64; 3];
        let mut per_move: BTreeMap<String, [u64; 3]> = BTreeMap::new();
        for (game, (_, uci)) in games {
            let slot = match brute.games[*game as usize].outcome {
                Some(GameResult::WhiteWins) => 0,
                Some(GameResult::Draw) => 1,
                Some(GameResult::BlackWins) => 2,
                _ => continue,
            };
            totals[slot] += 1;
            if let Some(uci) = uci {
                per_move.entry(uci.clone()).or_default()[slot] += 1;
            }
        }
        assert_eq!(
            [explorer.white, explorer.draws, explorer.black],
            totals,
            "explorer totals of {fen}"
        );
        let got: BTreeMap<String, [u64; 3]> = explorer
            .moves
            .iter()
            .map(|m| (m.uci.clone(), [m.white, m.draws, m.black]))
            .collect();
        assert_eq!(got, per_move, "explorer moves of {fen}");
        for m in &explorer.moves {
            assert_eq!(
                pos.parse_san(&m.san)
                    .unwrap()
                    .uci(!pos.parse_san(&m.san).unwrap().is_standard_castle())
                    .to_string(),
                m.uci
            );
        }
        // Filtered: blitz and rapid games rated 1600-1999.
        let filters = Filters::default()
            .speeds("blitz,rapid")
            .unwrap()
            .ratings("1600,1800")
            .unwrap();
        let filtered = index
            .explore(
                pos,
                &ExploreOptions {
                    filters,
                    ..ExploreOptions::default()
                },
            )
            .unwrap();
        let want = games
            .keys()
            .map(|g| &brute.games[*g as usize])
            .filter(|g| matches!(g.speed, Some(Speed::Blitz | Speed::Rapid)) && matches!(g.band, Some(1600 | 1800)))
            .filter(|g| g.outcome.is_some_and(|o| o != GameResult::Unknown))
            .count() as u64;
        assert_eq!(filtered.games(), want, "filtered explorer of {fen}");
        checked += 1;
    }
    checked
}

fn build(files: &[PathBuf], out: &Path, options: BuildOptions) -> Index {
    let mut builder = IndexBuilder::create(out, options).unwrap();
    for file in files {
        builder.add_file(file).unwrap();
    }
    builder.finish().unwrap();
    Index::open(out).unwrap()
}

fn oracle(dir: &Path, minimum: usize) {
    let files = pgn_files(dir);
    let temp = tempfile::tempdir().unwrap();
    let index = build(&files, &temp.path().join("index"), BuildOptions::default());
    let brute = brute_force(&files);
    assert_eq!(index.games(), brute.games.len() as u64);
    let keys = query_keys(&brute);
    assert!(keys.len() >= minimum, "{} query positions", keys.len());
    let checked = check(&index, &brute, &keys);
    assert_eq!(checked, keys.len());
    // A position no game reaches: nothing, and no error.
    let nowhere = Position::from_fen("8/8/8/3k4/8/8/7Q/K7 w - - 0 1").unwrap();
    assert_eq!(index.search(&nowhere, &SearchOptions::default()).unwrap().total, 0);
    assert_eq!(index.explore(&nowhere, &ExploreOptions::default()).unwrap().games(), 0);
}

#[test]
fn bundled_games_answer_as_the_replay_says() {
    oracle(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/pgn"), 1000);
}

#[test]
#[ignore = "needs ../shared/data (run with --ignored shared_data_)"]
fn shared_data_games_answer_as_the_replay_says() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data/pgn");
    oracle(&dir, 1000);
}

/// The same input gives the same files whatever the threads and however often the records
/// spill to disk.
#[test]
fn files_do_not_depend_on_threads_or_memory() {
    let files = pgn_files(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/pgn"));
    let temp = tempfile::tempdir().unwrap();
    let one = build(
        &files,
        &temp.path().join("one"),
        BuildOptions {
            threads: 1,
            memory: 64 << 10,
            force: false,
        },
    );
    let many = build(
        &files,
        &temp.path().join("many"),
        BuildOptions {
            threads: 4,
            ..BuildOptions::default()
        },
    );
    assert!(one.games() > 400, "{} games", one.games());
    for (a, b) in one
        .manifest()
        .tables
        .iter()
        .flatten()
        .zip(many.manifest().tables.iter().flatten())
    {
        assert_eq!(a, b, "{}", a.file);
    }
}

/// One open index queried from several threads at once answers as from one.
#[test]
fn queries_from_many_threads_agree() {
    let files = pgn_files(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/pgn"));
    let temp = tempfile::tempdir().unwrap();
    let index = build(&files, &temp.path().join("index"), BuildOptions::default());
    let brute = brute_force(&files);
    let positions: Vec<Position> = query_keys(&brute)
        .iter()
        .take(200)
        .map(|k| brute.positions[k].clone())
        .collect();
    let answer = |pos: &Position| {
        let options = SearchOptions {
            limit: usize::MAX,
            ..SearchOptions::default()
        };
        let found = index.search(pos, &options).unwrap();
        let explorer = index.explore(pos, &ExploreOptions::default()).unwrap();
        format!("{found:?}{explorer:?}")
    };
    let alone: Vec<String> = positions.iter().map(answer).collect();
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..4)
            .map(|t| {
                let (positions, alone, answer) = (&positions, &alone, &answer);
                scope.spawn(move || {
                    for (i, pos) in positions.iter().enumerate().skip(t) {
                        assert_eq!(&answer(pos), &alone[i]);
                    }
                })
            })
            .collect();
        for handle in handles {
            handle.join().unwrap();
        }
    });
}
