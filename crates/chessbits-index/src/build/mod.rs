//! Building an index: games are cut from the input on the calling thread while the previous batch
//! is parsed and replayed on all cores; their positions records (one per ply, 24 bytes) are
//! sorted in bounded memory (runs spilled to a temporary directory) and merged twice at once, one
//! merge writing the `positions` and `top_games` tables, the other making the `explorer` rows
//! from the same stream (`ExplorerTally`). The index appears at its path only when
//! complete (a rename of the finished directory).

pub mod export_rows;
mod export_tags;
pub(crate) mod records;
pub(crate) mod sort;
mod source;
pub(crate) use export_rows::ExportRows;
pub use export_rows::{export_parts, export_records, ExportPart, ExportRecords};
mod input_kind;
mod inputs;
pub use input_kind::InputKind;
pub use inputs::{is_archive, is_export_dir};
pub(crate) use source::check_unchanged;

use std::fs::{self, File};
use std::io::Read;
use std::path::{Path, PathBuf};

use chessbits::pgn::{MainLineReader, PgnReader, SyntaxError};
use parquet::arrow::ArrowWriter;
use rayon::prelude::*;

use crate::error::IndexError;
use crate::manifest::{file_entry, Manifest, TABLES};
use crate::model::explorer_summary::explorer_summary_of_explorer;
use crate::model::game::GameRow;
use crate::model::sources::SourceRow;
use crate::model::top_games::{GameKey, TopGamesWriter};
use crate::model::{create_games_writer, create_writer, explorer, games, positions, sources};
use records::{game_records, game_row, uci_text, ExplorerRecord, ExplorerTally, PositionRecord};
use sort::{Record, Sorter};
pub use source::{SourceFormat, SourceInfo};

/// How to build.
#[derive(Clone, Debug)]
pub struct BuildOptions {
    /// Worker threads (0: one per core).
    pub threads: usize,
    /// Bytes of records held in memory before a sorted run is written to disk (the build's
    /// memory is about this plus a few batches of games).
    pub memory: usize,
    /// Replace an existing index (or any directory) at the output path.
    pub force: bool,
}

impl Default for BuildOptions {
    fn default() -> BuildOptions {
        BuildOptions {
            threads: 0,
            memory: 1 << 30,
            force: false,
        }
    }
}

/// What a build did.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct BuildSummary {
    /// Games indexed.
    pub games: u64,
    /// Rows of the `positions` table (positions of all games, repeats included).
    pub positions: u64,
    /// Rows of the `explorer` table.
    pub explorer_rows: u64,
    /// Games that could not be read (not indexed), and the first messages (`file:line: reason`).
    pub errors: u64,
    pub error_messages: Vec<String>,
    /// Bytes of the index's files.
    pub bytes: u64,
    /// Seconds spent per phase: `read` (cutting, parsing and replaying games; the sorted runs
    /// spilled meanwhile included) and `write` (the last sort, the merge and the Parquet files).
    pub seconds: Vec<(&'static str, f64)>,
}

/// Games cut from the input, not parsed yet.
#[derive(Default)]
struct RawBatch {
    bytes: Vec<u8>,
    /// Per game: its bytes in `bytes`, its place in the source, or the reason it has none.
    games: Vec<RawEntry>,
}

struct RawEntry {
    range: std::ops::Range<usize>,
    raw: chessbits::pgn::RawGame,
    offset: u64,
}

/// A batch parsed: per game its row (numbered within the batch) or its error, and the records.
#[derive(Default)]
struct ParsedBatch {
    rows: Vec<Result<GameRow, String>>,
    positions: Vec<PositionRecord>,
}

/// Games per batch cut from the input.
const BATCH_GAMES: usize = 4096;
/// Error messages kept for the summary (all are counted).
const KEPT_ERRORS: usize = 1000;
/// Rows per record batch handed to a Parquet writer.
const WRITE_ROWS: usize = 1 << 16;

/// Builds an index from games added one source at a time.
///
/// ```
/// use chessbits_index::{BuildOptions, Index, IndexBuilder, SourceInfo};
/// let dir = tempfile::tempdir().unwrap();
/// let out = dir.path().join("index");
/// let mut builder = IndexBuilder::create(&out, BuildOptions::default()).unwrap();
/// let pgn = b"[Result \"1-0\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n";
/// builder.add_reader(&pgn[..], SourceInfo::named("mate.pgn")).unwrap();
/// let summary = builder.finish().unwrap();
/// assert_eq!((summary.games, summary.positions), (1, 8));
/// assert_eq!(Index::open(&out).unwrap().games(), 1);
/// ```
pub struct IndexBuilder {
    out: PathBuf,
    temp: tempfile::TempDir,
    options: BuildOptions,
    pool: rayon::ThreadPool,
    games_writer: ArrowWriter<File>,
    game_rows: Vec<GameRow>,
    /// What the `top_games` lists and the `explorer` rows need of each game of this part, by
    /// number from its first.
    game_keys: Vec<GameKey>,
    positions: Sorter<PositionRecord>,
    sources: Vec<SourceRow>,
    next_game: u64,
    summary: BuildSummary,
    /// The part the files are written as (`part-00000` for a new index).
    part: String,
    /// When adding to an index: its manifest and its number of sources, and the lock held.
    base: Option<(Manifest, u32)>,
    lock: Option<File>,
    started: std::time::Instant,
    /// The positions file's key bits when set by [`IndexBuilder::set_key_bits`].
    key_bits: Option<u32>,
}

impl IndexBuilder {
    /// Starts a build whose index will be the directory `out` (which must not exist, or be an
    /// empty directory, unless [`BuildOptions::force`]). The work happens in a temporary
    /// directory beside it.
    pub fn create(out: &Path, options: BuildOptions) -> Result<IndexBuilder, IndexError> {
        check_target(out, options.force)?;
        let parent = match out.parent() {
            Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
            _ => PathBuf::from("."),
        };
        let name = out
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let temp = tempfile::Builder::new()
            .prefix(&format!(".{name}.tmp-"))
            .tempdir_in(&parent)
            .map_err(|e| IndexError::io(&parent, e))?;
        IndexBuilder::in_temp(out, temp, options, "part-00000".to_string(), None)
    }

    /// Starts adding games to the index in `index`: the new games get the next numbers, and
    /// their files are new parts of each table, so nothing the index holds is rewritten. The
    /// index changes at once when [`finish`](Self::finish) writes its manifest: until then (and
    /// if the process dies before) it answers as before, and a query that runs meanwhile sees
    /// it before or after, never between.
    ///
    /// ```
    /// use chessbits_index::{BuildOptions, Index, IndexBuilder, SourceInfo};
    /// let dir = tempfile::tempdir().unwrap();
    /// let out = dir.path().join("index");
    /// let mut builder = IndexBuilder::create(&out, BuildOptions::default()).unwrap();
    /// builder.add_reader(&b"1. e4 e5 1-0"[..], SourceInfo::named("a.pgn")).unwrap();
    /// builder.finish().unwrap();
    /// let mut adding = IndexBuilder::append(&out, BuildOptions::default()).unwrap();
    /// adding.add_reader(&b"1. d4 d5 0-1"[..], SourceInfo::named("b.pgn")).unwrap();
    /// adding.finish().unwrap();
    /// let index = Index::open(&out).unwrap();
    /// assert_eq!((index.games(), index.sources().len()), (2, 2));
    /// ```
    pub fn append(index: &Path, options: BuildOptions) -> Result<IndexBuilder, IndexError> {
        // One add at a time: an advisory lock, released when the process ends however it ends.
        let lock_path = index.join(".lock");
        let lock = File::create(&lock_path).map_err(|e| IndexError::io(&lock_path, e))?;
        lock.lock().map_err(|e| IndexError::io(&lock_path, e))?;
        // The index must open (sizes, checksums of footers) before anything is added to it.
        let opened = crate::Index::open(index)?;
        let manifest = opened.manifest().clone();
        let sources = opened.sources().len() as u32;
        drop(opened);
        remove_orphans(index, &manifest)?;
        let part = manifest
            .tables
            .iter()
            .flatten()
            .filter_map(|f| {
                f.file
                    .rsplit('/')
                    .next()?
                    .strip_prefix("part-")?
                    .strip_suffix(".parquet")?
                    .parse::<u32>()
                    .ok()
            })
            .max()
            .map_or(0, |n| n + 1);
        let temp = tempfile::Builder::new()
            .prefix(".add-")
            .tempdir_in(index)
            .map_err(|e| IndexError::io(index, e))?;
        let next_game = manifest.games;
        let mut builder = IndexBuilder::in_temp(
            index,
            temp,
            options,
            format!("part-{part:05}"),
            Some((manifest, sources)),
        )?;
        builder.next_game = next_game;
        builder.lock = Some(lock);
        Ok(builder)
    }

    fn in_temp(
        out: &Path,
        temp: tempfile::TempDir,
        options: BuildOptions,
        part: String,
        base: Option<(Manifest, u32)>,
    ) -> Result<IndexBuilder, IndexError> {
        let parent = temp.path().to_path_buf();
        for table in TABLES {
            let dir = temp.path().join(table);
            fs::create_dir(&dir).map_err(|e| IndexError::io(&dir, e))?;
        }
        let runs = temp.path().join("runs");
        fs::create_dir(&runs).map_err(|e| IndexError::io(&runs, e))?;
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(options.threads)
            .build()
            .map_err(|e| IndexError::io(&parent, std::io::Error::other(e)))?;
        let games_writer = create_games_writer(&temp.path().join(format!("games/{part}.parquet")))?;
        // The positions records are the only ones sorted: the explorer's are made from them.
        let positions = Sorter::new(&runs, "positions", options.memory / PositionRecord::BYTES);
        Ok(IndexBuilder {
            out: out.to_path_buf(),
            temp,
            options,
            pool,
            games_writer,
            game_rows: Vec::new(),
            game_keys: Vec::new(),
            positions,
            sources: Vec::new(),
            next_game: 0,
            summary: BuildSummary::default(),
            part,
            base,
            lock: None,
            started: std::time::Instant::now(),
            key_bits: None,
        })
    }

    /// Sets the positions file's key bits *K* (1..=63; see [`positions`]) instead of the
    /// number the row count gives. For tests: few bits make keys share prefixes, which queries
    /// must tell apart by replay.
    pub fn set_key_bits(&mut self, bits: u32) {
        self.key_bits = Some(bits.clamp(1, 63));
    }

    /// The temporary directory the index is built in (removed when the builder is dropped
    /// unfinished; a caller that handles signals removes it on SIGINT too).
    pub fn temp_dir(&self) -> &Path {
        self.temp.path()
    }

    /// Adds the games of a PGN file (plain, gzip or zstd).
    pub fn add_file(&mut self, path: &Path) -> Result<(), IndexError> {
        let info = SourceInfo::of_file(path)?;
        let file = File::open(path).map_err(|e| IndexError::io(path, e))?;
        let input = chessbits::pgn::decompress(file).map_err(|e| IndexError::io(path, e))?;
        self.add_reader(input, info)
    }

    /// Adds the games of PGN text read from `input` (already decompressed), recorded as coming
    /// from the source `info`. A game that cannot be read is counted and reported in the summary,
    /// and the rest are read; a read error of the input is returned.
    pub fn add_reader(&mut self, input: impl Read, info: SourceInfo) -> Result<(), IndexError> {
        let source = self.base.as_ref().map_or(0, |(_, n)| *n) + self.sources.len() as u32;
        let first_game = self.next_game;
        let name = info.path.clone();
        let mut reader = PgnReader::new(input);
        let mut batch = read_batch(&mut reader, &name)?;
        while !batch.games.is_empty() {
            let mut parsed = Vec::new();
            let mut next = Ok(RawBatch::default());
            let current = &batch;
            let name = name.as_str();
            self.pool.in_place_scope(|scope| {
                scope.spawn(|_| parsed = parse_batch(current, name));
                next = read_batch(&mut reader, name);
            });
            self.absorb(parsed, current, source)?;
            batch = next?;
        }
        self.sources.push(SourceRow {
            source,
            path: info.path,
            format: info.format,
            bytes: info.bytes,
            modified: info.modified,
            games: self.next_game - first_game,
            first_game,
        });
        Ok(())
    }

    /// Numbers the batch's games, writes their rows and hands their records to the sorters.
    fn absorb(&mut self, parsed: Vec<ParsedBatch>, batch: &RawBatch, source: u32) -> Result<(), IndexError> {
        let base = self.next_game;
        let mut numbered = 0u64;
        let rows = parsed.iter().flat_map(|chunk| chunk.rows.iter());
        for (entry, row) in batch.games.iter().zip(rows) {
            match row {
                Ok(row) => {
                    let mut row = row.clone();
                    row.game = u32::try_from(base + numbered).map_err(|_| too_many_games(&self.out))?;
                    row.source = source;
                    row.offset = entry.offset;
                    row.length = entry.range.len() as u32;
                    row.line = entry.raw.first_line;
                    self.game_rows.push(row);
                    numbered += 1;
                }
                Err(message) => self.error(message.clone()),
            }
        }
        let base = u32::try_from(base).map_err(|_| too_many_games(&self.out))?;
        self.next_game += numbered;
        for mut chunk in parsed {
            chunk.positions.iter_mut().for_each(|r| r.game += base);
            self.sort_records(&mut chunk.positions)?;
        }
        if self.game_rows.len() >= WRITE_ROWS {
            self.flush_games()?;
        }
        Ok(())
    }

    /// Counts a game that could not be read, keeping the first messages.
    fn error(&mut self, message: String) {
        self.summary.errors += 1;
        if self.summary.error_messages.len() < KEPT_ERRORS {
            self.summary.error_messages.push(message);
        }
    }

    /// Hands a chunk's records to the sorter (on the pool) and counts its positions.
    fn sort_records(&mut self, positions: &mut Vec<PositionRecord>) -> Result<(), IndexError> {
        self.summary.positions += positions.len() as u64;
        let sorter = &mut self.positions;
        self.pool.install(|| sorter.extend(positions))
    }

    fn flush_games(&mut self) -> Result<(), IndexError> {
        if self.game_rows.is_empty() {
            return Ok(());
        }
        self.game_keys.extend(self.game_rows.iter().map(GameKey::of));
        let batch = games::to_batch(&self.game_rows);
        let path = self.temp.path().join(format!("games/{}.parquet", self.part));
        self.games_writer
            .write(&batch)
            .map_err(|e| IndexError::parquet(&path, e))?;
        self.game_rows.clear();
        Ok(())
    }

    /// Sorts and writes everything, then moves the finished index to its path (or, adding to
    /// an index, moves the new parts into it and then replaces its manifest).
    pub fn finish(mut self) -> Result<BuildSummary, IndexError> {
        let started = std::time::Instant::now();
        self.summary
            .seconds
            .push(("read", self.started.elapsed().as_secs_f64()));
        self.flush_games()?;
        let dir = self.temp.path().to_path_buf();
        let part = self.part.clone();
        let file = |table: &str| format!("{table}/{part}.parquet");
        let games_path = dir.join(file("games"));
        self.games_writer
            .close()
            .map_err(|e| IndexError::parquet(&games_path, e))?;
        let first_game = self.base.as_ref().map_or(0, |(m, _)| m.games);
        let added = self.next_game - first_game;
        let mut manifest = Manifest::default();
        manifest
            .files_mut("games")
            .push(file_entry(&dir, &file("games"), added)?);

        // The sorted records are merged twice at once, one merge per core: one writes the
        // `positions` table (and picks the top games of each position as its rows pass by), the
        // other makes and writes the `explorer` table's rows.
        let mut positions = self.positions;
        self.pool.install(|| positions.finish())?;
        let positions = &positions;
        let (positions_path, explorer_path) = (dir.join(file("positions")), dir.join(file("explorer")));
        let top_games_path = dir.join(file("top_games"));
        let summary_path = dir.join(file("explorer_summary"));
        let first = u32::try_from(first_game).map_err(|_| too_many_games(&self.out))?;
        let game_keys = &self.game_keys;
        let key_bits = self
            .key_bits
            .unwrap_or_else(|| positions::key_bits_for(self.summary.positions));
        let (written_positions, written_explorer) = self.pool.install(|| {
            rayon::join(
                || -> Result<(u64, u64), IndexError> {
                    let mut top = TopGamesWriter::create(&top_games_path, game_keys, first)?;
                    let mut writer = positions::PositionsWriter::create(&positions_path, key_bits)?;
                    let mut marker = positions::SoloMarker::default();
                    let mut failed = Ok(());
                    let decided = |game| GameKey::of_game(game_keys, first, game).is_some_and(GameKey::decided);
                    positions.merge(|r| {
                        top.push(r.key, r.game, r.ply as u32, || uci_text(r.mv).map(str::to_string))?;
                        let mut push = |r: PositionRecord, solo| {
                            if failed.is_ok() {
                                failed = writer.push(r.key, r.game, solo);
                            }
                        };
                        marker.push(r, decided(r.game), &mut push);
                        std::mem::replace(&mut failed, Ok(()))
                    })?;
                    marker.end_key(&mut |r, solo| {
                        if failed.is_ok() {
                            failed = writer.push(r.key, r.game, solo);
                        }
                    });
                    failed?;
                    Ok((writer.finish()?, top.finish()?))
                },
                || -> Result<(u64, u64), IndexError> {
                    let mut writer =
                        TableWriter::create(&explorer_path, explorer::schema(), |r, _| explorer::to_batch(r))?;
                    let mut tally = ExplorerTally::new(game_keys, first);
                    let mut write = |r: ExplorerRecord| {
                        writer.push(r, false);
                        writer.flush_full()
                    };
                    positions.merge(|r| tally.push(r, &mut write))?;
                    tally.end_key(&mut write)?;
                    let rows = writer.finish()?;
                    // Summed from the written file, as the seal does for files written elsewhere.
                    Ok((rows, explorer_summary_of_explorer(&explorer_path, &summary_path)?))
                },
            )
        });
        let (rows, top_rows) = written_positions?;
        manifest
            .files_mut("positions")
            .push(file_entry(&dir, &file("positions"), rows)?);
        manifest
            .files_mut("top_games")
            .push(file_entry(&dir, &file("top_games"), top_rows)?);
        let (rows, summary_rows) = written_explorer?;
        self.summary.explorer_rows = rows;
        manifest
            .files_mut("explorer")
            .push(file_entry(&dir, &file("explorer"), rows)?);
        manifest
            .files_mut("explorer_summary")
            .push(file_entry(&dir, &file("explorer_summary"), summary_rows)?);

        let path = dir.join(file("sources"));
        let mut writer = create_writer(&path, sources::schema(), false)?;
        writer
            .write(&sources::to_batch(&self.sources))
            .map_err(|e| IndexError::parquet(&path, e))?;
        writer.close().map_err(|e| IndexError::parquet(&path, e))?;
        manifest
            .files_mut("sources")
            .push(file_entry(&dir, &file("sources"), self.sources.len() as u64)?);

        let runs = dir.join("runs");
        fs::remove_dir_all(&runs).map_err(|e| IndexError::io(&runs, e))?;
        self.summary.seconds.push(("write", started.elapsed().as_secs_f64()));
        self.summary.games = added;
        self.summary.bytes = manifest.tables.iter().flatten().map(|f| f.bytes).sum();
        let created_by = format!("chessbits-index {}", env!("CARGO_PKG_VERSION"));
        match self.base {
            None => {
                manifest.games = added;
                manifest.created_by = created_by;
                manifest.write(&dir)?;
                commit(self.temp, &self.out, self.options.force)?;
            }
            Some((mut base, _)) => {
                // The new parts move in under names no file of the index has; only the
                // manifest's rename makes them part of it.
                for (table, entries) in TABLES.iter().zip(&manifest.tables) {
                    for entry in entries {
                        for name in [entry.file.clone(), crate::checksums::sidecar_name(&entry.file)] {
                            let target = self.out.join(&name);
                            if target.exists() {
                                return Err(IndexError::Exists { path: target });
                            }
                            fs::rename(dir.join(&name), &target).map_err(|e| IndexError::io(&target, e))?;
                        }
                    }
                    base.files_mut(table).extend(entries.iter().cloned());
                }
                base.games += added;
                base.created_by = created_by;
                base.write(&self.out)?;
            }
        }
        Ok(self.summary)
    }
}

/// Removes the files of the tables' directories that the manifest does not list: parts of an
/// add that died between moving them in and writing the manifest.
fn remove_orphans(index: &Path, manifest: &Manifest) -> Result<(), IndexError> {
    let listed: std::collections::HashSet<String> = manifest
        .tables
        .iter()
        .flatten()
        .flat_map(|f| [f.file.clone(), crate::checksums::sidecar_name(&f.file)])
        .collect();
    for table in TABLES {
        let dir = index.join(table);
        let entries = fs::read_dir(&dir).map_err(|e| IndexError::io(&dir, e))?;
        for entry in entries.flatten() {
            let name = format!("{table}/{}", entry.file_name().to_string_lossy());
            if !listed.contains(&name) && entry.path().is_file() {
                fs::remove_file(entry.path()).map_err(|e| IndexError::io(&entry.path(), e))?;
            }
        }
    }
    Ok(())
}

fn too_many_games(out: &Path) -> IndexError {
    IndexError::format(
        out,
        "more than 4,294,967,295 games: split the input into several indexes",
    )
}

/// A Parquet file of a sorted table being written: records (each with a flag the table may
/// keep, see [`positions::to_batch`]) gather and are written [`WRITE_ROWS`] at a time.
struct TableWriter<R> {
    path: PathBuf,
    writer: ArrowWriter<File>,
    to_batch: fn(&[R], &[bool]) -> arrow_array::RecordBatch,
    pending: Vec<R>,
    flags: Vec<bool>,
    rows: u64,
}

impl<R> TableWriter<R> {
    fn create(
        path: &Path,
        schema: arrow_schema::SchemaRef,
        to_batch: fn(&[R], &[bool]) -> arrow_array::RecordBatch,
    ) -> Result<TableWriter<R>, IndexError> {
        Ok(TableWriter {
            path: path.to_path_buf(),
            writer: create_writer(path, schema, true)?,
            to_batch,
            pending: Vec::with_capacity(WRITE_ROWS),
            flags: Vec::with_capacity(WRITE_ROWS),
            rows: 0,
        })
    }

    fn push(&mut self, record: R, flag: bool) {
        self.pending.push(record);
        self.flags.push(flag);
    }

    /// Writes the pending records once there are [`WRITE_ROWS`] of them.
    fn flush_full(&mut self) -> Result<(), IndexError> {
        match self.pending.len() >= WRITE_ROWS {
            true => self.flush(),
            false => Ok(()),
        }
    }

    fn flush(&mut self) -> Result<(), IndexError> {
        if !self.pending.is_empty() {
            self.writer
                .write(&(self.to_batch)(&self.pending, &self.flags))
                .map_err(|e| IndexError::parquet(&self.path, e))?;
            self.rows += self.pending.len() as u64;
            self.pending.clear();
            self.flags.clear();
        }
        Ok(())
    }

    /// Writes the rest and closes the file; returns its rows.
    fn finish(mut self) -> Result<u64, IndexError> {
        self.flush()?;
        self.writer.close().map_err(|e| IndexError::parquet(&self.path, e))?;
        Ok(self.rows)
    }
}

/// Cuts up to [`BATCH_GAMES`] games from the input.
fn read_batch<R: Read>(reader: &mut PgnReader<R>, name: &str) -> Result<RawBatch, IndexError> {
    let mut batch = RawBatch::default();
    while batch.games.len() < BATCH_GAMES {
        let start = batch.bytes.len();
        let line = reader.line();
        let raw = match reader.read_raw_game(&mut batch.bytes) {
            Ok(Some(raw)) => raw,
            Ok(None) => break,
            Err(e) => {
                let reason = format!("read error at line {line}: {e}");
                return Err(IndexError::io(Path::new(name), std::io::Error::new(e.kind(), reason)));
            }
        };
        batch.games.push(RawEntry {
            range: start..batch.bytes.len(),
            raw,
            offset: reader.last_game().start,
        });
    }
    Ok(batch)
}

/// Parses and replays a batch on the pool's threads.
/// Parses and replays a batch on the pool's threads: per chunk of games its rows and records,
/// game numbers counted within the batch.
fn parse_batch(batch: &RawBatch, name: &str) -> Vec<ParsedBatch> {
    let mut chunks: Vec<ParsedBatch> = batch
        .games
        .par_chunks(64)
        .map(|entries| {
            let mut out = ParsedBatch::default();
            let mut main_line = MainLineReader::new();
            let mut local = 0u32;
            for entry in entries {
                let result = parse_game(entry, &batch.bytes, name, &mut main_line).map(|game| {
                    let mut row = game_row(&game, local);
                    game_records(&game.start, &game.moves, None, &mut row, &mut out.positions, None);
                    main_line.recycle(game);
                    row
                });
                local += result.is_ok() as u32;
                out.rows.push(result);
            }
            out
        })
        .collect();
    // Game numbers so far count within a chunk: make them count within the batch.
    let mut base = 0u32;
    for chunk in &mut chunks {
        chunk.positions.iter_mut().for_each(|r| r.game += base);
        base += chunk.rows.iter().filter(|r| r.is_ok()).count() as u32;
    }
    chunks
}

fn parse_game(
    entry: &RawEntry,
    bytes: &[u8],
    name: &str,
    main_line: &mut MainLineReader,
) -> Result<chessbits::pgn::MainLineGame, String> {
    if entry.raw.too_long {
        return Err(format!("{name}:{}: {}", entry.raw.first_line, SyntaxError::GameTooLong));
    }
    match entry.raw.reader(&bytes[entry.range.clone()]).read_game(main_line) {
        Ok(Some(Ok(game))) => Ok(game),
        Ok(Some(Err(error))) => Err(format!("{name}:{}: {}", error.line, error.kind)),
        Ok(None) | Err(_) => Err(format!("{name}:{}: unreadable game", entry.raw.first_line)),
    }
}

/// Refuses a target that holds something, unless `force`.
fn check_target(out: &Path, force: bool) -> Result<(), IndexError> {
    match fs::read_dir(out) {
        Ok(mut entries) => match entries.next().is_none() || force {
            true => Ok(()),
            false => Err(IndexError::Exists {
                path: out.to_path_buf(),
            }),
        },
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(_) if out.exists() && !force => Err(IndexError::Exists {
            path: out.to_path_buf(),
        }),
        Err(_) => Ok(()),
    }
}

/// Moves the finished directory to `out`: a rename, which succeeds only onto nothing or an empty
/// directory (two builds racing: one wins, the other gets `Exists`); with `force`, what stands
/// there is moved aside first and removed after.
fn commit(temp: tempfile::TempDir, out: &Path, force: bool) -> Result<(), IndexError> {
    let finished = temp.keep();
    match fs::rename(&finished, out) {
        Ok(()) => Ok(()),
        Err(_) if force && out.exists() => {
            let aside = finished.with_extension("old");
            fs::rename(out, &aside).map_err(|e| IndexError::io(out, e))?;
            fs::rename(&finished, out).map_err(|e| IndexError::io(out, e))?;
            if aside.is_dir() {
                fs::remove_dir_all(&aside).map_err(|e| IndexError::io(&aside, e))
            } else {
                fs::remove_file(&aside).map_err(|e| IndexError::io(&aside, e))
            }
        }
        Err(e) => {
            let _ = fs::remove_dir_all(&finished);
            match out.exists() {
                true => Err(IndexError::Exists {
                    path: out.to_path_buf(),
                }),
                false => Err(IndexError::io(out, e)),
            }
        }
    }
}
