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
#[derive(Clone, Debug)]
pub struct BitReader<'a> {
    bytes: &'a [u8],
    pos: u64,
}

impl<'a> BitReader<'a> {
    pub fn new(bytes: &'a [u8]) -> BitReader<'a> {
        BitReader { bytes, pos: 0 }
    }

    #[inline]
    pub fn read_bit(&mut self) -> Result<bool, EndOfInput> {
        let byte = *self.bytes.get((self.pos / 8) as usize).ok_or(EndOfInput)?;
        let bit = byte & (0x80 >> (self.pos % 8)) != 0;
        self.pos += 1;
        Ok(bit)
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

    /// Bits left, counting the padding of the last byte.
    pub fn remaining(&self) -> u64 {
        self.bytes.len() as u64 * 8 - self.pos
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
}
