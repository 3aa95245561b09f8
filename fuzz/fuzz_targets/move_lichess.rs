//! The lichess-style move code (`codec::moves::lichess`: Huffman-coded rank among the sorted
//! legal moves) on arbitrary bytes from a position picked by the first byte, with the ply count
//! from the second. Nothing panics; a game that decodes is legal move by move, and re-encoding it
//! gives exactly the bits the decoder read (the code is a prefix code; the padding after the
//! last move is not part of it).
#![no_main]

use chessbits::codec::bits::{BitReader, BitWriter};
use chessbits::codec::moves::lichess::{decode_game, encode_into};
use chessbits_fuzz::{position, replay_legal};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let [selector, plies, bytes @ ..] = data else {
        return;
    };
    let start = position(*selector);
    let plies = usize::from(*plies);
    if let Ok(moves) = decode_game(&start, bytes, plies) {
        assert_eq!(moves.len(), plies);
        replay_legal(&start, &moves, "lichess");
        let mut writer = BitWriter::new();
        encode_into(&start, &moves, &mut writer).unwrap();
        let bits = writer.bit_len();
        let encoded = writer.finish();
        assert!(bits <= 8 * bytes.len() as u64, "the code is longer than its input");
        let (mut a, mut b) = (BitReader::new(&encoded), BitReader::new(bytes));
        for i in 0..bits {
            assert_eq!(a.read_bit(), b.read_bit(), "bit {i} of {bits}");
        }
    }
});
