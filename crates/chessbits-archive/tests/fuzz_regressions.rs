//! Regression tests for what fuzzing found in the archive reader (`fuzz/fuzz_targets/archive_reader.rs`,
//! FUZZING.md): each builds its input itself.

use std::io::Cursor;

use chessbits::pgn::PgnReader;
use chessbits_archive::{
    ArchiveError, ArchiveReader, ArchiveWriter, BlockStream, WriterOptions, FORMAT_VERSION, MAGIC, MODEL_VERSION,
};

/// A valid 16-byte archive header (index codec, this format and model version).
fn header() -> Vec<u8> {
    let mut out = Vec::new();
    out.extend_from_slice(&MAGIC);
    out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
    out.extend_from_slice(&[2, MODEL_VERSION]);
    let sum = crc32(&out[0..12]);
    out.extend_from_slice(&sum.to_le_bytes());
    out
}

/// A header and one block header with valid checksums, as `fuzz/fuzz_targets/archive_reader.rs`
/// (checksum-fixing mode) made them; the block claims number `block_number`.
fn archive_with_block_number(block_number: u32) -> Vec<u8> {
    let mut out = header();
    let block = out.len();
    out.extend_from_slice(b"CBLK");
    out.extend_from_slice(&0u32.to_le_bytes()); // payload length
    out.extend_from_slice(&0u64.to_le_bytes()); // first game
    out.extend_from_slice(&0u32.to_le_bytes()); // games
    out.extend_from_slice(&block_number.to_le_bytes());
    out.extend_from_slice(&[2, 0, 0, 0]); // codec, reserved
    out.extend_from_slice(&crc32(&[]).to_le_bytes()); // payload CRC
    let sum = crc32(&out[block..block + 32]);
    out.extend_from_slice(&sum.to_le_bytes());
    out
}

/// CRC-32 (IEEE, as zlib), bit by bit: the test needs no dependency for it.
fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &byte in bytes {
        crc ^= u32::from(byte);
        for _ in 0..8 {
            crc = if crc & 1 != 0 {
                (crc >> 1) ^ 0xEDB8_8320
            } else {
                crc >> 1
            };
        }
    }
    !crc
}

/// `archive_reader`: `ArchiveReader::recover` on a 52-byte file (no index, no footer) whose one
/// block header has valid checksums and block number 0x0400_0000: the block scan
/// (`archive/scan.rs`, `scan_blocks`) records one `ChecksumMismatch` per skipped block number,
/// `lost.extend((expected..number).map(..))`, i.e. 67 million errors, a 2.7 GB allocation
/// (libFuzzer: out-of-memory, `malloc(2684354560)`); with a block number near `u32::MAX` it is
/// 4 billion. Recovery should report a gap as one problem (or bound the count), not one per
/// missing number.
#[test]
fn recover_reports_a_gap_in_block_numbers_in_bounded_memory() {
    let bytes = archive_with_block_number(0x0400_0000);
    assert_eq!(bytes.len(), 52);
    let reader = ArchiveReader::recover(Cursor::new(bytes)).unwrap();
    assert!(
        reader.problems().len() <= 1000,
        "{} problems for one block header",
        reader.problems().len()
    );
    assert!(reader.problems().iter().any(|p| matches!(
        p,
        ArchiveError::MissingBlocks {
            first: 0,
            last: 0x03ff_ffff
        }
    )));
}

/// The same, at a scale that finishes quickly today: the check that fails until the fix.
#[test]
fn recover_reports_a_small_gap_in_block_numbers_in_bounded_memory() {
    let reader = ArchiveReader::recover(Cursor::new(archive_with_block_number(100_000))).unwrap();
    assert!(
        reader.problems().len() <= 1000,
        "{} problems for one block header",
        reader.problems().len()
    );
}

/// `archive_reader` (second round): an index whose entries are checked to follow each other
/// took the next entry's offset as the end of a block, then added the block header's length to
/// that offset: an offset near `u64::MAX` overflowed ("attempt to add with overflow" in
/// `read_index`, a wrapped sum in release builds). Built here: a header, an index of two
/// entries (the second at `u64::MAX - 10`) and a footer, all checksums valid.
#[test]
fn an_index_offset_near_u64_max_is_an_error() {
    for second in [u64::MAX - 10, u64::MAX, 1 << 63] {
        let mut out = header();
        let index = out.len() as u64;
        out.extend_from_slice(b"CIDX");
        out.extend_from_slice(&2u32.to_le_bytes());
        for (offset, first_game) in [(index, 0u64), (second, 1)] {
            out.extend_from_slice(&offset.to_le_bytes());
            out.extend_from_slice(&first_game.to_le_bytes());
            out.extend_from_slice(&1u32.to_le_bytes());
        }
        let sum = crc32(&out[index as usize..]);
        out.extend_from_slice(&sum.to_le_bytes());
        let footer = out.len();
        out.extend_from_slice(&index.to_le_bytes());
        out.extend_from_slice(&2u64.to_le_bytes());
        out.extend_from_slice(&2u32.to_le_bytes());
        let sum = crc32(&out[footer..footer + 20]);
        out.extend_from_slice(&sum.to_le_bytes());
        out.extend_from_slice(b"CBITSEND");
        let error = ArchiveReader::open(Cursor::new(out))
            .err()
            .expect("a broken index opens");
        assert!(matches!(error, ArchiveError::CorruptIndex { .. }), "{error}");
    }
}

/// `archive_stream`: an archive whose index names a wrong offset for its first block (the
/// checksums recomputed): the seeking reader refused it ("index entries do not follow each
/// other") while the stream, which checked only the entries' first games, read it to its end
/// without error. Both now refuse it.
#[test]
fn the_stream_refuses_an_index_the_seeking_reader_refuses() {
    let pgn = "1. e4 e5 *\n\n1. d4 d5 *\n\n1. c4 c5 *\n";
    let options = WriterOptions {
        max_games_per_block: 2,
        ..WriterOptions::default()
    };
    let mut writer = ArchiveWriter::new(Vec::new(), options).unwrap();
    for game in PgnReader::new(pgn.as_bytes()).into_games() {
        writer.add_game(&game.unwrap()).unwrap();
    }
    let (mut bytes, _) = writer.finish().unwrap();
    let footer = bytes.len() - 32;
    let index = u64::from_le_bytes(bytes[footer..footer + 8].try_into().unwrap()) as usize;
    assert_eq!(&bytes[index..index + 4], b"CIDX");
    assert_eq!(u32::from_le_bytes(bytes[index + 4..index + 8].try_into().unwrap()), 2);
    // The first entry's offset (16, right after the file header), one byte off; the index
    // checksum recomputed.
    let first = index + 8;
    assert_eq!(u64::from_le_bytes(bytes[first..first + 8].try_into().unwrap()), 16);
    bytes[first..first + 8].copy_from_slice(&17u64.to_le_bytes());
    let body = index + 8 + 2 * 20;
    let sum = crc32(&bytes[index..body]);
    bytes[body..body + 4].copy_from_slice(&sum.to_le_bytes());

    let error = ArchiveReader::open(Cursor::new(&bytes))
        .err()
        .expect("a broken index opens");
    assert!(matches!(error, ArchiveError::CorruptIndex { .. }), "{error}");
    let results: Vec<_> = BlockStream::new(&bytes[..]).unwrap().collect();
    assert_eq!(results.len(), 3, "two blocks, then the index's error");
    assert!(results[..2].iter().all(Result::is_ok));
    let error = results[2].as_ref().unwrap_err();
    assert!(matches!(error, ArchiveError::CorruptIndex { .. }), "{error}");
}
