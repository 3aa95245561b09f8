//! The `chessbits` command-line tool: a thin layer over the library.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod moves_cmd;
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
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Perft(args) => perft_cmd::run(args),
        Command::Moves(args) => moves_cmd::run(args),
        Command::Pgn(args) => pgn_cmd::run(args),
        Command::Stats(args) => stats_cmd::run(args),
    };
    match result {
        Ok(code) => code,
        Err(message) => {
            eprintln!("chessbits: {message}");
            ExitCode::from(2)
        }
    }
}
