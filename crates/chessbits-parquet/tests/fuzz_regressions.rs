//! Inputs found by the fuzz targets (`fuzz/`, see FUZZING.md), built here, each pinning its fix.

use chessbits::pgn::GameTree;
use chessbits_parquet::{movetext, ExportOptions, ExportReader, ParquetExporter};

/// `export_rows`: a tag whose value holds a quote (`[Result ""180+0"]`, which the PGN reader
/// reads as `"180+0`, up to the last `"` before the `]`) made the export's movetext cutter
/// (`movetext`) toggle in and out of quotes, run past the tag's line and end the tag at the `]`
/// of the first `[%eval ...]`: the row's `annotations` lost the start of the movetext and the
/// rebuilt PGN did not read.
#[test]
fn a_quote_inside_a_tag_value_keeps_the_movetext_whole() {
    let pgn = "[Result \"\"180+0\"]\n[White \"a\"]\n\n1. e4 { [%eval 0.17] [%clk 0:03:00] } 1... e5 *\n";
    assert_eq!(
        movetext(pgn.as_bytes()),
        b"1. e4 { [%eval 0.17] [%clk 0:03:00] } 1... e5 *\n"
    );
    let original = GameTree::from_pgn(pgn).unwrap();
    assert_eq!(original.tag("Result").as_deref(), Some("\"180+0"));
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("export");
    let mut exporter = ParquetExporter::create(&out, ExportOptions::default()).unwrap();
    let source = exporter.add_source("input.pgn");
    exporter.add_pgn(source, pgn.as_bytes()).unwrap();
    exporter.finish().unwrap();
    let games: Vec<_> = ExportReader::open(&out).unwrap().map(|g| g.unwrap().pgn).collect();
    assert_eq!(games.len(), 1);
    let text = games[0].as_ref().unwrap();
    let back = GameTree::from_pgn(text).unwrap_or_else(|e| panic!("{e}:\n{}", String::from_utf8_lossy(text)));
    assert!(back == original, "{}", String::from_utf8_lossy(text));
}

/// `export_rows` (FUZZING.md finding 13): a part file with a damaged data page made the
/// `parquet` crate's level decoder panic (`index out of bounds`) inside `ExportReader`'s
/// `next`, so `chessbits pgn convert` of a damaged export aborted. Pages are now read through
/// `footer::without_panics`. The test damages every byte of the data pages of a real part file
/// before the footer in turn (0x00, 0xff or its top bit flipped) and reads each: an error or
/// games, never a panic (without the fix, the first panic comes within a few hundred bytes).
#[test]
fn a_damaged_page_is_an_error_not_a_panic() {
    // The first five lichess games of the bundled file (clocks, evals, an analysed game).
    let file = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../testdata/pgn/shakmaty_lichess_db_1000k.pgn"
    ))
    .unwrap();
    let starts: Vec<usize> = (0..file.len())
        .filter(|&i| file[i..].starts_with(b"[Event "))
        .take(6)
        .collect();
    let pgn = &file[..starts[5]];
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("export");
    let mut exporter = ParquetExporter::create(&out, ExportOptions::default()).unwrap();
    let source = exporter.add_source("input.pgn");
    exporter.add_pgn(source, pgn).unwrap();
    exporter.finish().unwrap();
    let part = ExportReader::open(&out).unwrap().parts()[0].path.clone();
    let original = std::fs::read(&part).unwrap();
    let footer_len = u32::from_le_bytes(original[original.len() - 8..original.len() - 4].try_into().unwrap()) as usize;
    let data_end = original.len() - 8 - footer_len;
    let (mut errors, mut read) = (0, 0);
    for at in 4..data_end {
        // One value a byte, taking turns (all three at every byte took 26 s).
        let value = [0x00, 0xff, original[at] ^ 0x80][at % 3];
        let mut bytes = original.clone();
        bytes[at] = value;
        std::fs::write(&part, &bytes).unwrap();
        let result = std::panic::catch_unwind(|| {
            ExportReader::open(&out).map(|reader| reader.map(|g| g.map(|g| g.pgn.is_ok())).collect::<Vec<_>>())
        });
        match result {
            Ok(Ok(games)) if games.iter().all(Result::is_ok) => read += 1,
            Ok(_) => errors += 1,
            Err(_) => panic!("reading the part file with byte {at} set to {value:#04x} panicked"),
        }
    }
    assert!(errors > 0 && read > 0, "{errors} errors, {read} read");
}
