//! Golden files: the frozen bytes of every move code and every position code.
//!
//! `tests/golden/` holds games (start FEN and UCI moves) and, per code, the bytes that code gives
//! them (see `tests/golden/README.md` for the format). The tests decode every vector and compare
//! with the game or position, and encode the game or position and compare the bytes: a change of
//! any encoded bit fails here, and must be a deliberate, versioned format change.
//!
//! The files were written once by the ignored test `regenerate_golden`:
//!
//! ```sh
//! cargo test -p chessbits --test integration -- --ignored golden::regenerate_golden
//! ```
//!
//! Run it again only for a deliberate format change (and say so in the changelog).

use crate::common;

use std::fmt::Write as _;
use std::path::PathBuf;

use chessbits::codec::moves::index::{self, MoveListKind};
use chessbits::codec::moves::{direction_target, entropy, enumeration, flagged, lichess, per_square};
use chessbits::codec::position;
use chessbits::moves::Move;
use chessbits::notation::fen::CastlingNotation;
use chessbits::notation::uci::parse_uci;
use chessbits::position::{Position, Setup};

use common::{load_pgn, testdata_path, Rng};

fn golden_dir() -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/golden"))
}

// ---------------------------------------------------------------------------------------------
// The text format
// ---------------------------------------------------------------------------------------------

fn hex(bytes: &[u8]) -> String {
    let mut s = String::with_capacity(2 * bytes.len());
    for b in bytes {
        write!(s, "{b:02x}").unwrap();
    }
    s
}

fn unhex(s: &str) -> Vec<u8> {
    assert!(s.len() % 2 == 0, "odd hex length: {s:?}");
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap_or_else(|e| panic!("{s:?}: {e}")))
        .collect()
}

/// The lines of a golden file that are not comments or blank, split at `;`.
fn records(name: &str) -> Vec<Vec<String>> {
    let path = golden_dir().join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| l.split(';').map(str::to_string).collect())
        .collect()
}

/// A game of `games.txt`: its name, start position and moves.
struct GoldenGame {
    name: String,
    start: Position,
    moves: Vec<Move>,
}

impl GoldenGame {
    /// The position before each move, then the final position.
    fn positions(&self) -> Vec<Position> {
        let mut pos = self.start.clone();
        let mut out = vec![pos.clone()];
        for &m in &self.moves {
            pos.play_unchecked(m);
            out.push(pos.clone());
        }
        out
    }

    fn uci(&self) -> String {
        let mut pos = self.start.clone();
        let mut out = Vec::new();
        for &m in &self.moves {
            out.push(m.uci(pos.is_chess960()).to_string());
            pos.play_unchecked(m);
        }
        out.join(" ")
    }
}

fn fen_of(pos: &Position) -> String {
    if pos.is_chess960() {
        pos.fen_with(CastlingNotation::Shredder)
    } else {
        pos.fen()
    }
}

fn load_games() -> Vec<GoldenGame> {
    records("games.txt")
        .into_iter()
        .map(|r| {
            assert_eq!(r.len(), 3, "games.txt: name;fen;moves expected, got {r:?}");
            let start = Position::from_fen(&r[1]).unwrap_or_else(|e| panic!("{}: {e}", r[1]));
            let mut pos = start.clone();
            let mut moves = Vec::new();
            for uci in r[2].split_whitespace() {
                let m = parse_uci(&pos, uci).unwrap_or_else(|e| panic!("{}: {e}", r[0]));
                pos.play_unchecked(m);
                moves.push(m);
            }
            GoldenGame {
                name: r[0].clone(),
                start,
                moves,
            }
        })
        .collect()
}

// ---------------------------------------------------------------------------------------------
// The codes
// ---------------------------------------------------------------------------------------------

/// How a move code stores a game: one byte string for the game, or one code per move.
enum MoveCode {
    /// The whole game as one byte string; the decoder is given the ply count.
    Game {
        encode: fn(&Position, &[Move]) -> Option<Vec<u8>>,
        decode: fn(&Position, &[u8], usize) -> Option<Vec<Move>>,
    },
    /// One code per move (as bytes, big-endian for the integer codes).
    PerMove {
        encode: fn(&Position, Move) -> Option<Vec<u8>>,
        decode: fn(&Position, &[u8]) -> Option<Move>,
    },
}

fn move_codes() -> Vec<(&'static str, MoveCode)> {
    vec![
        (
            "index-byte",
            MoveCode::Game {
                encode: |p, m| index::encode_game_bytes(p, m).ok(),
                decode: |p, b, _| index::decode_game_bytes(p, b).ok(),
            },
        ),
        (
            "index-bits-legal",
            MoveCode::Game {
                encode: |p, m| index::encode_game_bits(p, MoveListKind::Legal, m).ok(),
                decode: |p, b, _| index::decode_game_bits(p, MoveListKind::Legal, b).ok(),
            },
        ),
        (
            "index-bits-pseudo-legal",
            MoveCode::Game {
                encode: |p, m| index::encode_game_bits(p, MoveListKind::PseudoLegal, m).ok(),
                decode: |p, b, _| index::decode_game_bits(p, MoveListKind::PseudoLegal, b).ok(),
            },
        ),
        (
            "entropy",
            MoveCode::Game {
                encode: |p, m| entropy::encode_game(p, m).ok(),
                decode: |p, b, n| entropy::decode_game(p, b, n).ok(),
            },
        ),
        (
            "lichess",
            MoveCode::Game {
                encode: |p, m| lichess::encode_game(p, m).ok(),
                decode: |p, b, n| lichess::decode_game(p, b, n).ok(),
            },
        ),
        (
            "per-square",
            MoveCode::PerMove {
                encode: |p, m| per_square::encode(p, m).ok().map(|c| c.to_bytes()),
                decode: |p, b| match per_square::read(p, b) {
                    Ok((m, used)) if used == b.len() => Some(m),
                    _ => None,
                },
            },
        ),
        (
            "enumeration",
            MoveCode::PerMove {
                encode: |p, m| enumeration::encode_move(p, m).ok().map(|c| c.to_be_bytes().to_vec()),
                decode: |p, b| enumeration::decode_move(p, u16::from_be_bytes(b.try_into().ok()?)).ok(),
            },
        ),
        (
            "direction-target",
            MoveCode::PerMove {
                encode: |p, m| direction_target::encode(p, m).ok().map(|c| c.to_be_bytes().to_vec()),
                decode: |p, b| direction_target::decode(p, u16::from_be_bytes(b.try_into().ok()?)).ok(),
            },
        ),
        (
            "flagged",
            MoveCode::PerMove {
                encode: |p, m| flagged::encode(p, m).ok().map(|c| c.bits().to_be_bytes().to_vec()),
                decode: |p, b| {
                    let code = flagged::FlaggedMove::from_bits(u32::from_be_bytes(b.try_into().ok()?)).ok()?;
                    flagged::decode(p, code).ok()
                },
            },
        ),
    ]
}

/// The code of a whole game as the golden file writes it, or `None` if the code cannot store it.
fn encode_game_text(code: &MoveCode, game: &GoldenGame) -> Option<String> {
    match code {
        MoveCode::Game { encode, .. } => encode(&game.start, &game.moves).map(|b| hex(&b)),
        MoveCode::PerMove { encode, .. } => {
            let mut pos = game.start.clone();
            let mut codes = Vec::new();
            for &m in &game.moves {
                codes.push(hex(&encode(&pos, m)?));
                pos.play_unchecked(m);
            }
            Some(codes.join(" "))
        }
    }
}

fn decode_game_text(code: &MoveCode, game: &GoldenGame, text: &str) -> Option<Vec<Move>> {
    match code {
        MoveCode::Game { decode, .. } => decode(&game.start, &unhex(text), game.moves.len()),
        MoveCode::PerMove { decode, .. } => {
            let mut pos = game.start.clone();
            let mut moves = Vec::new();
            for c in text.split_whitespace() {
                let m = decode(&pos, &unhex(c))?;
                pos.play_unchecked(m);
                moves.push(m);
            }
            Some(moves)
        }
    }
}

/// The positions the position codes are checked on: every eighth position of the golden games
/// (start and end included), without repeats.
fn golden_positions(games: &[GoldenGame]) -> Vec<Position> {
    let mut out: Vec<Position> = Vec::new();
    for game in games {
        let all = game.positions();
        let last = all.len() - 1;
        for (i, pos) in all.into_iter().enumerate() {
            if (i % 8 == 0 || i == last) && !out.iter().any(|p| fen_of(p) == fen_of(&pos)) {
                out.push(pos);
            }
        }
    }
    out
}

/// Positions the games do not reach: a long halfmove clock, an en passant square, promoted
/// pieces, Chess960 castling rights, bare kings.
const EXTRA_POSITIONS: [&str; 7] = [
    "8/8/4k3/8/8/3K4/8/8 b - - 0 1",
    "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 126 80",
    "r3k2r/8/8/8/8/8/8/R3K2R b Kq - 127 80",
    "4k3/8/8/8/8/8/8/4K2R w K - 1000 700",
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    "4k3/8/8/8/8/8/8/QQQQKQQQ w - - 0 1",
    "1r2k1r1/8/8/8/8/8/8/1R2K1R1 w GBgb - 0 1",
];

// ---------------------------------------------------------------------------------------------
// The tests
// ---------------------------------------------------------------------------------------------

#[test]
fn golden_move_codes() {
    let games = load_games();
    assert!(games.len() >= 5);
    for (name, code) in move_codes() {
        let file = format!("moves/{name}.txt");
        let recs = records(&file);
        assert!(!recs.is_empty(), "{file}: no vectors");
        for r in recs {
            let game = games
                .iter()
                .find(|g| g.name == r[0])
                .unwrap_or_else(|| panic!("{file}: unknown game {}", r[0]));
            let moves = decode_game_text(&code, game, &r[1]);
            assert_eq!(
                moves.as_deref(),
                Some(&game.moves[..]),
                "{file}: {} does not decode",
                game.name
            );
            assert_eq!(
                encode_game_text(&code, game).as_deref(),
                Some(r[1].as_str()),
                "{file}: {} encodes to other bytes",
                game.name
            );
        }
    }
}

#[test]
fn golden_position_codes() {
    for codec in position::all() {
        let file = format!("position/{}.txt", codec.name());
        let recs = records(&file);
        assert!(recs.len() >= 20, "{file}: too few vectors");
        for r in recs {
            let bytes = unhex(&r[0]);
            let setup = Position::from_fen(&r[1])
                .unwrap_or_else(|e| panic!("{file}: {}: {e}", r[1]))
                .to_setup();
            let expected = Setup {
                fullmove_number: 1,
                ..setup.clone()
            };
            assert_eq!(
                codec.decode(&bytes).as_ref(),
                Ok(&expected),
                "{file}: {} does not decode",
                r[0]
            );
            assert_eq!(
                codec.encode(&setup),
                Ok(bytes),
                "{file}: {} encodes to other bytes",
                r[1]
            );
        }
    }
}

/// Every golden game is in every move code that can store it, and every golden position in
/// every position code that accepts it: nothing was dropped from the files by mistake.
#[test]
fn golden_files_are_complete() {
    let games = load_games();
    for (name, code) in move_codes() {
        let recs = records(&format!("moves/{name}.txt"));
        for game in &games {
            let stored = recs.iter().any(|r| r[0] == game.name);
            assert_eq!(stored, encode_game_text(&code, game).is_some(), "{name}: {}", game.name);
        }
    }
    let positions = golden_positions(&games);
    for codec in position::all() {
        let recs = records(&format!("position/{}.txt", codec.name()));
        let stored: Vec<&str> = recs.iter().map(|r| r[1].as_str()).collect();
        for pos in positions
            .iter()
            .cloned()
            .chain(EXTRA_POSITIONS.iter().map(|f| Position::from_fen(f).unwrap()))
        {
            let fen = fen_of(&pos);
            if codec.encode(&pos.to_setup()).is_ok() {
                assert!(stored.contains(&fen.as_str()), "{}: {fen} missing", codec.name());
            }
        }
    }
}

/// The games hold every kind of move: both castles in standard chess and in Chess960, en passant,
/// every promotion, captures.
#[test]
fn golden_games_cover_special_moves() {
    let games = load_games();
    let mut seen = std::collections::BTreeSet::new();
    for game in &games {
        let mut pos = game.start.clone();
        for &m in &game.moves {
            if m.is_castle() {
                let side = if m.to().file() > m.from().file() {
                    "O-O"
                } else {
                    "O-O-O"
                };
                seen.insert(format!("{side} {}", if pos.is_chess960() { "960" } else { "standard" }));
            }
            if m.is_en_passant() {
                seen.insert("en passant".to_string());
            }
            if let Some(role) = m.promotion() {
                seen.insert(format!("={}", role.char()));
            }
            pos.play_unchecked(m);
        }
    }
    for kind in [
        "O-O standard",
        "O-O-O standard",
        "O-O 960",
        "en passant",
        "=q",
        "=r",
        "=b",
        "=n",
    ] {
        assert!(seen.contains(kind), "no {kind} in the golden games: {seen:?}");
    }
}

// ---------------------------------------------------------------------------------------------
// The generator, run once
// ---------------------------------------------------------------------------------------------

/// A random legal game that seeks out the rare moves: castling, en passant and promotions are
/// chosen whenever there is one, captures and pawn moves often.
fn seeking_game(start: &Position, seed: u64, plies: usize) -> Vec<Move> {
    let mut rng = Rng::new(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15));
    let mut pos = start.clone();
    let mut moves = Vec::new();
    for _ in 0..plies {
        let list = pos.legal_moves();
        if list.is_empty() {
            break;
        }
        let weight = |m: &Move| -> u64 {
            if m.is_castle() || m.is_en_passant() || m.is_promotion() {
                1000
            } else if m.is_capture() {
                6
            } else if pos.piece_at(m.from()).is_some_and(|p| p.role == chessbits::Role::Pawn) {
                4
            } else {
                1
            }
        };
        let total: u64 = list.iter().map(weight).sum();
        let mut pick = rng.next() % total;
        let mut chosen = list[0];
        for m in list.iter() {
            let w = weight(m);
            if pick < w {
                chosen = *m;
                break;
            }
            pick -= w;
        }
        pos.play_unchecked(chosen);
        moves.push(chosen);
    }
    moves
}

fn source_games() -> Vec<GoldenGame> {
    let data = testdata_path();
    let real = |file: &str, number: usize, name: &str| {
        let g = load_pgn(&data, file).into_iter().nth(number - 1).unwrap();
        GoldenGame {
            name: name.to_string(),
            start: g.start,
            moves: g.moves,
        }
    };
    let seeking = |name: &str, fen: &str, seed: u64, plies: usize| {
        let start = Position::from_fen(fen).unwrap();
        let moves = seeking_game(&start, seed, plies);
        GoldenGame {
            name: name.to_string(),
            start,
            moves,
        }
    };
    vec![
        real("shakmaty_lichess_db_1000k.pgn", 1, "lichess-1"),
        real("notnil_Carlsen.pgn", 1, "carlsen-1"),
        seeking(
            "random-special",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            12,
            160,
        ),
        seeking(
            "kiwipete",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            7,
            80,
        ),
        seeking(
            "en-passant",
            "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
            2,
            30,
        ),
        seeking("promotions", "8/PPPk4/8/8/8/8/4Kppp/8 w - - 0 1", 3, 40),
        seeking(
            "chess960",
            "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
            5,
            80,
        ),
    ]
}

#[test]
#[ignore = "writes tests/golden/; run only for a deliberate format change"]
fn regenerate_golden() {
    let dir = golden_dir();
    std::fs::create_dir_all(dir.join("moves")).unwrap();
    std::fs::create_dir_all(dir.join("position")).unwrap();
    let games = source_games();

    let mut text =
        String::from("# Golden games: name;start FEN;moves in UCI (Chess960 castling as king takes rook).\n");
    for game in &games {
        writeln!(text, "{};{};{}", game.name, fen_of(&game.start), game.uci()).unwrap();
    }
    std::fs::write(dir.join("games.txt"), text).unwrap();
    // What the tests read back must be what was written.
    let games = load_games();

    for (name, code) in move_codes() {
        let kind = match code {
            MoveCode::Game { .. } => "the game's bytes in hex",
            MoveCode::PerMove { .. } => "one hex code per move",
        };
        let mut text = format!("# Move code {name}: game name;{kind}.\n");
        for game in &games {
            match encode_game_text(&code, game) {
                Some(codes) => writeln!(text, "{};{codes}", game.name).unwrap(),
                None => writeln!(text, "# {}: cannot be stored in this code", game.name).unwrap(),
            }
        }
        std::fs::write(dir.join(format!("moves/{name}.txt")), text).unwrap();
    }

    let positions: Vec<Position> = golden_positions(&games)
        .into_iter()
        .chain(EXTRA_POSITIONS.iter().map(|f| Position::from_fen(f).unwrap()))
        .collect();
    for codec in position::all() {
        let mut text = format!(
            "# Position code {}: code in hex;FEN (the code does not store the fullmove number).\n",
            codec.name()
        );
        for pos in &positions {
            let fen = fen_of(pos);
            match codec.encode(&pos.to_setup()) {
                Ok(bytes) => writeln!(text, "{};{fen}", hex(&bytes)).unwrap(),
                Err(e) => writeln!(text, "# {fen}: {e}").unwrap(),
            }
        }
        std::fs::write(dir.join(format!("position/{}.txt", codec.name())), text).unwrap();
    }
}
