//! Damaged archives: every flipped byte is detected, every truncation is an error, garbage is
//! an error, never a panic; recovery reads every intact block and names the bad ones.

use crate::common;

use std::io::Cursor;

use chessbits::pgn::{GameTree, PgnReader};
use chessbits_archive::{ArchiveError, ArchiveReader, ArchiveWriter, MoveCodec, StoredGame, WriterOptions};
use proptest::prelude::*;

const PGN: &str = r#"[Event "Rated Blitz game"]
[Site "https://lichess.org/abc"]
[White "a"]
[Black "b"]
[Result "1-0"]

1. e4 { [%eval 0.17] [%clk 0:03:00] } 1... e5 { [%clk 0:03:00] } 2. Nf3 $1 (2. f4 exf4 {gambit}) 2... Nc6 1-0

[Event "Second"]
[FEN "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"]

1. e4 Kd7 2. -- Ke6 {null move} *

[Event "Third"]

{A game without moves} 1/2-1/2

[Event "Fourth"]

1. d4 d5 2. c4 e6 3. Nc3 Nf6 4. Bg5 Be7 0-1
"#;

fn games() -> Vec<GameTree> {
    let games: Vec<GameTree> = PgnReader::new(PGN.as_bytes())
        .into_games()
        .map(Result::unwrap)
        .collect();
    assert_eq!(games.len(), 4);
    games
}

/// Four games in two blocks of two.
fn archive(codec: MoveCodec) -> Vec<u8> {
    let options = WriterOptions {
        codec,
        max_games_per_block: 2,
        threads: 1,
        ..WriterOptions::default()
    };
    let mut writer = ArchiveWriter::new(Vec::new(), options).unwrap();
    for game in games() {
        writer.add_game(&game).unwrap();
    }
    writer.finish().unwrap().0
}

/// Everything a strict reader can get out of `bytes`, or the first error.
fn read_all(bytes: &[u8]) -> Result<Vec<StoredGame>, ArchiveError> {
    let mut reader = ArchiveReader::open(Cursor::new(bytes))?;
    reader.games().collect()
}

/// Everything recovery gets out of `bytes` (must not panic; may fail).
fn recover_all(bytes: &[u8]) -> Result<(Vec<StoredGame>, usize), ArchiveError> {
    let mut reader = ArchiveReader::recover(Cursor::new(bytes))?;
    let mut games = Vec::new();
    let mut bad = reader.problems().len();
    let blocks: Vec<_> = reader.blocks().collect();
    for block in blocks {
        match block.and_then(|raw| raw.decode()) {
            Ok(mut decoded) => games.append(&mut decoded),
            Err(error) => {
                assert!(error.block().is_some(), "a block error names its block: {error}");
                bad += 1;
            }
        }
    }
    Ok((games, bad))
}

#[test]
fn the_small_archive_reads_back() {
    for codec in MoveCodec::ALL {
        assert_eq!(read_all(&archive(codec)).unwrap(), games());
    }
}

#[test]
fn every_single_byte_flip_is_detected() {
    for codec in MoveCodec::ALL {
        let bytes = archive(codec);
        for i in 0..bytes.len() {
            for mask in [0x01u8, 0x80, 0xff] {
                let mut damaged = bytes.clone();
                damaged[i] ^= mask;
                assert!(
                    read_all(&damaged).is_err(),
                    "flip {mask:#x} at byte {i} of {} went unnoticed",
                    bytes.len()
                );
                // Recovery never panics and never returns a game that was not there.
                if let Ok((recovered, _)) = recover_all(&damaged) {
                    let originals = games();
                    assert!(recovered.iter().all(|g| originals.iter().any(|o| g == o)), "byte {i}");
                }
            }
        }
    }
}

#[test]
fn every_truncation_is_an_error_and_recovery_keeps_whole_blocks() {
    let bytes = archive(MoveCodec::IndexBits);
    let originals = games();
    for len in 0..bytes.len() {
        let cut = &bytes[..len];
        match read_all(cut) {
            Err(ArchiveError::MissingFooter | ArchiveError::BadMagic | ArchiveError::CorruptIndex { .. }) => {}
            other => panic!("truncated to {len}: {other:?}"),
        }
        if let Ok((recovered, _)) = recover_all(cut) {
            // Whole blocks of two games, in order, from the start.
            assert!(
                recovered.len() % 2 == 0 && recovered[..] == originals[..recovered.len()],
                "length {len}"
            );
        }
    }
    // Cut inside the index: both blocks are whole, recovery finds them by scanning.
    let (recovered, problems) = recover_all(&bytes[..bytes.len() - 40]).unwrap();
    assert_eq!(recovered, originals);
    assert_eq!(problems, 1, "the missing footer");
}

/// The offsets of the block headers, read from the index through the footer.
fn block_offsets(bytes: &[u8]) -> Vec<usize> {
    let footer = &bytes[bytes.len() - 32..];
    let index = u64::from_le_bytes(footer[0..8].try_into().unwrap()) as usize;
    let count = u32::from_le_bytes(footer[16..20].try_into().unwrap()) as usize;
    (0..count)
        .map(|i| u64::from_le_bytes(bytes[index + 8 + 20 * i..index + 16 + 20 * i].try_into().unwrap()) as usize)
        .collect()
}

/// The first 100 games of the Carlsen file (all of its bundled prefix) in blocks of 10 games.
fn many_blocks() -> (Vec<GameTree>, Vec<u8>) {
    let data = common::read_data(&common::testdata_path(), "pgn/notnil_Carlsen.pgn");
    let games: Vec<GameTree> = PgnReader::new(&data[..])
        .into_games()
        .take(100)
        .map(Result::unwrap)
        .collect();
    let options = WriterOptions {
        max_games_per_block: 10,
        ..WriterOptions::default()
    };
    let mut writer = ArchiveWriter::new(Vec::new(), options).unwrap();
    for game in &games {
        writer.add_game(game).unwrap();
    }
    (games, writer.finish().unwrap().0)
}

#[test]
fn skip_corrupt_recovers_every_other_block() {
    let (games, bytes) = many_blocks();
    let offsets = block_offsets(&bytes);
    assert_eq!(offsets.len(), 10);

    // A damaged payload in block 3: the index still stands, block 3 alone is lost.
    let mut damaged = bytes.clone();
    damaged[offsets[3] + 36 + 5] ^= 0x40;
    let mut reader = ArchiveReader::recover(Cursor::new(&damaged[..])).unwrap();
    assert!(reader.problems().is_empty());
    let mut recovered = Vec::new();
    let mut bad = Vec::new();
    for block in reader.blocks() {
        match block {
            Ok(raw) => recovered.extend(raw.decode().unwrap()),
            Err(error) => bad.push(error),
        }
    }
    assert!(
        matches!(bad[..], [ArchiveError::ChecksumMismatch { block: 3 }]),
        "{bad:?}"
    );
    let expected: Vec<GameTree> = games[..30].iter().chain(&games[40..]).cloned().collect();
    assert_eq!(recovered, expected);
    assert_eq!(bad[0].to_string(), "block 3: checksum mismatch (the block is damaged)");

    // The strict reader stops at block 3 with the same error.
    let mut strict = ArchiveReader::open(Cursor::new(&damaged[..])).unwrap();
    let results: Vec<_> = strict.games().collect();
    assert_eq!(results.len(), 31);
    assert!(matches!(results[30], Err(ArchiveError::ChecksumMismatch { block: 3 })));

    // A damaged header of block 5 and a damaged index: the scan finds the other nine blocks.
    let mut damaged = bytes.clone();
    damaged[offsets[5] + 2] ^= 0x01;
    let index = damaged.len() - 32 - 8;
    damaged[index] ^= 0x01;
    assert!(matches!(
        ArchiveReader::open(Cursor::new(&damaged[..])),
        Err(ArchiveError::CorruptIndex { .. })
    ));
    let mut reader = ArchiveReader::recover(Cursor::new(&damaged[..])).unwrap();
    let problems: Vec<String> = reader.problems().iter().map(ToString::to_string).collect();
    assert_eq!(
        problems,
        [
            "corrupt block index: index checksum mismatch",
            "block 5: checksum mismatch (the block is damaged)"
        ]
    );
    let recovered: Vec<StoredGame> = reader.blocks().flat_map(|b| b.unwrap().decode().unwrap()).collect();
    let expected: Vec<GameTree> = games[..50].iter().chain(&games[60..]).cloned().collect();
    assert_eq!(recovered, expected);
}

/// Rewrites the checksums of block `offset` after its payload was changed, as a forger would.
fn reseal_block(bytes: &mut [u8], offset: usize) {
    let len = u32::from_le_bytes(bytes[offset + 4..offset + 8].try_into().unwrap()) as usize;
    let payload_crc = crc32fast::hash(&bytes[offset + 36..offset + 36 + len]);
    bytes[offset + 28..offset + 32].copy_from_slice(&payload_crc.to_le_bytes());
    let header_crc = crc32fast::hash(&bytes[offset..offset + 32]);
    bytes[offset + 32..offset + 36].copy_from_slice(&header_crc.to_le_bytes());
}

#[test]
fn the_documented_layout_is_the_real_one() {
    let bytes = archive(MoveCodec::IndexByte);
    assert_eq!(&bytes[..8], b"\x89CBITS\r\n");
    assert_eq!(u16::from_le_bytes([bytes[8], bytes[9]]), 2);
    assert_eq!(bytes[10], MoveCodec::IndexByte.id());
    assert_eq!(bytes[11], chessbits_archive::MODEL_VERSION);
    assert_eq!(crc32fast::hash(&bytes[..12]).to_le_bytes(), bytes[12..16]);
    assert_eq!(&bytes[bytes.len() - 8..], b"CBITSEND");
    let offsets = block_offsets(&bytes);
    assert_eq!(offsets[0], 16);
    assert_eq!(&bytes[16..20], b"CBLK");
    // Resealing an unchanged block changes nothing.
    let mut copy = bytes.clone();
    reseal_block(&mut copy, offsets[1]);
    assert_eq!(copy, bytes);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
    fn garbage_is_an_error(bytes in proptest::collection::vec(any::<u8>(), 0..600)) {
        prop_assert!(read_all(&bytes).is_err());
        let _ = recover_all(&bytes);
        let mut with_magic = b"\x89CBITS\r\n".to_vec();
        with_magic.extend_from_slice(&bytes);
        prop_assert!(read_all(&with_magic).is_err());
        let _ = recover_all(&with_magic);
    }

    /// Payload bytes changed and the checksums forged: the decoder must still fail cleanly
    /// (or decode legal games), never panic.
    #[test]
    fn forged_payloads_never_panic(changes in proptest::collection::vec((any::<usize>(), any::<u8>()), 1..6), codec_byte in 1u8..=MoveCodec::ALL.len() as u8) {
        let codec = MoveCodec::from_id(codec_byte).unwrap();
        let mut bytes = archive(codec);
        let offsets = block_offsets(&bytes);
        let block = offsets[changes[0].0 % offsets.len()];
        let len = u32::from_le_bytes(bytes[block + 4..block + 8].try_into().unwrap()) as usize;
        for &(at, value) in &changes {
            bytes[block + 36 + at % len] = value;
        }
        reseal_block(&mut bytes, block);
        if let Ok(games) = read_all(&bytes) {
            prop_assert_eq!(games.len(), 4);
        }
    }
}

#[test]
fn forged_raw_sections_never_panic() {
    // Hand-made payloads with valid checksums: section tables that lie, unknown kinds, bad zstd.
    let bytes = archive(MoveCodec::IndexByte);
    let offsets = block_offsets(&bytes);
    let payloads: [&[u8]; 7] = [
        &[],
        &[1, 1, 0, 5, 10],
        &[1, 3, 0, 200, 1, 0],
        &[2, 3, 0, 0, 0, 3, 0, 0, 0],
        &[1, 1, 1, 100, 4, 0x28, 0xb5, 0x2f, 0xfd],
        &[1, 42, 0, 1, 1, 0],
        &[3, 1, 0, 1, 1, 2, 0, 1, 1, 3, 0, 1, 1, 0x80, 0x80, 0x80],
    ];
    for payload in payloads {
        // Splice a forged block 0 in front of the real block 1 and rebuild the index by hand.
        let mut forged = bytes[..16].to_vec();
        let mut header = bytes[16..52].to_vec();
        header[4..8].copy_from_slice(&(payload.len() as u32).to_le_bytes());
        forged.extend_from_slice(&header);
        forged.extend_from_slice(payload);
        reseal_block(&mut forged, 16);
        let delta = forged.len() as i64 - offsets[1] as i64;
        let index_at = bytes.len() - 32 - (12 + 40);
        forged.extend_from_slice(&bytes[offsets[1]..index_at]);
        let new_index_at = forged.len();
        let mut index = bytes[index_at..bytes.len() - 32].to_vec();
        let second = (offsets[1] as i64 + delta) as u64;
        index[28..36].copy_from_slice(&second.to_le_bytes());
        let crc = crc32fast::hash(&index[..index.len() - 4]);
        let n = index.len();
        index[n - 4..].copy_from_slice(&crc.to_le_bytes());
        forged.extend_from_slice(&index);
        let mut footer = bytes[bytes.len() - 32..].to_vec();
        footer[0..8].copy_from_slice(&(new_index_at as u64).to_le_bytes());
        let crc = crc32fast::hash(&footer[..20]);
        footer[20..24].copy_from_slice(&crc.to_le_bytes());
        forged.extend_from_slice(&footer);

        let mut reader = ArchiveReader::open(Cursor::new(&forged[..])).unwrap();
        let results: Vec<_> = reader.blocks().collect();
        let error = results[0].as_ref().map(|raw| raw.decode()).unwrap().unwrap_err();
        assert!(
            matches!(error, ArchiveError::CorruptPayload { block: 0, .. }),
            "{payload:?}: {error}"
        );
        assert_eq!(results[1].as_ref().unwrap().decode().unwrap(), games()[2..]);
    }
}

#[test]
fn a_newer_format_version_is_refused_even_by_recovery() {
    let mut bytes = archive(MoveCodec::Entropy);
    bytes[8] = 3;
    let crc = crc32fast::hash(&bytes[..12]);
    bytes[12..16].copy_from_slice(&crc.to_le_bytes());
    assert!(matches!(
        ArchiveReader::open(Cursor::new(&bytes[..])),
        Err(ArchiveError::UnsupportedVersion(3))
    ));
    assert!(matches!(
        ArchiveReader::recover(Cursor::new(&bytes[..])),
        Err(ArchiveError::UnsupportedVersion(3))
    ));
    // A move model this version does not know is refused too.
    bytes[8] = 2;
    bytes[11] = 7;
    let crc = crc32fast::hash(&bytes[..12]);
    bytes[12..16].copy_from_slice(&crc.to_le_bytes());
    assert!(matches!(
        ArchiveReader::open(Cursor::new(&bytes[..])),
        Err(ArchiveError::UnsupportedModel(7))
    ));
    // A damaged header (checksum wrong) is only a problem: the blocks name their own codec.
    bytes[11] = chessbits_archive::MODEL_VERSION;
    bytes[12] ^= 1;
    let mut reader = ArchiveReader::recover(Cursor::new(&bytes[..])).unwrap();
    assert!(matches!(reader.problems(), [ArchiveError::CorruptHeader]));
    assert_eq!(reader.codec(), None);
    assert_eq!(reader.games().map(Result::unwrap).collect::<Vec<_>>(), games());
}
