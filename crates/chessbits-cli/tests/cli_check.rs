//! `chessbits pgn check` through the binary: the report is the same for every thread count (on
//! every PGN file of the bundled data, of `../shared/data` in an ignored `shared_data_` test, and
//! on files built here from the traps that used to make the parallel
//! path cut games differently), a truncated compressed file keeps the games before the damage,
//! and very long lines and old Mac line breaks read like ordinary files.
//!
//! The trap files are several MB, so the parallel path (batches of 256 KiB) really splits them.

use crate::common;

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::Command;

use common::{shared_path, testdata_path};

/// What `pgn check --json` printed, the fields that depend on time or threads left out.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Report {
    /// Exit code.
    code: i32,
    games: u64,
    plies: u64,
    errors: u64,
    bytes: u64,
    messages: Vec<String>,
    /// The JSON line without `seconds`, `threads`, `mb_per_s` and `moves_per_s`.
    json: String,
}

/// The fields that may differ between runs.
const VOLATILE: [&str; 4] = ["seconds", "threads", "mb_per_s", "moves_per_s"];

/// Runs `chessbits pgn check FILE --json --threads N`.
fn check(path: &Path, threads: usize) -> Report {
    let out = Command::new(env!("CARGO_BIN_EXE_chessbits"))
        .args(["pgn", "check", "--json", "--threads", &threads.to_string()])
        .arg(path)
        .output()
        .unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    let code = out.status.code().unwrap_or(-1);
    assert!(
        code == 0 || code == 1,
        "{} --threads {threads}: exit code {code}: {stderr}",
        path.display()
    );
    assert_eq!(
        stdout.lines().count(),
        1,
        "{} --threads {threads}: one JSON line: {stdout}",
        path.display()
    );
    parse(stdout.trim_end(), code)
}

/// Parses the report line (the object `report_json` writes: numbers, then `error_messages`).
fn parse(line: &str, code: i32) -> Report {
    let messages_at = line
        .find(",\"error_messages\":[")
        .unwrap_or_else(|| panic!("no error_messages: {line}"));
    let (head, tail) = line.split_at(messages_at);
    let head = head
        .strip_prefix('{')
        .unwrap_or_else(|| panic!("not an object: {line}"));
    let mut kept = Vec::new();
    let number = |key: &str| -> u64 {
        let field = head
            .split(',')
            .find_map(|field| field.strip_prefix(&format!("\"{key}\":")))
            .unwrap_or_else(|| panic!("no {key}: {line}"));
        field.parse().unwrap_or_else(|_| panic!("{key}: {field}"))
    };
    let (games, plies, errors, bytes) = (number("games"), number("plies"), number("errors"), number("bytes"));
    for field in head.split(',') {
        let key = field.split(':').next().unwrap().trim_matches('"');
        if !VOLATILE.contains(&key) {
            kept.push(field);
        }
    }
    for key in VOLATILE {
        assert!(head.contains(&format!("\"{key}\":")), "no {key}: {line}");
    }
    let array = tail
        .strip_prefix(",\"error_messages\":[")
        .and_then(|t| t.strip_suffix("]}"))
        .unwrap_or_else(|| panic!("bad error_messages: {line}"));
    let messages = json_strings(array);
    assert_eq!(messages.len() as u64, errors, "{line}");
    Report {
        code,
        games,
        plies,
        errors,
        bytes,
        messages,
        json: format!("{{{}{tail}", kept.join(",")),
    }
}

/// The strings of a JSON array's contents (`"a","b\"c"`).
fn json_strings(array: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut chars = array.chars();
    loop {
        match chars.next() {
            None => return out,
            Some(',') => continue,
            Some('"') => {}
            Some(c) => panic!("unexpected {c:?} in {array}"),
        }
        let mut text = String::new();
        loop {
            match chars.next().expect("unterminated string") {
                '"' => break,
                '\\' => match chars.next().unwrap() {
                    'u' => {
                        let hex: String = chars.by_ref().take(4).collect();
                        text.push(char::from_u32(u32::from_str_radix(&hex, 16).unwrap()).unwrap());
                    }
                    'n' => text.push('\n'),
                    't' => text.push('\t'),
                    'r' => text.push('\r'),
                    c => text.push(c),
                },
                c => text.push(c),
            }
        }
        out.push(text);
    }
}

/// Checks `path` with 1, 2 and 3 threads; the reports must be identical. Returns the report.
fn same_for_all_threads(path: &Path) -> Report {
    let single = check(path, 1);
    for threads in [2, 3] {
        let other = check(path, threads);
        assert_eq!(
            other.json,
            single.json,
            "{}: --threads {threads} differs from --threads 1",
            path.display()
        );
        assert_eq!(other, single, "{}: --threads {threads}", path.display());
    }
    single
}

/// Every `.pgn` file below `dir`, sorted.
fn pgn_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let path = entry.unwrap().path();
        if path.is_dir() {
            pgn_files(&path, out);
        } else if path.extension().is_some_and(|ext| ext.eq_ignore_ascii_case("pgn")) {
            out.push(path);
        }
    }
    out.sort();
}

/// The PGN files below `pgn/` and `pgn-edgecases/` of the data directory `root`.
fn data_pgn_files(root: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    pgn_files(&root.join("pgn"), &mut files);
    pgn_files(&root.join("pgn-edgecases"), &mut files);
    assert!(files.len() > 20, "{files:?}");
    files
}

fn write(dir: &Path, name: &str, bytes: &[u8]) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    path
}

fn lines(text: &[u8]) -> u32 {
    text.iter().filter(|&&b| b == b'\n').count() as u32
}

/// `name:line: reason` for a file in `dir`.
fn at(path: &Path, line: u32, reason: &str) -> String {
    format!("{}:{line}: {reason}", path.display())
}

/// Returns the number of games.
fn every_file_checks_the_same(root: &Path) -> u64 {
    let dir = tempfile::tempdir().unwrap();
    let files = data_pgn_files(root);
    let mut all = Vec::new();
    let (mut games, mut plies, mut errors) = (0, 0, 0);
    for file in &files {
        let report = same_for_all_threads(file);
        games += report.games;
        plies += report.plies;
        errors += report.errors;
        let bytes = std::fs::read(file).unwrap();
        assert_eq!(report.bytes, bytes.len() as u64, "{}", file.display());
        all.extend_from_slice(&bytes);
        all.extend_from_slice(b"\n\n");
    }
    // All of them in one file: one long input crossing many batches and every kind of file edge.
    let path = write(dir.path(), "all.pgn", &all);
    let report = same_for_all_threads(&path);
    assert!(report.games >= games - files.len() as u64, "{} < {games}", report.games);
    assert!(
        report.plies > 0 && report.plies <= plies + 1_000,
        "{} vs {plies}",
        report.plies
    );
    assert!(errors > 0 && report.errors > 0);
    assert_eq!(report.code, 1);
    assert_eq!(report.bytes, all.len() as u64);
    games
}

#[test]
fn every_file_checks_the_same_with_any_thread_count() {
    let games = every_file_checks_the_same(&testdata_path());
    // The four bundled game files alone hold 420 games (`grep -c '^\[Event '`).
    assert!(games > 420, "{games}");
}

#[test]
#[ignore = "needs ../shared/data (see testdata/README.md); run: cargo test --workspace -- --ignored shared_data_"]
fn shared_data_every_file_checks_the_same_with_any_thread_count() {
    let games = every_file_checks_the_same(&shared_path());
    assert!(games > 5_500, "{games}");
}

/// A good game of 9 lines (5 tags, blank, 2 lines of moves, blank) and 6 main-line plies.
const GOOD: &str = "[Event \"Casual\"]\n[Site \"?\"]\n[White \"A\"]\n[Black \"B\"]\n[Result \"1-0\"]\n\n\
                    1. e4 {open} e5 2. Nf3 (2. Bc4 $1) Nc6 3. Bb5 ; Spanish\na6 1-0\n\n";
const GOOD_LINES: u32 = 9;
const GOOD_PLIES: u64 = 6;

/// Good games with `trap` after every `every` of them, `traps` times, then good games to the
/// end: about 3.5 MB, so the traps fall at many places relative to the batch edges.
fn with_traps(trap: &str, every: usize, traps: usize) -> String {
    let mut text = String::new();
    for _ in 0..traps {
        text.push_str(&GOOD.repeat(every));
        text.push_str(trap);
    }
    text.push_str(&GOOD.repeat(every));
    text
}

const TRAP_GAMES: usize = 97;
const TRAPS: usize = 250;

/// Checks a file of good games with `TRAPS` copies of `trap` (of `trap_lines` lines), expecting
/// each trap to add `trap_games` games, `trap_plies` plies and the errors `trap_errors` (line
/// within the trap, reason).
fn trap_file(name: &str, trap: &str, trap_games: u64, trap_plies: u64, trap_errors: &[(u32, &str)]) -> Report {
    let dir = tempfile::tempdir().unwrap();
    let text = with_traps(trap, TRAP_GAMES, TRAPS);
    assert!(text.len() > 3_000_000);
    let path = write(dir.path(), name, text.as_bytes());
    let report = same_for_all_threads(&path);
    let good = (TRAP_GAMES * (TRAPS + 1)) as u64;
    let trap_lines = lines(trap.as_bytes());
    let mut expected = Vec::new();
    for i in 0..TRAPS as u32 {
        let start = (i + 1) * TRAP_GAMES as u32 * GOOD_LINES + i * trap_lines + 1;
        for (line, reason) in trap_errors {
            expected.push(at(&path, start + line - 1, reason));
        }
    }
    assert_eq!(report.messages.first(), expected.first(), "{name}: first error");
    assert_eq!(report.messages, expected, "{name}");
    assert_eq!(
        (report.games, report.plies),
        (
            good + trap_games * TRAPS as u64,
            good * GOOD_PLIES + trap_plies * TRAPS as u64
        ),
        "{name}"
    );
    assert_eq!(report.code, if expected.is_empty() { 0 } else { 1 }, "{name}");
    report
}

#[test]
fn a_blank_line_in_a_comment_before_a_tag_line() {
    // The comment is taken to be unclosed: the game ends at the tag line, which starts the next
    // game; the `}` left over is then a stray bracket in that game.
    let trap = "[Event \"trap\"]\n\n1. e4 {a comment\n\n[Event \"inside\"]\n[Site \"x\"]\n\n} e5 *\n\n";
    trap_file(
        "comment.pgn",
        trap,
        2,
        0,
        &[
            (3, "comment not closed before the next game or the end"),
            (8, "unexpected '}' in movetext"),
        ],
    );
    // Without the blank line the comment goes on (lichess-style `[%clk]` lines in comments).
    let trap = "[Event \"trap\"]\n\n1. e4 {a comment\n[Event \"inside\"]\n[%clk 0:01:00]\n\n} e5 *\n\n";
    trap_file("comment-kept.pgn", trap, 1, 2, &[]);
}

#[test]
fn a_blank_line_after_a_tag_pair() {
    // The tag section goes on after the blank line: one game (a splitter that cut at every
    // blank line followed by a tag line made two of it).
    let trap = "[Event \"trap\"]\n\n[Event \"second\"]\n[Site \"x\"]\n\n1. d4 d5 *\n\n";
    trap_file("tags.pgn", trap, 1, 2, &[]);
}

#[test]
fn an_unclosed_comment_early_in_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let bad = "[Event \"open\"]\n\n1. e4 {never closed e5 2. Nf3 *\n\n";
    let text = format!("{GOOD}{bad}{}", GOOD.repeat(25_000));
    let path = write(dir.path(), "unclosed-comment.pgn", text.as_bytes());
    let report = same_for_all_threads(&path);
    assert_eq!((report.games, report.plies), (25_002, 25_001 * GOOD_PLIES));
    assert_eq!(
        report.messages,
        [at(
            &path,
            GOOD_LINES + 3,
            "comment not closed before the next game or the end"
        )]
    );
    // And at the very end, unclosed to the end of the input.
    let text = format!("{}{bad}", GOOD.repeat(25_000));
    let path = write(dir.path(), "unclosed-at-end.pgn", text.as_bytes());
    let report = same_for_all_threads(&path);
    assert_eq!((report.games, report.plies), (25_001, 25_000 * GOOD_PLIES));
    assert_eq!(
        report.messages,
        [at(
            &path,
            25_000 * GOOD_LINES + 3,
            "comment not closed before the next game or the end"
        )]
    );
}

#[test]
fn an_unclosed_variation() {
    let trap = "[Event \"trap\"]\n\n1. e4 e5 (1... c5 2. Nf3\n\n";
    trap_file(
        "variation.pgn",
        trap,
        1,
        0,
        &[(3, "variation not closed before the next game or the end")],
    );
    // With the result inside the open variation, that is the first error.
    let trap = "[Event \"trap\"]\n\n1. e4 e5 (1... c5 2. Nf3 *\n\n";
    trap_file("variation-result.pgn", trap, 1, 0, &[(3, "result inside a variation")]);
}

#[test]
fn a_stray_bracket_in_movetext() {
    let trap = "[Event \"trap\"]\n\n1. e4 e5 [%clk 0:01:00] 2. Nf3 *\n\n";
    trap_file("bracket.pgn", trap, 1, 0, &[(3, "unexpected '[' in movetext")]);
    let trap = "1. e4 e5 ] 2. Nf3 *\n\n";
    trap_file("bracket2.pgn", trap, 1, 0, &[(1, "unexpected ']' in movetext")]);
}

#[test]
fn every_line_break_style_gives_the_same_report() {
    let dir = tempfile::tempdir().unwrap();
    let trap = "[Event \"bad\"]\n\n1. e4 e5\n2. Ke3 *\n\n";
    let text = with_traps(trap, TRAP_GAMES, TRAPS);
    let lf = write(dir.path(), "lf.pgn", text.as_bytes());
    let expected = same_for_all_threads(&lf);
    let first = TRAP_GAMES as u32 * GOOD_LINES + 4;
    assert_eq!(expected.messages[0], at(&lf, first, "illegal move 'Ke3'"));
    assert_eq!(expected.errors, TRAPS as u64);
    for (name, style) in [("crlf.pgn", "\r\n"), ("cr.pgn", "\r")] {
        let path = write(dir.path(), name, text.replace('\n', style).as_bytes());
        let report = same_for_all_threads(&path);
        let renamed: Vec<String> = report
            .messages
            .iter()
            .map(|m| m.replacen(&path.display().to_string(), &lf.display().to_string(), 1))
            .collect();
        assert_eq!(renamed, expected.messages, "{name}");
        assert_eq!(
            (report.games, report.plies, report.code),
            (expected.games, expected.plies, expected.code),
            "{name}"
        );
    }
}

#[test]
fn games_without_tags() {
    let dir = tempfile::tempdir().unwrap();
    // Separated by their results only, several on a line; every 1000th illegal.
    let mut text = String::new();
    let mut line = 1;
    let mut first_error = None;
    for i in 0..200_000 {
        if i % 1000 == 999 {
            first_error.get_or_insert(line);
            text.push_str("1. e4 e5 2. Ke3 *");
        } else {
            text.push_str(["1. e4 e5 2. Nf3 Nc6 1-0", "1. d4 d5 *", "1. c4 0-1"][i % 3]);
        }
        if i % 4 == 3 {
            text.push('\n');
            line += 1;
        } else {
            text.push(' ');
        }
    }
    assert!(text.len() > 3_000_000);
    let path = write(dir.path(), "tagless.pgn", text.as_bytes());
    let report = same_for_all_threads(&path);
    assert_eq!(report.games, 200_000);
    assert_eq!(report.errors, 200);
    assert_eq!(
        report.messages[0],
        at(&path, first_error.unwrap(), "illegal move 'Ke3'")
    );
    let good: u64 = (0..200_000).filter(|i| i % 1000 != 999).map(|i| [4, 2, 1][i % 3]).sum();
    assert_eq!(report.plies, good);
}

#[test]
fn a_game_with_a_one_megabyte_comment() {
    let dir = tempfile::tempdir().unwrap();
    let comment = "a long comment, with (brackets) and [tags] and ; and \"quotes\"\n".repeat(17_000);
    assert!(comment.len() > 1_000_000);
    let big = format!("[Event \"big\"]\n\n1. e4 {{{comment}}} e5 2. Ke3 *\n\n");
    // Alone, then between good games.
    let path = write(dir.path(), "alone.pgn", big.as_bytes());
    let report = same_for_all_threads(&path);
    assert_eq!(report.games, 1);
    assert_eq!(report.messages, [at(&path, 3 + 17_000, "illegal move 'Ke3'")]);
    let text = format!("{}{big}{}", GOOD.repeat(10_000), GOOD.repeat(10_000));
    let path = write(dir.path(), "between.pgn", text.as_bytes());
    let report = same_for_all_threads(&path);
    assert_eq!((report.games, report.plies), (20_001, 20_000 * GOOD_PLIES));
    assert_eq!(
        report.messages,
        [at(&path, 10_000 * GOOD_LINES + 3 + 17_000, "illegal move 'Ke3'")]
    );
}

/// The bundled game files (no errors), repeated to over 4 MB as the full files are: a cut in
/// the middle falls many batches into the input.
fn clean_games() -> Vec<u8> {
    let mut once = Vec::new();
    for name in [
        "notnil_twic0920.pgn",
        "notnil_Carlsen.pgn",
        "shakmaty_lichess_db_1000k.pgn",
        "shakmaty_twic1599_1000k.pgn",
    ] {
        once.extend(std::fs::read(testdata_path().join("pgn").join(name)).unwrap());
        once.extend_from_slice(b"\n\n");
    }
    once.repeat(4_000_000 / once.len() + 1)
}

/// What a decoder gives of a damaged stream before it fails (it must fail).
fn readable_prefix(mut decoder: impl Read) -> Vec<u8> {
    let mut out = Vec::new();
    let mut buf = [0u8; 1 << 14];
    loop {
        match decoder.read(&mut buf) {
            Ok(0) => panic!("the cut stream read to its end without an error"),
            Ok(n) => out.extend_from_slice(&buf[..n]),
            Err(_) => return out,
        }
    }
}

/// Games wholly inside `prefix` (each ends with a result before the next `[Event`).
fn complete_games(prefix: &[u8]) -> u64 {
    let text = String::from_utf8_lossy(prefix);
    let starts = text.matches("[Event ").count() as u64;
    // The last game started may be cut.
    starts - 1
}

fn truncated_file_keeps_the_games_before_the_damage(name: &str, compressed: Vec<u8>, prefix: Vec<u8>) {
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), name, &compressed);
    let single = check(&path, 1);
    let parallel = check(&path, 2);
    assert_eq!(parallel, single, "{name}");
    let complete = complete_games(&prefix);
    assert!(complete > 1_000, "{complete}");
    assert!(
        // Every game before the last one started is whole; that one may be whole too.
        single.games >= complete && single.games <= complete + 1,
        "{name}: {} games checked, {complete} complete games readable",
        single.games
    );
    assert_eq!(single.code, 1, "{name}");
    assert_eq!(single.errors, 1, "{name}: {:?}", single.messages);
    let message = &single.messages[0];
    assert!(message.contains("read error"), "{message}");
    assert!(
        message.ends_with("(the games before this line were checked)"),
        "{message}"
    );
    // The line is where the last whole game ended: within the readable text.
    let line: u32 = message
        .strip_prefix(&format!("{}:", path.display()))
        .and_then(|rest| rest.split(':').next())
        .and_then(|line| line.parse().ok())
        .unwrap_or_else(|| panic!("no line: {message}"));
    assert!(line > 1 && line <= lines(&prefix) + 1, "{message}");
    assert!(single.bytes <= prefix.len() as u64 + (1 << 20), "{}", single.bytes);
}

#[test]
fn a_truncated_gzip_file_keeps_the_games_before_the_cut() {
    let text = clean_games();
    assert!(text.len() > 4_000_000);
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    encoder.write_all(&text).unwrap();
    let mut compressed = encoder.finish().unwrap();
    compressed.truncate(compressed.len() / 2);
    let prefix = readable_prefix(flate2::read::MultiGzDecoder::new(&compressed[..]));
    truncated_file_keeps_the_games_before_the_damage("x.pgn.gz", compressed, prefix);
}

/// A gzip file whose first member holds 1000 whole games and whose second member is cut in its
/// header: every game is readable, and the error comes right after the last one.
#[test]
fn every_whole_game_before_a_read_error_is_checked() {
    let dir = tempfile::tempdir().unwrap();
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    encoder.write_all(GOOD.repeat(1000).as_bytes()).unwrap();
    let mut compressed = encoder.finish().unwrap();
    let mut second = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    second.write_all(b"more games").unwrap();
    compressed.extend_from_slice(&second.finish().unwrap()[..15]);
    let path = write(dir.path(), "cut.pgn.gz", &compressed);
    let single = check(&path, 1);
    assert_eq!(check(&path, 2), single);
    assert_eq!(single.messages.len(), 1, "{:?}", single.messages);
    assert!(single.messages[0].contains("read error"), "{:?}", single.messages);
    assert_eq!(
        (single.games, single.plies),
        (1000, 1000 * GOOD_PLIES),
        "{:?}",
        single.messages
    );
}

#[test]
fn a_truncated_zstd_file_keeps_the_games_before_the_cut() {
    let text = clean_games();
    // A window of 128 KiB, less than one copy of the bundled files: the copies cannot refer to
    // each other, so each costs as much as the first and the cut falls in the middle of the text.
    let mut encoder = zstd::stream::write::Encoder::new(Vec::new(), 3).unwrap();
    encoder.window_log(17).unwrap();
    encoder.write_all(&text).unwrap();
    let mut compressed = encoder.finish().unwrap();
    compressed.truncate(compressed.len() / 2);
    let prefix = readable_prefix(zstd::stream::read::Decoder::new(&compressed[..]).unwrap());
    truncated_file_keeps_the_games_before_the_damage("x.pgn.zst", compressed, prefix);
}

#[test]
fn one_line_and_old_mac_files_read_like_the_normal_ones() {
    let dir = tempfile::tempdir().unwrap();
    let twic = std::fs::read(testdata_path().join("pgn/notnil_twic0920.pgn")).unwrap();
    assert!(!twic.contains(&b'\r'));
    let normal = write(dir.path(), "twic.pgn", &twic);
    let expected = same_for_all_threads(&normal);
    // The bundled prefix holds 100 games (`grep -c '^\[Event '`).
    let games = 100;
    assert_eq!((expected.games, expected.errors), (games, 0));
    // Old Mac line breaks.
    let cr: Vec<u8> = twic.iter().map(|&b| if b == b'\n' { b'\r' } else { b }).collect();
    let path = write(dir.path(), "twic-cr.pgn", &cr);
    let report = same_for_all_threads(&path);
    assert_eq!(
        (report.games, report.plies, report.errors, report.bytes),
        (expected.games, expected.plies, 0, expected.bytes)
    );
    // Over 4 MB of games with all their tags and moves on one line (the file has no `;`
    // comment outside a tag value, which a line break would end).
    let copies = 4_000_000 / twic.len() + 1;
    let repeated = twic.repeat(copies);
    let normal = write(dir.path(), "twic2.pgn", &repeated);
    let expected = same_for_all_threads(&normal);
    assert_eq!(expected.games, copies as u64 * games);
    let one_line: Vec<u8> = repeated.iter().map(|&b| if b == b'\n' { b' ' } else { b }).collect();
    assert!(one_line.len() > 4_000_000 && !one_line.contains(&b'\n'));
    let path = write(dir.path(), "one-line.pgn", &one_line);
    let report = same_for_all_threads(&path);
    assert_eq!(
        (report.games, report.plies, report.errors),
        (expected.games, expected.plies, 0)
    );
}

/// 70,000 nested variations used to overflow the stack of `pgn convert`, `pack` and `codecs`
/// (SIGABRT): now every command reports the game and handles the rest of the file.
#[test]
fn deep_nesting_is_reported_by_every_command() {
    let dir = tempfile::tempdir().unwrap();
    let depth = 70_000;
    let mut pgn = GOOD.to_string();
    pgn.push_str("[Event \"deep\"]\n\n1. e4 e5 ");
    pgn.push_str(&"(1... c5 ".repeat(depth));
    pgn.push_str(&")".repeat(depth));
    pgn.push_str(" 2. Nf3 *\n\n");
    pgn.push_str(GOOD);
    let input = write(dir.path(), "deep.pgn", pgn.as_bytes());
    let exe = env!("CARGO_BIN_EXE_chessbits");
    let run = |args: &[&str]| {
        let out = Command::new(exe).args(args).output().unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
            out.stdout,
        )
    };
    let message = "variations nested deeper than 100";
    for threads in ["1", "2"] {
        let report = check(&input, threads.parse().unwrap());
        assert_eq!((report.games, report.errors), (3, 1));
        assert!(
            report.messages[0].ends_with(&format!(":12: {message}")),
            "{:?}",
            report.messages
        );
    }
    let (code, stderr, stdout) = run(&["pgn", "convert", input.to_str().unwrap()]);
    assert_eq!(code, Some(1), "{stderr}");
    assert!(stderr.contains(message), "{stderr}");
    assert_eq!(
        String::from_utf8_lossy(&stdout).matches("[Event \"Casual\"]").count(),
        2
    );
    let archive = dir.path().join("deep.cbits");
    let (code, stderr, _) = run(&["pack", input.to_str().unwrap(), "-o", archive.to_str().unwrap()]);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(stderr.contains(&format!("{message} (stored as text)")), "{stderr}");
    let (code, stderr, unpacked) = run(&["unpack", archive.to_str().unwrap(), "-o", "-"]);
    assert_eq!(code, Some(0), "{stderr}");
    // The deep game comes back as it was written.
    let deep = pgn[GOOD.len()..pgn.len() - GOOD.len()].trim_end().as_bytes();
    assert!(unpacked.windows(deep.len()).any(|w| w == deep));
    let (code, stderr, _) = run(&["codecs", input.to_str().unwrap()]);
    assert!(
        code == Some(0) || code == Some(1),
        "codecs must not crash: {code:?} {stderr}"
    );
}
