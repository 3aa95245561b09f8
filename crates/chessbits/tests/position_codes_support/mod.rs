//! Test support for the position-code tests: a tiny FEN-free way to get every position of the shared
//! games without the PGN module: split the files into games, drop tags, comments, variations, NAGs,
//! move numbers and results, and match each SAN token against the legal moves.

#![allow(dead_code)]

use chessbits::lists::MoveList;
use chessbits::moves::Move;
use chessbits::position::{Position, Setup};
use chessbits::types::{CastlingSide, File, Rank, Role, Square};

/// The shared game files: (name, is the lichess file).
pub const GAME_FILES: [(&str, bool); 4] = [
    ("shakmaty_lichess_db_1000k.pgn", true),
    ("shakmaty_twic1599_1000k.pgn", false),
    ("notnil_twic0920.pgn", false),
    ("notnil_Carlsen.pgn", false),
];

pub fn data_path(name: &str) -> String {
    format!("{}/../../../shared/data/pgn/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// The movetext tokens of each standard game (games with a FEN or a variant are skipped).
pub fn games(text: &str) -> Vec<Vec<String>> {
    let mut games = Vec::new();
    let mut tags_ok = true;
    let mut in_tags = false;
    let mut movetext = String::new();
    for line in text.lines() {
        let line = line.trim_start_matches('\u{feff}').trim();
        if line.starts_with('[') && !in_movetext_comment(&movetext) {
            if !in_tags {
                if !movetext.trim().is_empty() && tags_ok {
                    games.push(tokens(&movetext));
                }
                movetext.clear();
                tags_ok = true;
                in_tags = true;
            }
            if line.starts_with("[FEN ") || (line.starts_with("[Variant ") && !line.contains("\"Standard\"")) {
                tags_ok = false;
            }
        } else {
            in_tags = false;
            movetext.push_str(line);
            movetext.push('\n');
        }
    }
    if !movetext.trim().is_empty() && tags_ok {
        games.push(tokens(&movetext));
    }
    games
}

/// Whether a brace comment is open at the end of `text`.
fn in_movetext_comment(text: &str) -> bool {
    text.matches('{').count() > text.matches('}').count()
}

/// SAN tokens of a movetext.
fn tokens(movetext: &str) -> Vec<String> {
    let mut clean = String::new();
    let mut depth = 0; // variation depth
    let mut chars = movetext.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '{' => {
                for c in chars.by_ref() {
                    if c == '}' {
                        break;
                    }
                }
                clean.push(' ');
            }
            ';' => {
                for c in chars.by_ref() {
                    if c == '\n' {
                        break;
                    }
                }
                clean.push(' ');
            }
            '(' => depth += 1,
            ')' => depth -= 1,
            _ if depth > 0 => {}
            _ => clean.push(c),
        }
    }
    clean
        .split_whitespace()
        .filter(|t| !matches!(*t, "1-0" | "0-1" | "1/2-1/2" | "*"))
        .map(|t| t.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.'))
        .filter(|t| !t.is_empty() && !t.starts_with('$'))
        .map(str::to_owned)
        .collect()
}

/// The legal move `san` names, if exactly one.
pub fn san_to_move(pos: &Position, san: &str) -> Option<Move> {
    let san = san.trim_end_matches(['+', '#', '!', '?']);
    let mut moves = MoveList::new();
    pos.legal_moves(&mut moves);
    let castle = match san {
        "O-O" | "0-0" => Some(CastlingSide::KingSide),
        "O-O-O" | "0-0-0" => Some(CastlingSide::QueenSide),
        _ => None,
    };
    if let Some(side) = castle {
        return moves.iter().copied().find(|m| m.castling_side() == Some(side));
    }
    let (body, promotion) = match san.split_once('=') {
        Some((body, promo)) => (body, Role::from_char(promo.chars().next()?.to_ascii_lowercase())),
        None => match san.chars().last() {
            Some(c @ ('Q' | 'R' | 'B' | 'N')) if san.len() > 2 => {
                (&san[..san.len() - 1], Role::from_char(c.to_ascii_lowercase()))
            }
            _ => (san, None),
        },
    };
    let body: String = body.chars().filter(|&c| c != 'x' && c != '-').collect();
    let (role, rest) = match body.chars().next()? {
        c @ ('N' | 'B' | 'R' | 'Q' | 'K') => (Role::from_char(c.to_ascii_lowercase())?, &body[1..]),
        _ => (Role::Pawn, &body[..]),
    };
    if rest.len() < 2 {
        return None;
    }
    let target: Square = rest[rest.len() - 2..].parse().ok()?;
    let hint = &rest[..rest.len() - 2];
    let from_file = hint.chars().find_map(File::from_char);
    let from_rank = hint.chars().find_map(Rank::from_char);
    let mut found = moves.iter().copied().filter(|m| {
        !m.is_castle()
            && m.to() == target
            && pos.piece_at(m.from()).map(|p| p.role) == Some(role)
            && m.promotion() == promotion
            && from_file.map_or(true, |f| m.from().file() == f)
            && from_rank.map_or(true, |r| m.from().rank() == r)
    });
    let first = found.next()?;
    found.next().is_none().then_some(first)
}

/// Every position of a game (the start and after each move), as setups. Panics on a token that is
/// not exactly one legal move: the shared games are known to be clean.
pub fn game_setups(tokens: &[String]) -> Vec<Setup> {
    let mut pos = Position::startpos();
    let mut out = vec![pos.to_setup()];
    for token in tokens {
        let Some(m) = san_to_move(&pos, token) else {
            panic!("{token} is not a legal move in {}", pos.fen());
        };
        pos.make_move(m);
        out.push(pos.to_setup());
    }
    out
}

/// The positions of the first `max_games` games of a file, game by game.
pub fn file_setups(name: &str, max_games: usize) -> Vec<Vec<Setup>> {
    let text = std::fs::read(data_path(name)).expect("shared data file");
    let text = String::from_utf8_lossy(&text);
    games(&text).iter().take(max_games).map(|g| game_setups(g)).collect()
}

/// A setup from a FEN (through the core's parser).
pub fn setup(fen: &str) -> Setup {
    Position::from_fen(fen)
        .unwrap_or_else(|e| panic!("{fen}: {e}"))
        .to_setup()
}
