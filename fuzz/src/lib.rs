//! Helpers shared by the fuzz targets in `fuzz_targets/`: a few fixed positions and the checks
//! every move decoder's output must pass.

use chessbits::lists::MoveList;
use chessbits::moves::Move;
use chessbits::position::{Position, Validation};

/// Positions the move decoders and notation parsers start from: the start position, the perft
/// favourites (castling, en passant, promotions, pins), a Chess960 start, an endgame, many
/// pieces, and Black to move with promotions.
pub const FENS: [&str; 8] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "7k/8/8/8/8/RRRRRR2/QQQQQ3/1NBNB1K1 w - - 0 1",
    "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
];

/// The position named by `selector` (taken modulo the number of [`FENS`], plus one extra: the
/// 270-move position where the one-byte codes need their wide forms). Two of them hold more
/// material than a game can give: they are read as composed positions.
pub fn position(selector: u8) -> Position {
    const WIDE: &str = "kBQQQQQQ/BR5Q/Q6Q/Q6Q/Q6Q/Q6Q/Q6Q/KQQQQQQQ w - - 0 1";
    let i = selector as usize % (FENS.len() + 1);
    let fen = FENS.get(i).copied().unwrap_or(WIDE);
    Position::from_fen_with(fen, Validation::Composed).expect("fixed FENs parse")
}

/// The legal moves of `pos`.
pub fn legal_moves(pos: &Position) -> Vec<Move> {
    let mut list = MoveList::new();
    pos.legal_moves_into(&mut list);
    list.to_vec()
}

/// Replays `moves` from `start`, checking each is legal where it is played (what every move
/// decoder promises); returns the final position.
pub fn replay_legal(start: &Position, moves: &[Move], code: &str) -> Position {
    let mut pos = start.clone();
    for (ply, &m) in moves.iter().enumerate() {
        assert!(
            legal_moves(&pos).contains(&m),
            "{code}: decoded illegal move {m} at ply {ply} in {}",
            pos.fen()
        );
        pos.play_unchecked(m);
    }
    pos
}

pub mod archive;
pub mod index;

/// `other_tags` from fuzzed bytes: one `name=value` pair a line (a line without `=` is a name
/// with an empty value).
pub fn tag_pairs(text: &str) -> Vec<(String, String)> {
    text.lines()
        .map(|l| match l.split_once('=') {
            Some((k, v)) => (k.to_string(), v.to_string()),
            None => (l.to_string(), String::new()),
        })
        .collect()
}

/// Writes seed `name` of `target` into `corpus/<target>/` (the seed makers in `examples/`).
pub fn write_seed(target: &str, name: &str, bytes: &[u8]) {
    let dir = std::path::Path::new("corpus").join(target);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join(name), bytes).unwrap();
}
