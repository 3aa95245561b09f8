//! EPD: a position (the first four FEN fields) and operations, `opcode operands;`, as test suites
//! write them: `bm` / `am` (best and avoided moves, in SAN), `id`, `c0`–`c9` (comments), `acd`
//! (depth), `ce` (centipawn evaluation), `pv`, `D1`, `D2`, ... (perft counts), any other opcode
//! kept with its operands as written.
//!
//! Read leniently: the FEN clocks may follow the four fields (`... w KQkq - 0 1`), and an
//! operation may start with a `;` instead of ending with one (`;D1 20 ;D2 400`, as perft suites
//! write). String operands are in double quotes, `\"` and `\\` escaped, and may hold `;`.

use core::fmt;

use super::fen::{CastlingNotation, FenError};
use super::san::InvalidSan;
use crate::moves::Move;
use crate::position::{Position, Validation};

/// One operand of an [`Operation`].
///
/// ```
/// use chessbits::notation::epd::Operand;
/// assert_eq!(Operand::Quoted("a \"b\"".into()).to_string(), r#""a \"b\"""#);
/// assert_eq!(Operand::Word("Nf3".into()).as_str(), "Nf3");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Operand {
    /// A string in double quotes (unescaped here; written back with its escapes).
    Quoted(String),
    /// A token without quotes: a move, a number, a name.
    Word(String),
}

impl Operand {
    /// The text (a string without its quotes and escapes).
    ///
    /// ```
    /// assert_eq!(chessbits::notation::epd::Operand::Quoted("x y".into()).as_str(), "x y");
    /// ```
    pub fn as_str(&self) -> &str {
        match self {
            Operand::Quoted(text) | Operand::Word(text) => text,
        }
    }
}

impl fmt::Display for Operand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Operand::Word(text) => f.write_str(text),
            Operand::Quoted(text) => {
                f.write_str("\"")?;
                for c in text.chars() {
                    if c == '"' || c == '\\' {
                        f.write_str("\\")?;
                    }
                    write!(f, "{c}")?;
                }
                f.write_str("\"")
            }
        }
    }
}

/// One operation: an opcode and its operands.
///
/// ```
/// use chessbits::notation::epd::{Operand, Operation};
/// let op = Operation::new("bm", [Operand::Word("e4".into()), Operand::Word("d4".into())]);
/// assert_eq!(op.to_string(), "bm e4 d4;");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Operation {
    /// The opcode: a letter, then letters, digits and `_`.
    pub opcode: String,
    /// The operands, in order.
    pub operands: Vec<Operand>,
}

impl Operation {
    /// An operation.
    ///
    /// ```
    /// use chessbits::notation::epd::{Operand, Operation};
    /// assert_eq!(Operation::new("id", [Operand::Quoted("x".into())]).opcode, "id");
    /// ```
    pub fn new(opcode: &str, operands: impl IntoIterator<Item = Operand>) -> Operation {
        Operation {
            opcode: opcode.to_string(),
            operands: operands.into_iter().collect(),
        }
    }
}

impl fmt::Display for Operation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.opcode)?;
        for operand in &self.operands {
            write!(f, " {operand}")?;
        }
        f.write_str(";")
    }
}

/// Why an EPD line does not parse.
///
/// ```
/// use chessbits::notation::epd::{Epd, EpdError};
/// let error = Epd::parse("8/8/8/4k3/8/8/8/4K3 w - - bm;").unwrap_err();
/// assert_eq!(error, EpdError::MissingOperand("bm".into()));
/// assert_eq!(error.to_string(), "operation 'bm' has no operand");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum EpdError {
    /// Fewer than the four position fields.
    MissingFields,
    /// The position fields are not a valid position.
    Fen(FenError),
    /// An opcode that is not a letter followed by letters, digits and `_`.
    InvalidOpcode(String),
    /// An opcode that needs operands (`bm`, `id`, `acd`, `D1`, ...) without any.
    MissingOperand(String),
    /// A string operand without its closing quote.
    UnterminatedString,
}

impl fmt::Display for EpdError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EpdError::MissingFields => f.write_str("fewer than four position fields"),
            EpdError::Fen(error) => write!(f, "invalid position: {error}"),
            EpdError::InvalidOpcode(opcode) => write!(f, "invalid opcode '{opcode}'"),
            EpdError::MissingOperand(opcode) => write!(f, "operation '{opcode}' has no operand"),
            EpdError::UnterminatedString => f.write_str("string operand without its closing quote"),
        }
    }
}

impl std::error::Error for EpdError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            EpdError::Fen(error) => Some(error),
            _ => None,
        }
    }
}

/// An EPD line: a position and its operations.
///
/// `Display` writes it back: the four fields (and the clocks, if not `0 1`; Shredder castling
/// letters for Chess960), then `opcode operands;` for each operation, strings quoted.
///
/// ```
/// use chessbits::notation::epd::Epd;
/// use chessbits::Square;
///
/// let line = r#"r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - bm Bb5 Bc4; id "test \"1\"; ok";"#;
/// let epd = Epd::parse(line).unwrap();
/// assert_eq!(epd.id(), Some("test \"1\"; ok"));
/// let best = epd.bm().unwrap().unwrap();
/// assert_eq!(best[0].to(), Square::B5);
/// assert_eq!(epd.to_string(), line);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Epd {
    /// The position (clocks `0 1` unless the line gave them).
    pub position: Position,
    /// The operations, in order.
    pub operations: Vec<Operation>,
}

impl Epd {
    /// Parses an EPD line (see the [module](self) for what is accepted).
    ///
    /// ```
    /// use chessbits::notation::epd::Epd;
    /// let epd = Epd::parse("4k3/8/8/8/8/8/8/4K2R w K - 0 1 ;D1 15 ;D2 66").unwrap();
    /// assert_eq!(epd.operations.len(), 2);
    /// assert_eq!(epd.operations[1].opcode, "D2");
    /// ```
    pub fn parse(line: &str) -> Result<Epd, EpdError> {
        Epd::parse_with(line, Validation::Game)
    }

    /// Parses an EPD line, validating its position as `validation` says: test suites hold
    /// composed positions too (see [`Position::from_setup_with`]).
    ///
    /// ```
    /// use chessbits::notation::epd::Epd;
    /// use chessbits::position::Validation;
    /// // 270 legal moves, and far more queens than promotions give.
    /// let line = "kBQQQQQQ/BR5Q/Q6Q/Q6Q/Q6Q/Q6Q/Q6Q/KQQQQQQQ w - - ;D1 270";
    /// assert!(Epd::parse(line).is_err());
    /// assert_eq!(Epd::parse_with(line, Validation::Composed).unwrap().perft(1), Some(270));
    /// ```
    pub fn parse_with(line: &str, validation: Validation) -> Result<Epd, EpdError> {
        let (fen, operations) = split(line)?;
        let position = Position::from_fen_with(fen, validation).map_err(EpdError::Fen)?;
        Ok(Epd { position, operations })
    }

    /// The first operation with this opcode.
    ///
    /// ```
    /// use chessbits::notation::epd::Epd;
    /// let epd = Epd::parse("8/8/8/4k3/8/8/8/4K3 w - - xyz 1 \"two\";").unwrap();
    /// assert_eq!(epd.operation("xyz").unwrap().operands.len(), 2);
    /// ```
    pub fn operation(&self, opcode: &str) -> Option<&Operation> {
        self.operations.iter().find(|op| op.opcode == opcode)
    }

    /// The first operand of the first operation with this opcode, as text.
    fn first(&self, opcode: &str) -> Option<&str> {
        self.operation(opcode)?.operands.first().map(Operand::as_str)
    }

    /// The `id`.
    ///
    /// ```
    /// use chessbits::notation::epd::Epd;
    /// assert_eq!(Epd::parse("8/8/8/4k3/8/8/8/4K3 w - - id \"WAC.001\";").unwrap().id(), Some("WAC.001"));
    /// ```
    pub fn id(&self) -> Option<&str> {
        self.first("id")
    }

    /// The comment `c0` to `c9` (`n` above 9: `None`).
    ///
    /// ```
    /// use chessbits::notation::epd::Epd;
    /// let epd = Epd::parse("8/8/8/4k3/8/8/8/4K3 w - - c0 \"drawn\"; c9 \"x\";").unwrap();
    /// assert_eq!((epd.comment(0), epd.comment(9), epd.comment(1)), (Some("drawn"), Some("x"), None));
    /// ```
    pub fn comment(&self, n: u8) -> Option<&str> {
        (n <= 9).then(|| self.first(&format!("c{n}"))).flatten()
    }

    /// The best moves (`bm`), each a SAN resolved in the position.
    ///
    /// ```
    /// use chessbits::notation::epd::Epd;
    /// let epd = Epd::parse("4k3/8/8/8/8/8/8/R3K3 w - - bm Ra8+;").unwrap();
    /// assert_eq!(epd.bm().unwrap().unwrap()[0].to_string(), "a1a8");
    /// assert!(Epd::parse("4k3/8/8/8/8/8/8/R3K3 w - - bm Rb9;").unwrap().bm().unwrap().is_err());
    /// ```
    pub fn bm(&self) -> Option<Result<Vec<Move>, InvalidSan>> {
        self.moves("bm")
    }

    /// The moves to avoid (`am`), each a SAN resolved in the position.
    ///
    /// ```
    /// use chessbits::notation::epd::Epd;
    /// let epd = Epd::parse("4k3/8/8/8/8/8/8/R3K3 w - - am Kd2 Kf2;").unwrap();
    /// assert_eq!(epd.am().unwrap().unwrap().len(), 2);
    /// ```
    pub fn am(&self) -> Option<Result<Vec<Move>, InvalidSan>> {
        self.moves("am")
    }

    /// The principal variation (`pv`): SAN moves played one after the other from the position.
    ///
    /// ```
    /// use chessbits::notation::epd::Epd;
    /// let epd = Epd::parse("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - pv e4 e5 Nf3;").unwrap();
    /// assert_eq!(epd.pv().unwrap().unwrap().len(), 3);
    /// ```
    pub fn pv(&self) -> Option<Result<Vec<Move>, InvalidSan>> {
        let op = self.operation("pv")?;
        let mut pos = self.position.clone();
        Some(op.operands.iter().map(|o| pos.play_san(o.as_str())).collect())
    }

    fn moves(&self, opcode: &str) -> Option<Result<Vec<Move>, InvalidSan>> {
        let op = self.operation(opcode)?;
        Some(
            op.operands
                .iter()
                .map(|o| self.position.parse_san(o.as_str()))
                .collect(),
        )
    }

    /// The analysis depth (`acd`), if it is a number.
    ///
    /// ```
    /// use chessbits::notation::epd::Epd;
    /// assert_eq!(Epd::parse("8/8/8/4k3/8/8/8/4K3 w - - acd 22;").unwrap().acd(), Some(22));
    /// ```
    pub fn acd(&self) -> Option<u32> {
        self.first("acd")?.parse().ok()
    }

    /// The centipawn evaluation (`ce`), from the side to move, if it is a number.
    ///
    /// ```
    /// use chessbits::notation::epd::Epd;
    /// assert_eq!(Epd::parse("8/8/8/4k3/8/8/8/4K3 w - - ce -15;").unwrap().ce(), Some(-15));
    /// ```
    pub fn ce(&self) -> Option<i32> {
        self.first("ce")?.parse().ok()
    }

    /// The perft count for `depth` (`D1 20`, `D2 400`, ...), if it is a number.
    ///
    /// ```
    /// use chessbits::notation::epd::Epd;
    /// let epd = Epd::parse("4k3/8/8/8/8/8/8/4K2R w K - 0 1 ;D1 15 ;D2 66").unwrap();
    /// assert_eq!((epd.perft(2), epd.perft(3)), (Some(66), None));
    /// ```
    pub fn perft(&self, depth: u32) -> Option<u64> {
        self.first(&format!("D{depth}"))?.parse().ok()
    }
}

impl fmt::Display for Epd {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let pos = &self.position;
        let notation = match pos.is_chess960() {
            true => CastlingNotation::Shredder,
            false => CastlingNotation::XFen,
        };
        let fen = pos.fen_with(notation);
        let fields = match (pos.halfmove_clock(), pos.fullmove_number()) {
            (0, 1) => 4,
            _ => 6,
        };
        for (i, field) in fen.split(' ').take(fields).enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            f.write_str(field)?;
        }
        for op in &self.operations {
            write!(f, " {op}")?;
        }
        Ok(())
    }
}

impl core::str::FromStr for Epd {
    type Err = EpdError;
    fn from_str(line: &str) -> Result<Epd, EpdError> {
        Epd::parse(line)
    }
}

/// Opcodes that take at least one operand.
fn needs_operand(opcode: &str) -> bool {
    let numbered = |prefix: char| {
        opcode
            .strip_prefix(prefix)
            .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
    };
    matches!(
        opcode,
        "bm" | "am" | "id" | "acd" | "acn" | "acs" | "ce" | "dm" | "fmvn" | "hmvc" | "pm" | "pv" | "sm" | "sv"
    ) || numbered('c')
        || numbered('v')
        || numbered('D')
}

/// An EPD line cut into its position text (the four fields and the clocks if given, as written)
/// and its operations: the one EPD syntax, shared with the perft suites.
pub(crate) fn split(line: &str) -> Result<(&str, Vec<Operation>), EpdError> {
    let line = line.trim();
    let mut rest = line;
    let mut fields = 0;
    // The four fields, then up to two numbers (the clocks).
    while fields < 6 {
        let trimmed = rest.trim_start();
        let len = trimmed
            .find(|c: char| c.is_whitespace() || c == ';')
            .unwrap_or(trimmed.len());
        let word = &trimmed[..len];
        let is_clock = !word.is_empty() && word.bytes().all(|b| b.is_ascii_digit());
        if word.is_empty() || (fields >= 4 && !is_clock) {
            break;
        }
        rest = &trimmed[len..];
        fields += 1;
    }
    if fields < 4 {
        return Err(EpdError::MissingFields);
    }
    let fen = line[..line.len() - rest.len()].trim_start();
    Ok((fen, operations(rest)?))
}

/// The operations of the text after the position.
fn operations(mut rest: &str) -> Result<Vec<Operation>, EpdError> {
    let mut operations = Vec::new();
    loop {
        rest = rest.trim_start_matches(|c: char| c.is_whitespace() || c == ';');
        if rest.is_empty() {
            return Ok(operations);
        }
        let len = rest.find(|c: char| c.is_whitespace() || c == ';').unwrap_or(rest.len());
        let opcode = &rest[..len];
        rest = &rest[len..];
        let valid = opcode.starts_with(|c: char| c.is_ascii_alphabetic())
            && opcode.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_');
        if !valid {
            return Err(EpdError::InvalidOpcode(opcode.to_string()));
        }
        let mut operands = Vec::new();
        loop {
            rest = rest.trim_start();
            if let Some(after) = rest.strip_prefix(';') {
                rest = after;
                break;
            }
            if rest.is_empty() {
                break;
            }
            if let Some(quoted) = rest.strip_prefix('"') {
                let (text, after) = quoted_string(quoted)?;
                operands.push(Operand::Quoted(text));
                rest = after;
            } else {
                let len = rest.find(|c: char| c.is_whitespace() || c == ';').unwrap_or(rest.len());
                operands.push(Operand::Word(rest[..len].to_string()));
                rest = &rest[len..];
            }
        }
        if operands.is_empty() && needs_operand(opcode) {
            return Err(EpdError::MissingOperand(opcode.to_string()));
        }
        operations.push(Operation {
            opcode: opcode.to_string(),
            operands,
        });
    }
}

/// A string after its opening quote: the unescaped text and what follows the closing quote.
fn quoted_string(text: &str) -> Result<(String, &str), EpdError> {
    let mut out = String::new();
    let mut chars = text.char_indices();
    while let Some((i, c)) = chars.next() {
        match c {
            '"' => return Ok((out, &text[i + 1..])),
            '\\' => match chars.next() {
                Some((_, c @ ('"' | '\\'))) => out.push(c),
                Some((_, c)) => {
                    out.push('\\');
                    out.push(c);
                }
                None => out.push('\\'),
            },
            c => out.push(c),
        }
    }
    Err(EpdError::UnterminatedString)
}

#[cfg(test)]
mod tests {
    use super::*;

    const EMPTY: &str = "8/8/8/4k3/8/8/8/4K3 w - -";

    #[test]
    fn strings_semicolons_and_escapes() {
        let line = format!(r#"{EMPTY} c0 "a; b" "c \\ \"d\""; c1 "";noop;"#);
        let epd = Epd::parse(&line).unwrap();
        assert_eq!(epd.comment(0), Some("a; b"));
        assert_eq!(epd.operations[0].operands[1].as_str(), r#"c \ "d""#);
        assert_eq!(epd.comment(1), Some(""));
        assert_eq!(epd.operations[2].opcode, "noop");
        assert_eq!(
            epd.to_string(),
            format!(r#"{EMPTY} c0 "a; b" "c \\ \"d\""; c1 ""; noop;"#)
        );
        assert_eq!(Epd::parse(&epd.to_string()).unwrap(), epd);
    }

    #[test]
    fn errors() {
        let cases = [
            ("8/8/8/4k3/8/8/8/4K3 w -", EpdError::MissingFields),
            (&format!("{EMPTY} id \"open"), EpdError::UnterminatedString),
            (&format!("{EMPTY} bm ;"), EpdError::MissingOperand("bm".into())),
            (&format!("{EMPTY} D3"), EpdError::MissingOperand("D3".into())),
            (&format!("{EMPTY} c5;"), EpdError::MissingOperand("c5".into())),
            (&format!("{EMPTY} 1x 2;"), EpdError::InvalidOpcode("1x".into())),
            (&format!("{EMPTY} \"x\";"), EpdError::InvalidOpcode("\"x\"".into())),
        ];
        for (line, expected) in cases {
            assert_eq!(Epd::parse(line), Err(expected), "{line}");
        }
        assert!(matches!(
            Epd::parse("8/8/8/8/8/8/8/8 w - - id x;"),
            Err(EpdError::Fen(_))
        ));
    }

    #[test]
    fn clocks_are_kept_when_given() {
        let epd = Epd::parse("4k3/8/8/8/8/8/8/4K2R w K - 3 40 ;D1 15").unwrap();
        assert_eq!((epd.position.halfmove_clock(), epd.position.fullmove_number()), (3, 40));
        assert_eq!(epd.to_string(), "4k3/8/8/8/8/8/8/4K2R w K - 3 40 D1 15;");
        let split = split("4k3/8/8/8/8/8/8/4K2R w K - 3 40 ;D1 15").unwrap();
        assert_eq!(split.0, "4k3/8/8/8/8/8/8/4K2R w K - 3 40");
        assert_eq!(split.1.len(), 1);
    }

    #[test]
    fn bad_moves_are_typed_errors() {
        let epd = Epd::parse(&format!("{EMPTY} bm Qd1; pv Kd2 Kd7 Kd7;")).unwrap();
        assert!(epd.bm().unwrap().is_err());
        assert!(epd.pv().unwrap().is_err(), "Kd7 twice");
        assert!(epd.am().is_none());
    }
}
