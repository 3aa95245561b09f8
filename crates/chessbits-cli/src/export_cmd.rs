//! `chessbits export`: PGN collections to a directory of Parquet files (crate
//! `chessbits-parquet`).
//!
//! Streams (a few row groups in memory whatever the input size), parses and encodes on every
//! core, shows a progress bar when standard error is a terminal, and writes atomically: into a
//! temporary directory beside the output, renamed into place at the end. An output directory
//! that exists and is not empty is refused unless `--force` (and never one holding an input),
//! decided by the rename itself (an export finished meanwhile into the same directory wins, and
//! is left as it is). An output that is a symbolic link stays a link: the directory it names is
//! written.

use std::path::PathBuf;
use std::process::ExitCode;

/// `chessbits export IN... -o OUT_DIR --format parquet [--partition year,month]`
#[derive(clap::Args, Debug)]
#[command(after_help = "\
Writes OUT_DIR/part-0.parquet (with --partition year,month: OUT_DIR/year=YYYY/month=MM/part-0.parquet,
from UTCDate, else Date; an unknown year or month is __HIVE_DEFAULT_PARTITION__), one row per game,
the columns of the lichess Parquet dataset but movetext (with --movetext, movetext too) plus moves,
plies, clock_deltas, evals, annotations, start_fen, other_tags, non_utf8 and latin1_fields (schema: the
chessbits-parquet crate's documentation); every game's PGN is rebuilt from its row. If OUT_DIR is a
symbolic link, the directory it names is written and the link stays. Games that cannot be read go,
byte for byte, to OUT_DIR/_rejected.pgn, and where they came from and why to OUT_DIR/_rejected.tsv;
they make the exit status 1.")]
pub struct ExportArgs {
    /// PGN files (plain, gzip or zstd) or `.cbits` archives, in order, recognised by content;
    /// `-` reads standard input; a directory, every `.pgn`, `.pgn.gz`, `.pgn.zst` and `.cbits`
    /// file below it.
    #[arg(required = true)]
    pub inputs: Vec<PathBuf>,
    /// The directory to write (must not exist, or be empty, unless --force; a symbolic link stays
    /// a link, the directory it names is written).
    #[arg(short, long)]
    pub output: PathBuf,
    /// The output format (only `parquet`).
    #[arg(long, default_value = "parquet", value_parser = ["parquet"])]
    pub format: String,
    /// Partition the files by `year,month` (Hive style directories).
    #[arg(long, value_parser = ["year,month"])]
    pub partition: Option<String>,
    /// Threads that parse and encode games (0: one per core).
    #[arg(long, default_value_t = 0)]
    pub threads: usize,
    /// The code of the `moves` column: `entropy` (smallest, ~3.2 bits a move) or `index` (one
    /// byte a move, the index in the legal move list: fastest). The file's key-value
    /// metadata `chessbits.moves_code` names it.
    #[arg(long, default_value = "entropy", value_parser = ["entropy", "index", "index-byte"])]
    pub moves_codec: String,
    /// zstd level of the Parquet pages: 1 (fastest, pyarrow's default) to 22 (smallest).
    #[arg(long, default_value_t = 6, value_parser = clap::value_parser!(i32).range(1..=22))]
    pub zstd_level: i32,
    /// Games per row group (memory grows with it).
    #[arg(long, default_value_t = 65536, value_parser = clap::value_parser!(u64).range(1..))]
    pub row_group_size: u64,
    /// Also write the lichess dataset's `movetext` column (the movetext as in the file, in every
    /// row: about three quarters of the file's bytes); without it the PGN is rebuilt from the
    /// other columns.
    #[arg(long)]
    pub movetext: bool,
    /// Replace an output directory that is not empty (once the new export is complete).
    #[arg(long)]
    pub force: bool,
    /// Print the summary as one JSON object (on standard error).
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: ExportArgs) -> Result<ExitCode, String> {
    use std::path::Path;
    use std::time::Instant;

    use chessbits_parquet::{ExportOptions, ParquetExporter};

    use crate::inputs::{expand_inputs, open_input, progress_bar, total_len};
    use crate::json::Json;

    let start = Instant::now();
    let inputs = expand_inputs(&args.inputs)?;
    let out_name = args.output.display().to_string();
    crate::inputs::refuse_output_holding_inputs(&args.output, &inputs)?;
    let options = ExportOptions {
        row_group_size: args.row_group_size as usize,
        partition: args.partition.is_some(),
        threads: args.threads,
        force: args.force,
        moves_code: args.moves_codec.parse()?,
        zstd_level: args.zstd_level,
        movetext: args.movetext,
        ..ExportOptions::default()
    };
    let mut exporter = ParquetExporter::create(&args.output, options).map_err(|e| format!("{out_name}: {e}"))?;
    // SIGINT, SIGTERM and SIGHUP remove the temporary directory (dropping the exporter does on
    // every error path).
    let _guard = exporter.temp_dir().map(crate::output::TempDirGuard::new);
    let bar = progress_bar(total_len(&inputs), "bytes");
    for path in &inputs {
        let name = if path.as_os_str() == "-" {
            "<stdin>".to_string()
        } else {
            path.display().to_string()
        };
        let source = exporter.add_source(&name);
        // Cut into blocks here, read on the encoding threads.
        exporter.add_pgn(source, open_input(path, &bar)?).map_err(|e| match e {
            chessbits_parquet::ExportError::Input(error) => format!("{name}: read error: {error}"),
            other => format!("{out_name}: {other}"),
        })?;
    }
    let summary = exporter.finish().map_err(|e| format!("{out_name}: {e}"))?;
    bar.finish_and_clear();
    let seconds = start.elapsed().as_secs_f64().max(1e-9);
    let status = if summary.rejected > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    };
    if args.json {
        let value = Json::obj([
            ("games", Json::from(summary.games)),
            ("rejected", Json::from(summary.rejected)),
            ("rejected_too_long", Json::from(summary.rejected_too_long)),
            ("plies", Json::from(summary.plies)),
            ("files", Json::from(summary.files.len() as u64)),
            ("row_groups", Json::from(summary.row_groups)),
            ("games_per_second", Json::from(summary.games as f64 / seconds)),
        ]);
        eprintln!("{value}");
        return Ok(status);
    }
    let rejected = if summary.rejected > 0 {
        format!(
            ", {} rejected (see {})",
            summary.rejected,
            Path::new(&args.output).join("_rejected.tsv").display()
        )
    } else {
        String::new()
    };
    eprintln!(
        "exported {} games{rejected} to {out_name}: {} files, {} row groups, {:.1}s, {:.0} games/s",
        summary.games,
        summary.files.len(),
        summary.row_groups,
        seconds,
        summary.games as f64 / seconds,
    );
    Ok(status)
}
