//! Reading an input in blocks on the pool, and stitching the blocks' games back into the games
//! one reader of the whole input reads.
//!
//! The reading thread cuts the input into [`PgnBlock`]s without lexing it. Every block is read
//! on the pool by its own reader, as if a game started at its first byte. In input order, the
//! parsing thread then keeps a block's games only if the block before ended *between games*: its
//! last game ended on its result token, only whitespace followed, and the block starts a line.
//! Then a reader of the whole input stands at the block's start exactly as the block's own reader
//! did (a line start, between games; the line number is carried over from the blocks before),
//! and reads the same games.
//!
//! Otherwise (a game without a result at the end of a block, a block cut inside a game, a file
//! without line feeds) the parsing thread goes on as one reader of the whole input would, from
//! the last point where the block before stood between games: it cuts games with
//! [`PgnReader::read_raw_game`] over that block's rest and the blocks after, parses them on the
//! pool, and returns to blocks after the first one that ends between games.

use std::collections::VecDeque;
use std::io::{self, Read};
use std::sync::mpsc::Receiver;

use chessbits::pgn::{
    trim_end, MainLineReader, PgnBlock, PgnReader, RawGame, MAX_BLOCK_BYTES, MAX_GAME_BYTES, MAX_TOKEN_BYTES,
};

use super::chunk::{Chunk, SourceBlock};
use crate::moves_code::MovesCode;
use crate::row::{movetext, GameRow};

/// A game of a block: where it stands and what it gave, lines counted from the block's start
/// (its first line is 1).
pub(crate) struct BlockGame {
    /// Its bytes in the block, without the whitespace after it.
    pub span: (usize, usize),
    pub raw: RawGame,
    /// The row, or the line and reason of the error.
    pub result: Result<GameRow, (u32, String)>,
}

/// Where a reader stood between games: an offset in a block, the line there (counted as in
/// [`BlockGame`]) and whether it is a line start.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Between {
    pub offset: usize,
    pub line: u32,
    pub at_line_start: bool,
}

/// A block read on the pool.
pub(crate) struct BlockParse {
    /// The games that end by `between.offset`, in order.
    pub games: Vec<BlockGame>,
    /// The last point where the reader stood between games: after the last game that ended on
    /// its result token, or the block's start.
    pub between: Between,
    /// Only whitespace follows `between`.
    pub clean: bool,
    /// Line breaks in the block.
    pub line_breaks: u32,
}

/// The reason a too long game is rejected with (as [`RawGame::too_long`] says).
pub(crate) fn too_long_reason() -> String {
    format!("game longer than {MAX_GAME_BYTES} bytes")
}

/// Reads a block's games as if a game started at its first byte.
pub(crate) fn parse_block(block: &PgnBlock, code: MovesCode) -> BlockParse {
    thread_local! {
        static READER: std::cell::RefCell<MainLineReader> = std::cell::RefCell::new(MainLineReader::new());
    }
    let bytes = &block.bytes[..];
    let mut reader = PgnReader::continuing(bytes, 1, block.at_line_start);
    let mut games = Vec::new();
    let mut between = Between {
        offset: 0,
        line: 1,
        at_line_start: block.at_line_start,
    };
    let mut kept = 0;
    READER.with_borrow_mut(|main_line| {
        // Reading from memory cannot fail.
        while let Ok(Some(game)) = reader.read_game(main_line) {
            let span = reader.last_game();
            let (start, end) = (span.start as usize, span.end as usize);
            let trimmed = start + trim_end(&bytes[start..end]).len();
            let raw = RawGame {
                first_line: span.first_line,
                at_line_start: span.at_line_start,
                too_long: span.end - span.start > MAX_GAME_BYTES,
            };
            let result = match game {
                _ if raw.too_long => Err((raw.first_line, too_long_reason())),
                Ok(game) => {
                    let row = GameRow::from_main_line_with(&game, movetext(&bytes[start..trimmed]), code);
                    main_line.recycle(game);
                    Ok(row)
                }
                Err(error) => Err((error.line, error.kind.to_string())),
            };
            games.push(BlockGame {
                span: (start, trimmed),
                raw,
                result,
            });
            if span.ended_on_result {
                between = Between {
                    offset: end,
                    line: reader.line(),
                    at_line_start: false,
                };
                kept = games.len();
            }
        }
    });
    games.truncate(kept);
    let clean = between.offset >= block.trailing_whitespace();
    BlockParse {
        games,
        between,
        clean,
        line_breaks: reader.line() - 1,
    }
}

/// Line breaks in whitespace (`\r\n` counts one).
fn line_breaks(blank: &[u8]) -> u32 {
    let mut lines = 0;
    for (i, &b) in blank.iter().enumerate() {
        if b == b'\n' || b == b'\r' && blank.get(i + 1) != Some(&b'\n') {
            lines += 1;
        }
    }
    lines
}

/// The input from a point where the reader stood between games: the rest of a block.
pub(crate) struct Carry {
    pub source: u32,
    pub bytes: Vec<u8>,
    /// The line at `bytes[0]`.
    pub line: u32,
    pub at_line_start: bool,
}

/// Where the parsing thread stands in an input read in blocks.
pub(crate) struct Stitch {
    /// The rest of the last block from where its reader last stood between games.
    pub carry: Carry,
    /// Only whitespace is carried, and the next block starts a line: its games stand.
    pub clean: bool,
    /// The line the next block starts on.
    pub next_line: u32,
}

impl Stitch {
    /// Whether the games of `block`, as read on its own, are the input's games.
    pub fn stands(&self, block: &SourceBlock) -> bool {
        block.block.offset == 0 || (self.clean && block.block.at_line_start && block.source == self.carry.source)
    }

    /// The state after a block whose games stand.
    pub fn after(block: &SourceBlock, parse: &BlockParse, first_line: u32) -> Stitch {
        let between = parse.between;
        Stitch {
            carry: Carry {
                source: block.source,
                bytes: block.block.bytes[between.offset..].to_vec(),
                line: first_line + between.line - 1,
                at_line_start: between.at_line_start,
            },
            clean: parse.clean,
            next_line: first_line + parse.line_breaks,
        }
    }
}

/// Bytes of blocks kept after the reader has read them: enough to hand back the blocks after the
/// one a game ends in, whatever the reader has read ahead (its buffer never holds more than a
/// token's limit and some).
const KEPT_BEHIND: u64 = 2 * (MAX_TOKEN_BYTES + MAX_BLOCK_BYTES) as u64;

/// A block handed to the reader, kept until it can no longer be handed back.
struct Handed {
    block: SourceBlock,
    /// Its start, counted from the feed's start.
    start: u64,
}

/// The input of the reader that goes on across blocks: the carried bytes, then blocks of the same
/// source, from a queue, then from the reading thread.
pub(crate) struct Feed<'a> {
    carry: Vec<u8>,
    carry_read: usize,
    queue: VecDeque<SourceBlock>,
    chunks: &'a Receiver<Chunk>,
    /// Chunks received that are not this input's blocks (none, as the reading thread sends an
    /// input's blocks before anything else): handed back to the parsing thread, in order.
    others: Vec<Chunk>,
    source: u32,
    /// Handed blocks (the last one being read), oldest first.
    handed: VecDeque<Handed>,
    /// Bytes of the last handed block already read.
    read_in_last: usize,
    /// The feed's length so far.
    total: u64,
    /// The input's last block has been handed out.
    ended: bool,
}

impl<'a> Feed<'a> {
    /// The carry, then `following` and the input's blocks still to come (none if `following` is
    /// `None`: the carry ends the input).
    pub fn new(carry: Carry, following: Option<VecDeque<SourceBlock>>, chunks: &'a Receiver<Chunk>) -> Feed<'a> {
        let ended = following.is_none();
        Feed {
            others: Vec::new(),
            total: carry.bytes.len() as u64,
            source: carry.source,
            carry: carry.bytes,
            carry_read: 0,
            queue: following.unwrap_or_default(),
            chunks,
            handed: VecDeque::new(),
            read_in_last: 0,
            ended,
        }
    }

    /// The next block of the source, if any.
    fn next_block(&mut self) -> Option<SourceBlock> {
        if self.ended {
            return None;
        }
        if self.queue.is_empty() {
            // The reading thread sends the blocks of one input in order, its last block last.
            match self.chunks.recv().ok()? {
                Chunk::Blocks(blocks) => self.queue.extend(blocks),
                other => {
                    self.others.push(other);
                    self.ended = true;
                    return None;
                }
            }
        }
        let block = self.queue.pop_front()?;
        if block.source != self.source || block.block.offset == 0 {
            // Not this input's (cannot happen): handed back.
            self.queue.push_front(block);
            self.others.push(Chunk::Blocks(self.queue.drain(..).collect()));
            self.ended = true;
            return None;
        }
        self.ended = block.block.last;
        Some(block)
    }

    /// Where the reader, standing between games at `position` (counted from the feed's start)
    /// on line `line`, can hand over to blocks: if `position` is in a handed block's final
    /// whitespace and a block starting a line follows, the blocks from there on (given back, in
    /// order, with the queue's) and the line the first one starts on.
    pub fn hand_over(&mut self, position: u64, line: u32) -> Option<(VecDeque<SourceBlock>, u32)> {
        let index = self.handed.iter().position(|h| {
            let end = h.start + h.block.block.bytes.len() as u64;
            position >= h.start && position <= end && !h.block.block.last
        })?;
        let handed = &self.handed[index];
        let blank_from = handed.start + handed.block.block.trailing_whitespace() as u64;
        if position < blank_from {
            return None;
        }
        let rest = &handed.block.block.bytes[(position - handed.start) as usize..];
        let next_line = line + line_breaks(rest);
        // The next block: handed already, or the next in the queue (or from the reading thread).
        if index + 1 == self.handed.len() && self.queue.is_empty() {
            let block = self.next_block()?;
            self.queue.push_back(block);
        }
        let starts_line = match self.handed.get(index + 1) {
            Some(next) => next.block.block.at_line_start,
            None => self.queue.front().is_some_and(|b| b.block.at_line_start),
        };
        if !starts_line {
            return None;
        }
        let mut blocks: VecDeque<SourceBlock> = self.handed.drain(index + 1..).map(|h| h.block).collect();
        blocks.extend(self.queue.drain(..));
        Some((blocks, next_line))
    }

    /// What the reader did not take, in input order: blocks left in the queue (of the next
    /// inputs), then the chunks received for them.
    pub fn into_rest(mut self) -> Vec<Chunk> {
        let mut rest = Vec::new();
        if !self.queue.is_empty() {
            rest.push(Chunk::Blocks(self.queue.drain(..).collect()));
        }
        rest.append(&mut self.others);
        rest
    }

    /// Forgets blocks the reader is done with (see [`KEPT_BEHIND`]).
    fn forget_old(&mut self) {
        while self.handed.len() > 1 {
            let first = &self.handed[0];
            if first.start + (first.block.block.bytes.len() as u64) + KEPT_BEHIND > self.total {
                break;
            }
            self.handed.pop_front();
        }
    }
}

impl Read for Feed<'_> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        if self.carry_read < self.carry.len() {
            let n = out.len().min(self.carry.len() - self.carry_read);
            out[..n].copy_from_slice(&self.carry[self.carry_read..self.carry_read + n]);
            self.carry_read += n;
            return Ok(n);
        }
        loop {
            if let Some(last) = self.handed.back() {
                let bytes = &last.block.block.bytes;
                if self.read_in_last < bytes.len() {
                    let n = out.len().min(bytes.len() - self.read_in_last);
                    out[..n].copy_from_slice(&bytes[self.read_in_last..self.read_in_last + n]);
                    self.read_in_last += n;
                    return Ok(n);
                }
            }
            let Some(block) = self.next_block() else {
                return Ok(0);
            };
            let start = self.total;
            self.total += block.block.bytes.len() as u64;
            self.handed.push_back(Handed { block, start });
            self.read_in_last = 0;
            self.forget_old();
        }
    }
}
