//! `chessbits show FEN|EPD`: the board as a diagram and what the FEN says about the position;
//! with `--svg`, the board as an SVG picture (last move, check, arrows and squares).

use std::process::ExitCode;

use chessbits::diagram::{parse_shapes, Diagram};
use chessbits::pgn::Shape;
use chessbits::position::Position;
use chessbits::types::{Color, Square};

use crate::fen_arg::{parse_position_with, Operation};
use crate::json::Json;
use crate::output::say;

#[derive(clap::Args)]
pub struct ShowArgs {
    /// The position: a FEN, an EPD line (its operations are shown) or `startpos`. Quote it.
    position: String,
    /// Print one JSON object instead of text.
    #[arg(long, conflicts_with = "svg")]
    json: bool,
    /// Print the board as a standalone SVG picture instead of text.
    #[arg(long)]
    svg: bool,
    /// SVG: Black at the bottom.
    #[arg(long, requires = "svg")]
    flip: bool,
    /// SVG: highlight the squares of the move that led here, in UCI (`e2e4`, `e7e8q`).
    #[arg(long, value_name = "UCI", requires = "svg")]
    last_move: Option<String>,
    /// SVG: arrows as `%cal` writes them, a colour letter (G, R, Y, B) and two squares: `Ga1a8,Re2e4`.
    #[arg(long, value_name = "LIST", requires = "svg")]
    arrows: Option<String>,
    /// SVG: circled squares as `%csl` writes them, a colour letter and a square: `Gd4,Rf7`.
    #[arg(long, value_name = "LIST", requires = "svg")]
    squares: Option<String>,
    /// SVG: width and height in pixels.
    #[arg(long, default_value_t = 400, value_parser = clap::value_parser!(u32).range(16..=8192), requires = "svg")]
    size: u32,
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

/// The two squares of a move in UCI (`e2e4`, `e7e8q`): the last move need not be legal here,
/// so only its shape is checked.
fn last_move_squares(uci: &str) -> Result<(Square, Square), String> {
    let bad =
        || format!("--last-move {uci:?}: expected a move in UCI, two squares such as e2e4 (and a promotion letter)");
    let squares = match uci.len() {
        4 => uci,
        5 if uci.ends_with(['q', 'r', 'b', 'n']) => &uci[..4],
        _ => return Err(bad()),
    };
    let from = squares.get(..2).and_then(|s| s.parse().ok()).ok_or_else(bad)?;
    let to = squares.get(2..).and_then(|s| s.parse().ok()).ok_or_else(bad)?;
    Ok((from, to))
}

/// The shapes of `--arrows` or `--squares`, each of the kind the option names.
fn shapes(option: &str, list: Option<&str>, arrows: bool) -> Result<Vec<Shape>, String> {
    let shapes = parse_shapes(list.unwrap_or("")).map_err(|e| format!("--{option}: {e}"))?;
    match shapes.iter().find(|s| s.is_arrow() != arrows) {
        Some(wrong) if arrows => Err(format!(
            "--arrows: {wrong} is a square, not an arrow (two squares: Ge2e4)"
        )),
        Some(wrong) => Err(format!(
            "--squares: {wrong} is an arrow, not a square (one square: Gd4)"
        )),
        None => Ok(shapes),
    }
}

/// The SVG picture the options describe.
fn svg(args: &ShowArgs, pos: &Position) -> Result<String, String> {
    let mut diagram = Diagram::new()
        .size(args.size)
        .orientation(if args.flip { Color::Black } else { Color::White })
        .shapes(shapes("squares", args.squares.as_deref(), false)?)
        .shapes(shapes("arrows", args.arrows.as_deref(), true)?);
    if let Some(uci) = &args.last_move {
        let (from, to) = last_move_squares(uci)?;
        diagram = diagram.last_move_squares(from, to);
    }
    Ok(diagram.render(pos))
}

pub fn run(args: ShowArgs) -> Result<ExitCode, String> {
    let arg = parse_position_with(&args.position, args.validation.validation())?;
    let pos = &arg.position;
    if args.svg {
        say!("{}", svg(&args, pos)?);
        return Ok(ExitCode::SUCCESS);
    }
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
