//! A byte-oriented 32-bit range coder with exact carry propagation and a canonical, minimal flush.
//!
//! Integer arithmetic only, so every machine produces and accepts the same bytes. The layout, bit
//! exactly (all numbers unsigned):
//!
//! - Encoder state: `low` (fits 32 bits between steps), `range` (32 bits), the output bytes.
//!   Start: `low = 0`, `range = 0xFFFF_FFFF`, no output.
//! - Coding a symbol with cumulative frequency `cum`, frequency `freq` (≥ 1) and total `total`
//!   (`cum + freq ≤ total ≤ 2^16`): `r = range / total` (integer division), `low += r * cum`,
//!   `range = r * freq`. The `range - r * total` left over is unused.
//! - Carry: if `low ≥ 2^32`, subtract `2^32` and add one to the output read as a big-endian number
//!   (trailing `0xFF` bytes become `0x00`, the byte before them is incremented).
//! - Normalization: while `range < 2^24`, append the byte `low >> 24`, then `low = (low << 8) mod
//!   2^32`, `range <<= 8`.
//! - Flush: pick `v` = the smallest multiple of `2^k` that is `≥ low`, for the largest `k` in
//!   `32, 24, 16, 8, 0` with `v < low + range`. If `v ≥ 2^32`, carry and subtract `2^32`. Append the
//!   top `(32 - k) / 8` bytes of `v` (big endian). With `range ≥ 2^24` this is at most one byte.
//!   The shortest flush ([`RangeEncoder::finish_shortest`]) takes the largest `k` of `32, 31, …, 0`
//!   instead and appends the top `⌈(32 - k) / 8⌉` bytes of `v`: the fewest bits, not bytes.
//!
//! The decoder reads the stream as a big-endian fraction and pads it with zero bytes past the end:
//! `code` starts as the first four bytes, `range = 0xFFFF_FFFF`. For a symbol it computes `r = range
//! / total` and the target `t = code / r` (an error if `t ≥ total`), finds the symbol with `cum ≤ t <
//! cum + freq`, then `code -= r * cum`, `range = r * freq` and normalizes like the encoder, shifting
//! in the next byte. At the end it checks that the stream is exactly what the encoder writes: every
//! byte was read, the last four bytes read (padding included) equal the flush value computed from the
//! decoder's own `low = window - code` and `range`, and the padding equals what the flush left out.
//! So a truncated or extended stream is never accepted as the same symbols; at most `4` padding
//! bytes are ever needed, so reading a fifth one stops decoding at once.
//!
//! Two codes use it: the entropy move code ([`moves::entropy`](crate::codec::moves::entropy)), one
//! symbol per ply with a learned model, and the compact position code
//! ([`position::compact`](crate::codec::position::compact)), one symbol per square with static
//! tables. Plain fixed-width fields go through it too ([`RangeEncoder::encode_bits`]), so a code
//! is one byte string from one coder.

use core::fmt;

/// Largest total frequency a symbol may be coded with.
///
/// ```
/// use chessbits::codec::range_coder::{RangeDecoder, RangeError, MAX_TOTAL};
/// assert_eq!(RangeDecoder::new(&[]).target(MAX_TOTAL + 1), Err(RangeError::Corrupt));
/// ```
pub const MAX_TOTAL: u32 = 1 << 16;

const TOP: u32 = 1 << 24;

/// Why a byte stream is not a range-coded stream.
///
/// ```
/// use chessbits::codec::range_coder::{RangeDecoder, RangeError};
/// // An empty stream holds no 16-bit symbol: the decoder would need more than the four bytes
/// // of padding an encoder's output ever leaves out.
/// let mut dec = RangeDecoder::new(&[]);
/// let t = dec.target(1 << 16).unwrap();
/// assert_eq!(dec.consume(t, 1), Err(RangeError::Truncated));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum RangeError {
    /// The code value points past the last symbol: the bytes were not written by this coder.
    Corrupt,
    /// The decoder needed more bytes than the stream has.
    Truncated,
    /// Symbols decoded, but the stream does not end the way the encoder ends it (extra or missing
    /// bytes).
    NonCanonical,
}

impl fmt::Display for RangeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            RangeError::Corrupt => "corrupt range-coded data",
            RangeError::Truncated => "range-coded data ends too early",
            RangeError::NonCanonical => "range-coded data does not end where its symbols end",
        })
    }
}

impl std::error::Error for RangeError {}

/// The flush value for the interval `[low, low + range)` and how many bytes of it are written:
/// the multiple of `2^k` in the interval for the largest `k` of `32, 32 - step, …, 0`.
fn flush_point(low: u64, range: u32, step: u32) -> (u64, usize) {
    let mut k = 32;
    loop {
        let unit = 1u64 << k;
        let v = (low + unit - 1) & !(unit - 1);
        if v < low + u64::from(range) || k == 0 {
            return (v, (32 - k as usize).div_ceil(8));
        }
        k -= step;
    }
}

/// Range encoder appending to a byte vector.
///
/// ```
/// use chessbits::codec::range_coder::{RangeDecoder, RangeEncoder};
/// let mut bytes = Vec::new();
/// let mut enc = RangeEncoder::new(&mut bytes);
/// for symbol in [0u32, 2, 1, 2] {
///     // Three symbols with frequencies 1, 2 and 5 (total 8).
///     let (cum, freq) = [(0, 1), (1, 2), (3, 5)][symbol as usize];
///     enc.encode(cum, freq, 8);
/// }
/// enc.finish();
/// let mut dec = RangeDecoder::new(&bytes);
/// let mut decoded = Vec::new();
/// for _ in 0..4 {
///     let t = dec.target(8).unwrap();
///     let (symbol, cum, freq) = if t < 1 { (0, 0, 1) } else if t < 3 { (1, 1, 2) } else { (2, 3, 5) };
///     dec.consume(cum, freq).unwrap();
///     decoded.push(symbol);
/// }
/// dec.finish().unwrap();
/// assert_eq!(decoded, [0, 2, 1, 2]);
/// ```
#[derive(Debug)]
pub struct RangeEncoder<'a> {
    low: u64,
    range: u32,
    out: &'a mut Vec<u8>,
}

impl<'a> RangeEncoder<'a> {
    /// An encoder appending to `out` (existing bytes are kept and never changed by carries: the
    /// coded value is below one, so a carry never runs past the encoder's own first byte).
    ///
    /// ```
    /// use chessbits::codec::range_coder::RangeEncoder;
    /// let mut out = vec![0xFF];
    /// let mut enc = RangeEncoder::new(&mut out);
    /// enc.encode(65535, 1, 65536);
    /// enc.finish();
    /// assert_eq!(out[0], 0xFF);
    /// ```
    pub fn new(out: &'a mut Vec<u8>) -> RangeEncoder<'a> {
        RangeEncoder {
            low: 0,
            range: u32::MAX,
            out,
        }
    }

    /// Codes the symbol `[cum, cum + freq)` of `total`.
    ///
    /// Requires `freq ≥ 1`, `cum + freq ≤ total ≤ MAX_TOTAL`; the callers (the model) guarantee it,
    /// it is checked in debug builds.
    ///
    /// ```
    /// use chessbits::codec::range_coder::RangeEncoder;
    /// let mut out = Vec::new();
    /// let mut enc = RangeEncoder::new(&mut out);
    /// for _ in 0..16 {
    ///     enc.encode(1, 1, 2); // one bit each
    /// }
    /// enc.finish();
    /// assert_eq!(out.len(), 2);
    /// ```
    #[inline]
    pub fn encode(&mut self, cum: u32, freq: u32, total: u32) {
        debug_assert!(freq >= 1 && cum + freq <= total && total <= MAX_TOTAL);
        let r = self.range / total;
        self.low += u64::from(r) * u64::from(cum);
        self.range = r * freq;
        if self.low >> 32 != 0 {
            self.low &= 0xFFFF_FFFF;
            self.carry();
        }
        while self.range < TOP {
            self.out.push((self.low >> 24) as u8);
            self.low = (self.low << 8) & 0xFFFF_FFFF;
            self.range <<= 8;
        }
    }

    /// Codes `value` as `bits` bits of equal probability (`bits ≤ 16`, `value < 2^bits`): a plain
    /// fixed-width field inside the code, costing `bits` bits (a little more in the rare steps
    /// where `range / 2^bits` rounds down).
    ///
    /// ```
    /// use chessbits::codec::range_coder::{RangeDecoder, RangeEncoder};
    /// let mut out = Vec::new();
    /// let mut enc = RangeEncoder::new(&mut out);
    /// enc.encode_bits(0xBEEF, 16);
    /// enc.encode_bits(5, 3);
    /// enc.finish();
    /// assert!(out.len() <= 3);
    /// let mut dec = RangeDecoder::new(&out);
    /// assert_eq!(dec.decode_bits(16), Ok(0xBEEF));
    /// assert_eq!(dec.decode_bits(3), Ok(5));
    /// assert_eq!(dec.finish(), Ok(()));
    /// ```
    #[inline]
    pub fn encode_bits(&mut self, value: u32, bits: u32) {
        debug_assert!(bits <= 16 && value >> bits == 0);
        self.encode(value, 1, 1 << bits);
    }

    fn carry(&mut self) {
        for byte in self.out.iter_mut().rev() {
            let (sum, overflow) = byte.overflowing_add(1);
            *byte = sum;
            if !overflow {
                break;
            }
        }
    }

    /// Writes the shortest tail that identifies the final interval (at most one byte).
    ///
    /// ```
    /// use chessbits::codec::range_coder::RangeEncoder;
    /// let mut out = Vec::new();
    /// let mut enc = RangeEncoder::new(&mut out);
    /// enc.encode(0, 1, 2);
    /// enc.finish();
    /// assert!(out.is_empty(), "the lower half starts at zero: nothing to write");
    /// ```
    pub fn finish(self) {
        self.flush(8);
    }

    /// Ends the code with the fewest bits rather than the fewest bytes: the tail is the shortest
    /// bit string that identifies the final interval, padded with zero bits to a byte. For codes
    /// whose container drops trailing zero bits and reads zeros past the end (the compact position
    /// code); [`RangeDecoder::finish`] does not accept this ending.
    ///
    /// ```
    /// use chessbits::codec::range_coder::RangeEncoder;
    /// let mut out = Vec::new();
    /// let mut enc = RangeEncoder::new(&mut out);
    /// enc.encode_bits(0b101, 3);
    /// enc.finish_shortest();
    /// assert_eq!(out, [0b1010_0000]);
    /// ```
    pub fn finish_shortest(self) {
        self.flush(1);
    }

    fn flush(mut self, step: u32) {
        let (mut v, bytes) = flush_point(self.low, self.range, step);
        if v >> 32 != 0 {
            v &= 0xFFFF_FFFF;
            self.carry();
        }
        for i in 0..bytes {
            self.out.push((v >> (24 - 8 * i)) as u8);
        }
    }
}

/// Range decoder over a byte slice; see the module docs for the checks it makes.
///
/// ```
/// use chessbits::codec::range_coder::{RangeDecoder, RangeError};
/// // A stream that ends in a zero byte is never written by the encoder.
/// let mut dec = RangeDecoder::new(&[0x12, 0x00]);
/// assert_eq!(dec.finish(), Err(RangeError::NonCanonical));
/// ```
#[derive(Debug)]
pub struct RangeDecoder<'a> {
    bytes: &'a [u8],
    pos: usize,
    padding: usize,
    code: u32,
    range: u32,
    /// The last four bytes read, padding included.
    window: u32,
    /// `range / total` and `total` of the pending symbol.
    r: u32,
    total: u32,
    /// How many zero bytes past the end may be read before decoding stops.
    max_padding: usize,
}

impl<'a> RangeDecoder<'a> {
    /// A decoder reading `bytes` from the start.
    ///
    /// ```
    /// use chessbits::codec::range_coder::RangeDecoder;
    /// let mut dec = RangeDecoder::new(&[0x80]);
    /// assert_eq!(dec.target(2), Ok(1));
    /// ```
    pub fn new(bytes: &'a [u8]) -> RangeDecoder<'a> {
        let mut dec = RangeDecoder {
            bytes,
            pos: 0,
            padding: 0,
            code: 0,
            range: u32::MAX,
            window: 0,
            r: 0,
            total: 0,
            max_padding: 4,
        };
        for _ in 0..4 {
            let byte = dec.next_byte();
            dec.code = dec.code << 8 | u32::from(byte);
        }
        dec
    }

    /// A decoder that reads any number of zero bytes past the end of `bytes`: for a code whose
    /// container drops its trailing zero bytes (ended by [`RangeEncoder::finish_shortest`]) and
    /// knows how many symbols it holds. [`RangeDecoder::finish`] does not apply to it.
    ///
    /// ```
    /// use chessbits::codec::range_coder::{RangeDecoder, RangeEncoder, RangeError};
    /// let mut out = Vec::new();
    /// let mut enc = RangeEncoder::new(&mut out);
    /// enc.encode_bits(1, 1);
    /// for _ in 0..8 {
    ///     enc.encode_bits(0, 16);
    /// }
    /// enc.finish_shortest();
    /// while out.last() == Some(&0) {
    ///     out.pop(); // what the container drops
    /// }
    /// assert_eq!(out.len(), 4);
    /// let mut dec = RangeDecoder::zero_extended(&out);
    /// assert_eq!(dec.decode_bits(1), Ok(1));
    /// for _ in 0..8 {
    ///     assert_eq!(dec.decode_bits(16), Ok(0));
    /// }
    /// // The plain decoder stops after four bytes of padding.
    /// let mut plain = RangeDecoder::new(&out);
    /// assert_eq!(plain.decode_bits(1), Ok(1));
    /// assert!((0..8).map(|_| plain.decode_bits(16)).any(|r| r == Err(RangeError::Truncated)));
    /// ```
    pub fn zero_extended(bytes: &'a [u8]) -> RangeDecoder<'a> {
        let mut dec = RangeDecoder::new(bytes);
        dec.max_padding = usize::MAX;
        dec
    }

    #[inline]
    fn next_byte(&mut self) -> u8 {
        let byte = match self.bytes.get(self.pos) {
            Some(&b) => {
                self.pos += 1;
                b
            }
            None => {
                self.padding += 1;
                0
            }
        };
        self.window = self.window << 8 | u32::from(byte);
        byte
    }

    /// The target value in `0..total` that selects the next symbol (`total` in `1..=MAX_TOTAL`).
    ///
    /// ```
    /// use chessbits::codec::range_coder::RangeDecoder;
    /// let mut dec = RangeDecoder::new(&[0x40]);
    /// assert_eq!(dec.target(4), Ok(1));
    /// ```
    #[inline]
    pub fn target(&mut self, total: u32) -> Result<u32, RangeError> {
        if total == 0 || total > MAX_TOTAL {
            return Err(RangeError::Corrupt);
        }
        self.r = self.range / total;
        self.total = total;
        let t = self.code / self.r;
        if t >= total {
            return Err(RangeError::Corrupt);
        }
        Ok(t)
    }

    /// Removes the symbol `[cum, cum + freq)` that contains the last target.
    ///
    /// ```
    /// use chessbits::codec::range_coder::{RangeDecoder, RangeError};
    /// let mut dec = RangeDecoder::new(&[0x40]);
    /// assert_eq!(dec.target(4), Ok(1));
    /// assert_eq!(dec.consume(2, 1), Err(RangeError::Corrupt), "target 1 is not in [2, 3)");
    /// assert_eq!(dec.consume(1, 1), Ok(()));
    /// assert_eq!(dec.finish(), Ok(()));
    /// ```
    #[inline]
    pub fn consume(&mut self, cum: u32, freq: u32) -> Result<(), RangeError> {
        // Holds when the symbol contains the last target; checked so that a caller bug cannot wrap.
        let fits = freq != 0 && cum.checked_add(freq).is_some_and(|end| end <= self.total);
        let offset = self.r * cum.min(self.total);
        if !fits || self.code < offset || self.code - offset >= self.r * freq.min(self.total) {
            return Err(RangeError::Corrupt);
        }
        self.code -= offset;
        self.range = self.r * freq;
        self.total = 0;
        while self.range < TOP {
            let byte = self.next_byte();
            self.code = self.code << 8 | u32::from(byte);
            self.range <<= 8;
        }
        if self.padding > self.max_padding {
            return Err(RangeError::Truncated);
        }
        Ok(())
    }

    /// Reads a field written by [`RangeEncoder::encode_bits`] (`bits ≤ 16`).
    ///
    /// ```
    /// use chessbits::codec::range_coder::{RangeDecoder, RangeError};
    /// assert_eq!(RangeDecoder::new(&[0xA0]).decode_bits(4), Ok(0xA));
    /// assert_eq!(RangeDecoder::new(&[]).decode_bits(17), Err(RangeError::Corrupt));
    /// ```
    #[inline]
    pub fn decode_bits(&mut self, bits: u32) -> Result<u32, RangeError> {
        if bits > 16 {
            return Err(RangeError::Corrupt);
        }
        let value = self.target(1 << bits)?;
        self.consume(value, 1)?;
        Ok(value)
    }

    /// Checks that the stream ends exactly where the encoder would have ended it.
    ///
    /// ```
    /// use chessbits::codec::range_coder::{RangeDecoder, RangeError};
    /// assert_eq!(RangeDecoder::new(&[]).finish(), Ok(()));
    /// assert_eq!(RangeDecoder::new(&[0x40]).finish(), Err(RangeError::NonCanonical));
    /// ```
    pub fn finish(&mut self) -> Result<(), RangeError> {
        let low = self.window.wrapping_sub(self.code);
        let (v, bytes) = flush_point(u64::from(low), self.range, 8);
        let expected_padding = 4 - bytes;
        if self.pos != self.bytes.len() || self.padding != expected_padding || v as u32 != self.window {
            return Err(RangeError::NonCanonical);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Deterministic pseudo-random numbers (xorshift).
    fn rng(seed: u64) -> impl FnMut() -> u64 {
        let mut x = seed | 1;
        move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        }
    }

    fn random_stream(seed: u64, len: usize) -> (Vec<(Vec<u32>, usize)>, Vec<u8>) {
        let mut next = rng(seed);
        let mut symbols = Vec::new();
        let mut bytes = Vec::new();
        let mut enc = RangeEncoder::new(&mut bytes);
        for _ in 0..len {
            let n = 1 + (next() % 40) as usize;
            let freqs: Vec<u32> = (0..n).map(|_| 1 + (next() % 2000) as u32).collect();
            let pick = (next() % n as u64) as usize;
            let cum: u32 = freqs[..pick].iter().sum();
            let total: u32 = freqs.iter().sum();
            enc.encode(cum, freqs[pick], total);
            symbols.push((freqs, pick));
        }
        enc.finish();
        (symbols, bytes)
    }

    fn decode(symbols: &[(Vec<u32>, usize)], bytes: &[u8]) -> Result<Vec<usize>, RangeError> {
        let mut dec = RangeDecoder::new(bytes);
        let mut out = Vec::new();
        for (freqs, _) in symbols {
            let total: u32 = freqs.iter().sum();
            let t = dec.target(total)?;
            let mut cum = 0;
            for (i, &f) in freqs.iter().enumerate() {
                if t < cum + f {
                    dec.consume(cum, f)?;
                    out.push(i);
                    break;
                }
                cum += f;
            }
        }
        dec.finish()?;
        Ok(out)
    }

    #[test]
    fn round_trips_random_streams() {
        for seed in 1..200 {
            let (symbols, bytes) = random_stream(seed, (seed as usize * 7) % 300);
            let expected: Vec<usize> = symbols.iter().map(|s| s.1).collect();
            assert_eq!(decode(&symbols, &bytes), Ok(expected), "seed {seed}");
        }
    }

    #[test]
    fn size_is_close_to_the_information_content() {
        let (symbols, bytes) = random_stream(99, 5000);
        let bits: f64 = symbols
            .iter()
            .map(|(f, pick)| (f.iter().sum::<u32>() as f64 / f[*pick] as f64).log2())
            .sum();
        let actual = bytes.len() as f64 * 8.0;
        assert!(actual >= bits && actual < bits * 1.002 + 16.0, "{actual} vs {bits}");
    }

    #[test]
    fn cut_or_extended_streams_never_decode_to_the_same_symbols() {
        for seed in 1..100 {
            let (symbols, bytes) = random_stream(seed, 50);
            let expected: Vec<usize> = symbols.iter().map(|s| s.1).collect();
            for cut in 0..bytes.len() {
                assert_ne!(decode(&symbols, &bytes[..cut]), Ok(expected.clone()));
            }
            for extra in [0u8, 1, 0xFF] {
                let mut longer = bytes.clone();
                longer.push(extra);
                assert_ne!(decode(&symbols, &longer), Ok(expected.clone()));
            }
        }
    }

    #[test]
    fn empty_stream_codes_no_symbols() {
        let mut bytes = Vec::new();
        RangeEncoder::new(&mut bytes).finish();
        assert!(bytes.is_empty());
        assert_eq!(RangeDecoder::new(&bytes).finish(), Ok(()));
        assert_eq!(RangeDecoder::new(&[1]).finish(), Err(RangeError::NonCanonical));
    }

    #[test]
    fn certain_symbols_cost_nothing() {
        let mut bytes = Vec::new();
        let mut enc = RangeEncoder::new(&mut bytes);
        for _ in 0..1000 {
            enc.encode(0, 7, 7);
        }
        enc.finish();
        assert!(bytes.is_empty());
    }

    #[test]
    fn bad_targets_and_symbols_are_errors() {
        // All ones: the code value lies past every symbol (beyond range / total * total).
        assert_eq!(RangeDecoder::new(&[0xFF; 4]).target(3), Err(RangeError::Corrupt));
        let mut dec = RangeDecoder::new(&[0xAA; 4]);
        assert_eq!(dec.target(0), Err(RangeError::Corrupt));
        assert_eq!(dec.target(MAX_TOTAL + 1), Err(RangeError::Corrupt));
        assert_eq!(dec.consume(0, 1), Err(RangeError::Corrupt), "no target asked for");
        let t = dec.target(3).unwrap();
        assert_eq!(t, 2);
        assert_eq!(dec.consume(0, 1), Err(RangeError::Corrupt));
    }
}
