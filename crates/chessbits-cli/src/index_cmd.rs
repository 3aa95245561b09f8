//! `chessbits index build|add|info|seal`: the position index (crate `chessbits-index`). `explore` and `search` query it (explore_cmd.rs, search_cmd.rs).

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Subcommand};

use crate::output::say;

/// `chessbits index ...`
#[derive(Args, Debug)]
pub struct IndexArgs {
    #[command(subcommand)]
    pub command: IndexCommand,
}

#[derive(Subcommand, Debug)]
pub enum IndexCommand {
    /// Build a position index from PGN files, `.cbits` archives or Parquet exports: an opening
    /// explorer and exact position search.
    Build(BuildArgs),
    /// Add the games of more PGN files, archives or exports to an index, without rebuilding it (atomic: until it
    /// finishes, and if it is interrupted, the index answers as before).
    Add(AddArgs),
    /// Describe an index: games, rows, files, sizes (and check every file with --verify).
    Info(InfoArgs),
    /// Make a directory of tables written by another tool (the Spark job
    /// examples/spark/build_index.py) from a Parquet export an index.
    Seal(SealArgs),
}

/// `chessbits index build IN... -o INDEX`
#[derive(Args, Debug)]
#[command(after_help = "\
Writes the directory INDEX: manifest.json and the Parquet tables explorer/, positions/, games/ and
sources/ (their columns: the chessbits-index crate's documentation). The build works in a temporary
directory beside INDEX, renamed into place when complete. Games that cannot be read are reported
(file:line: reason), not indexed, and make the exit status 1 (a row of a Parquet export keeps its
game number and has no positions).

Inputs: PGN text; .cbits archives (search --pgn prints a game as `chessbits unpack` writes it);
Parquet export directories from `chessbits export` (one source per part file, in path order;
search --pgn prints a game rebuilt from its row: its tags, then its movetext).")]
pub struct BuildArgs {
    /// PGN files (plain, gzip or zstd), `.cbits` archives (known by their first bytes), or
    /// Parquet export directories (`chessbits export`: a directory with `*.parquet` files and no
    /// PGN); another directory: every `.pgn`, `.pgn.gz`, `.pgn.zst` and `.cbits` file below it;
    /// `-` reads standard input, whose games `search --pgn` cannot print later.
    #[arg(required = true)]
    pub inputs: Vec<PathBuf>,
    /// The index directory to write (must not exist, or be empty, unless --force).
    #[arg(short, long)]
    pub output: PathBuf,
    /// Threads that parse, replay and sort (0: one per core).
    #[arg(long, default_value_t = 0)]
    pub threads: usize,
    /// MiB of records held in memory before a sorted run is written to disk.
    #[arg(long, default_value_t = 1024, value_parser = clap::value_parser!(u64).range(1..=1 << 20))]
    pub memory: u64,
    /// Replace what stands at the output path (once the new index is complete).
    #[arg(long)]
    pub force: bool,
    /// Print the summary as one JSON object on standard output.
    #[arg(long)]
    pub json: bool,
}

/// `chessbits index add INDEX IN...`
#[derive(Args, Debug)]
#[command(after_help = "\
The new games get the next numbers and go into new files of each table (part-NNNNN.parquet);
nothing of the index is rewritten. The index changes when its manifest is replaced, at the end:
a query running meanwhile sees it before or after the add, and an add that is killed leaves it as
it was (the next add removes its leftovers). One add runs at a time (a lock on INDEX/.lock).")]
pub struct AddArgs {
    /// The index directory.
    pub index: PathBuf,
    /// PGN files, `.cbits` archives or Parquet export directories, as for `index build`.
    #[arg(required = true)]
    pub inputs: Vec<PathBuf>,
    /// Threads that parse, replay and sort (0: one per core).
    #[arg(long, default_value_t = 0)]
    pub threads: usize,
    /// MiB of records held in memory before a sorted run is written to disk.
    #[arg(long, default_value_t = 1024, value_parser = clap::value_parser!(u64).range(1..=1 << 20))]
    pub memory: u64,
    /// Print the summary as one JSON object on standard output.
    #[arg(long)]
    pub json: bool,
}

/// `chessbits index info INDEX`
#[derive(Args, Debug)]
pub struct InfoArgs {
    /// The index directory.
    pub index: PathBuf,
    /// Read every file and check its CRC-32 against the manifest.
    #[arg(long)]
    pub verify: bool,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
}

/// `chessbits index seal DIR --export EXPORT`
#[derive(Args, Debug)]
#[command(after_help = "\
DIR holds explorer/, positions/ and games/, Parquet files with exactly the index's columns and types,
computed from the Parquet export EXPORT (game numbers: the export's part files in path order, every
row a game). Every file is checked (columns and types, sort order, games numbered without gaps);
then the files are renamed to part-NNNNN.parquet, their footers stamped with the format version,
and top_games/, explorer_summary/, sources/, the page checksums and manifest.json written. On an error nothing changes
(exit status 2).")]
pub struct SealArgs {
    /// The directory of tables.
    pub dir: PathBuf,
    /// The Parquet export (`chessbits export`) the tables were computed from.
    #[arg(long)]
    pub export: PathBuf,
}

pub fn run(args: IndexArgs) -> Result<ExitCode, String> {
    match args.command {
        IndexCommand::Build(args) => build(args),
        IndexCommand::Add(args) => add(args),
        IndexCommand::Info(args) => info(args),
        IndexCommand::Seal(args) => seal(args),
    }
}

fn seal(args: SealArgs) -> Result<ExitCode, String> {
    let summary = chessbits_index::seal(&args.dir, &args.export).map_err(|e| format!("index seal: {e}"))?;
    let rows: Vec<String> = summary.rows.iter().map(|(t, n)| format!("{t} {n}")).collect();
    eprintln!(
        "sealed {}: {} games, {} files, {} bytes ({})",
        args.dir.display(),
        summary.games,
        summary.files,
        summary.bytes,
        rows.join(", ")
    );
    Ok(ExitCode::SUCCESS)
}

fn build(args: BuildArgs) -> Result<ExitCode, String> {
    let options = chessbits_index::BuildOptions {
        threads: args.threads,
        memory: (args.memory as usize).saturating_mul(1 << 20),
        force: args.force,
    };
    index_games(&args.inputs, &args.output, options, false, args.json)
}

fn add(args: AddArgs) -> Result<ExitCode, String> {
    let options = chessbits_index::BuildOptions {
        threads: args.threads,
        memory: (args.memory as usize).saturating_mul(1 << 20),
        force: false,
    };
    index_games(&args.inputs, &args.index, options, true, args.json)
}

/// Builds the index `output` from `inputs`, or adds them to it (`append`).
fn index_games(
    inputs: &[PathBuf],
    output: &std::path::Path,
    options: chessbits_index::BuildOptions,
    append: bool,
    json: bool,
) -> Result<ExitCode, String> {
    use std::time::Instant;

    use chessbits_index::{IndexBuilder, SourceInfo};

    use crate::inputs::{open_input, progress_bar, total_len};
    use crate::json::Json;

    let start = Instant::now();
    let inputs = classify_inputs(inputs)?;
    let out_name = output.display().to_string();
    let files: Vec<PathBuf> = inputs.iter().flat_map(|input| input.files()).collect();
    crate::inputs::refuse_output_holding_inputs(output, &files)?;
    let mut builder = match append {
        true => IndexBuilder::append(output, options),
        false => IndexBuilder::create(output, options),
    }
    .map_err(|e| e.to_string())?;
    let _guard = crate::output::TempDirGuard::new(builder.temp_dir());
    let bar = progress_bar(total_len(&files), "bytes");
    for input in &inputs {
        // The bar follows the bytes an archive or export reports as read.
        let mut shown = 0u64;
        let mut progress = |read: u64| {
            bar.inc(read.saturating_sub(shown));
            shown = shown.max(read);
        };
        match input {
            Input::Pgn(path) => {
                let info = match path.as_os_str() == "-" {
                    true => SourceInfo::named("-"),
                    false => SourceInfo::of_file(path).map_err(|e| e.to_string())?,
                };
                builder.add_reader(open_input(path, &bar)?, info)
            }
            Input::Archive(path) => builder.add_archive(path, &mut progress),
            Input::Export(dir, _) => builder.add_export(dir, &mut progress),
        }
        .map_err(|e| e.to_string())?;
    }
    let summary = builder.finish().map_err(|e| e.to_string())?;
    bar.finish_and_clear();
    for message in &summary.error_messages {
        eprintln!("{message}");
    }
    if summary.errors > summary.error_messages.len() as u64 {
        eprintln!(
            "... {} more games not read",
            summary.errors - summary.error_messages.len() as u64
        );
    }
    let seconds = start.elapsed().as_secs_f64().max(1e-9);
    let per_game = |bytes: u64| match summary.games {
        0 => 0.0,
        games => bytes as f64 / games as f64,
    };
    if json {
        let value = Json::obj([
            ("games", Json::from(summary.games)),
            ("errors", Json::from(summary.errors)),
            ("positions", Json::from(summary.positions)),
            ("explorer_rows", Json::from(summary.explorer_rows)),
            ("bytes", Json::from(summary.bytes)),
            ("bytes_per_game", Json::from(per_game(summary.bytes))),
            ("seconds", Json::from(seconds)),
            (
                "phases",
                Json::obj(
                    summary
                        .seconds
                        .iter()
                        .map(|(phase, s)| (phase.to_string(), Json::from(*s))),
                ),
            ),
            ("games_per_second", Json::from(summary.games as f64 / seconds)),
        ]);
        say!("{value}");
    } else {
        eprintln!(
            "{} {} games ({} positions, {} explorer rows{}) into {out_name}: {} bytes ({:.0} per game), {:.1}s, {:.0} games/s",
            if append { "added" } else { "indexed" },
            summary.games,
            summary.positions,
            summary.explorer_rows,
            match summary.errors {
                0 => String::new(),
                n => format!(", {n} games not read"),
            },
            summary.bytes,
            per_game(summary.bytes),
            seconds,
            summary.games as f64 / seconds,
        );
    }
    Ok(match summary.errors {
        0 => ExitCode::SUCCESS,
        _ => ExitCode::from(1),
    })
}

/// An input of `index build|add`, by what its content is.
enum Input {
    /// PGN text (plain, gzip, zstd) or standard input.
    Pgn(PathBuf),
    /// A `.cbits` archive (its first bytes are the archive's magic).
    Archive(PathBuf),
    /// A Parquet export directory, and its part files.
    Export(PathBuf, Vec<PathBuf>),
}

impl Input {
    /// The files it reads.
    fn files(&self) -> Vec<PathBuf> {
        match self {
            Input::Pgn(path) | Input::Archive(path) => vec![path.clone()],
            Input::Export(_, parts) => parts.clone(),
        }
    }
}

/// The inputs in the order given: a directory that holds `*.parquet` files and no PGN file is a
/// Parquet export; any other directory stands for the PGN files and archives below it; a file
/// that starts with the archive's magic bytes is an archive (whatever its name), any other file
/// PGN. An archive that is compressed (gzip, zstd) is refused: its games could not be read back
/// by number.
fn classify_inputs(paths: &[PathBuf]) -> Result<Vec<Input>, String> {
    use chessbits_index::build::{is_export_dir, InputKind};
    use chessbits_index::export_parts;

    let mut inputs = Vec::new();
    for path in paths {
        if path.as_os_str() != "-" && is_export_dir(path) {
            let parts = export_parts(path).map_err(|e| e.to_string())?;
            let files = parts.iter().map(|p| PathBuf::from(&p.info.path)).collect();
            inputs.push(Input::Export(path.clone(), files));
            continue;
        }
        for file in crate::inputs::expand_inputs(std::slice::from_ref(path))? {
            if file.as_os_str() == "-" {
                inputs.push(Input::Pgn(file));
                continue;
            }
            // A directory's files are never export directories: is_export_dir is false there.
            match InputKind::of(&file).map_err(|e| e.to_string())? {
                InputKind::Archive => inputs.push(Input::Archive(file)),
                InputKind::Pgn | InputKind::Export => inputs.push(Input::Pgn(file)),
            }
        }
    }
    Ok(inputs)
}

fn info(args: InfoArgs) -> Result<ExitCode, String> {
    use chessbits_index::manifest::TABLES;
    use chessbits_index::Index;

    use crate::json::Json;

    let index = Index::open(&args.index).map_err(|e| e.to_string())?;
    if args.verify {
        index.verify().map_err(|e| e.to_string())?;
    }
    let manifest = index.manifest();
    let total: u64 = manifest.tables.iter().flatten().map(|f| f.bytes).sum();
    if args.json {
        let tables = TABLES.iter().map(|table| {
            let files = manifest.files(table);
            let value = Json::obj([
                ("files", Json::from(files.len())),
                ("rows", Json::from(files.iter().map(|f| f.rows).sum::<u64>())),
                ("bytes", Json::from(files.iter().map(|f| f.bytes).sum::<u64>())),
            ]);
            (table.to_string(), value)
        });
        let sources = index.sources().iter().map(|s| {
            Json::obj([
                ("path", Json::from(s.path.as_str())),
                ("bytes", Json::from(s.bytes)),
                ("games", Json::from(s.games)),
            ])
        });
        let value = Json::obj([
            ("games", Json::from(index.games())),
            ("bytes", Json::from(total)),
            ("verified", Json::from(args.verify)),
            ("tables", Json::obj(tables)),
            ("sources", Json::Arr(sources.collect())),
            ("created_by", Json::from(manifest.created_by.as_str())),
        ]);
        say!("{value}");
        return Ok(ExitCode::SUCCESS);
    }
    say!("index      {}", args.index.display());
    say!("games      {}", index.games());
    let per_game = |bytes: u64| bytes as f64 / index.games().max(1) as f64;
    say!("bytes      {total} ({:.0} per game)", per_game(total));
    for table in TABLES {
        let files = manifest.files(table);
        let bytes: u64 = files.iter().map(|f| f.bytes).sum();
        let rows: u64 = files.iter().map(|f| f.rows).sum();
        say!(
            "{table:<10} {rows} rows, {} file(s), {bytes} bytes ({:.0} per game)",
            files.len(),
            per_game(bytes)
        );
    }
    for source in index.sources() {
        say!("source     {} ({} games)", source.path, source.games);
    }
    if args.verify {
        say!("verified   every file matches its checksum");
    }
    Ok(ExitCode::SUCCESS)
}
