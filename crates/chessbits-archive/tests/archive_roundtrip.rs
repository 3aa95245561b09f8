//! Pack → unpack over every game of the PGN files (bundled, and the full corpora in the ignored
//! `shared_data_` test): the games come back equal, and so does their PGN (the writer's normal
//! form), with every codec; seeking to game N gives what reading in order gives.

use crate::common;

use std::io::Cursor;
use std::path::{Path, PathBuf};

use chessbits::pgn::{GameTree, PgnReader};
use chessbits_archive::{ArchiveReader, ArchiveWriter, MoveCodec, WriterOptions};
use common::{shared_path, testdata_path};

/// The PGN files of `root`: the four game collections and the small test files beside them.
fn pgn_files(root: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for dir in [root.join("pgn"), root.join("pgn/python-chess-tests")] {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .map(|entry| entry.unwrap().path())
            .filter(|path| path.extension().is_some_and(|ext| ext == "pgn"))
            .collect();
        entries.sort();
        files.extend(entries);
    }
    files
}

/// The games of a file that the reader accepts.
fn read_games(path: &PathBuf) -> Vec<GameTree> {
    let bytes = std::fs::read(path).unwrap();
    PgnReader::new(&bytes[..]).into_games().filter_map(Result::ok).collect()
}

fn pack(games: &[GameTree], options: WriterOptions) -> Vec<u8> {
    let mut writer = ArchiveWriter::new(Vec::new(), options).unwrap();
    for game in games {
        writer.add_game(game).unwrap();
    }
    let (bytes, summary) = writer.finish().unwrap();
    assert_eq!(summary.games, games.len() as u64);
    assert_eq!(summary.bytes, bytes.len() as u64);
    bytes
}

/// Returns the number of games.
fn every_game_round_trips(root: &Path) -> usize {
    let files = pgn_files(root);
    assert!(files.len() >= 5, "PGN files missing: {files:?}");
    let mut total_games = 0;
    for path in &files {
        let games = read_games(path);
        total_games += games.len();
        for codec in MoveCodec::ALL {
            let options = WriterOptions {
                codec,
                max_games_per_block: 300,
                ..WriterOptions::default()
            };
            let bytes = pack(&games, options);
            let mut reader = ArchiveReader::open(Cursor::new(bytes)).unwrap();
            assert_eq!(reader.game_count(), games.len() as u64);
            let mut count = 0;
            for (n, (back, original)) in reader.games().zip(&games).enumerate() {
                let back = back.unwrap_or_else(|e| panic!("{} game {n}: {e}", path.display()));
                assert_eq!(&back, original, "{} game {n} with {codec}", path.display());
                assert_eq!(
                    back.game().unwrap().to_pgn(),
                    original.to_pgn(),
                    "{} game {n}",
                    path.display()
                );
                count += 1;
            }
            assert_eq!(count, games.len(), "{}", path.display());
        }
    }
    total_games
}

#[test]
fn every_game_round_trips_with_every_codec() {
    let total_games = every_game_round_trips(&testdata_path());
    // The four bundled game files alone hold 420 games (`grep -c '^\[Event '`).
    assert!(total_games > 420, "only {total_games} games read");
}

#[test]
#[ignore = "needs ../shared/data (see testdata/README.md); run: cargo test --workspace -- --ignored shared_data_"]
fn shared_data_every_game_round_trips_with_every_codec() {
    let total_games = every_game_round_trips(&shared_path());
    assert!(total_games > 5000, "only {total_games} games read");
}

#[test]
fn seeking_to_game_n_equals_sequential_reading() {
    let games = read_games(&testdata_path().join("pgn/shakmaty_lichess_db_1000k.pgn"));
    let options = WriterOptions {
        max_games_per_block: 37,
        threads: 2,
        ..WriterOptions::default()
    };
    let mut reader = ArchiveReader::open(Cursor::new(pack(&games, options))).unwrap();
    let sequential: Vec<GameTree> = reader.games().map(|g| g.unwrap().into_game().unwrap()).collect();
    assert_eq!(sequential, games);
    assert_eq!(reader.block_infos().len(), games.len().div_ceil(37));
    assert!(games.len() > 3 * 37, "several blocks: {}", games.len());
    for n in (0..games.len())
        .rev()
        .step_by(7)
        .chain([0, 36, 37, 38, games.len() - 1])
    {
        assert_eq!(reader.game(n as u64).unwrap(), sequential[n], "game {n}");
    }
    assert!(reader.game(games.len() as u64).is_err());
}

#[test]
fn parallel_and_sequential_writers_write_the_same_bytes() {
    let games = read_games(&testdata_path().join("pgn/shakmaty_twic1599_1000k.pgn"));
    // About a dozen blocks, so that four threads share them out.
    let base = WriterOptions {
        max_games_per_block: games.len().div_ceil(12) as u32,
        ..WriterOptions::default()
    };
    let one = pack(&games, WriterOptions { threads: 1, ..base });
    let four = pack(&games, WriterOptions { threads: 4, ..base });
    assert_eq!(one, four);
    let mut reader = ArchiveReader::open(Cursor::new(one)).unwrap();
    let mut decoded = Vec::new();
    reader
        .decode_blocks(3, |_, block| {
            decoded.extend(block?);
            Ok::<(), chessbits_archive::ArchiveError>(())
        })
        .unwrap();
    assert_eq!(decoded, games);
}

/// A game whose first move has a variation, whose first move has a variation, ... `depth` deep.
fn nested(depth: usize) -> GameTree {
    use chessbits::notation::san::san_of;
    use chessbits::notation::uci::parse_uci;
    use chessbits::pgn::{Line, Node};
    let start = chessbits::position::Position::startpos();
    let mut line = Line::default();
    for level in 0..=depth {
        // Alternate first moves so that siblings differ; every line starts from the start position.
        let uci = ["e2e4", "d2d4", "c2c4", "g1f3"][level % 4];
        let m = parse_uci(&start, uci).unwrap();
        let mut node = Node::new(m, san_of(&start, m));
        if level > 0 {
            node.variations.push(line);
        }
        node.comments_after.push(format!("level {level}").as_str().into());
        line = Line {
            nodes: vec![node],
            comments: Vec::new(),
        };
    }
    let mut game = GameTree::new(start);
    game.moves = line;
    game
}

#[test]
fn deep_variations_round_trip_up_to_the_limit() {
    let limit = chessbits::pgn::MAX_VARIATION_DEPTH as usize;
    let deep = nested(limit);
    let options = WriterOptions {
        threads: 2,
        ..WriterOptions::default()
    };
    let bytes = pack(std::slice::from_ref(&deep), options);
    let mut reader = ArchiveReader::open(Cursor::new(bytes)).unwrap();
    assert_eq!(reader.game(0).unwrap(), deep);
    let mut writer = ArchiveWriter::new(Vec::new(), options).unwrap();
    let error = writer.add_game(&nested(limit + 1)).unwrap_err();
    assert!(error.to_string().contains("nested deeper"), "{error}");
    writer.add_game(&deep).unwrap();
    let (bytes, summary) = writer.finish().unwrap();
    assert_eq!(summary.games, 1);
    assert_eq!(ArchiveReader::open(Cursor::new(bytes)).unwrap().game(0).unwrap(), deep);
}
