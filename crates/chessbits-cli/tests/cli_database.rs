//! The CLI as a database tool, on inputs built here: `pgn filter`'s one-player rating, speed and
//! date filters, duplicates (`pgn dedup`, `pgn filter --dedup`, `pack --dedup`), the player
//! report of `pgn stats --player`, and what `pack` + `unpack` give back.

use crate::common;

use std::path::Path;

use chessbits::pgn::{GameTree, PgnReader};
use common::chessbits;
use serde_json::Value;

fn json(text: &str) -> Value {
    serde_json::from_str(text.trim()).unwrap_or_else(|e| panic!("{e}: {text:?}"))
}

fn s(path: &Path) -> &str {
    path.to_str().unwrap()
}

/// A game with these tags (`(name, value)`) and movetext.
fn game(tags: &[(&str, &str)], movetext: &str) -> String {
    let tags: String = tags.iter().map(|(n, v)| format!("[{n} \"{v}\"]\n")).collect();
    format!("{tags}\n{movetext}\n")
}

/// The `Event` tags of the games of a PGN text, in order.
fn events(pgn: &str) -> Vec<String> {
    PgnReader::new(pgn.as_bytes())
        .into_games()
        .map(|g| g.unwrap().tag("Event").unwrap().into_owned())
        .collect()
}

/// Writes `games` (blank lines between) to `dir/name`.
fn write(dir: &Path, name: &str, games: &[String]) -> String {
    let path = dir.join(name);
    std::fs::write(&path, games.join("\n")).unwrap();
    path.to_str().unwrap().to_string()
}

/// `pgn filter FILE ARGS...`: exit code, the events written, stderr.
fn filter(file: &str, args: &[&str]) -> (i32, Vec<String>, String) {
    let mut all = vec!["pgn", "filter", file];
    all.extend_from_slice(args);
    let (code, out, err) = chessbits(&all);
    (code, events(&out), err)
}

#[test]
fn player_elo_bounds_the_named_players_own_rating() {
    let dir = tempfile::tempdir().unwrap();
    let games = [
        // Carlsen 2850 against 2700: his own rating is over 2800, not both.
        game(
            &[
                ("Event", "w2850"),
                ("White", "Carlsen, Magnus"),
                ("Black", "X"),
                ("WhiteElo", "2850"),
                ("BlackElo", "2700"),
            ],
            "1. e4 *",
        ),
        // Carlsen 2790 against 2900: the opponent is over 2800, he is not.
        game(
            &[
                ("Event", "b2790"),
                ("White", "Y"),
                ("Black", "Magnus Carlsen"),
                ("WhiteElo", "2900"),
                ("BlackElo", "2790"),
            ],
            "1. d4 *",
        ),
        // Carlsen unrated.
        game(
            &[
                ("Event", "unrated"),
                ("White", "Carlsen"),
                ("Black", "Z"),
                ("WhiteElo", "?"),
                ("BlackElo", "2900"),
            ],
            "1. c4 *",
        ),
        // Not Carlsen's: both over 2800.
        game(
            &[
                ("Event", "other"),
                ("White", "P"),
                ("Black", "Q"),
                ("WhiteElo", "2810"),
                ("BlackElo", "2820"),
            ],
            "1. Nf3 *",
        ),
    ];
    let file = write(dir.path(), "g.pgn", &games);
    let run = |args: &[&str]| {
        let (code, events, err) = filter(&file, args);
        assert_eq!(code, 0, "{err}");
        events
    };
    assert_eq!(run(&["--player", "carlsen", "--player-elo-min", "2800"]), ["w2850"]);
    assert_eq!(run(&["--player", "CARLSEN", "--player-elo-max", "2800"]), ["b2790"]);
    assert_eq!(
        run(&[
            "--player",
            "carlsen",
            "--player-elo-min",
            "2790",
            "--player-elo-max",
            "2790"
        ]),
        ["b2790"]
    );
    // --elo-min stays as it was: both ratings.
    assert_eq!(run(&["--elo-min", "2800"]), ["other"]);
    assert_eq!(run(&["--player", "carlsen", "--elo-min", "2700"]), ["w2850", "b2790"]);
    // Without --player the flag means nothing: refused.
    let (code, _, err) = chessbits(&["pgn", "filter", &file, "--player-elo-min", "2800"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--player"), "{err}");
}

#[test]
fn speed_is_lichess_category_of_the_time_control() {
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        ("29+0", "ultraBullet"),
        ("30+0", "bullet"),
        ("120+1", "bullet"),
        ("120+2", "blitz"),
        ("479+0", "blitz"),
        ("480+0", "rapid"),
        ("1499", "rapid"),
        ("1500+0", "classical"),
        ("-", "correspondence"),
        ("1/259200", "correspondence"),
        ("?", "none"),
        ("abc+def", "none"),
    ];
    let mut games: Vec<String> = cases
        .iter()
        .enumerate()
        .map(|(i, (tc, speed))| game(&[("Event", &format!("{i} {speed}")), ("TimeControl", tc)], "1. e4 *"))
        .collect();
    games.push(game(&[("Event", "no tag")], "1. e4 *"));
    let file = write(dir.path(), "g.pgn", &games);
    let expect = |speeds: &[&str]| -> Vec<String> {
        cases
            .iter()
            .enumerate()
            .filter(|(_, (_, speed))| speeds.contains(speed))
            .map(|(i, (_, speed))| format!("{i} {speed}"))
            .collect()
    };
    for speeds in [
        vec!["bullet", "blitz"],
        vec!["ultraBullet"],
        vec!["rapid", "classical"],
        vec!["correspondence"],
    ] {
        let (code, events, err) = filter(&file, &["--speed", &speeds.join(",")]);
        assert_eq!(code, 0, "{err}");
        assert_eq!(events, expect(&speeds), "{speeds:?}");
    }
    // Names as lichess writes them, any case; an unknown one is a usage error naming the others.
    let (_, events, _) = filter(&file, &["--speed", "ULTRABULLET"]);
    assert_eq!(events, expect(&["ultraBullet"]));
    let (code, _, err) = filter(&file, &["--speed", "bullet,hyperbullet"]);
    assert_eq!(code, 2);
    assert!(err.contains("hyperbullet") && err.contains("correspondence"), "{err}");
}

#[test]
fn date_range_uses_utcdate_else_date_and_partial_dates_by_their_known_part() {
    let dir = tempfile::tempdir().unwrap();
    let games = [
        // UTCDate decides over Date.
        game(
            &[
                ("Event", "utc 2023.03.15"),
                ("UTCDate", "2023.03.15"),
                ("Date", "2022.12.31"),
            ],
            "1. e4 *",
        ),
        game(&[("Event", "2023.??.??"), ("Date", "2023.??.??")], "1. e4 *"),
        game(&[("Event", "2023.12.??"), ("Date", "2023.12.??")], "1. e4 *"),
        game(&[("Event", "2022.??.??"), ("Date", "2022.??.??")], "1. e4 *"),
        game(&[("Event", "2024.01.01"), ("Date", "2024.01.01")], "1. e4 *"),
        game(&[("Event", "unknown"), ("Date", "????.??.??")], "1. e4 *"),
        game(&[("Event", "no date")], "1. e4 *"),
        game(&[("Event", "bad month 2023.13.01"), ("Date", "2023.13.01")], "1. e4 *"),
    ];
    let file = write(dir.path(), "g.pgn", &games);
    let run = |args: &[&str]| {
        let (code, events, err) = filter(&file, args);
        assert_eq!(code, 0, "{err}");
        events
    };
    assert_eq!(
        run(&["--since", "2023.01.01", "--until", "2023.12.31"]),
        ["utc 2023.03.15", "2023.??.??", "2023.12.??", "bad month 2023.13.01"]
    );
    assert_eq!(
        run(&["--since", "2023.06.01"]),
        ["2023.??.??", "2023.12.??", "2024.01.01", "bad month 2023.13.01"]
    );
    assert_eq!(
        run(&["--until", "2023.03.14"]),
        ["2023.??.??", "2022.??.??", "bad month 2023.13.01"]
    );
    // Partial bounds: a year, a month (`-` separates too).
    assert_eq!(run(&["--since", "2024"]), ["2024.01.01"]);
    assert_eq!(
        run(&["--since", "2023-12", "--until", "2023-12"]),
        ["2023.??.??", "2023.12.??", "bad month 2023.13.01"]
    );
    for bad in ["23", "2023.1.05", "2023.13", "2023.12.32", "yesterday", "2023.??.??"] {
        let (code, _, err) = filter(&file, &["--since", bad]);
        assert_eq!(code, 2, "{bad}: {err}");
        assert!(err.contains("YYYY.MM.DD"), "{err}");
    }
}

/// Four games; `b.pgn` (CRLF) repeats two of them with other tags and comments, and holds two
/// near misses (another date, another move) and an unreadable game.
fn duplicates_dir() -> (tempfile::TempDir, String, String, Vec<String>) {
    let dir = tempfile::tempdir().unwrap();
    let a = [
        game(
            &[("Event", "a1"), ("White", "W"), ("Black", "B"), ("Date", "2023.01.01")],
            "1. e4 e5 2. Nf3 *",
        ),
        game(
            &[("Event", "a2"), ("White", "W"), ("Black", "B"), ("Date", "2023.01.02")],
            "1. d4 d5 *",
        ),
        game(
            &[("Event", "a3"), ("White", "W"), ("Black", "C"), ("Date", "2023.01.01")],
            "1. e4 e5 2. Nf3 *",
        ),
        game(
            &[("Event", "a4"), ("White", "W"), ("Black", "B"), ("Date", "2023.01.01")],
            "1. e4 e5 *",
        ),
    ];
    let b = [
        // a1 again: other Event, a comment, a variation, a result; UTCDate says the same day.
        game(
            &[
                ("Event", "b1"),
                ("White", "W"),
                ("Black", "B"),
                ("UTCDate", "2023.01.01"),
                ("Date", "2022.12.31"),
            ],
            "1. e4 {hi} e5 (1... c5) 2. Nf3 1-0",
        ),
        // a2 on another day: not a duplicate.
        game(
            &[("Event", "b2"), ("White", "W"), ("Black", "B"), ("Date", "2023.01.03")],
            "1. d4 d5 *",
        ),
        // a4 with one more move: not a duplicate.
        game(
            &[("Event", "b3"), ("White", "W"), ("Black", "B"), ("Date", "2023.01.01")],
            "1. e4 e5 2. Nc3 *",
        ),
        // Unreadable, twice: never a duplicate.
        game(&[("Event", "bad")], "1. e4 e4 *"),
        game(&[("Event", "bad")], "1. e4 e4 *"),
        // a3 again.
        game(
            &[("Event", "b4"), ("White", "W"), ("Black", "C"), ("Date", "2023.01.01")],
            "1. e4 e5 2. Nf3 0-1",
        ),
    ];
    let a_path = write(dir.path(), "a.pgn", &a);
    let b_text = b.join("\n").replace('\n', "\r\n");
    let b_path = dir.path().join("b.pgn");
    std::fs::write(&b_path, &b_text).unwrap();
    let mut kept: Vec<String> = a.to_vec();
    kept.push(b[1].replace('\n', "\r\n"));
    kept.push(b[2].replace('\n', "\r\n"));
    (dir, a_path, s(&b_path).to_string(), kept)
}

/// The games of a PGN text as the reader cuts them (their bytes).
fn raw_games(bytes: &[u8]) -> Vec<Vec<u8>> {
    let mut reader = PgnReader::new(bytes);
    let (mut games, mut game) = (Vec::new(), Vec::new());
    while reader.read_raw_game(&mut game).unwrap().is_some() {
        games.push(std::mem::take(&mut game));
    }
    games
}

#[test]
fn dedup_keeps_first_occurrences_byte_for_byte_and_names_both_sources() {
    let (dir, a, b, kept) = duplicates_dir();
    let out = dir.path().join("out.pgn");
    let (code, _, err) = chessbits(&["pgn", "dedup", &a, &b, "-o", s(&out), "--json"]);
    // The unreadable games make the status 1; they are reported, not written.
    assert_eq!(code, 1, "{err}");
    let written = std::fs::read(&out).unwrap();
    let want: Vec<Vec<u8>> = kept.iter().map(|g| raw_games(g.as_bytes()).remove(0)).collect();
    assert_eq!(raw_games(&written), want);
    // Lines: b1 is line 1 of b.pgn, b4 line 31; a1 line 1 and a3 line 15 of a.pgn.
    assert!(err.contains(&format!("{b}:1 duplicates {a}:1\n")), "{err}");
    assert!(err.contains(&format!("{b}:31 duplicates {a}:15\n")), "{err}");
    let report = json(err.lines().last().unwrap());
    assert_eq!(report["games"], 10);
    assert_eq!(report["written"], 6);
    assert_eq!(report["duplicates"], 2);
    assert_eq!(report["errors"], 2);
    assert_eq!(report["duplicate_games"][0]["game"], format!("{b}:1"));
    assert_eq!(report["duplicate_games"][0]["duplicates"], format!("{a}:1"));
    assert_eq!(report["duplicate_games"][1]["game"], format!("{b}:31"));

    // The other order: b's games come first and a's are the duplicates.
    let (_, stdout, err) = chessbits(&["pgn", "dedup", &b, &a]);
    assert!(err.contains(&format!("{a}:1 duplicates {b}:1\n")), "{err}");
    assert_eq!(events(&stdout), ["b1", "b2", "b3", "b4", "a2", "a4"]);

    // An output that is an input is refused before anything is written.
    let before = std::fs::read(&a).unwrap();
    let (code, _, err) = chessbits(&["pgn", "dedup", &a, &b, "-o", &a]);
    assert_eq!(code, 2, "{err}");
    assert_eq!(std::fs::read(&a).unwrap(), before);
}

#[test]
fn filter_and_pack_dedup_leave_out_the_same_games_whatever_the_threads() {
    let (dir, a, b, kept) = duplicates_dir();
    let (code, stdout, err) = chessbits(&["pgn", "filter", &a, &b, "--dedup", "--json"]);
    assert_eq!(code, 1, "{err}");
    assert_eq!(events(&stdout), ["a1", "a2", "a3", "a4", "b2", "b3"]);
    let report = json(err.lines().last().unwrap());
    assert_eq!(
        (report["matched"].as_u64(), report["duplicates"].as_u64()),
        (Some(6), Some(2))
    );
    assert!(err.contains(&format!("{b}:1 duplicates {a}:1\n")), "{err}");
    // Duplicates among the games that match: when a1 does not match, b1 is the first of its
    // kind and is written.
    let (_, stdout, _) = chessbits(&["pgn", "filter", &a, &b, "--dedup", "--tag", "Event=b1"]);
    assert_eq!(events(&stdout), ["b1"]);

    for threads in ["1", "3"] {
        let archive = dir.path().join(format!("t{threads}.cbits"));
        let (code, _, err) = chessbits(&[
            "pack",
            &a,
            &b,
            "-o",
            s(&archive),
            "--dedup",
            "--threads",
            threads,
            "--json",
        ]);
        assert_eq!(code, 0, "{err}");
        assert!(err.contains(&format!("{b}:31 duplicates {a}:15\n")), "{err}");
        let report = json(err.lines().last().unwrap());
        // The two unreadable games are stored as text; the two duplicates are left out.
        assert_eq!(
            (report["games"].as_u64(), report["duplicates"].as_u64()),
            (Some(8), Some(2)),
            "{err}"
        );
        let (code, unpacked, err) = chessbits(&["unpack", s(&archive)]);
        assert_eq!(code, 0, "{err}");
        let unpacked: Vec<String> = raw_games(unpacked.as_bytes())
            .iter()
            .map(|g| {
                let text = String::from_utf8_lossy(g).into_owned();
                text.split('"').nth(1).unwrap().to_string()
            })
            .collect();
        assert_eq!(unpacked, ["a1", "a2", "a3", "a4", "b2", "b3", "bad", "bad"]);
    }
    assert_eq!(kept.len(), 6);
}

#[test]
fn player_report_counts_colours_score_performance_and_openings() {
    let dir = tempfile::tempdir().unwrap();
    let g = |event: &str,
             white: &str,
             black: &str,
             elos: (&str, &str),
             result: &str,
             tags: &[(&str, &str)],
             moves: &str| {
        let mut all = vec![
            ("Event", event),
            ("White", white),
            ("Black", black),
            ("WhiteElo", elos.0),
            ("BlackElo", elos.1),
            ("Result", result),
        ];
        all.extend_from_slice(tags);
        game(&all, &format!("{moves} {result}"))
    };
    let ruy = [("ECO", "C65"), ("Opening", "Ruy Lopez: Berlin Defense")];
    let games = [
        g(
            "1",
            "Carlsen, Magnus",
            "A",
            ("2850", "2700"),
            "1-0",
            &ruy,
            "1. e4 e5 2. Nf3 Nc6 3. Bb5 Nf6",
        ),
        g(
            "2",
            "Carlsen, Magnus",
            "B",
            ("2850", "2800"),
            "1/2-1/2",
            &ruy,
            "1. e4 e5 2. Nf3 Nc6 3. Bb5 Nf6",
        ),
        // No ECO/Opening tags: classified from the moves.
        g(
            "3",
            "C",
            "Carlsen, Magnus",
            ("2900", "2850"),
            "1-0",
            &[],
            "1. d4 d5 2. c4",
        ),
        g(
            "4",
            "D",
            "Carlsen, Magnus",
            ("2600", "2850"),
            "0-1",
            &[],
            "1. d4 d5 2. c4",
        ),
        // No opponent rating: counted, not in the performance.
        g("5", "E", "Carlsen, Magnus", ("?", "2850"), "0-1", &[], "1. e4 c5"),
        // No result: counted, not scored.
        g("6", "Carlsen, Magnus", "F", ("2850", "2500"), "*", &ruy, "1. e4 e5"),
        // Not his.
        g("7", "G", "H", ("2000", "2000"), "1-0", &[], "1. e4 e5"),
    ];
    let mut text = games.join("\n");
    text.push_str("\n[Event \"broken\"]\n\n1. e4 e4 *\n");
    let file = write(dir.path(), "g.pgn", &[text]);
    let (code, out, err) = chessbits(&["pgn", "stats", &file, "--player", "carlsen", "--json"]);
    assert_eq!(code, 1, "the broken game: {err}");
    let v = json(&out);
    assert_eq!((v["games_read"].as_u64(), v["errors"].as_u64()), (Some(8), Some(1)));
    assert_eq!(v["names"][0]["name"], "Carlsen, Magnus");
    let record = |side: &str| {
        let r = &v[side];
        ["games", "wins", "draws", "losses", "no_result"].map(|k| r[k].as_u64().unwrap())
    };
    assert_eq!(record("white"), [3, 1, 1, 0, 1]);
    assert_eq!(record("black"), [3, 2, 0, 1, 0]);
    assert_eq!(record("total"), [6, 3, 1, 1, 1]);
    // (3 + 1/2) / 5 games with a result.
    assert_eq!(v["total"]["score"].as_f64(), Some(70.0));
    // Games 1-4: opponents 2700, 2800, 2900, 2600 (average 2750); W 2, L 1: 2750 + 400 / 4.
    let perf = &v["performance"];
    assert_eq!(perf["games"], 4);
    assert_eq!(perf["average_opponent"].as_f64(), Some(2750.0));
    assert_eq!(perf["rating"].as_f64(), Some(2850.0));
    let white = &v["openings"]["white"];
    assert_eq!(white[0]["opening"], "C65 Ruy Lopez: Berlin Defense");
    assert_eq!(white[0]["games"], 3);
    let black = &v["openings"]["black"];
    assert_eq!(black[0]["opening"], "D06 Queen's Gambit");
    assert_eq!(
        (black[0]["games"].as_u64(), black[0]["wins"].as_u64()),
        (Some(2), Some(1))
    );
    assert_eq!(black[1]["opening"], "B20 Sicilian Defense");

    let (code, out, _) = chessbits(&["pgn", "stats", &file, "--player", "carlsen", "--top", "1"]);
    assert_eq!(code, 1);
    assert!(out.contains("performance 2850: average opponent 2750"), "{out}");
    assert!(
        out.contains("as White        3      1      1      0         1  75.0%"),
        "{out}"
    );
    assert!(out.contains("D06 Queen's Gambit") && !out.contains("Sicilian"), "{out}");
    // Nobody by that name: zero games, no performance, status 0 without the broken game.
    let clean = write(dir.path(), "clean.pgn", &games);
    let (code, out, _) = chessbits(&["pgn", "stats", &clean, "--player", "Kasparov", "--json"]);
    assert_eq!(code, 0);
    let v = json(&out);
    assert_eq!(
        (v["total"]["games"].as_u64(), v["performance"]["rating"].clone()),
        (Some(0), Value::Null)
    );
}

/// What docs/cli.md promises of `pack` + `unpack`: tags, moves and comments come back (comment
/// bytes exactly), line breaks become LF and movetext is rewrapped; a game stored as text comes
/// back byte for byte.
#[test]
fn unpack_gives_back_tags_moves_comments_with_lf_and_text_games_byte_for_byte() {
    let dir = tempfile::tempdir().unwrap();
    let long_line: String = (1..40)
        .step_by(2)
        .map(|i| format!("{i}. Nf3 Nf6 {}. Ng1 Ng8 ", i + 1))
        .collect();
    let good = format!(
        "[Event \"crlf\"]\r\n[White \"Caf\u{e9}  two  spaces\"]\r\n[Black \"B\"]\r\n\r\n\
         1. e4 {{a comment,  two spaces, a tab\there, Caf\u{e9}}} e5 2. Nf3 Nf6 3. Ng1 Ng8 {long_line}*\r\n"
    );
    let bad = "[Event \"bad\"]\r\n[White \"X\"]\r\n\r\n1. e4 e4 {kept} *";
    let input = format!("{good}\r\n{bad}\r\n");
    let pgn = dir.path().join("in.pgn");
    std::fs::write(&pgn, &input).unwrap();
    let archive = dir.path().join("in.cbits");
    let (code, _, err) = chessbits(&["pack", s(&pgn), "-o", s(&archive)]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("stored as text"), "{err}");
    let (code, out, err) = chessbits(&["unpack", s(&archive)]);
    assert_eq!(code, 0, "{err}");
    let games = raw_games(out.as_bytes());
    assert_eq!(games.len(), 2);

    // The game stored as moves: the same game, LF only, lines rewrapped (under 80 columns).
    let back = String::from_utf8(games[0].clone()).unwrap();
    assert!(!back.contains('\r'), "{back:?}");
    assert!(back.lines().all(|line| line.len() <= 80), "{back}");
    let original = GameTree::from_pgn(good.as_bytes()).unwrap();
    assert_eq!(GameTree::from_pgn(back.as_bytes()).unwrap(), original);
    for tag in [
        "[Event \"crlf\"]\n[White \"Caf\u{e9}  two  spaces\"]\n[Black \"B\"]\n",
        "{a comment,  two spaces, a tab\there, Caf\u{e9}}",
    ] {
        assert!(back.contains(tag), "{tag:?} in {back}");
    }
    // The game stored as text: its bytes, CR LF included, exactly.
    assert_eq!(games[1], bad.as_bytes());
}
