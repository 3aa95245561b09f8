//! Every position code (`codec::position`: stream, huffman, huffman-multi, huffman-tuned,
//! compact) on arbitrary bytes; the first byte picks the code. Nothing panics; decoders are
//! canonical: a setup that decodes has fullmove number 1, encodes to exactly the input bytes and
//! decodes again to itself. If the setup is a valid position its moves generate and play, and
//! the position's own setup (what `to_setup` gives) round-trips through the code too.
#![no_main]

use chessbits::codec::position;
use chessbits::position::{Position, Setup};
use chessbits_fuzz::legal_moves;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&selector, bytes)) = data.split_first() else {
        return;
    };
    let codecs = position::all();
    let codec = codecs[usize::from(selector) % codecs.len()];
    let name = codec.name();
    let Ok(setup) = codec.decode(bytes) else {
        return;
    };
    assert_eq!(setup.fullmove_number, 1, "{name}");
    assert_eq!(codec.encode(&setup).as_deref(), Ok(bytes), "{name}: canonical");
    assert_eq!(
        codec.decode(bytes).as_ref(),
        Ok(&setup),
        "{name}: decodes twice the same"
    );
    let bits = codec.encoded_bits(&setup).unwrap();
    assert!(bits <= 8 * bytes.len() as u64, "{name}");
    let Ok(pos) = Position::from_setup(setup.clone()) else {
        return;
    };
    for m in legal_moves(&pos) {
        let mut child = pos.clone();
        child.play_unchecked(m);
    }
    let own = pos.to_setup();
    if own != setup {
        // `from_setup` drops an en passant square no pawn can capture on.
        let again = codec
            .encode(&own)
            .unwrap_or_else(|e| panic!("{name}: valid position {} refused: {e}", pos.fen()));
        assert_eq!(
            codec.decode(&again),
            Ok(Setup {
                fullmove_number: 1,
                ..own
            }),
            "{name}"
        );
    }
});
