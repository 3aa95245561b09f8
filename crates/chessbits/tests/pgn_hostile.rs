//! The PGN reader on hostile input, each case built here: very long lines, old Mac line breaks,
//! unclosed comments and variations, stray brackets, odd tags and NAGs, deep nesting, oversized
//! tokens and games; and cutting a file into games ([`PgnReader::read_raw_game`], what several
//! threads do) reads exactly like one stream.

use crate::common;

use common::Trickle;
use std::io::Read;

use chessbits::pgn::{
    GameError, GameErrorKind, GameSummary, InputError, PgnReader, SyntaxError, Validator, MAX_GAME_BYTES,
    MAX_TOKEN_BYTES, MAX_VARIATION_DEPTH,
};

type Outcome = Result<GameSummary, GameError>;

/// Every game of `pgn` checked in one stream.
fn stream<R: Read>(input: R) -> Vec<Outcome> {
    let mut reader = PgnReader::new(input);
    let mut validator = Validator::new();
    let mut out = Vec::new();
    while let Some(outcome) = reader.read_game(&mut validator).unwrap() {
        out.push(outcome);
    }
    out
}

/// Every game of `pgn` cut out first, then checked on its own.
fn split(pgn: &[u8]) -> Vec<Outcome> {
    let mut reader = PgnReader::new(pgn);
    let mut validator = Validator::new();
    let mut bytes = Vec::new();
    let mut out = Vec::new();
    while let Some(raw) = reader.read_raw_game(&mut bytes).unwrap() {
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
                "a raw game holds one game"
            );
            out.push(outcome);
        }
        bytes.clear();
    }
    out
}

/// Checks `pgn` in one stream, a byte at a time and cut into games; all three must agree.
fn check(pgn: &[u8]) -> Vec<Outcome> {
    let whole = stream(pgn);
    assert_eq!(split(pgn), whole, "cut into games: {}", String::from_utf8_lossy(pgn));
    if pgn.len() < 100_000 {
        assert_eq!(
            stream(Trickle(pgn)),
            whole,
            "byte by byte: {}",
            String::from_utf8_lossy(pgn)
        );
    }
    whole
}

fn errors(outcomes: &[Outcome]) -> Vec<String> {
    outcomes
        .iter()
        .filter_map(|o| o.as_ref().err().map(|e| e.to_string()))
        .collect()
}

fn plies(outcomes: &[Outcome]) -> Vec<u32> {
    outcomes.iter().map(|o| o.as_ref().map_or(0, |s| s.plies)).collect()
}

const GAME: &str = "[Event \"Casual\"]\n[Site \"?\"]\n[White \"A\"]\n[Black \"B\"]\n[Result \"1-0\"]\n\n\
                    1. e4 {open} e5 2. Nf3 (2. Bc4 $1) Nc6 3. Bb5 ; Spanish\na6 1-0\n\n";

#[test]
fn one_very_long_line_reads_in_linear_time() {
    // Tags and moves of thousands of games on a single line (2 MB): every tag once looked to
    // the end of its line, which made this quadratic.
    let one_line = GAME.replace(['\n'], " ").replace("; Spanish ", "");
    let pgn = one_line.repeat(20_000);
    assert!(pgn.len() > 2_000_000);
    let outcomes = check(pgn.as_bytes());
    assert_eq!(outcomes.len(), 20_000);
    assert!(outcomes.iter().all(|o| o.as_ref().is_ok_and(|s| s.plies == 6)));
}

#[test]
fn every_line_break_style_counts_lines_the_same() {
    let bad = "[Event \"x\"]\n\n1. e4 e5\n2. Ke3 *\n\n";
    let lf = format!("{GAME}{bad}{GAME}");
    let expected = check(lf.as_bytes());
    assert_eq!(errors(&expected), ["line 13: illegal move 'Ke3'"]);
    for style in ["\r\n", "\r"] {
        let text = lf.replace('\n', style);
        assert_eq!(check(text.as_bytes()), expected, "{style:?}");
    }
    // Many games with old Mac line breaks: one long line for a reader that knows only `\n`.
    let pgn = GAME.replace('\n', "\r").repeat(5_000);
    let outcomes = check(pgn.as_bytes());
    assert_eq!(outcomes.len(), 5_000);
    assert!(outcomes.iter().all(|o| o.as_ref().is_ok_and(|s| s.plies == 6)));
    // An escape line and a `;` comment end at a lone `\r` too.
    let text = b"%escaped\r1. e4 ; comment\re5 *";
    assert_eq!(plies(&check(text)), [2]);
}

#[test]
fn an_unclosed_comment_ends_at_the_next_game() {
    let pgn = b"[Event \"a\"]\n\n1. e4 {never closed e5 2. Nf3\n\n[Event \"b\"]\n\n1. d4 d5 *\n";
    let outcomes = check(pgn);
    assert_eq!(outcomes.len(), 2);
    assert_eq!(
        errors(&outcomes),
        ["line 3: comment not closed before the next game or the end"]
    );
    assert_eq!(plies(&outcomes), [0, 2]);
    // Without a blank line before the tag line, or with a `[` that starts no tag pair, the
    // comment goes on: lichess writes `[%clk ...]` in comments, some files break lines in them.
    let pgn = b"1. e4 {a comment\n[Event \"quoted\"] over lines\n\n[%clk 0:01:00]} e5 *\n";
    assert_eq!(plies(&check(pgn)), [2]);
    // Still open at the end of the input.
    assert_eq!(
        errors(&check(b"1. e4 e5 {unclosed\n\n1. d4")),
        ["line 1: comment not closed before the next game or the end"]
    );
    // Every line-break style, and a blank line of spaces.
    for gap in ["\r\n\r\n", "\r\r", "\n \t \n"] {
        let pgn = format!("1. e4 {{open{gap}[Event \"b\"]\n1. d4 *");
        let outcomes = check(pgn.as_bytes());
        assert_eq!(plies(&outcomes), [0, 1], "{gap:?}");
    }
}

#[test]
fn an_unclosed_variation_ends_at_the_next_game() {
    let pgn = b"1. e4 e5 (1... c5 2. Nf3\n[Event \"b\"]\n1. d4 *\n";
    let outcomes = check(pgn);
    assert_eq!(
        errors(&outcomes),
        ["line 1: variation not closed before the next game or the end"]
    );
    assert_eq!(plies(&outcomes), [0, 1]);
    // A result before the tags: the first error found is the one reported.
    let pgn = b"1. e4 e5 (1... c5 2. Nf3 *\n[Event \"b\"]\n1. d4 *\n";
    let outcomes = check(pgn);
    assert_eq!(errors(&outcomes), ["line 1: result inside a variation"]);
    assert_eq!(plies(&outcomes), [0, 1]);
    assert_eq!(
        errors(&check(b"1. e4 e5\n(1... c5 (1... d5\n")),
        ["line 2: variation not closed before the next game or the end"]
    );
}

#[test]
fn a_stray_bracket_is_an_error_not_a_new_game() {
    // Used to end the game at the `[` and store its first half as if complete.
    let outcomes = check(b"1. e4 e5 [%clk 0:01:00] 2. Nf3 *\n\n1. d4 *");
    assert_eq!(outcomes.len(), 2);
    assert_eq!(errors(&outcomes), ["line 1: unexpected '[' in movetext"]);
    for stray in ["]", "}", ")"] {
        let pgn = format!("1. e4 {stray} e5 *");
        assert_eq!(
            errors(&check(pgn.as_bytes())),
            [format!("line 1: unexpected '{stray}' in movetext")]
        );
    }
}

#[test]
fn a_result_inside_a_variation_is_an_error_not_dropped() {
    // Once skipped silently: the tree has no place for it, so a stored game lost it.
    for result in ["1-0", "0-1", "1/2-1/2", "*"] {
        let pgn = format!("1. e4 (1. d4 d5\n{result}) e5 1-0\n\n1. c4 *");
        let outcomes = check(pgn.as_bytes());
        assert_eq!(errors(&outcomes), ["line 2: result inside a variation"], "{result}");
        assert_eq!(plies(&outcomes), [0, 1], "the game goes on to its own result: {result}");
    }
    // In a variation nested too deep (already reported, its contents skipped) it adds nothing.
    let deep = format!("1. e4 {}1-0{} *", "(1. d4 ".repeat(102), ")".repeat(102));
    assert_eq!(
        errors(&check(deep.as_bytes())),
        ["line 1: variations nested deeper than 100"]
    );
}

#[test]
fn tags_and_nags_keep_their_meaning_or_are_reported() {
    let mut games = PgnReader::new(&b"[White \"\"Socrates Expert\"\"]\n\n1. e4 *"[..]).into_games();
    let game = games.next().unwrap().unwrap();
    assert_eq!(game.tag("White").as_deref(), Some("\"Socrates Expert\""));
    let outcomes = check(b"1. e4 $255 *\n1. e4 $256 *\n1. e4 $ e5 *\n1. e4 $99999999999999999999 *\n1. e4 !!! *");
    assert_eq!(
        errors(&outcomes),
        [
            "line 2: bad NAG '$256' (0 to 255)",
            "line 3: bad NAG '$' (0 to 255)",
            "line 4: bad NAG '$99999999999999999999' (0 to 255)",
            "line 5: unknown annotation '!!!'",
        ]
    );
    assert_eq!(
        errors(&check(b"[Event \"x\" junk\n\n1. e4 *")),
        ["line 1: malformed tag pair"]
    );
}

#[test]
fn deep_nesting_is_an_error_and_costs_no_stack() {
    // 70,000 nested variations: the reader counts depth, builds nothing deeper than the limit.
    let depth = 70_000;
    let mut pgn = b"1. e4 e5 ".to_vec();
    for _ in 0..depth {
        pgn.extend_from_slice(b"(1... c5 ");
    }
    pgn.extend(std::iter::repeat_n(b')', depth));
    pgn.extend_from_slice(b" 2. Nf3 *\n\n1. d4 *\n");
    let outcomes = check(&pgn);
    assert_eq!(
        errors(&outcomes),
        [format!("line 1: variations nested deeper than {MAX_VARIATION_DEPTH}")]
    );
    assert_eq!(plies(&outcomes), [0, 1]);
    let games: Vec<_> = PgnReader::new(&pgn[..]).into_games().collect();
    assert!(games[0].is_err() && games[1].is_ok());
    // At the limit, a game is built, written, compared and dropped.
    let mut pgn = b"1. e4 e5 ".to_vec();
    let limit = MAX_VARIATION_DEPTH as usize;
    for _ in 0..limit {
        pgn.extend_from_slice(b"(1... c5 ");
    }
    pgn.extend(std::iter::repeat_n(b')', limit));
    pgn.extend_from_slice(b" *");
    let game = PgnReader::new(&pgn[..]).read_owned_game().unwrap().unwrap().unwrap();
    let again = PgnReader::new(&game.to_pgn()[..])
        .read_owned_game()
        .unwrap()
        .unwrap()
        .unwrap();
    assert_eq!(again, game);
}

#[test]
fn oversized_comments_and_tags_are_reported_not_cut() {
    let long = "x".repeat(MAX_TOKEN_BYTES + 10);
    let pgn = format!("1. e4 {{{long}}} e5 *\n\n[Event \"{long}\"]\n\n1. d4 *\n\n1. e4 ;{long}\ne5 *\n\n1. c4 *");
    let outcomes = check(pgn.as_bytes());
    assert_eq!(
        errors(&outcomes),
        [
            "line 1: comment or tag longer than 16 MiB",
            "line 3: comment or tag longer than 16 MiB",
            "line 7: comment or tag longer than 16 MiB",
        ]
    );
    assert_eq!(plies(&outcomes), [0, 0, 0, 1]);
    // Unclosed and too long: it still ends at the next game.
    let pgn = format!("1. e4 {{{long}\n\n[Event \"b\"]\n1. d4 *");
    assert_eq!(plies(&check(pgn.as_bytes())), [0, 1]);
}

#[test]
fn an_oversized_game_is_reported_at_its_first_line() {
    let moves = "1. Nf3 Nf6 2. Ng1 Ng8 ".repeat((MAX_GAME_BYTES as usize) / 22 + 10);
    let pgn = format!("1. e4 *\n\n[Event \"huge\"]\n\n{moves} 3. Kf7 *\n\n1. d4 *");
    let outcomes = check(pgn.as_bytes());
    assert_eq!(errors(&outcomes), ["line 3: game longer than 32 MiB"]);
    assert_eq!(plies(&outcomes), [1, 0, 1]);
}

/// Counts the bytes its reader hands out.
struct Counted<R> {
    inner: R,
    read: std::rc::Rc<std::cell::Cell<u64>>,
}

impl<R: Read> Read for Counted<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.read.set(self.read.get() + n as u64);
        Ok(n)
    }
}

#[test]
fn a_reader_told_to_stop_reports_an_endless_game_once_it_passes_the_limit() {
    // A game, then zero bytes (`/dev/zero`), far more than the limit.
    let total = 8 * MAX_GAME_BYTES;
    let read = std::rc::Rc::default();
    let input = Counted {
        inner: (&b"1. e4 *\n\n"[..]).chain(std::io::repeat(0).take(total)),
        read: std::rc::Rc::clone(&read),
    };
    let mut reader = PgnReader::new(input);
    reader.stop_at_too_long_game(true);
    let mut bytes = Vec::new();
    let first = reader.read_raw_game(&mut bytes).unwrap().unwrap();
    assert_eq!(
        (first.first_line, first.too_long, &bytes[..]),
        (1, false, &b"1. e4 *"[..])
    );
    bytes.clear();
    let error = reader.read_raw_game(&mut bytes).unwrap_err();
    assert_eq!(InputError::of(&error), Some(&InputError::GameTooLong { first_line: 3 }));
    assert_eq!(error.to_string(), "line 3: game longer than 32 MiB");
    // Reported at the limit (plus at most a buffer), with nothing of the game kept.
    assert!(
        read.get() > MAX_GAME_BYTES && read.get() < MAX_GAME_BYTES + (1 << 20),
        "{}",
        read.get()
    );
    assert!(bytes.is_empty() && bytes.capacity() <= 1 << 20, "{}", bytes.capacity());
    assert!(reader.read_raw_game(&mut bytes).unwrap().is_none());
}

#[test]
fn a_reader_not_told_to_stop_skips_a_long_game_to_its_end() {
    let long = std::io::repeat(0).take(MAX_GAME_BYTES + (1 << 20));
    let input = long.chain(&b" *\n\n1. d4 *"[..]);
    let mut reader = PgnReader::new(input);
    let mut bytes = Vec::new();
    let raw = reader.read_raw_game(&mut bytes).unwrap().unwrap();
    assert!(raw.too_long && bytes.is_empty());
    reader.read_raw_game(&mut bytes).unwrap().unwrap();
    assert_eq!(bytes, b"1. d4 *");
}

/// Cutting into games agrees with the stream on inputs built from traps: every piece of
/// syntax the boundaries depend on, mixed at random.
#[test]
fn cut_games_read_like_the_stream() {
    let pieces: [&[u8]; 26] = [
        b"[Event \"a\"]",
        b"[Site \"b\"] ",
        b"\n",
        b"\r\n",
        b"\r",
        b"\n\n",
        b" ",
        b"1. e4 ",
        b"e5 ",
        b"Nf3 ",
        b"{",
        b"}",
        b"(",
        b")",
        b"[%clk 0:01] ",
        b"*",
        b"1-0",
        b";c",
        b"%esc",
        b"$3 ",
        b"!? ",
        b"[",
        b"]",
        b"\"",
        b"\xef\xbb\xbf",
        b"1/2-1/2 ",
    ];
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    for _ in 0..3_000 {
        let mut pgn = Vec::new();
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        for _ in 0..(seed % 60) {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            pgn.extend_from_slice(pieces[(seed % pieces.len() as u64) as usize]);
        }
        check(&pgn);
    }
}

/// Reads `bytes`, then fails.
struct FailsAfter<'a>(&'a [u8]);

impl Read for FailsAfter<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if self.0.is_empty() {
            return Err(std::io::Error::other("damaged"));
        }
        let n = buf.len().min(self.0.len()).min(1000);
        buf[..n].copy_from_slice(&self.0[..n]);
        self.0 = &self.0[n..];
        Ok(n)
    }
}

/// A read error in the middle of a file: every whole game before it is read, the game it cuts
/// is not, and the error comes next, in one stream and cut into games alike.
#[test]
fn a_read_error_keeps_the_whole_games_before_it() {
    let pgn = GAME.repeat(50);
    let whole = GAME.len() * 37;
    // The last cut leaves the 38th game without the 0 of its result: cut off too.
    for cut in [whole, whole + 1, whole + 60, whole + GAME.len() - 4] {
        let mut reader = PgnReader::new(FailsAfter(&pgn.as_bytes()[..cut]));
        let mut validator = Validator::new();
        let mut games = 0;
        let error = loop {
            match reader.read_game(&mut validator) {
                Ok(Some(outcome)) => {
                    assert!(outcome.is_ok(), "cut at {cut}");
                    games += 1;
                }
                Ok(None) => panic!("the error must be reported"),
                Err(error) => break error,
            }
        };
        assert_eq!((games, error.to_string().as_str()), (37, "damaged"), "cut at {cut}");
        let mut reader = PgnReader::new(FailsAfter(&pgn.as_bytes()[..cut]));
        let mut bytes = Vec::new();
        let mut raw_games = 0;
        while let Ok(Some(_)) = reader.read_raw_game(&mut bytes) {
            raw_games += 1;
        }
        assert_eq!(raw_games, 37, "cut at {cut}");
    }
}
