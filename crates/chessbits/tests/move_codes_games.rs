//! Move codes on real games from `pgn/` (bundled `testdata/`, and the full `../shared/data` in the
//! ignored `shared_data_` tests): every game round-trips through every
//! game-level codec, every legal move of the lichess positions round-trips, and the bits per move
//! of the index codes equal python-chess's figures exactly.
//!
//! Run `cargo test -p chessbits --test integration move_codes_games:: -- --nocapture` to see the table of bits
//! per move and speeds.

use crate::common;

use std::path::Path;
use std::time::Instant;

use chessbits::codec::moves::enumeration::{self, EnumeratedMove};
use chessbits::codec::moves::index::{self, bits_for, MoveListKind};
use chessbits::codec::moves::{direction_target, per_square};
use chessbits::lists::MoveList;
use chessbits::moves::Move;
use chessbits::position::Position;
use common::{shared_path, testdata_path, LoadedGame};

/// Totals over a set of games.
#[derive(Default, Debug)]
struct Tally {
    games: usize,
    plies: usize,
    legal_bits: u64,
    pseudo_bits: u64,
    index_bytes: usize,
    per_square_bytes: usize,
}

fn tally(games: &[LoadedGame]) -> Tally {
    let mut t = Tally::default();
    let mut list = MoveList::new();
    for game in games {
        t.games += 1;
        let mut pos = game.start.clone();
        for &m in &game.moves {
            pos.legal_moves_into(&mut list);
            t.legal_bits += u64::from(bits_for(list.len()));
            MoveListKind::PseudoLegal.generate(&pos, &mut list);
            t.pseudo_bits += u64::from(bits_for(list.len()));
            pos.play_unchecked(m);
        }
        t.plies += game.moves.len();
        t.index_bytes += index::encode_game_bytes(&game.start, &game.moves).unwrap().len();
        t.per_square_bytes += per_square::encode_game(&game.start, &game.moves).unwrap().len();
    }
    t
}

/// Round-trips every game through every game-level codec and per move through the others;
/// returns (encode, decode) plies per second per codec.
fn round_trip(games: &[LoadedGame]) -> Vec<(&'static str, f64, f64)> {
    let plies: usize = games.iter().map(|g| g.moves.len()).sum();
    let rate = |secs: f64| plies as f64 / secs.max(1e-9);
    let mut speeds = Vec::new();
    let mut time_codec =
        |name, encode: &dyn Fn(&LoadedGame) -> Vec<u8>, decode: &dyn Fn(&LoadedGame, &[u8]) -> Vec<Move>| {
            let clock = Instant::now();
            let encoded: Vec<Vec<u8>> = games.iter().map(encode).collect();
            let encode_secs = clock.elapsed().as_secs_f64();
            let clock = Instant::now();
            for (game, bytes) in games.iter().zip(&encoded) {
                assert_eq!(decode(game, bytes), game.moves, "{name}");
            }
            speeds.push((name, rate(encode_secs), rate(clock.elapsed().as_secs_f64())));
        };
    time_codec(
        "index byte (legal)",
        &|g| index::encode_game_bytes(&g.start, &g.moves).unwrap(),
        &|g, b| index::decode_game_bytes(&g.start, b).unwrap(),
    );
    for (name, set) in [
        ("index bits (legal)", MoveListKind::Legal),
        ("index bits (pseudo)", MoveListKind::PseudoLegal),
    ] {
        time_codec(
            name,
            &|g| index::encode_game_bits(&g.start, set, &g.moves).unwrap(),
            &|g, b| index::decode_game_bits(&g.start, set, b).unwrap(),
        );
    }
    time_codec(
        "per-square byte",
        &|g| per_square::encode_game(&g.start, &g.moves).unwrap(),
        &|g, b| per_square::decode_game(&g.start, b).unwrap(),
    );
    // The two codes without a game format: 16 and 12 bits per move, big-endian pairs here.
    type Codec = (&'static str, fn(&Position, Move) -> u16, fn(&Position, u16) -> Move);
    let per_move: [Codec; 2] = [
        (
            "enumeration (16 bits)",
            |p, m| enumeration::encode_move(p, m).unwrap(),
            |p, c| enumeration::decode_move(p, c).unwrap(),
        ),
        (
            "direction-target (12 bits)",
            |p, m| direction_target::encode(p, m).unwrap(),
            |p, c| direction_target::decode(p, c).unwrap(),
        ),
    ];
    for (name, enc, dec) in per_move {
        time_codec(
            name,
            &|g| {
                let mut pos = g.start.clone();
                let mut out = Vec::with_capacity(2 * g.moves.len());
                for &m in &g.moves {
                    out.extend(enc(&pos, m).to_be_bytes());
                    pos.play_unchecked(m);
                }
                out
            },
            &|g, b| {
                let mut pos = g.start.clone();
                b.chunks(2)
                    .map(|pair| {
                        let m = dec(&pos, u16::from_be_bytes([pair[0], pair[1]]));
                        pos.play_unchecked(m);
                        m
                    })
                    .collect()
            },
        );
    }
    speeds
}

fn report(label: &str, t: &Tally, speeds: &[(&str, f64, f64)]) {
    let per_move = |bits: f64| bits / t.plies as f64;
    println!("{label}: {} games, {} plies", t.games, t.plies);
    println!(
        "  index byte (legal)   {:.4} bits/move",
        per_move(8.0 * t.index_bytes as f64)
    );
    println!("  index bits (legal)   {:.4} bits/move", per_move(t.legal_bits as f64));
    println!("  index bits (pseudo)  {:.4} bits/move", per_move(t.pseudo_bits as f64));
    println!(
        "  per-square byte      {:.4} bits/move",
        per_move(8.0 * t.per_square_bytes as f64)
    );
    for (name, enc, dec) in speeds {
        println!("  {name:<28} encode {enc:>10.0} plies/s, decode {dec:>10.0} plies/s");
    }
}

/// (file, games, plies, Σ⌈log₂ legal⌉, Σ⌈log₂ pseudo-legal⌉) measured with python-chess 1.11.2:
/// `for m in game.mainline_moves(): n = board.legal_moves.count();
///  p = sum(1 for _ in board.generate_pseudo_legal_moves()); ...; board.push(m)`.
type Figures = [(&'static str, usize, usize, u64, u64); 4];

/// The figures of the bundled files (`testdata/pgn/`).
const PYTHON_CHESS_BUNDLED: Figures = [
    ("shakmaty_lichess_db_1000k.pgn", 120, 7_567, 39_307, 41_352),
    ("shakmaty_twic1599_1000k.pgn", 100, 9_208, 48_491, 50_720),
    ("notnil_twic0920.pgn", 100, 8_619, 45_881, 47_759),
    ("notnil_Carlsen.pgn", 100, 7_779, 40_959, 42_692),
];

/// The figures of the full files (`../shared/data/pgn/`).
const PYTHON_CHESS: Figures = [
    ("shakmaty_lichess_db_1000k.pgn", 438, 28_538, 146_485, 154_878),
    ("shakmaty_twic1599_1000k.pgn", 1_110, 101_487, 530_753, 554_652),
    ("notnil_twic0920.pgn", 2_245, 182_591, 969_661, 1_007_998),
    ("notnil_Carlsen.pgn", 1_782, 159_922, 838_134, 873_891),
];

fn bits_per_move_match(root: &Path, figures: Figures) {
    let mut master = Tally::default();
    let mut master_games = Vec::new();
    for (file, games, plies, legal_bits, pseudo_bits) in figures {
        let read = common::load_pgn(root, file);
        let t = tally(&read);
        assert_eq!((t.games, t.plies), (games, plies), "{file}");
        assert_eq!((t.legal_bits, t.pseudo_bits), (legal_bits, pseudo_bits), "{file}");
        // Nearly every position has at most 256 moves and fits the per-square byte.
        assert_eq!(t.index_bytes, t.plies, "{file}");
        assert!(t.per_square_bytes < t.plies + t.plies / 100, "{file}");
        if file.contains("lichess") {
            let speeds = round_trip(&read);
            report("lichess", &t, &speeds);
        } else {
            master.games += t.games;
            master.plies += t.plies;
            master.legal_bits += t.legal_bits;
            master.pseudo_bits += t.pseudo_bits;
            master.index_bytes += t.index_bytes;
            master.per_square_bytes += t.per_square_bytes;
            master_games.extend(read);
        }
    }
    let speeds = round_trip(&master_games);
    report("master (twic1599 + notnil)", &master, &speeds);
}

#[test]
fn bits_per_move_match_python_chess_and_games_round_trip() {
    bits_per_move_match(&testdata_path(), PYTHON_CHESS_BUNDLED);
}

#[test]
#[ignore = "needs ../shared/data (see testdata/README.md); run: cargo test --workspace -- --ignored shared_data_"]
fn shared_data_bits_per_move_match_python_chess_and_games_round_trip() {
    bits_per_move_match(&shared_path(), PYTHON_CHESS);
}

/// Returns the number of moves checked.
fn every_legal_lichess_move_round_trips(root: &Path) -> usize {
    let mut list = MoveList::new();
    let mut checked = 0;
    for game in common::load_pgn(root, "shakmaty_lichess_db_1000k.pgn") {
        let mut pos = game.start.clone();
        for &played in &game.moves {
            pos.legal_moves_into(&mut list);
            for &m in list.iter() {
                let e = EnumeratedMove::from_position_move(&pos, m).unwrap();
                assert_eq!(EnumeratedMove::decode(e.encode()).and_then(|d| d.to_move(&pos)), Ok(m));
                let code = direction_target::encode(&pos, m).unwrap();
                assert_eq!(direction_target::decode(&pos, code), Ok(m));
                let code = per_square::encode(&pos, m).unwrap();
                assert_eq!(per_square::decode(&pos, code), Ok(m));
                checked += 1;
            }
            pos.play_unchecked(played);
        }
    }
    checked
}

#[test]
fn every_legal_move_of_the_lichess_positions_round_trips() {
    // The legal moves before each main-line move of the bundled lichess games, counted with
    // python-chess 1.11.2 (`board.legal_moves.count()`).
    assert_eq!(every_legal_lichess_move_round_trips(&testdata_path()), 228_181);
}

#[test]
#[ignore = "needs ../shared/data (see testdata/README.md); run: cargo test --workspace -- --ignored shared_data_"]
fn shared_data_every_legal_move_of_the_lichess_positions_round_trips() {
    let checked = every_legal_lichess_move_round_trips(&shared_path());
    assert!(checked > 28_538 * 20, "{checked}");
}
