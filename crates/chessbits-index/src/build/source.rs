//! Where a source's games come from, as the `sources` table records it.

use std::fs;
use std::path::Path;
use std::time::UNIX_EPOCH;

use crate::error::IndexError;

/// What kind of file a source is: how its games are read, and what a game's `offset`,
/// `length` and `line` in the `games` table mean (see [`crate::model::games`]).
///
/// ```
/// use chessbits_index::SourceFormat;
/// assert_eq!(SourceFormat::Cbits.name(), "cbits");
/// assert_eq!(SourceFormat::from_name("parquet"), Some(SourceFormat::Parquet));
/// assert_eq!(SourceFormat::default(), SourceFormat::Pgn);
/// ```
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum SourceFormat {
    /// PGN text (plain, gzip or zstd).
    #[default]
    Pgn,
    /// A `.cbits` archive (crate `chessbits-archive`).
    Cbits,
    /// A part file of a Parquet export (`chessbits export`, crate `chessbits-parquet`).
    Parquet,
}

impl SourceFormat {
    /// Every format.
    pub const ALL: [SourceFormat; 3] = [SourceFormat::Pgn, SourceFormat::Cbits, SourceFormat::Parquet];

    /// The name the `sources` table's `format` column holds: `pgn`, `cbits`, `parquet`.
    pub fn name(self) -> &'static str {
        match self {
            SourceFormat::Pgn => "pgn",
            SourceFormat::Cbits => "cbits",
            SourceFormat::Parquet => "parquet",
        }
    }

    /// The format of a [`name`](Self::name).
    pub fn from_name(name: &str) -> Option<SourceFormat> {
        SourceFormat::ALL.into_iter().find(|f| f.name() == name)
    }
}

/// A source of games: its path (as its games will be read back from), length and modification
/// time when it was indexed, and its format.
///
/// ```
/// use chessbits_index::{SourceFormat, SourceInfo};
/// let info = SourceInfo::named("-");
/// assert_eq!((info.path.as_str(), info.bytes, info.modified), ("-", 0, None));
/// assert_eq!(info.format, SourceFormat::Pgn);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SourceInfo {
    pub path: String,
    pub bytes: u64,
    pub modified: Option<i64>,
    pub format: SourceFormat,
}

impl SourceInfo {
    /// A source known by name only (standard input, bytes in memory): its games cannot be read
    /// back from it later.
    pub fn named(name: &str) -> SourceInfo {
        SourceInfo {
            path: name.to_string(),
            ..SourceInfo::default()
        }
    }

    /// The file at `path`: its absolute path, length and modification time (format PGN; set
    /// [`format`](Self::format) for another).
    pub fn of_file(path: &Path) -> Result<SourceInfo, IndexError> {
        let meta = fs::metadata(path).map_err(|e| IndexError::io(path, e))?;
        let absolute = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
        Ok(SourceInfo {
            path: absolute.to_string_lossy().into_owned(),
            bytes: meta.len(),
            modified: modified_nanos(&meta),
            format: SourceFormat::Pgn,
        })
    }
}

/// The modification time in nanoseconds since 1970, where the file system gives one.
pub(crate) fn modified_nanos(meta: &fs::Metadata) -> Option<i64> {
    let since = meta.modified().ok()?.duration_since(UNIX_EPOCH).ok()?;
    i64::try_from(since.as_nanos()).ok()
}

/// Checks that the file of `source` is still the one indexed (same length, same modification
/// time), so that a game can be read back from it.
pub(crate) fn check_unchanged(source: &crate::model::sources::SourceRow) -> Result<(), IndexError> {
    let path = Path::new(&source.path);
    let changed = |reason: String| IndexError::SourceChanged {
        path: path.to_path_buf(),
        reason,
    };
    if source.modified.is_none() && source.bytes == 0 {
        return Err(changed(
            "it was read as a stream (standard input), not a file".to_string(),
        ));
    }
    let meta = fs::metadata(path).map_err(|e| IndexError::io(path, e))?;
    if meta.len() != source.bytes {
        return Err(changed(format!("{} bytes, {} when indexed", meta.len(), source.bytes)));
    }
    if source.modified.is_some() && modified_nanos(&meta) != source.modified {
        return Err(changed("modified since".to_string()));
    }
    Ok(())
}
