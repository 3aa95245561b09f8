//! The network file format, version 1 (extension `.nnue`). All integers little-endian.
//!
//! | offset | size | field |
//! |-------:|-----:|-------|
//! | 0 | 4 | magic `CBNN` (`43 42 4E 4E`) |
//! | 4 | 2 | version, `u16` = 1 |
//! | 6 | 2 | hidden width `N`, `u16`, 1..=[`MAX_HIDDEN`] |
//! | 8 | 2 | `QA`, `u16` > 0 (255) |
//! | 10 | 2 | `QB`, `u16` > 0 (64) |
//! | 12 | 2 | `SCALE`, `u16` > 0 (400) |
//! | 14 | 2 | reserved, 0 |
//! | 16 | 4 | CRC-32 (IEEE, as [`crc32`]) of the payload (bytes 20..end) |
//! | 20 | 2·768·N | feature weights, `i16`, input-major: the `N` weights of input 0, then input 1, … |
//! | … | 2·N | feature biases, `i16` |
//! | … | 2·2N | output weights, `i16`: the side to move's `N`, then the other side's `N` |
//! | … | 4 | output bias, `i32` (scale `QA · QB`) |
//!
//! The file is exactly `20 + 2·(768·N + N + 2N) + 4` bytes; anything else is an error (a
//! [`NetworkError`], never a panic). The meaning of the numbers is in the
//! [parent module's docs](super).

use std::fmt;
use std::io::{self, Read, Write};

use super::{Network, INPUTS, MAX_HIDDEN};
use crate::datagen::format::crc32;

/// The first four bytes of a network file.
pub const MAGIC: [u8; 4] = *b"CBNN";
/// The version this module reads and writes.
pub const VERSION: u16 = 1;
/// Bytes before the payload.
pub const HEADER_LEN: usize = 20;

/// The size of a file of hidden width `hidden`.
pub fn file_len(hidden: usize) -> usize {
    HEADER_LEN + 2 * (INPUTS * hidden + 3 * hidden) + 4
}

/// What is wrong with a network file.
#[derive(Debug)]
#[non_exhaustive]
pub enum NetworkError {
    /// Reading or writing failed.
    Io(io::Error),
    /// The file is shorter than the header.
    Truncated {
        /// Its length.
        len: usize,
    },
    /// The file does not start with [`MAGIC`].
    BadMagic,
    /// The header names a version this reader does not know.
    UnsupportedVersion(u16),
    /// The header's hidden width is 0 or above [`MAX_HIDDEN`].
    BadHidden(u16),
    /// A scale (`QA`, `QB`, `SCALE`) is 0, or the reserved field is not.
    BadHeader(&'static str),
    /// The length does not match the header's width.
    WrongSize {
        /// The length the header implies.
        expected: usize,
        /// The length found (at most `expected + 1`: reading stops there).
        found: usize,
    },
    /// The payload's CRC-32 differs from the header's.
    Checksum {
        /// The header's value.
        stored: u32,
        /// The payload's.
        computed: u32,
    },
}

impl fmt::Display for NetworkError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NetworkError::Io(e) => write!(f, "{e}"),
            NetworkError::Truncated { len } => write!(f, "not a network file: {len} bytes, shorter than the header"),
            NetworkError::BadMagic => f.write_str("not a network file (bad magic bytes)"),
            NetworkError::UnsupportedVersion(v) => write!(f, "network format version {v} is not supported"),
            NetworkError::BadHidden(n) => write!(f, "bad hidden width {n} (1..={MAX_HIDDEN})"),
            NetworkError::BadHeader(what) => write!(f, "bad network header: {what}"),
            NetworkError::WrongSize { expected, found } => {
                write!(
                    f,
                    "wrong network file size: {found} bytes, the header implies {expected}"
                )
            }
            NetworkError::Checksum { stored, computed } => {
                write!(
                    f,
                    "network checksum mismatch (stored {stored:08x}, computed {computed:08x})"
                )
            }
        }
    }
}

impl std::error::Error for NetworkError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            NetworkError::Io(e) => Some(e),
            _ => None,
        }
    }
}

impl From<io::Error> for NetworkError {
    fn from(e: io::Error) -> NetworkError {
        NetworkError::Io(e)
    }
}

fn u16_at(bytes: &[u8], at: usize) -> u16 {
    u16::from_le_bytes([bytes[at], bytes[at + 1]])
}

fn i16s(bytes: &[u8]) -> Vec<i16> {
    bytes
        .chunks_exact(2)
        .map(|c| i16::from_le_bytes([c[0], c[1]]))
        .collect()
}

impl Network {
    /// The file's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut payload = Vec::with_capacity(file_len(self.hidden) - HEADER_LEN);
        for w in self.ft_weights.iter().chain(&self.ft_biases).chain(&self.out_weights) {
            payload.extend_from_slice(&w.to_le_bytes());
        }
        payload.extend_from_slice(&self.out_bias.to_le_bytes());
        let mut out = Vec::with_capacity(HEADER_LEN + payload.len());
        out.extend_from_slice(&MAGIC);
        for field in [
            VERSION,
            self.hidden as u16,
            self.qa as u16,
            self.qb as u16,
            self.scale as u16,
            0,
        ] {
            out.extend_from_slice(&field.to_le_bytes());
        }
        out.extend_from_slice(&crc32(&payload).to_le_bytes());
        out.extend_from_slice(&payload);
        out
    }

    /// Writes the file to `out`.
    pub fn write<W: Write>(&self, mut out: W) -> Result<(), NetworkError> {
        out.write_all(&self.to_bytes())?;
        out.flush()?;
        Ok(())
    }

    /// Parses a whole file.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetworkError> {
        if bytes.len() < HEADER_LEN {
            return Err(NetworkError::Truncated { len: bytes.len() });
        }
        if bytes[..4] != MAGIC {
            return Err(NetworkError::BadMagic);
        }
        let version = u16_at(bytes, 4);
        if version != VERSION {
            return Err(NetworkError::UnsupportedVersion(version));
        }
        let hidden = u16_at(bytes, 6);
        if hidden == 0 || usize::from(hidden) > MAX_HIDDEN {
            return Err(NetworkError::BadHidden(hidden));
        }
        let (qa, qb, scale) = (u16_at(bytes, 8), u16_at(bytes, 10), u16_at(bytes, 12));
        if qa == 0 || qb == 0 || scale == 0 {
            return Err(NetworkError::BadHeader("a scale is 0"));
        }
        if u16_at(bytes, 14) != 0 {
            return Err(NetworkError::BadHeader("the reserved field is not 0"));
        }
        let n = usize::from(hidden);
        let expected = file_len(n);
        if bytes.len() != expected {
            return Err(NetworkError::WrongSize {
                expected,
                found: bytes.len(),
            });
        }
        let stored = u32::from_le_bytes(bytes[16..20].try_into().expect("4 bytes"));
        let payload = &bytes[HEADER_LEN..];
        let computed = crc32(payload);
        if stored != computed {
            return Err(NetworkError::Checksum { stored, computed });
        }
        let (ft, rest) = payload.split_at(2 * INPUTS * n);
        let (biases, rest) = rest.split_at(2 * n);
        let (out, bias) = rest.split_at(4 * n);
        Ok(Network {
            hidden: n,
            qa: i32::from(qa),
            qb: i32::from(qb),
            scale: i32::from(scale),
            ft_weights: i16s(ft),
            ft_biases: i16s(biases),
            out_weights: i16s(out),
            out_bias: i32::from_le_bytes(bias.try_into().expect("4 bytes")),
        })
    }

    /// Reads a file from `input`, no further than the header's size plus one byte (so a huge
    /// or endless input is rejected without being read whole).
    pub fn read<R: Read>(mut input: R) -> Result<Network, NetworkError> {
        let mut bytes = vec![0u8; HEADER_LEN];
        let mut got = 0;
        while got < HEADER_LEN {
            match input.read(&mut bytes[got..]) {
                Ok(0) => break,
                Ok(k) => got += k,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e.into()),
            }
        }
        bytes.truncate(got);
        if got == HEADER_LEN && bytes[..4] == MAGIC {
            let hidden = usize::from(u16_at(&bytes, 6)).min(MAX_HIDDEN);
            let limit = file_len(hidden) + 1 - HEADER_LEN;
            input.take(limit as u64).read_to_end(&mut bytes)?;
        }
        Network::from_bytes(&bytes)
    }

    /// Reads the file at `path`.
    pub fn load(path: impl AsRef<std::path::Path>) -> Result<Network, NetworkError> {
        Network::read(io::BufReader::new(std::fs::File::open(path)?))
    }
}
