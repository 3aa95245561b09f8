//! Archive bytes for the archive targets (`archive_reader`, `archive_stream`): checksums
//! recomputed after a mutation, and a fuzzed block payload wrapped in a valid archive, so that
//! mutations reach the block decoder instead of failing a checksum.

use chessbits_archive::{FOOTER_MAGIC, FORMAT_VERSION, MAGIC, MODEL_VERSION};

const HEADER_LEN: usize = 16;
const BLOCK_HEADER_LEN: usize = 36;
const FOOTER_LEN: usize = 32;

fn u32_at(bytes: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap())
}

fn put_crc(bytes: &mut [u8], covered: std::ops::Range<usize>, at: usize) {
    let sum = crc32fast::hash(&bytes[covered]);
    bytes[at..at + 4].copy_from_slice(&sum.to_le_bytes());
}

/// Recomputes every checksum of `bytes` that can be found by walking the layout (header,
/// every block header and payload that can be walked, index, footer).
pub fn fix_checksums(bytes: &mut [u8]) {
    if bytes.len() >= HEADER_LEN {
        put_crc(bytes, 0..12, 12);
    }
    let mut at = HEADER_LEN;
    while at + BLOCK_HEADER_LEN <= bytes.len() && bytes[at..at + 4] == *b"CBLK" {
        let payload_len = u32_at(bytes, at + 4) as usize;
        let start = at + BLOCK_HEADER_LEN;
        let Some(end) = start.checked_add(payload_len).filter(|&end| end <= bytes.len()) else {
            break;
        };
        put_crc(bytes, start..end, at + 28);
        put_crc(bytes, at..at + 32, at + 32);
        at = end;
    }
    if at + 8 <= bytes.len() && bytes[at..at + 4] == *b"CIDX" {
        let count = u32_at(bytes, at + 4) as usize;
        let end = count.checked_mul(20).and_then(|n| n.checked_add(at + 8));
        if let Some(end) = end.filter(|&end| end + 4 <= bytes.len()) {
            put_crc(bytes, at..end, end);
        }
    }
    if bytes.len() >= HEADER_LEN + FOOTER_LEN {
        let footer = bytes.len() - FOOTER_LEN;
        put_crc(bytes, footer..footer + 20, footer + 20);
    }
}

/// A one-block archive holding `payload` as a block of `game_count` games in codec `codec_id`.
pub fn wrap(codec_id: u8, game_count: u32, payload: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(payload.len() + 128);
    out.extend_from_slice(&MAGIC);
    out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
    out.push(codec_id);
    out.push(MODEL_VERSION);
    out.extend_from_slice(&[0; 4]);
    put_crc(&mut out, 0..12, 12);
    let block = out.len();
    out.extend_from_slice(b"CBLK");
    out.extend_from_slice(&(payload.len() as u32).to_le_bytes());
    out.extend_from_slice(&0u64.to_le_bytes());
    out.extend_from_slice(&game_count.to_le_bytes());
    out.extend_from_slice(&0u32.to_le_bytes());
    out.push(codec_id);
    out.extend_from_slice(&[0; 3]);
    out.extend_from_slice(&crc32fast::hash(payload).to_le_bytes());
    out.extend_from_slice(&[0; 4]);
    put_crc(&mut out, block..block + 32, block + 32);
    out.extend_from_slice(payload);
    let index = out.len();
    out.extend_from_slice(b"CIDX");
    out.extend_from_slice(&1u32.to_le_bytes());
    out.extend_from_slice(&(block as u64).to_le_bytes());
    out.extend_from_slice(&0u64.to_le_bytes());
    out.extend_from_slice(&game_count.to_le_bytes());
    let sum = crc32fast::hash(&out[index..]);
    out.extend_from_slice(&sum.to_le_bytes());
    let footer = out.len();
    out.extend_from_slice(&(index as u64).to_le_bytes());
    out.extend_from_slice(&u64::from(game_count).to_le_bytes());
    out.extend_from_slice(&1u32.to_le_bytes());
    out.extend_from_slice(&[0; 4]);
    put_crc(&mut out, footer..footer + 20, footer + 20);
    out.extend_from_slice(&FOOTER_MAGIC);
    out
}
