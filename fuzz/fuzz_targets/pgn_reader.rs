//! The PGN reader on arbitrary bytes. Reading the input as one stream, a byte at a time, and
//! cut into games (`read_raw_game`, each game re-read with `RawGame::reader`) gives the same
//! outcomes (what `tests/pgn_hostile.rs` checks); `into_games` sees as many games; and every game
//! that reads OK writes (`to_pgn`) to text that reads back to an equal game and writes again to
//! the same text; `MainLineReader` reads the same games, with the same errors, and the main line,
//! tags and comments after main-line moves of the tree.
#![no_main]

use std::io::Read;

use chessbits::pgn::{
    GameError, GameErrorKind, GameSummary, GameTree, MainLineGame, MainLineReader, PgnReader, SyntaxError, Validator,
};
use libfuzzer_sys::fuzz_target;

type Outcome = Result<GameSummary, GameError>;

/// Every game of the input checked in one stream.
fn stream<R: Read>(input: R) -> Vec<Outcome> {
    let mut reader = PgnReader::new(input);
    let mut validator = Validator::new();
    let mut out = Vec::new();
    while let Some(outcome) = reader.read_game(&mut validator).expect("reading memory cannot fail") {
        out.push(outcome);
    }
    out
}

/// Every game of the input cut out first, then checked on its own.
fn split(pgn: &[u8]) -> Vec<Outcome> {
    let mut reader = PgnReader::new(pgn);
    let mut validator = Validator::new();
    let mut bytes = Vec::new();
    let mut out = Vec::new();
    while let Some(raw) = reader.read_raw_game(&mut bytes).expect("reading memory cannot fail") {
        if raw.too_long {
            out.push(Err(GameError {
                line: raw.first_line,
                kind: GameErrorKind::Syntax(SyntaxError::GameTooLong),
            }));
        } else {
            let mut games = raw.reader(&bytes[..]);
            let outcome = games
                .read_game(&mut validator)
                .unwrap()
                .expect("a raw game holds a game");
            assert!(
                games.read_game(&mut validator).unwrap().is_none(),
                "a raw game holds one game: {:?}",
                String::from_utf8_lossy(&bytes)
            );
            out.push(outcome);
        }
        bytes.clear();
    }
    out
}

/// Hands out one byte per read: every buffer boundary falls everywhere.
struct Trickle<'a>(&'a [u8]);

impl Read for Trickle<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        match (self.0.split_first(), buf.first_mut()) {
            (Some((&byte, rest)), Some(slot)) => {
                *slot = byte;
                self.0 = rest;
                Ok(1)
            }
            _ => Ok(0),
        }
    }
}

/// What a main-line read and a tree must agree on.
fn assert_main_line(line: &MainLineGame, tree: &GameTree) {
    let tags: Vec<(&[u8], &[u8])> = line.tags().map(|(name, value)| (name, value.as_bytes())).collect();
    let tree_tags: Vec<(&[u8], &[u8])> = tree.tags.iter().map(|t| (t.name(), t.raw_value())).collect();
    assert_eq!(tags, tree_tags);
    assert_eq!(line.start, tree.start);
    assert_eq!(line.result, tree.result);
    assert_eq!(line.moves, tree.mainline().collect::<Vec<_>>());
    for (ply, node) in tree.moves.nodes.iter().enumerate() {
        let comments: Vec<&[u8]> = node.comments_after.iter().map(|c| c.as_bytes()).collect();
        assert_eq!(line.comments_after(ply).collect::<Vec<_>>(), comments, "ply {ply}");
    }
}

fuzz_target!(|data: &[u8]| {
    let whole = stream(data);
    assert_eq!(split(data), whole, "cut into games");
    assert_eq!(stream(Trickle(data)), whole, "byte by byte");
    let mut count = 0;
    let mut main_lines = PgnReader::new(data);
    let mut main_line = MainLineReader::new();
    for game in PgnReader::new(data).into_games() {
        count += 1;
        let line = main_lines.read_game(&mut main_line).unwrap().expect("as many games");
        let game = match (game, line) {
            (Ok(game), Ok(line)) => {
                assert_main_line(&line, &game);
                game
            }
            (Err(chessbits::pgn::PgnError::Game(a)), Err(b)) => {
                assert_eq!(a, b, "main-line reader's error");
                continue;
            }
            (a, b) => panic!("tree {a:?} against main line {b:?}"),
        };
        let text = game.to_pgn();
        let shown = String::from_utf8_lossy(&text);
        let again = PgnReader::new(&text[..])
            .read_owned_game()
            .unwrap()
            .expect("a written game is a game")
            .unwrap_or_else(|e| panic!("written game does not read back: {e}\n{shown}"));
        assert_eq!(again, game, "written and read back:\n{shown}");
        assert_eq!(again.to_pgn(), text);
    }
    assert_eq!(count, whole.len(), "into_games and the validator see as many games");
});
