//! `chessbits moves`: the legal moves of a position.

use std::process::ExitCode;

use chessbits::lists::MoveList;
use chessbits::position::Position;

#[derive(clap::Args)]
pub struct MovesArgs {
    /// The position (FEN or EPD); the start position if omitted.
    #[arg(long)]
    fen: Option<String>,
}

pub fn run(args: MovesArgs) -> Result<ExitCode, String> {
    let pos = match &args.fen {
        Some(fen) => Position::from_fen(fen).map_err(|e| format!("--fen: {e}"))?,
        None => Position::startpos(),
    };
    let mut list = MoveList::new();
    pos.legal_moves(&mut list);
    for m in list.iter() {
        println!("{}", m.uci(pos.is_chess960()));
    }
    Ok(ExitCode::SUCCESS)
}
