//! Byte scanning for the reader: finding bytes eight at a time (std only), counting lines.
//!
//! Comments and tag lines are where the reader spends its bytes; looking for their end one word
//! at a time costs about a quarter of the byte-by-byte loop.

const ONES: u64 = 0x0101_0101_0101_0101;
const HIGHS: u64 = 0x8080_8080_8080_8080;

/// The words of eight bytes of `bytes` (little-endian) with their offsets; the last
/// `bytes.len() % 8` bytes are left to the caller.
#[inline(always)]
fn words(bytes: &[u8]) -> impl Iterator<Item = (usize, u64)> + '_ {
    bytes.chunks_exact(8).enumerate().map(|(i, chunk)| {
        let mut word = [0; 8];
        word.copy_from_slice(chunk);
        (i * 8, u64::from_le_bytes(word))
    })
}

/// The index of the first byte of `haystack` equal to `a` or `b`, eight bytes at a time.
///
/// A word's bytes equal to a needle become zero after the XOR with that needle repeated;
/// `(w - ONES) & !w & HIGHS` marks zero bytes, and any false mark lies above a true one (a
/// borrow only runs upwards), so the lowest mark of either word is the first match.
#[inline]
pub(super) fn find_either(haystack: &[u8], a: u8, b: u8) -> Option<usize> {
    let (pattern_a, pattern_b) = (ONES * u64::from(a), ONES * u64::from(b));
    for (offset, word) in words(haystack) {
        let (wa, wb) = (word ^ pattern_a, word ^ pattern_b);
        let marks = (wa.wrapping_sub(ONES) & !wa | wb.wrapping_sub(ONES) & !wb) & HIGHS;
        if marks != 0 {
            // A false mark lies above a true one in each half: the lowest is a true match.
            return Some(offset + (marks.trailing_zeros() / 8) as usize);
        }
    }
    let offset = haystack.len() / 8 * 8;
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
///
/// Eight bytes at a time (comments are where the lines are counted, and a byte loop there cost
/// 15 % of cutting a file into games): each word's line feeds and carriage returns are marked
/// exactly, a return counts unless a line feed follows it.
#[inline]
pub(super) fn count_line_breaks(bytes: &[u8], next: Option<u8>) -> u32 {
    let mut lines = 0;
    for (offset, word) in words(bytes) {
        let feeds = exact_marks(word ^ (ONES * u64::from(b'\n')));
        let returns = exact_marks(word ^ (ONES * u64::from(b'\r')));
        if returns != 0 {
            // A return is followed by a line feed: the next byte's mark, one byte up; for the
            // last byte, the byte after the word.
            let after = bytes.get(offset + 8).copied().or(next);
            let last_followed = u64::from(after == Some(b'\n')) << 63;
            let followed = returns & ((feeds >> 8) | last_followed);
            lines += marks_count(returns) - marks_count(followed);
        }
        lines += marks_count(feeds);
    }
    lines + count_line_breaks_bytewise(&bytes[bytes.len() / 8 * 8..], next)
}

/// [`count_line_breaks`] a byte at a time: the definition, used for the last bytes of fewer than
/// a word.
fn count_line_breaks_bytewise(bytes: &[u8], next: Option<u8>) -> u32 {
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

/// The high bit of every zero byte of `x`, and no other bit (exact, unlike the test in
/// [`find_either`], whose false marks only lie above true ones).
#[inline(always)]
fn exact_marks(x: u64) -> u64 {
    const LOWS: u64 = !HIGHS;
    !(((x & LOWS).wrapping_add(LOWS)) | x | LOWS)
}

/// How many marks (high bits of bytes) `marks` holds: one multiplication sums them into the top
/// byte (no `popcnt` on baseline x86-64).
#[inline(always)]
fn marks_count(marks: u64) -> u32 {
    ((marks >> 7).wrapping_mul(ONES) >> 56) as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counting_by_words_agrees_with_the_byte_loop() {
        let alphabet = [b'\n', b'\r', b'a', b' ', 0x8a, 0x8d, 0x0a ^ 0x80, 0xff, 0x00];
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        for len in 0..48 {
            for _ in 0..400 {
                let bytes: Vec<u8> = (0..len)
                    .map(|_| {
                        seed ^= seed << 13;
                        seed ^= seed >> 7;
                        seed ^= seed << 17;
                        alphabet[(seed % alphabet.len() as u64) as usize]
                    })
                    .collect();
                for next in [None, Some(b'\n'), Some(b'\r'), Some(b'x')] {
                    assert_eq!(
                        count_line_breaks(&bytes, next),
                        count_line_breaks_bytewise(&bytes, next),
                        "{bytes:?} then {next:?}"
                    );
                }
            }
        }
    }

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
