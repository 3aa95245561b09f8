//! Reading an input in blocks (`PgnBlocks`), each block by its own reader, gives the games of one
//! reader of the whole input, if a block's games are kept only when the block before ended
//! between games (its last game ended on its result token, only whitespace followed, and the
//! block starts a line), and otherwise one reader goes on (`PgnReader::continuing`) from the
//! last point between games until a block ends that way. This is the rule the Parquet export
//! stitches its blocks with (crates/chessbits-parquet/src/blocks.rs, tested against the export
//! of games cut one by one in crates/chessbits-parquet/tests/blocks.rs), here sequentially: it
//! checks the cutter, the reader's spans (`last_game`) and `continuing` on arbitrary bytes. The
//! first byte chooses the block size (1 to 256 bytes).
#![no_main]

use chessbits::pgn::{trim_end, GameError, GameSummary, PgnBlock, PgnBlocks, PgnReader, Validator};
use libfuzzer_sys::fuzz_target;

/// A game: its first line, its bytes (without the whitespace after it) and its outcome.
type Game = (u32, Vec<u8>, Result<GameSummary, GameError>);

/// A game as read, with where the reader stood after it.
struct Read {
    game: Game,
    /// The position after the game, counted from the reader's start.
    end: usize,
    /// The line there.
    line: u32,
    ended_on_result: bool,
}

/// Reads the next game of `input` with `reader`, lines shifted by `shift`.
fn next(reader: &mut PgnReader<&[u8]>, input: &[u8], shift: u32) -> Option<Read> {
    let outcome = reader
        .read_game(&mut Validator::new())
        .expect("reading memory cannot fail")?;
    let span = reader.last_game();
    let (start, end) = (span.start as usize, span.end as usize);
    let trimmed = start + trim_end(&input[start..end]).len();
    let outcome = outcome.map_err(|e| GameError {
        line: e.line + shift,
        ..e
    });
    Some(Read {
        game: (span.first_line + shift, input[start..trimmed].to_vec(), outcome),
        end,
        line: reader.line(),
        ended_on_result: span.ended_on_result,
    })
}

/// One reader over the whole input, cutting games (`read_raw_game`), each read on its own.
fn whole(input: &[u8]) -> Vec<Game> {
    let mut reader = PgnReader::new(input);
    let mut bytes = Vec::new();
    let mut games = Vec::new();
    while let Some(raw) = reader.read_raw_game(&mut bytes).expect("reading memory cannot fail") {
        let outcome = raw.reader(&bytes).read_game(&mut Validator::new()).unwrap();
        games.push((
            raw.first_line,
            std::mem::take(&mut bytes),
            outcome.expect("a raw game is a game"),
        ));
    }
    games
}

/// Line breaks in `bytes` (`\r\n` counts one).
fn line_breaks(bytes: &[u8]) -> u32 {
    let lone_cr = |k: usize| bytes.get(k + 1) != Some(&b'\n');
    (0..bytes.len())
        .filter(|&k| bytes[k] == b'\n' || bytes[k] == b'\r' && lone_cr(k))
        .count() as u32
}

/// The input in blocks, stitched.
fn in_blocks(input: &[u8], size: usize) -> Vec<Game> {
    let mut cutter = PgnBlocks::new(input, size);
    let mut blocks: Vec<PgnBlock> = Vec::new();
    while let Some(block) = cutter.next_block().expect("reading memory cannot fail") {
        blocks.push(block);
    }
    let joined: Vec<u8> = blocks.iter().flat_map(|b| b.bytes.iter().copied()).collect();
    assert_eq!(joined, input, "the blocks are the input");
    let mut games = Vec::new();
    // Where the reader last stood between games: input offset, line, at a line start.
    let mut between = (0usize, 1u32, true);
    // ... and only whitespace follows it to the end of the last block read.
    let mut clean = true;
    // The line the next block starts on.
    let mut next_line = 1;
    let mut i = 0;
    loop {
        if i < blocks.len() && (i == 0 || clean && blocks[i].at_line_start) {
            // The block read on its own: its games up to the last that ended on its result.
            let block = &blocks[i];
            let shift = next_line - 1;
            let mut reader = PgnReader::continuing(&block.bytes[..], 1, block.at_line_start);
            let mut mine = Vec::new();
            let mut kept = 0;
            let mut stood = (0, 1, block.at_line_start);
            while let Some(read) = next(&mut reader, &block.bytes, shift) {
                mine.push(read.game);
                if read.ended_on_result {
                    kept = mine.len();
                    stood = (read.end, read.line, false);
                }
            }
            mine.truncate(kept);
            games.extend(mine);
            between = (block.offset as usize + stood.0, stood.1 + shift, stood.2);
            clean = stood.0 >= block.trailing_whitespace();
            next_line += reader.line() - 1;
            i += 1;
            continue;
        }
        if clean && i == blocks.len() {
            break;
        }
        // One reader from `between` on, until a game ends on its result in the final whitespace
        // of a block after the last one read, and the next block starts a line.
        let base = between.0;
        let rest = &input[base..];
        let mut reader = PgnReader::continuing(rest, between.1, between.2);
        let mut handed = None;
        while let Some(read) = next(&mut reader, rest, 0) {
            games.push(read.game);
            if !read.ended_on_result {
                continue;
            }
            let at = base + read.end;
            let found = (i..blocks.len()).find(|&j| {
                let b = &blocks[j];
                let end = b.offset as usize + b.bytes.len();
                !b.last && at >= b.offset as usize + b.trailing_whitespace() && at <= end
            });
            if let Some(j) = found {
                let next_block = &blocks[j + 1];
                if next_block.at_line_start {
                    let blank = &input[at..next_block.offset as usize];
                    handed = Some((j + 1, read.line + line_breaks(blank)));
                    break;
                }
            }
        }
        match handed {
            Some((j, line)) => {
                i = j;
                next_line = line;
                clean = true;
            }
            None => break,
        }
    }
    games
}

fuzz_target!(|data: &[u8]| {
    let Some((&size, input)) = data.split_first() else {
        return;
    };
    assert_eq!(in_blocks(input, usize::from(size) + 1), whole(input));
});
