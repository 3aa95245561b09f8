//! EPD: `Epd::parse` on arbitrary text. What parses writes back (`Display`) to a line that parses
//! to the same position (same setup) and the same operations, and writes again to the same text;
//! the typed accessors (`bm`, `am`, `pv`, `id`, `acd`, `ce`, `perft`, comments) never panic.
#![no_main]

use chessbits::notation::epd::Epd;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(epd) = Epd::parse(text) else {
        return;
    };
    let _ = (
        epd.bm(),
        epd.am(),
        epd.pv(),
        epd.id(),
        epd.acd(),
        epd.ce(),
        epd.perft(1),
    );
    for n in 0..10 {
        let _ = epd.comment(n);
    }
    let written = epd.to_string();
    let again = Epd::parse(&written).unwrap_or_else(|e| panic!("{text:?} -> {written:?}: {e}"));
    assert_eq!(
        again.position.to_setup(),
        epd.position.to_setup(),
        "{text:?} -> {written:?}"
    );
    assert_eq!(again.operations, epd.operations, "{text:?} -> {written:?}");
    assert_eq!(again.to_string(), written, "{text:?}");
});
