//! Direction-target move codes (`codec::moves::direction_target`, 12 bits) on arbitrary codes
//! (big-endian byte pairs) from a position picked by the first byte. Nothing panics; codes of
//! 12 bits or more are errors; a code that decodes gives a legal move that encodes to the same
//! code. Each decoded move is played and the next code applies to the new position.
#![no_main]

use chessbits::codec::moves::direction_target::{decode, encode, CODE_LIMIT};
use chessbits_fuzz::{legal_moves, position};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&selector, bytes)) = data.split_first() else {
        return;
    };
    let mut pos = position(selector);
    for pair in bytes.chunks_exact(2) {
        let code = u16::from_be_bytes([pair[0], pair[1]]);
        if let Ok(m) = decode(&pos, code) {
            assert!(code < CODE_LIMIT, "code {code} beyond the limit decodes to {m}");
            assert!(
                legal_moves(&pos).contains(&m),
                "code {code}: illegal {m} in {}",
                pos.fen()
            );
            assert_eq!(encode(&pos, m), Ok(code), "code {code}: {m} in {}", pos.fen());
            pos.play_unchecked(m);
        }
    }
});
