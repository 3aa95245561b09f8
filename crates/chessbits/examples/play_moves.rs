//! Playing moves: from SAN and UCI text, listing the legal moves with their SAN and whether
//! they give check, and reading the position back as FEN.
//!
//! ```text
//! cargo run -p chessbits --example play_moves
//! ```

use chessbits::game::Game;
use chessbits::notation::san::san_of;
use chessbits::position::Position;

fn main() {
    // A position is the board, the side to move, castling rights, en passant square and clocks.
    let mut pos = Position::startpos();

    // `play_san` and `play_uci` read a move, check that it is legal here, and play it.
    // Both return the `Move` they played (a 16-bit from/to/kind value).
    pos.play_san("e4").expect("legal");
    pos.play_uci("e7e5").expect("legal");
    pos.play_san("Nf3").expect("legal");
    let m = pos.play_san("Nc6").expect("legal");
    println!("played {m} (UCI) after 1. e4 e5 2. Nf3");

    // A move that is not legal is refused with an error, and the position is unchanged.
    let before = pos.fen();
    assert!(pos.play_san("Ke3").is_err());
    assert_eq!(pos.fen(), before);
    println!("FEN: {}", pos.fen());

    // Every legal move: `san_of` writes its SAN (with `+` or `#` when it gives check or mate),
    // `gives_check` answers without playing it.
    let moves = pos.legal_moves();
    println!("{} legal moves:", moves.len());
    for &m in moves.iter() {
        let check = if pos.gives_check(m) { "  gives check" } else { "" };
        println!("  {:<6} {:<5}{check}", san_of(&pos, m).to_string(), m.to_string());
    }

    // To look ahead and come back, `play_unchecked` (for moves known to be legal, such as
    // generated ones) returns what `unmake_move` needs to undo it.
    let bb5 = pos.parse_san("Bb5").expect("legal");
    let undo = pos.play_unchecked(bb5);
    println!("after Bb5 Black has {} moves", pos.legal_moves().len());
    pos.unmake_move(bb5, undo);
    assert_eq!(pos.fen(), before);

    // A `Game` keeps the move list and the positions' keys: repetitions, the fifty-move rule
    // and the outcome. The fool's mate:
    let mut game = Game::new();
    for san in ["f3", "e5", "g4", "Qh4#"] {
        game.push_san(san).expect("legal");
    }
    println!("after 1. f3 e5 2. g4 Qh4#: {:?}", game.outcome());
}
