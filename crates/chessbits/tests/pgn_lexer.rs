//! The PGN lexer and reader on hand-made edge cases, and the writer's formatting.

use crate::common;

use common::Trickle;
use std::io::Read;

use chessbits::pgn::{
    GameErrorKind, GameResult, GameTree, MoveNotation, Nag, PgnReader, RawComment, RawTag, SanToken, Skip, SyntaxError,
    Visitor, WriteOptions,
};

fn games(pgn: &[u8]) -> Vec<Result<GameTree, chessbits::pgn::GameError>> {
    PgnReader::new(pgn)
        .into_games()
        .map(|g| match g {
            Ok(game) => Ok(game),
            Err(chessbits::pgn::PgnError::Game(e)) => Err(e),
            Err(e) => panic!("{e}"),
        })
        .collect()
}

fn game(pgn: &[u8]) -> GameTree {
    let mut all = games(pgn);
    assert_eq!(all.len(), 1, "{}", String::from_utf8_lossy(pgn));
    all.remove(0).unwrap_or_else(|e| panic!("{e}"))
}

fn sans(line: &chessbits::pgn::Line) -> Vec<String> {
    line.nodes.iter().map(|n| n.san.to_string()).collect()
}

/// Records every event as text with its line.
#[derive(Default)]
struct Recorder {
    events: Vec<String>,
    skip_variations: bool,
}

impl Visitor for Recorder {
    type Output = Vec<String>;
    fn begin_game(&mut self) {
        self.events.push("begin".into());
    }
    fn tag(&mut self, name: &[u8], value: RawTag<'_>, line: u32) {
        self.events.push(format!(
            "{line} tag {}={}",
            String::from_utf8_lossy(name),
            value.decode()
        ));
    }
    fn end_tags(&mut self) -> Skip {
        self.events.push("end_tags".into());
        Skip(false)
    }
    fn san(&mut self, token: SanToken<'_>) {
        let text = String::from_utf8_lossy(token.text);
        match token.san {
            Ok(san) => self.events.push(format!("{} san {san}", token.line)),
            Err(e) => self.events.push(format!("{} bad {text} ({e})", token.line)),
        }
    }
    fn nag(&mut self, nag: Nag, line: u32) {
        self.events.push(format!("{line} nag {nag}"));
    }
    fn comment(&mut self, comment: RawComment<'_>, line: u32) {
        self.events.push(format!("{line} comment {:?}", comment.decode()));
    }
    fn begin_variation(&mut self, line: u32) -> Skip {
        self.events.push(format!("{line} ("));
        Skip(self.skip_variations)
    }
    fn end_variation(&mut self, line: u32) {
        self.events.push(format!("{line} )"));
    }
    fn result(&mut self, result: GameResult, line: u32) {
        self.events.push(format!("{line} result {result}"));
    }
    fn syntax_error(&mut self, error: SyntaxError, line: u32) {
        self.events.push(format!("{line} error {error}"));
    }
    fn end_game(&mut self) -> Vec<String> {
        std::mem::take(&mut self.events)
    }
}

fn record_with<R: Read>(reader: &mut PgnReader<R>, skip_variations: bool) -> Vec<Vec<String>> {
    let mut recorder = Recorder {
        skip_variations,
        ..Recorder::default()
    };
    let mut out = Vec::new();
    while let Some(events) = reader.read_game(&mut recorder).unwrap() {
        out.push(events);
    }
    out
}

fn record(pgn: &[u8]) -> Vec<Vec<String>> {
    record_with(&mut PgnReader::new(pgn), false)
}

#[test]
fn events_carry_their_line_numbers() {
    let pgn = b"[Event \"A\"] [Site \"B\"]\n\n1. e4 $1\n{two\nlines} e5 ; rest\n(1... c5) 2. Nf3 1-0\n";
    assert_eq!(
        record(pgn),
        [[
            "begin",
            "1 tag Event=A",
            "1 tag Site=B",
            "end_tags",
            "3 san e4",
            "3 nag $1",
            "4 comment \"two\\nlines\"",
            "5 san e5",
            "5 comment \" rest\"",
            "6 (",
            "6 san c5",
            "6 )",
            "6 san Nf3",
            "6 result 1-0",
        ]]
    );
}

#[test]
fn crlf_bom_and_escape_lines() {
    let pgn = b"\xef\xbb\xbf% a header escape\r\n[Event \"A\"]\r\n%escaped [Site \"no\"]\r\n\r\n1. e4\r\n% 2. d4\r\ne5 {a\r\nb} *\r\n";
    let events = record(pgn);
    assert_eq!(
        events[0],
        [
            "begin",
            "2 tag Event=A",
            "end_tags",
            "5 san e4",
            "7 san e5",
            "7 comment \"a\\r\\nb\"",
            "8 result *"
        ]
    );
    let game = game(pgn);
    assert_eq!(
        game.moves.nodes[1].comments_after,
        ["a\r\nb"],
        "a comment keeps its line breaks"
    );
    // A % inside a line is no escape: it is a bad token.
    let error = games(b"1. e4 % e5 *").remove(0).unwrap_err();
    assert_eq!(error.to_string(), "line 1: malformed move '%'");
}

#[test]
fn latin1_and_utf8_text() {
    let pgn = b"[White \"M\xfcller, J\xf6rg\"]\n[Black \"Ma\xc3\xafa\"]\n\n1. e4 {tr\xe8s bien} *";
    let game = game(pgn);
    assert_eq!(game.tag("White").as_deref(), Some("Müller, Jörg"));
    assert_eq!(game.tag("Black").as_deref(), Some("Maïa"));
    assert_eq!(game.moves.nodes[0].comments_after[0].text(), "très bien");
    assert_eq!(game.moves.nodes[0].comments_after[0].as_bytes(), b"tr\xe8s bien");
    // Written back byte for byte (Latin-1 stays Latin-1), read back the same.
    assert!(game.to_pgn().starts_with(b"[White \"M\xfcller, J\xf6rg\"]\n"));
    let again = self::game(&game.to_pgn());
    assert_eq!(again, game);
}

#[test]
fn tags_escapes_and_malformed_tags() {
    let pgn = br#"[Event "The \"Immortal\" \\ Game"]
[Site "unterminated]
[Broken]
[Round "3"][White "w"] [Black ""Mr X""]
1. e4 *"#;
    let events = record(pgn);
    assert_eq!(
        events[0][..8],
        [
            "begin",
            "1 tag Event=The \"Immortal\" \\ Game",
            "2 error malformed tag pair",
            "3 error malformed tag pair",
            "4 tag Round=3",
            "4 tag White=w",
            "4 tag Black=\"Mr X\"",
            "end_tags"
        ]
    );
    // A malformed tag makes the game invalid (nothing of it is dropped silently).
    let error = games(pgn).remove(0).unwrap_err();
    assert_eq!(error.to_string(), "line 2: malformed tag pair");
    // Inner quotes are kept, and written back escaped.
    let game = game(br#"[Event "The \"Immortal\" \\ Game"] [Black ""Mr X""] 1. e4 *"#);
    let text = pgn_of(&game);
    assert!(
        text.starts_with("[Event \"The \\\"Immortal\\\" \\\\ Game\"]\n"),
        "{text}"
    );
    assert!(text.contains("[Black \"\"Mr X\"\"]\n"), "{text}");
    assert_eq!(self::game(text.as_bytes()), game);
}

#[test]
fn move_numbers_annotations_null_moves_and_castling_spellings() {
    let game =
        game(b"1.e4 e5 2.Nf3 Nc6 3.Bc4 Bc5 4.0-0 Nf6!? 5.d3?! d6!! 6.Bg5?? h6 ? 7.Bh4 $14 g5 +- 8.-- Z0 9.Bg3 *");
    assert_eq!(
        sans(&game.moves),
        [
            "e4", "e5", "Nf3", "Nc6", "Bc4", "Bc5", "O-O", "Nf6", "d3", "d6", "Bg5", "h6", "Bh4", "g5", "--", "--",
            "Bg3"
        ]
    );
    let nags: Vec<Vec<u8>> = game
        .moves
        .nodes
        .iter()
        .map(|n| n.nags.iter().map(|g| g.0).collect())
        .collect();
    assert_eq!(nags[7], [5]);
    assert_eq!(nags[8], [6]);
    assert_eq!(nags[9], [3]);
    assert_eq!(nags[10], [4]);
    assert_eq!(nags[11], [2]);
    assert_eq!(nags[12], [14]);
    assert_eq!(nags[13], [18], "the +- glyph");
    let game = self::game(b"12. e4 12... e5 13 Nf3 13 ... Nc6 *");
    assert_eq!(sans(&game.moves)[..4], ["e4", "e5", "Nf3", "Nc6"]);
}

#[test]
fn en_passant_written_apart() {
    let game = game(b"1. e4 Nf6 2. e5 d5 3. exd6 e.p. exd6 4. Nf3 *");
    assert_eq!(sans(&game.moves), ["e4", "Nf6", "e5", "d5", "exd6", "exd6", "Nf3"]);
    assert!(game.moves.nodes[4].mv.is_en_passant());
}

#[test]
fn nested_variations_with_comments() {
    let pgn = b"1. e4 (1. d4 {a (not a variation) b} d5 (1... Nf6 {inner} 2. c4 (2. Nf3)) 2. c4) {after} 1... e5 *";
    let game = game(pgn);
    assert_eq!(sans(&game.moves), ["e4", "e5"]);
    let d4 = &game.moves.nodes[0].variations[0];
    assert_eq!(sans(d4), ["d4", "d5", "c4"]);
    assert_eq!(d4.nodes[0].comments_after, ["a (not a variation) b"]);
    let nf6 = &d4.nodes[1].variations[0];
    assert_eq!(sans(nf6), ["Nf6", "c4"]);
    assert_eq!(nf6.nodes[0].comments_after, ["inner"]);
    assert_eq!(sans(&nf6.nodes[1].variations[0]), ["Nf3"]);
    assert_eq!(game.moves.nodes[1].comments_before, ["after"]);
    assert_eq!(
        pgn_of(&game),
        "1. e4 (1. d4 {a (not a variation) b} 1... d5 (1... Nf6 {inner} 2. c4 (2. Nf3))\n2. c4) {after} 1... e5 *\n\n"
    );
    // The visitor may skip variations, nested ones included.
    let events = record_with(&mut PgnReader::new(&pgn[..]), true);
    let moves: Vec<&String> = events[0].iter().filter(|e| e.contains("san")).collect();
    assert_eq!(moves, ["1 san e4", "1 san e5"]);
}

#[test]
fn semicolon_comments_run_to_the_end_of_the_line() {
    let game = game(b"1. e4 ; a {brace} ( paren\ne5 *");
    assert_eq!(game.moves.nodes[0].comments_after, [" a {brace} ( paren"]);
    assert_eq!(sans(&game.moves), ["e4", "e5"]);
    // A comment holding a } is written back as a ; comment.
    let text = pgn_of(&game);
    assert!(text.contains("1. e4 ; a {brace} ( paren\n1... e5 *"), "{text}");
    assert_eq!(self::game(text.as_bytes()), game);
}

#[test]
fn results_and_game_boundaries() {
    let pgn = b"1. e4 1-0 1. d4 0-1\n1. c4 1/2-1/2 1. Nf3 * 1. g3 (1. b3 1-0) g6\n[Event \"next\"]\n1. f4";
    let all = games(pgn);
    let results: Vec<GameResult> = all[..4].iter().map(|g| g.as_ref().unwrap().result).collect();
    use GameResult::*;
    assert_eq!(results, [WhiteWins, BlackWins, Draw, Unknown]);
    // A result inside a variation does not end the game; it is an error (a tree of moves has
    // no place to keep it), and the next game's tags end this one.
    assert_eq!(all.len(), 6);
    assert_eq!(
        all[4].as_ref().unwrap_err().to_string(),
        "line 2: result inside a variation"
    );
    assert_eq!(all[5].as_ref().unwrap().result, Unknown);
    assert_eq!(all[5].as_ref().unwrap().tag("Event").as_deref(), Some("next"));
    // A missing result token reads as `*` (and is written so: export format ends every game
    // with one); the declared result takes the Result tag's, the outcome is the rules'.
    let game = game(b"[Result \"0-1\"]\n1. f3 e5 2. g4 Qh4#");
    assert_eq!((game.result, game.declared_result()), (Unknown, BlackWins));
    assert_eq!(game.outcome().map(|o| o.result()), Some(BlackWins));
    assert!(pgn_of(&game).ends_with("2. g4 Qh4# *\n\n"), "{}", pgn_of(&game));
    assert_eq!(self::game(pgn_of(&game).as_bytes()), game);
}

#[test]
fn a_bad_game_does_not_stop_the_file() {
    let pgn = b"[Event \"bad\"]\n\n1. e4 e5\n2. Nf3 Nc6\n3. Bb5 Nf3\n4. O-O *\n\n[Event \"good\"]\n\n1. d4 d5 *\n\n\
                [Event \"also bad\"]\n\n1. e4 (1. Nf3 Nf6 2. Ng5 Ng4 3. Ng5) e5 *\n\n[Event \"ambiguous\"]\n[FEN \"4k3/8/8/8/8/8/4K3/R6R w - - 0 1\"]\n\n1. Rd1 *\n\
                [Event \"bad fen\"]\n[FEN \"8/8/8/8 w - - 0 1\"]\n\n1. e4 *\n[Event \"last\"]\n1. c4 *";
    let all = games(pgn);
    assert_eq!(all.len(), 6);
    assert_eq!(all[0].as_ref().unwrap_err().to_string(), "line 5: illegal move 'Nf3'");
    assert_eq!(all[1].as_ref().unwrap().tag("Event").as_deref(), Some("good"));
    assert_eq!(all[2].as_ref().unwrap_err().to_string(), "line 14: illegal move 'Ng5'");
    assert_eq!(
        all[3].as_ref().unwrap_err().to_string(),
        "line 19: ambiguous move 'Rd1'"
    );
    let fen_error = all[4].as_ref().unwrap_err();
    assert_eq!(fen_error.line, 21);
    assert!(matches!(fen_error.kind, GameErrorKind::Fen { .. }));
    assert_eq!(sans(&all[5].as_ref().unwrap().moves), ["c4"]);
}

#[test]
fn setup_from_fen_and_chess960_variants() {
    // Shredder-FEN (rook files) and X-FEN (KQkq) castling; Chess960 spelled in several ways.
    let spellings = [
        "Chess960",
        "chess 960",
        "Fischerandom",
        "fischerandom",
        "Fischer Random",
    ];
    for (variant, castling) in spellings.into_iter().zip(["GEge", "KQkq", "GEge", "KQkq", "GEge"]) {
        let pgn = format!(
            "[Variant \"{variant}\"]\n[SetUp \"1\"]\n\
             [FEN \"bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w {castling} - 0 1\"]\n\n\
             1. Ng3 Ng6 2. O-O O-O *"
        );
        let game = game(pgn.as_bytes());
        assert!(game.start.is_chess960(), "{variant}");
        assert_eq!(game.moves.nodes[2].mv.uci(true).to_string(), "f1g1");
        assert_eq!(game.moves.nodes[3].mv.uci(true).to_string(), "f8g8");
        assert_eq!(self::game(&game.to_pgn()), game);
        let mut uci = Vec::new();
        game.write_pgn(
            &mut uci,
            &WriteOptions {
                notation: MoveNotation::Uci,
                ..WriteOptions::default()
            },
        )
        .unwrap();
        let uci = String::from_utf8(uci).unwrap();
        assert!(uci.contains("2. f1g1 f8g8 *"), "{uci}");
    }
    // Black to move from a FEN: the first move is numbered with dots.
    let game = game(b"[FEN \"4k3/8/8/8/8/8/4P3/4K3 b - - 0 40\"]\n\n40... Kd7 41. e4 *");
    assert!(pgn_of(&game).ends_with("\n\n40... Kd7 41. e4 *\n\n"));
    assert!(matches!(
        games(b"[Variant \"Atomic\"]\n\n1. e4 *").remove(0).unwrap_err().kind,
        GameErrorKind::Variant(_)
    ));
}

#[test]
fn missing_pieces_of_syntax_are_reported_and_survived() {
    // Stray closing brackets, an unclosed variation (its `*` does not end the game, being
    // inside it: the next tags do), an unterminated comment at the end of the input.
    let pgn = b"1. e4 ) e5 } 2. Nf3 (2. Nc3 Nc6 *\n\n[Event \"2\"]\n1. d4 {never closed";
    let events = record(pgn);
    assert_eq!(events.len(), 2);
    assert!(
        events[0].contains(&"1 error unexpected ')' in movetext".to_string()),
        "{:?}",
        events[0]
    );
    assert!(
        events[0].contains(&"1 error unexpected '}' in movetext".to_string()),
        "{:?}",
        events[0]
    );
    assert_eq!(
        events[0].last().unwrap(),
        "1 error variation not closed before the next game or the end"
    );
    assert_eq!(
        events[1][events[1].len() - 2..],
        [
            "4 comment \"never closed\"",
            "4 error comment not closed before the next game or the end"
        ]
    );
    let all = games(pgn);
    assert_eq!(all.len(), 2);
    assert_eq!(
        all[0].as_ref().unwrap_err().to_string(),
        "line 1: unexpected ')' in movetext"
    );
    assert_eq!(
        all[1].as_ref().unwrap_err().to_string(),
        "line 4: comment not closed before the next game or the end"
    );
    // Only whitespace, only a comment, nothing at all.
    assert_eq!(games(b" \n\r\n\t").len(), 0);
    assert_eq!(games(b"").len(), 0);
    let comment_only = game(b"{just a comment}");
    assert_eq!(comment_only.moves.comments, ["just a comment"]);
    assert_eq!(self::game(&comment_only.to_pgn()), comment_only);
}

#[test]
fn byte_by_byte_reading_sees_the_same_events() {
    let pgn = b"\xef\xbb\xbf[Event \"A \\\"q\\\"\"]\r\n%x\r\n\r\n1. e4 {c\r\nd} (1. d4 ; x\r\n) e5 $12 1/2-1/2\r\n\r\n1.d4 Nf6 *";
    let whole = record(pgn);
    let trickled = record_with(&mut PgnReader::new(Trickle(pgn)), false);
    assert_eq!(whole, trickled);
    assert_eq!(whole.len(), 2);
}

#[test]
fn comments_longer_than_the_buffer_stay_whole() {
    let long: String = (0..40_000).map(|i| format!("w{i} ")).collect();
    let pgn = format!("1. e4 {{{long}}} e5 *\n\n1. d4 *");
    let all = games(pgn.as_bytes());
    assert_eq!(all.len(), 2);
    assert_eq!(all[0].as_ref().unwrap().moves.nodes[0].comments_after[0], long.as_str());
    let events = record_with(&mut PgnReader::new(Trickle(pgn.as_bytes())), false);
    assert_eq!(events[0].len(), 6);
}

#[test]
fn writer_export_format() {
    let pgn = b"[Black \"B\"]\n[ECO \"C20\"]\n[White \"W\"]\n[Annotator \"me\"]\n\n\
                {Start} 1. e4 e5 {Open} 2. Nf3 $1 (2. f4 exf4) 2... Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 6. Re1 b5 \
                7. Bb3 d6 8. c3 O-O 9. h3 Nb8 10. d4 Nbd7 11. c4 c6 12. cxb5 axb5 13. Nc3 Bb7 1-0";
    let game = game(pgn);
    let mut text = Vec::new();
    let export = WriteOptions {
        seven_tag_roster: true,
        ..WriteOptions::default()
    };
    game.write_pgn(&mut text, &export).unwrap();
    let expected = "[Event \"?\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n[White \"W\"]\n[Black \"B\"]\n\
                    [Result \"1-0\"]\n[ECO \"C20\"]\n[Annotator \"me\"]\n\n\
                    {Start} 1. e4 e5 {Open} 2. Nf3 $1 (2. f4 exf4) 2... Nc6 3. Bb5 a6 4. Ba4 Nf6\n\
                    5. O-O Be7 6. Re1 b5 7. Bb3 d6 8. c3 O-O 9. h3 Nb8 10. d4 Nbd7 11. c4 c6\n\
                    12. cxb5 axb5 13. Nc3 Bb7 1-0\n\n";
    assert_eq!(String::from_utf8(text).unwrap(), expected);
    // By default the tags are written as the game holds them.
    assert!(pgn_of(&game).starts_with("[Black \"B\"]\n[ECO \"C20\"]\n[White \"W\"]\n[Annotator \"me\"]\n\n{Start}"));
    // Narrow lines, LAN, no comments or variations.
    let options = WriteOptions {
        notation: MoveNotation::Lan,
        comments: false,
        nags: false,
        variations: false,
        max_width: 30,
        seven_tag_roster: false,
    };
    let mut lan = Vec::new();
    game.write_pgn(&mut lan, &options).unwrap();
    let lan = String::from_utf8(lan).unwrap();
    let movetext = lan.split("\n\n").nth(1).unwrap();
    assert!(
        movetext.starts_with("1. e2-e4 e7-e5 2. Ng1-f3\nNb8-c6 3. Bf1-b5 a7-a6\n"),
        "{movetext}"
    );
    assert!(movetext.lines().all(|l| l.len() <= 30));
    // Both notations read back to the same moves.
    let from_lan = self::game(lan.as_bytes());
    assert_eq!(
        from_lan.mainline().collect::<Vec<_>>(),
        game.mainline().collect::<Vec<_>>()
    );
}

#[test]
fn nag_and_result_types() {
    assert_eq!(Nag::from_symbol(b"!"), Some(Nag::GOOD));
    assert_eq!(Nag::from_symbol(b"?!"), Some(Nag::DUBIOUS));
    assert_eq!(Nag::from_glyph("∞".as_bytes()), Some(Nag(13)));
    assert_eq!(Nag::from_glyph(b"xx"), None);
    for result in [
        GameResult::WhiteWins,
        GameResult::BlackWins,
        GameResult::Draw,
        GameResult::Unknown,
    ] {
        assert_eq!(GameResult::from_bytes(result.as_str().as_bytes()), Some(result));
    }
    assert_eq!(GameResult::from_bytes("½-½".as_bytes()), Some(GameResult::Draw));
}

mod fuzz {
    use super::*;
    use proptest::prelude::*;

    const GAME: &[u8] =
        b"[Event \"F\"]\n[FEN \"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1\"]\n\n1. O-O {c} (1. Kd2 $3 Kd7) 1... O-O-O \
                          2. Ra7 ; x\n2... Rd1+ 3. Rxd1 *\n";

    fn pgnish() -> impl Strategy<Value = Vec<u8>> {
        let alphabet: Vec<u8> = b" \n\r\t[]{}();$!?*\"\\%.-=+#/0123456789abcdefghxKQRBNOPZe\xef\xbb\xbf\xe9".to_vec();
        proptest::collection::vec(proptest::sample::select(alphabet), 0..300)
    }

    fn read_all(bytes: &[u8]) -> Vec<Result<GameTree, chessbits::pgn::GameError>> {
        let all = games(bytes);
        // Every game starts at a token: there are never more games than bytes.
        assert!(all.len() <= bytes.len());
        all
    }

    proptest! {
        #[test]
        fn any_bytes_read_without_panic(bytes in pgnish()) {
            for game in read_all(&bytes).into_iter().flatten() {
                prop_assert_eq!(self::game(&game.to_pgn()), game);
            }
        }

        #[test]
        fn mutated_games_read_without_panic(edits in proptest::collection::vec((0..GAME.len(), any::<u8>()), 1..6)) {
            let mut bytes = GAME.to_vec();
            for (at, byte) in edits {
                bytes[at] = byte;
            }
            for game in read_all(&bytes).into_iter().flatten() {
                prop_assert_eq!(self::game(&game.to_pgn()), game);
            }
        }
    }

    #[test]
    fn the_unmutated_game_is_valid() {
        let game = self::game(GAME);
        assert_eq!(
            sans(&game.moves),
            ["O-O", "O-O-O", "Ra7", "Rd1", "Rxd1"],
            "SAN as it should be: Rd1 is no check"
        );
    }
}

/// The game as PGN text (the games of these tests are UTF-8).
fn pgn_of(game: &GameTree) -> String {
    String::from_utf8(game.to_pgn()).unwrap()
}
