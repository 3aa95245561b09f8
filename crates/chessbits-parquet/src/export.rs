//! [`ParquetExporter`]: games in, a directory of Parquet files out, streaming.

//!
//! The pipeline, one module a stage, each importing only the ones after it:
//! - this module: the caller's thread cuts inputs into blocks (or takes games cut one by one)
//!   and sends them in chunks ([`chunk`]);
//! - [`write`]: the writing thread, which starts the parsing thread and writes its rows;
//! - [`parse`]: the parsing thread, which reads the chunks on the pool, in input order, into
//!   rows ([`emit`]), reading blocks with [`stitch`];
//! - [`stitch`]: a block's games, and when they are the input's (else one reader goes on across
//!   blocks);
//! - [`options`], [`error`], [`out_dir`]: the options, the summary, the errors, the output
//!   directory.

use std::fs;
use std::io::{self, Read};
use std::path::{Path, PathBuf};
use std::sync::mpsc::{sync_channel, SyncSender};
use std::sync::Arc;
use std::thread::JoinHandle;

use chessbits::pgn::{PgnBlocks, RawGame};

mod chunk;
mod emit;
mod error;
mod options;
mod out_dir;
mod parse;
mod stitch;
mod write;

use chunk::{Chunk, Pending, SourceBlock};
pub use error::ExportError;
pub use options::{ExportOptions, ExportSummary, DEFAULT_BLOCK_SIZE, DEFAULT_PARTITION};
use options::{BLOCKS_PER_CHUNK, MAX_CHUNK};
use out_dir::{check_output, commit_dir, resolve_output};
use write::Worker;

/// Writes games into a directory of Parquet files, streaming. An input is added whole with
/// [`add_pgn`](Self::add_pgn): the caller's thread cuts it into blocks without reading it, and
/// the blocks go in chunks through a bounded channel to a thread that reads them on all cores
/// (rayon) and stitches their games back in input order (see the `blocks` module: the games are
/// those one reader of the whole input reads); or game by game, as cut by
/// [`PgnReader::read_raw_game`](chessbits::pgn::PgnReader::read_raw_game), with
/// [`add_raw_game`](Self::add_raw_game). The rows go through another bounded channel to a thread
/// that makes them Arrow batches and writes them (so the Parquet encoding overlaps the parsing):
/// a few chunks are in memory while the caller reads on, plus the encoded, compressed row group
/// being filled in each open file (with partitions, unfinished row groups are flushed once they
/// add up to two row groups). Everything is written into a temporary directory
/// `.chessbits-export-*` beside the output directory, which is renamed into place by
/// [`finish`](Self::finish); if the exporter is dropped before, or fails, the temporary directory
/// is removed and the output directory is untouched.
///
/// ```
/// use chessbits::pgn::PgnReader;
/// use chessbits_parquet::{ExportOptions, ParquetExporter};
/// let dir = tempfile::tempdir().unwrap();
/// let out = dir.path().join("games");
/// let pgn = b"[Event \"a\"]\n\n1. e4 e5 1-0\n\n[Event \"b\"]\n\n1. e4 e4 *\n";
/// let mut exporter = ParquetExporter::create(&out, ExportOptions::default()).unwrap();
/// let source = exporter.add_source("games.pgn");
/// let mut reader = PgnReader::new(&pgn[..]);
/// let mut bytes = Vec::new();
/// while let Some(raw) = reader.read_raw_game(&mut bytes).unwrap() {
///     exporter.add_raw_game(source, std::mem::take(&mut bytes), raw).unwrap();
/// }
/// let summary = exporter.finish().unwrap();
/// assert_eq!((summary.games, summary.rejected), (1, 1));
/// assert!(out.join("part-0.parquet").exists());
/// assert_eq!(std::fs::read(out.join("_rejected.pgn")).unwrap(), b"[Event \"b\"]\n\n1. e4 e4 *\n");
/// ```
pub struct ParquetExporter {
    /// Symbolic links resolved (see `resolve_output`).
    out_dir: PathBuf,
    force: bool,
    temp: Option<tempfile::TempDir>,
    chunk_size: usize,
    chunk: Vec<Pending>,
    block_size: usize,
    sender: Option<SyncSender<Chunk>>,
    worker: Option<JoinHandle<Result<ExportSummary, ExportError>>>,
    sources: std::sync::Arc<std::sync::Mutex<Vec<String>>>,
}

impl ParquetExporter {
    /// Starts an export into `out_dir`, which must not exist or be an empty directory (unless
    /// `options.force`). Its parent directory must exist. A symbolic link is followed (through
    /// chains; a dangling one names the directory to create): the link stays a link.
    pub fn create(out_dir: &Path, options: ExportOptions) -> Result<ParquetExporter, ExportError> {
        let out_dir = &resolve_output(out_dir)?;
        check_output(out_dir, options.force)?;
        let parent = match out_dir.parent() {
            Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
            _ => PathBuf::from("."),
        };
        let temp = tempfile::Builder::new()
            .prefix(".chessbits-export-")
            .tempdir_in(&parent)?;
        let (sender, receiver) = sync_channel::<Chunk>(1);
        let sources = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
        let (worker, parser) = Worker::new(temp.path().to_path_buf(), &options, sources.clone())?;
        let worker = std::thread::Builder::new()
            .name("chessbits-parquet".to_string())
            .spawn(move || worker.run(parser, receiver))?;
        Ok(ParquetExporter {
            out_dir: out_dir.to_path_buf(),
            force: options.force,
            temp: Some(temp),
            chunk_size: options.row_group_size.clamp(1, MAX_CHUNK),
            chunk: Vec::new(),
            block_size: options.block_size,
            sender: Some(sender),
            worker: Some(worker),
            sources,
        })
    }

    /// The temporary directory being written (renamed to the output directory by
    /// [`finish`](Self::finish)); for a caller that removes it on a signal.
    pub fn temp_dir(&self) -> Option<&Path> {
        self.temp.as_ref().map(tempfile::TempDir::path)
    }

    /// Names an input (a file name, for `_rejected.tsv`); games from it are added with the number
    /// returned.
    pub fn add_source(&mut self, name: &str) -> u32 {
        let mut sources = self.sources.lock().unwrap_or_else(|e| e.into_inner());
        sources.push(name.to_string());
        (sources.len() - 1) as u32
    }

    /// Adds a game as cut by [`chessbits::pgn::PgnReader::read_raw_game`]: its bytes and where it
    /// stands. Blocks while the encoding threads are a chunk behind. The error of the encoding
    /// thread, if it failed.
    pub fn add_raw_game(&mut self, source: u32, bytes: Vec<u8>, raw: RawGame) -> Result<(), ExportError> {
        self.chunk.push(Pending { source, bytes, raw });
        if self.chunk.len() >= self.chunk_size {
            self.send_games()?;
        }
        Ok(())
    }

    /// Adds every game of a PGN input, in order, as [`PgnReader::read_game`] reads them: the
    /// input is cut into blocks without being read here (see [`chessbits::pgn::PgnBlocks`]), and
    /// the encoding threads read the blocks. Blocks while the encoding threads are a few chunks
    /// behind. A read error of the input (the games are then incomplete), or the error of the
    /// encoding thread.
    ///
    /// [`PgnReader::read_game`]: chessbits::pgn::PgnReader::read_game
    ///
    /// ```
    /// use chessbits_parquet::{ExportOptions, ParquetExporter};
    /// let dir = tempfile::tempdir().unwrap();
    /// let out = dir.path().join("games");
    /// let pgn = b"[Event \"a\"]\n\n1. e4 e5 1-0\n\n[Event \"b\"]\n\n1. e4 e4 *\n";
    /// let mut exporter = ParquetExporter::create(&out, ExportOptions::default()).unwrap();
    /// let source = exporter.add_source("games.pgn");
    /// exporter.add_pgn(source, &pgn[..]).unwrap();
    /// let summary = exporter.finish().unwrap();
    /// assert_eq!((summary.games, summary.rejected), (1, 1));
    /// let tsv = std::fs::read_to_string(out.join("_rejected.tsv")).unwrap();
    /// assert!(tsv.ends_with("games.pgn\t5\t7\t0\t23\tillegal move 'e4'\n"), "{tsv}");
    /// ```
    pub fn add_pgn<R: Read>(&mut self, source: u32, input: R) -> Result<(), ExportError> {
        if !self.chunk.is_empty() {
            self.send_games()?;
        }
        let mut blocks = PgnBlocks::new(input, self.block_size);
        let mut batch = Vec::with_capacity(BLOCKS_PER_CHUNK);
        while let Some(block) = blocks.next_block().map_err(ExportError::Input)? {
            batch.push(SourceBlock {
                source,
                block: Arc::new(block),
            });
            if batch.len() >= BLOCKS_PER_CHUNK {
                self.send(Chunk::Blocks(std::mem::take(&mut batch)))?;
            }
        }
        if !batch.is_empty() {
            self.send(Chunk::Blocks(batch))?;
        }
        Ok(())
    }

    fn send_games(&mut self) -> Result<(), ExportError> {
        let games = std::mem::take(&mut self.chunk);
        self.send(Chunk::Games(games))
    }

    fn send(&mut self, chunk: Chunk) -> Result<(), ExportError> {
        let sent = self.sender.as_ref().map(|s| s.send(chunk).is_ok()).unwrap_or(false);
        if !sent {
            // The worker stopped: its error says why.
            self.sender = None;
            return Err(self
                .join()
                .err()
                .unwrap_or_else(|| io::Error::other("the encoding thread stopped").into()));
        }
        Ok(())
    }

    fn join(&mut self) -> Result<ExportSummary, ExportError> {
        self.sender = None;
        match self.worker.take() {
            Some(worker) => worker
                .join()
                .unwrap_or_else(|_| Err(io::Error::other("the encoding thread panicked").into())),
            None => Err(io::Error::other("the export has failed already").into()),
        }
    }

    /// Writes what is left, closes the files and moves the directory into place (replacing an
    /// empty directory, or with `force` any directory, which is then removed). Without `force`,
    /// an output directory that another process filled since [`create`](Self::create) is
    /// refused ([`ExportError::OutputExists`]) and left as it is.
    pub fn finish(mut self) -> Result<ExportSummary, ExportError> {
        if !self.chunk.is_empty() {
            self.send_games()?;
        }
        let summary = self.join()?;
        let temp = self.temp.take().expect("the temporary directory lives until finish");
        let path = temp.keep();
        let committed = commit_dir(&path, &self.out_dir, self.force);
        if committed.is_err() {
            let _ = fs::remove_dir_all(&path);
        }
        committed.map(|()| summary)
    }
}

impl Drop for ParquetExporter {
    fn drop(&mut self) {
        // Stops the worker before the temporary directory goes.
        self.sender = None;
        if let Some(worker) = self.worker.take() {
            let _ = worker.join();
        }
    }
}
