//! The position argument of `show`, `moves`, `perft --fen` and `book --fen`: a FEN (4 to 6
//! fields), an EPD line (the 4 position fields, then operations `opcode operands;`), or
//! `startpos` (the start position, as UCI names it).
//!
//! EPD clocks come from the `hmvc` and `fmvn` operations when the line has them; a FEN's clock
//! fields followed by operations (`FEN 0 1 ;D1 20`, as perft suites write them) are read too.

use chessbits::notation::fen::FenError;
use chessbits::position::{Position, PositionError, Validation};

/// `--allow-impossible`, for the commands that take a position: accept material and checks no
/// game can reach (composed problems), which are rejected by default.
#[derive(clap::Args, Clone, Copy, Debug, Default)]
pub struct ValidationArg {
    /// Accept a position no game can reach (a composed problem): more material than promotions
    /// give (nine pawns, a third bishop, ...) or a check no move could have given (a triple
    /// check, an en passant square the check contradicts).
    #[arg(long)]
    pub allow_impossible: bool,
}

impl ValidationArg {
    /// The validation the flag asks for.
    pub fn validation(self) -> Validation {
        if self.allow_impossible {
            Validation::Composed
        } else {
            Validation::Game
        }
    }
}

/// One EPD operation: `bm e4;` is `("bm", "e4")`, `id "x";` is `("id", "\"x\"")` (operands as
/// written, quotes kept).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Operation {
    pub opcode: String,
    pub operands: String,
}

/// A position given on the command line, with the EPD operations that followed it.
#[derive(Clone, Debug)]
pub struct PositionArg {
    pub position: Position,
    pub operations: Vec<Operation>,
}

/// Parses a FEN or an EPD line, validating the position as `validation` says. Errors say what
/// was wrong (`FEN/EPD: ...`).
pub fn parse_position_with(text: &str, validation: Validation) -> Result<PositionArg, String> {
    // `startpos`, as UCI spells the start position.
    if text.trim() == "startpos" {
        return Ok(PositionArg {
            position: Position::startpos(),
            operations: Vec::new(),
        });
    }
    let mut rest = text.trim();
    let mut fields = Vec::with_capacity(6);
    while fields.len() < 4 {
        let Some((field, tail)) = next_token(rest) else { break };
        fields.push(field);
        rest = tail;
    }
    if fields.len() < 4 {
        return Err(format!(
            "FEN/EPD: {} field(s), a position needs 4 (board, side to move, castling, en passant)",
            fields.len()
        ));
    }
    // FEN clocks: up to two numbers right after the position fields.
    let mut clocks: Vec<String> = Vec::new();
    while clocks.len() < 2 {
        match next_token(rest) {
            Some((token, tail)) if token.bytes().all(|b| b.is_ascii_digit()) => {
                clocks.push(token.to_string());
                rest = tail;
            }
            _ => break,
        }
    }
    let operations = parse_operations(rest)?;
    if clocks.is_empty() {
        let operand = |name: &str| {
            operations
                .iter()
                .find(|op| op.opcode == name)
                .map(|op| op.operands.trim().to_string())
        };
        if let Some(hmvc) = operand("hmvc") {
            clocks.push(hmvc);
            clocks.extend(operand("fmvn"));
        } else if let Some(fmvn) = operand("fmvn") {
            clocks.push("0".to_string());
            clocks.push(fmvn);
        }
    }
    let mut fen = fields.join(" ");
    for clock in &clocks {
        fen.push(' ');
        fen.push_str(clock);
    }
    let position = Position::from_fen_with(&fen, validation).map_err(|e| {
        let hint = match e {
            FenError::Position(PositionError::ImpossibleMaterial(_) | PositionError::ImpossibleCheck) => {
                " (--allow-impossible accepts it)"
            }
            _ => "",
        };
        format!("FEN/EPD {text:?}: {e}{hint}")
    })?;
    Ok(PositionArg { position, operations })
}

/// Parses a FEN or EPD argument as `validation` says, ignoring its operations.
pub fn position_of_with(text: &str, validation: Validation) -> Result<Position, String> {
    parse_position_with(text, validation).map(|arg| arg.position)
}

/// The first whitespace-separated token of `text` and what follows it.
fn next_token(text: &str) -> Option<(&str, &str)> {
    let text = text.trim_start();
    if text.is_empty() || text.starts_with(';') {
        return None;
    }
    let end = text.find(char::is_whitespace).unwrap_or(text.len());
    Some((&text[..end], &text[end..]))
}

/// EPD operations: `opcode operand ...;`, `;` outside double quotes ending each; or, as perft
/// suites write them, each after a `;` (`FEN ;D1 20 ;D2 400`). Opcodes start with a letter and
/// hold letters, digits and `_`. Anything else (`FEN x y`, a misspelt clock) is an error.
fn parse_operations(text: &str) -> Result<Vec<Operation>, String> {
    let trimmed = text.trim();
    if !trimmed.is_empty() && !trimmed.starts_with(';') && !trimmed.ends_with(';') {
        return Err(format!(
            "{trimmed:?}: neither FEN clocks nor EPD operations (`opcode operands;`)"
        ));
    }
    let mut operations = Vec::new();
    let mut current = String::new();
    let mut quoted = false;
    let mut push = |op: &str| {
        let op = op.trim();
        if op.is_empty() {
            return;
        }
        let (opcode, operands) = op.split_once(char::is_whitespace).unwrap_or((op, ""));
        operations.push(Operation {
            opcode: opcode.to_string(),
            operands: operands.trim().to_string(),
        });
    };
    for c in text.chars() {
        match c {
            '"' => {
                quoted = !quoted;
                current.push(c);
            }
            ';' if !quoted => {
                push(&current);
                current.clear();
            }
            c => current.push(c),
        }
    }
    if quoted {
        return Err(format!("EPD operations {:?}: unclosed quote", text.trim()));
    }
    push(&current);
    for op in &operations {
        let mut chars = op.opcode.chars();
        let valid = chars.next().is_some_and(|c| c.is_ascii_alphabetic())
            && chars.all(|c| c.is_ascii_alphanumeric() || c == '_');
        if !valid {
            return Err(format!("EPD operation {:?}: not an opcode", op.opcode));
        }
    }
    Ok(operations)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_position(text: &str) -> Result<PositionArg, String> {
        parse_position_with(text, Validation::Game)
    }

    const START_EPD: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -";

    #[test]
    fn fen_and_epd_forms() {
        let start = Position::startpos();
        for text in [
            format!("{START_EPD} 0 1"),
            START_EPD.to_string(),
            format!("{START_EPD} bm e4; id \"start; pos\";"),
            format!("{START_EPD} ;D1 20 ;D2 400"),
            format!("{START_EPD} 0 1 ;D1 20"),
        ] {
            let arg = parse_position(&text).unwrap();
            assert_eq!(arg.position.fen(), start.fen(), "{text}");
        }
        let arg = parse_position(&format!("{START_EPD} bm e4; id \"start; pos\";")).unwrap();
        let ops: Vec<(&str, &str)> = arg
            .operations
            .iter()
            .map(|op| (op.opcode.as_str(), op.operands.as_str()))
            .collect();
        assert_eq!(ops, [("bm", "e4"), ("id", "\"start; pos\"")]);
        let arg = parse_position(&format!("{START_EPD} hmvc 7; fmvn 12;")).unwrap();
        assert_eq!((arg.position.halfmove_clock(), arg.position.fullmove_number()), (7, 12));
    }

    #[test]
    fn impossible_positions_need_the_flag() {
        // Nine white pawns.
        let fen = "4k3/8/8/8/8/P7/PPPPPPPP/4K3 w - - 0 1";
        let error = parse_position(fen).unwrap_err();
        assert!(error.contains("more material than a game can give") && error.contains("--allow-impossible"));
        let flag = ValidationArg { allow_impossible: true };
        assert_eq!(position_of_with(fen, flag.validation()).unwrap().fen(), fen);
        assert!(position_of_with(fen, ValidationArg::default().validation()).is_err());
    }

    #[test]
    fn bad_positions_are_errors() {
        for text in [
            "",
            "not a fen",
            "8/8/8 w - -",
            &format!("{START_EPD} id \"open;"),
            &format!("{START_EPD} x y"),
            &format!("{START_EPD} 0 x"),
            &format!("{START_EPD} 1x;"),
        ] {
            assert!(parse_position(text).is_err(), "{text:?}");
        }
    }
}
