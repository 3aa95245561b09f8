//! `chessbits moves`: the legal moves of a position.

use std::process::ExitCode;

use crate::json::Json;
use crate::output::say;
use crate::show_cmd::status;
use chessbits::lists::MoveList;
use chessbits::notation::san::san_of;
use chessbits::position::Position;

#[derive(clap::Args)]
pub struct MovesArgs {
    /// The position (FEN, or EPD whose operations are ignored); the start position if omitted.
    #[arg(long)]
    fen: Option<String>,
    /// Write the moves in SAN instead of UCI.
    #[arg(long)]
    san: bool,
    /// Print one JSON object: `{"fen", "status", "count", "moves": [...]}`.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    validation: crate::fen_arg::ValidationArg,
}

/// One move per line on standard output. With no legal move, nothing there and `checkmate` or
/// `stalemate` on standard error (status 0).
pub fn run(args: MovesArgs) -> Result<ExitCode, String> {
    let pos = match &args.fen {
        Some(fen) => {
            crate::fen_arg::position_of_with(fen, args.validation.validation()).map_err(|e| format!("--fen: {e}"))?
        }
        None => Position::startpos(),
    };
    let mut list = MoveList::new();
    pos.legal_moves_into(&mut list);
    let texts: Vec<String> = list
        .iter()
        .map(|&m| match args.san {
            true => san_of(&pos, m).to_string(),
            false => m.uci(pos.is_chess960()).to_string(),
        })
        .collect();
    if args.json {
        let value = Json::obj([
            ("fen", Json::from(pos.fen())),
            ("status", Json::from(status(&pos))),
            ("count", Json::from(texts.len())),
            ("moves", Json::Arr(texts.into_iter().map(Json::from).collect())),
        ]);
        say!("{value}");
        return Ok(ExitCode::SUCCESS);
    }
    for text in &texts {
        say!("{text}");
    }
    if texts.is_empty() {
        eprintln!("no legal moves: {}", status(&pos));
    }
    Ok(ExitCode::SUCCESS)
}
