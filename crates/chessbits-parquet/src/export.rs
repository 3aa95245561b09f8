//! [`ParquetExporter`]: games in, a directory of Parquet files out, streaming.

use std::collections::VecDeque;
use std::collections::{BTreeMap, HashMap};
use std::fmt;
use std::fs::{self, File};
use std::io::{self, BufWriter, Read, Write};
use std::panic::AssertUnwindSafe;
use std::path::{Path, PathBuf};
use std::sync::mpsc::{sync_channel, Receiver, SyncSender};
use std::sync::Arc;
use std::thread::JoinHandle;

use arrow_schema::ArrowError;
use arrow_schema::SchemaRef;
use chessbits::pgn::{PgnBlocks, PgnReader, RawGame};
use parquet::arrow::ArrowWriter;
use parquet::basic::{Compression, Encoding, ZstdLevel};
use parquet::errors::ParquetError;
use parquet::file::metadata::KeyValue;
use parquet::file::properties::WriterProperties;
use parquet::schema::types::ColumnPath;
use rayon::prelude::*;

use crate::batch::rows_to_batch_with;
use crate::blocks::{parse_block, too_long_reason, BlockParse, Carry, Chunk, Feed, SourceBlock, Stitch};
use crate::row::GameRow;
use crate::{MovesCode, MOVES_CODE_KEY};

mod out_dir;
use out_dir::{check_output, commit_dir, resolve_output};

/// The partition value of an unknown year or month (Hive's, read as null by DuckDB, pyarrow,
/// Spark).
pub const DEFAULT_PARTITION: &str = "__HIVE_DEFAULT_PARTITION__";

/// Games handed to the encoding threads at a time, at most: a row group of more games is
/// encoded chunk by chunk into the Parquet writer's (compressed) buffers, so memory is bounded
/// by a few chunks of PGN text plus one encoded row group per open file. Small enough that the
/// reading, parsing and writing stages overlap from the start even on a file of a few MB (with
/// 4,096 two cores gave 1.7 times one on 10 MB: the first chunk was read before any parsing);
/// large enough that the pool seldom waits between chunks (1,024 was 2 % faster than 512 on
/// 40 MB and 3 % on 5 MB, for 9 MB more memory; 2,048 gained nothing more).
const MAX_CHUNK: usize = 1024;

/// Bytes of a block (see [`ExportOptions::block_size`]): a few games of the lichess database.
/// Blocks are the pool's unit of work; small enough that the threads finish a chunk's blocks
/// together, large enough that a block's reader costs little.
pub const DEFAULT_BLOCK_SIZE: usize = 32 << 10;

/// Blocks handed to the parsing thread at a time: about as many bytes as [`MAX_CHUNK`] games.
const BLOCKS_PER_CHUNK: usize = 64;

/// Blocks parsed ahead of the oldest one not yet emitted (see `Parser::run`), per thread of the
/// pool: enough that the pool has work while the parsing thread waits for that block and emits
/// it (on two cores 16 blocks ran as fast as 64, with 3 MB less memory).
const PARSE_AHEAD_PER_THREAD: usize = 8;

/// Blocks read at first from an input (see `Parser::run`).
const FIRST_BLOCKS: usize = 8;

/// How an export is written.
#[derive(Clone, Debug)]
pub struct ExportOptions {
    /// Games per row group (memory grows with it: the row group being filled is held encoded).
    pub row_group_size: usize,
    /// Write `year=YYYY/month=MM/part-0.parquet` instead of one `part-0.parquet`.
    pub partition: bool,
    /// Threads that parse and encode games (0: one per core).
    pub threads: usize,
    /// Replace an output directory that exists and is not empty (it is removed once the new
    /// export is complete).
    pub force: bool,
    /// zstd level of the Parquet pages.
    pub zstd_level: i32,
    /// The code of the `moves` column.
    pub moves_code: MovesCode,
    /// Bytes of the blocks an input added by [`ParquetExporter::add_pgn`] is cut into, about
    /// (see [`chessbits::pgn::PgnBlocks`]); the games are the same whatever the size.
    pub block_size: usize,
}

impl Default for ExportOptions {
    fn default() -> ExportOptions {
        ExportOptions {
            row_group_size: 64 * 1024,
            partition: false,
            threads: 0,
            force: false,
            zstd_level: 3,
            moves_code: MovesCode::Entropy,
            block_size: DEFAULT_BLOCK_SIZE,
        }
    }
}

/// What an export wrote.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ExportSummary {
    /// Rows written (games read).
    pub games: u64,
    /// Games that could not be read, in `_rejected.pgn` and `_rejected.tsv`.
    pub rejected: u64,
    /// Of those, games longer than [`MAX_GAME_BYTES`](chessbits::pgn::MAX_GAME_BYTES) (their
    /// bytes are not in `_rejected.pgn`).
    pub rejected_too_long: u64,
    /// Plies of the games written.
    pub plies: u64,
    /// Row groups written, over all files.
    pub row_groups: u64,
    /// The Parquet files, relative to the output directory, sorted.
    pub files: Vec<PathBuf>,
}

/// Why an export failed.
#[derive(Debug)]
pub enum ExportError {
    /// Reading or writing files.
    Io(io::Error),
    /// Reading an input given to [`ParquetExporter::add_pgn`].
    Input(io::Error),
    /// Encoding Parquet.
    Parquet(ParquetError),
    /// Building Arrow arrays.
    Arrow(ArrowError),
    /// The output directory exists and is not empty (and `force` is off), or is not a directory.
    OutputExists(PathBuf),
}

impl fmt::Display for ExportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ExportError::Io(e) => e.fmt(f),
            ExportError::Input(e) => write!(f, "read error: {e}"),
            ExportError::Parquet(e) => e.fmt(f),
            ExportError::Arrow(e) => e.fmt(f),
            ExportError::OutputExists(path) => write!(
                f,
                "{}: exists and is not an empty directory (--force replaces it)",
                path.display()
            ),
        }
    }
}

impl std::error::Error for ExportError {}

impl From<io::Error> for ExportError {
    fn from(e: io::Error) -> ExportError {
        ExportError::Io(e)
    }
}

impl From<ParquetError> for ExportError {
    fn from(e: ParquetError) -> ExportError {
        ExportError::Parquet(e)
    }
}

impl From<ArrowError> for ExportError {
    fn from(e: ArrowError) -> ExportError {
        ExportError::Arrow(e)
    }
}

/// A game waiting to be parsed.
pub(crate) struct Pending {
    pub source: u32,
    pub bytes: Vec<u8>,
    pub raw: RawGame,
}

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

/// The Parquet path of the items of the list column `name`.
fn list_items(name: &str) -> ColumnPath {
    ColumnPath::new(vec![name.to_string(), "list".to_string(), "item".to_string()])
}

/// The partition of a row: year and month.
type PartitionKey = (Option<u16>, Option<u8>);

/// Rows and rejected games on their way to the writing thread: rows by partition, and the games
/// that could not be read (with the error's line and reason), in input order.
#[derive(Default)]
struct ParsedChunk {
    groups: BTreeMap<PartitionKey, Vec<GameRow>>,
    rejected: Vec<(Pending, u32, String)>,
    games: usize,
}

/// Collects rows and rejected games in input order and hands them to the writing thread a chunk
/// at a time.
struct Emitter {
    chunk: ParsedChunk,
    chunk_size: usize,
    partition: bool,
    sender: SyncSender<ParsedChunk>,
    /// The writing thread has stopped (it failed): nothing more is parsed.
    stopped: bool,
}

impl Emitter {
    fn row(&mut self, row: GameRow) {
        let key = if self.partition {
            row.partition_date
        } else {
            (None, None)
        };
        self.chunk.groups.entry(key).or_default().push(row);
        self.chunk.games += 1;
    }

    fn rejected(&mut self, game: Pending, line: u32, reason: String) {
        self.chunk.rejected.push((game, line, reason));
        self.chunk.games += 1;
    }

    /// Hands the chunk over if it is full (`all`: if it holds anything).
    fn flush(&mut self, all: bool) {
        if self.chunk.games >= self.chunk_size || (all && self.chunk.games > 0) {
            let chunk = std::mem::take(&mut self.chunk);
            self.stopped |= self.sender.send(chunk).is_err();
        }
    }
}

/// The parsing stage: games to rows on the pool. (Rows become Arrow batches in the writing
/// thread: done here, that serial step left the pool idle.)
struct Parser {
    pool: rayon::ThreadPool,
    moves_code: MovesCode,
}

impl Parser {
    /// Parses what the reading thread sends, in order, into `emit`.
    ///
    /// Blocks are parsed on the pool as soon as they arrive, up to a window of blocks ahead of
    /// the oldest one not yet emitted: while this thread waits for that one (and emits it), the
    /// pool already reads the blocks after it, so that no thread waits at the end of a batch.
    fn run(&self, chunks: Receiver<Chunk>, mut emit: Emitter) {
        // Blocks in input order, each with its parse (started, or done).
        let mut queue: VecDeque<(SourceBlock, Parse)> = VecDeque::new();
        let mut others: VecDeque<Chunk> = VecDeque::new();
        let mut stitch: Option<Stitch> = None;
        // Whether a block after the first of the current input has stood: until then only a few
        // blocks are read ahead (if the input's games lack results, the blocks after the first
        // are read by one reader anyway, see `read_on`, and their parses lost).
        let mut proven = false;
        // Whether the reading thread has hung up.
        let mut hung_up = false;
        let parse_ahead = (PARSE_AHEAD_PER_THREAD * self.pool.current_num_threads()).min(BLOCKS_PER_CHUNK);
        while !emit.stopped {
            if queue.is_empty() {
                let chunk = match others.pop_front() {
                    Some(chunk) => chunk,
                    None if hung_up => break,
                    None => match chunks.recv() {
                        Ok(chunk) => chunk,
                        Err(_) => break,
                    },
                };
                match chunk {
                    Chunk::Games(games) => {
                        self.parse_games(games, &mut emit);
                        emit.flush(true);
                        continue;
                    }
                    Chunk::Blocks(blocks) => queue.extend(blocks.into_iter().map(|block| (block, Parse::Idle))),
                }
            }
            let window = if proven { parse_ahead } else { FIRST_BLOCKS };
            // More blocks to keep the window full, if the reading thread has them ready (the
            // blocks of a chunk of games cut one by one wait until these are done).
            while others.is_empty() && !hung_up && queue.len() < 2 * window {
                match chunks.try_recv() {
                    Ok(Chunk::Blocks(blocks)) => queue.extend(blocks.into_iter().map(|block| (block, Parse::Idle))),
                    Ok(chunk) => others.push_back(chunk),
                    Err(std::sync::mpsc::TryRecvError::Empty) => break,
                    Err(std::sync::mpsc::TryRecvError::Disconnected) => hung_up = true,
                }
            }
            for (block, parse) in queue.iter_mut().take(window) {
                if matches!(parse, Parse::Idle) {
                    *parse = self.start_parse(block);
                }
            }
            let Some((block, parse)) = queue.pop_front() else {
                continue;
            };
            let standing = match &stitch {
                Some(stitch) => stitch.stands(&block),
                None => block.block.offset == 0,
            };
            if standing {
                let parse = match parse.wait() {
                    Some(parse) => parse,
                    // Not started (the window is never empty): read here.
                    None => parse_block(&block.block, self.moves_code),
                };
                proven = block.block.offset > 0;
                let first_line = match &stitch {
                    Some(stitch) if block.block.offset > 0 => stitch.next_line,
                    _ => 1,
                };
                let last = block.block.last;
                let next = Stitch::after(&block, &parse, first_line);
                emit_block(block, parse, first_line, &mut emit);
                stitch = None;
                if last {
                    if !next.clean {
                        self.read_on(next.carry, None, &chunks, &mut emit, &mut others);
                    }
                } else {
                    stitch = Some(next);
                }
                emit.flush(false);
                continue;
            }
            // One reader from the last point between games, until blocks stand again. The
            // blocks it hands back keep their parses (a game without a result now and then
            // costs the blocks around it, not the chunk).
            let Some(carry) = stitch.take().map(|s| s.carry) else {
                // A block of an input whose start was never sent (cannot happen).
                continue;
            };
            proven = false;
            let source = carry.source;
            // The reader takes this input's blocks; the next inputs' wait with their parses.
            let next_input = queue
                .iter()
                .position(|(block, _)| block.source != source || block.block.offset == 0)
                .unwrap_or(queue.len());
            let next_inputs = queue.split_off(next_input);
            let mut parses = HashMap::new();
            let mut following: VecDeque<SourceBlock> = VecDeque::from([block]);
            for (block, parse) in queue.drain(..) {
                parses.insert(block.block.offset, parse);
                following.push_back(block);
            }
            let handed_back = self.read_on(carry, Some(following), &chunks, &mut emit, &mut others);
            if let Some((blocks, next_line)) = handed_back {
                for block in blocks {
                    let parse = parses.remove(&block.block.offset).unwrap_or(Parse::Idle);
                    queue.push_back((block, parse));
                }
                stitch = Some(Stitch {
                    carry: Carry {
                        source,
                        bytes: Vec::new(),
                        line: next_line,
                        at_line_start: true,
                    },
                    clean: true,
                    next_line,
                });
            }
            queue.extend(next_inputs);
            emit.flush(false);
        }
        emit.flush(true);
    }

    /// Starts reading `block` on the pool.
    fn start_parse(&self, block: &SourceBlock) -> Parse {
        let (done, parsed) = std::sync::mpsc::channel();
        let (block, code) = (Arc::clone(&block.block), self.moves_code);
        self.pool.spawn(move || {
            // A panic goes to the thread that waits for the parse, as from `install`.
            let _ = done.send(std::panic::catch_unwind(AssertUnwindSafe(|| parse_block(&block, code))));
        });
        Parse::Running(parsed)
    }

    /// Reads on from `carry` through `following` and the input's blocks still to come (none if
    /// `following` is `None`: the carry ends the input), one reader cutting games (parsed on the
    /// pool a chunk at a time), until a game ends on its result token with only whitespace after
    /// it to the end of a block, and a block starting a line follows: then the blocks from there
    /// and the line they start on. `None` at the end of the input.
    fn read_on(
        &self,
        carry: Carry,
        following: Option<VecDeque<SourceBlock>>,
        chunks: &Receiver<Chunk>,
        emit: &mut Emitter,
        others: &mut VecDeque<Chunk>,
    ) -> Option<(VecDeque<SourceBlock>, u32)> {
        let source = carry.source;
        let (line, at_line_start) = (carry.line, carry.at_line_start);
        let mut reader = PgnReader::continuing(Feed::new(carry, following, chunks), line, at_line_start);
        let mut handed_over = None;
        let code = self.moves_code;
        // This thread cuts chunks while the pool parses the ones before (two in flight, as the
        // reading thread does when games are added one by one); they go out in order.
        self.pool.in_place_scope(|scope| {
            let mut in_flight = VecDeque::new();
            // One buffer grows to the longest game; each game leaves with a copy of its size.
            let mut bytes = Vec::new();
            let mut ended = false;
            while !ended && !emit.stopped {
                let mut games = Vec::new();
                while games.len() < emit.chunk_size {
                    bytes.clear();
                    // The feed reads from memory: it cannot fail.
                    let Ok(Some(raw)) = reader.read_raw_game(&mut bytes) else {
                        ended = true;
                        break;
                    };
                    games.push(Pending {
                        source,
                        bytes: bytes.clone(),
                        raw,
                    });
                    let span = reader.last_game();
                    if span.ended_on_result {
                        let line = reader.line();
                        if let Some(blocks) = reader.get_mut().hand_over(span.end, line) {
                            handed_over = Some(blocks);
                            ended = true;
                            break;
                        }
                    }
                }
                if !games.is_empty() {
                    let (done, parsed) = std::sync::mpsc::channel();
                    scope.spawn(move |_| {
                        let results = parse_raw(&games, code);
                        let _ = done.send((games, results));
                    });
                    in_flight.push_back(parsed);
                }
                while in_flight.len() > usize::from(!ended) {
                    let Some(parsed) = in_flight.pop_front() else {
                        break;
                    };
                    if let Ok((games, results)) = parsed.recv() {
                        emit_parsed(games, results, emit);
                        emit.flush(false);
                    }
                }
            }
        });
        others.extend(reader.into_inner().into_rest());
        handed_over
    }

    /// Parses games cut one by one, in order, into `emit`.
    fn parse_games(&self, chunk: Vec<Pending>, emit: &mut Emitter) {
        let code = self.moves_code;
        let parsed = self.pool.install(|| parse_raw(&chunk, code));
        emit_parsed(chunk, parsed, emit);
    }
}

/// Where the parse of a block stands.
enum Parse {
    /// Not started.
    Idle,
    /// On the pool; the parse (or the panic that ended it) comes through the channel.
    Running(Receiver<std::thread::Result<BlockParse>>),
}

impl Parse {
    /// The parse, once done; `None` if it was never started. A panic while parsing goes on
    /// here.
    fn wait(self) -> Option<BlockParse> {
        match self {
            Parse::Idle => None,
            Parse::Running(parsed) => match parsed.recv() {
                Ok(Ok(parse)) => Some(parse),
                Ok(Err(panic)) => std::panic::resume_unwind(panic),
                // The task is dropped unrun only when the pool goes away, which it does not
                // before this thread does.
                Err(_) => None,
            },
        }
    }
}

/// What parsing a game gave: its row, or the line and reason of its error.
type ParsedGame = Result<GameRow, (u32, String)>;

/// Parses games cut one by one on the current pool.
fn parse_raw(games: &[Pending], code: MovesCode) -> Vec<ParsedGame> {
    games
        .par_iter()
        // Games differ tenfold in length: rayon's default leaves (a quarter of the chunk, run
        // whole) left one thread idle at the end of every chunk (4 % of the time on two cores);
        // with a game a leaf, the idle thread takes the rest.
        .with_max_len(1)
        .map(|game| {
            if game.raw.too_long {
                return Err((game.raw.first_line, too_long_reason()));
            }
            GameRow::from_raw_with(&game.bytes, &game.raw, code).map_err(|e| (e.line, e.kind.to_string()))
        })
        .collect()
}

/// Emits games cut one by one with what parsing them gave.
fn emit_parsed(games: Vec<Pending>, parsed: Vec<ParsedGame>, emit: &mut Emitter) {
    for (game, result) in games.into_iter().zip(parsed) {
        match result {
            Ok(row) => emit.row(row),
            Err((line, reason)) => emit.rejected(game, line, reason),
        }
    }
}

/// Emits the games of a block read on its own, its first line being `first_line` of the input.
fn emit_block(block: SourceBlock, parse: BlockParse, first_line: u32, emit: &mut Emitter) {
    let shift = first_line - 1;
    for game in parse.games {
        match game.result {
            Ok(row) => emit.row(row),
            Err((line, reason)) => {
                let (start, end) = game.span;
                let bytes = if game.raw.too_long {
                    Vec::new()
                } else {
                    block.block.bytes[start..end].to_vec()
                };
                let raw = RawGame {
                    first_line: game.raw.first_line + shift,
                    ..game.raw
                };
                emit.rejected(
                    Pending {
                        source: block.source,
                        bytes,
                        raw,
                    },
                    line + shift,
                    reason,
                );
            }
        }
    }
}

/// The writing thread: starts the parsing stage, writes its rows and rejected games.
struct Worker {
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
    fn new(
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
            // Clocks fall by a few seconds a ply: deltas pack them in 20 % fewer bytes than a
            // dictionary (and hashing every value cost more time than it saved); evaluations
            // are smallest plain.
            .set_column_dictionary_enabled(list_items("clocks"), false)
            .set_column_encoding(list_items("clocks"), Encoding::DELTA_BINARY_PACKED)
            .set_column_dictionary_enabled(list_items("evals"), false)
            .set_created_by(format!("chessbits-parquet {}", env!("CARGO_PKG_VERSION")))
            // Also a file-level entry, for readers that do not decode the Arrow schema.
            .set_key_value_metadata(Some(vec![KeyValue::new(
                MOVES_CODE_KEY.to_string(),
                options.moves_code.name().to_string(),
            )]))
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
            schema: crate::schema_with(options.moves_code),
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
    fn run(mut self, parser: Parser, chunks: Receiver<Chunk>) -> Result<ExportSummary, ExportError> {
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
                    let writer = ArrowWriter::try_new(file, self.schema.clone(), Some(self.props.clone()))?;
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
            let writer = ArrowWriter::try_new(file, self.schema.clone(), Some(self.props.clone()))?;
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
