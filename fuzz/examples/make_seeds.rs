//! Writes the binary seed corpora (`corpus/<target>/seed-*`) of the decoder targets: small games
//! encoded with every move code, positions in every position code, and small archives with every
//! move codec. Run from `fuzz/`: `cargo run --example make_seeds`.

use chessbits_fuzz::write_seed as write;
use std::io::Cursor;

use chessbits::codec::moves::{direction_target, entropy, enumeration, flagged, index, lichess, per_square};
use chessbits::codec::position;
use chessbits::moves::Move;
use chessbits::pgn::{GameTree, PgnReader};
use chessbits::position::Position;
use chessbits_archive::{ArchiveReader, ArchiveWriter, MoveCodec, WriterOptions};
use chessbits_fuzz::{legal_moves, FENS};

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
[Variant "Chess960"]
[FEN "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9"]

9. b4 cxb4 10. axb4 Ne7 1/2-1/2
"#;

/// A game of `plies` pseudo-random legal moves from `start`.
fn random_game(start: &Position, plies: usize, mut seed: u64) -> Vec<Move> {
    let mut pos = start.clone();
    let mut moves = Vec::new();
    for _ in 0..plies {
        let legal = legal_moves(&pos);
        if legal.is_empty() {
            break;
        }
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        let m = legal[(seed >> 8) as usize % legal.len()];
        pos.play_unchecked(m);
        moves.push(m);
    }
    moves
}

fn with(prefix: &[u8], bytes: &[u8]) -> Vec<u8> {
    let mut out = prefix.to_vec();
    out.extend_from_slice(bytes);
    out
}

fn main() {
    for i in 0..FENS.len() {
        let start = chessbits_fuzz::position(i as u8);
        let sel = i as u8;
        let moves = random_game(&start, 24, 0x9E37_79B9_7F4A_7C15 ^ i as u64);
        let name = format!("seed-{i}");
        if i % 2 == 0 {
            write(
                "move_index",
                &format!("{name}-bytes"),
                &with(&[sel, 0], &index::encode_game_bytes(&start, &moves).unwrap()),
            );
        }
        let set = if i % 2 == 0 {
            index::MoveListKind::Legal
        } else {
            index::MoveListKind::PseudoLegal
        };
        let form = if i % 2 == 0 { 1 } else { 2 };
        write(
            "move_index",
            &format!("{name}-bits"),
            &with(&[sel, form], &index::encode_game_bits(&start, set, &moves).unwrap()),
        );
        write(
            "move_per_square",
            &name,
            &with(&[sel], &per_square::encode_game(&start, &moves).unwrap()),
        );
        let (mut enumerated, mut direction, mut flags) = (vec![sel], vec![sel], vec![sel]);
        let mut pos = start.clone();
        for &m in &moves {
            enumerated.extend(enumeration::encode_move(&pos, m).unwrap().to_be_bytes());
            direction.extend(direction_target::encode(&pos, m).unwrap().to_be_bytes());
            flags.extend(flagged::encode(&pos, m).unwrap().bits().to_be_bytes());
            pos.play_unchecked(m);
        }
        write("move_enumeration", &name, &enumerated);
        write("move_direction_target", &name, &direction);
        write("move_flagged", &name, &flags);
        let plies = moves.len() as u8;
        write(
            "move_entropy",
            &name,
            &with(&[sel, plies], &entropy::encode_game(&start, &moves).unwrap()),
        );
        write(
            "move_lichess",
            &name,
            &with(&[sel, plies], &lichess::encode_game(&start, &moves).unwrap()),
        );
        // Positions along the game, each in the code that accepts it (a Chess960 start only in
        // the codes that take Chess960 castling).
        let mut pos = start.clone();
        for (j, &m) in moves.iter().enumerate().filter(|(j, _)| j % 12 == 0) {
            for (c, codec) in position::all().iter().enumerate() {
                if let Ok(bytes) = codec.encode(&pos.to_setup()) {
                    if (i + j + c) % 3 == 0 {
                        write(
                            "position_codes",
                            &format!("{name}-{j}-{}", codec.name()),
                            &with(&[c as u8], &bytes),
                        );
                    }
                }
            }
            pos.play_unchecked(m);
        }
    }
    let games: Vec<GameTree> = PgnReader::new(PGN.as_bytes())
        .into_games()
        .map(Result::unwrap)
        .collect();
    assert_eq!(games.len(), 3);
    for codec in MoveCodec::ALL {
        let options = WriterOptions {
            codec,
            max_games_per_block: 2,
            threads: 1,
            ..WriterOptions::default()
        };
        let mut writer = ArchiveWriter::new(Vec::new(), options).unwrap();
        for game in &games {
            writer.add_game(game).unwrap();
        }
        let (bytes, _) = writer.finish().unwrap();
        let mut reader = ArchiveReader::open(Cursor::new(&bytes)).unwrap();
        assert_eq!(reader.games().map(Result::unwrap).collect::<Vec<_>>(), games);
        let name = codec.name();
        write("archive_reader", &format!("seed-{name}-raw"), &with(&[0], &bytes));
        write("archive_reader", &format!("seed-{name}-fixed"), &with(&[1], &bytes));
        // The first block's payload alone, for the wrapping mode.
        let len = u32::from_le_bytes(bytes[20..24].try_into().unwrap()) as usize;
        let games_in_block = u32::from_le_bytes(bytes[32..36].try_into().unwrap()) as u8;
        let payload = &bytes[52..52 + len];
        write(
            "archive_reader",
            &format!("seed-{name}-payload"),
            &with(&[2, codec.id(), games_in_block], payload),
        );
    }
}
