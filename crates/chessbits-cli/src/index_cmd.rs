//! `chessbits index build|info`: the position index (crate `chessbits-index`, behind the cargo
//! feature `parquet`). `explore` and `search` query it (explore_cmd.rs, search_cmd.rs).

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Subcommand};

/// Needs the feature: the message when it is missing.
#[cfg(not(feature = "parquet"))]
pub const NO_INDEX: &str = "this chessbits was built without the position index; build it with \
     `cargo build --release -p chessbits-cli --features parquet`";

/// `chessbits index ...`
#[derive(Args, Debug)]
pub struct IndexArgs {
    #[command(subcommand)]
    pub command: IndexCommand,
}

#[derive(Subcommand, Debug)]
pub enum IndexCommand {
    /// Build a position index from PGN files: an opening explorer and exact position search.
    Build(BuildArgs),
    /// Add the games of more PGN files to an index, without rebuilding it (atomic: until it
    /// finishes, and if it is interrupted, the index answers as before).
    Add(AddArgs),
    /// Describe an index: games, rows, files, sizes (and check every file with --verify).
    Info(InfoArgs),
}

/// `chessbits index build IN... -o INDEX`
#[derive(Args, Debug)]
#[command(after_help = "\
Writes the directory INDEX: manifest.json and the Parquet tables explorer/, positions/, games/ and
sources/ (their columns: the chessbits-index crate's documentation). The build works in a temporary
directory beside INDEX, renamed into place when complete. Games that cannot be read are reported
(file:line: reason), not indexed, and make the exit status 1.

Needs the cargo feature `parquet`: cargo build --release -p chessbits-cli --features parquet")]
pub struct BuildArgs {
    /// PGN files, plain, gzip or zstd (a directory: every `.pgn`, `.pgn.gz` and `.pgn.zst` file
    /// below it; `-` reads standard input, whose games `search --pgn` cannot print later).
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
    /// PGN files, plain, gzip or zstd (a directory: every PGN file below it; `-`: standard input).
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

pub fn run(args: IndexArgs) -> Result<ExitCode, String> {
    match args.command {
        IndexCommand::Build(args) => build(args),
        IndexCommand::Add(args) => add(args),
        IndexCommand::Info(args) => info(args),
    }
}

#[cfg(not(feature = "parquet"))]
fn build(_: BuildArgs) -> Result<ExitCode, String> {
    Err(format!("index build: {NO_INDEX}"))
}

#[cfg(not(feature = "parquet"))]
fn add(_: AddArgs) -> Result<ExitCode, String> {
    Err(format!("index add: {NO_INDEX}"))
}

#[cfg(not(feature = "parquet"))]
fn info(_: InfoArgs) -> Result<ExitCode, String> {
    Err(format!("index info: {NO_INDEX}"))
}

#[cfg(feature = "parquet")]
fn build(args: BuildArgs) -> Result<ExitCode, String> {
    let options = chessbits_index::BuildOptions {
        threads: args.threads,
        memory: (args.memory as usize).saturating_mul(1 << 20),
        force: args.force,
    };
    index_games(&args.inputs, &args.output, options, false, args.json)
}

#[cfg(feature = "parquet")]
fn add(args: AddArgs) -> Result<ExitCode, String> {
    let options = chessbits_index::BuildOptions {
        threads: args.threads,
        memory: (args.memory as usize).saturating_mul(1 << 20),
        force: false,
    };
    index_games(&args.inputs, &args.index, options, true, args.json)
}

/// Builds the index `output` from `inputs`, or adds them to it (`append`).
#[cfg(feature = "parquet")]
fn index_games(
    inputs: &[PathBuf],
    output: &std::path::Path,
    options: chessbits_index::BuildOptions,
    append: bool,
    json: bool,
) -> Result<ExitCode, String> {
    use std::time::Instant;

    use chessbits_index::{IndexBuilder, SourceInfo};

    use crate::inputs::{expand_inputs, open_input, progress_bar, total_len};
    use crate::json::Json;

    let start = Instant::now();
    let inputs = expand_inputs(inputs)?;
    let out_name = output.display().to_string();
    crate::inputs::refuse_output_holding_inputs(output, &inputs)?;
    let mut builder = match append {
        true => IndexBuilder::append(output, options),
        false => IndexBuilder::create(output, options),
    }
    .map_err(|e| e.to_string())?;
    let _guard = crate::output::TempDirGuard::new(builder.temp_dir());
    let bar = progress_bar(total_len(&inputs), "bytes");
    for path in &inputs {
        let info = match path.as_os_str() == "-" {
            true => SourceInfo::named("-"),
            false => SourceInfo::of_file(path).map_err(|e| e.to_string())?,
        };
        builder
            .add_reader(open_input(path, &bar)?, info)
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
        println!("{value}");
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

#[cfg(feature = "parquet")]
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
        println!("{value}");
        return Ok(ExitCode::SUCCESS);
    }
    println!("index      {}", args.index.display());
    println!("games      {}", index.games());
    let per_game = |bytes: u64| bytes as f64 / index.games().max(1) as f64;
    println!("bytes      {total} ({:.0} per game)", per_game(total));
    for table in TABLES {
        let files = manifest.files(table);
        let bytes: u64 = files.iter().map(|f| f.bytes).sum();
        let rows: u64 = files.iter().map(|f| f.rows).sum();
        println!(
            "{table:<10} {rows} rows, {} file(s), {bytes} bytes ({:.0} per game)",
            files.len(),
            per_game(bytes)
        );
    }
    for source in index.sources() {
        println!("source     {} ({} games)", source.path, source.games);
    }
    if args.verify {
        println!("verified   every file matches its checksum");
    }
    Ok(ExitCode::SUCCESS)
}
