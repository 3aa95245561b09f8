//! `chessbits show FEN|EPD`: the board as a diagram and what the FEN says about the position.

use std::process::ExitCode;

use chessbits::position::Position;
use chessbits::types::Color;

use crate::fen_arg::{parse_position_with, Operation};
use crate::json::Json;
use crate::output::say;

#[derive(clap::Args)]
pub struct ShowArgs {
    /// The position: a FEN, or an EPD line (its operations are shown). Quote it.
    position: String,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    validation: crate::fen_arg::ValidationArg,
}

/// The state of the side to move: `checkmate`, `stalemate`, `check` or `normal`.
pub fn status(pos: &Position) -> &'static str {
    let no_moves = pos.count_legal_moves() == 0;
    match (pos.is_check(), no_moves) {
        (true, true) => "checkmate",
        (false, true) => "stalemate",
        (true, false) => "check",
        (false, false) => "normal",
    }
}

fn color_name(color: Color) -> &'static str {
    match color {
        Color::White => "white",
        Color::Black => "black",
    }
}

pub fn run(args: ShowArgs) -> Result<ExitCode, String> {
    let arg = parse_position_with(&args.position, args.validation.validation())?;
    let pos = &arg.position;
    let fen = pos.fen();
    let fields: Vec<&str> = fen.split(' ').collect();
    let (castling, ep) = (fields[2], fields[3]);
    let legal = pos.count_legal_moves();
    if args.json {
        let board: Vec<Json> = format!("{:?}", pos.board()).lines().map(Json::from).collect();
        let operations = arg.operations.iter().map(|Operation { opcode, operands }| {
            Json::obj([
                ("opcode", Json::from(opcode.as_str())),
                ("operands", Json::from(operands.as_str())),
            ])
        });
        let value = Json::obj([
            ("fen", Json::from(fen.as_str())),
            ("board", Json::Arr(board)),
            ("turn", Json::from(color_name(pos.turn()))),
            ("castling", Json::from(castling)),
            ("en_passant", Json::opt_str(pos.ep_square().map(|sq| sq.to_string()))),
            ("halfmove_clock", Json::from(pos.halfmove_clock())),
            ("fullmove_number", Json::from(pos.fullmove_number())),
            ("check", Json::from(pos.is_check())),
            ("checkmate", Json::from(pos.is_check() && legal == 0)),
            ("stalemate", Json::from(!pos.is_check() && legal == 0)),
            ("status", Json::from(status(pos))),
            ("legal_moves", Json::from(legal)),
            ("operations", Json::Arr(operations.collect())),
        ]);
        say!("{value}");
        return Ok(ExitCode::SUCCESS);
    }
    say!("{}", pos.board());
    say!("");
    say!("fen             {fen}");
    say!("side to move    {}", color_name(pos.turn()));
    say!("castling        {castling}");
    say!("en passant      {ep}");
    say!("halfmove clock  {}", pos.halfmove_clock());
    say!("fullmove number {}", pos.fullmove_number());
    say!("status          {}", status(pos));
    say!("legal moves     {legal}");
    for Operation { opcode, operands } in &arg.operations {
        say!("epd {opcode:<11} {operands}");
    }
    Ok(ExitCode::SUCCESS)
}
