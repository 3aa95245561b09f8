//! Where a source's games come from, as the `sources` table records it.

use std::fs;
use std::path::Path;
use std::time::UNIX_EPOCH;

use crate::error::IndexError;

/// A source of games: its path (as its games will be read back from), length and modification
/// time when it was indexed.
///
/// ```
/// use chessbits_index::SourceInfo;
/// let info = SourceInfo::named("-");
/// assert_eq!((info.path.as_str(), info.bytes, info.modified), ("-", 0, None));
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SourceInfo {
    pub path: String,
    pub bytes: u64,
    pub modified: Option<i64>,
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

    /// The file at `path`: its absolute path, length and modification time.
    pub fn of_file(path: &Path) -> Result<SourceInfo, IndexError> {
        let meta = fs::metadata(path).map_err(|e| IndexError::io(path, e))?;
        let absolute = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
        Ok(SourceInfo {
            path: absolute.to_string_lossy().into_owned(),
            bytes: meta.len(),
            modified: modified_nanos(&meta),
        })
    }
}

/// The modification time in nanoseconds since 1970, where the file system gives one.
pub(crate) fn modified_nanos(meta: &fs::Metadata) -> Option<i64> {
    let since = meta.modified().ok()?.duration_since(UNIX_EPOCH).ok()?;
    i64::try_from(since.as_nanos()).ok()
}
