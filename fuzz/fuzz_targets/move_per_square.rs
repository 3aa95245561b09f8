//! Per-square move codes (`codec::moves::per_square`, BCGN style) on arbitrary bytes from a
//! position picked by the first byte. Nothing panics; decoded moves are legal where they are
//! played and re-encode to the same bytes (one byte, or the two-byte wide form where the
//! position's bound exceeds 256).
#![no_main]

use chessbits::codec::moves::per_square;
use chessbits_fuzz::{position, replay_legal};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&selector, bytes)) = data.split_first() else {
        return;
    };
    let start = position(selector);
    if let Ok((m, used)) = per_square::read(&start, bytes) {
        let mut out = Vec::new();
        per_square::write(&start, m, &mut out).unwrap();
        assert_eq!(out, bytes[..used], "one move");
        assert_eq!(
            per_square::decode(&start, per_square::encode(&start, m).unwrap()),
            Ok(m)
        );
    }
    if let Ok(moves) = per_square::decode_game(&start, bytes) {
        replay_legal(&start, &moves, "per-square");
        assert_eq!(
            per_square::encode_game(&start, &moves).unwrap(),
            bytes,
            "per-square game"
        );
    }
});
