//! Golden files: a small `.cbits` archive packed once with each move codec, frozen.
//!
//! `tests/golden/games.pgn` holds a few games (tags, comments with `%clk` and `%eval`, NAGs,
//! variations, a FEN start, Chess960, and a game that cannot be stored as moves and is stored as
//! its text); `tests/golden/games.<codec>.cbits` is that file packed with each codec. The tests
//! read every archive and compare the games, and pack the PGN again and compare the bytes: the
//! archive format (version [`FORMAT_VERSION`], move model [`MODEL_VERSION`]) is frozen, and a
//! change of any byte must come with a new version number (see `tests/golden/README.md`).
//!
//! The files were written once by the ignored test `regenerate_golden`:
//!
//! ```sh
//! cargo test -p chessbits-archive --test integration -- --ignored golden::regenerate_golden
//! ```

use std::io::Cursor;
use std::path::PathBuf;

use chessbits::pgn::PgnReader;
use chessbits_archive::{
    ArchiveReader, ArchiveWriter, MoveCodec, StoredGame, WriterOptions, FORMAT_VERSION, MAGIC, MODEL_VERSION,
};

fn golden_dir() -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/golden"))
}

fn pgn() -> Vec<u8> {
    std::fs::read(golden_dir().join("games.pgn")).unwrap()
}

fn archive_path(codec: MoveCodec) -> PathBuf {
    golden_dir().join(format!("games.{}.cbits", codec.name()))
}

/// The options the golden archives were written with: two games a block (so there are several
/// blocks and an index of several entries), one thread, the default zstd level.
fn options(codec: MoveCodec) -> WriterOptions {
    WriterOptions {
        codec,
        max_games_per_block: 2,
        threads: 1,
        ..WriterOptions::default()
    }
}

/// `pgn` packed as `chessbits pack` does it.
fn pack(pgn: &[u8], codec: MoveCodec) -> Vec<u8> {
    let mut writer = ArchiveWriter::new(Vec::new(), options(codec)).unwrap();
    let mut reader = PgnReader::new(pgn);
    let mut text = Vec::new();
    while let Some(raw) = reader.read_raw_game(&mut text).unwrap() {
        writer.add_pgn(std::mem::take(&mut text), raw, 0).unwrap();
    }
    writer.finish().unwrap().0
}

/// What the archive must give back: each game the PGN reader reads without error, and the text
/// of every other game, in order.
fn expected(pgn: &[u8]) -> Vec<StoredGame> {
    let mut reader = PgnReader::new(pgn);
    let mut text = Vec::new();
    let mut out = Vec::new();
    while let Some(raw) = reader.read_raw_game(&mut text).unwrap() {
        let game = raw.reader(&text[..]).read_owned_game().unwrap().unwrap();
        out.push(match game {
            Ok(game) => StoredGame::Game(game),
            Err(_) => StoredGame::Text(text.clone()),
        });
        text.clear();
    }
    out
}

#[test]
fn golden_pgn_has_every_feature() {
    let games = expected(&pgn());
    assert_eq!(games.len(), 5);
    assert_eq!(games.iter().filter(|g| matches!(g, StoredGame::Text(_))).count(), 1);
    let trees: Vec<_> = games.iter().filter_map(StoredGame::game).collect();
    assert!(trees.iter().any(|g| g.start.is_chess960()));
    assert!(trees.iter().any(|g| g.tag("FEN").is_some() && !g.start.is_chess960()));
    let text = String::from_utf8(pgn()).unwrap();
    for feature in ["[%clk", "[%eval", "$1", "(", "O-O", "=Q"] {
        assert!(text.contains(feature), "{feature}");
    }
}

#[test]
fn golden_archives_decode() {
    let expected = expected(&pgn());
    for codec in MoveCodec::ALL {
        let bytes = std::fs::read(archive_path(codec)).unwrap();
        // The header: magic, format version, default codec, model version.
        assert_eq!(bytes[0..8], MAGIC);
        assert_eq!(u16::from_le_bytes([bytes[8], bytes[9]]), FORMAT_VERSION);
        assert_eq!(bytes[10], codec.id());
        assert_eq!(bytes[11], MODEL_VERSION);
        let mut reader = ArchiveReader::open(Cursor::new(&bytes)).unwrap();
        assert_eq!(reader.codec(), Some(codec));
        assert_eq!(reader.block_infos().len(), 3, "{codec}");
        let games: Vec<StoredGame> = reader.games().map(Result::unwrap).collect();
        assert_eq!(games, expected, "{codec}");
        // Game N through the index.
        assert_eq!(reader.game(3).unwrap(), expected[3], "{codec}");
    }
}

#[test]
fn golden_archives_encode() {
    let pgn = pgn();
    for codec in MoveCodec::ALL {
        let golden = std::fs::read(archive_path(codec)).unwrap();
        assert!(
            pack(&pgn, codec) == golden,
            "{codec}: packing tests/golden/games.pgn no longer gives {} byte for byte",
            archive_path(codec).display()
        );
    }
}

#[test]
#[ignore = "writes tests/golden/*.cbits; run only for a deliberate format change"]
fn regenerate_golden() {
    let pgn = pgn();
    for codec in MoveCodec::ALL {
        std::fs::write(archive_path(codec), pack(&pgn, codec)).unwrap();
    }
}
