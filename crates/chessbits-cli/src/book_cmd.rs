//! `chessbits book`: the entries of a Polyglot opening book for one position.

use std::process::ExitCode;

use crate::json::Json;
use crate::output::say;
use chessbits::book::Book;
use chessbits::position::Position;

#[derive(clap::Args)]
pub struct BookArgs {
    /// The Polyglot `.bin` file.
    file: std::path::PathBuf,
    /// The position (FEN or EPD); the start position if omitted.
    #[arg(long)]
    fen: Option<String>,
    /// Print one JSON object: `{"fen", "key", "entries": [{"move", "weight", "learn"}]}`.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    validation: crate::fen_arg::ValidationArg,
}

/// Prints one line per entry of the position, in file order: move (UCI), weight, learn.
pub fn run(args: BookArgs) -> Result<ExitCode, String> {
    let pos = match &args.fen {
        Some(fen) => {
            crate::fen_arg::position_of_with(fen, args.validation.validation()).map_err(|e| format!("--fen: {e}"))?
        }
        None => Position::startpos(),
    };
    let book = Book::open(&args.file).map_err(|e| format!("{}: {e}", args.file.display()))?;
    let entries = book.entries_for(pos.key());
    if args.json {
        let rows = entries.iter().map(|entry| {
            let mv = entry.to_move(&pos).map(|m| m.uci(pos.is_chess960()).to_string());
            Json::obj([
                ("move", Json::opt_str(mv)),
                ("raw_move", Json::from(u64::from(entry.raw_move))),
                ("weight", Json::from(u64::from(entry.weight))),
                ("learn", Json::from(u64::from(entry.learn))),
            ])
        });
        let value = Json::obj([
            ("fen", Json::from(pos.fen())),
            ("key", Json::from(format!("{:016x}", pos.key()))),
            ("entries", Json::Arr(rows.collect())),
        ]);
        say!("{value}");
        return Ok(ExitCode::SUCCESS);
    }
    for entry in entries {
        match entry.to_move(&pos) {
            Some(m) => say!("{} {} {}", m.uci(pos.is_chess960()), entry.weight, entry.learn),
            None => say!(
                "(illegal move code {:#06x}) {} {}",
                entry.raw_move,
                entry.weight,
                entry.learn
            ),
        }
    }
    if entries.is_empty() {
        eprintln!("no entries for key {:016x}", pos.key());
    }
    Ok(ExitCode::SUCCESS)
}
