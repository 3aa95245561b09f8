//! Move index codes (`codec::moves::index`) on arbitrary bytes from a position picked by the
//! first byte; the second picks the form: one byte a move (legal list), or ⌈log₂ n⌉ bits a move
//! with a LEB128 ply count (legal or pseudo-legal list). Nothing panics; decoded moves are legal
//! where they are played; the forms are bijections, so the moves re-encode to the same bytes.
#![no_main]

use chessbits::codec::moves::index::{self, MoveListKind};
use chessbits_fuzz::{position, replay_legal};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let [selector, form, bytes @ ..] = data else {
        return;
    };
    let start = position(*selector);
    match form % 3 {
        0 => {
            if let Ok((m, used)) = index::read_byte_index(&start, bytes) {
                let mut out = Vec::new();
                index::write_byte_index(&start, m, &mut out).unwrap();
                assert_eq!(out, bytes[..used], "one move, byte index");
            }
            if let Ok(moves) = index::decode_game_bytes(&start, bytes) {
                replay_legal(&start, &moves, "index bytes");
                assert_eq!(
                    index::encode_game_bytes(&start, &moves).unwrap(),
                    bytes,
                    "byte index game"
                );
            }
        }
        form => {
            let set = if form == 1 {
                MoveListKind::Legal
            } else {
                MoveListKind::PseudoLegal
            };
            if let Ok(moves) = index::decode_game_bits(&start, set, bytes) {
                replay_legal(&start, &moves, "index bits");
                assert_eq!(
                    index::encode_game_bits(&start, set, &moves).unwrap(),
                    bytes,
                    "bit index game, {set:?}"
                );
            }
        }
    }
});
