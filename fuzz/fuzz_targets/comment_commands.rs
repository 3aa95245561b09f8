//! Comment commands (`[%clk ...]`, `[%eval ...]`, `[%csl ...]`, `[%cal ...]`) on arbitrary comment
//! bytes: the iterator and the parsers never panic, every command found lies inside the input,
//! and an evaluation or a shape that parses writes back (`Display`) to text that parses to the
//! same value.
#![no_main]

use chessbits::pgn::{commands, parse_clock, Eval, Shape};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    for command in commands(data) {
        assert!(command.name.len() + command.args.len() < data.len());
        let _ = parse_clock(command.args);
        if let Some(eval) = Eval::parse(command.args) {
            let written = eval.to_string();
            assert_eq!(
                Eval::parse(written.as_bytes()),
                Some(eval),
                "{:?} -> {written:?}",
                command.args
            );
        }
        for part in command.args.split(|&b| b == b',') {
            if let Some(shape) = Shape::parse(part) {
                let written = shape.to_string();
                assert_eq!(Shape::parse(written.as_bytes()), Some(shape), "{part:?} -> {written:?}");
            }
        }
    }
});
