//! The NNUE network file (`chessbits_engine::eval::nnue::format`): `Network::from_bytes`.
//!
//! Input: a mode byte, then
//! - mode 0: a whole file as given (most inputs stop at the header or the checksum);
//! - mode 1: a valid header for `1 + byte % 8` hidden units, the payload made of the rest of
//!   the bytes (repeated to the size the header asks for), the checksum made right, so the
//!   weights themselves are arbitrary.
//!
//! Nothing panics; every error is a `NetworkError`. A file that parses writes back to the same
//! bytes, and the reference evaluation of a few positions is a number (no panic, whatever the
//! weights).
#![no_main]

use chessbits::position::Position;
use chessbits_engine::datagen::format::crc32;
use chessbits_engine::eval::nnue::format::{file_len, HEADER_LEN, MAGIC, VERSION};
use chessbits_engine::eval::nnue::Network;
use libfuzzer_sys::fuzz_target;

const FENS: [&str; 3] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
];

fn check(bytes: &[u8]) {
    let Ok(net) = Network::from_bytes(bytes) else {
        return;
    };
    assert_eq!(net.to_bytes(), bytes, "a network that parses writes back to its bytes");
    for fen in FENS {
        let pos = Position::from_fen(fen).unwrap();
        let _ = net.evaluate(&pos);
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    if mode % 2 == 0 {
        check(rest);
        return;
    }
    let Some((&hidden, weights)) = rest.split_first() else {
        return;
    };
    let hidden = 1 + usize::from(hidden % 8);
    let len = file_len(hidden);
    let mut bytes = Vec::with_capacity(len);
    bytes.extend_from_slice(&MAGIC);
    bytes.extend_from_slice(&VERSION.to_le_bytes());
    bytes.extend_from_slice(&(hidden as u16).to_le_bytes());
    for value in [255u16, 64, 400, 0] {
        bytes.extend_from_slice(&value.to_le_bytes());
    }
    bytes.extend_from_slice(&[0; 4]);
    bytes.extend((0..len - HEADER_LEN).map(|i| {
        if weights.is_empty() {
            0
        } else {
            weights[i % weights.len()]
        }
    }));
    let sum = crc32(&bytes[HEADER_LEN..]);
    bytes[16..20].copy_from_slice(&sum.to_le_bytes());
    assert!(Network::from_bytes(&bytes).is_ok(), "a valid header and checksum parse");
    check(&bytes);
});
