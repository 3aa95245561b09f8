//! `chessbits pgn positions FILE|DIR...`: one line per position along each game's main line,
//! the usual way to turn games into training data.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use crate::games::{expand_with_progress, for_each_game, mainline_positions, ErrorLog};
use crate::json::Json;
use crate::output::Sink;

#[derive(clap::Args)]
#[command(after_help = "\
Line formats (one position per line, games in input order, positions in game order):

  --format fen:  FEN[;MOVE][;RESULT]
      rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1;e2e4;1-0
      the full FEN (six fields); --with-move adds the move played from the position, in UCI
      (0000 for a null move); --with-result adds the game's result (1-0, 0-1, 1/2-1/2, *).

  --format epd:  EPD[ sm SAN;][ c9 \"RESULT\";]
      rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - sm e4; c9 \"1-0\";
      the four EPD fields; --with-move adds the standard `sm` (supplied move) operation in SAN
      (`--` for a null move); --with-result adds `c9` with the result, as texel-tuning sets
      (zurichess's quiet-labeled.epd) write it.

Positions: the start position of each game (the FEN tag's, else the standard one), then the
position after each main-line move. With --with-move, only positions a move was played from
(the final position has none and is left out); without it, the final position is included.
--skip-plies N leaves out the first N positions of each game; --every N then keeps one
position in N (the first kept, the next N later, ...).

Games that cannot be read are reported (file:line: reason) and left out; the exit status is
then 1. The summary (games, positions, errors) goes to standard error (--json: as JSON).")]
pub struct PositionsArgs {
    /// PGN files (plain, gzip or zstd) or `.cbits` archives, recognised by content; `-` reads standard input; a directory, every `.pgn`, `.pgn.gz`, `.pgn.zst` and `.cbits` file below it.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Output file (`-`, the default, writes standard output).
    #[arg(short, long, default_value = "-")]
    output: PathBuf,
    /// The line format (see below).
    #[arg(long, value_enum, default_value = "fen")]
    format: Format,
    /// Add the move played from each position.
    #[arg(long)]
    with_move: bool,
    /// Add the game's result.
    #[arg(long)]
    with_result: bool,
    /// Keep one position in N.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..))]
    every: u64,
    /// Leave out the first N positions of each game.
    #[arg(long, default_value_t = 0)]
    skip_plies: u64,
    /// Print the summary as one JSON object (on standard error).
    #[arg(long)]
    json: bool,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
enum Format {
    Fen,
    Epd,
}

pub fn run(args: PositionsArgs) -> Result<ExitCode, String> {
    let (files, bar) = expand_with_progress(&args.files)?;
    let mut sink = Sink::create(&args.output, &files)?;
    let (mut games, mut positions, mut errors) = (0u64, 0u64, ErrorLog::default());
    let mut line = String::new();
    for_each_game(&files, &bar, |input| {
        games += 1;
        let game = match &input.game {
            Ok(game) => game,
            Err(error) => {
                errors.record(&bar, error);
                return Ok(());
            }
        };
        let result = game.declared_result().as_str();
        let all = mainline_positions(game);
        let nodes = &game.moves.nodes;
        for (ply, pos) in all.iter().enumerate() {
            let ply = ply as u64;
            if ply < args.skip_plies || (ply - args.skip_plies) % args.every != 0 {
                continue;
            }
            let node = nodes.get(ply as usize);
            if args.with_move && node.is_none() {
                continue;
            }
            line.clear();
            match args.format {
                Format::Fen => {
                    line.push_str(&pos.fen());
                    if let Some(node) = node.filter(|_| args.with_move) {
                        line.push(';');
                        line.push_str(&node.mv.uci(pos.is_chess960()).to_string());
                    }
                    if args.with_result {
                        line.push(';');
                        line.push_str(result);
                    }
                }
                Format::Epd => {
                    line.push_str(&pos.epd());
                    if let Some(node) = node.filter(|_| args.with_move) {
                        line.push_str(&format!(" sm {};", node.san));
                    }
                    if args.with_result {
                        line.push_str(&format!(" c9 \"{result}\";"));
                    }
                }
            }
            line.push('\n');
            sink.write_all(line.as_bytes()).map_err(|e| sink.error(e))?;
            positions += 1;
        }
        Ok(())
    })?;
    sink.commit()?;
    bar.finish_and_clear();
    if args.json {
        let value = Json::obj([
            ("games", Json::from(games)),
            ("positions", Json::from(positions)),
            ("errors", Json::from(errors.count)),
            ("error_messages", errors.messages_json()),
        ]);
        eprintln!("{value}");
    } else {
        eprintln!("{games} games, {positions} positions, {} errors", errors.count);
    }
    Ok(match errors.is_empty() {
        true => ExitCode::SUCCESS,
        false => ExitCode::from(1),
    })
}
