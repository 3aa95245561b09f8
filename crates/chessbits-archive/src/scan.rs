//! Finding the blocks of an archive whose index is unusable: scan for block headers.
//!
//! Every block header starts with the block magic and carries its own checksum, so a header is
//! recognized wherever it is; the payload it announces is skipped, and after a damaged header
//! the scan resumes at the next occurrence of the magic.

use std::io::{Read, Seek, SeekFrom};

use super::error::ArchiveError;
use super::format::{BlockHeader, BlockInfo, Location, BLOCK_HEADER_LEN, BLOCK_MAGIC, HEADER_LEN};

/// The blocks found, and an error for every gap in the block numbers (one block skipped: its
/// header was unreadable; more: [`ArchiveError::MissingBlocks`], one error however large the gap,
/// so a forged block number cannot make the list huge). A last block whose payload runs past the end of the file is listed: reading it
/// reports it truncated.
pub(crate) fn scan_blocks<R: Read + Seek>(
    inner: &mut R,
    file_len: u64,
) -> Result<(Vec<Location>, Vec<ArchiveError>), ArchiveError> {
    let mut blocks = Vec::new();
    let mut lost = Vec::new();
    let mut expected = 0u64;
    let mut pos = HEADER_LEN as u64;
    while pos + BLOCK_HEADER_LEN as u64 <= file_len {
        inner.seek(SeekFrom::Start(pos))?;
        let mut bytes = [0u8; BLOCK_HEADER_LEN];
        inner.read_exact(&mut bytes)?;
        match BlockHeader::parse(&bytes) {
            Some(header) if u64::from(header.block_number) >= expected => {
                let number = u64::from(header.block_number);
                match number - expected {
                    0 => {}
                    1 => lost.push(ArchiveError::ChecksumMismatch { block: expected }),
                    _ => lost.push(ArchiveError::MissingBlocks {
                        first: expected,
                        last: number - 1,
                    }),
                }
                let end = pos + BLOCK_HEADER_LEN as u64 + u64::from(header.payload_len);
                blocks.push(Location {
                    info: BlockInfo {
                        number,
                        offset: pos,
                        first_game: header.first_game,
                        game_count: header.game_count,
                    },
                    end,
                });
                expected = number + 1;
                pos = end;
            }
            _ => match find_magic(inner, pos + 1, file_len)? {
                Some(next) => pos = next,
                None => break,
            },
        }
    }
    Ok((blocks, lost))
}

/// The offset of the next block magic at or after `from`.
fn find_magic<R: Read + Seek>(inner: &mut R, from: u64, file_len: u64) -> Result<Option<u64>, ArchiveError> {
    let mut buf = vec![0u8; 1 << 16];
    let mut start = from;
    while start + BLOCK_MAGIC.len() as u64 <= file_len {
        let len = (buf.len() as u64).min(file_len - start) as usize;
        inner.seek(SeekFrom::Start(start))?;
        let chunk = &mut buf[..len];
        inner.read_exact(chunk)?;
        if let Some(i) = chunk.windows(BLOCK_MAGIC.len()).position(|w| w == BLOCK_MAGIC) {
            return Ok(Some(start + i as u64));
        }
        if start + len as u64 >= file_len {
            break;
        }
        // Overlap by three bytes: a magic across the chunk boundary is found next time.
        start += (len - (BLOCK_MAGIC.len() - 1)) as u64;
    }
    Ok(None)
}
