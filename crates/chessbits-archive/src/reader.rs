//! [`ArchiveReader`]: open, verify, seek and decode a `.cbits` archive.

use std::io::{ErrorKind, Read, Seek, SeekFrom};

use super::block::declared_raw_len;
use super::codec::MoveCodec;
use super::deserialize::decode_block;
use super::error::ArchiveError;
use super::format::{
    index_len, parse_index, BlockHeader, BlockInfo, FileHeader, Footer, Location, BLOCK_HEADER_LEN, FOOTER_LEN,
    HEADER_LEN, MAGIC,
};
use super::pipeline::Pipeline;
use super::scan::scan_blocks;
use super::stored::StoredGame;

/// A block read from the file and verified (header and payload checksums), not yet decoded.
///
/// Decoding is the expensive part: [`decode`](RawBlock::decode) can run on any thread.
#[derive(Clone, Debug)]
pub struct RawBlock {
    /// Where it is and what it holds.
    pub info: BlockInfo,
    pub(crate) codec: MoveCodec,
    pub(crate) payload: Vec<u8>,
}

impl RawBlock {
    /// The block's games.
    ///
    /// ```
    /// use chessbits_archive::{ArchiveReader, ArchiveWriter, StoredGame, WriterOptions};
    /// use chessbits::pgn::GameTree;
    /// use std::io::Cursor;
    /// let mut writer = ArchiveWriter::new(Vec::new(), WriterOptions::default()).unwrap();
    /// writer.add_game(&GameTree::default()).unwrap();
    /// let (bytes, _) = writer.finish().unwrap();
    /// let mut reader = ArchiveReader::open(Cursor::new(bytes)).unwrap();
    /// let block = reader.read_block(0).unwrap();
    /// assert_eq!(block.decode().unwrap(), vec![StoredGame::Game(GameTree::default())]);
    /// ```
    pub fn decode(&self) -> Result<Vec<StoredGame>, ArchiveError> {
        decode_block(&self.payload, self.codec, self.info.game_count)
            .map_err(|corrupt| ArchiveError::payload(self.info.number, corrupt))
    }

    /// The move codec the block was written with.
    ///
    /// ```
    /// use chessbits_archive::{ArchiveReader, ArchiveWriter, MoveCodec, WriterOptions};
    /// use chessbits::pgn::GameTree;
    /// use std::io::Cursor;
    /// let options = WriterOptions { codec: MoveCodec::IndexBits, ..WriterOptions::default() };
    /// let mut writer = ArchiveWriter::new(Vec::new(), options).unwrap();
    /// writer.add_game(&GameTree::default()).unwrap();
    /// let (bytes, _) = writer.finish().unwrap();
    /// let mut reader = ArchiveReader::open(Cursor::new(bytes)).unwrap();
    /// assert_eq!(reader.read_block(0).unwrap().codec(), MoveCodec::IndexBits);
    /// ```
    pub fn codec(&self) -> MoveCodec {
        self.codec
    }

    /// Bytes of the payload.
    ///
    /// ```
    /// use chessbits_archive::{ArchiveReader, ArchiveWriter, WriterOptions};
    /// use chessbits::pgn::GameTree;
    /// use std::io::Cursor;
    /// let mut writer = ArchiveWriter::new(Vec::new(), WriterOptions::default()).unwrap();
    /// writer.add_game(&GameTree::default()).unwrap();
    /// let (bytes, summary) = writer.finish().unwrap();
    /// let mut reader = ArchiveReader::open(Cursor::new(bytes)).unwrap();
    /// let block = reader.read_block(0).unwrap();
    /// assert_eq!(block.payload_len() as u64 + 16 + 36 + 32 + 32, summary.bytes);
    /// ```
    pub fn payload_len(&self) -> usize {
        self.payload.len()
    }
}

/// The raw bytes that [`ArchiveReader::decode_blocks`] lets the blocks in work declare in all.
pub const DECODE_BUDGET_BYTES: u64 = 96 << 20;

/// Reads a `.cbits` archive: game count, sequential games, game N through the index, blocks
/// with their verification.
///
/// [`open`](ArchiveReader::open) insists on an intact header, index and footer.
/// [`recover`](ArchiveReader::recover) opens what it can: without a usable index it scans the
/// file for block headers, and [`problems`](ArchiveReader::problems) says what was wrong.
///
/// ```
/// use chessbits_archive::{ArchiveReader, ArchiveWriter, WriterOptions};
/// use chessbits::pgn::PgnReader;
/// use std::io::Cursor;
///
/// let pgn = "1. e4 e5 *\n\n1. d4 d5 *\n\n1. c4 c5 *\n";
/// let options = WriterOptions { max_games_per_block: 2, ..WriterOptions::default() };
/// let mut writer = ArchiveWriter::new(Vec::new(), options).unwrap();
/// for game in PgnReader::new(pgn.as_bytes()).into_games() {
///     writer.add_game(&game.unwrap()).unwrap();
/// }
/// let (bytes, _) = writer.finish().unwrap();
///
/// let mut reader = ArchiveReader::open(Cursor::new(bytes)).unwrap();
/// assert_eq!(reader.game_count(), 3);
/// assert_eq!(reader.block_infos().len(), 2);
/// let games: Vec<_> = reader.games().map(Result::unwrap).collect();
/// assert_eq!(reader.game(2).unwrap(), games[2]);
/// assert_eq!(games[2].game().unwrap().to_pgn(), b"1. c4 c5 *\n\n");
/// ```
pub struct ArchiveReader<R: Read + Seek> {
    inner: R,
    file_len: u64,
    codec: Option<MoveCodec>,
    blocks: Vec<Location>,
    problems: Vec<ArchiveError>,
}

/// `read_exact`, with an unexpected end of file turned into `truncated`.
pub(crate) fn read_exact_or<R: Read>(r: &mut R, buf: &mut [u8], truncated: ArchiveError) -> Result<(), ArchiveError> {
    r.read_exact(buf).map_err(|e| {
        if e.kind() == ErrorKind::UnexpectedEof {
            truncated
        } else {
            ArchiveError::Io(e)
        }
    })
}

impl<R: Read + Seek> ArchiveReader<R> {
    /// Opens an archive, checking the header, footer and index.
    ///
    /// ```
    /// use chessbits_archive::{ArchiveError, ArchiveReader};
    /// use std::io::Cursor;
    /// let result = ArchiveReader::open(Cursor::new(b"[Event \"not an archive\"]".to_vec()));
    /// assert!(matches!(result, Err(ArchiveError::BadMagic)));
    /// ```
    pub fn open(mut inner: R) -> Result<ArchiveReader<R>, ArchiveError> {
        let file_len = inner.seek(SeekFrom::End(0))?;
        let header = read_header(&mut inner, file_len)?;
        let blocks = read_index(&mut inner, file_len)?;
        Ok(ArchiveReader {
            inner,
            file_len,
            codec: Some(header.codec),
            blocks,
            problems: Vec::new(),
        })
    }

    /// Opens whatever can be read of a damaged archive: only the magic bytes must be right (and
    /// the format version, if the header's checksum holds).
    /// Without a usable footer and index the blocks are found by scanning the file for block
    /// headers (each has its own checksum); what was wrong is in [`problems`](Self::problems).
    ///
    /// ```
    /// use chessbits_archive::{ArchiveError, ArchiveReader, ArchiveWriter, WriterOptions};
    /// use chessbits::pgn::GameTree;
    /// use std::io::Cursor;
    /// let mut writer = ArchiveWriter::new(Vec::new(), WriterOptions::default()).unwrap();
    /// writer.add_game(&GameTree::default()).unwrap();
    /// let (mut bytes, _) = writer.finish().unwrap();
    /// bytes.truncate(bytes.len() - 10); // the footer is gone
    /// assert!(matches!(ArchiveReader::open(Cursor::new(bytes.clone())), Err(ArchiveError::MissingFooter)));
    /// let mut reader = ArchiveReader::recover(Cursor::new(bytes)).unwrap();
    /// assert!(matches!(reader.problems(), [ArchiveError::MissingFooter]));
    /// assert_eq!(reader.games().count(), 1);
    /// ```
    pub fn recover(mut inner: R) -> Result<ArchiveReader<R>, ArchiveError> {
        let file_len = inner.seek(SeekFrom::End(0))?;
        let mut problems = Vec::new();
        let codec = match read_header(&mut inner, file_len) {
            Ok(header) => Some(header.codec),
            // Not an archive, or one of a format this version cannot read (the header checksum
            // holds, so the version is what the writer wrote): nothing to recover.
            Err(
                error @ (ArchiveError::BadMagic
                | ArchiveError::Io(_)
                | ArchiveError::UnsupportedVersion(_)
                | ArchiveError::UnsupportedModel(_)),
            ) => return Err(error),
            Err(error) => {
                problems.push(error);
                None
            }
        };
        let blocks = match read_index(&mut inner, file_len) {
            Ok(blocks) => blocks,
            Err(error @ ArchiveError::Io(_)) => return Err(error),
            Err(error) => {
                problems.push(error);
                let (blocks, mut lost) = scan_blocks(&mut inner, file_len)?;
                problems.append(&mut lost);
                blocks
            }
        };
        Ok(ArchiveReader {
            inner,
            file_len,
            codec,
            blocks,
            problems,
        })
    }

    /// What [`recover`](Self::recover) found wrong with the header, footer or index (empty for
    /// an archive that [`open`](Self::open)s).
    ///
    /// ```
    /// use chessbits_archive::{ArchiveReader, ArchiveWriter, WriterOptions};
    /// use chessbits::pgn::GameTree;
    /// use std::io::Cursor;
    /// let mut writer = ArchiveWriter::new(Vec::new(), WriterOptions::default()).unwrap();
    /// writer.add_game(&GameTree::default()).unwrap();
    /// let (bytes, _) = writer.finish().unwrap();
    /// let mut reader = ArchiveReader::open(Cursor::new(bytes)).unwrap();
    /// assert!(reader.problems().is_empty());
    /// ```
    pub fn problems(&self) -> &[ArchiveError] {
        &self.problems
    }

    /// The archive's default move codec (each block names its own); `None` if the header was
    /// damaged.
    ///
    /// ```
    /// use chessbits_archive::{ArchiveReader, ArchiveWriter, WriterOptions};
    /// use chessbits::pgn::GameTree;
    /// use std::io::Cursor;
    /// let mut writer = ArchiveWriter::new(Vec::new(), WriterOptions::default()).unwrap();
    /// writer.add_game(&GameTree::default()).unwrap();
    /// let (bytes, _) = writer.finish().unwrap();
    /// let mut reader = ArchiveReader::open(Cursor::new(bytes)).unwrap();
    /// assert_eq!(reader.codec(), Some(chessbits_archive::MoveCodec::default()));
    /// ```
    pub fn codec(&self) -> Option<MoveCodec> {
        self.codec
    }

    /// Number of games, from the index (after [`recover`](Self::recover) without an index: the
    /// games of the blocks found).
    ///
    /// ```
    /// use chessbits_archive::{ArchiveReader, ArchiveWriter, WriterOptions};
    /// use chessbits::pgn::GameTree;
    /// use std::io::Cursor;
    /// let mut writer = ArchiveWriter::new(Vec::new(), WriterOptions::default()).unwrap();
    /// writer.add_game(&GameTree::default()).unwrap();
    /// let (bytes, _) = writer.finish().unwrap();
    /// let mut reader = ArchiveReader::open(Cursor::new(bytes)).unwrap();
    /// assert_eq!(reader.game_count(), 1);
    /// ```
    pub fn game_count(&self) -> u64 {
        self.blocks.iter().map(|b| u64::from(b.info.game_count)).sum()
    }

    /// The blocks, in file order.
    ///
    /// ```
    /// use chessbits_archive::{ArchiveReader, ArchiveWriter, WriterOptions};
    /// use chessbits::pgn::GameTree;
    /// use std::io::Cursor;
    /// let mut writer = ArchiveWriter::new(Vec::new(), WriterOptions::default()).unwrap();
    /// writer.add_game(&GameTree::default()).unwrap();
    /// let (bytes, _) = writer.finish().unwrap();
    /// let mut reader = ArchiveReader::open(Cursor::new(bytes)).unwrap();
    /// let blocks = reader.block_infos();
    /// assert_eq!((blocks[0].number, blocks[0].offset, blocks[0].first_game, blocks[0].game_count), (0, 16, 0, 1));
    /// ```
    pub fn block_infos(&self) -> Vec<BlockInfo> {
        self.blocks.iter().map(|b| b.info).collect()
    }

    /// Bytes of the archive file.
    ///
    /// ```
    /// use chessbits_archive::{ArchiveReader, ArchiveWriter, WriterOptions};
    /// use chessbits::pgn::GameTree;
    /// use std::io::Cursor;
    /// let mut writer = ArchiveWriter::new(Vec::new(), WriterOptions::default()).unwrap();
    /// writer.add_game(&GameTree::default()).unwrap();
    /// let (bytes, _) = writer.finish().unwrap();
    /// let mut reader = ArchiveReader::open(Cursor::new(bytes)).unwrap();
    /// assert!(reader.file_len() > 16 + 36 + 32);
    /// ```
    pub fn file_len(&self) -> u64 {
        self.file_len
    }

    /// Reads and verifies block `i` (an index into [`block_infos`](Self::block_infos)).
    ///
    /// Errors name the block: [`ArchiveError::ChecksumMismatch`] for a damaged header or
    /// payload, [`ArchiveError::Truncated`] for a block cut short.
    ///
    /// ```
    /// use chessbits_archive::{ArchiveError, ArchiveReader, ArchiveWriter, WriterOptions};
    /// use chessbits::pgn::GameTree;
    /// use std::io::Cursor;
    /// let mut writer = ArchiveWriter::new(Vec::new(), WriterOptions::default()).unwrap();
    /// writer.add_game(&GameTree::default()).unwrap();
    /// let (mut bytes, _) = writer.finish().unwrap();
    /// bytes[16 + 36] ^= 1; // the first payload byte of block 0
    /// let mut reader = ArchiveReader::open(Cursor::new(bytes)).unwrap();
    /// assert!(matches!(reader.read_block(0), Err(ArchiveError::ChecksumMismatch { block: 0 })));
    /// ```
    pub fn read_block(&mut self, i: usize) -> Result<RawBlock, ArchiveError> {
        let Some(&Location { info, end }) = self.blocks.get(i) else {
            return Err(ArchiveError::BlockOutOfRange {
                block: i as u64,
                count: self.blocks.len() as u64,
            });
        };
        let block = info.number;
        if info.offset + BLOCK_HEADER_LEN as u64 > self.file_len.min(end) {
            return Err(ArchiveError::Truncated { block });
        }
        self.inner.seek(SeekFrom::Start(info.offset))?;
        let mut bytes = [0u8; BLOCK_HEADER_LEN];
        read_exact_or(&mut self.inner, &mut bytes, ArchiveError::Truncated { block })?;
        let header = BlockHeader::parse(&bytes).ok_or(ArchiveError::ChecksumMismatch { block })?;
        let payload_end = info.offset + BLOCK_HEADER_LEN as u64 + u64::from(header.payload_len);
        if payload_end > self.file_len {
            return Err(ArchiveError::Truncated { block });
        }
        if payload_end != end
            || header.first_game != info.first_game
            || header.game_count != info.game_count
            || u64::from(header.block_number) != block
        {
            return Err(ArchiveError::CorruptPayload {
                block,
                reason: "block header disagrees with the index".into(),
            });
        }
        let codec = MoveCodec::from_id(header.codec_id).ok_or_else(|| ArchiveError::CorruptPayload {
            block,
            reason: format!("unknown move codec id {}", header.codec_id),
        })?;
        let mut payload = vec![0u8; header.payload_len as usize];
        read_exact_or(&mut self.inner, &mut payload, ArchiveError::Truncated { block })?;
        if !header.payload_matches(&payload) {
            return Err(ArchiveError::ChecksumMismatch { block });
        }
        Ok(RawBlock { info, codec, payload })
    }

    /// Every block, read and verified, in order; a bad block is an `Err` naming it, and the
    /// iteration goes on with the next one.
    ///
    /// ```
    /// use chessbits_archive::{ArchiveReader, ArchiveWriter, WriterOptions};
    /// use chessbits::pgn::GameTree;
    /// use std::io::Cursor;
    /// let mut writer = ArchiveWriter::new(Vec::new(), WriterOptions::default()).unwrap();
    /// writer.add_game(&GameTree::default()).unwrap();
    /// let (bytes, _) = writer.finish().unwrap();
    /// let mut reader = ArchiveReader::open(Cursor::new(bytes)).unwrap();
    /// let games: usize = reader.blocks().map(|block| block.unwrap().decode().unwrap().len()).sum();
    /// assert_eq!(games, 1);
    /// ```
    pub fn blocks(&mut self) -> impl Iterator<Item = Result<RawBlock, ArchiveError>> + '_ {
        (0..self.blocks.len()).map(move |i| self.read_block(i))
    }

    /// Every game in order; stops after the first error.
    ///
    /// ```
    /// use chessbits_archive::{ArchiveReader, ArchiveWriter, WriterOptions};
    /// use chessbits::pgn::GameTree;
    /// use std::io::Cursor;
    /// let mut writer = ArchiveWriter::new(Vec::new(), WriterOptions::default()).unwrap();
    /// writer.add_game(&GameTree::default()).unwrap();
    /// let (bytes, _) = writer.finish().unwrap();
    /// let mut reader = ArchiveReader::open(Cursor::new(bytes)).unwrap();
    /// let games: Vec<_> = reader.games().map(|g| g.unwrap().into_game().unwrap()).collect();
    /// assert_eq!(games, [GameTree::default()]);
    /// ```
    pub fn games(&mut self) -> Games<'_, R> {
        Games {
            reader: self,
            next_block: 0,
            current: Vec::new().into_iter(),
            failed: false,
        }
    }

    /// Game `n` (0-based), found through the index: only its block is read and decoded.
    ///
    /// ```
    /// use chessbits_archive::{ArchiveError, ArchiveReader, ArchiveWriter, WriterOptions};
    /// use std::io::Cursor;
    /// let (bytes, _) = ArchiveWriter::new(Vec::new(), WriterOptions::default()).unwrap().finish().unwrap();
    /// let mut reader = ArchiveReader::open(Cursor::new(bytes)).unwrap();
    /// assert!(matches!(reader.game(0), Err(ArchiveError::GameOutOfRange { game: 0, count: 0 })));
    /// ```
    pub fn game(&mut self, n: u64) -> Result<StoredGame, ArchiveError> {
        let count = self.game_count();
        let i = self
            .blocks
            .partition_point(|b| b.info.first_game + u64::from(b.info.game_count) <= n);
        match self.blocks.get(i) {
            Some(location) if location.info.contains(n) => {
                let skip = (n - location.info.first_game) as usize;
                let games = self.read_block(i)?.decode()?;
                games
                    .into_iter()
                    .nth(skip)
                    .ok_or(ArchiveError::GameOutOfRange { game: n, count })
            }
            _ => Err(ArchiveError::GameOutOfRange { game: n, count }),
        }
    }

    /// Reads the blocks in order and decodes up to `threads` of them at once (0: one per
    /// core) while `visit` gets the games of each block (or its error), in order. Stops at the
    /// first error `visit` returns.
    ///
    /// Memory is bounded whatever the file holds: blocks are only taken into work while the raw
    /// bytes their sections declare (each block at most
    /// [`MAX_BLOCK_RAW_BYTES`](super::MAX_BLOCK_RAW_BYTES)) add up to at most
    /// [`DECODE_BUDGET_BYTES`] (at least one block at a time), so a file of crafted blocks
    /// takes about twice that at most (sections and the games decoded from them).
    ///
    /// ```
    /// use chessbits_archive::{ArchiveReader, ArchiveWriter, WriterOptions};
    /// use chessbits::pgn::GameTree;
    /// use std::io::Cursor;
    /// let options = WriterOptions { max_games_per_block: 1, ..WriterOptions::default() };
    /// let mut writer = ArchiveWriter::new(Vec::new(), options).unwrap();
    /// for _ in 0..5 {
    ///     writer.add_game(&GameTree::default()).unwrap();
    /// }
    /// let (bytes, _) = writer.finish().unwrap();
    /// let mut reader = ArchiveReader::open(Cursor::new(bytes)).unwrap();
    /// let mut seen = Vec::new();
    /// reader.decode_blocks(2, |info, games| {
    ///     seen.push((info.number, games?.len()));
    ///     Ok::<(), chessbits_archive::ArchiveError>(())
    /// }).unwrap();
    /// assert_eq!(seen, [(0, 1), (1, 1), (2, 1), (3, 1), (4, 1)]);
    /// ```
    pub fn decode_blocks<E, F>(&mut self, threads: usize, mut visit: F) -> Result<(), E>
    where
        F: FnMut(BlockInfo, Result<Vec<StoredGame>, ArchiveError>) -> Result<(), E>,
    {
        let mut pipeline = Pipeline::new(threads);
        // Each block in work: its info and the raw bytes it declares.
        let mut in_work = std::collections::VecDeque::new();
        let mut budget_used = 0u64;
        let mut next = 0;
        loop {
            while pipeline.has_room() && next < self.blocks.len() {
                let info = self.blocks[next].info;
                let raw = self.read_block(next);
                let declared = raw.as_ref().map_or(0, |raw| declared_raw_len(&raw.payload));
                if !in_work.is_empty() && budget_used + declared > DECODE_BUDGET_BYTES {
                    // Over budget: wait for the blocks in work (read again after).
                    break;
                }
                next += 1;
                budget_used += declared;
                in_work.push_back((info, declared));
                pipeline.submit(move || raw.and_then(|raw| raw.decode()));
            }
            let (Some(done), Some((info, declared))) = (pipeline.next(), in_work.pop_front()) else {
                return Ok(());
            };
            budget_used -= declared;
            let games = done.unwrap_or_else(|_| {
                Err(ArchiveError::CorruptPayload {
                    block: info.number,
                    reason: "the decoder thread died".to_string(),
                })
            });
            visit(info, games)?;
        }
    }
}

/// The games of an archive in order (see [`ArchiveReader::games`]).
///
/// ```
/// use chessbits_archive::{ArchiveReader, ArchiveWriter, WriterOptions};
/// use std::io::Cursor;
/// let (bytes, _) = ArchiveWriter::new(Vec::new(), WriterOptions::default()).unwrap().finish().unwrap();
/// let mut reader = ArchiveReader::open(Cursor::new(bytes)).unwrap();
/// assert_eq!(reader.games().count(), 0);
/// ```
pub struct Games<'a, R: Read + Seek> {
    reader: &'a mut ArchiveReader<R>,
    next_block: usize,
    current: std::vec::IntoIter<StoredGame>,
    failed: bool,
}

impl<R: Read + Seek> Iterator for Games<'_, R> {
    type Item = Result<StoredGame, ArchiveError>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            if self.failed {
                return None;
            }
            if let Some(game) = self.current.next() {
                return Some(Ok(game));
            }
            if self.next_block >= self.reader.blocks.len() {
                return None;
            }
            let block = self.reader.read_block(self.next_block).and_then(|raw| raw.decode());
            self.next_block += 1;
            match block {
                Ok(games) => self.current = games.into_iter(),
                Err(error) => {
                    self.failed = true;
                    return Some(Err(error));
                }
            }
        }
    }
}

/// Reads and checks the file header.
fn read_header<R: Read + Seek>(inner: &mut R, file_len: u64) -> Result<FileHeader, ArchiveError> {
    inner.seek(SeekFrom::Start(0))?;
    if file_len < HEADER_LEN as u64 {
        let mut start = vec![0u8; file_len as usize];
        inner.read_exact(&mut start)?;
        // A prefix of the magic is a truncated archive; anything else is not one at all.
        return Err(if MAGIC.starts_with(&start) {
            ArchiveError::MissingFooter
        } else {
            ArchiveError::BadMagic
        });
    }
    let mut bytes = [0u8; HEADER_LEN];
    inner.read_exact(&mut bytes)?;
    FileHeader::parse(&bytes)
}

/// Reads the footer and the index, and checks that the blocks tile the file exactly.
fn read_index<R: Read + Seek>(inner: &mut R, file_len: u64) -> Result<Vec<Location>, ArchiveError> {
    if file_len < (HEADER_LEN + FOOTER_LEN) as u64 {
        return Err(ArchiveError::MissingFooter);
    }
    inner.seek(SeekFrom::Start(file_len - FOOTER_LEN as u64))?;
    let mut bytes = [0u8; FOOTER_LEN];
    inner.read_exact(&mut bytes)?;
    let footer = Footer::parse(&bytes)?;
    let bad = |reason: &str| ArchiveError::CorruptIndex {
        reason: reason.to_string(),
    };
    let index_len = index_len(footer.block_count);
    if footer.index_offset < HEADER_LEN as u64
        || footer.index_offset.checked_add(index_len + FOOTER_LEN as u64) != Some(file_len)
    {
        return Err(bad("the footer's index position disagrees with the file length"));
    }
    inner.seek(SeekFrom::Start(footer.index_offset))?;
    let mut index = vec![0u8; index_len as usize];
    inner.read_exact(&mut index)?;
    let entries = parse_index(&index, footer.block_count)?;
    let mut locations = Vec::with_capacity(entries.len());
    let mut expected_offset = HEADER_LEN as u64;
    let mut expected_game = 0u64;
    for (number, entry) in entries.iter().enumerate() {
        if entry.offset != expected_offset || entry.first_game != expected_game {
            return Err(bad("index entries do not follow each other"));
        }
        let end = entries.get(number + 1).map_or(footer.index_offset, |next| next.offset);
        // Offsets come from the file: compare without overflowing, and never past the index.
        if end > footer.index_offset || end < entry.offset.saturating_add(BLOCK_HEADER_LEN as u64) {
            return Err(bad("index entries overlap or run past the index"));
        }
        locations.push(Location {
            info: BlockInfo {
                number: number as u64,
                offset: entry.offset,
                first_game: entry.first_game,
                game_count: entry.game_count,
            },
            end,
        });
        expected_offset = end;
        expected_game = expected_game.saturating_add(u64::from(entry.game_count));
    }
    if expected_offset != footer.index_offset || expected_game != footer.game_count {
        return Err(bad("index does not cover the blocks"));
    }
    Ok(locations)
}
