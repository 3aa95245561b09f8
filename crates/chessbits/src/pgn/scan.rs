//! Byte scanning for the reader: finding bytes eight at a time (std only), counting lines.
//!
//! Comments and tag lines are where the reader spends its bytes; looking for their end one word
//! at a time costs about a quarter of the byte-by-byte loop.

const ONES: u64 = 0x0101_0101_0101_0101;
const HIGHS: u64 = 0x8080_8080_8080_8080;

/// The index of the first byte of `haystack` equal to `a` or `b`, eight bytes at a time.
///
/// A word's bytes equal to a needle become zero after the XOR with that needle repeated;
/// `(w - ONES) & !w & HIGHS` marks zero bytes, and any false mark lies above a true one (a
/// borrow only runs upwards), so the lowest mark of either word is the first match.
#[inline]
pub(super) fn find_either(haystack: &[u8], a: u8, b: u8) -> Option<usize> {
    let (pattern_a, pattern_b) = (ONES * u64::from(a), ONES * u64::from(b));
    let mut chunks = haystack.chunks_exact(8);
    let mut offset = 0;
    for chunk in &mut chunks {
        let Ok(bytes) = <[u8; 8]>::try_from(chunk) else {
            break;
        };
        let word = u64::from_le_bytes(bytes);
        let (wa, wb) = (word ^ pattern_a, word ^ pattern_b);
        let marks = (wa.wrapping_sub(ONES) & !wa | wb.wrapping_sub(ONES) & !wb) & HIGHS;
        if marks != 0 {
            // A false mark lies above a true one in each half: the lowest is a true match.
            return Some(offset + (marks.trailing_zeros() / 8) as usize);
        }
        offset += 8;
    }
    let rest = &haystack[offset..];
    rest.iter().position(|&x| x == a || x == b).map(|k| offset + k)
}

/// Whether `byte` ends a line: a line feed, or a carriage return (alone, or before a line feed).
#[inline(always)]
pub(super) fn is_line_break(byte: u8) -> bool {
    byte == b'\n' || byte == b'\r'
}

/// How many line breaks `bytes` holds: `\n`, `\r\n` and a lone `\r` count one each. `next` is the
/// byte after `bytes`, if any: a `\r` at the end followed by `\n` is counted with that `\n`.
#[inline]
pub(super) fn count_line_breaks(bytes: &[u8], next: Option<u8>) -> u32 {
    let mut lines = 0;
    for (i, &byte) in bytes.iter().enumerate() {
        match byte {
            b'\n' => lines += 1,
            b'\r' if bytes.get(i + 1).copied().or(next) != Some(b'\n') => lines += 1,
            _ => {}
        }
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_line_breaks_of_every_style() {
        assert_eq!(count_line_breaks(b"a\nb\r\n\n", None), 3);
        assert_eq!(count_line_breaks(b"a\rb\r\rc", None), 3);
        assert_eq!(
            count_line_breaks(b"a\r", Some(b'\n')),
            0,
            "counted with the line feed after it"
        );
        assert_eq!(count_line_breaks(b"a\r", Some(b'x')), 1);
        assert_eq!(count_line_breaks(b"a\r", None), 1);
        assert_eq!(count_line_breaks(b"", None), 0);
    }

    #[test]
    fn find_either_agrees_with_position() {
        for len in 0..40 {
            for at in 0..=len {
                let mut hay: Vec<u8> = (0..len).map(|k| [b'a', 0x7c, 0x5a, 0xdb, 0x00][k % 5]).collect();
                if at < len {
                    hay[at] = if at % 2 == 0 { b'}' } else { b'[' };
                }
                let expected = hay.iter().position(|&b| b == b'}' || b == b'[');
                assert_eq!(find_either(&hay, b'}', b'['), expected, "len {len}, at {at}");
            }
        }
    }
}
