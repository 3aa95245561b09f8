//! Parsing the arguments of `position`, `go` and `setoption`.

use chessbits::game::Game;
use chessbits::notation::uci::parse_uci;
use chessbits::position::{Position, Validation};

use crate::time::Clock;

/// `position startpos|fen F [moves M...]` → the game, or a message for `info string`.
///
/// ```
/// use chessbits_engine::uci::parse::parse_position;
/// let game = parse_position(&["startpos", "moves", "e2e4", "e7e5"], false).unwrap();
/// assert_eq!(game.len(), 2);
/// assert!(parse_position(&["startpos", "moves", "e2e5"], false).is_err());
/// assert!(parse_position(&["fen", "bad"], false).is_err());
/// assert!(parse_position(&["fen", "8/8/8/8/8/8/8/K6k", "w", "-", "-", "0", "0"], false).is_ok());
/// // A composed position (a triple check: no game reaches it) is searched too.
/// assert!(parse_position(&["fen", "4k3/8/3N4/8/B3R3/8/8/4K3", "b", "-", "-", "0", "1"], false).is_ok());
/// ```
pub fn parse_position(args: &[&str], chess960: bool) -> Result<Game, String> {
    let moves_at = args.iter().position(|&t| t == "moves").unwrap_or(args.len());
    let (setup, moves) = args.split_at(moves_at);
    let mut start = match setup.first() {
        Some(&"startpos") if setup.len() == 1 => Position::startpos(),
        Some(&"fen") if setup.len() > 1 => {
            let fen = setup[1..].join(" ");
            // Some GUIs and puzzle files write fullmove number 0: read it as 1.
            let mut fields: Vec<&str> = setup[1..].to_vec();
            if fields.len() == 6 && fields[5] == "0" {
                fields[5] = "1";
            }
            // A GUI sends composed studies and problems for analysis too (nine pawns, a triple
            // check): the engine searches any position whose rules it can apply.
            Position::from_fen_with(&fields.join(" "), Validation::Composed)
                .map_err(|e| format!("invalid FEN '{fen}': {e}"))?
        }
        _ => return Err(format!("expected 'startpos' or 'fen <FEN>', got '{}'", setup.join(" "))),
    };
    start.set_chess960(chess960 || start.is_chess960());
    let mut game = Game::from_position(start);
    for &text in moves.iter().skip(1) {
        let m = parse_uci(game.position(), text)
            .map_err(|_| format!("illegal move '{text}' in position {}", game.position().fen()))?;
        game.push(m)
            .map_err(|_| format!("illegal move '{text}' in position {}", game.position().fen()))?;
    }
    Ok(game)
}

/// The arguments of `go`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GoArgs {
    /// White's remaining time (ms).
    pub wtime: Option<u64>,
    /// Black's remaining time (ms).
    pub btime: Option<u64>,
    /// White's increment (ms).
    pub winc: u64,
    /// Black's increment (ms).
    pub binc: u64,
    /// Moves to the next time control.
    pub movestogo: Option<u64>,
    /// Fixed time for this move (ms).
    pub movetime: Option<u64>,
    /// Deepest iteration.
    pub depth: Option<i32>,
    /// Node limit.
    pub nodes: Option<u64>,
    /// Find a mate in this many moves.
    pub mate: Option<i32>,
    /// Search until `stop`.
    pub infinite: bool,
    /// A ponder search: no clock until `ponderhit`.
    pub ponder: bool,
    /// Root moves to consider, as given (checked against the position later).
    pub searchmoves: Vec<String>,
    /// `go perft N`.
    pub perft: Option<u32>,
}

impl GoArgs {
    /// The clock of the side `white_to_move`.
    pub fn clock(&self, white_to_move: bool) -> Clock {
        let (time, inc) = if white_to_move {
            (self.wtime, self.winc)
        } else {
            (self.btime, self.binc)
        };
        Clock {
            time,
            inc,
            movestogo: self.movestogo,
            movetime: self.movetime,
        }
    }
}

const GO_KEYWORDS: [&str; 14] = [
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "movetime",
    "depth",
    "nodes",
    "mate",
    "infinite",
    "ponder",
    "searchmoves",
    "perft",
    "multipv",
];

/// Parses `go` arguments; an unknown word or a bad number is an error message.
///
/// ```
/// use chessbits_engine::uci::parse::parse_go;
/// let go = parse_go(&["wtime", "1000", "btime", "900", "searchmoves", "e2e4", "d2d4", "depth", "5"]).unwrap();
/// assert_eq!((go.wtime, go.depth), (Some(1000), Some(5)));
/// assert_eq!(go.searchmoves, ["e2e4", "d2d4"]);
/// assert!(parse_go(&["depth", "x"]).is_err());
/// ```
pub fn parse_go(args: &[&str]) -> Result<GoArgs, String> {
    let mut go = GoArgs::default();
    let mut i = 0;
    fn number<T: std::str::FromStr>(args: &[&str], i: usize) -> Result<T, String> {
        let word = args.get(i + 1).copied().unwrap_or("");
        // Some GUIs send negative times when a clock ran out; read them as 0.
        if word.starts_with('-') && word[1..].chars().all(|c| c.is_ascii_digit()) && word.len() > 1 {
            return "0".parse().map_err(|_| String::new());
        }
        word.parse()
            .map_err(|_| format!("'{}' needs a number, got '{word}'", args[i]))
    }
    while i < args.len() {
        match args[i] {
            "wtime" => go.wtime = Some(number(args, i)?),
            "btime" => go.btime = Some(number(args, i)?),
            "winc" => go.winc = number(args, i)?,
            "binc" => go.binc = number(args, i)?,
            "movestogo" => go.movestogo = Some(number(args, i)?),
            "movetime" => go.movetime = Some(number(args, i)?),
            "depth" => go.depth = Some(number(args, i)?),
            "nodes" => go.nodes = Some(number(args, i)?),
            "mate" => go.mate = Some(number(args, i)?),
            "perft" => go.perft = Some(number(args, i)?),
            "infinite" => {
                go.infinite = true;
                i += 1;
                continue;
            }
            "ponder" => {
                go.ponder = true;
                i += 1;
                continue;
            }
            "searchmoves" => {
                i += 1;
                while i < args.len() && !GO_KEYWORDS.contains(&args[i]) {
                    go.searchmoves.push(args[i].to_string());
                    i += 1;
                }
                continue;
            }
            other => return Err(format!("unknown go argument '{other}'")),
        }
        i += 2;
    }
    Ok(go)
}

/// `setoption name N [value V]` → (name, value); names may hold spaces.
///
/// ```
/// use chessbits_engine::uci::parse::parse_setoption;
/// assert_eq!(parse_setoption(&["name", "Move", "Overhead", "value", "100"]),
///            Some(("Move Overhead".to_string(), "100".to_string())));
/// ```
pub fn parse_setoption(args: &[&str]) -> Option<(String, String)> {
    if args.first() != Some(&"name") {
        return None;
    }
    let value_at = args.iter().position(|&t| t == "value").unwrap_or(args.len());
    let name = args[1..value_at].join(" ");
    let value = args.get(value_at + 1..).map(|v| v.join(" ")).unwrap_or_default();
    (!name.is_empty()).then_some((name, value))
}

/// The value of a `setoption name BookFile value V` line as raw bytes: `V` from its first to
/// its last non-blank byte, unchanged (inner spaces kept, not UTF-8 checked), empty without
/// `value`; `None` for any other line. The name is matched case-insensitively, as UCI says.
///
/// ```
/// use chessbits_engine::uci::parse::book_file_value;
/// assert_eq!(book_file_value(b"setoption name bookfile value a  b\xe9.bin \r"), Some(&b"a  b\xe9.bin"[..]));
/// assert_eq!(book_file_value(b"setoption name BookFile"), Some(&b""[..]));
/// assert_eq!(book_file_value(b"setoption name Hash value 16"), None);
/// ```
pub fn book_file_value(line: &[u8]) -> Option<&[u8]> {
    let mut tokens = Vec::new();
    let mut start = None;
    for (i, &b) in line.iter().chain(b" ").enumerate() {
        match (b.is_ascii_whitespace(), start) {
            (true, Some(s)) => {
                tokens.push(s..i);
                start = None;
            }
            (false, None) => start = Some(i),
            _ => {}
        }
    }
    let word = |i: usize| tokens.get(i).map(|r| &line[r.clone()]);
    if word(0) != Some(b"setoption") || word(1) != Some(b"name") {
        return None;
    }
    let value_at = (2..tokens.len())
        .find(|&i| word(i) == Some(b"value"))
        .unwrap_or(tokens.len());
    // "BookFile" holds no space: the name is one word.
    if value_at != 3 || !word(2)?.eq_ignore_ascii_case(b"bookfile") {
        return None;
    }
    Some(match (tokens.get(value_at + 1), tokens.last()) {
        (Some(first), Some(last)) => &line[first.start..last.end],
        _ => b"",
    })
}
