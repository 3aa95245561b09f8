//! The NNUE training-data format (`CBTD`, `chessbits_engine::datagen::format`): `GameReader`,
//! `decode_body` and the `PositionReader` that streams training positions out of a file.
//!
//! Input: a mode byte, then
//! - mode 0: a whole file, read by `GameReader` and by `PositionReader` without filters (as
//!   given, and with every record's checksum recomputed so the body decoder is reached);
//! - mode 1: one game body (the record without its length and checksum), given to
//!   `decode_body` and, wrapped in a valid record, to both readers;
//! - mode 2: a game built from the bytes (a start position, legal moves picked by the bytes,
//!   scores in range, a result), written by `GameWriter` and read back, whole and cut short.
//!
//! Nothing panics or hangs; every error is a `FormatError`, and an error ends both readers. The
//! readers agree: the positions without filters are the games' plies, in order, and a file the
//! game reader reads through the position reader reads through too. A body that decodes is
//! re-encoded by the writer to a body that decodes to the same game. A written file reads back
//! as the games written; cut anywhere, it reads as its complete games followed by `Truncated`.
#![no_main]

use chessbits::codec::moves::entropy::{GameDecoder, GameEncoder};
use chessbits_engine::datagen::format::{
    crc32, decode_body, encode_record, header, FormatError, GameReader, GameWriter, TrainingGame, Wdl, MATE_SCORE,
};
use chessbits_engine::datagen::reader::{Filters, PositionReader};
use chessbits_fuzz::legal_moves;
use libfuzzer_sys::fuzz_target;

/// The games `GameReader` reads from `file`, and its error (which ends it) if any.
fn read_games(file: &[u8]) -> (Vec<TrainingGame>, Option<FormatError>) {
    let mut reader = match GameReader::new(file) {
        Ok(reader) => reader,
        Err(e) => return (Vec::new(), Some(e)),
    };
    let mut games = Vec::new();
    loop {
        match reader.next_game() {
            Ok(Some(game)) => {
                assert_eq!(game.moves.len(), game.scores.len());
                assert!(game.scores.iter().all(|s| s.abs() <= MATE_SCORE));
                games.push(game);
            }
            Ok(None) => return (games, None),
            Err(e) => return (games, Some(e)),
        }
    }
}

/// Reads `file` with both readers and checks that they agree; returns the games.
fn check_file(file: &[u8]) -> Vec<TrainingGame> {
    let (games, error) = read_games(file);
    let Ok(mut reader) = PositionReader::new(file, Filters::none()) else {
        assert!(games.is_empty() && error.is_some());
        return games;
    };
    let mut positions = Vec::new();
    let mut failed = false;
    for item in reader.by_ref() {
        assert!(!failed, "an item after an error");
        match item {
            Ok(p) => positions.push(p),
            Err(_) => failed = true,
        }
    }
    assert_eq!(failed, error.is_some(), "the readers disagree on {error:?}");
    // The position reader keeps the positions of the games read before its error.
    let expected: Vec<_> = games
        .iter()
        .enumerate()
        .flat_map(|(g, game)| (0..game.moves.len()).map(move |ply| (g as u64, ply, game.scores[ply], game.result)))
        .collect();
    let got: Vec<_> = positions.iter().map(|p| (p.game, p.ply, p.score, p.wdl)).collect();
    assert_eq!(got, expected);
    for p in &positions {
        let game = &games[p.game as usize];
        let mut pos = game.start.clone();
        for &m in &game.moves[..p.ply] {
            pos.play_unchecked(m);
        }
        assert_eq!(pos.fen(), p.position.fen());
    }
    assert_eq!(reader.skipped().total(), 0);
    games
}

/// `file` with the checksum of every record that fits recomputed (the framing left as it is).
fn fix_checksums(file: &[u8]) -> Vec<u8> {
    let mut out = file.to_vec();
    let mut at = header().len();
    while at < out.len() {
        let (mut len, mut shift, mut n) = (0usize, 0, 0);
        while let Some(&b) = out.get(at + n) {
            len |= usize::from(b & 0x7f) << shift;
            shift += 7;
            n += 1;
            if b & 0x80 == 0 || n == 3 {
                break;
            }
        }
        let body = at + n;
        if len < 4 || body + len > out.len() {
            break;
        }
        let crc = crc32(&out[body..body + len - 4]);
        out[body + len - 4..body + len].copy_from_slice(&crc.to_le_bytes());
        at = body + len;
    }
    out
}

/// A file of `header`, one record of `body` (with its length and checksum).
fn wrap(body: &[u8]) -> Vec<u8> {
    let mut file = header().to_vec();
    let len = body.len() + 4;
    let mut v = len as u32;
    while v >= 0x80 {
        file.push(v as u8 | 0x80);
        v >>= 7;
    }
    file.push(v as u8);
    file.extend_from_slice(body);
    file.extend_from_slice(&crc32(body).to_le_bytes());
    file
}

/// A game from the bytes: a start position, moves among the legal ones, scores in range.
fn game_from(bytes: &[u8]) -> Option<TrainingGame> {
    let (&selector, rest) = bytes.split_first()?;
    let (&result, rest) = rest.split_first()?;
    let start = chessbits_fuzz::position(selector);
    let mut pos = start.clone();
    let (mut moves, mut scores) = (Vec::new(), Vec::new());
    for chunk in rest.chunks_exact(3) {
        let legal = legal_moves(&pos);
        if legal.is_empty() {
            break;
        }
        let m = legal[usize::from(chunk[0]) % legal.len()];
        let raw = i32::from(i16::from_le_bytes([chunk[1], chunk[2]]));
        // Mostly small scores, as the search gives; the high bit of the first byte asks for a
        // large one (mates included).
        let score = if chunk[0] & 0x80 != 0 {
            raw.clamp(-MATE_SCORE, MATE_SCORE)
        } else {
            raw % 600
        };
        pos.play_unchecked(m);
        moves.push(m);
        scores.push(score);
    }
    let result = [Wdl::BlackWins, Wdl::Draw, Wdl::WhiteWins][usize::from(result % 3)];
    Some(TrainingGame {
        start,
        moves,
        scores,
        result,
    })
}

fuzz_target!(|data: &[u8]| {
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    match mode % 3 {
        0 => {
            check_file(rest);
            check_file(&fix_checksums(rest));
        }
        1 => {
            let decoded = decode_body(rest, 0, &mut GameDecoder::new());
            let games = check_file(&wrap(rest));
            match decoded {
                Ok(game) => {
                    assert_eq!(games, [game.clone()]);
                    let mut record = Vec::new();
                    encode_record(&game, &mut GameEncoder::new(), &mut record).expect("a decoded game encodes");
                    let mut file = header().to_vec();
                    file.extend_from_slice(&record);
                    assert_eq!(check_file(&file), [game]);
                }
                Err(e) => assert!(matches!(e, FormatError::Corrupt { game: 0, .. }), "{e:?}"),
            }
        }
        _ => {
            let games: Vec<TrainingGame> = rest.split(|&b| b == 0xff).take(4).filter_map(game_from).collect();
            let mut writer = GameWriter::new(Vec::new()).unwrap();
            let mut written = Vec::new();
            for game in games {
                // Composed start positions (too much material) are refused by the position code.
                if writer.write_game(&game).is_ok() {
                    written.push(game);
                }
            }
            let file = writer.finish().unwrap();
            assert_eq!(check_file(&file), written);
            let mut ends = vec![header().len()];
            let mut reader = GameReader::new(&file[..]).unwrap();
            while reader.next_game().unwrap().is_some() {
                ends.push(reader.offset() as usize);
            }
            assert_eq!(ends.last().copied(), Some(file.len()));
            // Cut inside each record (and inside the header): the complete games, then `Truncated`.
            for cut in (0..file.len()).filter(|&c| !ends.contains(&c)).step_by(7) {
                let (games, error) = read_games(&file[..cut]);
                let complete = ends.iter().filter(|&&e| e <= cut).count().saturating_sub(1);
                assert_eq!(games, written[..complete]);
                match error {
                    Some(FormatError::Truncated { game }) => assert_eq!(game, complete as u64),
                    Some(FormatError::BadMagic) => assert!(cut < header().len()),
                    other => panic!("cut at {cut}: {other:?}"),
                }
            }
        }
    }
});
