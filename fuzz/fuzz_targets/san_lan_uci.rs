//! SAN (strict and lenient), LAN and UCI on arbitrary text, in a position picked by the first
//! byte. Nothing panics; strict SAN writes back to what it read; a move any parser resolves is
//! legal, and its SAN / LAN / UCI written back resolve to the same move.
#![no_main]

use chessbits::moves::Move;
use chessbits::notation::lan::LanPlus;
use chessbits::notation::san::{San, SanPlus};
use chessbits::notation::uci::parse_uci;
use chessbits::position::Position;
use chessbits_fuzz::{legal_moves, position};
use libfuzzer_sys::fuzz_target;

fn written_back(pos: &Position, m: Move, text: &[u8]) {
    let san = SanPlus::from_move(pos, m).to_string();
    let parsed = SanPlus::parse_strict(san.as_bytes()).unwrap_or_else(|e| panic!("{text:?}: SAN {san:?}: {e}"));
    assert_eq!(parsed.san.to_move(pos), Ok(m), "{text:?} -> SAN {san:?}");
    assert_eq!(
        San::parse_lenient(san.as_bytes()).map(|s| s.san.to_move(pos)),
        Ok(Ok(m)),
        "{text:?} -> SAN {san:?} (lenient)"
    );
    let lan = LanPlus::from_move(pos, m).to_string();
    let parsed = LanPlus::parse(lan.as_bytes()).unwrap_or_else(|e| panic!("{text:?}: LAN {lan:?}: {e}"));
    assert_eq!(parsed.lan.to_move(pos), Ok(m), "{text:?} -> LAN {lan:?}");
    let uci = m.uci(pos.is_chess960()).to_string();
    assert_eq!(parse_uci(pos, &uci), Ok(m), "{text:?} -> UCI {uci:?}");
}

fuzz_target!(|data: &[u8]| {
    let Some((&selector, text)) = data.split_first() else {
        return;
    };
    let pos = position(selector);
    let moves = legal_moves(&pos);
    let check = |m: Move, parser: &str| {
        if !m.is_null() {
            assert!(
                moves.contains(&m),
                "{parser} accepted {text:?} as illegal {m} in {}",
                pos.fen()
            );
            written_back(&pos, m, text);
        }
    };
    if let Ok(san) = San::parse_lenient(text) {
        if let Ok(m) = san.san.to_move(&pos) {
            check(m, "lenient SAN");
        }
    }
    if let Ok(san) = San::parse_strict(text) {
        // Strict SAN is exactly what `Display` writes (`Z0` is the null move, written `--`).
        let shown = san.to_string();
        if san != San::Null {
            assert_eq!(shown.as_bytes(), text, "strict SAN");
        }
        assert_eq!(San::parse_strict(shown.as_bytes()), Ok(san), "{text:?}");
        if let Ok(m) = san.to_move(&pos) {
            check(m, "strict SAN");
        }
    }
    if let Ok(san) = SanPlus::parse_strict(text) {
        if let Ok(m) = san.san.to_move(&pos) {
            check(m, "strict SAN+");
        }
    }
    if let Ok(lan) = LanPlus::parse(text) {
        if let Ok(m) = lan.lan.to_move(&pos) {
            check(m, "LAN");
        }
    }
    if let Ok(text) = std::str::from_utf8(text) {
        if let Ok(m) = parse_uci(&pos, text) {
            check(m, "UCI");
        }
    }
});
