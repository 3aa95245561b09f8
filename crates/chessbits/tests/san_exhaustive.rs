//! SAN written and read back for every legal move of many positions: the positions of real games,
//! and the perft suites' positions and their children (Chess960 castling, en passant, promotions,
//! pins). Each SAN is checked against an independent brute force over the legal move list.

use crate::common;

use std::path::Path;

use chessbits::lists::MoveList;
use chessbits::moves::Move;
use chessbits::notation::lan::lan_of;
use chessbits::notation::san::{san_of, San, SanError, SanPlus, Suffix};
use chessbits::pgn::PgnReader;
use chessbits::position::{Position, Validation};
use chessbits::types::{CastlingSide, Role};
use common::{shared_path, testdata_path};

/// The SAN the rules prescribe, computed from the legal move list alone.
fn brute_force_san(pos: &Position, legal: &[Move], m: Move) -> String {
    let suffix = {
        let mut after = pos.clone();
        after.play_unchecked(m);
        match (after.is_check(), after.count_legal_moves() == 0) {
            (true, true) => "#",
            (true, false) => "+",
            _ => "",
        }
    };
    if let Some(side) = m.castling_side() {
        let castle = if side == CastlingSide::KingSide { "O-O" } else { "O-O-O" };
        return format!("{castle}{suffix}");
    }
    let role = pos.board().role_at(m.from()).unwrap();
    let capture = if m.is_capture() { "x" } else { "" };
    let promotion = m.promotion().map_or(String::new(), |r| format!("={}", r.upper_char()));
    if role == Role::Pawn {
        let file = if m.is_capture() {
            m.from().file().char().to_string()
        } else {
            String::new()
        };
        return format!("{file}{capture}{}{promotion}{suffix}", m.to());
    }
    let rivals: Vec<Move> = legal
        .iter()
        .copied()
        .filter(|o| {
            o.to() == m.to() && o.from() != m.from() && !o.is_castle() && pos.board().role_at(o.from()) == Some(role)
        })
        .collect();
    let same_file = rivals.iter().any(|o| o.from().file() == m.from().file());
    let same_rank = rivals.iter().any(|o| o.from().rank() == m.from().rank());
    let disambiguation = match (rivals.is_empty(), same_file, same_rank) {
        (true, _, _) => String::new(),
        (false, false, _) => m.from().file().char().to_string(),
        (false, true, false) => m.from().rank().char().to_string(),
        (false, true, true) => m.from().to_string(),
    };
    format!(
        "{}{disambiguation}{capture}{}{promotion}{suffix}",
        role.upper_char(),
        m.to()
    )
}

/// Checks every legal move of `pos`; returns how many.
fn check_position(pos: &Position) -> usize {
    let mut legal = MoveList::new();
    pos.legal_moves_into(&mut legal);
    for &m in legal.iter() {
        let context = || format!("{} {}", pos.fen(), m.uci(pos.is_chess960()));
        let written = san_of(pos, m);
        let text = written.to_string();
        assert_eq!(text, brute_force_san(pos, &legal, m), "{}", context());
        let parsed: SanPlus = text.parse().unwrap_or_else(|e| panic!("{}: {text}: {e}", context()));
        assert_eq!(parsed, written, "{}", context());
        assert_eq!(parsed.san.to_move(pos), Ok(m), "{}: {text}", context());
        // The suffix agrees with the position after the move.
        assert_eq!(written.suffix == Some(Suffix::Checkmate), {
            let mut after = pos.clone();
            after.play_unchecked(m);
            after.is_checkmate()
        });
        // Without its disambiguation the SAN is ambiguous.
        if let San::Normal {
            role,
            file,
            rank,
            capture,
            to,
            promotion,
        } = parsed.san
        {
            if (file.is_some() || rank.is_some()) && role != Role::Pawn {
                let bare = San::Normal {
                    role,
                    file: None,
                    rank: None,
                    capture,
                    to,
                    promotion,
                };
                assert_eq!(bare.to_move(pos), Err(SanError::Ambiguous), "{}: {text}", context());
            }
        }
        // Long algebraic and UCI-style text resolve to the same move through the lenient parser.
        let lan = lan_of(pos, m).to_string();
        let lenient = San::parse_lenient(lan.as_bytes()).unwrap_or_else(|e| panic!("{}: {lan}: {e}", context()));
        assert_eq!(lenient.san.to_move(pos), Ok(m), "{}: {lan}", context());
        let mut uci_forms = vec![m.uci(true).to_string()];
        if !pos.is_chess960() {
            uci_forms.push(m.uci(false).to_string());
        }
        for uci in uci_forms {
            let lenient = San::parse_lenient(uci.as_bytes()).unwrap_or_else(|e| panic!("{}: {uci}: {e}", context()));
            assert_eq!(lenient.san.to_move(pos), Ok(m), "{}: {uci}", context());
        }
    }
    // Castling resolves exactly when the castle is legal.
    for side in CastlingSide::ALL {
        let legal_castle = legal.iter().copied().find(|m| m.castling_side() == Some(side));
        assert_eq!(
            San::Castle(side).to_move(pos).ok(),
            legal_castle,
            "{} {side:?}",
            pos.fen()
        );
    }
    legal.len()
}

/// `pos` and every position one move away.
fn check_with_children(pos: &Position) -> usize {
    let mut checked = check_position(pos);
    let mut legal = MoveList::new();
    pos.legal_moves_into(&mut legal);
    for &m in legal.iter() {
        let mut child = pos.clone();
        child.play_unchecked(m);
        checked += check_position(&child);
    }
    checked
}

/// Legal moves of the bundled suites' positions and their children, and before each main-line move
/// of the bundled games read here (python-chess 1.11.2: `board.legal_moves.count()`).
const PERFT_MOVES: usize = 110_153;
const GAME_MOVES: usize = 499_096;

/// Returns the number of moves checked.
fn san_on_perft_positions_and_children(root: &Path) -> usize {
    let mut checked = 0;
    for suite in ["shakmaty_tricky.perft", "ethereal_standard.epd", "ethereal_fischer.epd"] {
        for case in common::perft_suite(root, suite) {
            let Ok(pos) = Position::from_fen_with(&case.fen, Validation::Composed) else {
                continue;
            };
            checked += check_with_children(&pos);
        }
    }
    checked
}

#[test]
fn san_round_trips_on_perft_positions_and_children() {
    assert_eq!(san_on_perft_positions_and_children(&testdata_path()), PERFT_MOVES);
}

#[test]
#[ignore = "needs ../shared/data (see testdata/README.md); run: cargo test --workspace -- --ignored shared_data_"]
fn shared_data_san_round_trips_on_perft_positions_and_children() {
    let checked = san_on_perft_positions_and_children(&shared_path());
    assert!(checked > 500_000, "{checked}");
}

/// Returns the number of moves checked.
fn san_on_game_positions(root: &Path) -> usize {
    let mut checked = 0;
    for file in ["pgn/shakmaty_lichess_db_1000k.pgn", "pgn/notnil_twic0920.pgn"] {
        let text = String::from_utf8_lossy(&common::read_data(root, file)).into_owned();
        for game in PgnReader::new(text.as_bytes()).into_games().take(150) {
            let game = game.unwrap();
            let mut pos = game.start.clone();
            for node in &game.moves.nodes {
                checked += check_position(&pos);
                assert_eq!(san_of(&pos, node.mv), node.san);
                pos.play_unchecked(node.mv);
            }
        }
    }
    checked
}

#[test]
fn san_round_trips_on_game_positions() {
    assert_eq!(san_on_game_positions(&testdata_path()), GAME_MOVES);
}

#[test]
#[ignore = "needs ../shared/data (see testdata/README.md); run: cargo test --workspace -- --ignored shared_data_"]
fn shared_data_san_round_trips_on_game_positions() {
    let checked = san_on_game_positions(&shared_path());
    assert!(checked > 300_000, "{checked}");
}
