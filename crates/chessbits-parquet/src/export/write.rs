//! The writing stage, on its own thread: starts the parsing stage, makes its rows Arrow batches
//! and writes them into the Parquet files (one per partition), and the rejected games into
//! `_rejected.pgn` and `_rejected.tsv`.

use std::collections::BTreeMap;
use std::fs::{self, File};
use std::io::{self, BufWriter, Write};
use std::path::PathBuf;
use std::sync::mpsc::{sync_channel, Receiver};

use arrow_schema::SchemaRef;
use parquet::arrow::arrow_writer::ArrowWriterOptions;
use parquet::arrow::ArrowWriter;
use parquet::basic::{Compression, Encoding, ZstdLevel};
use parquet::file::metadata::KeyValue;
use parquet::file::properties::{EnabledStatistics, WriterProperties};
use parquet::schema::types::ColumnPath;

use super::chunk::{Chunk, Pending};
use super::emit::{Emitter, ParsedChunk, PartitionKey};
use super::error::ExportError;
use super::options::{ExportOptions, ExportSummary, DEFAULT_PARTITION, MAX_CHUNK};
use super::parse::Parser;
use crate::batch::rows_to_batch_with;
use crate::moves_code::MOVES_CODE_KEY;
use crate::{EXPORT_VERSION, EXPORT_VERSION_KEY, TEXT_TAG_COLUMNS};

/// The Parquet path of the items of the list column `name`.
fn list_items(name: &str) -> ColumnPath {
    ColumnPath::new(vec![name.to_string(), "list".to_string(), "item".to_string()])
}

/// The Parquet path of the `other_tags` map's `keys` or `values`.
fn map_items(name: &str) -> ColumnPath {
    ColumnPath::new(vec!["other_tags".to_string(), "entries".to_string(), name.to_string()])
}

/// The writing thread: starts the parsing stage, writes its rows and rejected games.
pub(super) struct Worker {
    dir: PathBuf,
    partition: bool,
    row_group_size: usize,
    /// Games handed from the parsing thread at a time.
    chunk_size: usize,
    props: WriterProperties,
    schema: SchemaRef,
    writers: BTreeMap<PartitionKey, ArrowWriter<BufWriter<File>>>,
    rejected_pgn: Option<BufWriter<File>>,
    rejected_tsv: Option<BufWriter<File>>,
    rejected_offset: u64,
    sources: std::sync::Arc<std::sync::Mutex<Vec<String>>>,
    summary: ExportSummary,
}

impl Worker {
    pub(super) fn new(
        dir: PathBuf,
        options: &ExportOptions,
        sources: std::sync::Arc<std::sync::Mutex<Vec<String>>>,
    ) -> Result<(Worker, Parser), ExportError> {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(options.threads)
            .thread_name(|i| format!("chessbits-parquet-{i}"))
            .build()
            .map_err(io::Error::other)?;
        let props = WriterProperties::builder()
            .set_compression(Compression::ZSTD(ZstdLevel::try_new(options.zstd_level)?))
            .set_max_row_group_size(options.row_group_size.max(1))
            // `clock_deltas` (a few distinct small values) are smallest in a dictionary, the
            // default; evaluations are smallest plain.
            .set_column_dictionary_enabled(list_items("evals"), false)
            // Row-group statistics only, cut to 16 bytes: the page-level ones (a column index)
            // and the offset index prune nothing in rows kept in input order, and were a fifth
            // of a small file (1.5 kB, and 64-byte minima and maxima in the footer).
            .set_statistics_enabled(EnabledStatistics::Chunk)
            .set_offset_index_disabled(true)
            .set_statistics_truncate_length(Some(16))
            // Encodings by measurement (bytes a game on 438 lichess games, BENCHMARKS.md): values
            // that rarely repeat (names, sites, times, move codes) are smaller plain than in a
            // dictionary; ratings and ply counts as deltas (DELTA_BINARY_PACKED). Not
            // DELTA_LENGTH_BYTE_ARRAY, though smaller still for names and moves: PySpark 3.5.3
            // misreads it after a null and past the first 4,096 rows of a page (SPARK-52240; a
            // game's `moves` went with another's `plies`), scripts/reader_matrix.sh checks.
            .set_column_dictionary_enabled(ColumnPath::from("Site"), false)
            .set_column_dictionary_enabled(ColumnPath::from("UTCTime"), false)
            .set_column_dictionary_enabled(ColumnPath::from("White"), false)
            .set_column_dictionary_enabled(ColumnPath::from("Black"), false)
            .set_column_dictionary_enabled(ColumnPath::from("moves"), false);
        let props = ["WhiteElo", "BlackElo", "plies"]
            .into_iter()
            .fold(props, |props, name| {
                props
                    .set_column_dictionary_enabled(ColumnPath::from(name), false)
                    .set_column_encoding(ColumnPath::from(name), Encoding::DELTA_BINARY_PACKED)
            });
        // Minima and maxima select row groups only where rows come in the order of the column
        // (dates and times, in a file's order) or where a range means something (ratings,
        // plies); in names, coded moves, texts and lists, in input order, they select nothing.
        let no_statistics = TEXT_TAG_COLUMNS
            .into_iter()
            .chain(["movetext", "moves", "annotations", "start_fen", "non_utf8"])
            .map(ColumnPath::from)
            .chain(["clock_deltas", "evals", "latin1_fields"].map(list_items))
            .chain(["keys", "values"].map(map_items));
        let props = no_statistics
            .fold(props, |props, column| {
                props.set_column_statistics_enabled(column, EnabledStatistics::None)
            })
            .set_created_by(format!("chessbits-parquet {}", env!("CARGO_PKG_VERSION")))
            // The moves code and the version as file-level entries: there is no embedded Arrow
            // schema to carry the `moves` field's metadata (see `new_writer`).
            .set_key_value_metadata(Some(vec![
                KeyValue::new(MOVES_CODE_KEY.to_string(), options.moves_code.name().to_string()),
                KeyValue::new(EXPORT_VERSION_KEY.to_string(), EXPORT_VERSION.to_string()),
            ]))
            .build();
        let parser = Parser {
            pool,
            moves_code: options.moves_code,
        };
        let worker = Worker {
            dir,
            partition: options.partition,
            row_group_size: options.row_group_size.max(1),
            chunk_size: options.row_group_size.clamp(1, MAX_CHUNK),
            props,
            schema: crate::schema_of(options.moves_code, options.movetext),
            writers: BTreeMap::new(),
            rejected_pgn: None,
            rejected_tsv: None,
            rejected_offset: 0,
            sources,
            summary: ExportSummary::default(),
        };
        Ok((worker, parser))
    }

    /// Parses chunks on the pool in one thread while this one writes the chunk before: the
    /// serial Parquet encoding and compression overlap the parsing of the next chunk.
    pub(super) fn run(mut self, parser: Parser, chunks: Receiver<Chunk>) -> Result<ExportSummary, ExportError> {
        let (parsed_sender, parsed) = sync_channel::<ParsedChunk>(1);
        let emit = Emitter {
            chunk: ParsedChunk::default(),
            chunk_size: self.chunk_size,
            partition: self.partition,
            sender: parsed_sender,
            stopped: false,
        };
        let parse_thread = std::thread::Builder::new()
            .name("chessbits-parse".to_string())
            .spawn(move || parser.run(chunks, emit))?;
        let written = parsed.into_iter().try_for_each(|chunk| self.write_chunk(chunk));
        // On an error the receiver is gone: the parser stops at its next chunk.
        let joined = parse_thread.join();
        written?;
        joined.map_err(|_| io::Error::other("the parsing thread panicked"))?;
        self.close()
    }

    fn write_chunk(&mut self, parsed: ParsedChunk) -> Result<(), ExportError> {
        for (game, line, reason) in &parsed.rejected {
            self.reject(game, *line, reason)?;
        }
        for (key, rows) in parsed.groups {
            self.summary.games += rows.len() as u64;
            self.summary.plies += rows.iter().map(|r| r.plies as u64).sum::<u64>();
            let batch = rows_to_batch_with(&rows, self.schema.clone())?;
            drop(rows);
            let writer = match self.writers.get_mut(&key) {
                Some(writer) => writer,
                None => {
                    let file = self.new_file(key)?;
                    let writer = self.new_writer(file)?;
                    self.writers.entry(key).or_insert(writer)
                }
            };
            writer.write(&batch)?;
        }
        // Bounded memory whatever the number of partitions: rows buffered in unfinished row
        // groups are flushed once they add up to two row groups.
        let buffered: usize = self.writers.values().map(ArrowWriter::in_progress_rows).sum();
        if buffered > 2 * self.row_group_size {
            for writer in self.writers.values_mut() {
                writer.flush()?;
            }
        }
        Ok(())
    }

    /// The Parquet writer of a new part file, without the embedded Arrow schema (`ARROW:schema`,
    /// 2.3 kB a file, 5 bytes a game on 438 games): the Parquet schema's logical types give
    /// every reader the same Arrow types (int16 ratings, date32, map, lists), and the moves
    /// code is a file-level entry, which Arrow readers put in the schema's metadata.
    fn new_writer(&self, file: BufWriter<File>) -> Result<ArrowWriter<BufWriter<File>>, ExportError> {
        let options = ArrowWriterOptions::new()
            .with_properties(self.props.clone())
            .with_skip_arrow_metadata(true);
        Ok(ArrowWriter::try_new_with_options(file, self.schema.clone(), options)?)
    }

    /// Creates the file of a partition.
    fn new_file(&mut self, key: PartitionKey) -> Result<BufWriter<File>, ExportError> {
        let relative = if self.partition {
            let year = key.0.map_or(DEFAULT_PARTITION.to_string(), |y| format!("{y:04}"));
            let month = key.1.map_or(DEFAULT_PARTITION.to_string(), |m| format!("{m:02}"));
            PathBuf::from(format!("year={year}"))
                .join(format!("month={month}"))
                .join("part-0.parquet")
        } else {
            PathBuf::from("part-0.parquet")
        };
        let path = self.dir.join(&relative);
        if let Some(parent) = path.parent() {
            fs::create_dir_all(parent)?;
        }
        self.summary.files.push(relative);
        Ok(BufWriter::with_capacity(1 << 20, File::create(path)?))
    }

    fn reject(&mut self, game: &Pending, error_line: u32, reason: &str) -> Result<(), ExportError> {
        self.summary.rejected += 1;
        self.summary.rejected_too_long += u64::from(game.raw.too_long);
        if self.rejected_pgn.is_none() {
            self.rejected_pgn = Some(BufWriter::new(File::create(self.dir.join("_rejected.pgn"))?));
            let mut tsv = BufWriter::new(File::create(self.dir.join("_rejected.tsv"))?);
            tsv.write_all(b"source\tline\terror_line\toffset\tlength\treason\n")?;
            self.rejected_tsv = Some(tsv);
        }
        let (pgn, tsv) = (self.rejected_pgn.as_mut().unwrap(), self.rejected_tsv.as_mut().unwrap());
        let offset = self.rejected_offset;
        if !game.bytes.is_empty() {
            if offset > 0 {
                pgn.write_all(b"\n")?;
            }
            let offset = offset + u64::from(offset > 0);
            pgn.write_all(&game.bytes)?;
            pgn.write_all(b"\n")?;
            self.rejected_offset = offset + game.bytes.len() as u64 + 1;
        }
        let start = if game.bytes.is_empty() {
            offset
        } else {
            offset + u64::from(offset > 0)
        };
        let sources = self.sources.lock().unwrap_or_else(|e| e.into_inner());
        let source = sources.get(game.source as usize).map_or("?", String::as_str);
        let clean = |s: &str| s.replace(['\t', '\n', '\r'], " ");
        writeln!(
            tsv,
            "{}\t{}\t{}\t{}\t{}\t{}",
            clean(source),
            game.raw.first_line,
            error_line,
            start,
            game.bytes.len(),
            clean(reason)
        )?;
        Ok(())
    }

    fn close(mut self) -> Result<ExportSummary, ExportError> {
        if self.writers.is_empty() && !self.partition {
            // An export of no games is still a table: one file with the schema and no rows.
            let file = self.new_file((None, None))?;
            let writer = self.new_writer(file)?;
            self.writers.insert((None, None), writer);
        }
        for (_, writer) in std::mem::take(&mut self.writers) {
            let metadata = writer.close()?;
            self.summary.row_groups += metadata.num_row_groups() as u64;
        }
        for file in [self.rejected_pgn.take(), self.rejected_tsv.take()]
            .into_iter()
            .flatten()
        {
            file.into_inner().map_err(|e| e.into_error())?.sync_all()?;
        }
        self.summary.files.sort();
        Ok(self.summary)
    }
}
