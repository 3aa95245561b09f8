//! The training-data format: its golden file, round trips, hostile input, and the reader's
//! filters.

use chessbits::codec::moves::entropy::GameEncoder;
use chessbits::codec::position::compact;
use chessbits::codec::range_coder::RangeEncoder;
use chessbits::notation::uci::parse_uci;
use chessbits::position::{Position, Setup};
use chessbits_engine::datagen::format::{
    crc32, encode_record, header, FormatError, GameReader, GameWriter, TrainingGame, Wdl, MATE_SCORE, MAX_PLIES,
    SCORE_PRIOR,
};
use chessbits_engine::datagen::reader::{Filters, PositionReader};
use chessbits_engine::datagen::SplitMix64;

const GOLDEN: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/golden/datagen_v1.cbtd");

/// A random game from `rng`: a start position (the standard one or a fixed middlegame with
/// Black to move), up to `max_plies` random legal moves, scores that drift like a search's, a
/// mate score now and then, any result.
fn random_game(rng: &mut SplitMix64, max_plies: usize) -> TrainingGame {
    let start = if rng.below(2) == 0 {
        Position::startpos()
    } else {
        Position::from_fen("r3k2r/pp1n1ppp/2p1pn2/q7/1bPP4/2N1PN2/PP1B1PPP/R2QKB1R b KQkq - 3 9").unwrap()
    };
    let mut pos = start.clone();
    let mut moves = Vec::new();
    let mut scores = Vec::new();
    let mut white = rng.below(200) as i32 - 100;
    for _ in 0..rng.below(max_plies + 1) {
        let legal = pos.legal_moves();
        if legal.is_empty() {
            break;
        }
        let m = legal[rng.below(legal.len())];
        white += rng.below(61) as i32 - 30;
        let mut s = if pos.turn() == chessbits::Color::White {
            white
        } else {
            -white
        };
        if rng.below(20) == 0 {
            s = if rng.below(2) == 0 {
                MATE_SCORE - 3
            } else {
                -(MATE_SCORE - 8)
            };
        }
        scores.push(s);
        moves.push(m);
        pos.play_unchecked(m);
    }
    let result = Wdl::from_code(rng.below(3) as u32).unwrap();
    TrainingGame {
        start,
        moves,
        scores,
        result,
    }
}

fn write_all(games: &[TrainingGame]) -> Vec<u8> {
    let mut bytes = Vec::new();
    let mut writer = GameWriter::new(&mut bytes).unwrap();
    for g in games {
        writer.write_game(g).unwrap();
    }
    writer.finish().unwrap();
    bytes
}

fn read_all(bytes: &[u8]) -> Result<Vec<TrainingGame>, FormatError> {
    let mut reader = GameReader::new(bytes)?;
    let mut games = Vec::new();
    while let Some(g) = reader.next_game()? {
        games.push(g);
    }
    Ok(games)
}

fn golden_games() -> Vec<TrainingGame> {
    let mut rng = SplitMix64::new(2026);
    (0..6).map(|_| random_game(&mut rng, 40)).collect()
}

#[test]
fn golden_file_is_reproduced_byte_for_byte_and_decodes_to_its_games() {
    let games = golden_games();
    let bytes = write_all(&games);
    let golden = crate::common::check_golden(GOLDEN, &bytes);
    assert_eq!(read_all(&golden).unwrap(), games);
    // What the generator is pinned to, so that a change of it cannot hide a format change.
    assert_eq!(games.iter().map(|g| g.moves.len()).sum::<usize>(), 170);
    assert_eq!(golden.len(), 418);
}

#[test]
fn a_game_without_moves_has_the_documented_layout() {
    let start = Position::startpos();
    let game = TrainingGame {
        start: start.clone(),
        moves: vec![],
        scores: vec![],
        result: Wdl::Draw,
    };
    let bytes = write_all(std::slice::from_ref(&game));
    let compact = compact::encode(&start.to_setup()).unwrap();
    // Result 1 (draw, no plies), fullmove 1, the position, no move bytes, no scores.
    let mut body = vec![1, 1, compact.len() as u8];
    body.extend(&compact);
    body.push(0);
    body.extend(crc32(&body).to_le_bytes());
    let mut expected = b"CBTD\x01".to_vec();
    expected.push(body.len() as u8);
    expected.extend(&body);
    assert_eq!(bytes, expected);
    assert_eq!(&header(), b"CBTD\x01");
    // The zlib check value of "123456789".
    assert_eq!(crc32(b"123456789"), 0xCBF4_3926);
}

#[test]
fn scores_are_zigzag_deltas_from_whites_view() {
    let start = Position::startpos();
    let e4 = parse_uci(&start, "e2e4").unwrap();
    let mut after = start.clone();
    after.play_unchecked(e4);
    let e5 = parse_uci(&after, "e7e5").unwrap();
    // White +30, Black −25 (White +25): deltas +30, −5: zigzag 60, 9.
    let game = TrainingGame {
        start,
        moves: vec![e4, e5],
        scores: vec![30, -25],
        result: Wdl::WhiteWins,
    };
    let mut record = Vec::new();
    encode_record(&game, &mut GameEncoder::new(), &mut record).unwrap();
    assert_eq!(record[1..3], [2 * 3 + 2, 1], "plies * 3 + result, fullmove number");
    // The scores as the module docs describe them, coded here by hand: 60 is bucket 6 and the
    // 5 bits 11100; 9 is bucket 4 and the 3 bits 001, with bucket 6's frequency raised by 24.
    let mut freq = SCORE_PRIOR;
    let mut expected = Vec::new();
    let mut enc = RangeEncoder::new(&mut expected);
    let cum = |f: &[u32; 18], b: usize| f[..b].iter().sum::<u32>();
    enc.encode(cum(&freq, 6), freq[6], freq.iter().sum());
    enc.encode_bits(0b11100, 5);
    freq[6] += 24;
    enc.encode(cum(&freq, 4), freq[4], freq.iter().sum());
    enc.encode_bits(0b001, 3);
    enc.finish();
    let n = record.len();
    assert_eq!(&record[n - 4 - expected.len()..n - 4], &expected[..]);
    let moves_len = record[4 + record[3] as usize] as usize;
    assert_eq!(
        5 + record[3] as usize + moves_len + expected.len() + 4,
        n,
        "nothing else in the body"
    );
}

#[test]
fn random_games_round_trip() {
    let mut rng = SplitMix64::new(99);
    let games: Vec<_> = (0..60).map(|_| random_game(&mut rng, 150)).collect();
    let bytes = write_all(&games);
    assert_eq!(read_all(&bytes).unwrap(), games);
    // The positions stream: with no filter, every scored position in order.
    let mut reader = PositionReader::new(&bytes[..], Filters::none()).unwrap();
    for (index, game) in games.iter().enumerate() {
        let mut pos = game.start.clone();
        for (ply, (&m, &score)) in game.moves.iter().zip(&game.scores).enumerate() {
            let p = reader.next().unwrap().unwrap();
            assert_eq!((p.game, p.ply, p.score), (index as u64, ply, score));
            assert_eq!(p.position.fen(), pos.fen());
            assert_eq!(p.result, game.result.for_color(pos.turn()));
            pos.play_unchecked(m);
        }
    }
    assert!(reader.next().is_none());
    assert_eq!(reader.skipped().total(), 0);
}

#[test]
fn the_writer_refuses_games_it_cannot_store() {
    let start = Position::startpos();
    let e4 = parse_uci(&start, "e2e4").unwrap();
    let mut writer = GameWriter::new(Vec::new()).unwrap();
    let bad = |moves: Vec<_>, scores: Vec<i32>| TrainingGame {
        start: start.clone(),
        moves,
        scores,
        result: Wdl::Draw,
    };
    for game in [
        bad(vec![e4], vec![]),
        bad(vec![e4], vec![MATE_SCORE + 1]),
        bad(vec![e4, e4], vec![0, 0]),
    ] {
        assert!(matches!(writer.write_game(&game), Err(FormatError::InvalidGame(_))));
    }
    assert_eq!(writer.finish().unwrap(), header(), "nothing written for refused games");
}

#[test]
fn truncated_files_give_their_complete_games_then_a_typed_error() {
    let mut rng = SplitMix64::new(5);
    let games: Vec<_> = (0..3).map(|_| random_game(&mut rng, 30)).collect();
    let bytes = write_all(&games);
    let mut ends = vec![5];
    {
        let mut reader = GameReader::new(&bytes[..]).unwrap();
        while reader.next_body().unwrap().is_some() {
            ends.push(reader.offset() as usize);
        }
    }
    for cut in 0..bytes.len() {
        let cut_bytes = &bytes[..cut];
        let complete = ends.iter().filter(|&&e| e <= cut).count().saturating_sub(1);
        match read_all(cut_bytes) {
            Ok(read) => {
                assert!(ends.contains(&cut), "cut at {cut} read as complete");
                assert_eq!(read, games[..complete]);
            }
            Err(FormatError::Truncated { game }) => assert_eq!(game as usize, complete, "cut at {cut}"),
            Err(e) => panic!("cut at {cut}: {e}"),
        }
    }
    assert!(matches!(read_all(&bytes[..0]), Err(FormatError::Truncated { game: 0 })));
}

#[test]
fn corrupt_bytes_give_a_typed_error_never_wrong_games() {
    let mut rng = SplitMix64::new(6);
    let games: Vec<_> = (0..3).map(|_| random_game(&mut rng, 25)).collect();
    let bytes = write_all(&games);
    for i in 0..bytes.len() {
        for bit in 0..8 {
            let mut bad = bytes.clone();
            bad[i] ^= 1 << bit;
            match read_all(&bad) {
                Ok(read) => panic!("flip of bit {bit} of byte {i} accepted ({} games)", read.len()),
                Err(FormatError::Io(e)) => panic!("{e}"),
                Err(_) => {}
            }
        }
    }
    assert!(matches!(read_all(b"PK\x03\x04xxxx"), Err(FormatError::BadMagic)));
    assert!(matches!(read_all(b"CBTD\x07"), Err(FormatError::UnsupportedVersion(7))));
    // A length past 1 MiB is refused before anything is allocated for it.
    assert!(matches!(
        read_all(b"CBTD\x01\xff\xff\xff\x7f"),
        Err(FormatError::Corrupt { game: 0, .. })
    ));
    // A record whose checksum is right but whose fields are not: every field's failure is typed
    // (a varint too long, a bad start position, fullmove 0, a start past the end, too many plies).
    // 16,385 plies (the varint of 49,155), fullmove 1, the start position, no move bytes.
    let too_long = [
        vec![0x83, 0x80, 0x03, 0x01, 0x05],
        compact::encode(&Setup::standard()).unwrap(),
        vec![0x00],
    ]
    .concat();
    assert_eq!(MAX_PLIES, 16_384);
    for body in [
        &[0xff, 0xff, 0xff, 0xff, 0xff, 0x01][..],
        &[0x03, 0x09, 1, 2],
        &[0x30, 0x00, 0x00],
        &[0x00, 0x01, 0x09],
        &too_long,
    ] {
        let mut file = header().to_vec();
        file.push(body.len() as u8 + 4);
        file.extend(body);
        file.extend(crc32(body).to_le_bytes());
        assert!(
            matches!(read_all(&file), Err(FormatError::Corrupt { game: 0, .. })),
            "{body:?}"
        );
    }
    // Random bytes after a good header.
    let mut rng = SplitMix64::new(7);
    for _ in 0..500 {
        let mut file = header().to_vec();
        file.extend((0..rng.below(60)).map(|_| rng.next_u64() as u8));
        let _ = read_all(&file);
    }
}

#[test]
fn the_reader_skips_checks_tactical_best_moves_and_mates_and_counts_them() {
    // 1. e4 f5 2. Qh5+ g6 3. Qxg6+ hxg6 4. ... : a check, two captures, a mate score.
    let start = Position::startpos();
    let mut pos = start.clone();
    let mut moves = Vec::new();
    for uci in ["e2e4", "f7f5", "d1h5", "g7g6", "h5g6", "h7g6", "a2a3"] {
        let m = parse_uci(&pos, uci).unwrap();
        pos.play_unchecked(m);
        moves.push(m);
    }
    let scores = vec![20, 30, 50, -(MATE_SCORE - 9), 40, 900, -880];
    let game = TrainingGame {
        start,
        moves,
        scores,
        result: Wdl::BlackWins,
    };
    let bytes = write_all(&[game.clone(), game]);
    let mut reader = PositionReader::new(&bytes[..], Filters::default()).unwrap();
    let kept: Vec<_> = reader.by_ref().map(Result::unwrap).collect();
    // Kept: plies 0, 1, 2 (Qh5+ is quiet), 6 (a3); plies 3 and 5 in check, 4 a capture.
    assert_eq!(kept.iter().map(|p| p.ply).collect::<Vec<_>>(), [0, 1, 2, 6, 0, 1, 2, 6]);
    let skipped = reader.skipped();
    assert_eq!((skipped.in_check, skipped.tactical, skipped.mate), (4, 2, 0));
    assert_eq!(reader.kept(), 8);
    assert_eq!(kept[3].score, -880);
    assert_eq!(kept[3].result, 0.0, "White to move at ply 6, Black won");
    assert_eq!(kept[1].side_to_move(), chessbits::Color::Black);
    // Without the check filter, ply 3 is skipped for its mate score.
    let filters = Filters {
        in_check: false,
        ..Filters::default()
    };
    let mut reader = PositionReader::new(&bytes[..], filters).unwrap();
    assert_eq!(reader.by_ref().count(), 8);
    assert_eq!(reader.skipped().mate, 2);
}

#[test]
fn the_position_reader_reports_a_truncated_file_once_then_ends() {
    let mut rng = SplitMix64::new(8);
    let games: Vec<_> = (0..2).map(|_| random_game(&mut rng, 30)).collect();
    let mut bytes = write_all(&games);
    bytes.truncate(bytes.len() - 3);
    let mut reader = PositionReader::new(&bytes[..], Filters::none()).unwrap();
    let results: Vec<_> = reader.by_ref().collect();
    let errors: Vec<_> = results.iter().filter_map(|r| r.as_ref().err()).collect();
    assert_eq!(errors.len(), 1);
    assert!(matches!(errors[0], FormatError::Truncated { game: 1 }));
    assert_eq!(reader.games_read(), 1);
    assert!(reader.next().is_none());
}
