//! LEB128 varints, zigzag signed integers and a bounds-checked byte reader for block payloads.
//!
//! A varint is little-endian base 128: seven bits a byte, low groups first, the high bit set on
//! every byte but the last. At most 10 bytes (64 bits); a longer or overflowing varint is corrupt.

use super::error::{Corrupt, DecodeResult};

/// Appends `value` as a varint.
pub(crate) fn put_varint(out: &mut Vec<u8>, mut value: u64) {
    while value >= 0x80 {
        out.push((value as u8 & 0x7f) | 0x80);
        value >>= 7;
    }
    out.push(value as u8);
}

/// Appends a length-prefixed byte string.
pub(crate) fn put_bytes(out: &mut Vec<u8>, bytes: &[u8]) {
    put_varint(out, bytes.len() as u64);
    out.extend_from_slice(bytes);
}

/// Maps signed to unsigned so that small magnitudes stay small: 0, -1, 1, -2, ... → 0, 1, 2, 3, ...
pub(crate) fn zigzag(value: i64) -> u64 {
    ((value << 1) ^ (value >> 63)) as u64
}

/// The inverse of [`zigzag`].
pub(crate) fn unzigzag(value: u64) -> i64 {
    ((value >> 1) as i64) ^ -((value & 1) as i64)
}

/// Reads a byte slice front to back; every read checks the bounds.
#[derive(Clone, Debug)]
pub(crate) struct ByteReader<'a> {
    data: &'a [u8],
    pos: usize,
    /// What the bytes are, for error messages.
    what: &'static str,
}

impl<'a> ByteReader<'a> {
    pub(crate) fn new(data: &'a [u8], what: &'static str) -> ByteReader<'a> {
        ByteReader { data, pos: 0, what }
    }

    fn end(&self) -> Corrupt {
        Corrupt(format!("{} section ends early", self.what))
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.pos >= self.data.len()
    }

    pub(crate) fn u8(&mut self) -> DecodeResult<u8> {
        let byte = *self.data.get(self.pos).ok_or_else(|| self.end())?;
        self.pos += 1;
        Ok(byte)
    }

    pub(crate) fn varint(&mut self) -> DecodeResult<u64> {
        let mut value = 0u64;
        for shift in (0..64).step_by(7) {
            let byte = self.u8()?;
            let bits = u64::from(byte & 0x7f);
            // The tenth byte may only carry the single top bit.
            if shift == 63 && bits > 1 {
                return Err(Corrupt(format!("{} section: varint overflows 64 bits", self.what)));
            }
            value |= bits << shift;
            if byte & 0x80 == 0 {
                return Ok(value);
            }
        }
        Err(Corrupt(format!("{} section: varint longer than 10 bytes", self.what)))
    }

    /// A varint that must fit `limit` (a count or a length that sizes an allocation).
    pub(crate) fn varint_at_most(&mut self, limit: u64) -> DecodeResult<u64> {
        let value = self.varint()?;
        if value > limit {
            return Err(Corrupt(format!("{} section: value {value} exceeds {limit}", self.what)));
        }
        Ok(value)
    }

    /// A count that sizes a loop or allocation: no larger than the bytes left (each item takes
    /// at least `min_item_bytes` bytes of this reader).
    pub(crate) fn count(&mut self, min_item_bytes: usize) -> DecodeResult<usize> {
        let left = (self.data.len() - self.pos.min(self.data.len())) as u64;
        let limit = if min_item_bytes == 0 {
            u64::from(u32::MAX)
        } else {
            left / min_item_bytes as u64
        };
        Ok(self.varint_at_most(limit)? as usize)
    }

    pub(crate) fn bytes(&mut self, len: usize) -> DecodeResult<&'a [u8]> {
        let end = self.pos.checked_add(len).ok_or_else(|| self.end())?;
        let slice = self.data.get(self.pos..end).ok_or_else(|| self.end())?;
        self.pos = end;
        Ok(slice)
    }

    /// A length-prefixed byte string.
    pub(crate) fn prefixed(&mut self) -> DecodeResult<&'a [u8]> {
        let len = self.varint()?;
        let len = usize::try_from(len).map_err(|_| self.end())?;
        self.bytes(len)
    }

    /// Fails unless every byte was read: trailing bytes mean the sections disagree.
    pub(crate) fn expect_end(&self) -> DecodeResult<()> {
        if self.is_empty() {
            Ok(())
        } else {
            Err(Corrupt(format!(
                "{} section has {} unread bytes",
                self.what,
                self.data.len() - self.pos
            )))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn varints_round_trip_and_reject_overflow() {
        let values = [0u64, 1, 127, 128, 300, 16_383, 16_384, u64::from(u32::MAX), u64::MAX];
        let mut out = Vec::new();
        for &v in &values {
            put_varint(&mut out, v);
        }
        let mut reader = ByteReader::new(&out, "test");
        for &v in &values {
            assert_eq!(reader.varint(), Ok(v));
        }
        assert!(reader.is_empty());
        assert!(ByteReader::new(&[0xff; 10], "test").varint().is_err());
        assert!(
            ByteReader::new(&[0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02], "t")
                .varint()
                .is_err()
        );
        assert!(ByteReader::new(&[0x80], "test").varint().is_err());
    }

    #[test]
    fn zigzag_round_trips() {
        for v in [0i64, -1, 1, -2, 2, i64::MIN, i64::MAX, -12345] {
            assert_eq!(unzigzag(zigzag(v)), v);
        }
        assert_eq!(zigzag(-1), 1);
        assert_eq!(zigzag(1), 2);
    }

    #[test]
    fn counts_are_bounded_by_the_bytes_left() {
        let mut out = Vec::new();
        put_varint(&mut out, 1_000_000);
        assert!(ByteReader::new(&out, "test").count(1).is_err());
        let mut reader = ByteReader::new(&[3, 0, 0, 0], "test");
        assert_eq!(reader.count(1), Ok(3));
    }
}
