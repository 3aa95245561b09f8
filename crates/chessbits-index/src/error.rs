//! What can go wrong building or reading an index.

use std::fmt;
use std::io;
use std::path::{Path, PathBuf};

/// An error of the index: every one names the file or the text it is about.
///
/// ```
/// use chessbits_index::IndexError;
/// let e = IndexError::Query("illegal move 'Ke7'".to_string());
/// assert_eq!(e.to_string(), "illegal move 'Ke7'");
/// ```
#[derive(Debug)]
#[non_exhaustive]
pub enum IndexError {
    /// Reading or writing a file failed.
    Io { path: PathBuf, source: io::Error },
    /// A Parquet file could not be read or written (a damaged footer, a bad page, ...).
    Parquet {
        path: PathBuf,
        source: parquet::errors::ParquetError,
    },
    /// A file is not what the index expects (a missing column, a key of the wrong length, a
    /// checksum that does not match, an unknown format version).
    Format { path: PathBuf, reason: String },
    /// An index of another format version (its manifest's `version`): format 2 and older
    /// indexes must be rebuilt (`chessbits index build`); see `docs/index-format-3.md`.
    Version { path: PathBuf, version: u64, reads: u64 },
    /// The output exists and is not an empty directory.
    Exists { path: PathBuf },
    /// A query's position or moves are not a legal position or move sequence.
    Query(String),
    /// A source file changed since it was indexed: its games can no longer be read back.
    SourceChanged { path: PathBuf, reason: String },
    /// An input is not what it was taken for: a directory that is not a Parquet export, a part
    /// file without the export's columns, a damaged archive.
    Input { path: PathBuf, reason: String },
}

impl IndexError {
    pub(crate) fn io(path: &Path, source: io::Error) -> IndexError {
        IndexError::Io {
            path: path.to_path_buf(),
            source,
        }
    }

    pub(crate) fn parquet(path: &Path, source: parquet::errors::ParquetError) -> IndexError {
        IndexError::Parquet {
            path: path.to_path_buf(),
            source,
        }
    }

    pub(crate) fn input(path: &Path, reason: impl Into<String>) -> IndexError {
        IndexError::Input {
            path: path.to_path_buf(),
            reason: reason.into(),
        }
    }

    pub(crate) fn format(path: &Path, reason: impl Into<String>) -> IndexError {
        IndexError::Format {
            path: path.to_path_buf(),
            reason: reason.into(),
        }
    }
}

impl fmt::Display for IndexError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IndexError::Io { path, source } => write!(f, "{}: {source}", path.display()),
            IndexError::Parquet { path, source } => write!(f, "{}: damaged Parquet file: {source}", path.display()),
            IndexError::Format { path, reason } => {
                write!(f, "{}: not a chessbits index file: {reason}", path.display())
            }
            IndexError::Version { path, version, reads } => write!(
                f,
                "{}: an index of format version {version}, which this build does not read (it reads version {reads}): rebuild it with `chessbits index build`",
                path.display()
            ),
            IndexError::Exists { path } => write!(f, "{}: exists and is not an empty directory", path.display()),
            IndexError::Query(reason) => f.write_str(reason),
            IndexError::Input { path, reason } => write!(f, "{}: {reason}", path.display()),
            IndexError::SourceChanged { path, reason } => {
                write!(
                    f,
                    "{}: changed since it was indexed ({reason}): its games cannot be read back",
                    path.display()
                )
            }
        }
    }
}

impl std::error::Error for IndexError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            IndexError::Io { source, .. } => Some(source),
            IndexError::Parquet { source, .. } => Some(source),
            _ => None,
        }
    }
}
