//! `chessbits pgn check` and `chessbits pgn convert`: validate and rewrite PGN files.
//!
//! `check` replays every move of every game (variations included) and reports the games, the
//! main-line moves replayed, and each rejected game as `file:line: reason`. With several threads
//! the input is cut into chunks at game boundaries (a tag line after a blank line), each chunk
//! read by its own [`PgnReader`] that knows the chunk's first line number, so messages are the
//! same whatever the thread count.

use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::mpsc;
use std::time::Instant;

use chessbits::pgn::{MoveNotation, PgnError, PgnReader, Validator, WriteOptions};
use indicatif::ProgressBar;

use crate::inputs::{expand_inputs, open_input, progress_bar, read_full, total_len, CountingReader};
use crate::output::{write_error, Sink};

/// `chessbits pgn ...`
#[derive(clap::Args)]
pub struct PgnArgs {
    #[command(subcommand)]
    command: PgnCommand,
}

#[derive(clap::Subcommand)]
enum PgnCommand {
    /// Validate every move of every game; print counts, errors (`file:line: reason`), speed.
    Check {
        /// PGN files, plain, gzip or zstd; `-` reads standard input; a directory, every `.pgn`, `.pgn.gz` and `.pgn.zst` file below it.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Print one JSON object instead of text.
        #[arg(long)]
        json: bool,
        /// Worker threads (0: all cores).
        #[arg(long, default_value_t = 0)]
        threads: usize,
    },
    /// Rewrite the games of a file in export format, moves in the chosen notation.
    Convert {
        /// The PGN file (plain, gzip or zstd); `-` reads standard input.
        file: PathBuf,
        /// Move notation of the output.
        #[arg(long, value_enum, default_value = "san")]
        to: Notation,
        /// Output file (standard output if omitted).
        #[arg(short, long)]
        output: Option<PathBuf>,
    },
}

/// Move notation for `convert`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Notation {
    San,
    Uci,
    Lan,
}

impl From<Notation> for MoveNotation {
    fn from(n: Notation) -> MoveNotation {
        match n {
            Notation::San => MoveNotation::San,
            Notation::Uci => MoveNotation::Uci,
            Notation::Lan => MoveNotation::Lan,
        }
    }
}

/// Runs `chessbits pgn ...`.
pub fn run(args: PgnArgs) -> Result<ExitCode, String> {
    match args.command {
        PgnCommand::Check { files, json, threads } => check(&files, json, threads),
        PgnCommand::Convert { file, to, output } => {
            let output = output.unwrap_or_else(|| PathBuf::from("-"));
            let mut sink = Sink::create(&output, std::slice::from_ref(&file))?;
            let out_name = match output.as_os_str() == "-" {
                true => "standard output".to_string(),
                false => output.display().to_string(),
            };
            let summary = convert(&file, to.into(), &mut sink, &out_name, &mut io::stderr())?;
            sink.commit()?;
            Ok(if summary.errors == 0 {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(1)
            })
        }
    }
}

/// What `check` found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CheckReport {
    /// Games read.
    pub games: u64,
    /// Main-line moves of the valid games.
    pub plies: u64,
    /// One `file:line: reason` per rejected game, in file order.
    pub errors: Vec<String>,
    /// Bytes read.
    pub bytes: u64,
}

/// `chessbits pgn check FILE... [--json] [--threads N]`: prints the report; exit code 0 if
/// every game is valid, 1 if some are not. `threads == 0` uses all cores.
pub fn check(files: &[PathBuf], json: bool, threads: usize) -> Result<ExitCode, String> {
    let threads = match threads {
        0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
        n => n,
    };
    let start = Instant::now();
    let files = expand_inputs(files)?;
    let bar = progress(&files);
    let report = check_files(&files, threads, &bar);
    bar.finish_and_clear();
    let report = report?;
    let seconds = start.elapsed().as_secs_f64().max(1e-9);
    let mut out = io::stdout().lock();
    let result = if json {
        writeln!(out, "{}", report_json(&report, seconds, threads))
    } else {
        print_text(&mut out, &report, seconds)
    };
    result.map_err(|e| write_error("standard output", e))?;
    Ok(if report.errors.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

fn print_text(out: &mut impl Write, report: &CheckReport, seconds: f64) -> io::Result<()> {
    for error in &report.errors {
        writeln!(out, "{error}")?;
    }
    writeln!(
        out,
        "{} games, {} plies, {} errors; {:.1} MB in {:.3} s: {:.1} MB/s, {:.2} M moves/s",
        report.games,
        report.plies,
        report.errors.len(),
        report.bytes as f64 / 1e6,
        seconds,
        report.bytes as f64 / 1e6 / seconds,
        report.plies as f64 / 1e6 / seconds
    )
}

/// The report as one JSON object.
fn report_json(report: &CheckReport, seconds: f64, threads: usize) -> String {
    let messages: Vec<String> = report.errors.iter().map(|e| json_string(e)).collect();
    format!(
        "{{\"games\":{},\"plies\":{},\"errors\":{},\"bytes\":{},\"seconds\":{:.6},\"threads\":{},\
         \"mb_per_s\":{:.3},\"moves_per_s\":{:.0},\"error_messages\":[{}]}}",
        report.games,
        report.plies,
        report.errors.len(),
        report.bytes,
        seconds,
        threads,
        report.bytes as f64 / 1e6 / seconds,
        report.plies as f64 / seconds,
        messages.join(",")
    )
}

fn json_string(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// Inputs shorter than this get no progress bar: they are done before one would be read.
const PROGRESS_MIN_BYTES: u64 = 16 << 20;

/// A progress bar over the bytes of `files` when stderr is a terminal and the input is long
/// (or of unknown length: standard input); hidden otherwise. Same style as `pack`'s.
fn progress(files: &[PathBuf]) -> ProgressBar {
    let total = total_len(files);
    if total.is_some_and(|len| len < PROGRESS_MIN_BYTES) {
        return ProgressBar::hidden();
    }
    progress_bar(total, "bytes")
}

/// Checks every game of `files` with `threads` threads (at least 1).
#[cfg(test)]
pub fn check_report(files: &[PathBuf], threads: usize) -> Result<CheckReport, String> {
    check_files(files, threads, &ProgressBar::hidden())
}

/// [`check_report`], advancing `bar` by the bytes read.
fn check_files(files: &[PathBuf], threads: usize, bar: &ProgressBar) -> Result<CheckReport, String> {
    let mut report = CheckReport::default();
    for path in files {
        let name = path.display().to_string();
        // A file that cannot be read is reported like a bad game, and the other files are still checked.
        let input = match open_input(path, bar) {
            Ok(input) => input,
            Err(message) => {
                report.errors.push(message);
                continue;
            }
        };
        let file_report = match threads {
            0 | 1 => check_stream(input, &name, 1),
            _ => check_parallel(input, &name, threads),
        };
        let file_report = match file_report {
            Ok(file_report) => file_report,
            Err(e) => {
                report.errors.push(format!("{name}: {e}"));
                continue;
            }
        };
        report.games += file_report.games;
        report.plies += file_report.plies;
        report.bytes += file_report.bytes;
        report.errors.extend(file_report.errors);
    }
    Ok(report)
}

/// Checks one stream in this thread, its first line numbered `first_line`.
fn check_stream<R: Read>(input: R, name: &str, first_line: u32) -> io::Result<CheckReport> {
    let input = CountingReader::new(input);
    let bytes = input.counter();
    let mut reader = PgnReader::with_first_line(input, first_line);
    let mut validator = Validator::new();
    let mut report = CheckReport::default();
    while let Some(result) = reader.read_game(&mut validator)? {
        report.games += 1;
        match result {
            Ok(summary) => report.plies += u64::from(summary.plies),
            Err(error) => report.errors.push(format!("{name}:{}: {}", error.line, error.kind)),
        }
    }
    report.bytes = bytes.get();
    Ok(report)
}

/// Target size of a chunk handed to a worker.
const CHUNK: usize = 1 << 18;

/// Where the last game in `bytes` that starts after `from` begins: a line that opens a tag
/// (`[Name "`) right after a blank line, or an `[Event ` line. `None` if there is none.
fn last_game_start(bytes: &[u8], from: usize) -> Option<usize> {
    let mut end = bytes.len();
    while end > from {
        let newline = bytes[from..end].iter().rposition(|&b| b == b'\n')? + from;
        let start = newline + 1;
        let line = &bytes[start..];
        if line.first() == Some(&b'[')
            && (is_after_blank_line(bytes, newline) || line.starts_with(b"[Event "))
            && looks_like_tag(line)
        {
            return Some(start);
        }
        end = newline;
    }
    None
}

/// Whether the line ending at the line feed `newline` is blank.
fn is_after_blank_line(bytes: &[u8], newline: usize) -> bool {
    let before = &bytes[..newline];
    let line_start = before.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    before[line_start..].iter().all(|b| b.is_ascii_whitespace())
}

/// `[Name "` with a tag name of letters, digits and `_`: a tag, not `[%clk ...]` in a comment.
fn looks_like_tag(line: &[u8]) -> bool {
    let name_len = line[1..]
        .iter()
        .take_while(|b| b.is_ascii_alphanumeric() || **b == b'_')
        .count();
    let rest = &line[1 + name_len..];
    let spaces = rest.iter().take_while(|&&b| b == b' ' || b == b'\t').count();
    name_len > 0 && rest.get(spaces) == Some(&b'"')
}

/// Checks one stream with `threads` workers fed with chunks cut at game boundaries.
fn check_parallel(mut input: Box<dyn Read>, name: &str, threads: usize) -> io::Result<CheckReport> {
    // Bounded: the reader stays at most a few chunks ahead of the workers.
    let (chunk_tx, chunk_rx) = mpsc::sync_channel::<(usize, u32, Vec<u8>)>(threads * 2);
    let chunk_rx = std::sync::Mutex::new(chunk_rx);
    let (result_tx, result_rx) = mpsc::channel::<(usize, io::Result<CheckReport>)>();
    std::thread::scope(|scope| {
        for _ in 0..threads {
            let (chunk_rx, result_tx) = (&chunk_rx, result_tx.clone());
            scope.spawn(move || loop {
                let next = chunk_rx.lock().map(|rx| rx.recv());
                let Ok(Ok((index, first_line, chunk))) = next else {
                    return;
                };
                let report = check_stream(&chunk[..], name, first_line);
                if result_tx.send((index, report)).is_err() {
                    return;
                }
            });
        }
        drop(result_tx);
        let sent = split_into_chunks(&mut input, |index, first_line, chunk| {
            chunk_tx.send((index, first_line, chunk)).is_ok()
        });
        drop(chunk_tx);
        let mut results: Vec<(usize, io::Result<CheckReport>)> = result_rx.iter().collect();
        sent?;
        results.sort_by_key(|(index, _)| *index);
        let mut report = CheckReport::default();
        for (_, result) in results {
            let part = result?;
            report.games += part.games;
            report.plies += part.plies;
            report.bytes += part.bytes;
            report.errors.extend(part.errors);
        }
        Ok(report)
    })
}

/// Reads `input` and hands out chunks that end at game boundaries, with their index and first
/// line number; stops early if `send` returns false.
fn split_into_chunks(input: &mut dyn Read, mut send: impl FnMut(usize, u32, Vec<u8>) -> bool) -> io::Result<()> {
    let mut pending: Vec<u8> = Vec::with_capacity(2 * CHUNK);
    let (mut index, mut line) = (0usize, 1u32);
    loop {
        // Boundaries before the new block were looked for already (the byte before it may be
        // the line feed that precedes one).
        let searched = pending.len().saturating_sub(1);
        let old = pending.len();
        pending.resize(old + CHUNK, 0);
        let n = read_full(input, &mut pending[old..])?;
        pending.truncate(old + n);
        let eof = n < CHUNK;
        let cut = if eof {
            Some(pending.len())
        } else {
            last_game_start(&pending, searched).filter(|&c| c > 0)
        };
        // No boundary yet: read on, the chunk grows.
        let Some(cut) = cut else { continue };
        let rest = pending.split_off(cut);
        let chunk = std::mem::replace(&mut pending, rest);
        let lines = chunk.iter().filter(|&&b| b == b'\n').count() as u32;
        if !chunk.is_empty() && !send(index, line, chunk) {
            return Ok(());
        }
        index += 1;
        line += lines;
        if eof {
            return Ok(());
        }
    }
}

/// What `convert` did.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct ConvertSummary {
    /// Games written.
    pub games: u64,
    /// Games skipped for an error (each reported as `file:line: reason`).
    pub errors: u64,
}

/// `chessbits pgn convert FILE --to san|uci|lan`: writes every valid game of `file` to `out`
/// (named `out_name` in messages) in export format with moves in `notation`; each invalid game
/// is skipped and reported to `errors` as `file:line: reason`.
pub fn convert(
    file: &Path,
    notation: MoveNotation,
    out: &mut dyn Write,
    out_name: &str,
    errors: &mut dyn Write,
) -> Result<ConvertSummary, String> {
    let name = file.display().to_string();
    let options = WriteOptions {
        notation,
        ..WriteOptions::default()
    };
    let mut summary = ConvertSummary::default();
    let mut text = String::new();
    for game in PgnReader::new(open_input(file, &ProgressBar::hidden())?).into_games() {
        match game {
            Ok(game) => {
                text.clear();
                game.write_pgn(&mut text, &options)
                    .map_err(|e| format!("{name}: {e}"))?;
                out.write_all(text.as_bytes()).map_err(|e| write_error(out_name, e))?;
                summary.games += 1;
            }
            Err(PgnError::Game(error)) => {
                writeln!(errors, "{name}:{}: {}", error.line, error.kind).map_err(|e| format!("stderr: {e}"))?;
                summary.errors += 1;
            }
            Err(PgnError::Io(e)) => return Err(format!("{name}: {e}")),
        }
    }
    out.flush().map_err(|e| write_error(out_name, e))?;
    Ok(summary)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shared(relative: &str) -> PathBuf {
        Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared/data")).join(relative)
    }

    /// A temporary file with the concatenation of `parts`.
    fn temp_file(name: &str, parts: &[PathBuf]) -> PathBuf {
        let path = std::env::temp_dir().join(format!("chessbits-pgn-cmd-{}-{name}", std::process::id()));
        let mut bytes = Vec::new();
        for part in parts {
            bytes.extend(std::fs::read(part).unwrap());
            bytes.extend(b"\n\n");
        }
        std::fs::write(&path, bytes).unwrap();
        path
    }

    #[test]
    fn chunk_boundaries_are_tag_lines_after_blank_lines() {
        let text = b"[Event \"a\"]\n\n1. e4 {\n\n[%clk 1:00]} *\n\n[Event \"b\"]\n1. d4 *\n1-0\n[Site \"c\"]\n";
        let b = text.windows(11).position(|w| w == b"[Event \"b\"]").unwrap();
        let c = text.windows(10).position(|w| w == b"[Site \"c\"]").unwrap();
        assert_eq!(
            last_game_start(text, 0),
            Some(b),
            "a tag line not after a blank line is inside a game"
        );
        assert_eq!(last_game_start(&text[..c], 0), Some(b));
        assert_eq!(last_game_start(&text[..b], 0), None, "a [%clk] comment line is no tag");
        assert!(looks_like_tag(b"[White \"x\"]") && !looks_like_tag(b"[%clk 0:01]") && !looks_like_tag(b"[ \"x\"]"));
    }

    #[test]
    fn short_inputs_get_no_progress_bar() {
        let path = shared("pgn/notnil_Carlsen.pgn");
        assert!(std::fs::metadata(&path).unwrap().len() < PROGRESS_MIN_BYTES);
        assert!(progress(&[path]).is_hidden());
    }

    #[test]
    fn compressed_files_check_like_the_plain_file() {
        use std::io::Write;
        let plain = shared("pgn/shakmaty_lichess_db_1000k.pgn");
        let text = std::fs::read(&plain).unwrap();
        let dir = tempfile::tempdir().unwrap();
        let zst = dir.path().join("games.pgn.zst");
        std::fs::write(&zst, zstd::encode_all(&text[..], 3).unwrap()).unwrap();
        let gz = dir.path().join("games.pgn.gz");
        let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        encoder.write_all(&text).unwrap();
        std::fs::write(&gz, encoder.finish().unwrap()).unwrap();
        for threads in [1, 2] {
            let expected = check_report(std::slice::from_ref(&plain), threads).unwrap();
            assert!(expected.games > 400 && expected.errors.is_empty());
            for path in [&zst, &gz] {
                let report = check_report(std::slice::from_ref(path), threads).unwrap();
                assert_eq!(
                    (report.games, report.plies, report.bytes, report.errors.len()),
                    (expected.games, expected.plies, text.len() as u64, 0),
                    "{} with {threads} threads",
                    path.display()
                );
            }
        }
    }

    #[test]
    fn directories_are_read_and_an_unreadable_file_does_not_stop_the_others() {
        let missing = shared("pgn/no-such-file.pgn");
        let files = expand_inputs(&[missing.clone(), shared("pgn")]).unwrap();
        assert!(files.len() > 5, "{files:?}");
        let report = check_report(&files, 2).unwrap();
        let direct = check_report(&[shared("pgn/notnil_Carlsen.pgn")], 1).unwrap();
        assert!(report.games > direct.games + 2245, "{}", report.games);
        assert!(
            report.errors[0].starts_with(&format!("{}: ", missing.display())),
            "{:?}",
            report.errors[0]
        );
    }

    #[test]
    fn thread_count_changes_nothing_but_speed() {
        let mut parts = vec![shared("pgn/notnil_twic0920.pgn")];
        for name in ["test-r.txt", "nested-comment.pgn", "vvars.txt"] {
            parts.push(shared(&format!("pgn-edgecases/pgn-extract-test-infield/{name}")));
        }
        parts.push(shared("pgn/python-chess-tests/antichess-programfox.pgn"));
        parts.push(shared("pgn/shakmaty_lichess_db_1000k.pgn"));
        parts.push(shared("pgn/python-chess-tests/saturs-jannlee-zh-lichess.pgn"));
        let path = temp_file("mixed.pgn", &parts);
        let single = check_report(std::slice::from_ref(&path), 1).unwrap();
        let parallel = check_report(std::slice::from_ref(&path), 3).unwrap();
        std::fs::remove_file(&path).unwrap();
        assert_eq!(single, parallel);
        assert_eq!(single.games, 2245 + 1 + 1 + 3 + 2 + 438 + 1);
        assert_eq!(single.errors.len(), 6);
        // The first error is right after the first file (its 2245 games, then two blank lines).
        let first_file_lines = std::fs::read(&parts[0])
            .unwrap()
            .iter()
            .filter(|&&b| b == b'\n')
            .count();
        assert_eq!(
            single.errors[0],
            format!("{}:{}: illegal move 'Kf2'", path.display(), first_file_lines + 3)
        );
    }

    #[test]
    fn convert_keeps_every_move_in_every_notation() {
        let input = shared("pgn/python-chess-tests/cutechess-fischerrandom.pgn");
        let original = check_report(std::slice::from_ref(&input), 1).unwrap();
        for notation in [MoveNotation::San, MoveNotation::Uci, MoveNotation::Lan] {
            let (mut out, mut errors) = (Vec::new(), Vec::new());
            let summary = convert(&input, notation, &mut out, "out", &mut errors).unwrap();
            assert_eq!(summary, ConvertSummary { games: 4, errors: 0 });
            assert!(errors.is_empty());
            let path = temp_file(&format!("{notation:?}.pgn"), &[]);
            std::fs::write(&path, &out).unwrap();
            let converted = check_report(std::slice::from_ref(&path), 1).unwrap();
            std::fs::remove_file(&path).unwrap();
            assert_eq!(
                (converted.games, converted.plies),
                (original.games, original.plies),
                "{notation:?}"
            );
            assert!(converted.errors.is_empty(), "{notation:?}: {:?}", converted.errors);
        }
        let (mut out, mut errors) = (Vec::new(), Vec::new());
        let bad = shared("pgn-edgecases/pgn-extract-test-infield/vvars.txt");
        let summary = convert(&bad, MoveNotation::Uci, &mut out, "out", &mut errors).unwrap();
        assert_eq!(summary, ConvertSummary { games: 2, errors: 1 });
        assert_eq!(
            String::from_utf8(errors).unwrap(),
            format!("{}:1: illegal move 'Be3'\n", bad.display())
        );
    }

    #[test]
    fn json_report_is_one_object() {
        let report = CheckReport {
            games: 2,
            plies: 7,
            errors: vec!["a.pgn:3: illegal move 'Q\"x'".into()],
            bytes: 10,
        };
        let json = report_json(&report, 0.5, 2);
        assert!(json.starts_with("{\"games\":2,\"plies\":7,\"errors\":1,"), "{json}");
        assert!(
            json.ends_with("\"error_messages\":[\"a.pgn:3: illegal move 'Q\\\"x'\"]}"),
            "{json}"
        );
    }
}
