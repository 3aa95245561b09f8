//! Packing PGN into a `.cbits` archive and reading it back: all games in order, one game by
//! its number, the games stored as text.
//!
//! ```text
//! cargo run -p chessbits-archive --example pack_and_read [FILE.pgn]
//! ```
//!
//! Without an argument it packs the Carlsen games bundled in `testdata/pgn/` (from
//! `../shared/data/pgn/` when that is there: the full file). The archive is written to the
//! system's temporary directory.

use std::fs::File;
use std::io::{BufReader, BufWriter};
use std::path::PathBuf;

use chessbits::pgn::PgnReader;
use chessbits_archive::{ArchiveReader, ArchiveWriter, MoveCodec, StoredGame, WriterOptions};

fn default_file() -> PathBuf {
    let name = "pgn/notnil_Carlsen.pgn";
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let shared = root.join("../shared/data").join(name);
    if shared.exists() {
        shared
    } else {
        root.join("testdata").join(name)
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let input = std::env::args().nth(1).map_or_else(default_file, PathBuf::from);
    let output = std::env::temp_dir().join("pack_and_read.cbits");

    // Packing. `add_pgn` takes each game's text as the reader cut it out of the file: a game
    // that cannot be stored as moves (an illegal move, a variant) is stored as its text, so
    // nothing is lost. `add_game` takes a `GameTree` you built or edited instead.
    let options = WriterOptions {
        codec: MoveCodec::Entropy, // the default: the smallest; `IndexByte` is the fastest
        ..WriterOptions::default()
    };
    let mut writer = ArchiveWriter::new(BufWriter::new(File::create(&output)?), options)?;
    let mut reader = PgnReader::new(BufReader::new(File::open(&input)?));
    let mut text = Vec::new();
    while let Some(raw) = reader.read_raw_game(&mut text)? {
        writer.add_pgn(std::mem::take(&mut text), raw, 0)?;
    }
    let (_, summary) = writer.finish()?;
    let pgn_bytes = std::fs::metadata(&input)?.len();
    println!(
        "{}: {} games, {} plies, {pgn_bytes} bytes of PGN -> {} bytes ({:.2} bits a move)",
        input.display(),
        summary.games,
        summary.moves,
        summary.bytes,
        summary.bits_per_move()
    );

    // Reading. `open` checks the header, index and footer; every block is checked by its
    // CRC-32 when read. `games()` goes through the games in order.
    let mut archive = ArchiveReader::open(BufReader::new(File::open(&output)?))?;
    let mut as_text = 0;
    for stored in archive.games() {
        match stored? {
            StoredGame::Game(game) => {
                // The same `GameTree` the PGN reader gives: tags, moves, comments, variations.
                let _ = game.mainline().count();
            }
            StoredGame::Text(_) => as_text += 1,
        }
    }
    println!("read back {} games ({as_text} stored as text)", archive.game_count());

    // Game N through the index, without decoding the games before its block.
    let last = archive.game_count() - 1;
    if let StoredGame::Game(game) = archive.game(last)? {
        println!(
            "game {last}: {} - {}, {} plies",
            game.tag("White").unwrap_or_default(),
            game.tag("Black").unwrap_or_default(),
            game.mainline().count()
        );
        // And as PGN again (export format on request: `WriteOptions::seven_tag_roster`).
        print!("{}", String::from_utf8_lossy(&game.to_pgn()));
    }
    std::fs::remove_file(&output)?;
    Ok(())
}
