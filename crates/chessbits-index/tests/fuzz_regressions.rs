//! What the fuzz targets of the index (`fuzz/fuzz_targets/index_*.rs`, FUZZING.md) found, each
//! input built here.

use chessbits::position::Position;
use chessbits_index::{resolve_position, IndexError, PositionKey};

/// `index_query_text`: the moves `0000` resolved to the start position with White's queen-side
/// castling right gone and Black to move, and a key that was not the position's (the null move
/// was played as a move from a1). A null move is an error (SAN's `--` already was).
#[test]
fn a_null_move_in_a_query_is_an_error() {
    for moves in ["0000", "e4 e5 0000"] {
        match resolve_position(None, moves) {
            Err(IndexError::Query(reason)) => assert!(reason.contains("a null move"), "{moves}: {reason}"),
            other => panic!("{moves}: {other:?}"),
        }
    }
    assert!(resolve_position(None, "1. e4 --").is_err());
    // Moves around it still resolve, and to the position they name.
    let pos = resolve_position(None, "1. e4 e5 2. g1f3").unwrap();
    let fen = pos.fen();
    assert_eq!(fen, "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2");
    assert_eq!(
        PositionKey::of(&pos),
        PositionKey::of(&Position::from_fen(&fen).unwrap())
    );
}

/// `index_query_text`: a month `YYYY-00` (or `0-000`) as a `since`/`until` filter computed
/// `year * 12 + month - 1` before checking the month ("attempt to subtract with overflow" with
/// debug assertions). It is an error, as any other bad month.
#[test]
fn month_zero_is_not_a_month() {
    use chessbits_index::model::game::month_number;
    use chessbits_index::Filters;
    for text in ["2024-00", "0-000", "0000-00"] {
        assert_eq!(month_number(text), None, "{text}");
        assert!(Filters::default().since(text).is_err(), "{text}");
        assert!(Filters::default().until(text).is_err(), "{text}");
    }
    assert_eq!(month_number("2024-01"), Some(2024 * 12));
}

/// `index_files`: a page checksum sidecar whose entry says a length past the end of its file
/// (the sidecar's CRC in the manifest made right) made `Index::open` allocate that length
/// (3 GB in the fuzzer's input) before reading. It is a format error naming the sidecar.
#[test]
fn a_sidecar_entry_past_the_end_of_its_file_is_an_error() {
    use chessbits_index::{BuildOptions, IndexBuilder, SourceInfo};
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("index");
    let mut builder = IndexBuilder::create(&out, BuildOptions::default()).unwrap();
    builder
        .add_reader(&b"[Result \"1-0\"]\n\n1. e4 e5 1-0\n"[..], SourceInfo::named("g.pgn"))
        .unwrap();
    builder.finish().unwrap();
    assert!(chessbits_index::Index::open(&out).is_ok());
    // The first entry of the sources file's sidecar (layout in `checksums`): length u32::MAX.
    let sidecar = out.join("sources").join(".part-00000.parquet.crc");
    let mut bytes = std::fs::read(&sidecar).unwrap();
    assert_eq!(&bytes[..8], b"CBPAGES1");
    bytes[20..24].copy_from_slice(&u32::MAX.to_le_bytes());
    std::fs::write(&sidecar, &bytes).unwrap();
    let manifest_path = out.join("manifest.json");
    let mut manifest: serde_json::Value = serde_json::from_slice(&std::fs::read(&manifest_path).unwrap()).unwrap();
    manifest["tables"]["sources"][0]["pages_crc32"] = crc32fast::hash(&bytes).into();
    std::fs::write(&manifest_path, serde_json::to_vec(&manifest).unwrap()).unwrap();
    match chessbits_index::Index::open(&out) {
        Err(IndexError::Format { path, reason }) => {
            assert_eq!(path, sidecar);
            assert!(reason.contains("past the end"), "{reason}");
        }
        Err(other) => panic!("{other}"),
        Ok(_) => panic!("opened"),
    }
}
