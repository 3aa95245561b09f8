//! Reading a PGN file: every game's tags and main line in SAN, comments and the result.
//!
//! ```text
//! cargo run -p chessbits --example read_pgn [FILE.pgn]
//! ```
//!
//! Without an argument it reads the lichess games bundled in `testdata/pgn/` (from
//! `../shared/data/pgn/` when that is there: the full file).

use std::fs::File;
use std::io::BufReader;
use std::path::PathBuf;

use chessbits::pgn::PgnReader;

fn default_file() -> PathBuf {
    let name = "pgn/shakmaty_lichess_db_1000k.pgn";
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let shared = root.join("../shared/data").join(name);
    if shared.exists() {
        shared
    } else {
        root.join("testdata").join(name)
    }
}

fn main() -> std::io::Result<()> {
    let path = std::env::args().nth(1).map_or_else(default_file, PathBuf::from);
    println!("reading {}", path.display());

    // The reader streams: it holds one game at a time, whatever the size of the file.
    let reader = PgnReader::new(BufReader::new(File::open(&path)?));

    // `into_games` builds the owned tree of each game (tags, moves, comments, NAGs,
    // variations). A game that cannot be read gives its error in its place (with the line),
    // and reading goes on with the next game.
    for (i, game) in reader.into_games().enumerate().take(3) {
        let game = match game {
            Ok(game) => game,
            Err(error) => {
                println!("game {}: {error}", i + 1);
                continue;
            }
        };
        println!("\ngame {}", i + 1);
        // Tags keep the order and the bytes of the file; `value()` decodes them for display.
        for tag in &game.tags {
            println!("  [{} \"{}\"]", String::from_utf8_lossy(tag.name()), tag.value());
        }
        // The main line: each node has the move, its SAN, comments and NAGs, and variations.
        let mut movetext = String::new();
        for (ply, node) in game.moves.nodes.iter().enumerate() {
            if ply % 2 == 0 {
                movetext.push_str(&format!("{}. ", ply / 2 + 1));
            }
            movetext.push_str(&format!("{} ", node.san));
            // lichess comments carry the clock: { [%clk 0:03:00] }.
            if ply == 0 {
                if let Some(comment) = node.comments_after.first() {
                    println!("  first comment: {{{}}}", comment.text());
                }
            }
        }
        println!("  {movetext}");
        println!(
            "  result: {}, final position: {}",
            game.result,
            game.final_position().fen()
        );
    }
    Ok(())
}
