//! [`BlockStream`]: the blocks of an archive read front to back from any reader, without seeking.
//!
//! The blocks follow the file header one after the other, each announcing its payload's length,
//! and the index and footer come last: so an archive can be read from a pipe (standard input, a
//! decompressor), a block at a time. Each block is verified as [`ArchiveReader`](super::ArchiveReader)
//! verifies it, and the index and footer at the end must agree with the blocks read.

use std::io::Read;

use super::block::MAX_BLOCK_RAW_BYTES;
use super::codec::MoveCodec;
use super::error::ArchiveError;
use super::format::{
    index_len, parse_index, BlockHeader, BlockInfo, FileHeader, Footer, BLOCK_HEADER_LEN, BLOCK_MAGIC, FOOTER_LEN,
    HEADER_LEN, INDEX_MAGIC, MAGIC,
};
use super::reader::{read_exact_or, RawBlock};

/// A payload longer than this cannot hold sections of at most [`MAX_BLOCK_RAW_BYTES`] (stored
/// sections are never longer than raw ones; the section table is small): refused before it is
/// read, so a crafted length cannot make the reader buffer gigabytes.
const MAX_PAYLOAD_BYTES: u64 = MAX_BLOCK_RAW_BYTES + (1 << 20);

/// The blocks of an archive, read in order from a reader that need not seek (a pipe, standard
/// input): an iterator of verified [`RawBlock`]s, one in memory at a time.
///
/// Every block's header and payload checksums are checked, and its number and first game must
/// follow the block before; after the last block the index and footer must be intact and agree
/// with the blocks read, and nothing may follow them. The first error ends the iteration: a
/// block cut short is [`ArchiveError::Truncated`] naming it, an archive that stops between two
/// blocks (or inside the index) is [`ArchiveError::MissingFooter`].
///
/// ```
/// use chessbits_archive::{ArchiveWriter, BlockStream, WriterOptions};
/// use chessbits::pgn::PgnReader;
///
/// let pgn = "1. e4 e5 *\n\n1. d4 d5 *\n\n1. c4 c5 *\n";
/// let options = WriterOptions { max_games_per_block: 2, ..WriterOptions::default() };
/// let mut writer = ArchiveWriter::new(Vec::new(), options).unwrap();
/// for game in PgnReader::new(pgn.as_bytes()).into_games() {
///     writer.add_game(&game.unwrap()).unwrap();
/// }
/// let (bytes, _) = writer.finish().unwrap();
///
/// // `&[u8]` reads but cannot seek, like a pipe.
/// let games: Vec<usize> = BlockStream::new(&bytes[..])
///     .unwrap()
///     .map(|block| block.unwrap().decode().unwrap().len())
///     .collect();
/// assert_eq!(games, [2, 1]);
///
/// // Cut short inside the second block: the first is read, then the error names the second.
/// let cut = &bytes[..bytes.len() - 100];
/// let mut blocks = BlockStream::new(cut).unwrap();
/// assert!(blocks.next().unwrap().is_ok());
/// assert_eq!(blocks.next().unwrap().unwrap_err().to_string(), "block 1: truncated");
/// assert!(blocks.next().is_none());
/// ```
pub struct BlockStream<R: Read> {
    inner: R,
    /// Bytes read so far: where the next block (or the index) starts.
    offset: u64,
    next_block: u64,
    next_game: u64,
    /// Each block read: where it starts and how many games it holds, for the index to match.
    read: Vec<(u64, u32)>,
    done: bool,
}

impl<R: Read> BlockStream<R> {
    /// Reads and checks the file header (the magic bytes first, so that any other input is
    /// [`ArchiveError::BadMagic`]; a prefix of them is an archive cut short,
    /// [`ArchiveError::MissingFooter`]).
    ///
    /// ```
    /// use chessbits_archive::{ArchiveError, BlockStream};
    /// assert!(matches!(BlockStream::new(&b"[Event \"x\"]\n\n1. e4 *\n"[..]), Err(ArchiveError::BadMagic)));
    /// assert!(matches!(BlockStream::new(&b"\x89CBI"[..]), Err(ArchiveError::MissingFooter)));
    /// ```
    pub fn new(mut inner: R) -> Result<BlockStream<R>, ArchiveError> {
        let mut bytes = [0u8; HEADER_LEN];
        let len = read_full(&mut inner, &mut bytes)?;
        if len < HEADER_LEN {
            // As `ArchiveReader::open` says it of a file this short.
            return Err(match MAGIC.starts_with(&bytes[..len.min(MAGIC.len())]) && len > 0 {
                true => ArchiveError::MissingFooter,
                false => ArchiveError::BadMagic,
            });
        }
        FileHeader::parse(&bytes)?;
        Ok(BlockStream {
            inner,
            offset: HEADER_LEN as u64,
            next_block: 0,
            next_game: 0,
            read: Vec::new(),
            done: false,
        })
    }

    /// The next block, or `None` after the index and footer were read and checked.
    fn read_next(&mut self) -> Result<Option<RawBlock>, ArchiveError> {
        let block = self.next_block;
        let mut bytes = [0u8; BLOCK_HEADER_LEN];
        let len = read_full(&mut self.inner, &mut bytes[..INDEX_MAGIC.len()])?;
        if len < INDEX_MAGIC.len() {
            // Cut between two blocks, or in the first bytes of the next block or of the index
            // (their magics share the first byte).
            return Err(match len > 1 && BLOCK_MAGIC.starts_with(&bytes[..len]) {
                true => ArchiveError::Truncated { block },
                false => ArchiveError::MissingFooter,
            });
        }
        if bytes[..INDEX_MAGIC.len()] == INDEX_MAGIC {
            self.read_index()?;
            return Ok(None);
        }
        read_exact_or(
            &mut self.inner,
            &mut bytes[INDEX_MAGIC.len()..],
            ArchiveError::Truncated { block },
        )?;
        let header = BlockHeader::parse(&bytes).ok_or(ArchiveError::ChecksumMismatch { block })?;
        let corrupt = |reason: String| ArchiveError::CorruptPayload { block, reason };
        if u64::from(header.block_number) != block || header.first_game != self.next_game {
            return Err(corrupt(format!(
                "block header says block {} from game {}, expected block {block} from game {}",
                header.block_number, header.first_game, self.next_game
            )));
        }
        if u64::from(header.payload_len) > MAX_PAYLOAD_BYTES {
            return Err(corrupt(format!("a payload of {} bytes declared", header.payload_len)));
        }
        let codec = MoveCodec::from_id(header.codec_id)
            .ok_or_else(|| corrupt(format!("unknown move codec id {}", header.codec_id)))?;
        // Grows with the bytes that come, not with the length announced.
        let mut payload = Vec::new();
        (&mut self.inner)
            .take(u64::from(header.payload_len))
            .read_to_end(&mut payload)?;
        if payload.len() as u64 != u64::from(header.payload_len) {
            return Err(ArchiveError::Truncated { block });
        }
        if !header.payload_matches(&payload) {
            return Err(ArchiveError::ChecksumMismatch { block });
        }
        let info = BlockInfo {
            number: block,
            offset: self.offset,
            first_game: header.first_game,
            game_count: header.game_count,
        };
        self.read.push((self.offset, header.game_count));
        self.offset += (BLOCK_HEADER_LEN + payload.len()) as u64;
        self.next_block += 1;
        self.next_game = self.next_game.saturating_add(u64::from(header.game_count));
        Ok(Some(RawBlock { info, codec, payload }))
    }

    /// Reads the index (its magic already read) and the footer, and checks them against the
    /// blocks read and the end of the input.
    fn read_index(&mut self) -> Result<(), ArchiveError> {
        let bad = |reason: &str| ArchiveError::CorruptIndex {
            reason: reason.to_string(),
        };
        let cut = || ArchiveError::MissingFooter;
        let mut count = [0u8; 4];
        read_exact_or(&mut self.inner, &mut count, cut())?;
        let blocks = u32::from_le_bytes(count);
        if u64::from(blocks) != self.next_block {
            return Err(bad("the index counts other blocks than the archive holds"));
        }
        let mut index = Vec::with_capacity(index_len(blocks) as usize);
        index.extend_from_slice(&INDEX_MAGIC);
        index.extend_from_slice(&count);
        index.resize(index_len(blocks) as usize, 0);
        read_exact_or(&mut self.inner, &mut index[8..], cut())?;
        let entries = parse_index(&index, blocks)?;
        let mut footer = [0u8; FOOTER_LEN];
        read_exact_or(&mut self.inner, &mut footer, cut())?;
        let footer = Footer::parse(&footer)?;
        if footer.index_offset != self.offset || footer.game_count != self.next_game {
            return Err(bad("the footer disagrees with the blocks read"));
        }
        // Each entry names the block read at its place (its offset and games), so the entries
        // follow each other as the seeking reader requires.
        let mut first_game = 0u64;
        for (entry, &(offset, game_count)) in entries.iter().zip(&self.read) {
            if entry.offset != offset || entry.first_game != first_game {
                return Err(bad("index entries do not follow each other"));
            }
            if entry.game_count != game_count {
                return Err(bad("the index counts other games than the blocks hold"));
            }
            first_game = first_game.saturating_add(u64::from(entry.game_count));
        }
        if read_full(&mut self.inner, &mut [0u8; 1])? != 0 {
            return Err(bad("bytes follow the footer"));
        }
        Ok(())
    }
}

impl<R: Read> Iterator for BlockStream<R> {
    type Item = Result<RawBlock, ArchiveError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        let next = self.read_next();
        if !matches!(next, Ok(Some(_))) {
            self.done = true;
        }
        next.transpose()
    }
}

/// Whether the file at `path` starts with the archive's magic bytes ([`crate::MAGIC`]): how an
/// archive is told from PGN by content, whatever its name.
///
/// ```
/// let path = std::env::temp_dir().join(format!("is-archive-{}.cbits", std::process::id()));
/// std::fs::write(&path, b"1. e4 *").unwrap();
/// assert!(!chessbits_archive::is_archive_file(&path).unwrap());
/// std::fs::write(&path, chessbits_archive::MAGIC).unwrap();
/// assert!(chessbits_archive::is_archive_file(&path).unwrap());
/// std::fs::remove_file(&path).unwrap();
/// ```
pub fn is_archive_file(path: &std::path::Path) -> std::io::Result<bool> {
    let mut head = [0u8; crate::MAGIC.len()];
    let len = chessbits::pgn::read_full(&mut std::fs::File::open(path)?, &mut head)?;
    Ok(len == head.len() && head == crate::MAGIC)
}

/// [`chessbits::pgn::read_full`], its error an archive error.
fn read_full(input: &mut impl Read, buf: &mut [u8]) -> Result<usize, ArchiveError> {
    chessbits::pgn::read_full(input, buf).map_err(ArchiveError::Io)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{ArchiveReader, ArchiveWriter, WriterOptions};
    use chessbits::pgn::PgnReader;

    /// An archive of `games` one-move games, `per_block` a block.
    fn archive(games: usize, per_block: u32) -> Vec<u8> {
        let pgn = "1. e4 e5 { a comment } *\n\n".repeat(games);
        let options = WriterOptions {
            max_games_per_block: per_block,
            ..WriterOptions::default()
        };
        let mut writer = ArchiveWriter::new(Vec::new(), options).unwrap();
        for game in PgnReader::new(pgn.as_bytes()).into_games() {
            writer.add_game(&game.unwrap()).unwrap();
        }
        writer.finish().unwrap().0
    }

    /// Reads like a pipe: a few bytes at a time.
    struct Trickle<'a>(&'a [u8]);

    impl Read for Trickle<'_> {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            let n = buf.len().min(self.0.len()).min(3);
            buf[..n].copy_from_slice(&self.0[..n]);
            self.0 = &self.0[n..];
            Ok(n)
        }
    }

    fn collect(bytes: &[u8]) -> Result<Vec<RawBlock>, ArchiveError> {
        BlockStream::new(Trickle(bytes))?.collect()
    }

    #[test]
    fn the_blocks_are_those_the_seeking_reader_reads() {
        let bytes = archive(25, 4);
        let mut reader = ArchiveReader::open(std::io::Cursor::new(bytes.clone())).unwrap();
        let expected: Vec<_> = reader.blocks().map(Result::unwrap).collect();
        let blocks = collect(&bytes).unwrap();
        assert_eq!(blocks.len(), 7);
        for (block, expected) in blocks.iter().zip(&expected) {
            assert_eq!(block.info, expected.info);
            assert_eq!(block.decode().unwrap(), expected.decode().unwrap());
        }
        assert!(collect(&archive(0, 4)).unwrap().is_empty());
    }

    #[test]
    fn every_cut_is_an_error_naming_where() {
        let bytes = archive(9, 4);
        for len in 0..bytes.len() {
            let error = match collect(&bytes[..len]) {
                Ok(_) => panic!("{len}: read whole"),
                Err(error) => error,
            };
            match error {
                ArchiveError::BadMagic => assert_eq!(len, 0),
                ArchiveError::MissingFooter => {}
                ArchiveError::Truncated { block } => assert!(block <= 2, "{len}: block {block}"),
                other => panic!("{len}: {other}"),
            }
        }
    }

    #[test]
    fn damage_and_trailing_bytes_are_reported() {
        let bytes = archive(9, 4);
        let mut flipped = bytes.clone();
        flipped[HEADER_LEN + BLOCK_HEADER_LEN + 2] ^= 0x10;
        let error = collect(&flipped).err().unwrap();
        assert!(matches!(error, ArchiveError::ChecksumMismatch { block: 0 }), "{error}");
        let mut longer = bytes.clone();
        longer.push(b'\n');
        let error = collect(&longer).err().unwrap();
        assert!(error.to_string().contains("bytes follow the footer"), "{error}");
        // Block 1 left out: block 2 does not follow block 0.
        let infos = ArchiveReader::open(std::io::Cursor::new(bytes.clone()))
            .unwrap()
            .block_infos();
        let (one, two) = (infos[1].offset as usize, infos[2].offset as usize);
        let skipped = [&bytes[..one], &bytes[two..]].concat();
        let error = collect(&skipped).err().unwrap();
        assert!(
            matches!(error, ArchiveError::CorruptPayload { block: 1, .. }),
            "{error}"
        );
        // A block header announcing a huge payload (checksum made right) is refused unread.
        let mut huge = bytes.clone();
        let header = HEADER_LEN;
        huge[header + 4..header + 8].copy_from_slice(&u32::MAX.to_le_bytes());
        let sum = crc32fast::hash(&huge[header..header + 32]);
        huge[header + 32..header + 36].copy_from_slice(&sum.to_le_bytes());
        let error = collect(&huge).err().unwrap();
        assert!(error.to_string().contains("payload of"), "{error}");
    }
}
