//! FEN: `Position::from_fen_with` on arbitrary text, composed positions accepted. What parses
//! writes back (`fen()`) to text that parses to the same position (same FEN, same key, same
//! setup), and the position is usable: its legal moves generate and play. `Position::from_fen`
//! (positions a game reaches) gives the same position, or rejects it for material or checks only.
#![no_main]

use chessbits::notation::fen::FenError;
use chessbits::position::{Position, PositionError, Validation};
use chessbits_fuzz::legal_moves;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(pos) = Position::from_fen_with(text, Validation::Composed) else {
        assert!(Position::from_fen(text).is_err(), "{text:?}");
        return;
    };
    match Position::from_fen(text) {
        Ok(strict) => assert!(strict == pos, "{text:?}"),
        Err(FenError::Position(PositionError::ImpossibleMaterial(_) | PositionError::ImpossibleCheck)) => {}
        Err(e) => panic!("{text:?}: {e}"),
    }
    let written = pos.fen();
    let again = Position::from_fen_with(&written, Validation::Composed)
        .unwrap_or_else(|e| panic!("{text:?} -> {written:?}: {e}"));
    assert_eq!(again.fen(), written, "{text:?}");
    assert_eq!(again.key(), pos.key(), "{text:?}");
    assert_eq!(again.key(), again.compute_key(), "{text:?}");
    assert_eq!(again.to_setup(), pos.to_setup(), "{text:?}");
    assert_eq!(again.is_chess960(), pos.is_chess960(), "{text:?}");
    for m in legal_moves(&pos) {
        let mut child = pos.clone();
        child.play_unchecked(m);
        assert_eq!(child.key(), child.compute_key(), "{text:?} after {m}");
    }
});
