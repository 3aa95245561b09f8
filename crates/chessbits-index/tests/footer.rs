//! A crafted Parquet footer that the `parquet` crate (57.3.2) panics on (a boolean field given
//! another Thrift type: `Option::unwrap` on `None`, in `thrift/mod.rs:106` for FUZZING.md's
//! finding 9, in `basic.rs:205` for the byte found here) is a typed error wherever a file from outside is opened: an
//! export's part file (listing the export, indexing it, rebuilding its PGN) and an index's
//! table file whose checksums were made to match (a hostile index, not a damaged one).

use std::fs::File;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};

use chessbits_index::{export_parts, BuildOptions, Index, IndexBuilder, IndexError, SourceInfo};
use chessbits_parquet::{part_files, ExportOptions, ExportReader, ParquetExporter};
use parquet::arrow::arrow_reader::{ArrowReaderMetadata, ArrowReaderOptions};

const PGN: &str = "[White \"a\"]\n[Black \"b\"]\n[UTCDate \"2024.01.02\"]\n[WhiteElo \"1500\"]\n[Result \"1-0\"]\n\n\
                   1. e4 e5 2. Nf3 Nc6 1-0\n\n[White \"c\"]\n[Black \"d\"]\n[Result \"0-1\"]\n\n1. d4 d5 0-1\n";

/// Whether the `parquet` crate itself panics reading the footer of `path` (what is guarded).
fn parquet_panics(path: &Path, options: ArrowReaderOptions) -> bool {
    let file = File::open(path).unwrap();
    catch_unwind(AssertUnwindSafe(|| ArrowReaderMetadata::load(&file, options))).is_err()
}

/// Rewrites the footer of the Parquet file `path` so that the `parquet` crate panics on it: a
/// field header "next field, boolean" (`0x11`/`0x12`, Thrift compact) of its metadata becomes
/// "next field, i32" (`0x15`); the first such byte that panics is kept. Returns its offset.
fn craft_footer(path: &Path, options: &ArrowReaderOptions) -> u64 {
    let original = std::fs::read(path).unwrap();
    let n = original.len();
    assert_eq!(&original[n - 4..], b"PAR1");
    let meta_len = u32::from_le_bytes(original[n - 8..n - 4].try_into().unwrap()) as usize;
    for at in n - 8 - meta_len..n - 8 {
        if original[at] != 0x11 && original[at] != 0x12 {
            continue;
        }
        let mut bytes = original.clone();
        bytes[at] = 0x15;
        std::fs::write(path, &bytes).unwrap();
        if parquet_panics(path, options.clone()) {
            return at as u64;
        }
    }
    panic!("no footer byte of {} makes parquet panic", path.display());
}

/// An export of [`PGN`] in `dir`, and its one part file.
fn export(dir: &Path) -> (PathBuf, PathBuf) {
    let out = dir.join("export");
    let mut exporter = ParquetExporter::create(&out, ExportOptions::default()).unwrap();
    let source = exporter.add_source("games.pgn");
    exporter.add_pgn(source, PGN.as_bytes()).unwrap();
    exporter.finish().unwrap();
    let parts = part_files(&out).unwrap();
    assert_eq!(parts.len(), 1);
    let part = parts[0].path.clone();
    (out, part)
}

#[test]
fn a_crafted_footer_in_an_export_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let (out, part) = export(dir.path());
    assert_eq!(export_parts(&out).unwrap()[0].rows, 2);
    craft_footer(&part, &ArrowReaderOptions::new());
    assert!(parquet_panics(&part, ArrowReaderOptions::new()));

    let Err(error) = chessbits_parquet::footer::reader_builder(File::open(&part).unwrap()) else {
        panic!("opened");
    };
    let error = error.to_string();
    assert!(error.contains("the footer does not decode"), "{error}");
    match export_parts(&out) {
        Err(IndexError::Parquet { path, source }) => {
            assert_eq!(path, part);
            assert!(source.to_string().contains("the footer does not decode"), "{source}");
        }
        other => panic!("{other:?}"),
    }
    let mut builder = IndexBuilder::create(&dir.path().join("index"), BuildOptions::default()).unwrap();
    let error = builder.add_export(&out, &mut |_| {}).expect_err("refused").to_string();
    assert!(error.contains("the footer does not decode"), "{error}");
    // The PGN rebuild of the export (`ExportReader` opens a part when it reads from it).
    let error = match ExportReader::open(&out).unwrap().next() {
        Some(Err(error)) => error.to_string(),
        Some(Ok(_)) => panic!("read a game"),
        None => panic!("no error"),
    };
    assert!(error.contains("the footer does not decode"), "{error}");
}

/// An index whose games file has a crafted footer, with its page checksums (the sidecar's tail
/// entry, and the sidecar's CRC in the manifest) made to match: `Index::open` refuses it.
#[test]
fn a_crafted_footer_in_an_index_with_matching_checksums_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("index");
    let mut builder = IndexBuilder::create(&out, BuildOptions::default()).unwrap();
    builder.add_reader(PGN.as_bytes(), SourceInfo::named("g.pgn")).unwrap();
    builder.finish().unwrap();
    assert!(Index::open(&out).is_ok());
    let games = out.join("games").join("part-00000.parquet");
    let options = ArrowReaderOptions::new().with_page_index(true);
    let at = craft_footer(&games, &options);

    // The sidecar (layout in `chessbits_index::checksums`): its last entry covers the tail.
    let sidecar = out.join("games").join(".part-00000.parquet.crc");
    let mut side = std::fs::read(&sidecar).unwrap();
    let count = u32::from_le_bytes(side[8..12].try_into().unwrap()) as usize;
    let last = 12 + 16 * (count - 1);
    let offset = u64::from_le_bytes(side[last..last + 8].try_into().unwrap());
    let length = u32::from_le_bytes(side[last + 8..last + 12].try_into().unwrap()) as u64;
    assert!(
        (offset..offset + length).contains(&at),
        "the tail entry covers the footer"
    );
    let bytes = std::fs::read(&games).unwrap();
    let crc = crc32fast::hash(&bytes[offset as usize..(offset + length) as usize]);
    side[last + 12..last + 16].copy_from_slice(&crc.to_le_bytes());
    std::fs::write(&sidecar, &side).unwrap();
    let manifest_path = out.join("manifest.json");
    let mut manifest: serde_json::Value = serde_json::from_slice(&std::fs::read(&manifest_path).unwrap()).unwrap();
    manifest["tables"]["games"][0]["pages_crc32"] = crc32fast::hash(&side).into();
    std::fs::write(&manifest_path, serde_json::to_vec(&manifest).unwrap()).unwrap();

    match Index::open(&out) {
        Err(IndexError::Parquet { path, source }) => {
            assert_eq!(path, games);
            assert!(source.to_string().contains("the footer does not decode"), "{source}");
        }
        Err(other) => panic!("{other}"),
        Ok(_) => panic!("opened"),
    }
}
