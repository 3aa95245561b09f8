//! Nothing lost, nothing changed: PGN packed into an archive comes back game for game, tags and
//! comments byte for byte, and every game the reader cannot store as moves as its original
//! text. Checked on hostile games built here and on every shared PGN file, with every codec.

use crate::common;

use std::io::Cursor;

use chessbits::pgn::{Comment, GameResult, PgnReader, Tag, WriteOptions};
use chessbits_archive::{
    ArchiveError, ArchiveReader, ArchiveWriter, MoveCodec, StoredGame, WriterOptions, MAX_BLOCK_RAW_BYTES,
};

/// What the archive must give back for `pgn`: each game the reader reads without error, and
/// the text of every other game, in order.
fn expected(pgn: &[u8]) -> Vec<StoredGame> {
    let mut reader = PgnReader::new(pgn);
    let mut text = Vec::new();
    let mut out = Vec::new();
    while let Some(raw) = reader.read_raw_game(&mut text).unwrap() {
        let game = raw.reader(&text[..]).read_owned_game().unwrap().unwrap();
        out.push(match game {
            Ok(game) => StoredGame::Game(game),
            Err(_) => StoredGame::Text(text.clone()),
        });
        text.clear();
    }
    out
}

/// `pgn` packed with `codec`, as `chessbits pack` does it.
fn pack(pgn: &[u8], codec: MoveCodec, block_games: u32) -> (Vec<u8>, u64) {
    let options = WriterOptions {
        codec,
        max_games_per_block: block_games,
        threads: 2,
        ..WriterOptions::default()
    };
    let mut writer = ArchiveWriter::new(Vec::new(), options).unwrap();
    let mut reader = PgnReader::new(pgn);
    let mut text = Vec::new();
    let mut noted = 0;
    while let Some(raw) = reader.read_raw_game(&mut text).unwrap() {
        writer.add_pgn(std::mem::take(&mut text), raw, 0).unwrap();
        noted += writer.take_stored_as_text().len() as u64;
    }
    writer.flush().unwrap();
    noted += writer.take_stored_as_text().len() as u64;
    let (bytes, summary) = writer.finish().unwrap();
    assert_eq!(summary.bytes, bytes.len() as u64);
    assert_eq!(summary.text_games, noted, "every game stored as text is reported");
    (bytes, noted)
}

fn unpack(archive: &[u8]) -> Vec<StoredGame> {
    let mut reader = ArchiveReader::open(Cursor::new(archive)).unwrap();
    reader.games().map(Result::unwrap).collect()
}

/// The games as `chessbits unpack` writes them.
fn write(games: &[StoredGame]) -> Vec<u8> {
    let mut out = Vec::new();
    for game in games {
        game.write_pgn(&mut out, &WriteOptions::default()).unwrap();
    }
    out
}

/// Packs `pgn` with every codec; the games come back as [`expected`], and so does the PGN
/// written from them. Returns the games and how many were stored as text.
fn round_trip(pgn: &[u8], what: &str) -> (Vec<StoredGame>, usize) {
    let expected = expected(pgn);
    let texts = expected.iter().filter(|g| g.game().is_none()).count();
    for codec in MoveCodec::ALL {
        let (archive, text_games) = pack(pgn, codec, 50);
        assert_eq!(text_games, texts as u64, "{what} with {codec}");
        let back = unpack(&archive);
        assert_eq!(back.len(), expected.len(), "{what} with {codec}");
        for (n, (back, expected)) in back.iter().zip(&expected).enumerate() {
            assert!(
                back == expected,
                "{what} with {codec}, game {n}:\n{back:?}\n{expected:?}"
            );
        }
        let written = write(&back);
        let again = self::expected(&written);
        if let Some(n) = (0..again.len().max(expected.len())).find(|&n| again.get(n) != expected.get(n)) {
            panic!(
                "{what} with {codec}: the unpacked PGN reads back differently at game {n}:\n{:?}\n{:?}\n{}",
                again.get(n),
                expected.get(n),
                String::from_utf8_lossy(&written)
            );
        }
    }
    (expected, texts)
}

/// Tags, comments and games that used to be changed or dropped.
const HOSTILE: &[u8] = b"[Event \"Andr\x82 Open\"]\n[Site \"Z\xc3\xbcrich / M\xfcnchen\"]\n\
[White \"\"Socrates Expert\"\"]\n[Black \"C:\\path\\\"x\\\"\"]\n[Odd-Name+1 \"\"]\n[Result \"1-0\"]\n\n\
{ leading and trailing } 1. e4 {line\none}\r\n e5 {crlf\r\ninside} 2. Nf3 {cr\ronly} Nc6 ; a } in a line comment\n\
3. Bb5 $0 $255 $19 a6 {[%clk 0:03:00] [%eval 0.17]} 1-0\n\n\
1. d4 { [%clk 0:05:00] } d5 {[%clk 0:4:59]} 2. c4 *\n\n\
[Event \"no result\"]\n\n1. c4 c5\n\n\
[Event \"illegal\"]\n\n1. e4 e5 2. Ke3 {\xe9chec} *\n\n\
[Event \"variant\"]\n[Variant \"Atomic\"]\n\n1. e4 d5 *\n\n\
[Event \"unclosed\"]\n\n1. e4 {never closed e5\n\n\
[Event \"stray\"]\n\n1. e4 e5 [%clk 0:01] 2. Nf3 *\n\n\
[Event \"nag\"]\n\n1. e4 $300 *\n\n\
[Event \"tags only\"]\n\n\
1. e4 e5 *\n";

#[test]
fn hostile_games_come_back_byte_for_byte() {
    let (games, texts) = round_trip(HOSTILE, "hostile");
    assert_eq!(games.len(), 9);
    assert_eq!(texts, 5, "illegal, variant, unclosed, stray, nag");
    let first = games[0].game().unwrap();
    assert_eq!(first.tags[0], Tag::from_raw(b"Event", b"Andr\x82 Open"));
    assert_eq!(first.tags[1].raw_value(), b"Z\xc3\xbcrich / M\xfcnchen");
    assert_eq!(first.tags[2].value(), "\"Socrates Expert\"");
    assert_eq!(first.tags[3].raw_value(), b"C:\\path\\\"x\\\"");
    assert_eq!(first.tags[4].name(), b"Odd-Name+1");
    assert_eq!(first.tags.len(), 6, "nothing added");
    let nodes = &first.moves.nodes;
    assert_eq!(nodes[0].comments_before, [Comment::from(" leading and trailing ")]);
    assert_eq!(nodes[0].comments_after, ["line\none"]);
    assert_eq!(nodes[1].comments_after, ["crlf\r\ninside"]);
    assert_eq!(nodes[2].comments_after, ["cr\ronly"]);
    assert_eq!(nodes[3].comments_after, [" a } in a line comment"]);
    assert_eq!(nodes[4].nags.iter().map(|n| n.0).collect::<Vec<_>>(), [0, 255, 19]);
    let second = games[1].game().unwrap();
    assert!(second.tags.is_empty());
    assert_eq!(second.moves.nodes[1].comments_after, ["[%clk 0:4:59]"]);
    assert_eq!(
        games[2].game().unwrap().result,
        GameResult::Unknown,
        "no result token reads as *"
    );
    assert_eq!(
        games[4],
        StoredGame::Text(b"[Event \"variant\"]\n[Variant \"Atomic\"]\n\n1. e4 d5 *".to_vec())
    );
    assert_eq!(
        games[5],
        StoredGame::Text(b"[Event \"unclosed\"]\n\n1. e4 {never closed e5".to_vec())
    );
}

#[test]
fn games_from_composed_positions_are_stored_as_games() {
    // Positions no game reaches, set up by a [FEN] tag as problem collections do: nine white
    // pawns; a triple check.
    let pgn = b"[Event \"pawns\"]\n[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/P7/PPPPPPPP/4K3 w - - 0 1\"]\n\n\
1. a4 Kd7 2. b4 *\n\n[Event \"triple\"]\n[SetUp \"1\"]\n[FEN \"4k3/8/3N4/8/B3R3/8/8/4K3 b - - 0 1\"]\n\n1... Kf8 *\n";
    let (games, texts) = round_trip(pgn, "composed");
    assert_eq!((games.len(), texts), (2, 0));
    assert_eq!(games[0].game().unwrap().start.board().occupied().count(), 11);
    assert_eq!(games[1].game().unwrap().start.checkers().count(), 3);
}

/// Returns the number of files and of games.
fn every_file_comes_back(root: &std::path::Path) -> (usize, usize) {
    let mut files = common::files_below(root, "pgn");
    files.extend(common::files_below(root, "pgn-edgecases"));
    let (mut games, mut texts) = (0, 0);
    for path in &files {
        let bytes = std::fs::read(path).unwrap();
        let (all, text) = round_trip(&bytes, &path.display().to_string());
        games += all.len();
        texts += text;
    }
    eprintln!("{} files, {games} games, {texts} stored as text", files.len());
    (files.len(), games)
}

#[test]
fn every_pgn_file_comes_back() {
    let (files, games) = every_file_comes_back(&common::testdata_path());
    // The four bundled game files alone hold 420 games (`grep -c '^\[Event '`).
    assert!(files > 20 && games > 420, "{files} files, {games} games");
}

#[test]
#[ignore = "needs ../shared/data (see testdata/README.md); run: cargo test --workspace -- --ignored shared_data_"]
fn shared_data_every_pgn_file_comes_back() {
    let (files, games) = every_file_comes_back(&common::shared_path());
    assert!(files > 20 && games > 6000, "{files} files, {games} games");
}

/// A block whose section table declares more than a block may hold is refused before anything
/// is decompressed: a small file cannot make the reader allocate gigabytes.
#[test]
fn declared_section_lengths_are_capped_before_allocating() {
    let (mut bytes, _) = pack(b"1. e4 e5 *", MoveCodec::IndexByte, 50);
    // The first block: header at 16, payload after its 36 bytes. Replace the payload with a
    // table of nine sections each declaring 256 MiB, and reseal the checksums.
    let mut payload = vec![9u8];
    for kind in 1..=9u8 {
        payload.extend([kind, 1]);
        let mut raw = 256u64 << 20;
        while raw >= 0x80 {
            payload.push(raw as u8 | 0x80);
            raw >>= 7;
        }
        payload.push(raw as u8);
        payload.push(0);
    }
    let offset = 16;
    let old_len = u32::from_le_bytes(bytes[offset + 4..offset + 8].try_into().unwrap()) as usize;
    bytes.splice(offset + 36..offset + 36 + old_len, payload.iter().copied());
    bytes[offset + 4..offset + 8].copy_from_slice(&(payload.len() as u32).to_le_bytes());
    let crc = crc32fast::hash(&payload);
    bytes[offset + 28..offset + 32].copy_from_slice(&crc.to_le_bytes());
    let crc = crc32fast::hash(&bytes[offset..offset + 32]);
    bytes[offset + 32..offset + 36].copy_from_slice(&crc.to_le_bytes());
    let mut reader = ArchiveReader::recover(Cursor::new(&bytes[..])).unwrap();
    let error = reader.read_block(0).and_then(|block| block.decode()).unwrap_err();
    assert!(matches!(error, ArchiveError::CorruptPayload { .. }), "{error}");
    assert!(
        error
            .to_string()
            .contains(&format!("more than {} MiB", MAX_BLOCK_RAW_BYTES >> 20)),
        "{error}"
    );
}
