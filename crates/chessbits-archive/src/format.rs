//! The fixed-size parts of the container: file header, block header, index, footer.
//!
//! Every multi-byte integer is little-endian; every checksum is CRC-32 (IEEE, as in zlib and
//! PNG: `crc32fast`). The module docs of [`archive`](super) give the layout in full.

use super::codec::MoveCodec;
use super::error::ArchiveError;

/// The first eight bytes of every archive. The high-bit byte and the CR LF pair catch transfers
/// that strip the eighth bit or translate line ends, as in PNG.
///
/// ```
/// assert_eq!(&chessbits_archive::MAGIC[1..6], b"CBITS");
/// ```
pub const MAGIC: [u8; 8] = *b"\x89CBITS\r\n";
/// The format version this library writes and reads. Version 1 (tags and comments as UTF-8
/// text, games that could not be read left out) is no longer read.
///
/// ```
/// assert_eq!(chessbits_archive::FORMAT_VERSION, 2);
/// ```
pub const FORMAT_VERSION: u16 = 2;
/// The version of the move model (the `entropy` codec's probabilities) this library writes and
/// reads: an archive records it, and a model retuned later gets a new number.
///
/// ```
/// assert_eq!(chessbits_archive::MODEL_VERSION, 1);
/// ```
pub const MODEL_VERSION: u8 = 1;
/// Bytes of the file header.
pub const HEADER_LEN: usize = 16;
/// The first four bytes of every block header.
pub const BLOCK_MAGIC: [u8; 4] = *b"CBLK";
/// Bytes of a block header.
pub const BLOCK_HEADER_LEN: usize = 36;
/// The first four bytes of the index.
pub const INDEX_MAGIC: [u8; 4] = *b"CIDX";
/// Bytes of one index entry.
pub const INDEX_ENTRY_LEN: usize = 20;
/// Bytes of the footer, the last bytes of the file.
pub const FOOTER_LEN: usize = 32;
/// The last eight bytes of every finished archive.
///
/// ```
/// use chessbits_archive::{ArchiveWriter, WriterOptions, FOOTER_MAGIC};
/// let (bytes, _) = ArchiveWriter::new(Vec::new(), WriterOptions::default()).unwrap().finish().unwrap();
/// assert!(bytes.ends_with(&FOOTER_MAGIC));
/// ```
pub const FOOTER_MAGIC: [u8; 8] = *b"CBITSEND";

fn crc(bytes: &[u8]) -> u32 {
    crc32fast::hash(bytes)
}

fn u16_at(bytes: &[u8], at: usize) -> u16 {
    let mut b = [0u8; 2];
    b.copy_from_slice(&bytes[at..at + 2]);
    u16::from_le_bytes(b)
}

fn u32_at(bytes: &[u8], at: usize) -> u32 {
    let mut b = [0u8; 4];
    b.copy_from_slice(&bytes[at..at + 4]);
    u32::from_le_bytes(b)
}

fn u64_at(bytes: &[u8], at: usize) -> u64 {
    let mut b = [0u8; 8];
    b.copy_from_slice(&bytes[at..at + 8]);
    u64::from_le_bytes(b)
}

/// The file header: magic, version, the archive's default codec, flags.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct FileHeader {
    pub codec: MoveCodec,
}

impl FileHeader {
    pub(crate) fn encode(&self) -> [u8; HEADER_LEN] {
        let mut out = [0u8; HEADER_LEN];
        out[0..8].copy_from_slice(&MAGIC);
        out[8..10].copy_from_slice(&FORMAT_VERSION.to_le_bytes());
        out[10] = self.codec.id();
        out[11] = MODEL_VERSION;
        let sum = crc(&out[0..12]);
        out[12..16].copy_from_slice(&sum.to_le_bytes());
        out
    }

    /// Checks the magic first (so that any other file says "not an archive"), then the checksum,
    /// then what the fields say.
    pub(crate) fn parse(bytes: &[u8; HEADER_LEN]) -> Result<FileHeader, ArchiveError> {
        if bytes[0..8] != MAGIC {
            return Err(ArchiveError::BadMagic);
        }
        if crc(&bytes[0..12]) != u32_at(bytes, 12) {
            return Err(ArchiveError::CorruptHeader);
        }
        let version = u16_at(bytes, 8);
        if version != FORMAT_VERSION {
            return Err(ArchiveError::UnsupportedVersion(version));
        }
        if bytes[11] != MODEL_VERSION {
            return Err(ArchiveError::UnsupportedModel(bytes[11]));
        }
        let codec = MoveCodec::from_id(bytes[10]).ok_or(ArchiveError::UnknownCodec(bytes[10]))?;
        Ok(FileHeader { codec })
    }
}

/// A block header: where the block sits in the archive and the checksum of its payload.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct BlockHeader {
    pub payload_len: u32,
    pub first_game: u64,
    pub game_count: u32,
    pub block_number: u32,
    pub codec_id: u8,
    pub payload_crc: u32,
}

impl BlockHeader {
    pub(crate) fn encode(&self) -> [u8; BLOCK_HEADER_LEN] {
        let mut out = [0u8; BLOCK_HEADER_LEN];
        out[0..4].copy_from_slice(&BLOCK_MAGIC);
        out[4..8].copy_from_slice(&self.payload_len.to_le_bytes());
        out[8..16].copy_from_slice(&self.first_game.to_le_bytes());
        out[16..20].copy_from_slice(&self.game_count.to_le_bytes());
        out[20..24].copy_from_slice(&self.block_number.to_le_bytes());
        out[24] = self.codec_id;
        // 25..28 reserved, zero
        out[28..32].copy_from_slice(&self.payload_crc.to_le_bytes());
        let sum = crc(&out[0..32]);
        out[32..36].copy_from_slice(&sum.to_le_bytes());
        out
    }

    /// `None` unless the magic, the reserved bytes and the header checksum are all right.
    pub(crate) fn parse(bytes: &[u8; BLOCK_HEADER_LEN]) -> Option<BlockHeader> {
        if bytes[0..4] != BLOCK_MAGIC || bytes[25..28] != [0, 0, 0] || crc(&bytes[0..32]) != u32_at(bytes, 32) {
            return None;
        }
        Some(BlockHeader {
            payload_len: u32_at(bytes, 4),
            first_game: u64_at(bytes, 8),
            game_count: u32_at(bytes, 16),
            block_number: u32_at(bytes, 20),
            codec_id: bytes[24],
            payload_crc: u32_at(bytes, 28),
        })
    }

    pub(crate) fn payload_matches(&self, payload: &[u8]) -> bool {
        crc(payload) == self.payload_crc
    }
}

/// One entry of the index: where block `i` starts and which games it holds.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct IndexEntry {
    pub offset: u64,
    pub first_game: u64,
    pub game_count: u32,
}

/// The index: magic, block count, entries, checksum.
pub(crate) fn encode_index(entries: &[IndexEntry]) -> Vec<u8> {
    let mut out = Vec::with_capacity(12 + entries.len() * INDEX_ENTRY_LEN);
    out.extend_from_slice(&INDEX_MAGIC);
    out.extend_from_slice(&(entries.len() as u32).to_le_bytes());
    for entry in entries {
        out.extend_from_slice(&entry.offset.to_le_bytes());
        out.extend_from_slice(&entry.first_game.to_le_bytes());
        out.extend_from_slice(&entry.game_count.to_le_bytes());
    }
    let sum = crc(&out);
    out.extend_from_slice(&sum.to_le_bytes());
    out
}

/// The bytes of an index with `blocks` entries.
pub(crate) fn index_len(blocks: u32) -> u64 {
    8 + u64::from(blocks) * INDEX_ENTRY_LEN as u64 + 4
}

/// Parses and checks an index read whole (its length comes from the footer's block count).
pub(crate) fn parse_index(bytes: &[u8], blocks: u32) -> Result<Vec<IndexEntry>, ArchiveError> {
    let bad = |reason: &str| ArchiveError::CorruptIndex {
        reason: reason.to_string(),
    };
    if bytes.len() as u64 != index_len(blocks) {
        return Err(bad("index length disagrees with the footer"));
    }
    let body = bytes.len() - 4;
    if crc(&bytes[..body]) != u32_at(bytes, body) {
        return Err(bad("index checksum mismatch"));
    }
    if bytes[0..4] != INDEX_MAGIC || u32_at(bytes, 4) != blocks {
        return Err(bad("index header disagrees with the footer"));
    }
    let entries = bytes[8..body]
        .chunks_exact(INDEX_ENTRY_LEN)
        .map(|e| IndexEntry {
            offset: u64_at(e, 0),
            first_game: u64_at(e, 8),
            game_count: u32_at(e, 16),
        })
        .collect();
    Ok(entries)
}

/// The footer: where the index is and what it covers.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct Footer {
    pub index_offset: u64,
    pub game_count: u64,
    pub block_count: u32,
}

impl Footer {
    pub(crate) fn encode(&self) -> [u8; FOOTER_LEN] {
        let mut out = [0u8; FOOTER_LEN];
        out[0..8].copy_from_slice(&self.index_offset.to_le_bytes());
        out[8..16].copy_from_slice(&self.game_count.to_le_bytes());
        out[16..20].copy_from_slice(&self.block_count.to_le_bytes());
        let sum = crc(&out[0..20]);
        out[20..24].copy_from_slice(&sum.to_le_bytes());
        out[24..32].copy_from_slice(&FOOTER_MAGIC);
        out
    }

    pub(crate) fn parse(bytes: &[u8; FOOTER_LEN]) -> Result<Footer, ArchiveError> {
        if bytes[24..32] != FOOTER_MAGIC {
            return Err(ArchiveError::MissingFooter);
        }
        if crc(&bytes[0..20]) != u32_at(bytes, 20) {
            return Err(ArchiveError::CorruptIndex {
                reason: "footer checksum mismatch".to_string(),
            });
        }
        Ok(Footer {
            index_offset: u64_at(bytes, 0),
            game_count: u64_at(bytes, 8),
            block_count: u32_at(bytes, 16),
        })
    }
}

/// Where a block is and which games it holds.
///
/// ```
/// use chessbits_archive::BlockInfo;
/// let info = BlockInfo { number: 2, offset: 16, first_game: 2000, game_count: 1000 };
/// assert!(info.contains(2999));
/// assert!(!info.contains(3000));
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct BlockInfo {
    /// The block number (0-based, file order).
    pub number: u64,
    /// Byte offset of the block header.
    pub offset: u64,
    /// Number of the block's first game in the archive (0-based).
    pub first_game: u64,
    /// Games in the block.
    pub game_count: u32,
}

impl BlockInfo {
    /// Whether game `n` of the archive is in this block.
    ///
    /// ```
    /// use chessbits_archive::BlockInfo;
    /// assert!(BlockInfo { number: 0, offset: 16, first_game: 0, game_count: 1 }.contains(0));
    /// ```
    pub fn contains(&self, n: u64) -> bool {
        n >= self.first_game && n - self.first_game < u64::from(self.game_count)
    }
}

/// Where a block was found: by the index (`end` = where the next block starts), or by a scan.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct Location {
    pub info: BlockInfo,
    /// Where the block must end.
    pub end: u64,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headers_round_trip_and_detect_every_flip() {
        let header = BlockHeader {
            payload_len: 1234,
            first_game: 5000,
            game_count: 1000,
            block_number: 5,
            codec_id: 1,
            payload_crc: 0xdead_beef,
        };
        let bytes = header.encode();
        assert_eq!(BlockHeader::parse(&bytes), Some(header));
        for i in 0..BLOCK_HEADER_LEN {
            let mut flipped = bytes;
            flipped[i] ^= 0x10;
            assert_eq!(BlockHeader::parse(&flipped), None, "flip at {i}");
        }
        let file = FileHeader {
            codec: MoveCodec::IndexByte,
        };
        assert_eq!(FileHeader::parse(&file.encode()).ok(), Some(file));
        let footer = Footer {
            index_offset: 99,
            game_count: 7,
            block_count: 2,
        };
        assert_eq!(Footer::parse(&footer.encode()).ok(), Some(footer));
    }

    #[test]
    fn index_round_trips() {
        let entries = vec![
            IndexEntry {
                offset: 16,
                first_game: 0,
                game_count: 3,
            },
            IndexEntry {
                offset: 400,
                first_game: 3,
                game_count: 2,
            },
        ];
        let bytes = encode_index(&entries);
        assert_eq!(bytes.len() as u64, index_len(2));
        assert_eq!(parse_index(&bytes, 2).ok(), Some(entries));
        assert!(parse_index(&bytes, 1).is_err());
        let mut bad = bytes.clone();
        bad[10] ^= 1;
        assert!(parse_index(&bad, 2).is_err());
    }
}
