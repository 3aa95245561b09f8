//! Cutting a PGN input into blocks of bytes for reading on several threads, without lexing it.
//!
//! A block ends right after a line break, where the next game most likely starts: before a tag
//! line (`[Name "`) that follows a result token and whitespace. Whether a block really ends
//! between games is known only once it is read: its last game ended on its result token, and only
//! whitespace follows (see [`PgnBlock::trailing_whitespace`] and
//! [`GameSpan::ended_on_result`](super::GameSpan::ended_on_result)). Then the next block read by
//! a fresh reader ([`PgnReader::continuing`](super::PgnReader::continuing), at a line start)
//! gives what one reader over the whole input gives; otherwise the reader of the whole input
//! must go on from where the last block stood between games.

use std::io::{self, Read};

use super::syntax::starts_tag_pair;
use super::visitor::GameResult;

/// Bytes a block is cut at, at most, when no line break can be found: a block never ends inside
/// a line otherwise.
pub const MAX_BLOCK_BYTES: usize = 1 << 22;

/// A block of a PGN input: whole lines, except when a line is longer than [`MAX_BLOCK_BYTES`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PgnBlock {
    /// The bytes.
    pub bytes: Vec<u8>,
    /// Where the block starts in the input.
    pub offset: u64,
    /// The byte before the block is a line feed (or the block starts the input).
    pub at_line_start: bool,
    /// The block ends the input.
    pub last: bool,
}

impl PgnBlock {
    /// Where the whitespace that ends the block starts (spaces, tabs, line breaks, form feeds,
    /// vertical tabs): the block's length if it ends otherwise.
    ///
    /// ```
    /// use chessbits::pgn::PgnBlock;
    /// let block = PgnBlock { bytes: b"1. e4 *\r\n\n".to_vec(), ..PgnBlock::default() };
    /// assert_eq!(block.trailing_whitespace(), 7);
    /// ```
    pub fn trailing_whitespace(&self) -> usize {
        trim_end(&self.bytes).len()
    }
}

/// Whitespace as the reader skips it between games.
fn is_blank(byte: u8) -> bool {
    matches!(byte, b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c)
}

/// `bytes` without the whitespace at their end: a game's bytes end with its last token (see
/// [`PgnReader::read_raw_game`](super::PgnReader::read_raw_game)).
///
/// ```
/// use chessbits::pgn::trim_end;
/// assert_eq!(trim_end(b"1. e4 *\r\n\x0b\x0c \t"), b"1. e4 *");
/// ```
pub fn trim_end(bytes: &[u8]) -> &[u8] {
    let blanks = bytes.iter().rev().take_while(|&&b| is_blank(b)).count();
    &bytes[..bytes.len() - blanks]
}

/// Cuts a PGN input into [`PgnBlock`]s of about `target` bytes.
///
/// ```
/// use chessbits::pgn::PgnBlocks;
/// let pgn = b"[Event \"a\"]\n\n1. e4 1-0\n\n[Event \"b\"]\n\n1. d4 0-1\n";
/// let mut blocks = PgnBlocks::new(&pgn[..], 32);
/// let first = blocks.next_block().unwrap().unwrap();
/// assert_eq!(first.bytes, b"[Event \"a\"]\n\n1. e4 1-0\n\n");
/// let second = blocks.next_block().unwrap().unwrap();
/// assert_eq!((second.offset, second.at_line_start, second.last), (24, true, true));
/// assert!(blocks.next_block().unwrap().is_none());
/// ```
pub struct PgnBlocks<R> {
    inner: R,
    /// Bytes read and not yet handed out.
    pending: Vec<u8>,
    /// The input position of `pending[0]`.
    offset: u64,
    at_line_start: bool,
    target: usize,
    eof: bool,
}

impl<R: Read> PgnBlocks<R> {
    /// Blocks of `inner` of about `target` bytes (at least one).
    pub fn new(inner: R, target: usize) -> PgnBlocks<R> {
        PgnBlocks {
            inner,
            pending: Vec::new(),
            offset: 0,
            at_line_start: true,
            target: target.clamp(1, MAX_BLOCK_BYTES),
            eof: false,
        }
    }

    /// The next block; `None` at the end of the input. A read error is returned as it happens
    /// (the bytes before it are not handed out).
    pub fn next_block(&mut self) -> io::Result<Option<PgnBlock>> {
        let mut want = self.target;
        loop {
            self.fill(want + 1)?;
            if self.pending.is_empty() {
                return Ok(None);
            }
            if self.eof && self.pending.len() <= want {
                let bytes = std::mem::take(&mut self.pending);
                return Ok(Some(self.hand_out(bytes, true)));
            }
            // A cut leaves at least a byte: the block after it may be the last.
            let searched = &self.pending[..self.pending.len() - 1];
            if let Some(cut) = cut_point(searched) {
                let rest = self.pending.split_off(cut);
                let bytes = std::mem::replace(&mut self.pending, rest);
                return Ok(Some(self.hand_out(bytes, false)));
            }
            if self.pending.len() >= MAX_BLOCK_BYTES {
                // No line break in 4 MiB: cut anyway (the next block does not start a line).
                let rest = self.pending.split_off(MAX_BLOCK_BYTES);
                let bytes = std::mem::replace(&mut self.pending, rest);
                return Ok(Some(self.hand_out(bytes, false)));
            }
            want = (2 * want).min(MAX_BLOCK_BYTES);
        }
    }

    fn hand_out(&mut self, bytes: Vec<u8>, last: bool) -> PgnBlock {
        let block = PgnBlock {
            offset: self.offset,
            at_line_start: self.at_line_start,
            last,
            bytes,
        };
        self.offset += block.bytes.len() as u64;
        self.at_line_start = block.bytes.last() == Some(&b'\n');
        block
    }

    /// Reads until `pending` holds `want` bytes or the input ends.
    fn fill(&mut self, want: usize) -> io::Result<()> {
        while self.pending.len() < want && !self.eof {
            let len = self.pending.len();
            self.pending.resize(want.max(len + 8192), 0);
            match self.inner.read(&mut self.pending[len..]) {
                Ok(0) => {
                    self.pending.truncate(len);
                    self.eof = true;
                }
                Ok(n) => self.pending.truncate(len + n),
                Err(e) if e.kind() == io::ErrorKind::Interrupted => self.pending.truncate(len),
                Err(e) => {
                    self.pending.truncate(len);
                    return Err(e);
                }
            }
        }
        Ok(())
    }
}

/// Where to cut `bytes`: right after the last line feed that is followed by a tag line after a
/// result token, else after the last line feed followed by a tag line, else after the last line
/// feed; `None` without a line feed.
fn cut_point(bytes: &[u8]) -> Option<usize> {
    let mut tag_line = None;
    let mut line_start = None;
    for i in (0..bytes.len()).rev() {
        if bytes[i] != b'\n' {
            continue;
        }
        let cut = i + 1;
        line_start.get_or_insert(cut);
        if bytes.get(cut) == Some(&b'[') && starts_tag_pair(&bytes[cut..], false) == Some(true) {
            tag_line.get_or_insert(cut);
            if follows_result(&bytes[..cut]) {
                return Some(cut);
            }
        }
    }
    tag_line.or(line_start)
}

/// Whether the last token of `bytes`, before its trailing whitespace, reads as a result.
fn follows_result(bytes: &[u8]) -> bool {
    let end = trim_end(bytes).len();
    let start = bytes[..end].iter().rposition(|&b| is_blank(b)).map_or(0, |i| i + 1);
    GameResult::from_bytes(&bytes[start..end]).is_some()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn blocks(input: &[u8], target: usize) -> Vec<PgnBlock> {
        let mut cutter = PgnBlocks::new(input, target);
        let mut out = Vec::new();
        while let Some(block) = cutter.next_block().unwrap() {
            out.push(block);
        }
        out
    }

    #[test]
    fn blocks_put_back_together_are_the_input() {
        let inputs: [&[u8]; 5] = [
            b"",
            b"[Event \"a\"]\n\n1. e4 1-0\n\n[Event \"b\"]\n1. d4 *\n\n\n[Event \"c\"]\r\n1. c4 0-1",
            b"no line breaks at all",
            b"\r\r\r[Event \"x\"]\r1. e4 *\r",
            b"\n\n\n\n[A \"\n[B \"\n",
        ];
        for input in inputs {
            for target in 1..input.len() + 2 {
                let cut = blocks(input, target);
                let joined: Vec<u8> = cut.iter().flat_map(|b| b.bytes.clone()).collect();
                assert_eq!(joined, input, "target {target}");
                let mut offset = 0;
                for (i, block) in cut.iter().enumerate() {
                    assert_eq!(block.offset, offset);
                    assert!(!block.bytes.is_empty());
                    assert_eq!(block.last, i + 1 == cut.len());
                    let after_line_feed = offset == 0 || input[offset as usize - 1] == b'\n';
                    assert_eq!(block.at_line_start, after_line_feed);
                    offset += block.bytes.len() as u64;
                }
            }
        }
    }

    #[test]
    fn cuts_prefer_a_tag_line_after_a_result() {
        let input = b"[Event \"a\"]\n\n[Site \"b\"]\n\n1. e4 1/2-1/2\n\n[Event \"c\"]\n\n1. e4 *\n";
        let cut = blocks(input, 48);
        assert!(
            cut[0].bytes.ends_with(b"1/2-1/2\n\n"),
            "{:?}",
            String::from_utf8_lossy(&cut[0].bytes)
        );
        assert!(cut[1].bytes.starts_with(b"[Event \"c\"]"));
    }

    #[test]
    fn a_line_longer_than_the_limit_is_cut() {
        let input = vec![b'e'; MAX_BLOCK_BYTES + 10];
        let cut = blocks(&input, 1000);
        assert_eq!(cut.len(), 2);
        assert_eq!(cut[0].bytes.len(), MAX_BLOCK_BYTES);
        assert!(!cut[1].at_line_start);
    }
}
