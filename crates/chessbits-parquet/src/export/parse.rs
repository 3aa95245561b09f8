//! The parsing stage, on its own thread: what the reading thread sends (blocks, or games cut one
//! by one) parsed into rows on the pool, in input order (see the `stitch` module for blocks).

use std::collections::{HashMap, VecDeque};
use std::panic::AssertUnwindSafe;
use std::sync::mpsc::Receiver;
use std::sync::Arc;

use chessbits::pgn::{PgnReader, RawGame};
use rayon::prelude::*;

use super::chunk::{Chunk, Pending, SourceBlock};
use super::emit::Emitter;
use super::options::{BLOCKS_PER_CHUNK, FIRST_BLOCKS, PARSE_AHEAD_PER_THREAD};
use super::stitch::{parse_block, too_long_reason, BlockParse, Carry, Feed, Stitch};
use crate::moves_code::MovesCode;
use crate::row::GameRow;

/// The parsing stage: games to rows on the pool. (Rows become Arrow batches in the writing
/// thread: done here, that serial step left the pool idle.)
pub(super) struct Parser {
    pub(super) pool: rayon::ThreadPool,
    pub(super) moves_code: MovesCode,
}

impl Parser {
    /// Parses what the reading thread sends, in order, into `emit`.
    ///
    /// Blocks are parsed on the pool as soon as they arrive, up to a window of blocks ahead of
    /// the oldest one not yet emitted: while this thread waits for that one (and emits it), the
    /// pool already reads the blocks after it, so that no thread waits at the end of a batch.
    pub(super) fn run(&self, chunks: Receiver<Chunk>, mut emit: Emitter) {
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
