//! Perft suites: EPD lines (`FEN ;D1 20 ;D2 400`) and `.perft` blocks (`id`, `epd`, `perft d n`).

use core::fmt;

/// One position of a suite with its expected node counts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PerftCase {
    /// The `id` of a `.perft` block, or the line number of an EPD line.
    pub id: String,
    pub fen: String,
    /// (depth, nodes) pairs in file order.
    pub expected: Vec<(u32, u64)>,
}

/// A malformed suite line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SuiteError {
    pub line: usize,
    pub message: String,
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
    text.trim().parse().map_err(|_| SuiteError {
        line,
        message: format!("expected a number, found {text:?}"),
    })
}

fn parse_epd_lines(text: &str) -> Result<Vec<PerftCase>, SuiteError> {
    let mut cases = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line_no = i + 1;
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut parts = line.split(';');
        let fen = parts.next().unwrap_or("").trim().to_string();
        let mut expected = Vec::new();
        for part in parts {
            let part = part.trim();
            let Some(rest) = part.strip_prefix('D') else {
                return Err(SuiteError {
                    line: line_no,
                    message: format!("expected Dn count, found {part:?}"),
                });
            };
            let mut words = rest.split_whitespace();
            let depth = number(words.next().unwrap_or(""), line_no)?;
            let nodes = number(words.next().unwrap_or(""), line_no)?;
            expected.push((depth, nodes));
        }
        cases.push(PerftCase {
            id: line_no.to_string(),
            fen,
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
                let case = cases.last_mut().ok_or(SuiteError {
                    line: line_no,
                    message: "perft before any epd".into(),
                })?;
                let mut words = rest.split_whitespace();
                let depth = number(words.next().unwrap_or(""), line_no)?;
                let nodes = number(words.next().unwrap_or(""), line_no)?;
                case.expected.push((depth, nodes));
            }
            other => {
                return Err(SuiteError {
                    line: line_no,
                    message: format!("unknown keyword {other:?}"),
                })
            }
        }
    }
    Ok(cases)
}
