//! `chessbits pack` and `chessbits unpack`: PGN collections to and from `.cbits` archives.
//!
//! Both stream (a few blocks in memory whatever the file size), write through the output sink
//! (`output.rs`: an output that is an input is refused; a file is written to a temporary file that
//! replaces it only once everything went well; FIFOs and devices are streams), show a progress
//! bar when standard error is a terminal, and end with a one-line summary on standard error.

use std::fs::File;
use std::io::{BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use chessbits::pgn::{PgnReader, SyntaxError, WriteOptions};
use chessbits_archive::{
    ArchiveError, ArchiveReader, ArchiveWriter, MoveCodec, StoredAsText, StoredGame, WriterOptions,
};

use crate::inputs::{expand_inputs_for_output, open_input, progress_bar, read_error, total_len, CountingReader};
use crate::json::Json;
use crate::output::{write_error, Sink};

/// `chessbits pack IN.pgn... -o OUT.cbits`
#[derive(clap::Args, Debug)]
pub struct PackArgs {
    /// The games to pack, in order: PGN files (plain, gzip or zstd) or `.cbits` archives, recognised by content; `-` reads standard input; a directory, every `.pgn`, `.pgn.gz`, `.pgn.zst` and `.cbits` file below it.
    #[arg(required = true)]
    pub inputs: Vec<PathBuf>,
    /// The archive to write (`-` writes standard output).
    #[arg(short, long)]
    pub output: PathBuf,
    /// The move code: `entropy` (range coder with a move model: smallest), `index` (⌈log₂ n⌉ bits
    /// per move) or `index-byte` (a byte per move: fastest).
    #[arg(long, default_value_t = MoveCodec::default())]
    pub codec: MoveCodec,
    /// Threads that encode blocks (0: one per core).
    #[arg(long, default_value_t = 0)]
    pub threads: usize,
    /// Games per block at most.
    #[arg(long, default_value_t = 1000)]
    pub block_games: u32,
    /// zstd level for tags and comments (1 fast ... 19 small).
    #[arg(long, default_value_t = 12, value_parser = clap::value_parser!(i32).range(1..=22))]
    pub level: i32,
    /// Leave out duplicates (same main line, White, Black and date as an earlier game), each
    /// reported as `file:line duplicates file:line` (see `chessbits pgn dedup --help`).
    #[arg(long)]
    pub dedup: bool,
    /// Print the summary as one JSON object (on standard error).
    #[arg(long)]
    pub json: bool,
}

/// `chessbits unpack IN.cbits [-o OUT.pgn] [--game N | --range A..B]`
#[derive(clap::Args, Debug)]
#[command(after_help = "\
Games are numbered from 1, in archive order (the order they were packed in): --game 1 is the
first game; --range 5..8 is games 5, 6, 7 and 8 (both ends included), --range 5.. is game 5 to
the last. Only the blocks holding the games asked for are read.")]
pub struct UnpackArgs {
    /// The archive to read.
    pub input: PathBuf,
    /// The PGN file to write (`-`, the default, writes standard output).
    #[arg(short, long, default_value = "-")]
    pub output: PathBuf,
    /// Only game N (numbered from 1).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..), conflicts_with = "range")]
    pub game: Option<u64>,
    /// Only games A to B, both included, numbered from 1 (`A..B`, or `A..` to the end).
    #[arg(long, value_parser = parse_range)]
    pub range: Option<GameRange>,
    /// Go on past damaged blocks (and a damaged index): write every intact block, report the
    /// others, exit with status 1.
    #[arg(long)]
    pub skip_corrupt: bool,
    /// Threads that decode blocks (0: one per core); not with --game or --range, which read
    /// only the blocks they need, one at a time.
    #[arg(long, default_value_t = 0, conflicts_with_all = ["game", "range"])]
    pub threads: usize,
    /// Write the Seven Tag Roster first, adding `?` for missing ones (export format); by
    /// default every game's tags come back exactly as they were packed, nothing added.
    #[arg(long)]
    pub seven_tag_roster: bool,
    /// Print the summary as one JSON object (on standard error).
    #[arg(long)]
    pub json: bool,
}

/// Games `first..=last`, numbered from 1 (`last` `None`: to the end).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct GameRange {
    pub first: u64,
    pub last: Option<u64>,
}

impl GameRange {
    /// Whether the game at 0-based index `index` is in the range.
    fn contains(&self, index: u64) -> bool {
        let number = index + 1;
        number >= self.first && self.last.is_none_or(|last| number <= last)
    }
}

fn parse_range(text: &str) -> Result<GameRange, String> {
    let bad = || format!("{text}: expected A..B or A.. (game numbers from 1, A <= B)");
    let (a, b) = text.split_once("..").ok_or_else(bad)?;
    let first: u64 = a.trim().parse().map_err(|_| bad())?;
    let last = match b.trim() {
        "" => None,
        b => Some(b.parse::<u64>().map_err(|_| bad())?),
    };
    if first == 0 || last.is_some_and(|last| last < first) {
        return Err(bad());
    }
    Ok(GameRange { first, last })
}

/// `n` and `noun`, plural unless `n` is one: "1 game", "2 games".
fn count(n: u64, noun: &str) -> String {
    format!("{n} {noun}{}", if n == 1 { "" } else { "s" })
}

fn mb_per_second(bytes: u64, start: Instant) -> f64 {
    bytes as f64 / 1e6 / start.elapsed().as_secs_f64().max(1e-9)
}

fn bits_per_move(bytes: u64, moves: u64) -> f64 {
    if moves == 0 {
        0.0
    } else {
        bytes as f64 * 8.0 / moves as f64
    }
}

fn display(path: &Path) -> String {
    if path.as_os_str() == "-" {
        "<stdin>".to_string()
    } else {
        path.display().to_string()
    }
}

/// The name of an output in messages.
fn output_name(path: &Path) -> String {
    if path.as_os_str() == "-" {
        "standard output".to_string()
    } else {
        path.display().to_string()
    }
}

/// The message for a failed write of the archive to `out_name`: a closed pipe (`pack -o - | head`)
/// ends the program quietly with status 0 like every other write to a closed pipe (see
/// [`write_error`]); the library hands the writer's I/O error back unchanged in
/// [`ArchiveError::Io`].
pub(crate) fn archive_write_error(out_name: &str, error: ArchiveError) -> String {
    match error {
        ArchiveError::Io(error) => write_error(out_name, error),
        error => format!("{out_name}: {error}"),
    }
}

/// Runs `chessbits pack`: every game goes into the archive. A game that cannot be stored as
/// moves (it does not parse, has an illegal move, a variant, ...) is stored as its PGN text,
/// byte for byte, and reported as `file:line: reason (stored as text)`. Exit status 0 when every
/// game is in the archive, 1 when a game was too long to keep (reported); a failure to read or
/// write stops everything and leaves the output as it was (status 2).
pub fn run_pack(args: PackArgs) -> Result<ExitCode, String> {
    let start = Instant::now();
    let inputs = expand_inputs_for_output(&args.inputs, &args.output)?;
    let bar = progress_bar(total_len(&inputs), "bytes");
    let options = WriterOptions {
        codec: args.codec,
        threads: args.threads,
        max_games_per_block: args.block_games.max(1),
        zstd_level: args.level,
        ..WriterOptions::default()
    };
    let sink = Sink::create(&args.output, &inputs)?;
    let out_name = output_name(&args.output);
    let mut writer = ArchiveWriter::new(sink, options).map_err(|e| archive_write_error(&out_name, e))?;
    let names: Vec<String> = inputs.iter().map(|path| display(path)).collect();
    let report = |notes: Vec<StoredAsText>| {
        for note in notes {
            let name = &names[note.source as usize];
            bar.suspend(|| eprintln!("{name}:{}: {} (stored as text)", note.line, note.reason));
        }
    };
    let (mut bytes_in, mut lost) = (0u64, 0u64);
    let mut dedup = args.dedup.then(|| crate::dedup::Dedup::new(names.clone()));
    let mut text = Vec::new();
    for (source, path) in inputs.iter().enumerate() {
        let name = &names[source];
        let counting = CountingReader::new(open_input(path, &bar)?);
        let counter = counting.counter();
        let mut reader = PgnReader::new(counting);
        loop {
            let line = reader.line();
            text.clear();
            match reader.read_raw_game(&mut text) {
                Ok(Some(raw)) if raw.too_long => {
                    let error = SyntaxError::GameTooLong;
                    bar.suspend(|| eprintln!("{name}:{}: {error}: not stored", raw.first_line));
                    lost += 1;
                }
                Ok(Some(raw))
                    if dedup
                        .as_mut()
                        .is_some_and(|d| d.is_duplicate_text(&bar, source, &raw, &text)) => {}
                Ok(Some(raw)) => writer
                    .add_pgn(std::mem::take(&mut text), raw, source as u32)
                    .map_err(|e| archive_write_error(&out_name, e))?,
                Ok(None) => break,
                Err(error) => return Err(read_error(name, line, &error)),
            }
            report(writer.take_stored_as_text());
        }
        bytes_in += counter.get();
    }
    writer.flush().map_err(|e| archive_write_error(&out_name, e))?;
    report(writer.take_stored_as_text());
    let (sink, summary) = writer.finish().map_err(|e| archive_write_error(&out_name, e))?;
    sink.commit()?;
    bar.finish_and_clear();
    if args.json {
        let value = Json::obj([
            ("games", Json::from(summary.games)),
            ("games_as_text", Json::from(summary.text_games)),
            ("games_too_long", Json::from(lost)),
            ("blocks", Json::from(summary.blocks)),
            ("pgn_bytes", Json::from(bytes_in)),
            ("archive_bytes", Json::from(summary.bytes)),
            ("bits_per_move", Json::from(summary.bits_per_move())),
        ]);
        let value = match (&dedup, value) {
            (Some(dedup), Json::Obj(mut fields)) => {
                fields.push(("duplicates".to_string(), Json::from(dedup.count)));
                fields.push(("duplicate_games".to_string(), dedup.json()));
                Json::Obj(fields)
            }
            (_, value) => value,
        };
        eprintln!("{value}");
        return Ok(if lost > 0 { ExitCode::from(1) } else { ExitCode::SUCCESS });
    }
    eprintln!(
        "packed {} ({} stored as text{}{}) in {}: {} PGN bytes -> {} archive bytes ({:.1}%), {:.2} bits/move \
         (moves {:.2}), {:.1} MB/s",
        count(summary.games, "game"),
        summary.text_games,
        if lost > 0 {
            format!(", {} too long and not stored", count(lost, "game"))
        } else {
            String::new()
        },
        match &dedup {
            Some(dedup) => format!(", {} left out", count(dedup.count, "duplicate")),
            None => String::new(),
        },
        count(summary.blocks, "block"),
        bytes_in,
        summary.bytes,
        100.0 * summary.bytes as f64 / bytes_in.max(1) as f64,
        summary.bits_per_move(),
        bits_per_move(summary.share_bytes("moves"), summary.mainline_moves),
        mb_per_second(bytes_in, start),
    );
    Ok(if lost > 0 { ExitCode::from(1) } else { ExitCode::SUCCESS })
}

/// Runs `chessbits unpack`: writes every game in the PGN writer's export format. A damaged
/// archive is an error naming the damage, unless `--skip-corrupt`, which writes every intact
/// block, reports the others and exits with status 1.
pub fn run_unpack(args: UnpackArgs) -> Result<ExitCode, String> {
    let start = Instant::now();
    let in_name = args.input.display().to_string();
    let file = File::open(&args.input).map_err(|e| format!("{in_name}: {e}"))?;
    let file = BufReader::with_capacity(1 << 20, file);
    let mut reader = if args.skip_corrupt {
        ArchiveReader::recover(file)
    } else {
        ArchiveReader::open(file)
    }
    .map_err(|e| format!("{in_name}: {e}"))?;
    let problems = reader.problems().len() as u64;
    for problem in reader.problems() {
        eprintln!("{in_name}: {problem}");
    }
    let selection = match (args.game, args.range) {
        (Some(n), _) => Some(GameRange {
            first: n,
            last: Some(n),
        }),
        (None, range) => range,
    };
    if let Some(range) = selection {
        let count = reader.game_count();
        if range.first > count {
            return Err(format!(
                "{in_name}: game {} asked for, the archive has {}",
                range.first,
                self::count(count, "game")
            ));
        }
    }
    let bar = progress_bar(Some(reader.block_infos().len() as u64), "blocks");
    let archive_bytes = reader.file_len();
    let mut sink = Sink::create(&args.output, std::slice::from_ref(&args.input))?;
    let (mut games, mut moves, mut bytes_out) = (0u64, 0u64, 0u64);
    let (mut bad_blocks, mut lost_games) = (0u64, 0u64);
    let mut text = Vec::new();
    let options = WriteOptions {
        seven_tag_roster: args.seven_tag_roster,
        ..WriteOptions::default()
    };
    let wanted = |info: &chessbits_archive::BlockInfo| match selection {
        None => true,
        Some(range) => {
            let last_game = info.first_game + u64::from(info.game_count);
            (info.first_game..last_game).any(|i| range.contains(i))
        }
    };
    let mut visit = |info: chessbits_archive::BlockInfo, block: Result<Vec<StoredGame>, ArchiveError>| {
        match block {
            Ok(block) => {
                for (i, game) in block.into_iter().enumerate() {
                    if selection.is_some_and(|range| !range.contains(info.first_game + i as u64)) {
                        continue;
                    }
                    text.clear();
                    // Writing to a Vec cannot fail.
                    let _ = game.write_pgn(&mut text, &options);
                    sink.write_all(&text).map_err(|e| sink.error(e))?;
                    games += 1;
                    if let StoredGame::Game(game) = &game {
                        moves += game.moves.nodes.len() as u64;
                    }
                    bytes_out += text.len() as u64;
                }
            }
            Err(error) if args.skip_corrupt => {
                // Numbered from 1, as --game and --range number them.
                let (first, last) = (info.first_game + 1, info.first_game + u64::from(info.game_count));
                bar.suspend(|| {
                    eprintln!("{in_name}: {error}; games {first} to {last} skipped");
                });
                bad_blocks += 1;
                lost_games += u64::from(info.game_count);
            }
            Err(error) => return Err(format!("{in_name}: {error} (--skip-corrupt recovers the other blocks)")),
        }
        bar.inc(1);
        Ok::<(), String>(())
    };
    match selection {
        None => reader.decode_blocks(args.threads, visit)?,
        Some(_) => {
            for (i, info) in reader.block_infos().into_iter().enumerate() {
                if wanted(&info) {
                    let block = reader.read_block(i).and_then(|raw| raw.decode());
                    visit(info, block)?;
                } else {
                    bar.inc(1);
                }
            }
        }
    }
    sink.commit()?;
    bar.finish_and_clear();
    let damaged = bad_blocks + problems > 0;
    if args.json {
        let value = Json::obj([
            ("games", Json::from(games)),
            ("pgn_bytes", Json::from(bytes_out)),
            ("archive_bytes", Json::from(archive_bytes)),
            ("damaged_blocks", Json::from(bad_blocks)),
            ("games_lost", Json::from(lost_games)),
            ("other_problems", Json::from(problems)),
        ]);
        eprintln!("{value}");
        return Ok(if damaged { ExitCode::from(1) } else { ExitCode::SUCCESS });
    }
    let lost = if damaged {
        format!(
            " ({} with {} skipped, {})",
            count(bad_blocks, "damaged block"),
            count(lost_games, "game"),
            count(problems, "other problem")
        )
    } else {
        String::new()
    };
    if selection.is_some() {
        eprintln!("unpacked {}{lost}: {bytes_out} PGN bytes", count(games, "game"));
        return Ok(if damaged { ExitCode::from(1) } else { ExitCode::SUCCESS });
    }
    eprintln!(
        "unpacked {games} games{lost}: {archive_bytes} archive bytes -> {bytes_out} PGN bytes, {:.2} bits/move, {:.1} MB/s",
        bits_per_move(archive_bytes, moves),
        mb_per_second(bytes_out, start),
    );
    Ok(if damaged { ExitCode::from(1) } else { ExitCode::SUCCESS })
}
