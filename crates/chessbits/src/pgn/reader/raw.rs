//! Cutting the input into games: each game's bytes as they stand in the input.

use std::io::{self, Read};

use super::{Capture, Muted, PgnReader, LOOKAHEAD};
use crate::pgn::syntax::MAX_GAME_BYTES;
use crate::pgn::trim_end;

/// Where a game read by [`PgnReader::read_raw_game`] stands in the input.
///
/// ```
/// use chessbits::pgn::PgnReader;
/// let mut reader = PgnReader::new(&b"1. e4 *\n\n[Event \"x\"]\n1. d4 *\n"[..]);
/// let mut bytes = Vec::new();
/// let first = reader.read_raw_game(&mut bytes).unwrap().unwrap();
/// assert_eq!((first.first_line, &bytes[..]), (1, &b"1. e4 *"[..]));
/// bytes.clear();
/// let second = reader.read_raw_game(&mut bytes).unwrap().unwrap();
/// assert_eq!((second.first_line, &bytes[..]), (3, &b"[Event \"x\"]\n1. d4 *"[..]));
/// assert!(reader.read_raw_game(&mut bytes).unwrap().is_none());
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct RawGame {
    /// The line the game starts on.
    pub first_line: u32,
    /// The game starts right after a line break (a `%` there would start an escape line).
    pub at_line_start: bool,
    /// The game is longer than [`MAX_GAME_BYTES`]: its bytes were not kept.
    pub too_long: bool,
}

impl RawGame {
    /// A reader over `bytes`, the game's bytes, that reads the game as the reader it came from
    /// read it: same line numbers, same tokens, same errors.
    ///
    /// ```
    /// use chessbits::pgn::PgnReader;
    /// let mut reader = PgnReader::new(&b"\n\n1. e4 e4 *"[..]);
    /// let mut bytes = Vec::new();
    /// let raw = reader.read_raw_game(&mut bytes).unwrap().unwrap();
    /// let error = raw.reader(&bytes[..]).read_owned_game().unwrap().unwrap().unwrap_err();
    /// assert_eq!(error.to_string(), "line 3: illegal move 'e4'");
    /// ```
    pub fn reader<'a>(&self, bytes: &'a [u8]) -> PgnReader<&'a [u8]> {
        // A buffer the size of the game (most are a few hundred bytes): clearing 64 KiB per game
        // cost more than reading it.
        let mut reader = PgnReader::with_capacity(bytes, self.first_line, bytes.len() + 2 * LOOKAHEAD);
        reader.after_newline = self.at_line_start;
        reader
    }
}

impl<R: Read> PgnReader<R> {
    /// Reads the next game's bytes, as they stand in the input, onto the end of `bytes`, and
    /// where the game stands; `None` at the end of the input. The game ends where
    /// [`read_game`](PgnReader::read_game) would end it; [`RawGame::reader`] reads it back with
    /// the same lines, tokens and errors. Whitespace before and after the game is not included
    /// (not even the blank lines that end an unclosed comment). A game
    /// longer than [`MAX_GAME_BYTES`] is skipped in bounded memory: `too_long`, nothing added.
    ///
    /// This is how a file is cut into games for several threads, and how a game that cannot be
    /// understood is kept as it was written.
    ///
    /// ```
    /// use chessbits::pgn::PgnReader;
    /// let pgn = b"[Event \"a\"]\n\n1. e4 {unclosed\n\n[Event \"b\"]\n\n1. d4 *";
    /// let mut reader = PgnReader::new(&pgn[..]);
    /// let mut bytes = Vec::new();
    /// reader.read_raw_game(&mut bytes).unwrap().unwrap();
    /// assert_eq!(bytes, b"[Event \"a\"]\n\n1. e4 {unclosed");
    /// ```
    pub fn read_raw_game(&mut self, bytes: &mut Vec<u8>) -> io::Result<Option<RawGame>> {
        loop {
            self.skip_whitespace()?;
            if self.start == self.end {
                return self.end_of_input();
            }
            let mut raw = RawGame {
                first_line: self.line,
                at_line_start: self.after_newline,
                too_long: false,
            };
            self.game_start = (self.position(), self.line, self.after_newline);
            let kept = bytes.len();
            self.capture = Some(Capture {
                bytes: std::mem::take(bytes),
                from: self.start,
                kept,
                too_long: false,
            });
            let read = self.read_tags(&mut Muted).and_then(|tags| {
                let substance = self.read_movetext(&mut Muted, true)?;
                Ok(tags || substance)
            });
            if let Some(mut capture) = self.capture.take() {
                if !capture.too_long {
                    capture.bytes.extend_from_slice(&self.buf[capture.from..self.start]);
                }
                if capture.too_long || (capture.bytes.len() - kept) as u64 > MAX_GAME_BYTES {
                    capture.bytes.truncate(kept);
                    raw.too_long = true;
                }
                // The text ends with its last token: blanks read on to find the game's end
                // (before the next game's tags, or the end of the input) belong to no game.
                let text = trim_end(&capture.bytes[kept..]).len();
                capture.bytes.truncate(kept + text);
                *bytes = capture.bytes;
                if read.is_err() || self.at_end && self.error.is_some() {
                    bytes.truncate(kept);
                }
                if matches!(read, Ok(false)) && self.error.is_none() {
                    // Move numbers and dots alone: no game (as `read_game` sees it).
                    bytes.truncate(kept);
                    continue;
                }
            }
            read?;
            self.cut_by_error()?;
            return Ok(Some(raw));
        }
    }
}
