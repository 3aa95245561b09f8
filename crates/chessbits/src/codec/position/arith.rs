//! Arithmetic coding with bit output and static frequencies: the integer coder of Witten, Neal and
//! Cleary ("Arithmetic coding for data compression", CACM 1987) with 32-bit registers.
//!
//! A symbol is given by its cumulative frequency interval `[low, high)` out of `total`
//! (`total ≤ 2^16`, every coded symbol with `high > low`). The coder keeps an interval
//! `[low, high]` of 32-bit numbers; each symbol narrows it to its share and every leading bit the
//! interval's ends agree on is sent. When the interval straddles the middle in its two middle
//! quarters it is widened and the decision deferred ("pending" bits). After the last symbol two
//! more bits (plus pending ones) pin down a number inside the interval whatever follows, so the
//! decoder may read zero bits past the end: the caller can drop the code's trailing zero bits.
//!
//! The interval always spans more than a quarter of the 32-bit range, so a symbol costs at most
//! `log2(total / freq) + 2^-13`-ish bits more than its information content; the end costs 2 bits
//! at most (plus the pending ones, each of which was counted as part of earlier symbols).
//!
//! Why not the move codes' [range coder](crate::codec::moves::entropy::range_coder): the two are
//! different frozen formats. This coder narrows `[low, high]` with `range · cum / total` and
//! writes single bits (with pending bits for the middle quarters) into a [`BitWriter`], so a
//! position code can go on with plain bits after it; the range coder truncates `range / total`
//! first, writes whole bytes and propagates carries. Coding the same symbols, they give different
//! bits, so one coder for both would change one of the golden files (`tests/golden/`). They share
//! the symbol interface (cumulative frequency, frequency or interval end, total ≤ 2^16).

use super::PositionCodeError;
use crate::codec::bits::{BitReader, BitWriter};

const TOP: u64 = (1 << 32) - 1;
const HALF: u64 = 1 << 31;
const QUARTER: u64 = 1 << 30;

/// Largest total frequency a symbol may be coded with.
pub(super) const MAX_TOTAL: u32 = 1 << 16;

/// The coder's interval `[low, high]`, shared by the encoder and the decoder, which must narrow
/// and rescale it in lockstep.
#[derive(Copy, Clone, Debug)]
struct Interval {
    low: u64,
    high: u64,
}

/// Which part of the range the interval lay in when it was doubled.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Part {
    LowerHalf,
    UpperHalf,
    MiddleQuarters,
}

impl Interval {
    const FULL: Interval = Interval { low: 0, high: TOP };

    /// Narrows the interval to the share `[cum_low, cum_high)` of `total`.
    fn narrow(&mut self, cum_low: u32, cum_high: u32, total: u32) {
        let range = self.high - self.low + 1;
        self.high = self.low + range * u64::from(cum_high) / u64::from(total) - 1;
        self.low += range * u64::from(cum_low) / u64::from(total);
    }

    /// If the interval lies in the lower half, the upper half or the middle two quarters, removes
    /// what lies below that part, doubles the interval and says which part it was.
    fn rescale(&mut self) -> Option<Part> {
        let part = if self.high < HALF {
            Part::LowerHalf
        } else if self.low >= HALF {
            Part::UpperHalf
        } else if self.low >= QUARTER && self.high < 3 * QUARTER {
            Part::MiddleQuarters
        } else {
            return None;
        };
        let below = part.offset();
        self.low = (self.low - below) << 1;
        self.high = (self.high - below) << 1 | 1;
        Some(part)
    }
}

impl Part {
    /// The start of the part of the range.
    fn offset(self) -> u64 {
        match self {
            Part::LowerHalf => 0,
            Part::UpperHalf => HALF,
            Part::MiddleQuarters => QUARTER,
        }
    }
}

/// Writes symbols into a [`BitWriter`].
pub(super) struct Encoder {
    interval: Interval,
    pending: u32,
    out: BitWriter,
}

impl Encoder {
    /// An encoder appending to `out`.
    pub(super) fn new(out: BitWriter) -> Encoder {
        Encoder {
            interval: Interval::FULL,
            pending: 0,
            out,
        }
    }

    /// Codes the symbol with cumulative frequencies `[cum_low, cum_high)` out of `total`.
    pub(super) fn encode(&mut self, cum_low: u32, cum_high: u32, total: u32) {
        debug_assert!(cum_low < cum_high && cum_high <= total && total <= MAX_TOTAL);
        self.interval.narrow(cum_low, cum_high, total);
        while let Some(part) = self.interval.rescale() {
            match part {
                Part::LowerHalf => self.emit(false),
                Part::UpperHalf => self.emit(true),
                Part::MiddleQuarters => self.pending += 1,
            }
        }
    }

    fn emit(&mut self, bit: bool) {
        self.out.write_bit(bit);
        for _ in 0..self.pending {
            self.out.write_bit(!bit);
        }
        self.pending = 0;
    }

    /// Ends the code: the bits written so far, followed by any bits, decode to the same symbols.
    pub(super) fn finish(mut self) -> BitWriter {
        self.pending += 1;
        self.emit(self.interval.low >= QUARTER);
        self.out
    }
}

/// Reads symbols back; reads past the input's end see zero bits.
pub(super) struct Decoder<'r, 'a> {
    interval: Interval,
    value: u64,
    bits: &'r mut BitReader<'a>,
}

impl<'r, 'a> Decoder<'r, 'a> {
    /// A decoder reading from `bits`, which should be zero-extended.
    pub(super) fn new(bits: &'r mut BitReader<'a>) -> Result<Decoder<'r, 'a>, PositionCodeError> {
        let value = bits.read(32)?;
        Ok(Decoder {
            interval: Interval::FULL,
            value,
            bits,
        })
    }

    /// Where the next symbol's value falls in `0..total`: the symbol is the one whose interval
    /// holds it; pass that interval to [`Decoder::consume`].
    pub(super) fn target(&self, total: u32) -> u32 {
        let Interval { low, high } = self.interval;
        let range = high - low + 1;
        // The coder keeps low ≤ value ≤ high for any input, so this stays below `total`; the
        // saturating arithmetic and the clamp only guard that reasoning.
        let offset = self.value.saturating_sub(low) + 1;
        let target = (offset * u64::from(total)).saturating_sub(1) / range;
        target.min(u64::from(total.saturating_sub(1))) as u32
    }

    /// Removes the symbol with cumulative frequencies `[cum_low, cum_high)` out of `total`.
    pub(super) fn consume(&mut self, cum_low: u32, cum_high: u32, total: u32) -> Result<(), PositionCodeError> {
        if cum_low >= cum_high || cum_high > total || total > MAX_TOTAL {
            return Err(PositionCodeError::Invalid("arithmetic code interval"));
        }
        self.interval.narrow(cum_low, cum_high, total);
        while let Some(part) = self.interval.rescale() {
            let value = self.value.wrapping_sub(part.offset());
            self.value = (value << 1 | u64::from(self.bits.read_bit()?)) & TOP;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Cumulative table of `freqs`.
    fn cumulative(freqs: &[u32]) -> Vec<u32> {
        let mut cum = vec![0];
        for f in freqs {
            cum.push(cum.last().unwrap() + f);
        }
        cum
    }

    #[test]
    fn symbols_round_trip_and_cost_about_their_information() {
        let freqs = [1, 7, 300, 40000, 20, 5000];
        let cum = cumulative(&freqs);
        let total = *cum.last().unwrap();
        let symbols: Vec<usize> = (0..2000u32)
            .map(|i| (i.wrapping_mul(2654435761) >> 7) as usize % 6)
            .collect();
        let mut enc = Encoder::new(BitWriter::new());
        let mut information = 0.0;
        for &s in &symbols {
            enc.encode(cum[s], cum[s + 1], total);
            information += (f64::from(total) / f64::from(freqs[s])).log2();
        }
        let w = enc.finish();
        let bits = w.bit_len() as f64;
        assert!(
            bits <= information + 3.0 && bits >= information - 1.0,
            "{bits} vs {information}"
        );
        let bytes = w.finish();
        let mut input = BitReader::zero_extended(&bytes);
        let mut dec = Decoder::new(&mut input).unwrap();
        for &s in &symbols {
            let t = dec.target(total);
            let found = (0..6).find(|&k| cum[k] <= t && t < cum[k + 1]).unwrap();
            assert_eq!(found, s);
            dec.consume(cum[found], cum[found + 1], total).unwrap();
        }
    }

    #[test]
    fn garbage_never_leaves_the_interval() {
        let cum = cumulative(&[3, 1, 1, 60000]);
        let total = *cum.last().unwrap();
        for seed in 0..200u32 {
            let bytes: Vec<u8> = (0..12u32).map(|i| (seed.wrapping_mul(97) ^ (i * 31)) as u8).collect();
            let mut input = BitReader::zero_extended(&bytes);
            let mut dec = Decoder::new(&mut input).unwrap();
            for _ in 0..100 {
                let t = dec.target(total);
                assert!(t < total);
                let k = (0..4).find(|&k| cum[k] <= t && t < cum[k + 1]).unwrap();
                dec.consume(cum[k], cum[k + 1], total).unwrap();
                assert!(dec.interval.low <= dec.value && dec.value <= dec.interval.high);
            }
        }
    }
}
