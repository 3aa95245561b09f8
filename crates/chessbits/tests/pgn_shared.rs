//! The PGN reader, replay and writer on real data: real games, python-chess test files,
//! pgn-extract and fuzzing edge cases, puzzles with `[FEN]`; from the bundled `testdata/`, and
//! from the full corpora of `../shared/data` in the ignored `shared_data_` tests.

use crate::common;

use std::path::Path;

use chessbits::pgn::{GameBuilder, GameError, GameErrorKind, GameResult, GameTree, PgnReader, Validator};
use common::{files_below as files, shared_path, testdata_path};

fn read(path: &Path) -> Vec<u8> {
    std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Every game of `bytes` through the validator: (plies or error) per game.
fn validate(bytes: &[u8]) -> Vec<Result<u32, GameError>> {
    let mut reader = PgnReader::new(bytes);
    let mut validator = Validator::new();
    let mut out = Vec::new();
    while let Some(result) = reader.read_game(&mut validator).unwrap() {
        out.push(result.map(|summary| summary.plies));
    }
    out
}

fn owned(bytes: &[u8]) -> Vec<Result<GameTree, GameError>> {
    let mut reader = PgnReader::new(bytes);
    let mut builder = GameBuilder::new();
    let mut out = Vec::new();
    while let Some(result) = reader.read_game(&mut builder).unwrap() {
        out.push(result);
    }
    out
}

/// `[Event ` tags at the start of a line: the manifest's way of counting games.
fn event_tags(bytes: &[u8]) -> usize {
    bytes
        .split(|&b| b == b'\n')
        .filter(|line| line.starts_with(b"[Event "))
        .count()
}

/// The main-line plies of the four bundled game files, counted with python-chess 1.11.2
/// (`len(list(game.mainline_moves()))` for each game of `chess.pgn.read_game`).
const BUNDLED_PLIES: u32 = 33_173;

/// Returns the plies of all games.
fn every_game_replays(root: &Path) -> u32 {
    let mut total_plies = 0;
    for path in files(root, "pgn")
        .into_iter()
        .filter(|p| p.extension().is_some_and(|e| e == "pgn"))
    {
        if path.components().any(|c| c.as_os_str() == "python-chess-tests") {
            continue;
        }
        let bytes = read(&path);
        let validated = validate(&bytes);
        let games = owned(&bytes);
        assert_eq!(validated.len(), event_tags(&bytes), "{}", path.display());
        assert_eq!(games.len(), validated.len());
        for (i, (plies, game)) in validated.iter().zip(&games).enumerate() {
            let plies = plies
                .as_ref()
                .unwrap_or_else(|e| panic!("{} game {i}: {e}", path.display()));
            let game = game
                .as_ref()
                .unwrap_or_else(|e| panic!("{} game {i}: {e}", path.display()));
            assert_eq!(*plies as usize, game.moves.nodes.len());
            // Where the file states a ply count, the main line has it.
            if let Some(count) = game.tag("PlyCount").and_then(|c| c.parse::<u32>().ok()) {
                assert_eq!(*plies, count, "{} game {i} PlyCount", path.display());
            }
            total_plies += plies;
        }
    }
    total_plies
}

#[test]
fn every_game_replays_without_error() {
    assert_eq!(every_game_replays(&testdata_path()), BUNDLED_PLIES);
}

#[test]
#[ignore = "needs ../shared/data (see testdata/README.md); run: cargo test --workspace -- --ignored shared_data_"]
fn shared_data_every_game_replays_without_error() {
    let total_plies = every_game_replays(&shared_path());
    assert!(total_plies > 400_000, "{total_plies}");
}

#[test]
fn python_chess_files_replay_except_variant_games() {
    // Antichess and Crazyhouse are other games (captures are compulsory, pieces are dropped):
    // their moves are not chess moves, so each of those games is rejected on its [Variant] tag.
    let expected_variant_errors = [
        ("antichess-programfox.pgn", vec![(1, "Antichess"), (5, "Antichess")]),
        ("knightvuillaume-jannlee-zh-lichess.pgn", vec![(10, "Crazyhouse")]),
        ("saturs-jannlee-zh-lichess.pgn", vec![(10, "Crazyhouse")]),
    ];
    // `testdata/` holds these files whole.
    for path in files(&testdata_path(), "pgn/python-chess-tests") {
        let name = path.file_name().unwrap().to_str().unwrap().to_string();
        let games = owned(&read(&path));
        assert!(!games.is_empty(), "{name}");
        let errors: Vec<(u32, String)> = games
            .iter()
            .filter_map(|g| g.as_ref().err())
            .map(|e| match &e.kind {
                GameErrorKind::Variant(v) => (e.line, v.clone()),
                other => panic!("{name}: unexpected {other} at line {}", e.line),
            })
            .collect();
        let expected: Vec<(u32, String)> = expected_variant_errors
            .iter()
            .find(|(file, _)| *file == name)
            .map(|(_, errors)| errors.iter().map(|(l, v)| (*l, v.to_string())).collect())
            .unwrap_or_default();
        assert_eq!(errors, expected, "{name}");
    }
}

#[test]
fn python_chess_quirks() {
    let games = |name: &str| -> Vec<GameTree> {
        owned(&read(&testdata_path().join("pgn/python-chess-tests").join(name)))
            .into_iter()
            .map(|g| g.unwrap_or_else(|e| panic!("{name}: {e}")))
            .collect()
    };
    // UCI-style movetext, castling as e1c1 and e8g8.
    let uci = &games("uci-moves.pgn")[0];
    assert_eq!(uci.moves.nodes.len(), 113);
    assert_eq!(uci.moves.nodes[28].san.to_string(), "O-O-O");
    assert_eq!(uci.moves.nodes[35].san.to_string(), "O-O");
    assert_eq!(uci.result, GameResult::Draw);
    // A byte-order mark before the first tag; games with no moves.
    let bom = games("utf8-bom.pgn");
    assert_eq!(
        bom.iter().map(|g| g.tag("Event").unwrap()).collect::<Vec<_>>(),
        ["A", "B"]
    );
    assert!(bom.iter().all(|g| g.moves.nodes.is_empty()));
    // Chess960 from [FEN] with [Variant "fischerandom"]: castles are O-O with the king's rook.
    let chess960 = games("cutechess-fischerrandom.pgn");
    assert_eq!(chess960.len(), 4);
    assert!(chess960.iter().all(|g| g.start.is_chess960()));
    let castle = chess960[0]
        .moves
        .nodes
        .iter()
        .find(|n| n.san.to_string() == "O-O")
        .unwrap();
    assert_eq!(castle.mv.uci(true).to_string(), "e8g8"); // the king takes its g-file rook
                                                         // The null move Z0, and a mate written with #.
    let lewis = &games("anastasian-lewis.pgn")[0];
    assert_eq!(lewis.moves.nodes.iter().filter(|n| n.mv.is_null()).count(), 1);
    assert!(games("molinari-bordais-1979.pgn")[0].final_position().is_checkmate());
}

/// The errors each edge-case file deserves: (line, message) for each rejected game.
fn expected_edge_errors(name: &str) -> Vec<(u32, &'static str)> {
    match name {
        // pgn-extract's argument and tag-list files are not PGN: their words are no moves.
        "argslist.txt" => vec![(2, "malformed move ':--novars'")],
        "clist.txt" => vec![(1, "malformed move 'infiles/petrosian.pgn'")],
        "files.txt" => vec![(1, "malformed move 'infiles/test-f1.pgn'")],
        "roster.txt" => vec![(2, "malformed move 'Black'")],
        "taglist.txt" => vec![(1, "malformed move 'White'")],
        "test-FENPattern.txt" => vec![(1, "malformed move ':-t'")],
        "test-tFEN.txt" => vec![(1, "malformed move 'FEN'")],
        "ymatch.txt" | "zmatch.txt" => vec![(1, "malformed move 'q*r*p*b2n2<'")],
        // Braces do not nest in PGN: the comment ends at the first `}`.
        "nested-comment.pgn" => vec![(1, "malformed move 'which'")],
        // Move lists: after 4. Qh4# there is no 5. Kf2; `*` ends a game, so 3 games, the last
        // starting with Be3 from the initial position.
        "test-r.txt" => vec![(1, "illegal move 'Kf2'")],
        "vvars.txt" => vec![(1, "illegal move 'Be3'")],
        "antichess-programfox.pgn" => vec![
            (1, "unsupported variant 'Antichess'"),
            (5, "unsupported variant 'Antichess'"),
        ],
        "knightvuillaume-jannlee-zh-lichess.pgn" | "saturs-jannlee-zh-lichess.pgn" => {
            vec![(10, "unsupported variant 'Crazyhouse'")]
        }
        _ => vec![],
    }
}

fn edge_cases_get_their_errors(root: &Path) {
    let all = files(root, "pgn-edgecases");
    assert!(all.len() > 60);
    for path in all {
        let name = path.file_name().unwrap().to_str().unwrap();
        let bytes = read(&path);
        let validated = validate(&bytes);
        let games = owned(&bytes);
        assert_eq!(validated.len(), games.len(), "{name}");
        let errors: Vec<(u32, String)> = games
            .iter()
            .filter_map(|g| g.as_ref().err())
            .map(|e| (e.line, e.kind.to_string()))
            .collect();
        let expected: Vec<(u32, String)> = expected_edge_errors(name)
            .into_iter()
            .map(|(l, m)| (l, m.to_string()))
            .collect();
        assert_eq!(errors, expected, "{name}");
        // Both visitors agree game by game.
        for (v, g) in validated.iter().zip(&games) {
            match (v, g) {
                (Ok(plies), Ok(game)) => assert_eq!(*plies as usize, game.moves.nodes.len(), "{name}"),
                (Err(a), Err(b)) => assert_eq!(a, b, "{name}"),
                _ => panic!("{name}: validator and builder disagree"),
            }
        }
    }
}

#[test]
fn edge_cases_get_the_errors_they_deserve() {
    edge_cases_get_their_errors(&testdata_path());
}

#[test]
#[ignore = "needs ../shared/data (see testdata/README.md); run: cargo test --workspace -- --ignored shared_data_"]
fn shared_data_edge_cases_get_the_errors_they_deserve() {
    edge_cases_get_their_errors(&shared_path());
}

#[test]
fn pgn_extract_cases() {
    // `testdata/` holds these files whole.
    let dir = testdata_path().join("pgn-edgecases/pgn-extract-test-infield");
    let games = |name: &str| owned(&read(&dir.join(name)));
    // Null moves `--`, in the main line and in variations.
    let nulls = games("test-allownullmoves.pgn");
    assert_eq!(nulls.len(), 2);
    let second = nulls[1].as_ref().unwrap();
    assert!(second.moves.nodes[1].mv.is_null());
    assert_eq!(second.moves.nodes[1].variations.len(), 2);
    // Promotions written the UCI way, lower and upper case.
    let promotions: Vec<String> = games("test-promotion-in.pgn")
        .iter()
        .map(|g| g.as_ref().unwrap().moves.nodes[0].san.to_string())
        .collect();
    assert_eq!(
        promotions,
        ["d8=R#", "d8=N", "d8=B", "d8=Q#", "d8=R#", "d8=N", "d8=B", "d8=Q#"]
    );
    // A comment before the first move, a comment broken over lines (kept as it is), a variation.
    let barnes = games("test-notags.pgn").remove(0).unwrap();
    assert_eq!(
        barnes.moves.nodes[0].comments_before,
        [" Game played inaccurately by White under extreme time pressure. "]
    );
    assert_eq!(
        barnes.moves.nodes[42].comments_after,
        [" 2 minutes to time-control at move 36.\n"]
    );
    assert_eq!(barnes.moves.nodes[54].variations[0].nodes[0].san.to_string(), "Bd6+");
    // The inputs of pgn-extract's checkmate and stalemate filters: which games end so.
    let mates: Vec<bool> = games("test-checkmate.pgn")
        .into_iter()
        .map(|g| g.unwrap().final_position().is_checkmate())
        .collect();
    assert_eq!(mates, [true, false]);
    let stalemates: Vec<bool> = games("test-stalemate.pgn")
        .into_iter()
        .map(|g| g.unwrap().final_position().is_stalemate())
        .collect();
    assert_eq!(stalemates, [false, false, true]);
}

fn puzzles_replay_to_mate(root: &Path) {
    for n in 2..=4 {
        let path = root.join(format!("pgn-edgecases/pychess-puzzles/mate_in_{n}.pgn"));
        let bytes = read(&path);
        let games = owned(&bytes);
        assert_eq!(games.len(), event_tags(&bytes));
        for (i, game) in games.into_iter().enumerate() {
            let game = game.unwrap_or_else(|e| panic!("mate in {n}, puzzle {i}: {e}"));
            assert!(game.tag("FEN").is_some());
            assert_eq!(
                game.tag("Termination").as_deref(),
                Some(format!("mate in {n}").as_str())
            );
            let last = game.moves.nodes.last().unwrap();
            assert_eq!(
                last.san.suffix,
                Some(chessbits::notation::san::Suffix::Checkmate),
                "puzzle {i}"
            );
            assert!(game.final_position().is_checkmate(), "mate in {n}, puzzle {i}");
        }
    }
}

#[test]
fn puzzles_with_fen_replay_to_mate() {
    puzzles_replay_to_mate(&testdata_path());
}

#[test]
#[ignore = "needs ../shared/data (see testdata/README.md); run: cargo test --workspace -- --ignored shared_data_"]
fn shared_data_puzzles_with_fen_replay_to_mate() {
    puzzles_replay_to_mate(&shared_path());
}

/// Reads the first game of `text`, which must be valid.
fn reread(text: &[u8]) -> GameTree {
    PgnReader::new(text).into_games().next().unwrap().unwrap()
}

/// Every comment of a line and its variations.
fn comments(line: &chessbits::pgn::Line, out: &mut Vec<chessbits::pgn::Comment>) {
    out.extend(line.comments.iter().cloned());
    for node in &line.nodes {
        out.extend(node.comments_before.iter().chain(&node.comments_after).cloned());
        for variation in &node.variations {
            comments(variation, out);
        }
    }
}

/// Returns the number of games checked.
fn every_game_written_and_read(root: &Path) -> usize {
    let mut checked = 0;
    for path in files(root, "pgn").into_iter().chain(files(root, "pgn-edgecases")) {
        for game in owned(&read(&path)).into_iter().flatten() {
            let text = game.to_pgn();
            let again = reread(&text);
            assert_eq!(again, game, "{}\n{}", path.display(), String::from_utf8_lossy(&text));
            assert_eq!(again.to_pgn(), text);
            // Every comment is written whole, exactly: the writer breaks lines between tokens.
            let mut all = Vec::new();
            comments(&game.moves, &mut all);
            for comment in all.iter().filter(|c| !c.as_bytes().contains(&b'}')) {
                let token = [&b"{"[..], comment.as_bytes(), b"}"].concat();
                assert!(text.windows(token.len()).any(|w| w == token), "{comment:?}");
            }
            let text = String::from_utf8_lossy(&text);
            for line in text.lines().filter(|l| !l.starts_with('[')) {
                // Only a token too long for any line may stick out: a word or a comment.
                assert!(
                    line.chars().count() <= 80 || !line.contains(' ') || line.contains('{') || line.contains('}'),
                    "{}: {line}",
                    path.display()
                );
            }
            checked += 1;
        }
    }
    checked
}

#[test]
fn every_game_survives_write_and_read() {
    let checked = every_game_written_and_read(&testdata_path());
    // The four bundled game files alone hold 420 games (`grep -c '^\[Event '`), all valid.
    assert!(checked > 420, "{checked}");
}

#[test]
#[ignore = "needs ../shared/data (see testdata/README.md); run: cargo test --workspace -- --ignored shared_data_"]
fn shared_data_every_game_survives_write_and_read() {
    let checked = every_game_written_and_read(&shared_path());
    assert!(checked > 6000, "{checked}");
}
