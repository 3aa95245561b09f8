//! The `chessbits` command-line tool: a thin layer over the library.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod archive_cmd;
mod book_cmd;
mod inputs;
mod moves_cmd;
mod output;
mod perft_cmd;
mod pgn_cmd;
mod stats_cmd;

#[derive(Parser)]
#[command(
    name = "chessbits",
    version,
    about = "Chess positions, moves, games and their compact encodings"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Count leaf nodes of the legal move tree (one position or a suite).
    Perft(perft_cmd::PerftArgs),
    /// List the legal moves of a position.
    Moves(moves_cmd::MovesArgs),
    /// Check or convert PGN files.
    Pgn(pgn_cmd::PgnArgs),
    /// Bits per move of every move code and bits per position of every position code on a PGN file.
    Stats(stats_cmd::StatsArgs),
    /// Pack PGN files into a compact archive.
    Pack(archive_cmd::PackArgs),
    /// Unpack an archive back to PGN.
    Unpack(archive_cmd::UnpackArgs),
    /// List the entries of a Polyglot opening book for a position.
    Book(book_cmd::BookArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Perft(args) => perft_cmd::run(args),
        Command::Moves(args) => moves_cmd::run(args),
        Command::Pgn(args) => pgn_cmd::run(args),
        Command::Stats(args) => stats_cmd::run(args),
        Command::Pack(args) => archive_cmd::run_pack(args),
        Command::Unpack(args) => archive_cmd::run_unpack(args),
        Command::Book(args) => book_cmd::run(args),
    };
    match result {
        Ok(code) => code,
        Err(message) => {
            eprintln!("chessbits: {message}");
            ExitCode::from(2)
        }
    }
}
