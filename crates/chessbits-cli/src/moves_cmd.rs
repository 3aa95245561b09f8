//! `chessbits moves`: the legal moves of a position.

use std::process::ExitCode;

use crate::output::say;
use chessbits::lists::MoveList;
use chessbits::notation::san::san_of;
use chessbits::position::Position;

#[derive(clap::Args)]
pub struct MovesArgs {
    /// The position (FEN or EPD); the start position if omitted.
    #[arg(long)]
    fen: Option<String>,
    /// Write the moves in SAN instead of UCI.
    #[arg(long)]
    san: bool,
}

pub fn run(args: MovesArgs) -> Result<ExitCode, String> {
    let pos = match &args.fen {
        Some(fen) => Position::from_fen(fen).map_err(|e| format!("--fen: {e}"))?,
        None => Position::startpos(),
    };
    let mut list = MoveList::new();
    pos.legal_moves_into(&mut list);
    for &m in list.iter() {
        if args.san {
            say!("{}", san_of(&pos, m));
        } else {
            say!("{}", m.uci(pos.is_chess960()));
        }
    }
    Ok(ExitCode::SUCCESS)
}
