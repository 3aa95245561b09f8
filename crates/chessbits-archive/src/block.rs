//! A block payload: a table of sections, each stored plain or zstd-compressed, then their bytes.
//!
//! ```text
//! varint  section count (at most 16)
//! per section, in increasing kind order:
//!   u8      kind (see SectionKind)
//!   u8      compression: 0 stored, 1 zstd (one frame)
//!   varint  raw length (after decompression; all sections of a block at most 48 MiB)
//!   varint  stored length
//! the stored bytes of every section, in table order, and nothing after them
//! ```
//!
//! A section that is absent is empty.

use super::error::{Corrupt, DecodeResult};
use super::varint::{put_varint, ByteReader};

/// The kinds of section, with their stable id bytes.
///
/// ```
/// use chessbits_archive::SectionKind;
/// assert!(SectionKind::ALL.iter().enumerate().all(|(i, kind)| kind.id() as usize == i + 1));
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum SectionKind {
    /// Game headers (result, start position flags), line lengths, counts, NAGs (id 1).
    Structure,
    /// One flag byte per move (id 2).
    Flags,
    /// The move codec's stream (id 3).
    Moves,
    /// Tag name lists and the name dictionary (id 4).
    TagNames,
    /// Tag values, column by column (id 5).
    TagValues,
    /// Comment templates and texts (id 6).
    Comments,
    /// `%clk` values (id 7).
    Clocks,
    /// `%eval` values (id 8).
    Evals,
    /// FEN of the start positions that are not the standard one (id 9).
    Positions,
    /// The PGN text of games stored as written, because they could not be stored as moves.
    Text,
}

impl SectionKind {
    /// Every kind, in id order.
    ///
    /// ```
    /// assert_eq!(chessbits_archive::SectionKind::ALL.len(), 10);
    /// ```
    pub const ALL: [SectionKind; 10] = [
        SectionKind::Structure,
        SectionKind::Flags,
        SectionKind::Moves,
        SectionKind::TagNames,
        SectionKind::TagValues,
        SectionKind::Comments,
        SectionKind::Clocks,
        SectionKind::Evals,
        SectionKind::Positions,
        SectionKind::Text,
    ];

    /// The id byte.
    ///
    /// ```
    /// use chessbits_archive::SectionKind;
    /// assert_eq!(SectionKind::Moves.id(), 3);
    /// ```
    pub const fn id(self) -> u8 {
        match self {
            SectionKind::Structure => 1,
            SectionKind::Flags => 2,
            SectionKind::Moves => 3,
            SectionKind::TagNames => 4,
            SectionKind::TagValues => 5,
            SectionKind::Comments => 6,
            SectionKind::Clocks => 7,
            SectionKind::Evals => 8,
            SectionKind::Positions => 9,
            SectionKind::Text => 10,
        }
    }

    /// Position in [`SectionKind::ALL`].
    pub(crate) const fn slot(self) -> usize {
        self.id() as usize - 1
    }

    /// The part of a game the section stores, for size reports: `moves`, `tags`, `comments`
    /// or `structure`.
    ///
    /// ```
    /// use chessbits_archive::SectionKind;
    /// assert_eq!(SectionKind::Clocks.share(), "comments");
    /// ```
    pub const fn share(self) -> &'static str {
        match self {
            SectionKind::Moves => "moves",
            SectionKind::TagNames | SectionKind::TagValues => "tags",
            SectionKind::Comments | SectionKind::Clocks | SectionKind::Evals => "comments",
            SectionKind::Structure | SectionKind::Flags | SectionKind::Positions => "structure",
            SectionKind::Text => "text",
        }
    }
}

const STORED: u8 = 0;
const ZSTD: u8 = 1;
/// The most raw bytes a block's sections may declare in all: checked before anything is
/// decompressed, so a crafted block cannot make a reader allocate more. The writer keeps blocks
/// far below (a block closes at about 1 MiB of games, and a game is at most
/// [`MAX_GAME_BYTES`](chessbits::pgn::MAX_GAME_BYTES), 32 MiB).
pub const MAX_BLOCK_RAW_BYTES: u64 = 48 << 20;
/// Sections shorter than this are not worth a zstd frame header.
const MIN_COMPRESS_LEN: usize = 32;

/// Bytes per section kind (indexed by [`SectionKind::ALL`] order).
///
/// ```
/// let sizes: chessbits_archive::SectionSizes = [0; 10];
/// assert_eq!(sizes.len(), chessbits_archive::SectionKind::ALL.len());
/// ```
pub type SectionSizes = [u64; 10];

/// Builds a payload from the raw sections; returns it with the stored size of each section.
pub(crate) fn encode_payload(sections: &[(SectionKind, Vec<u8>)], zstd_level: i32) -> (Vec<u8>, SectionSizes) {
    let mut stored: Vec<(SectionKind, u8, usize, Vec<u8>)> = Vec::new();
    for (kind, raw) in sections {
        if raw.is_empty() {
            continue;
        }
        let compressed = (raw.len() >= MIN_COMPRESS_LEN)
            .then(|| zstd::bulk::compress(raw, zstd_level).ok())
            .flatten();
        match compressed {
            Some(bytes) if bytes.len() < raw.len() => stored.push((*kind, ZSTD, raw.len(), bytes)),
            _ => stored.push((*kind, STORED, raw.len(), raw.clone())),
        }
    }
    stored.sort_by_key(|s| s.0.id());
    let mut out = Vec::new();
    let mut sizes = [0u64; 10];
    put_varint(&mut out, stored.len() as u64);
    for (kind, compression, raw_len, bytes) in &stored {
        out.push(kind.id());
        out.push(*compression);
        put_varint(&mut out, *raw_len as u64);
        put_varint(&mut out, bytes.len() as u64);
    }
    for (kind, _, _, bytes) in &stored {
        sizes[kind.slot()] += bytes.len() as u64;
        out.extend_from_slice(bytes);
    }
    (out, sizes)
}

/// One entry of the section table: kind, compression, raw length, stored length.
type TableEntry = (SectionKind, u8, usize, usize);

/// Parses the section table, checking what it declares before anything is allocated; returns
/// the entries and the reader positioned at the first section's bytes.
fn read_table(payload: &[u8]) -> DecodeResult<(Vec<TableEntry>, ByteReader<'_>)> {
    let mut table = ByteReader::new(payload, "section table");
    let count = table.varint_at_most(SectionKind::ALL.len() as u64)? as usize;
    let mut entries = Vec::with_capacity(count);
    let mut last_id = 0u8;
    let mut declared = 0u64;
    for _ in 0..count {
        let id = table.u8()?;
        let kind = SectionKind::ALL
            .into_iter()
            .find(|k| k.id() == id)
            .ok_or_else(|| Corrupt(format!("unknown section kind {id}")))?;
        if id <= last_id {
            return Err(Corrupt::new("sections out of order"));
        }
        last_id = id;
        let compression = table.u8()?;
        let raw_len = table.varint()?;
        declared = declared.saturating_add(raw_len);
        if declared > MAX_BLOCK_RAW_BYTES {
            return Err(Corrupt(format!(
                "sections declare more than {} MiB",
                MAX_BLOCK_RAW_BYTES >> 20
            )));
        }
        let stored_len = table.varint_at_most(payload.len() as u64)? as usize;
        entries.push((kind, compression, raw_len as usize, stored_len));
    }
    Ok((entries, table))
}

/// The raw bytes the sections of `payload` declare: what decoding it allocates (at most
/// [`MAX_BLOCK_RAW_BYTES`]; 0 for a table that does not parse, which decodes to an error).
pub(crate) fn declared_raw_len(payload: &[u8]) -> u64 {
    read_table(payload).map_or(0, |(entries, _)| entries.iter().map(|e| e.2 as u64).sum())
}

/// The raw sections of a payload, indexed by [`SectionKind::slot`].
pub(crate) fn decode_payload(payload: &[u8]) -> DecodeResult<Vec<Vec<u8>>> {
    let (entries, mut table) = read_table(payload)?;
    let mut sections = vec![Vec::new(); SectionKind::ALL.len()];
    for (kind, compression, raw_len, stored_len) in entries {
        let bytes = table.bytes(stored_len)?;
        let raw = match compression {
            STORED if stored_len == raw_len => bytes.to_vec(),
            STORED => {
                return Err(Corrupt(format!(
                    "{kind:?} section: stored length differs from raw length"
                )))
            }
            ZSTD => zstd::bulk::decompress(bytes, raw_len)
                .map_err(|e| Corrupt(format!("{kind:?} section does not decompress: {e}")))?,
            other => return Err(Corrupt(format!("{kind:?} section: unknown compression {other}"))),
        };
        if raw.len() != raw_len {
            return Err(Corrupt(format!(
                "{kind:?} section: {} bytes instead of {raw_len}",
                raw.len()
            )));
        }
        sections[kind.slot()] = raw;
    }
    table.expect_end()?;
    Ok(sections)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn payload_round_trips_and_compresses_what_pays() {
        let repetitive = b"abcdefgh".repeat(200);
        let sections = vec![
            (SectionKind::Moves, vec![1, 2, 3]),
            (SectionKind::Comments, repetitive.clone()),
            (SectionKind::Clocks, Vec::new()),
        ];
        let (payload, sizes) = encode_payload(&sections, 3);
        assert!(sizes[SectionKind::Comments.slot()] < 100);
        assert_eq!(sizes[SectionKind::Moves.slot()], 3);
        let decoded = decode_payload(&payload).unwrap();
        assert_eq!(decoded[SectionKind::Moves.slot()], vec![1, 2, 3]);
        assert_eq!(decoded[SectionKind::Comments.slot()], repetitive);
        assert!(decoded[SectionKind::Clocks.slot()].is_empty());
        for cut in 0..payload.len() {
            assert!(decode_payload(&payload[..cut]).is_err(), "cut at {cut}");
        }
        let mut longer = payload.clone();
        longer.push(0);
        assert!(decode_payload(&longer).is_err());
    }
}
