//! Text parsers on hostile input: FEN, SAN (strict and lenient), LAN and UCI never panic, and what
//! they accept is consistent: an accepted FEN gives a position whose FEN parses back to the same
//! position, an accepted move is one of the position's legal moves and writes back to text that
//! names the same move.

use chessbits::lists::MoveList;
use chessbits::moves::Move;
use chessbits::notation::lan::LanPlus;
use chessbits::notation::san::{San, SanPlus};
use chessbits::notation::uci::parse_uci;
use chessbits::position::{Position, Validation};
use proptest::prelude::*;

const FENS: [&str; 8] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "7k/8/8/8/8/RRRRRR2/QQQQQ3/1NBNB1K1 w - - 0 1",
    "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
];

/// Position `i` of [`FENS`]; one of them is composed (more material than promotions give).
fn start(i: usize) -> Position {
    Position::from_fen_with(FENS[i], Validation::Composed).unwrap()
}

/// Characters FEN and move text are made of, plus a few that are not.
const ALPHABET: &[u8] = b"pnbrqkPNBRQK12345678abcdefgh/ -wWKQkqAHxX=+#!?O0e.Z\t9";

fn texty(max_len: usize) -> impl Strategy<Value = String> {
    prop_oneof![
        proptest::collection::vec(proptest::sample::select(ALPHABET), 0..max_len)
            .prop_map(|bytes| String::from_utf8(bytes).unwrap()),
        proptest::collection::vec(any::<char>(), 0..max_len).prop_map(|chars| chars.into_iter().collect()),
    ]
}

/// `text` with a few characters replaced, inserted or removed.
fn mutated(text: &str, edits: &[(usize, u8, u8)]) -> String {
    let mut bytes = text.as_bytes().to_vec();
    for &(at, op, byte) in edits {
        let at = at % (bytes.len() + 1);
        let byte = ALPHABET[byte as usize % ALPHABET.len()];
        match op % 3 {
            0 if at < bytes.len() => bytes[at] = byte,
            1 => bytes.insert(at, byte),
            _ if at < bytes.len() => {
                bytes.remove(at);
            }
            _ => {}
        }
    }
    String::from_utf8(bytes).unwrap()
}

/// An accepted FEN: writing it back and parsing again gives the same position, and the position
/// is usable (its legal moves generate and play).
fn check_accepted_fen(text: &str) {
    let Ok(pos) = Position::from_fen(text) else {
        return;
    };
    let written = pos.fen();
    let again = Position::from_fen(&written).unwrap_or_else(|e| panic!("{text:?} -> {written:?}: {e}"));
    assert_eq!(again.fen(), written, "{text:?}");
    assert_eq!(again.key(), pos.key(), "{text:?}");
    let mut moves = MoveList::new();
    pos.legal_moves_into(&mut moves);
    for &m in moves.iter() {
        let mut child = pos.clone();
        child.play_unchecked(m);
    }
}

fn legal(pos: &Position) -> Vec<Move> {
    let mut moves = MoveList::new();
    pos.legal_moves_into(&mut moves);
    moves.to_vec()
}

/// Every parser on `text` in `pos`: no panic, and an accepted move is legal and writes back to
/// text naming the same move.
fn check_move_text(pos: &Position, text: &str) {
    let moves = legal(pos);
    let accepted = |m: Move, parser: &str| {
        assert!(
            moves.contains(&m),
            "{parser} accepted {text:?} as illegal {m} in {}",
            pos.fen()
        );
    };
    if let Ok(san) = San::parse_lenient(text.as_bytes()) {
        if let Ok(m) = san.san.to_move(pos) {
            if !m.is_null() {
                accepted(m, "lenient SAN");
                let written = SanPlus::from_move(pos, m).to_string();
                let back = SanPlus::parse_strict(written.as_bytes()).unwrap().san.to_move(pos);
                assert_eq!(back, Ok(m), "{text:?} -> {written:?}");
            }
        }
    }
    if let Ok(san) = San::parse_strict(text.as_bytes()) {
        if let Ok(m) = san.to_move(pos) {
            if !m.is_null() {
                accepted(m, "strict SAN");
            }
        }
    }
    if let Ok(lan) = LanPlus::parse(text.as_bytes()) {
        if let Ok(m) = lan.lan.to_move(pos) {
            if !m.is_null() {
                accepted(m, "LAN");
                let written = LanPlus::from_move(pos, m).to_string();
                let back = LanPlus::parse(written.as_bytes()).unwrap().lan.to_move(pos);
                assert_eq!(back, Ok(m), "{text:?} -> {written:?}");
            }
        }
    }
    if let Ok(m) = parse_uci(pos, text) {
        if !m.is_null() {
            accepted(m, "UCI");
            assert_eq!(parse_uci(pos, &m.uci(pos.is_chess960()).to_string()), Ok(m), "{text:?}");
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn arbitrary_text_as_fen(text in texty(90)) {
        check_accepted_fen(&text);
    }

    #[test]
    fn mutated_fens(i in 0..FENS.len(), edits in proptest::collection::vec((any::<usize>(), any::<u8>(), any::<u8>()), 1..5)) {
        check_accepted_fen(&mutated(FENS[i], &edits));
    }

    #[test]
    fn arbitrary_text_as_a_move(i in 0..FENS.len(), text in texty(12)) {
        check_move_text(&start(i), &text);
    }

    #[test]
    fn mutated_legal_moves(i in 0..FENS.len(), pick in any::<usize>(), edits in proptest::collection::vec((any::<usize>(), any::<u8>(), any::<u8>()), 1..3)) {
        let pos = start(i);
        let moves = legal(&pos);
        let m = moves[pick % moves.len()];
        for text in [SanPlus::from_move(&pos, m).to_string(), LanPlus::from_move(&pos, m).to_string(), m.uci(pos.is_chess960()).to_string()] {
            check_move_text(&pos, &mutated(&text, &edits));
        }
    }
}
