//! Byte scanning for the reader: finding a byte eight at a time, std only.
//!
//! Comments and tag lines are where the reader spends its bytes; looking for their end one word
//! at a time costs about a quarter of the byte-by-byte loop.

const ONES: u64 = 0x0101_0101_0101_0101;
const HIGHS: u64 = 0x8080_8080_8080_8080;

/// The index of the first `needle` in `haystack`.
///
/// A word's bytes equal to `needle` become zero after the XOR; `(w - ONES) & !w & HIGHS` marks
/// zero bytes, and any false mark lies above a true one (a borrow only runs upwards), so the
/// lowest mark is the first match.
#[inline]
pub(super) fn find_byte(haystack: &[u8], needle: u8) -> Option<usize> {
    let pattern = ONES * u64::from(needle);
    let mut chunks = haystack.chunks_exact(8);
    let mut offset = 0;
    for chunk in &mut chunks {
        let Ok(bytes) = <[u8; 8]>::try_from(chunk) else {
            break;
        };
        let word = u64::from_le_bytes(bytes) ^ pattern;
        let marks = word.wrapping_sub(ONES) & !word & HIGHS;
        if marks != 0 {
            return Some(offset + (marks.trailing_zeros() / 8) as usize);
        }
        offset += 8;
    }
    let rest = &haystack[offset..];
    rest.iter().position(|&b| b == needle).map(|k| offset + k)
}

/// How many line feeds `bytes` holds.
#[inline]
pub(super) fn count_newlines(bytes: &[u8]) -> u32 {
    bytes.iter().filter(|&&b| b == b'\n').count() as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn find_byte_agrees_with_position_at_every_offset() {
        // Every length up to 40 and every place of the needle, with look-alike bytes around it
        // (0x7c and 0x7e differ from `}` = 0x7d by one bit; 0xfd by the high bit).
        for len in 0..40 {
            for at in 0..=len {
                let mut hay: Vec<u8> = (0..len).map(|k| [b'a', 0x7c, 0x7e, 0xfd, 0x00][k % 5]).collect();
                if at < len {
                    hay[at] = b'}';
                    if at + 1 < len {
                        hay[at + 1] = b'}';
                    }
                }
                let expected = hay.iter().position(|&b| b == b'}');
                assert_eq!(find_byte(&hay, b'}'), expected, "len {len}, at {at}");
            }
        }
        assert_eq!(find_byte(b"\x00\x00\x00\x00\x00\x00\x00\x00\x00\x01", 1), Some(9));
        assert_eq!(find_byte(b"\x01\x00", 0), Some(1));
    }

    #[test]
    fn counts_line_feeds() {
        assert_eq!(count_newlines(b"a\nb\r\n\n"), 3);
        assert_eq!(count_newlines(b""), 0);
    }
}
