//! `chessbits pgn check` and `chessbits pgn convert`: validate and rewrite PGN files.
//!
//! `check` replays every move of every game (variations included) and reports the games, the
//! main-line moves replayed, and each rejected game as `file:line: reason`. With several threads
//! one thread cuts the input into games ([`PgnReader::read_raw_game`]: exactly where the stream
//! reader ends them) and workers replay them, each game read back with its own line numbers, so
//! the report is the same whatever the thread count.

use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::mpsc;
use std::time::Instant;

use chessbits::pgn::{
    GameError, GameSummary, MoveNotation, PgnError, PgnReader, RawGame, SyntaxError, Validator, WriteOptions,
};
use indicatif::ProgressBar;

use crate::inputs::{archive_damage, expand_inputs, open_input, progress_bar, read_error, total_len, CountingReader};
use crate::json::json_string;
use crate::output::{write_error, Sink};

/// `chessbits pgn ...`
#[derive(clap::Args)]
pub struct PgnArgs {
    #[command(subcommand)]
    command: PgnCommand,
}

#[derive(clap::Subcommand)]
enum PgnCommand {
    /// Count results, lengths, players, openings, ECO codes and terminations of the games.
    Stats(crate::pgn_stats_cmd::StatsArgs),
    /// Write the games that match conditions, as their input text or packed.
    Filter(Box<crate::filter_cmd::FilterArgs>),
    /// Write every game once: duplicates (same moves, players and date) left out and reported.
    Dedup(crate::dedup_cmd::DedupArgs),
    /// One line per position of each game's main line (FEN or EPD, with move and result).
    Positions(crate::positions_cmd::PositionsArgs),
    /// Validate every move of every game; print counts, errors (`file:line: reason`), speed.
    Check {
        /// PGN files (plain, gzip or zstd) or `.cbits` archives, recognised by content; `-` reads standard input; a directory, every `.pgn`, `.pgn.gz`, `.pgn.zst` and `.cbits` file below it.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Print one JSON object instead of text.
        #[arg(long)]
        json: bool,
        /// Worker threads (0: all cores).
        #[arg(long, default_value_t = 0)]
        threads: usize,
    },
    /// Rewrite the games of files in export format, moves in the chosen notation.
    Convert {
        /// PGN files (plain, gzip or zstd) or `.cbits` archives, recognised by content; `-` reads standard input; a directory, every `.pgn`, `.pgn.gz`, `.pgn.zst` and `.cbits` file below it.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Move notation of the output.
        #[arg(long, value_enum, default_value = "san")]
        to: Notation,
        /// Output file (standard output if omitted).
        #[arg(short, long)]
        output: Option<PathBuf>,
        /// Write the Seven Tag Roster first, adding `?` for missing ones (export format); by
        /// default the tags are written as they are, nothing added.
        #[arg(long)]
        seven_tag_roster: bool,
        /// Print a summary (games written, errors) as one JSON object on standard error.
        #[arg(long)]
        json: bool,
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
        PgnCommand::Stats(args) => crate::pgn_stats_cmd::run(args),
        PgnCommand::Filter(args) => crate::filter_cmd::run(*args),
        PgnCommand::Dedup(args) => crate::dedup_cmd::run(args),
        PgnCommand::Positions(args) => crate::positions_cmd::run(args),
        PgnCommand::Check { files, json, threads } => check(&files, json, threads),
        PgnCommand::Convert {
            files,
            to,
            output,
            seven_tag_roster,
            json,
        } => {
            let output = output.unwrap_or_else(|| PathBuf::from("-"));
            let files = expand_inputs(&files)?;
            let mut sink = Sink::create(&output, &files)?;
            let out_name = match output.as_os_str() == "-" {
                true => "standard output".to_string(),
                false => output.display().to_string(),
            };
            let options = WriteOptions {
                notation: to.into(),
                seven_tag_roster,
                ..WriteOptions::default()
            };
            let mut summary = ConvertSummary::default();
            for file in &files {
                let part = convert(file, &options, &mut sink, &out_name, &mut io::stderr())?;
                summary.games += part.games;
                summary.errors += part.errors;
            }
            sink.commit()?;
            if json {
                let value = crate::json::Json::obj([
                    ("games", crate::json::Json::from(summary.games)),
                    ("errors", crate::json::Json::from(summary.errors)),
                ]);
                eprintln!("{value}");
            }
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
/// every game is valid, 1 if some are not; an error (status 2) for a file that cannot be
/// opened. `threads == 0` uses all cores.
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
    // Each rejected game on standard error, as every command reports bad input (the text
    // summary or the JSON report, which lists them too, on standard output).
    let mut err = io::stderr().lock();
    for error in &report.errors {
        let _ = writeln!(err, "{error}");
    }
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
        // A file that cannot be opened is an I/O error (status 2, on standard error), as in every
        // other command; damage found while reading is reported with the games (status 1).
        let input = open_input(path, bar)?;
        let file_report = match threads {
            0 | 1 => check_stream(input, &name),
            _ => check_parallel(input, &name, threads),
        };
        report.games += file_report.games;
        report.plies += file_report.plies;
        report.bytes += file_report.bytes;
        report.errors.extend(file_report.errors);
    }
    Ok(report)
}

/// Adds one game's outcome to `report`.
fn tally(report: &mut CheckReport, name: &str, result: Result<GameSummary, GameError>) {
    report.games += 1;
    match result {
        Ok(summary) => report.plies += u64::from(summary.plies),
        Err(error) => report.errors.push(format!("{name}:{}: {}", error.line, error.kind)),
    }
}

/// What a read error in the middle of a file adds to the report: the games before it were
/// checked, the one being read when it struck is lost. `line` is where the reader stood after
/// the last whole game, the same whatever the thread count.
fn read_failure(report: &mut CheckReport, name: &str, line: u32, error: &io::Error) {
    let before = match archive_damage(error) {
        Some(_) => "the block",
        None => "this line",
    };
    let message = read_error(name, line, error);
    report
        .errors
        .push(format!("{message} (the games before {before} were checked)"));
}

/// Checks one stream in this thread.
fn check_stream<R: Read>(input: R, name: &str) -> CheckReport {
    let input = CountingReader::new(input);
    let bytes = input.counter();
    let mut reader = PgnReader::new(input);
    let mut validator = Validator::new();
    let mut report = CheckReport::default();
    loop {
        let line = reader.line();
        match reader.read_game(&mut validator) {
            Ok(Some(result)) => tally(&mut report, name, result),
            Ok(None) => break,
            Err(error) => {
                read_failure(&mut report, name, line, &error);
                break;
            }
        }
    }
    report.bytes = bytes.get();
    report
}

/// Bytes of games handed to a worker at a time.
const BATCH_BYTES: usize = 1 << 18;

/// Games cut out of the input for a worker: their bytes back to back, and where each stands.
#[derive(Default)]
struct Batch {
    bytes: Vec<u8>,
    games: Vec<(RawGame, std::ops::Range<usize>)>,
}

/// Checks the games of a batch, each read back as the stream reader would have read it.
fn check_batch(batch: &Batch, name: &str) -> CheckReport {
    let mut validator = Validator::new();
    let mut report = CheckReport::default();
    for (raw, range) in &batch.games {
        if raw.too_long {
            report.games += 1;
            let error = SyntaxError::GameTooLong;
            report.errors.push(format!("{name}:{}: {error}", raw.first_line));
            continue;
        }
        // Reading from memory cannot fail.
        let mut reader = raw.reader(&batch.bytes[range.clone()]);
        while let Ok(Some(result)) = reader.read_game(&mut validator) {
            tally(&mut report, name, result);
        }
    }
    report
}

/// Checks one stream with `threads` workers. This thread cuts the input into games (finding
/// where each ends costs little next to replaying its moves) and hands them out in batches;
/// the reports are put back in input order. Each game is cut where the stream reader would end
/// it and read back with its line numbers, so the report is the one [`check_stream`] gives.
/// Memory: a few batches per worker, and at most one game of up to `MAX_GAME_BYTES`.
fn check_parallel(input: Box<dyn Read>, name: &str, threads: usize) -> CheckReport {
    let (batch_tx, batch_rx) = mpsc::sync_channel::<(usize, Batch)>(threads * 2);
    let batch_rx = std::sync::Mutex::new(batch_rx);
    let (result_tx, result_rx) = mpsc::channel::<(usize, CheckReport)>();
    std::thread::scope(|scope| {
        for _ in 0..threads {
            let (batch_rx, result_tx) = (&batch_rx, result_tx.clone());
            scope.spawn(move || loop {
                let next = batch_rx.lock().map(|rx| rx.recv());
                let Ok(Ok((index, batch))) = next else {
                    return;
                };
                if result_tx.send((index, check_batch(&batch, name))).is_err() {
                    return;
                }
            });
        }
        drop(result_tx);
        let input = CountingReader::new(input);
        let bytes = input.counter();
        let mut reader = PgnReader::new(input);
        let mut batch = Batch::default();
        let mut index = 0;
        let mut failure = None;
        loop {
            let line = reader.line();
            let start = batch.bytes.len();
            match reader.read_raw_game(&mut batch.bytes) {
                Ok(Some(raw)) => batch.games.push((raw, start..batch.bytes.len())),
                Ok(None) => break,
                Err(error) => {
                    batch.bytes.truncate(start);
                    failure = Some((line, error));
                    break;
                }
            }
            if batch.bytes.len() >= BATCH_BYTES {
                if batch_tx.send((index, std::mem::take(&mut batch))).is_err() {
                    break;
                }
                index += 1;
            }
        }
        if !batch.games.is_empty() && batch_tx.send((index, batch)).is_ok() {
            index += 1;
        }
        drop(batch_tx);
        let mut results: Vec<(usize, CheckReport)> = result_rx.iter().collect();
        results.sort_by_key(|(index, _)| *index);
        debug_assert_eq!(results.len(), index);
        let mut report = CheckReport::default();
        for (_, part) in results {
            report.games += part.games;
            report.plies += part.plies;
            report.errors.extend(part.errors);
        }
        if let Some((line, error)) = failure {
            read_failure(&mut report, name, line, &error);
        }
        report.bytes = bytes.get();
        report
    })
}

/// What `convert` did.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct ConvertSummary {
    /// Games written.
    pub games: u64,
    /// Games skipped for an error (each reported as `file:line: reason`).
    pub errors: u64,
}

/// `chessbits pgn convert FILE... --to san|uci|lan`, for one input: writes every valid game of `file` to `out`
/// (named `out_name` in messages) in export format with moves in `notation`; each invalid game
/// is skipped and reported to `errors` as `file:line: reason`.
pub fn convert(
    file: &Path,
    options: &WriteOptions,
    out: &mut dyn Write,
    out_name: &str,
    errors: &mut dyn Write,
) -> Result<ConvertSummary, String> {
    if crate::inputs::is_export_input(file) {
        // The games rebuilt on every core, most of them not read back: see the module.
        return crate::convert_export::convert_export(file, options, out, out_name, errors);
    }
    let name = file.display().to_string();
    let mut summary = ConvertSummary::default();
    for game in PgnReader::new(open_input(file, &ProgressBar::hidden())?).into_games() {
        match game {
            Ok(game) => {
                game.write_pgn(out, options).map_err(|e| write_error(out_name, e))?;
                summary.games += 1;
            }
            Err(PgnError::Game(error)) => {
                writeln!(errors, "{name}:{}: {}", error.line, error.kind).map_err(|e| format!("stderr: {e}"))?;
                summary.errors += 1;
            }
            Err(e) => return Err(format!("{name}: {e}")),
        }
    }
    out.flush().map_err(|e| write_error(out_name, e))?;
    Ok(summary)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A file of the bundled test data, `testdata/` at the repository root (see its README).
    fn testdata(relative: &str) -> PathBuf {
        Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../../testdata")).join(relative)
    }

    /// Games in the bundled prefixes (`grep -c '^\[Event '`).
    const TWIC0920_GAMES: u64 = 100;
    const LICHESS_GAMES: u64 = 120;

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
    fn short_inputs_get_no_progress_bar() {
        let path = testdata("pgn/notnil_Carlsen.pgn");
        assert!(std::fs::metadata(&path).unwrap().len() < PROGRESS_MIN_BYTES);
        assert!(progress(&[path]).is_hidden());
    }

    #[test]
    fn compressed_files_check_like_the_plain_file() {
        use std::io::Write;
        let plain = testdata("pgn/shakmaty_lichess_db_1000k.pgn");
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
            assert!(expected.games == LICHESS_GAMES && expected.errors.is_empty());
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
    fn directories_are_read_and_an_unreadable_file_is_an_error() {
        let files = expand_inputs(&[testdata("pgn")]).unwrap();
        assert!(files.len() > 5, "{files:?}");
        let report = check_report(&files, 2).unwrap();
        // Every file of the directory was read: the games add up to those of each file alone.
        let each: u64 = files
            .iter()
            .map(|file| check_report(std::slice::from_ref(file), 1).unwrap().games)
            .sum();
        assert!(files.contains(&testdata("pgn/notnil_Carlsen.pgn")));
        assert_eq!(report.games, each);
        let missing = testdata("pgn/no-such-file.pgn");
        let error = check_report(&[files[0].clone(), missing.clone()], 2).unwrap_err();
        assert!(error.starts_with(&format!("{}: ", missing.display())), "{error}");
    }

    #[test]
    fn thread_count_changes_nothing_but_speed() {
        let mut parts = vec![testdata("pgn/notnil_twic0920.pgn")];
        for name in ["test-r.txt", "nested-comment.pgn", "vvars.txt"] {
            parts.push(testdata(&format!("pgn-edgecases/pgn-extract-test-infield/{name}")));
        }
        parts.push(testdata("pgn/python-chess-tests/antichess-programfox.pgn"));
        parts.push(testdata("pgn/shakmaty_lichess_db_1000k.pgn"));
        parts.push(testdata("pgn/python-chess-tests/saturs-jannlee-zh-lichess.pgn"));
        let path = temp_file("mixed.pgn", &parts);
        let single = check_report(std::slice::from_ref(&path), 1).unwrap();
        let parallel = check_report(std::slice::from_ref(&path), 3).unwrap();
        std::fs::remove_file(&path).unwrap();
        assert_eq!(single, parallel);
        assert_eq!(single.games, TWIC0920_GAMES + 1 + 1 + 3 + 2 + LICHESS_GAMES + 1);
        assert_eq!(single.errors.len(), 6);
        // The first error is right after the first file (its games, then two blank lines).
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
        let input = testdata("pgn/python-chess-tests/cutechess-fischerrandom.pgn");
        let original = check_report(std::slice::from_ref(&input), 1).unwrap();
        for notation in [MoveNotation::San, MoveNotation::Uci, MoveNotation::Lan] {
            let (mut out, mut errors) = (Vec::new(), Vec::new());
            let options = WriteOptions {
                notation,
                ..WriteOptions::default()
            };
            let summary = convert(&input, &options, &mut out, "out", &mut errors).unwrap();
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
        let bad = testdata("pgn-edgecases/pgn-extract-test-infield/vvars.txt");
        let options = WriteOptions {
            notation: MoveNotation::Uci,
            ..WriteOptions::default()
        };
        let summary = convert(&bad, &options, &mut out, "out", &mut errors).unwrap();
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
