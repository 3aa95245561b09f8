//! Test- and example-only helper: reads the mainline SAN moves of the shared PGN files and resolves
//! them against the legal moves of the position. Deliberately minimal (the real PGN reader lives in
//! the library's `pgn` module); it knows just enough PGN for the shared data files: tag pairs,
//! `{}` and `;` comments, nested `()` variations, `$n` NAGs, move numbers and results.
#![allow(dead_code)]

use chessbits::lists::MoveList;
use chessbits::moves::Move;
use chessbits::position::Position;
use chessbits::types::{Role, Square};

/// The shared PGN files with real games: (file name, is lichess online play).
pub const PGN_FILES: [(&str, bool); 4] = [
    ("shakmaty_lichess_db_1000k.pgn", true),
    ("shakmaty_twic1599_1000k.pgn", false),
    ("notnil_twic0920.pgn", false),
    ("notnil_Carlsen.pgn", false),
];

/// Path of a file in the shared data directory.
pub fn data_path(relative: &str) -> String {
    format!("{}/../../../shared/data/{relative}", env!("CARGO_MANIFEST_DIR"))
}

/// One game of a file: its 1-based number in the file and its mainline from the start position.
pub struct LoadedGame {
    pub number: usize,
    pub moves: Vec<Move>,
}

/// Reads every game of `pgn/<name>`; panics with the game number on a move it cannot resolve.
pub fn load_pgn(name: &str) -> Vec<LoadedGame> {
    let path = data_path(&format!("pgn/{name}"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    split_movetexts(&text)
        .into_iter()
        .enumerate()
        .map(|(i, movetext)| {
            let moves = resolve_mainline(&movetext).unwrap_or_else(|e| panic!("{name} game {}: {e}", i + 1));
            LoadedGame { number: i + 1, moves }
        })
        .collect()
}

/// The movetext of every game: the lines between one tag section and the next.
fn split_movetexts(text: &str) -> Vec<String> {
    let mut games = Vec::new();
    let mut current = String::new();
    let mut in_tags = false;
    for line in text.lines() {
        let line = line.trim_start_matches('\u{feff}');
        if line.trim_start().starts_with('[') && !current_has_open_comment(&current) {
            if !in_tags && !current.trim().is_empty() {
                games.push(std::mem::take(&mut current));
            }
            current.clear();
            in_tags = true;
        } else {
            in_tags = false;
            current.push_str(line);
            current.push('\n');
        }
    }
    if !current.trim().is_empty() {
        games.push(current);
    }
    games
}

/// Whether a `{` comment is still open at the end of `text` (tags cannot start inside one).
fn current_has_open_comment(text: &str) -> bool {
    let mut open = false;
    for c in text.chars() {
        match c {
            '{' => open = true,
            '}' => open = false,
            _ => {}
        }
    }
    open
}

/// The SAN tokens of the mainline of one movetext.
fn mainline_tokens(movetext: &str) -> Vec<String> {
    let mut tokens = Vec::new();
    let mut chars = movetext.chars().peekable();
    let mut depth = 0usize;
    let mut token = String::new();
    let flush = |token: &mut String, tokens: &mut Vec<String>, depth: usize| {
        if depth == 0 && !token.is_empty() {
            tokens.push(std::mem::take(token));
        }
        token.clear();
    };
    while let Some(c) = chars.next() {
        match c {
            '{' => {
                flush(&mut token, &mut tokens, depth);
                for c in chars.by_ref() {
                    if c == '}' {
                        break;
                    }
                }
            }
            ';' => {
                flush(&mut token, &mut tokens, depth);
                for c in chars.by_ref() {
                    if c == '\n' {
                        break;
                    }
                }
            }
            '(' => {
                flush(&mut token, &mut tokens, depth);
                depth += 1;
            }
            ')' => {
                flush(&mut token, &mut tokens, depth);
                depth = depth.saturating_sub(1);
            }
            c if c.is_whitespace() => flush(&mut token, &mut tokens, depth),
            '.' => {
                // "12." and "12..." are move numbers; a token ending at a dot is dropped.
                token.clear();
            }
            c => token.push(c),
        }
    }
    flush(&mut token, &mut tokens, depth);
    tokens
        .into_iter()
        .filter(|t| {
            !(t.starts_with('$')
                || t.chars().all(|c| c.is_ascii_digit())
                || matches!(t.as_str(), "1-0" | "0-1" | "1/2-1/2" | "*"))
        })
        .collect()
}

/// Resolves the mainline of one movetext from the start position.
pub fn resolve_mainline(movetext: &str) -> Result<Vec<Move>, String> {
    let mut pos = Position::startpos();
    let mut list = MoveList::new();
    let mut moves = Vec::new();
    for san in mainline_tokens(movetext) {
        pos.legal_moves(&mut list);
        let m = resolve_san(&pos, &list, &san)?;
        pos.make_move(m);
        moves.push(m);
    }
    Ok(moves)
}

/// Finds the legal move `san` names (piece letter, disambiguation, target, promotion, castling).
pub fn resolve_san(pos: &Position, legal: &[Move], san: &str) -> Result<Move, String> {
    let text = san.trim_end_matches(['+', '#', '!', '?']);
    let castle = match text {
        "O-O" | "0-0" => Some(false),
        "O-O-O" | "0-0-0" => Some(true),
        _ => None,
    };
    if let Some(queen_side) = castle {
        return legal
            .iter()
            .copied()
            .find(|m| m.is_castle() && (m.to().index() < m.from().index()) == queen_side)
            .ok_or_else(|| format!("illegal castling {san}"));
    }
    let bytes: Vec<char> = text.chars().collect();
    let (role, mut rest) = match bytes
        .first()
        .and_then(|&c| "NBRQK".contains(c).then(|| Role::from_char(c)))
    {
        Some(Some(role)) => (role, &bytes[1..]),
        _ => (Role::Pawn, &bytes[..]),
    };
    let mut promotion = None;
    if let Some(&last) = rest.last() {
        if "NBRQ".contains(last) {
            promotion = Role::from_char(last);
            rest = &rest[..rest.len() - 1];
            if rest.last() == Some(&'=') {
                rest = &rest[..rest.len() - 1];
            }
        }
    }
    if rest.len() < 2 {
        return Err(format!("cannot read {san}"));
    }
    let target: String = rest[rest.len() - 2..].iter().collect();
    let to: Square = target.parse().map_err(|_| format!("bad target in {san}"))?;
    let hints: Vec<char> = rest[..rest.len() - 2].iter().copied().filter(|&c| c != 'x').collect();
    let candidates: Vec<Move> = legal
        .iter()
        .copied()
        .filter(|m| {
            !m.is_castle()
                && m.to() == to
                && pos.board().role_at(m.from()) == Some(role)
                && m.promotion() == promotion
                && hints.iter().all(|&h| {
                    if h.is_ascii_digit() {
                        m.from().rank().char() == h
                    } else {
                        m.from().file().char() == h
                    }
                })
        })
        .collect();
    match candidates.as_slice() {
        [m] => Ok(*m),
        [] => Err(format!("no legal move for {san} in {}", pos.fen())),
        _ => Err(format!("ambiguous {san} in {}", pos.fen())),
    }
}
