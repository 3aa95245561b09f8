//! The `.cbits` archive reader on arbitrary bytes. The first byte picks how the rest is used:
//!
//! - `% 3 == 0`: the bytes as they are;
//! - `% 3 == 1`: an archive whose checksums are recomputed first (header, every block header
//!   and payload that can be walked, index, footer), so mutations of the seed archives reach
//!   the block decoder instead of failing the checksums;
//! - `% 3 == 2`: a block payload, wrapped in a valid one-block archive (codec id and game count
//!   from the next two bytes).
//!
//! `ArchiveReader::open` and `recover` must not panic, nor decoding every block. An archive that
//! opens reads the same games through `games()`, block by block, game by game (`game(n)`) and
//! through `recover`; games decoded from a block write to a new archive (same codec) that reads
//! back to equal games.
#![no_main]

use std::io::Cursor;

use chessbits::pgn::GameTree;
use chessbits_archive::{ArchiveReader, ArchiveWriter, MoveCodec, StoredGame, WriterOptions};
use chessbits_fuzz::archive::{fix_checksums, wrap};
use libfuzzer_sys::fuzz_target;

/// Games decoded from an archive (those stored as moves) write to a new one that reads them back
/// equal.
fn rewrite(codec: MoveCodec, stored: &[StoredGame]) {
    let games: Vec<&GameTree> = stored.iter().filter_map(StoredGame::game).collect();
    let options = WriterOptions {
        codec,
        threads: 1,
        ..WriterOptions::default()
    };
    let mut writer = ArchiveWriter::new(Vec::new(), options).unwrap();
    for game in &games {
        writer.add_game(game).unwrap();
    }
    let (bytes, _) = writer.finish().unwrap();
    let mut reader = ArchiveReader::open(Cursor::new(bytes)).unwrap();
    let back: Vec<StoredGame> = reader.games().map(Result::unwrap).collect();
    assert!(
        back.len() == games.len() && back.iter().zip(&games).all(|(b, g)| b == *g),
        "decoded games written again and read back"
    );
}

fn check(bytes: &[u8]) {
    if let Ok(mut reader) = ArchiveReader::open(Cursor::new(bytes)) {
        assert!(reader.problems().is_empty());
        let count = reader.game_count();
        let infos = reader.block_infos();
        let all: Result<Vec<StoredGame>, _> = reader.games().collect();
        let mut by_block = Vec::new();
        let mut ok = true;
        for (i, info) in infos.iter().enumerate() {
            match reader.read_block(i).and_then(|raw| raw.decode()) {
                Ok(games) => {
                    assert_eq!(games.len() as u64, u64::from(info.game_count), "block {i}");
                    if let Some(codec) = reader.codec() {
                        rewrite(codec, &games);
                    }
                    by_block.extend(games);
                }
                Err(error) => {
                    assert!(error.block().is_some(), "a block error names its block: {error}");
                    ok = false;
                }
            }
        }
        assert_eq!(all.is_ok(), ok, "games() fails exactly when a block does");
        if let Ok(all) = all {
            assert_eq!(all, by_block);
            assert_eq!(all.len() as u64, count);
            for (n, game) in all.iter().enumerate().take(8) {
                assert_eq!(reader.game(n as u64).as_ref().ok(), Some(game), "game({n})");
            }
            let mut recovered = ArchiveReader::recover(Cursor::new(bytes)).expect("an archive that opens recovers");
            assert!(recovered.problems().is_empty());
            let again: Vec<StoredGame> = recovered.games().map(Result::unwrap).collect();
            assert_eq!(again, all, "recover reads what open reads");
        }
    }
    if let Ok(mut reader) = ArchiveReader::recover(Cursor::new(bytes)) {
        let blocks: Vec<_> = reader.blocks().collect();
        for block in blocks {
            if let Err(error) = block.and_then(|raw| raw.decode()) {
                assert!(error.block().is_some(), "a block error names its block: {error}");
            }
        }
        let _ = reader.games().count();
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    match mode % 3 {
        0 => check(rest),
        1 => {
            let mut bytes = rest.to_vec();
            fix_checksums(&mut bytes);
            check(&bytes);
        }
        _ => {
            let [codec_id, games, payload @ ..] = rest else {
                return;
            };
            check(&wrap(codec_id % 4, u32::from(*games % 16), payload));
        }
    }
});
