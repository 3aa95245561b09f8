//! Flagged 32-bit move codes (`codec::moves::flagged`) on arbitrary codes (big-endian 4-byte
//! words) from a position picked by the first byte. Nothing panics; `from_bits` accepts only
//! codes below 2^24 with valid piece fields; a code that decodes gives a legal move that encodes
//! to the same code, and its extended form converts back to it. Each decoded move is played and
//! the next code applies to the new position.
#![no_main]

use chessbits::codec::moves::flagged::{decode, encode, to_extended, FlaggedMove};
use chessbits_fuzz::{legal_moves, position};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&selector, bytes)) = data.split_first() else {
        return;
    };
    let mut pos = position(selector);
    for word in bytes.chunks_exact(4) {
        let bits = u32::from_be_bytes([word[0], word[1], word[2], word[3]]);
        let Ok(code) = FlaggedMove::from_bits(bits) else {
            continue;
        };
        assert!(bits < FlaggedMove::LIMIT);
        if let Ok(m) = decode(&pos, code) {
            assert!(
                legal_moves(&pos).contains(&m),
                "code {bits:#x}: illegal {m} in {}",
                pos.fen()
            );
            assert_eq!(encode(&pos, m), Ok(code), "code {bits:#x}: {m} in {}", pos.fen());
            let xm = to_extended(&pos, code).unwrap();
            assert_eq!(xm.mv(), m);
            assert_eq!(FlaggedMove::from_move(m, pos.piece_at(m.from()).unwrap()), code);
            pos.play_unchecked(m);
        }
    }
});
