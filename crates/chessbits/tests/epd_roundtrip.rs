//! EPD lines of the bundled perft suites: parsed, written back and parsed again to the same
//! position and operations; their `Dn` counts are what the perft suite reader finds.

use crate::common;

use chessbits::movegen::suite::parse_suite;
use chessbits::notation::epd::Epd;
use chessbits::position::Validation;

fn check_file(text: &str, name: &str) -> usize {
    let cases = parse_suite(text).unwrap();
    let lines: Vec<&str> = text
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .collect();
    assert_eq!(lines.len(), cases.len(), "{name}");
    for (line, case) in lines.iter().zip(&cases) {
        let epd = Epd::parse_with(line, Validation::Composed).unwrap_or_else(|e| panic!("{name}: {line}: {e}"));
        let written = epd.to_string();
        assert_eq!(
            Epd::parse_with(&written, Validation::Composed).unwrap(),
            epd,
            "{name}: {line} -> {written}"
        );
        assert_eq!(epd.position, common::composed_position(&case.fen), "{name}: {line}");
        for &(depth, nodes) in &case.expected {
            assert_eq!(epd.perft(depth), Some(nodes), "{name}: {line}");
        }
        assert_eq!(epd.operations.len(), case.expected.len());
    }
    cases.len()
}

#[test]
fn perft_suites_round_trip() {
    let mut lines = suites_round_trip(&common::testdata_path());
    let standard = concat!(env!("CARGO_MANIFEST_DIR"), "/../../data/standard-positions.epd");
    lines += check_file(&std::fs::read_to_string(standard).unwrap(), standard);
    assert!(lines > 20, "{lines}");
}

#[test]
#[ignore = "needs ../shared/data (see testdata/README.md); run: cargo test --workspace -- --ignored shared_data_"]
fn shared_data_perft_suites_round_trip() {
    assert!(suites_round_trip(&common::shared_path()) > 20);
}

/// Every `.epd` file below `perft/` of a data directory; the lines checked.
fn suites_round_trip(root: &std::path::Path) -> usize {
    let mut lines = 0;
    for path in common::files_below(root, "perft") {
        if path.extension().is_some_and(|e| e == "epd") {
            let text = std::fs::read_to_string(&path).unwrap();
            lines += check_file(&text, &path.display().to_string());
        }
    }
    lines
}

#[test]
fn test_suite_lines_round_trip() {
    // As WAC and the STS suites write them, and hand-made corner cases.
    let lines = [
        r#"2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - bm Qg6; id "WAC.001";"#,
        r#"r1b1k2r/ppppnppp/2n2q2/2b5/3NP3/2P1B3/PP3PPP/RN1QKB1R w KQkq - bm Nxc6 Nf5; c0 "a; b"; acd 20; ce 35; pv Nxc6 Qxc6;"#,
        r#"4k3/8/8/8/8/8/8/4K2R w K - am Kd1; c9 "quote \" and backslash \\"; xyz raw 1 2; noop;"#,
    ];
    for line in lines {
        let epd = Epd::parse(line).unwrap_or_else(|e| panic!("{line}: {e}"));
        assert_eq!(epd.to_string(), line);
        if let Some(bm) = epd.bm() {
            assert!(!bm.unwrap().is_empty());
        }
    }
    let wac = Epd::parse(lines[0]).unwrap();
    assert_eq!(wac.id(), Some("WAC.001"));
    assert_eq!(wac.bm().unwrap().unwrap()[0].to_string(), "g3g6");
    let second = Epd::parse(lines[1]).unwrap();
    assert_eq!(
        (second.acd(), second.ce(), second.comment(0)),
        (Some(20), Some(35), Some("a; b"))
    );
    assert_eq!(second.pv().unwrap().unwrap().len(), 2);
    let third = Epd::parse(lines[2]).unwrap();
    assert_eq!(third.comment(9), Some(r#"quote " and backslash \"#));
    assert_eq!(third.operation("xyz").unwrap().operands.len(), 3);
}
