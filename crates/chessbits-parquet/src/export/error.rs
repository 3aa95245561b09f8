//! Why an export failed: [`ExportError`].

use std::fmt;
use std::io;
use std::path::PathBuf;

use arrow_schema::ArrowError;
use parquet::errors::ParquetError;

/// Why an export failed.
#[derive(Debug)]
pub enum ExportError {
    /// Reading or writing files.
    Io(io::Error),
    /// Reading an input given to [`ParquetExporter::add_pgn`](crate::ParquetExporter::add_pgn).
    Input(io::Error),
    /// Encoding Parquet.
    Parquet(ParquetError),
    /// Building Arrow arrays.
    Arrow(ArrowError),
    /// The output directory exists and is not empty (and `force` is off), or is not a directory.
    OutputExists(PathBuf),
}

impl fmt::Display for ExportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ExportError::Io(e) => e.fmt(f),
            ExportError::Input(e) => write!(f, "read error: {e}"),
            ExportError::Parquet(e) => e.fmt(f),
            ExportError::Arrow(e) => e.fmt(f),
            ExportError::OutputExists(path) => write!(
                f,
                "{}: exists and is not an empty directory (--force replaces it)",
                path.display()
            ),
        }
    }
}

impl std::error::Error for ExportError {}

impl From<io::Error> for ExportError {
    fn from(e: io::Error) -> ExportError {
        ExportError::Io(e)
    }
}

impl From<ParquetError> for ExportError {
    fn from(e: ParquetError) -> ExportError {
        ExportError::Parquet(e)
    }
}

impl From<ArrowError> for ExportError {
    fn from(e: ArrowError) -> ExportError {
        ExportError::Arrow(e)
    }
}
