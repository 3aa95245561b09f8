//! The `serde` feature: every value type through JSON and back, in its documented form.
//! `cargo test -p chessbits --features serde --test integration serde_forms::`.
#![cfg(feature = "serde")]

use crate::common;

use chessbits::notation::san::san_of;
use chessbits::notation::uci::parse_parts;
use chessbits::{Color, File, Move, Piece, Position, Rank, Role, San, SanPlus, Square};
use serde::{de::DeserializeOwned, Serialize};

fn round_trip<T: Serialize + DeserializeOwned + PartialEq + std::fmt::Debug>(value: &T, json: &str) {
    assert_eq!(serde_json::to_string(value).unwrap(), json);
    assert_eq!(&serde_json::from_str::<T>(json).unwrap(), value, "{json}");
}

#[test]
fn small_types_are_their_names() {
    for sq in Square::all() {
        round_trip(&sq, &format!("\"{sq}\""));
    }
    for (file, c) in File::ALL.iter().zip('a'..='h') {
        round_trip(file, &format!("\"{c}\""));
    }
    for (rank, c) in Rank::ALL.iter().zip('1'..='8') {
        round_trip(rank, &format!("\"{c}\""));
    }
    round_trip(&Color::White, "\"white\"");
    round_trip(&Color::Black, "\"black\"");
    assert_eq!(serde_json::from_str::<Color>("\"b\"").unwrap(), Color::Black);
    for role in Role::ALL {
        round_trip(&role, &format!("\"{}\"", role.char()));
        for color in Color::ALL {
            let piece = Piece::new(color, role);
            round_trip(&piece, &format!("\"{}\"", piece.char()));
        }
    }
    for bad in ["\"\"", "\"e9\"", "\"ee\"", "3", "null", "\"white \""] {
        assert!(serde_json::from_str::<Square>(bad).is_err(), "{bad}");
        assert!(serde_json::from_str::<Color>(bad).is_err(), "{bad}");
        assert!(serde_json::from_str::<Piece>(bad).is_err(), "{bad}");
        assert!(serde_json::from_str::<File>(bad).is_err(), "{bad}");
    }
}

#[test]
fn moves_positions_and_notation_come_back() {
    let root = common::testdata_path();
    let mut checked = 0;
    for case in common::perft_suite(&root, "ethereal_standard.epd") {
        // Line 51 is a composed position (two bishops check along one diagonal).
        let pos: Position = common::composed_position(&case.fen);
        round_trip(&pos, &format!("\"{}\"", pos.fen()));
        for &m in pos.legal_moves().iter() {
            round_trip(&m, &m.bits().to_string());
            let san: SanPlus = san_of(&pos, m);
            round_trip(&san, &format!("\"{san}\""));
            round_trip(&san.san, &format!("\"{}\"", san.san));
            let uci = parse_parts(&m.to_string()).unwrap().unwrap();
            round_trip(&uci, &format!("\"{m}\""));
            checked += 1;
        }
    }
    assert!(checked > 100);
    assert!(serde_json::from_str::<Move>("24576").is_err(), "kind code 6 is unused");
    assert!(serde_json::from_str::<San>("\"Zz9\"").is_err());
    assert!(serde_json::from_str::<Position>("\"8/8/8/8/8/8/8/8 w - - 0 1\"").is_err());
}
