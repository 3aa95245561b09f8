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

/// The games of the `index_files` fuzz target's index (`fuzz/src/index.rs`), as it builds them.
const FUZZ_PGN: &str = include_str!("../../../fuzz/src/index_games.pgn");

/// `index_files`: file 8 of the fuzz target's index (sorted by path: the `positions` file) with
/// a run of `0x51` bytes written at offset 0x51 (its first page of keys, `DELTA_BYTE_ARRAY`), its
/// page checksums made right, made the `parquet` crate panic in a query ("attempt to add with
/// overflow" in `arrow/decoder/delta_byte_array.rs`). Pages are read through
/// `chessbits_parquet::footer::without_panics`: the queries give errors, no panic. Since format 3
/// the same bytes are written into the first key page of the explorer file (see below).
#[test]
fn a_crafted_key_page_is_an_error() {
    use chessbits_index::{BuildOptions, ExploreOptions, Index, IndexBuilder, SearchOptions, SourceInfo};
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("index");
    let options = BuildOptions {
        threads: 1,
        memory: 64 << 20,
        ..BuildOptions::default()
    };
    let mut builder = IndexBuilder::create(&out, options).unwrap();
    builder
        .add_reader(
            format!("{FUZZ_PGN}\n{FUZZ_PGN}").as_bytes(),
            SourceInfo::named("games.pgn"),
        )
        .unwrap();
    builder.finish().unwrap();
    let mut files = Vec::new();
    walk(&out, "", &mut files);
    files.sort();
    // The fuzz target's file 8 was the positions file; since format 3 its keys are int64
    // prefixes, and the explorer file is the one that starts with a `DELTA_BYTE_ARRAY` key page.
    // Each game is added twice, so that every position has explorer rows and its key page holds
    // distinct random keys, which zstd stores raw as the positions file's were: the crafted
    // bytes reach the page decoder unchanged.
    assert_eq!(files[8 % files.len()], "positions/part-00000.parquet");
    let name = "explorer/part-00000.parquet";
    let path = out.join(name);
    let mut bytes = std::fs::read(&path).unwrap();
    let mut patch = vec![0x51u8; 73];
    patch.extend([4, 0]);
    let end = (0x51 + patch.len()).min(bytes.len());
    bytes[0x51..end].copy_from_slice(&patch[..end - 0x51]);
    std::fs::write(&path, &bytes).unwrap();
    // The sidecar's entries over the new bytes, the manifest's sums of both files.
    let sidecar = out.join("explorer").join(".part-00000.parquet.crc");
    let mut side = std::fs::read(&sidecar).unwrap();
    let count = u32::from_le_bytes(side[8..12].try_into().unwrap()) as usize;
    for e in 0..count {
        let at = 12 + 16 * e;
        let offset = u64::from_le_bytes(side[at..at + 8].try_into().unwrap()) as usize;
        let length = u32::from_le_bytes(side[at + 8..at + 12].try_into().unwrap()) as usize;
        let crc = crc32fast::hash(&bytes[offset..offset + length]);
        side[at + 12..at + 16].copy_from_slice(&crc.to_le_bytes());
    }
    std::fs::write(&sidecar, &side).unwrap();
    let manifest_path = out.join("manifest.json");
    let mut manifest: serde_json::Value = serde_json::from_slice(&std::fs::read(&manifest_path).unwrap()).unwrap();
    let entry = &mut manifest["tables"]["explorer"][0];
    entry["pages_crc32"] = crc32fast::hash(&side).into();
    entry["crc32"] = crc32fast::hash(&bytes).into();
    std::fs::write(&manifest_path, serde_json::to_vec(&manifest).unwrap()).unwrap();

    let index = Index::open(&out).unwrap();
    let mut page_errors = 0;
    for moves in ["", "e4 e5 Nf3 Nc6"] {
        let pos = resolve_position(None, moves).unwrap();
        let results = [
            index.explore(&pos, &ExploreOptions::default()).err(),
            index.search(&pos, &SearchOptions::default()).err(),
        ];
        for error in results.into_iter().flatten() {
            match error {
                IndexError::Parquet { path: p, source } if source.to_string().contains("a page does not decode") => {
                    assert_eq!(p, path);
                    page_errors += 1;
                }
                _ => {}
            }
        }
    }
    assert!(page_errors > 0, "no query read the crafted page");
}

/// The files below `dir`, as paths relative to it (`/`-separated).
fn walk(dir: &std::path::Path, prefix: &str, out: &mut Vec<String>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let entry = entry.unwrap();
        let name = format!("{prefix}{}", entry.file_name().to_string_lossy());
        if entry.file_type().unwrap().is_dir() {
            walk(&entry.path(), &format!("{name}/"), out);
        } else {
            out.push(name);
        }
    }
}
