//! Bit-level writing and reading, most significant bit first.
//!
//! Layout: bits are appended to bytes from the most significant bit down; the last byte is padded
//! with zero bits. `write(value, n)` appends the low `n` bits of `value`, highest first, so a
//! reader's `read(n)` returns the same number.

use core::fmt;

/// Appends bits to a byte vector.
///
/// ```
/// use chessbits::codec::bits::{BitReader, BitWriter};
/// let mut w = BitWriter::new();
/// w.write(0b101, 3);
/// w.write_bit(true);
/// let bytes = w.finish();
/// assert_eq!(bytes, vec![0b1011_0000]);
/// let mut r = BitReader::new(&bytes);
/// assert_eq!(r.read(3), Ok(0b101));
/// assert_eq!(r.read_bit(), Ok(true));
/// ```
#[derive(Clone, Debug, Default)]
pub struct BitWriter {
    bytes: Vec<u8>,
    /// Bits used in the last byte (0 = byte-aligned).
    used: u32,
}

impl BitWriter {
    pub fn new() -> BitWriter {
        BitWriter::default()
    }

    /// Appends the low `n` bits of `value` (`n` ≤ 64), most significant first.
    pub fn write(&mut self, value: u64, n: u32) {
        debug_assert!(n <= 64);
        for i in (0..n).rev() {
            self.write_bit(value >> i & 1 != 0);
        }
    }

    #[inline]
    pub fn write_bit(&mut self, bit: bool) {
        if self.used == 0 {
            self.bytes.push(0);
        }
        if bit {
            let last = self.bytes.len() - 1;
            self.bytes[last] |= 0x80 >> self.used;
        }
        self.used = (self.used + 1) % 8;
    }

    /// Bits written so far.
    pub fn bit_len(&self) -> u64 {
        let full = self.bytes.len() as u64 * 8;
        if self.used == 0 {
            full
        } else {
            full - 8 + self.used as u64
        }
    }

    /// The bytes, last one zero-padded.
    pub fn finish(self) -> Vec<u8> {
        self.bytes
    }

    /// The bytes after appending a single 1 bit, the *end marker*, then zero padding: a reader
    /// from [`BitReader::before_end_marker`] then sees exactly the bits written before it.
    ///
    /// ```
    /// use chessbits::codec::bits::{BitReader, BitWriter};
    /// let mut w = BitWriter::new();
    /// w.write(0b100, 3);
    /// let bytes = w.finish_with_end_marker();
    /// assert_eq!(bytes, vec![0b1001_0000]);
    /// let mut r = BitReader::before_end_marker(&bytes).unwrap();
    /// assert_eq!(r.remaining(), 3);
    /// assert_eq!(r.read(3), Ok(0b100));
    /// assert!(r.read_bit().is_err());
    /// ```
    pub fn finish_with_end_marker(mut self) -> Vec<u8> {
        self.write_bit(true);
        self.finish()
    }
}

/// Reading past the end of the input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EndOfInput;

impl fmt::Display for EndOfInput {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("unexpected end of input")
    }
}

impl std::error::Error for EndOfInput {}

/// Reads bits written by [`BitWriter`].
///
/// A reader from [`BitReader::new`] reads all bits of its bytes, padding included, and then fails;
/// [`BitReader::zero_extended`] and [`BitReader::before_end_marker`] change where the bits end and
/// what lies beyond.
#[derive(Clone, Debug)]
pub struct BitReader<'a> {
    bytes: &'a [u8],
    pos: u64,
    /// Bits that may be read (at most `8 * bytes.len()`).
    len: u64,
    /// Whether reading past `len` yields zero bits (for codes whose trailing zeros are cut off)
    /// instead of [`EndOfInput`].
    zero_extend: bool,
}

impl<'a> BitReader<'a> {
    pub fn new(bytes: &'a [u8]) -> BitReader<'a> {
        BitReader {
            bytes,
            pos: 0,
            len: bytes.len() as u64 * 8,
            zero_extend: false,
        }
    }

    /// All bits of `bytes`, then zero bits for ever (the position stops advancing at the end), for
    /// codes whose trailing zero bits are dropped.
    ///
    /// ```
    /// use chessbits::codec::bits::BitReader;
    /// let mut r = BitReader::zero_extended(&[0xff]);
    /// assert_eq!(r.read(8), Ok(0xff));
    /// assert_eq!(r.read(64), Ok(0));
    /// assert_eq!((r.position(), r.remaining()), (8, 0));
    /// ```
    pub fn zero_extended(bytes: &'a [u8]) -> BitReader<'a> {
        BitReader {
            zero_extend: true,
            ..BitReader::new(bytes)
        }
    }

    /// The bits of `bytes` before their last 1 bit, the end marker written by
    /// [`BitWriter::finish_with_end_marker`]; `None` if there is no 1 bit.
    ///
    /// ```
    /// use chessbits::codec::bits::BitReader;
    /// assert_eq!(BitReader::before_end_marker(&[0b0110_0000, 0]).unwrap().remaining(), 2);
    /// assert!(BitReader::before_end_marker(&[0, 0]).is_none());
    /// ```
    pub fn before_end_marker(bytes: &'a [u8]) -> Option<BitReader<'a>> {
        let last = bytes.iter().rposition(|&b| b != 0)?;
        let trailing = bytes.get(last).map_or(0, |b| b.trailing_zeros());
        Some(BitReader {
            len: last as u64 * 8 + 7 - u64::from(trailing),
            ..BitReader::new(bytes)
        })
    }

    #[inline]
    pub fn read_bit(&mut self) -> Result<bool, EndOfInput> {
        if self.pos >= self.len {
            return if self.zero_extend { Ok(false) } else { Err(EndOfInput) };
        }
        let byte = *self.bytes.get((self.pos / 8) as usize).ok_or(EndOfInput)?;
        let bit = byte & (0x80 >> (self.pos % 8)) != 0;
        self.pos += 1;
        Ok(bit)
    }

    /// The next bit, left unread.
    ///
    /// ```
    /// use chessbits::codec::bits::BitReader;
    /// let r = BitReader::new(&[0x80]);
    /// assert_eq!(r.peek_bit(), Ok(true));
    /// assert_eq!(r.position(), 0);
    /// ```
    pub fn peek_bit(&self) -> Result<bool, EndOfInput> {
        self.clone().read_bit()
    }

    /// The position just after the last 1 bit that is left to read (the current position if only
    /// zero bits are left).
    ///
    /// ```
    /// use chessbits::codec::bits::BitReader;
    /// let mut r = BitReader::new(&[0b1010_0000]);
    /// assert_eq!(r.end_of_ones(), 3);
    /// r.read(4).unwrap();
    /// assert_eq!(r.end_of_ones(), 4);
    /// ```
    pub fn end_of_ones(&self) -> u64 {
        let mut probe = self.clone();
        probe.zero_extend = false;
        let mut end = self.pos;
        while let Ok(bit) = probe.read_bit() {
            if bit {
                end = probe.pos;
            }
        }
        end
    }

    /// Reads `n` bits (`n` ≤ 64) as a number, most significant first.
    pub fn read(&mut self, n: u32) -> Result<u64, EndOfInput> {
        debug_assert!(n <= 64);
        let mut value = 0u64;
        for _ in 0..n {
            value = value << 1 | self.read_bit()? as u64;
        }
        Ok(value)
    }

    /// Bits read so far.
    pub fn position(&self) -> u64 {
        self.pos
    }

    /// Bits left before the end (for [`BitReader::new`], counting the padding of the last byte).
    pub fn remaining(&self) -> u64 {
        self.len.saturating_sub(self.pos)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_mixed_widths() {
        let values: Vec<(u64, u32)> = (0..200u64)
            .map(|i| ((i * 0x9e37_79b9) & ((1 << (i % 40)) - 1), (i % 40) as u32))
            .collect();
        let mut w = BitWriter::new();
        for &(v, n) in &values {
            w.write(v, n);
        }
        let total: u64 = values.iter().map(|&(_, n)| n as u64).sum();
        assert_eq!(w.bit_len(), total);
        let bytes = w.finish();
        let mut r = BitReader::new(&bytes);
        for &(v, n) in &values {
            assert_eq!(r.read(n), Ok(v));
        }
        assert!(r.remaining() < 8);
    }

    #[test]
    fn reading_past_end_is_an_error() {
        let mut r = BitReader::new(&[0xff]);
        assert_eq!(r.read(8), Ok(0xff));
        assert_eq!(r.read_bit(), Err(EndOfInput));
        assert_eq!(BitReader::new(&[]).read(1), Err(EndOfInput));
    }

    #[test]
    fn end_marker_gives_exact_length() {
        for len in 0..20u32 {
            let mut w = BitWriter::new();
            w.write(0, len);
            let bytes = w.finish_with_end_marker();
            let r = BitReader::before_end_marker(&bytes).unwrap();
            assert_eq!(r.remaining(), u64::from(len));
            assert_eq!(r.end_of_ones(), 0);
        }
        assert!(BitReader::before_end_marker(&[0, 0]).is_none());
        assert!(BitReader::before_end_marker(&[]).is_none());
    }

    #[test]
    fn zero_extended_reads_never_end() {
        let mut r = BitReader::zero_extended(&[0xff]);
        assert_eq!(r.read(8), Ok(0xff));
        assert_eq!(r.read(64), Ok(0));
        assert_eq!(r.remaining(), 0);
        let mut strict = BitReader::new(&[0xff]);
        assert_eq!(strict.read(9), Err(EndOfInput));
    }
}
