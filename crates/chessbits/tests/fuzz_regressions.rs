//! Inputs the fuzz targets (`fuzz/`, see FUZZING.md) found, minimized, each with the check that
//! failed.

use chessbits::codec::position::{HuffmanMulti, PositionCodec};
use chessbits::lists::MoveList;
use chessbits::pgn::PgnReader;
use chessbits::position::Position;

/// Every legal move of `pos` plays, and unplays to the same position.
fn play_every_move(pos: &Position) {
    let mut moves = MoveList::new();
    pos.legal_moves_into(&mut moves);
    assert!(!moves.is_empty());
    for &m in moves.iter() {
        let mut child = pos.clone();
        let undo = child.play_unchecked(m);
        child.unmake_move(m, undo);
        assert_eq!(child.fen(), pos.fen());
    }
}

/// `position_codes` (huffman-multi): a code may store any halfmove clock up to `u32::MAX`, and
/// `play_unchecked` added one to it: "attempt to add with overflow" (debug builds), a clock of 0
/// after wrapping (release builds). The clock now saturates. A FEN can carry the same clock.
#[test]
fn halfmove_clock_at_u32_max_saturates() {
    let bytes = [0xff, 0xff, 0xff, 0xff, 0xff, 0x0c, 0xfe, 0xef, 0x00, 0xa6, 0xa0];
    let setup = HuffmanMulti.decode(&bytes).unwrap();
    assert_eq!(setup.halfmove_clock, u32::MAX);
    let pos = Position::from_setup(setup).unwrap();
    play_every_move(&pos);

    let pos = Position::from_fen("4k3/8/8/8/8/8/8/R3K3 w - - 4294967295 7").unwrap();
    play_every_move(&pos);
    let mut child = pos.clone();
    child.play_unchecked(chessbits::notation::uci::parse_uci(&pos, "a1a2").unwrap());
    assert_eq!(child.halfmove_clock(), u32::MAX);
    let mut null = pos.clone();
    null.make_null_move();
    assert_eq!(null.halfmove_clock(), u32::MAX);
}

/// The same for the fullmove number: a FEN may give `u32::MAX`, and Black's move (or null move)
/// then overflowed. It saturates, and unmaking restores the number exactly (a decrement would
/// leave `u32::MAX - 1`).
#[test]
fn fullmove_number_at_u32_max_saturates_and_unmakes_exactly() {
    for fen in [
        "4k3/8/8/8/8/8/8/R3K3 b - - 0 4294967295",
        "4k3/8/8/8/8/8/8/R3K3 b - - 0 4294967294",
    ] {
        let pos = Position::from_fen(fen).unwrap();
        play_every_move(&pos);
        let mut child = pos.clone();
        let m = chessbits::notation::uci::parse_uci(&pos, "e8d8").unwrap();
        let undo = child.play_unchecked(m);
        assert_eq!(child.fullmove_number(), u32::MAX);
        child.unmake_move(m, undo);
        assert_eq!(child.fullmove_number(), pos.fullmove_number());
        let mut null = pos.clone();
        let undo = null.make_null_move();
        assert_eq!(null.fullmove_number(), u32::MAX);
        null.unmake_null_move(undo);
        assert_eq!(null.fen(), pos.fen());
    }
}

/// `pgn_reader`: a comment with a run of spaces right where the writer wraps the line at 80
/// columns lost a space: the break replaced the run's first space and the word after it started
/// the new line without its own, so `to_pgn` read back as a different game.
#[test]
fn comment_spaces_at_the_wrap_column_survive_write_and_read() {
    let mut pgn = b"1. e4 {".to_vec();
    pgn.extend(std::iter::repeat_n(b'x', 72));
    pgn.extend_from_slice(b"  b} *\n");
    let game = PgnReader::new(&pgn[..]).read_owned_game().unwrap().unwrap().unwrap();
    let text = game.to_pgn();
    let again = PgnReader::new(&text[..]).read_owned_game().unwrap().unwrap().unwrap();
    assert_eq!(again, game, "{}", String::from_utf8_lossy(&text));
    assert_eq!(again.to_pgn(), text);
    // Runs of spaces at every column, in comments of several lengths.
    for run in 2..5 {
        for before in 60..90 {
            let comment = format!("{}{}b c", "y".repeat(before), " ".repeat(run));
            let pgn = format!("1. e4 {{{comment}}} e5 {{a {comment}}} *\n");
            let game = PgnReader::new(pgn.as_bytes())
                .read_owned_game()
                .unwrap()
                .unwrap()
                .unwrap();
            let text = game.to_pgn();
            let again = PgnReader::new(&text[..]).read_owned_game().unwrap().unwrap().unwrap();
            assert_eq!(again, game, "{}", String::from_utf8_lossy(&text));
        }
    }
}

/// `pgn_reader`: a lone move number after a result, right before the next game's tags
/// (`e4 *0\n[Result ...`), was a game of nothing when the tags ended it, and no game when it was
/// read on its own (cut into games, at the end of its text): the counts differed. Move numbers
/// alone are no game either way now.
#[test]
fn a_lone_move_number_before_tags_is_no_game() {
    let pgn = b"1. e4 *0\n[Result \"1-0\"] e4 0-1\n";
    let mut reader = PgnReader::new(&pgn[..]);
    let mut games = 0;
    while reader.skip_game().unwrap() {
        games += 1;
    }
    assert_eq!(games, 2);
    let mut reader = PgnReader::new(&pgn[..]);
    let mut bytes = Vec::new();
    let mut texts = Vec::new();
    while let Some(raw) = reader.read_raw_game(&mut bytes).unwrap() {
        assert!(raw.reader(&bytes[..]).skip_game().unwrap(), "a cut game holds a game");
        texts.push(String::from_utf8(std::mem::take(&mut bytes)).unwrap());
    }
    assert_eq!(texts, ["1. e4 *", "[Result \"1-0\"] e4 0-1"]);
}
