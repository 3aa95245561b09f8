//! Sealing: an index whose tables another tool wrote (the Spark job of `examples/spark`).
//!
//! A cluster job can compute the `explorer`, `positions` and `games` tables (see
//! [`crate::model`]) and write them as Parquet files under `DIR/explorer/`, `DIR/positions/` and
//! `DIR/games/`, but not what makes the directory an index. [`seal`] adds that, after checking
//! every file:
//!
//! - each file's columns are the table's, in its order, with exactly its types (Spark's
//!   `BinaryType`, `LongType`, `IntegerType` and `StringType` are `BINARY`, `INT64`, `INT32` and
//!   `UTF8`); a column the model declares non-null may be optional in the file but must hold no
//!   null (the reader does not care about the flag, only about the values);
//! - `explorer` is sorted by `key` within each file and `positions` by `key`, `game`, `ply`
//!   (the reader looks a key up in every file, as after `index add`, so files may overlap); keys
//!   are 16 bytes; `positions` files hold the wide rows
//!   ([`wide_schema`](crate::model::positions::wide_schema): `key`, `game`, `ply`, `uci`,
//!   `solo`, one row per ply), which the seal rewrites in the table's layout (format 3: key
//!   prefix, rank, game, `solo`; see [`crate::model::positions`]) after computing `top_games`
//!   from them;
//! - `games` numbers its rows: row `i` of the table, across its files in name order, is game
//!   `i`, and there are as many games as the export has rows.
//!
//! Then it renames the files to the index's names (`part-00000.parquet`, ... in name order, so
//! Spark's `part-00000-<uuid>-c000.zstd.parquet` order is kept; Hadoop's `.NAME.crc` files and
//! `_SUCCESS` go), stamps each footer with the index format version (the footer alone is
//! rewritten: the pages and page indexes stay where the writer put them; sorted tables also get
//! their `sorting_columns`), writes the `top_games` table (one file per positions file, by
//! [`top_games_of_positions`](crate::model::top_games::top_games_of_positions), which reads the
//! games table once per positions file), the `explorer_summary` table (one file per explorer
//! file, by [`explorer_summary_of_explorer`](crate::model::explorer_summary::explorer_summary_of_explorer)), the `sources` table, the page checksum sidecars
//! ([`crate::checksums`]) and, last, `manifest.json`. Nothing is changed before every check has
//! passed.
//!
//! Files without page indexes are accepted: a lookup then reads the whole row group of a file
//! whose statistics admit the key (parquet-mr, Spark's writer, writes page indexes by default).

use std::fs::{self, File};
use std::path::{Path, PathBuf};

use arrow_array::{Array, BinaryArray, Int32Array, Int64Array, RecordBatch};
use arrow_schema::SchemaRef;
use parquet::arrow::arrow_reader::{ArrowReaderMetadata, ArrowReaderOptions, ParquetRecordBatchReaderBuilder};
use parquet::arrow::ProjectionMask;
use parquet::file::metadata::{
    FileMetaData, KeyValue, ParquetMetaDataBuilder, ParquetMetaDataWriter, RowGroupMetaData, SortingColumn,
};

use crate::error::IndexError;
use crate::manifest::{file_entry, Manifest, TABLES};
use crate::model::sources::SourceRow;
use crate::model::{create_writer, explorer, games, positions, sources, top_games, FORMAT_VERSION};

/// What [`seal`] did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SealSummary {
    /// Games in the index.
    pub games: u64,
    /// Rows per table, in the order of [`TABLES`].
    pub rows: Vec<(&'static str, u64)>,
    /// Parquet files of the index (the `sources` file included).
    pub files: usize,
    /// Bytes of the Parquet files.
    pub bytes: u64,
}

/// Seals `dir`, whose `explorer/`, `positions/` and `games/` tables were computed from the
/// Parquet export `export` (game numbers as [`crate::build::export_parts`] gives them: part
/// files in path order, every row a game): checks every file, then makes `dir` an index that
/// [`crate::Index::open`] accepts. The `sources` table lists the export's part files.
///
/// Errors: a [`IndexError::Format`] naming the file and the column (or the row) that is not as
/// the index wants it; `dir` is then left as it was.
pub fn seal(dir: &Path, export: &Path) -> Result<SealSummary, IndexError> {
    let rows = crate::build::export_parts(export)?
        .into_iter()
        .enumerate()
        .map(|(i, part)| SourceRow {
            source: i as u32,
            path: part.info.path,
            format: part.info.format,
            bytes: part.info.bytes,
            modified: part.info.modified,
            games: part.rows,
            first_game: part.first_game,
        })
        .collect();
    seal_with_sources(dir, rows)
}

/// [`seal`] with the `sources` rows given (for tables computed from other inputs than a Parquet
/// export): the games must number `sources`' games, in order.
pub fn seal_with_sources(dir: &Path, sources: Vec<SourceRow>) -> Result<SealSummary, IndexError> {
    let manifest_path = dir.join(crate::manifest::MANIFEST);
    if manifest_path.exists() {
        return Err(IndexError::format(&manifest_path, "the directory is an index already"));
    }
    let expected_games: u64 = sources.iter().map(|s| s.games).sum();
    let mut next_game = 0u64;
    for (i, source) in sources.iter().enumerate() {
        if source.source as usize != i || source.first_game != next_game {
            return Err(IndexError::format(
                &manifest_path,
                format!(
                    "source {i} is numbered {} from game {}",
                    source.source, source.first_game
                ),
            ));
        }
        next_game += source.games;
    }
    let sources_dir = dir.join("sources");
    for table in ["sources", "top_games", "explorer_summary"] {
        if dir.join(table).exists() {
            return Err(IndexError::format(
                &dir.join(table),
                format!("the `{table}` table is the seal's to write"),
            ));
        }
    }

    // Every check first: nothing changes unless all pass.
    let mut checked: Vec<(&'static str, Vec<PartFile>)> = Vec::new();
    let mut games_seen = 0u64;
    for table in SEALED {
        let mut files = Vec::new();
        for path in part_files(&dir.join(table))? {
            let part = check_file(table, &path, &mut games_seen)?;
            files.push(part);
        }
        checked.push((table, files));
    }
    if games_seen != expected_games {
        return Err(IndexError::format(
            &dir.join("games"),
            format!("{games_seen} games where the sources have {expected_games}"),
        ));
    }
    for (table, files) in &checked {
        if *table == "positions"
            && let Some(part) = files.iter().find(|p| p.max_game.is_some_and(|g| g >= games_seen))
        {
            return Err(IndexError::format(
                &part.path,
                format!("a game beyond the {games_seen} of the games table"),
            ));
        }
    }

    // Rename (in two steps: a Spark name may be another file's index name), stamp, then the
    // sources, the sidecars and the manifest.
    let mut manifest = Manifest {
        games: games_seen,
        created_by: format!("chessbits-index {} (seal)", env!("CARGO_PKG_VERSION")),
        ..Manifest::default()
    };
    let mut summary = SealSummary {
        games: games_seen,
        ..SealSummary::default()
    };
    for (table, files) in &checked {
        let table_dir = dir.join(table);
        let mut staged = Vec::new();
        for (i, part) in files.iter().enumerate() {
            remove_hadoop_checksum(&part.path)?;
            let temp = table_dir.join(format!(".seal-{i:05}.parquet"));
            fs::rename(&part.path, &temp).map_err(|e| IndexError::io(&part.path, e))?;
            staged.push(temp);
        }
        for name in ["_SUCCESS", "._SUCCESS.crc"] {
            let path = table_dir.join(name);
            if path.exists() {
                fs::remove_file(&path).map_err(|e| IndexError::io(&path, e))?;
            }
        }
        let mut rows = 0;
        for (i, (temp, part)) in staged.iter().zip(files).enumerate() {
            let name = format!("{table}/part-{i:05}.parquet");
            let path = dir.join(&name);
            fs::rename(temp, &path).map_err(|e| IndexError::io(temp, e))?;
            stamp_footer(&path, *table != "games")?;
            let entry = file_entry(dir, &name, part.rows)?;
            summary.bytes += entry.bytes;
            rows += part.rows;
            manifest.files_mut(table).push(entry);
        }
        summary.rows.push((table, rows));
    }
    // The top_games table: one file per positions file, from it and the games (crate::model::top_games).
    let top_dir = dir.join("top_games");
    fs::create_dir_all(&top_dir).map_err(|e| IndexError::io(&top_dir, e))?;
    let games_files: Vec<PathBuf> = manifest.files("games").iter().map(|f| dir.join(&f.file)).collect();
    let games_files: Vec<&Path> = games_files.iter().map(PathBuf::as_path).collect();
    let positions_files: Vec<String> = manifest.files("positions").iter().map(|f| f.file.clone()).collect();
    let mut top_rows = 0;
    let mut positions_rows = 0;
    for (i, positions) in positions_files.iter().enumerate() {
        let name = format!("top_games/part-{i:05}.parquet");
        let wide = dir.join(positions);
        let rows = top_games::top_games_of_positions(&wide, &games_files, &dir.join(&name))?;
        let entry = file_entry(dir, &name, rows)?;
        summary.bytes += entry.bytes;
        top_rows += rows;
        manifest.files_mut("top_games").push(entry);
        // The wide rows become the table's (crate::model::positions): one per key and game, by
        // key prefix; what the file held is replaced.
        let narrow = dir.join("positions").join(format!(".seal-narrow-{i:05}.parquet"));
        let rows = positions::narrow_file(&wide, &narrow, None)?;
        fs::rename(&narrow, &wide).map_err(|e| IndexError::io(&narrow, e))?;
        let entry = file_entry(dir, positions, rows)?;
        let old = &mut manifest.files_mut("positions")[i];
        summary.bytes = summary.bytes - old.bytes + entry.bytes;
        *old = entry;
        positions_rows += rows;
    }
    if let Some(rows) = summary.rows.iter_mut().find(|(table, _)| *table == "positions") {
        rows.1 = positions_rows;
    }
    summary.rows.push(("top_games", top_rows));
    // The explorer_summary table: one file per explorer file (crate::model::explorer_summary).
    let summary_dir = dir.join("explorer_summary");
    fs::create_dir_all(&summary_dir).map_err(|e| IndexError::io(&summary_dir, e))?;
    let explorer_files: Vec<String> = manifest.files("explorer").iter().map(|f| f.file.clone()).collect();
    let mut summed_rows = 0;
    for (i, explorer) in explorer_files.iter().enumerate() {
        let name = format!("explorer_summary/part-{i:05}.parquet");
        let (from, to) = (dir.join(explorer), dir.join(&name));
        let rows = crate::model::explorer_summary::explorer_summary_of_explorer(&from, &to)?;
        let entry = file_entry(dir, &name, rows)?;
        summary.bytes += entry.bytes;
        summed_rows += rows;
        manifest.files_mut("explorer_summary").push(entry);
    }
    summary.rows.push(("explorer_summary", summed_rows));
    fs::create_dir_all(&sources_dir).map_err(|e| IndexError::io(&sources_dir, e))?;
    let name = "sources/part-00000.parquet";
    let path = dir.join(name);
    let mut writer = create_writer(&path, sources::schema(), false)?;
    writer
        .write(&sources::to_batch(&sources))
        .map_err(|e| IndexError::parquet(&path, e))?;
    writer.close().map_err(|e| IndexError::parquet(&path, e))?;
    let entry = file_entry(dir, name, sources.len() as u64)?;
    summary.bytes += entry.bytes;
    manifest.files_mut("sources").push(entry);
    summary.rows.push(("sources", sources.len() as u64));
    summary.files = manifest.tables.iter().map(Vec::len).sum();
    // Rows in the order of TABLES.
    summary
        .rows
        .sort_by_key(|(t, _)| TABLES.iter().position(|x| x == t).unwrap_or(usize::MAX));
    manifest.write(dir)?;
    Ok(summary)
}

/// The tables another tool writes (the seal writes `sources`).
const SEALED: [&str; 3] = ["explorer", "positions", "games"];

/// A checked file of a table.
struct PartFile {
    path: PathBuf,
    rows: u64,
    /// `positions`: the greatest game number.
    max_game: Option<u64>,
}

/// The schema of a sealed table.
fn table_schema(table: &str) -> SchemaRef {
    match table {
        "explorer" => explorer::schema(),
        "positions" => positions::wide_schema(),
        _ => games::schema(),
    }
}

/// The Parquet files of a table directory, in name order (hidden files and `_` files skipped).
fn part_files(dir: &Path) -> Result<Vec<PathBuf>, IndexError> {
    let entries = fs::read_dir(dir).map_err(|e| IndexError::io(dir, e))?;
    let mut files = Vec::new();
    for entry in entries {
        let entry = entry.map_err(|e| IndexError::io(dir, e))?;
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.starts_with('.') || name.starts_with('_') {
            continue;
        }
        let path = entry.path();
        let kind = entry.file_type().map_err(|e| IndexError::io(&path, e))?;
        if kind.is_dir() {
            return Err(IndexError::format(
                &path,
                "a directory inside a table (write the table without partitionBy)",
            ));
        }
        if name.ends_with(".parquet") {
            files.push(path);
        }
    }
    files.sort();
    if files.is_empty() {
        return Err(IndexError::format(dir, "no Parquet files"));
    }
    Ok(files)
}

/// Checks one file of `table`: its schema, its nulls, its order. `next_game` is the games
/// table's next game number (checked and advanced for `games`).
fn check_file(table: &str, path: &Path, next_game: &mut u64) -> Result<PartFile, IndexError> {
    let file = File::open(path).map_err(|e| IndexError::io(path, e))?;
    let meta = ArrowReaderMetadata::load(&file, ArrowReaderOptions::new()).map_err(|e| IndexError::parquet(path, e))?;
    let want = table_schema(table);
    let got = meta.schema();
    let names = |s: &arrow_schema::Schema| s.fields().iter().map(|f| f.name().clone()).collect::<Vec<_>>();
    for field in want.fields() {
        match got.field_with_name(field.name()) {
            Err(_) => {
                return Err(IndexError::format(
                    path,
                    format!("{table}: no column `{}`", field.name()),
                ))
            }
            Ok(have) if have.data_type() != field.data_type() => {
                return Err(IndexError::format(
                    path,
                    format!(
                        "{table}: column `{}` is {} where the index has {}",
                        field.name(),
                        have.data_type(),
                        field.data_type()
                    ),
                ))
            }
            Ok(_) => {}
        }
    }
    if names(got) != names(&want) {
        return Err(IndexError::format(
            path,
            format!(
                "{table}: columns {:?} where the index has {:?} (in this order)",
                names(got),
                names(&want)
            ),
        ));
    }
    // Non-null columns: no nulls, by the statistics (an optional column without a null count
    // cannot be trusted).
    let parquet_schema = meta.metadata().file_metadata().schema_descr();
    for (c, field) in want.fields().iter().enumerate() {
        if field.is_nullable() || parquet_schema.column(c).max_def_level() == 0 {
            continue;
        }
        for group in meta.metadata().row_groups() {
            let nulls = group.column(c).statistics().and_then(|s| s.null_count_opt());
            if nulls != Some(0) {
                return Err(IndexError::format(
                    path,
                    match nulls {
                        Some(n) => format!("{table}: {n} nulls in column `{}`", field.name()),
                        None => format!("{table}: no null count for column `{}`", field.name()),
                    },
                ));
            }
        }
    }
    let rows = meta.metadata().file_metadata().num_rows().max(0) as u64;
    let columns: &[&str] = match table {
        "explorer" => &["key"],
        "positions" => &["key", "game", "ply"],
        _ => &["game"],
    };
    let reader = ParquetRecordBatchReaderBuilder::new_with_metadata(file, meta.clone())
        .with_projection(ProjectionMask::columns(parquet_schema, columns.iter().copied()))
        .with_batch_size(1 << 16)
        .build()
        .map_err(|e| IndexError::parquet(path, e))?;
    let mut order = OrderCheck::default();
    let mut row = 0u64;
    for batch in reader {
        let batch =
            batch.map_err(|e| IndexError::parquet(path, parquet::errors::ParquetError::ArrowError(e.to_string())))?;
        match table {
            "games" => check_games(&batch, path, row, next_game)?,
            _ => order.check(table, &batch, path, row)?,
        }
        row += batch.num_rows() as u64;
    }
    Ok(PartFile {
        path: path.to_path_buf(),
        rows,
        max_game: order.max_game,
    })
}

/// The last row seen of a sorted table.
#[derive(Default)]
struct OrderCheck {
    last: Option<([u8; 16], i64, i32)>,
    max_game: Option<u64>,
}

impl OrderCheck {
    /// Checks that `batch` (rows from `first_row` of the file) continues the order.
    fn check(&mut self, table: &str, batch: &RecordBatch, path: &Path, first_row: u64) -> Result<(), IndexError> {
        let keys = crate::model::column::<BinaryArray>(batch, "key", path)?;
        let game_ply = match table {
            "positions" => Some((
                crate::model::column::<Int64Array>(batch, "game", path)?,
                crate::model::column::<Int32Array>(batch, "ply", path)?,
            )),
            _ => None,
        };
        for i in 0..batch.num_rows() {
            let at = first_row + i as u64;
            let key: [u8; 16] = keys.value(i).try_into().map_err(|_| {
                IndexError::format(
                    path,
                    format!(
                        "{table}: row {at}: a key of {} bytes (keys have 16)",
                        keys.value(i).len()
                    ),
                )
            })?;
            let (game, ply) = game_ply.map_or((0, 0), |(g, p)| (g.value(i), p.value(i)));
            if game < 0 || ply < 0 {
                return Err(IndexError::format(
                    path,
                    format!("{table}: row {at}: a negative game or ply"),
                ));
            }
            let now = (key, game, ply);
            if let Some(last) = self.last {
                let in_order = match table {
                    // One row per game and ply: strictly increasing.
                    "positions" => last < now,
                    _ => last.0 <= now.0,
                };
                if !in_order {
                    let order = if table == "positions" { "key, game, ply" } else { "key" };
                    return Err(IndexError::format(
                        path,
                        format!("{table}: row {at} is out of order (the table is sorted by {order})"),
                    ));
                }
            }
            self.last = Some(now);
            if game_ply.is_some() {
                self.max_game = Some(self.max_game.map_or(game as u64, |g| g.max(game as u64)));
            }
        }
        Ok(())
    }
}

/// Checks that the games of `batch` are numbered `next_game`, `next_game + 1`, ...
fn check_games(batch: &RecordBatch, path: &Path, first_row: u64, next_game: &mut u64) -> Result<(), IndexError> {
    let games = crate::model::column::<Int64Array>(batch, "game", path)?;
    for i in 0..batch.num_rows() {
        if games.is_null(i) || games.value(i) != *next_game as i64 {
            let row = first_row + i as u64;
            return Err(IndexError::format(
                path,
                format!(
                    "games: row {row} is game {} where {} is next (row i of the table must be game i, \
                     without gaps, across its files in name order)",
                    games.value(i),
                    *next_game
                ),
            ));
        }
        *next_game += 1;
    }
    Ok(())
}

/// Removes Hadoop's checksum file of `path` (`.NAME.crc`, written by Spark on a local file
/// system): it would be stale once the footer changes, and its name is a page checksum sidecar's.
fn remove_hadoop_checksum(path: &Path) -> Result<(), IndexError> {
    let crc = crate::checksums::sidecar_path(path);
    match fs::remove_file(&crc) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(IndexError::io(&crc, e)),
        _ => Ok(()),
    }
}

/// Rewrites the footer of the Parquet file at `path` with the index's format version in its
/// key-value metadata (and, for a table sorted by key, the sorting column), leaving everything
/// before the footer (pages, page indexes) where it is: the new footer replaces the old one in
/// place, and every offset it holds still points where it did.
fn stamp_footer(path: &Path, sorted_by_key: bool) -> Result<(), IndexError> {
    use std::io::Write;
    let file = fs::OpenOptions::new()
        .read(true)
        .write(true)
        .open(path)
        .map_err(|e| IndexError::io(path, e))?;
    let len = file.metadata().map_err(|e| IndexError::io(path, e))?.len();
    let mut tail = [0u8; 8];
    if len < 12 {
        return Err(IndexError::format(path, "too short for a Parquet file"));
    }
    crate::checksums::read_at(&file, &mut tail, len - 8).map_err(|e| IndexError::io(path, e))?;
    let footer = u32::from_le_bytes(tail[..4].try_into().expect("4 bytes")) as u64;
    if &tail[4..] != b"PAR1" || footer + 8 > len {
        return Err(IndexError::format(path, "no Parquet footer"));
    }
    // Without the page indexes: they stay in the file, and the chunks keep their offsets.
    let meta = parquet::file::metadata::ParquetMetaDataReader::new()
        .parse_and_finish(&file)
        .map_err(|e| IndexError::parquet(path, e))?;
    let old = meta.file_metadata();
    let mut kv: Vec<KeyValue> = old
        .key_value_metadata()
        .map(|kv| {
            kv.iter()
                .filter(|kv| kv.key != "chessbits.index.format")
                .cloned()
                .collect()
        })
        .unwrap_or_default();
    kv.push(KeyValue::new(
        "chessbits.index.format".to_string(),
        FORMAT_VERSION.to_string(),
    ));
    let file_meta = FileMetaData::new(
        old.version(),
        old.num_rows(),
        old.created_by().map(str::to_string),
        Some(kv),
        old.schema_descr_ptr(),
        old.column_orders().cloned(),
    );
    let mut row_groups: Vec<RowGroupMetaData> = meta.row_groups().to_vec();
    if sorted_by_key {
        row_groups = row_groups
            .into_iter()
            .map(|group| {
                group
                    .into_builder()
                    .set_sorting_columns(Some(vec![SortingColumn {
                        column_idx: 0,
                        descending: false,
                        nulls_first: false,
                    }]))
                    .build()
            })
            .collect::<Result<_, _>>()
            .map_err(|e| IndexError::parquet(path, e))?;
    }
    let stamped = ParquetMetaDataBuilder::new(file_meta)
        .set_row_groups(row_groups)
        .build();
    let mut bytes = Vec::new();
    ParquetMetaDataWriter::new(&mut bytes, &stamped)
        .finish()
        .map_err(|e| IndexError::parquet(path, e))?;
    let start = len - 8 - footer;
    file.set_len(start).map_err(|e| IndexError::io(path, e))?;
    let mut writer = &file;
    std::io::Seek::seek(&mut writer, std::io::SeekFrom::Start(start)).map_err(|e| IndexError::io(path, e))?;
    writer.write_all(&bytes).map_err(|e| IndexError::io(path, e))?;
    file.sync_all().map_err(|e| IndexError::io(path, e))
}
