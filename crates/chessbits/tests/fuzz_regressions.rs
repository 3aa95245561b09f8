//! Inputs the fuzz targets (`fuzz/`, see FUZZING.md) found, minimized, each with the check that
//! failed.

use std::io::Cursor;

use chessbits::archive::{ArchiveError, ArchiveReader, FORMAT_VERSION, MAGIC, MODEL_VERSION};
use chessbits::codec::position::{HuffmanMulti, PositionCodec};
use chessbits::lists::MoveList;
use chessbits::pgn::PgnReader;
use chessbits::position::Position;

/// Every legal move of `pos` plays, and unplays to the same position.
fn play_every_move(pos: &Position) {
    let mut moves = MoveList::new();
    pos.legal_moves(&mut moves);
    assert!(!moves.is_empty());
    for &m in moves.iter() {
        let mut child = pos.clone();
        let undo = child.make_move(m);
        child.unmake_move(m, undo);
        assert_eq!(child.fen(), pos.fen());
    }
}

/// `position_codes` (huffman-multi): a code may store any halfmove clock up to `u32::MAX`, and
/// `make_move` added one to it: "attempt to add with overflow" (debug builds), a clock of 0
/// after wrapping (release builds). The clock now saturates. A FEN can carry the same clock.
#[test]
fn halfmove_clock_at_u32_max_saturates() {
    let bytes = [0xff, 0xff, 0xff, 0xff, 0xff, 0x0c, 0xfe, 0xef, 0x00, 0xa6, 0xa0];
    let setup = HuffmanMulti.decode(&bytes).unwrap();
    assert_eq!(setup.halfmove_clock, u32::MAX);
    let pos = Position::from_setup(setup).unwrap();
    play_every_move(&pos);

    let pos = Position::from_fen("4k3/8/8/8/8/8/8/R3K3 w - - 4294967295 7").unwrap();
    play_every_move(&pos);
    let mut child = pos.clone();
    child.make_move(chessbits::notation::uci::parse_uci(&pos, "a1a2").unwrap());
    assert_eq!(child.halfmove_clock(), u32::MAX);
    let mut null = pos.clone();
    null.make_null_move();
    assert_eq!(null.halfmove_clock(), u32::MAX);
}

/// The same for the fullmove number: a FEN may give `u32::MAX`, and Black's move (or null move)
/// then overflowed. It saturates, and unmaking restores the number exactly (a decrement would
/// leave `u32::MAX - 1`).
#[test]
fn fullmove_number_at_u32_max_saturates_and_unmakes_exactly() {
    for fen in [
        "4k3/8/8/8/8/8/8/R3K3 b - - 0 4294967295",
        "4k3/8/8/8/8/8/8/R3K3 b - - 0 4294967294",
    ] {
        let pos = Position::from_fen(fen).unwrap();
        play_every_move(&pos);
        let mut child = pos.clone();
        let m = chessbits::notation::uci::parse_uci(&pos, "e8d8").unwrap();
        let undo = child.make_move(m);
        assert_eq!(child.fullmove_number(), u32::MAX);
        child.unmake_move(m, undo);
        assert_eq!(child.fullmove_number(), pos.fullmove_number());
        let mut null = pos.clone();
        let undo = null.make_null_move();
        assert_eq!(null.fullmove_number(), u32::MAX);
        null.unmake_null_move(undo);
        assert_eq!(null.fen(), pos.fen());
    }
}

/// `pgn_reader`: a comment with a run of spaces right where the writer wraps the line at 80
/// columns lost a space: the break replaced the run's first space and the word after it started
/// the new line without its own, so `to_pgn` read back as a different game.
#[test]
fn comment_spaces_at_the_wrap_column_survive_write_and_read() {
    let mut pgn = b"1. e4 {".to_vec();
    pgn.extend(std::iter::repeat(b'x').take(72));
    pgn.extend_from_slice(b"  b} *\n");
    let game = PgnReader::new(&pgn[..]).read_owned_game().unwrap().unwrap().unwrap();
    let text = game.to_pgn();
    let again = PgnReader::new(&text[..]).read_owned_game().unwrap().unwrap().unwrap();
    assert_eq!(again, game, "{}", String::from_utf8_lossy(&text));
    assert_eq!(again.to_pgn(), text);
    // Runs of spaces at every column, in comments of several lengths.
    for run in 2..5 {
        for before in 60..90 {
            let comment = format!("{}{}b c", "y".repeat(before), " ".repeat(run));
            let pgn = format!("1. e4 {{{comment}}} e5 {{a {comment}}} *\n");
            let game = PgnReader::new(pgn.as_bytes())
                .read_owned_game()
                .unwrap()
                .unwrap()
                .unwrap();
            let text = game.to_pgn();
            let again = PgnReader::new(&text[..]).read_owned_game().unwrap().unwrap().unwrap();
            assert_eq!(again, game, "{}", String::from_utf8_lossy(&text));
        }
    }
}

/// A header and one block header with valid checksums, as `fuzz/fuzz_targets/archive_reader.rs`
/// (checksum-fixing mode) made them; the block claims number `block_number`.
fn archive_with_block_number(block_number: u32) -> Vec<u8> {
    let mut out = Vec::new();
    out.extend_from_slice(&MAGIC);
    out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
    out.extend_from_slice(&[2, MODEL_VERSION]);
    let sum = crc32(&out[0..12]);
    out.extend_from_slice(&sum.to_le_bytes());
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

/// `pgn_reader`: a lone move number after a result, right before the next game's tags
/// (`e4 *0\n[Result ...`), was a game of nothing when the tags ended it, and no game when it was
/// read on its own (cut into games, at the end of its text): the counts differed. Move numbers
/// alone are no game either way now.
#[test]
fn a_lone_move_number_before_tags_is_no_game() {
    let pgn = b"1. e4 *0\n[Result \"1-0\"] e4 0-1\n";
    let mut reader = PgnReader::new(&pgn[..]);
    let mut games = 0;
    while reader.skip_game().unwrap() {
        games += 1;
    }
    assert_eq!(games, 2);
    let mut reader = PgnReader::new(&pgn[..]);
    let mut bytes = Vec::new();
    let mut texts = Vec::new();
    while let Some(raw) = reader.read_raw_game(&mut bytes).unwrap() {
        assert!(raw.reader(&bytes[..]).skip_game().unwrap(), "a cut game holds a game");
        texts.push(String::from_utf8(std::mem::take(&mut bytes)).unwrap());
    }
    assert_eq!(texts, ["1. e4 *", "[Result \"1-0\"] e4 0-1"]);
}
