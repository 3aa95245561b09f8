//! `chessbits pgn dedup FILE|DIR... [-o OUT]`: every game once, the duplicates ([`Dedup`])
//! left out and reported.

use std::path::PathBuf;
use std::process::ExitCode;

use crate::dedup::Dedup;
use crate::filter_cmd::{finish_games, write_game};
use crate::games::{expand_with_progress_for_output, for_each_game, input_name, ErrorLog};
use crate::json::Json;
use crate::output::Sink;

/// The end of `pgn dedup --help`.
const DEDUP_HELP: &str = "\
Duplicates: games with the same main line from the same start position and the same White, Black
and date (UTCDate, else Date), whatever their other tags, comments, variations or result. The
first is written, byte for byte as it stands in the input; each later one is left out and
reported on standard error as `file:line duplicates file:line` (and in --json). Each distinct
game is remembered as a 128-bit hash of those and where it was first seen, about 50 bytes, never
its text: memory grows with the number of distinct games, not their size. A game that cannot be
read is reported as an error (status 1), never a duplicate.";

#[derive(clap::Args)]
#[command(after_help = DEDUP_HELP)]
pub struct DedupArgs {
    /// PGN files (plain, gzip or zstd) or `.cbits` archives, recognised by content; `-` reads standard input; a directory, every `.pgn`, `.pgn.gz`, `.pgn.zst` and `.cbits` file below it.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Output file (`-`, the default, writes standard output).
    #[arg(short, long, default_value = "-")]
    output: PathBuf,
    /// Print the summary (games, written, duplicates with both sources, errors) as one JSON
    /// object (on standard error).
    #[arg(long)]
    json: bool,
}

/// Runs `chessbits pgn dedup`: writes the first of each set of duplicates byte for byte (as
/// `pgn filter` writes games), and every game that cannot be read is reported and left out
/// (status 1).
pub fn run(args: DedupArgs) -> Result<ExitCode, String> {
    let (files, bar) = expand_with_progress_for_output(&args.files, &args.output)?;
    let mut sink = Sink::create(&args.output, &files)?;
    let mut dedup = Dedup::new(files.iter().map(|path| input_name(path)).collect());
    let (mut games, mut written, mut errors) = (0u64, 0u64, ErrorLog::default());
    let mut last_break: Option<&'static [u8]> = None;
    for_each_game(&files, &bar, |input| {
        games += 1;
        let game = match &input.game {
            Ok(game) => game,
            Err(error) => {
                errors.record(&bar, error);
                return Ok(());
            }
        };
        if dedup.is_duplicate(&bar, input.source, input.raw.first_line, game) {
            return Ok(());
        }
        written += 1;
        write_game(&mut sink, &mut last_break, input.bytes)
    })?;
    finish_games(&mut sink, last_break)?;
    sink.commit()?;
    bar.finish_and_clear();
    if args.json {
        let value = Json::obj([
            ("games", Json::from(games)),
            ("written", Json::from(written)),
            ("duplicates", Json::from(dedup.count)),
            ("errors", Json::from(errors.count)),
            ("duplicate_games", dedup.json()),
            ("error_messages", errors.messages_json()),
        ]);
        eprintln!("{value}");
    } else {
        eprintln!(
            "{games} games read, {written} written, {} duplicates, {} errors",
            dedup.count, errors.count
        );
    }
    Ok(match errors.is_empty() {
        true => ExitCode::SUCCESS,
        false => ExitCode::from(1),
    })
}
