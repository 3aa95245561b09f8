//! The `chessbits` command-line tool: a thin layer over the library.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod archive_cmd;
mod book_cmd;
mod codecs_cmd;
mod convert_export;
mod dedup;
mod dedup_cmd;
mod explore_cmd;
mod export_cmd;
mod fen_arg;
mod filter_cmd;
mod games;
mod index_cmd;
mod info_cmd;
mod inputs;
mod json;
mod moves_cmd;
mod output;
mod perft_cmd;
mod pgn_cmd;
mod pgn_stats_cmd;
mod player_report;
mod positions_cmd;
mod search_cmd;
mod show_cmd;
mod synth_cmd;

/// The exit-status convention, shown at the end of `chessbits --help`.
const EXIT_STATUS: &str = "\
Exit status (every command):
  0  ok
  1  bad input found: the command ran to the end, but some of its input was bad (a game with an
     error, a failed perft count, a damaged archive block, ...); each is reported on stderr
  2  usage or I/O error: a bad option or argument (a malformed FEN, a flag that does nothing
     with the others), a file that cannot be read or written; nothing (more) was done

--json prints one JSON object on standard output instead of text (commands that write games or
positions there print their summary on standard error).";

#[derive(Parser)]
#[command(
    name = "chessbits",
    version,
    about = "Chess positions, moves, games and their compact encodings",
    after_help = EXIT_STATUS
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Draw a position (FEN, EPD or startpos) and say what it is: side to move, castling, check, mate.
    Show(show_cmd::ShowArgs),
    /// Count leaf nodes of the legal move tree (one position or a suite).
    Perft(perft_cmd::PerftArgs),
    /// List the legal moves of a position.
    Moves(moves_cmd::MovesArgs),
    /// Check, convert, filter, deduplicate, count and cut PGN files into positions.
    Pgn(pgn_cmd::PgnArgs),
    /// Bits per move of every move code and bits per position of every position code on a PGN
    /// file (was `stats`).
    Codecs(codecs_cmd::CodecsArgs),
    /// Pack PGN files into a compact archive.
    Pack(archive_cmd::PackArgs),
    /// Describe an archive: games, blocks, codecs, sizes, versions, games stored as text.
    Info(info_cmd::InfoArgs),
    /// Unpack an archive (or some of its games) back to PGN.
    Unpack(archive_cmd::UnpackArgs),
    /// List the entries of a Polyglot opening book for a position.
    Book(book_cmd::BookArgs),
    /// Export PGN files to Parquet, one row per game.
    Export(export_cmd::ExportArgs),
    /// Build or describe a position index (opening explorer and position search).
    Index(index_cmd::IndexArgs),
    /// The moves played from a position in an index, with results, as the lichess explorer shows
    /// them.
    Explore(explore_cmd::ExploreArgs),
    /// The games of an index that reach a position, at any ply.
    Search(search_cmd::SearchArgs),
    /// Write a synthetic, lichess-like PGN collection sampled from the move model (seeded).
    Synth(synth_cmd::SynthArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Show(args) => show_cmd::run(args),
        Command::Perft(args) => perft_cmd::run(args),
        Command::Moves(args) => moves_cmd::run(args),
        Command::Pgn(args) => pgn_cmd::run(args),
        Command::Codecs(args) => codecs_cmd::run(args),
        Command::Pack(args) => archive_cmd::run_pack(args),
        Command::Info(args) => info_cmd::run(args),
        Command::Unpack(args) => archive_cmd::run_unpack(args),
        Command::Book(args) => book_cmd::run(args),
        Command::Export(args) => export_cmd::run(args),
        Command::Index(args) => index_cmd::run(args),
        Command::Explore(args) => explore_cmd::run(args),
        Command::Search(args) => search_cmd::run(args),
        Command::Synth(args) => synth_cmd::run(args),
    };
    match result {
        Ok(code) => code,
        Err(message) => {
            eprintln!("chessbits: {message}");
            ExitCode::from(2)
        }
    }
}
