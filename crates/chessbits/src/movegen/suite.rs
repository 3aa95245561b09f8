//! Perft suites: EPD lines (`FEN ;D1 20 ;D2 400`) and `.perft` blocks (`id`, `epd`, `perft d n`).

use core::fmt;

use super::MAX_PERFT_DEPTH;
use crate::notation::epd::split;

/// One position of a suite with its expected node counts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PerftCase {
    /// The `id` of a `.perft` block, or the line number of an EPD line.
    pub id: String,
    /// The position, as written in the suite (FEN or EPD).
    pub fen: String,
    /// (depth, nodes) pairs in file order; every depth is at most [`MAX_PERFT_DEPTH`].
    pub expected: Vec<(u32, u64)>,
}

/// A malformed suite line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SuiteError {
    /// 1-based line number.
    pub line: usize,
    /// What is wrong, for people.
    pub message: String,
    /// What is wrong, for programs.
    pub kind: SuiteErrorKind,
}

/// The kinds of [`SuiteError`].
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum SuiteErrorKind {
    /// The line does not follow the suite format.
    Syntax,
    /// An expected count for a depth above [`MAX_PERFT_DEPTH`], which perft refuses to run.
    DepthTooLarge {
        /// The depth on the line.
        depth: u32,
    },
}

impl SuiteError {
    fn syntax(line: usize, message: String) -> SuiteError {
        SuiteError {
            line,
            message,
            kind: SuiteErrorKind::Syntax,
        }
    }
}

impl fmt::Display for SuiteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for SuiteError {}

/// Parses either suite format, told apart by content: `.perft` files have `epd` lines.
///
/// ```
/// use chessbits::movegen::suite::parse_suite;
/// let cases = parse_suite("4k3/8/8/8/8/8/8/4K2R w K - 0 1 ;D1 15 ;D2 66\n").unwrap();
/// assert_eq!(cases[0].expected, vec![(1, 15), (2, 66)]);
/// let cases = parse_suite("id kiwi\nepd 4k3/8/8/8/8/8/8/4K2R w K -\nperft 1 15\n").unwrap();
/// assert_eq!(cases[0].id, "kiwi");
/// ```
pub fn parse_suite(text: &str) -> Result<Vec<PerftCase>, SuiteError> {
    let is_perft_format = text.lines().any(|l| l.trim_start().starts_with("epd "));
    if is_perft_format {
        parse_perft_blocks(text)
    } else {
        parse_epd_lines(text)
    }
}

fn number<T: core::str::FromStr>(text: &str, line: usize) -> Result<T, SuiteError> {
    text.trim()
        .parse()
        .map_err(|_| SuiteError::syntax(line, format!("expected a number, found {text:?}")))
}

/// The `depth nodes` pair of a `Dn count` entry or `perft d n` line.
fn depth_and_nodes(text: &str, line: usize) -> Result<(u32, u64), SuiteError> {
    let mut words = text.split_whitespace();
    let depth = number(words.next().unwrap_or(""), line)?;
    let nodes = number(words.next().unwrap_or(""), line)?;
    if depth > MAX_PERFT_DEPTH {
        return Err(SuiteError {
            line,
            message: format!("depth {depth} is above the maximum perft depth of {MAX_PERFT_DEPTH}"),
            kind: SuiteErrorKind::DepthTooLarge { depth },
        });
    }
    Ok((depth, nodes))
}

/// EPD lines, read by [`epd`](crate::notation::epd)'s parser; every operation must be a `Dn count`.
fn parse_epd_lines(text: &str) -> Result<Vec<PerftCase>, SuiteError> {
    let mut cases = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line_no = i + 1;
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (fen, operations) = split(line).map_err(|e| SuiteError::syntax(line_no, e.to_string()))?;
        let mut expected = Vec::new();
        for op in operations {
            let depth = op
                .opcode
                .strip_prefix('D')
                .filter(|d| d.bytes().all(|b| b.is_ascii_digit()));
            let (Some(depth), [nodes]) = (depth, &op.operands[..]) else {
                return Err(SuiteError::syntax(
                    line_no,
                    format!("expected Dn count, found {:?}", op.to_string()),
                ));
            };
            expected.push(depth_and_nodes(&format!("{depth} {}", nodes.as_str()), line_no)?);
        }
        cases.push(PerftCase {
            id: line_no.to_string(),
            fen: fen.to_string(),
            expected,
        });
    }
    Ok(cases)
}

fn parse_perft_blocks(text: &str) -> Result<Vec<PerftCase>, SuiteError> {
    let mut cases: Vec<PerftCase> = Vec::new();
    let mut id = String::new();
    for (i, line) in text.lines().enumerate() {
        let line_no = i + 1;
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (keyword, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        match keyword {
            "id" => id = rest.trim().to_string(),
            "epd" => cases.push(PerftCase {
                id: id.clone(),
                fen: rest.trim().to_string(),
                expected: Vec::new(),
            }),
            "perft" => {
                let case = cases
                    .last_mut()
                    .ok_or_else(|| SuiteError::syntax(line_no, "perft before any epd".into()))?;
                case.expected.push(depth_and_nodes(rest, line_no)?);
            }
            other => return Err(SuiteError::syntax(line_no, format!("unknown keyword {other:?}"))),
        }
    }
    Ok(cases)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn depth_above_the_maximum_is_a_typed_error() {
        let deep = MAX_PERFT_DEPTH + 1;
        let epd = format!("8/8/8/4k3/8/8/8/4K3 w - - 0 1 ;D1 8 ;D{deep} 1\n");
        let err = parse_suite(&epd).unwrap_err();
        assert_eq!(err.kind, SuiteErrorKind::DepthTooLarge { depth: deep });
        assert_eq!(err.line, 1);
        assert!(err.to_string().contains("above the maximum"), "{err}");

        let perft = "id bare\nepd 8/8/8/4k3/8/8/8/4K3 w - -\nperft 1 8\nperft 5000 1\n";
        let err = parse_suite(perft).unwrap_err();
        assert_eq!(err.kind, SuiteErrorKind::DepthTooLarge { depth: 5000 });
        assert_eq!(err.line, 4);
    }

    #[test]
    fn the_maximum_depth_itself_parses() {
        let epd = format!("8/8/8/4k3/8/8/8/4K3 w - - 0 1 ;D{MAX_PERFT_DEPTH} 1\n");
        assert_eq!(parse_suite(&epd).unwrap()[0].expected, vec![(MAX_PERFT_DEPTH, 1)]);
    }

    #[test]
    fn syntax_errors_are_syntax() {
        let err = parse_suite("8/8/8/4k3/8/8/8/4K3 w - - 0 1 ;X1 8\n").unwrap_err();
        assert_eq!(err.kind, SuiteErrorKind::Syntax);
    }
}
