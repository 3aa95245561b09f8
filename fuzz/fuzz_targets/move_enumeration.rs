//! The 16-bit move enumeration (`codec::moves::enumeration`) on arbitrary codes (big-endian byte
//! pairs) from a position picked by the first byte. Nothing panics; `EnumeratedMove::decode` is
//! a bijection on `0..CODE_COUNT` (decode then encode gives the code back, codes beyond are
//! errors); a code that names a move of the position gives a legal move whose code is the same.
//! Each such move is played and the next code applies to the new position.
#![no_main]

use chessbits::codec::moves::enumeration::{decode_move, encode_move, EnumeratedMove, CODE_COUNT};
use chessbits_fuzz::{legal_moves, position};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&selector, bytes)) = data.split_first() else {
        return;
    };
    let mut pos = position(selector);
    for pair in bytes.chunks_exact(2) {
        let code = u16::from_be_bytes([pair[0], pair[1]]);
        match EnumeratedMove::decode(code) {
            Ok(e) => assert_eq!(e.encode(), code, "{e:?}"),
            Err(_) => assert!(code >= CODE_COUNT, "code {code} below {CODE_COUNT} does not decode"),
        }
        if let Ok(m) = decode_move(&pos, code) {
            assert!(
                legal_moves(&pos).contains(&m),
                "code {code}: illegal {m} in {}",
                pos.fen()
            );
            assert_eq!(encode_move(&pos, m), Ok(code), "code {code}: {m} in {}", pos.fen());
            pos.play_unchecked(m);
        }
    }
});
