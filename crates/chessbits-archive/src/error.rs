//! What can go wrong when writing or reading an archive.

use core::fmt;
use std::io;

/// An archive error: every way a `.cbits` file can be unreadable, each naming where.
///
/// Block numbers count from 0 in file order; game numbers count from 0 over the whole archive.
///
/// ```
/// use chessbits_archive::ArchiveError;
/// let error = ArchiveError::ChecksumMismatch { block: 3 };
/// assert_eq!(error.to_string(), "block 3: checksum mismatch (the block is damaged)");
/// assert_eq!(error.block(), Some(3));
/// ```
#[derive(Debug)]
#[non_exhaustive]
pub enum ArchiveError {
    /// Reading or writing the underlying file failed.
    Io(io::Error),
    /// The file does not start with the `.cbits` magic bytes: not an archive.
    BadMagic,
    /// The archive was written by a newer (or unknown) format version.
    UnsupportedVersion(u16),
    /// The archive's move model version (see [`MODEL_VERSION`](super::MODEL_VERSION)) is not
    /// the one this version knows.
    UnsupportedModel(u8),
    /// A codec id that this version does not know (in the header or in a block).
    UnknownCodec(u8),
    /// The file header's checksum does not match.
    CorruptHeader,
    /// The file does not end with a valid footer: it was truncated, or never finished.
    MissingFooter,
    /// The footer is present but the index it points to is damaged or inconsistent.
    CorruptIndex {
        /// What is wrong.
        reason: String,
    },
    /// A block's header or payload checksum does not match.
    ChecksumMismatch {
        /// The block.
        block: u64,
    },
    /// Blocks `first` to `last` (more than one) were not found by a scan of a damaged archive:
    /// their headers are damaged, or a damaged header claimed a block number far ahead.
    MissingBlocks {
        /// The first block missing.
        first: u64,
        /// The last block missing.
        last: u64,
    },
    /// A block ends past the end of the file, or before the next block starts.
    Truncated {
        /// The block.
        block: u64,
    },
    /// A block passed its checksum but does not decode (a bug, or a crafted file).
    CorruptPayload {
        /// The block.
        block: u64,
        /// What is wrong.
        reason: String,
    },
    /// A game that cannot be stored (a move that is not legal in its position, a tree too deep).
    InvalidGame {
        /// The game number the game would have had in the archive.
        game: u64,
        /// What is wrong.
        reason: String,
    },
    /// A block number the archive does not have.
    BlockOutOfRange {
        /// The block asked for.
        block: u64,
        /// How many blocks the archive has.
        count: u64,
    },
    /// `game(n)` for a game the archive does not have.
    GameOutOfRange {
        /// The game asked for.
        game: u64,
        /// How many games the archive has.
        count: u64,
    },
}

impl ArchiveError {
    /// The block the error is about, if it is about one.
    ///
    /// ```
    /// use chessbits_archive::ArchiveError;
    /// assert_eq!(ArchiveError::Truncated { block: 7 }.block(), Some(7));
    /// assert_eq!(ArchiveError::BadMagic.block(), None);
    /// ```
    pub fn block(&self) -> Option<u64> {
        match self {
            ArchiveError::ChecksumMismatch { block }
            | ArchiveError::MissingBlocks { first: block, .. }
            | ArchiveError::Truncated { block }
            | ArchiveError::CorruptPayload { block, .. } => Some(*block),
            _ => None,
        }
    }

    pub(crate) fn payload(block: u64, corrupt: Corrupt) -> ArchiveError {
        ArchiveError::CorruptPayload {
            block,
            reason: corrupt.0,
        }
    }
}

impl fmt::Display for ArchiveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ArchiveError::Io(error) => write!(f, "i/o error: {error}"),
            ArchiveError::BadMagic => f.write_str("not a chessbits archive (bad magic bytes)"),
            ArchiveError::UnsupportedVersion(version) => write!(f, "unsupported archive format version {version}"),
            ArchiveError::UnsupportedModel(model) => write!(f, "unsupported move model version {model}"),
            ArchiveError::UnknownCodec(id) => write!(f, "unknown move codec id {id}"),
            ArchiveError::CorruptHeader => f.write_str("archive header checksum mismatch"),
            ArchiveError::MissingFooter => f.write_str("no valid footer at the end of the archive (truncated?)"),
            ArchiveError::CorruptIndex { reason } => write!(f, "corrupt block index: {reason}"),
            ArchiveError::ChecksumMismatch { block } => {
                write!(f, "block {block}: checksum mismatch (the block is damaged)")
            }
            ArchiveError::MissingBlocks { first, last } => {
                write!(
                    f,
                    "blocks {first} to {last}: not found (damaged, or a damaged header skipped them)"
                )
            }
            ArchiveError::Truncated { block } => write!(f, "block {block}: truncated"),
            ArchiveError::CorruptPayload { block, reason } => write!(f, "block {block}: corrupt payload: {reason}"),
            ArchiveError::InvalidGame { game, reason } => write!(f, "game {game} cannot be stored: {reason}"),
            ArchiveError::BlockOutOfRange { block, count } => {
                write!(f, "block {block} out of range (the archive has {count} blocks)")
            }
            ArchiveError::GameOutOfRange { game, count } => {
                write!(f, "game {game} out of range (the archive has {count} games)")
            }
        }
    }
}

impl std::error::Error for ArchiveError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ArchiveError::Io(error) => Some(error),
            _ => None,
        }
    }
}

impl From<io::Error> for ArchiveError {
    fn from(error: io::Error) -> ArchiveError {
        ArchiveError::Io(error)
    }
}

/// Why a block payload does not decode; the block reader adds the block number.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Corrupt(pub String);

impl Corrupt {
    pub(crate) fn new(reason: impl Into<String>) -> Corrupt {
        Corrupt(reason.into())
    }
}

/// Shorthand for decoders of untrusted bytes.
pub(crate) type DecodeResult<T> = Result<T, Corrupt>;
