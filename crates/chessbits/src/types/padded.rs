//! `Display` that honours width, fill and alignment (`{:>6}`, `{:-<8}`) for short notation: the
//! text is written to a small stack buffer and handed to [`fmt::Formatter::pad`]; without a width
//! or precision it goes straight to the formatter.

use core::fmt;

/// The longest text padded through the buffer (SAN, LAN and UCI moves are at most 10 bytes);
/// a longer text is written unpadded rather than cut.
const CAPACITY: usize = 32;

struct Buffer {
    bytes: [u8; CAPACITY],
    len: usize,
}

impl fmt::Write for Buffer {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        let end = self.len + s.len();
        if end > CAPACITY {
            return Err(fmt::Error);
        }
        self.bytes[self.len..end].copy_from_slice(s.as_bytes());
        self.len = end;
        Ok(())
    }
}

/// Writes what `write` writes to `f`, padded as `f` asks.
pub(crate) fn display_padded(
    f: &mut fmt::Formatter<'_>,
    write: impl Fn(&mut dyn fmt::Write) -> fmt::Result,
) -> fmt::Result {
    if f.width().is_none() && f.precision().is_none() {
        return write(f);
    }
    let mut buffer = Buffer {
        bytes: [0; CAPACITY],
        len: 0,
    };
    match write(&mut buffer) {
        // Only whole `str`s were copied in, so the bytes are UTF-8.
        Ok(()) => f.pad(core::str::from_utf8(&buffer.bytes[..buffer.len]).map_err(|_| fmt::Error)?),
        Err(_) => write(f),
    }
}
