//! Entropy-coded games (`codec::moves::entropy`) on arbitrary bytes from a position picked by the
//! first byte, with the ply count from the second. Nothing panics; the moves decoded before an
//! error are legal; a game that decodes is legal move by move and re-encodes to exactly the same
//! bytes (the decoder is canonical).
#![no_main]

use chessbits::codec::moves::entropy::{decode_game, encode_game, GameDecoder};
use chessbits_fuzz::{position, replay_legal};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let [selector, plies, bytes @ ..] = data else {
        return;
    };
    let start = position(*selector);
    let plies = usize::from(*plies);
    match decode_game(&start, bytes, plies) {
        Ok(moves) => {
            assert_eq!(moves.len(), plies);
            replay_legal(&start, &moves, "entropy");
            assert_eq!(encode_game(&start, &moves).unwrap(), bytes, "entropy game re-encoded");
        }
        Err(_) => {
            let mut partial = Vec::new();
            assert!(GameDecoder::new()
                .decode_into(&start, bytes, plies, &mut partial)
                .is_err());
            replay_legal(&start, &partial, "entropy (before the error)");
        }
    }
});
