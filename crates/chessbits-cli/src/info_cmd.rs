//! `chessbits info ARCHIVE`: what a `.cbits` archive holds: games, blocks, codecs, sizes,
//! format and model versions, games stored as text.

use std::collections::BTreeMap;
use std::fs::File;
use std::io::BufReader;
use std::path::PathBuf;
use std::process::ExitCode;

use chessbits_archive::{ArchiveReader, StoredGame, FORMAT_VERSION, MODEL_VERSION};

use crate::json::Json;
use crate::output::say;

#[derive(clap::Args)]
pub struct InfoArgs {
    /// The archive.
    archive: PathBuf,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

/// Reads every block (verifying its checksum) and decodes it to count the games stored as text
/// and the moves. A damaged archive is described as far as it can be read: its problems are
/// listed and the exit status is 1.
pub fn run(args: InfoArgs) -> Result<ExitCode, String> {
    let name = args.archive.display().to_string();
    let file = File::open(&args.archive).map_err(|e| format!("{name}: {e}"))?;
    let mut reader = ArchiveReader::recover(BufReader::new(file)).map_err(|e| format!("{name}: {e}"))?;
    let mut problems: Vec<String> = reader.problems().iter().map(|p| p.to_string()).collect();
    let infos = reader.block_infos();
    let (mut payload_bytes, mut text_games, mut move_games, mut moves) = (0u64, 0u64, 0u64, 0u64);
    let mut codecs: BTreeMap<String, u64> = BTreeMap::new();
    for i in 0..infos.len() {
        let block = match reader.read_block(i) {
            Ok(block) => block,
            Err(e) => {
                problems.push(e.to_string());
                continue;
            }
        };
        payload_bytes += block.payload_len() as u64;
        *codecs.entry(block.codec().to_string()).or_default() += 1;
        match block.decode() {
            Ok(games) => {
                for game in games {
                    match game {
                        StoredGame::Game(game) => {
                            move_games += 1;
                            moves += game.moves.nodes.len() as u64;
                        }
                        StoredGame::Text(_) => text_games += 1,
                    }
                }
            }
            Err(e) => problems.push(e.to_string()),
        }
    }
    let games = reader.game_count();
    let file_len = reader.file_len();
    let codec = reader.codec().map(|c| c.to_string());
    let bits_per_move = match moves {
        0 => 0.0,
        n => file_len as f64 * 8.0 / n as f64,
    };
    if args.json {
        let value = Json::obj([
            ("file", Json::from(name.as_str())),
            ("bytes", Json::from(file_len)),
            ("format_version", Json::from(u32::from(FORMAT_VERSION))),
            ("model_version", Json::from(u32::from(MODEL_VERSION))),
            ("codec", Json::opt_str(codec)),
            ("games", Json::from(games)),
            ("blocks", Json::from(infos.len())),
            (
                "block_codecs",
                Json::obj(codecs.iter().map(|(k, &v)| (k.clone(), Json::from(v)))),
            ),
            ("payload_bytes", Json::from(payload_bytes)),
            ("games_as_moves", Json::from(move_games)),
            ("games_as_text", Json::from(text_games)),
            ("mainline_moves", Json::from(moves)),
            ("bits_per_move", Json::from(bits_per_move)),
            (
                "problems",
                Json::Arr(problems.iter().map(|p| Json::from(p.as_str())).collect()),
            ),
        ]);
        say!("{value}");
    } else {
        say!("file            {name}");
        say!("bytes           {file_len} ({payload_bytes} in block payloads)");
        say!("format version  {FORMAT_VERSION}, move model version {MODEL_VERSION}");
        say!("codec           {}", codec.as_deref().unwrap_or("? (damaged header)"));
        let per_block: Vec<String> = codecs.iter().map(|(k, v)| format!("{k} {v}")).collect();
        say!("blocks          {} ({})", infos.len(), per_block.join(", "));
        say!("games           {games} ({move_games} as moves, {text_games} stored as text)");
        say!("moves           {moves} (main lines), {bits_per_move:.2} bits/move for the whole file");
        for problem in &problems {
            say!("problem         {problem}");
        }
    }
    Ok(match problems.is_empty() {
        true => ExitCode::SUCCESS,
        false => ExitCode::from(1),
    })
}
