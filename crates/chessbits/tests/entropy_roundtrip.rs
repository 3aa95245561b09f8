//! Every game of every PGN game file (bundled; the full corpora in the ignored `shared_data_` test)
//! survives entropy coding and lichess coding unchanged, and
//! the entropy coder stays within its size targets on the held-out games (even-numbered games of
//! each file; the model was tuned on the odd-numbered ones, see `tests/entropy_tune.rs`).

use crate::common;

use std::path::Path;

use chessbits::codec::bits::BitWriter;
use chessbits::codec::moves::{entropy, lichess};
use chessbits::position::Position;

#[derive(Default)]
struct Sizes {
    plies: usize,
    entropy_bits: usize,
    lichess_bits: u64,
}

impl Sizes {
    fn entropy(&self) -> f64 {
        self.entropy_bits as f64 / self.plies as f64
    }

    fn lichess(&self) -> f64 {
        self.lichess_bits as f64 / self.plies as f64
    }
}

/// Returns the number of games.
fn all_games_round_trip_and_compress(root: &Path) -> usize {
    let start = Position::startpos();
    let mut encoder = entropy::GameEncoder::new();
    let mut decoder = entropy::GameDecoder::new();
    let mut bytes = Vec::new();
    let mut decoded = Vec::new();
    // [lichess, master] held-out sizes.
    let mut held_out = [Sizes::default(), Sizes::default()];
    let mut games = 0;
    for (name, is_lichess) in common::PGN_FILES {
        for game in common::load_pgn(root, name) {
            bytes.clear();
            encoder.encode_into(&start, &game.moves, &mut bytes).unwrap();
            // A reused encoder forgets the games before: the bytes of a fresh one.
            assert_eq!(
                bytes,
                entropy::encode_game(&start, &game.moves).unwrap(),
                "{name} game {}",
                game.number
            );
            decoded.clear();
            decoder
                .decode_into(&start, &bytes, game.moves.len(), &mut decoded)
                .unwrap_or_else(|e| panic!("{name} game {}: {e}", game.number));
            assert_eq!(decoded, game.moves, "{name} game {}", game.number);

            let mut writer = BitWriter::new();
            lichess::encode_into(&start, &game.moves, &mut writer).unwrap();
            let lichess_bits = writer.bit_len();
            let lichess_bytes = writer.finish();
            assert_eq!(
                lichess::decode_game(&start, &lichess_bytes, game.moves.len()).unwrap(),
                game.moves,
                "{name} game {} (lichess)",
                game.number
            );

            if game.number % 2 == 0 {
                let sizes = &mut held_out[usize::from(!is_lichess)];
                sizes.plies += game.moves.len();
                sizes.entropy_bits += bytes.len() * 8;
                sizes.lichess_bits += lichess_bits;
            }
            games += 1;
        }
    }
    let [online, master] = held_out;
    println!(
        "held out: lichess games {:.3} bits/move (lichess scheme {:.3}), master games {:.3} ({:.3})",
        online.entropy(),
        online.lichess(),
        master.entropy(),
        master.lichess()
    );
    assert!(
        online.entropy() <= 3.5,
        "lichess games: {:.3} bits/move",
        online.entropy()
    );
    assert!(
        master.entropy() <= 3.9,
        "master games: {:.3} bits/move",
        master.entropy()
    );
    assert!(online.entropy() < online.lichess() && master.entropy() < master.lichess());
    // The lichess baseline is near lichess's own figures (4.42 and 4.72 bits/move).
    assert!((4.2..4.7).contains(&online.lichess()) && (4.4..4.9).contains(&master.lichess()));
    games
}

#[test]
fn all_games_round_trip_and_compress_within_the_targets() {
    // The four bundled game files hold 420 games (`grep -c '^\[Event '`).
    assert_eq!(all_games_round_trip_and_compress(&common::testdata_path()), 420);
}

#[test]
#[ignore = "needs ../shared/data (see testdata/README.md); run: cargo test --workspace -- --ignored shared_data_"]
fn shared_data_all_games_round_trip_and_compress_within_the_targets() {
    let games = all_games_round_trip_and_compress(&common::shared_path());
    assert!(games > 5_500, "{games} games");
}

#[test]
fn games_decode_as_separate_streams_with_one_decoder() {
    // One decoder reused across games must not leak state from one game into the next.
    let start = Position::startpos();
    let games: Vec<_> = common::load_pgn(&common::testdata_path(), "notnil_Carlsen.pgn")
        .into_iter()
        .take(40)
        .collect();
    let encoded: Vec<Vec<u8>> = games
        .iter()
        .map(|g| entropy::encode_game(&start, &g.moves).unwrap())
        .collect();
    let mut decoder = entropy::GameDecoder::new();
    for (game, bytes) in games.iter().zip(&encoded).rev() {
        let mut out = Vec::new();
        decoder.decode_into(&start, bytes, game.moves.len(), &mut out).unwrap();
        assert_eq!(out, game.moves);
        assert_eq!(
            entropy::decode_game(&start, bytes, game.moves.len()).unwrap(),
            game.moves
        );
    }
}
