//! Issue 31, export version 3: `annotations` marks the main line's moves (`0x04` a SAN, `0x05`
//! a move number and SAN) as it marks the clock and eval comments, and the rebuild gives the
//! text back byte for byte; a version-2 batch's `0x04`/`0x05` bytes stay text.

use std::collections::HashMap;
use std::sync::Arc;

use chessbits_parquet::{rows_from_batch, rows_to_batch, ExportOptions, MovesCode, RebuildError, EXPORT_VERSION_KEY};

use crate::rebuild::{export_and_rebuild, export_rows, games};

#[test]
fn annotations_mark_the_main_line_moves() {
    // Moves in comments, a variation and a `;` comment stay text; `1.e4` keeps its number as
    // text; the input's own 0x04 and 0x05 are escaped.
    let a = "1.e4 e5 2. Nf3 { Nc6 is best } 2... Nc6 (2... d6 3. d4) 3. Bb5 $1 a6 4. Bxc6 dxc6 ; Nxe5 next\n\
             5. Nxe5 Qd4 6. Nf3 Qxe4+ 7. Qe2 Qxe2+ 8. Kxe2 { \u{4}\u{5} } 0-1";
    // From a FEN with Black to move at move 12; tags out of the rebuild order (the whole game
    // is kept, a tag whose value is a move included); after a move spelled otherwise than the
    // SAN (`Ng1f3`) the moves stay text.
    let b_tags = "[Result \"1/2-1/2\"]\n[Event \"Kd7\"]\n[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/4P3/4K1N1 b - - 0 12\"]\n";
    let b = "12... Kd7 13. Ng1f3 Ke6 14. Nd4+ Kd5 1/2-1/2";
    let pgn = format!("[Event \"e\"]\n[Result \"0-1\"]\n\n{a}\n\n{b_tags}\n{b}\n\n");
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("export");
    let rebuilt = export_and_rebuild(pgn.as_bytes(), &out, ExportOptions::default());
    let rebuilt: Vec<String> = rebuilt
        .into_iter()
        .map(|r| String::from_utf8(r.unwrap()).unwrap())
        .collect();
    assert_eq!(rebuilt.concat(), pgn, "byte for byte");
    let rows = export_rows(&out);
    let expected_a =
        "1.\u{4} \u{4} \u{5} { Nc6 is best } \u{5} (2... d6 3. d4) \u{5} $1 \u{4} \u{5} \u{4} ; Nxe5 next\n\
                      \u{5} \u{4} \u{5} \u{4} \u{5} \u{4} \u{5} { \u{3}\u{4}\u{3}\u{5} } 0-1";
    assert_eq!(rows[0].annotations.as_deref(), Some(expected_a));
    let expected_b = format!("{b_tags}\n\u{5} 13. Ng1f3 Ke6 14. Nd4+ Kd5 1/2-1/2");
    assert_eq!(rows[1].annotations.as_deref(), Some(expected_b.as_str()));
    let originals = games(pgn.as_bytes());
    for (row, original) in rows.iter().zip(&originals) {
        let back = row.to_game_tree(MovesCode::default()).unwrap();
        assert!(back == *original);
    }

    // A move mark past the main line, in a row without moves, or over moves that do not
    // decode is a typed error, not a panic or a guess.
    let mut odd = rows[0].clone();
    odd.annotations = Some(format!("{} \u{4} 0-1", "\u{4} ".repeat(16)));
    let error = odd.to_pgn(MovesCode::default()).unwrap_err();
    assert!(matches!(error, RebuildError::Annotations { .. }), "{error}");
    let mut odd = rows[0].clone();
    odd.moves = None;
    assert_eq!(odd.to_pgn(MovesCode::default()), Err(RebuildError::NullMove));
    let mut odd = rows[0].clone();
    odd.moves = Some(vec![0xff; 3]);
    let error = odd.to_pgn(MovesCode::default()).unwrap_err();
    assert!(matches!(error, RebuildError::Moves { .. }), "{error}");
}

/// A version-2 export marked no moves: a `0x04` or `0x05` of its `annotations` is the input's
/// byte, and comes back as such.
#[test]
fn a_version_2_batch_keeps_its_move_mark_bytes_as_text() {
    let pgn = "[Event \"e\"]\n\n1. e4 { a \u{4} b \u{5} } e5 *\n\n";
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("export");
    export_and_rebuild(pgn.as_bytes(), &out, ExportOptions::default());
    let mut row = export_rows(&out).remove(0);
    // As a version-2 exporter wrote it: the moves as text, the bytes not escaped.
    row.annotations = Some("1. e4 { a \u{4} b \u{5} } e5 *".to_string());
    let batch = rows_to_batch(&[row]).unwrap();
    let metadata = HashMap::from([(EXPORT_VERSION_KEY.to_string(), "2".to_string())]);
    let schema = Arc::new(batch.schema().as_ref().clone().with_metadata(metadata));
    let v2 = batch.with_schema(schema).unwrap();
    let back = rows_from_batch(&v2).unwrap().remove(0);
    assert_eq!(back.to_pgn(MovesCode::default()).unwrap(), pgn.as_bytes());
    // The same text in a batch of this version is move marks: the game's two moves.
    let current = rows_from_batch(&batch_of(&back, "1. e4 { a \u{4} b \u{5} } e5 *")).unwrap();
    let text = current[0].to_pgn(MovesCode::default()).unwrap();
    assert_eq!(text, b"[Event \"e\"]\n\n1. e4 { a e4 b 1... e5 } e5 *\n\n");
}

/// A batch of `row` with `annotations` set to `text` (no version in its metadata: this one's).
fn batch_of(row: &chessbits_parquet::GameRow, text: &str) -> arrow_array::RecordBatch {
    let mut row = row.clone();
    row.annotations = Some(text.to_string());
    rows_to_batch(&[row]).unwrap()
}
