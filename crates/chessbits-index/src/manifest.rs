//! `INDEX/manifest.json`: which files make the index, with their sizes and checksums.
//!
//! ```json
//! {
//!   "format": "chessbits-index",
//!   "version": 2,
//!   "key": "chessbits-position-key-1",
//!   "created_by": "chessbits-index 0.1.0",
//!   "games": 1234,
//!   "tables": {
//!     "explorer":  [{"file": "explorer/part-00000.parquet", "rows": 5678, "bytes": 91011,
//!                    "crc32": 1213141516, "pages_crc32": 1718192021}],
//!     "positions": [...],
//!     "games":     [...],
//!     "sources":   [...],
//!     "top_games": [...],
//!     "explorer_summary": [...]
//!   }
//! }
//! ```
//!
//! The manifest is written last, by rename: a reader that opens the index sees the files it
//! lists, all complete. `bytes` is checked when the index is opened (a truncated file is
//! refused), `crc32` (CRC-32/ISO-HDLC of the whole file, as zlib computes it) by
//! [`Index::verify`](crate::Index::verify).

use std::fs;
use std::path::{Path, PathBuf};

use serde_json::{json, Value};

use crate::error::IndexError;

/// The manifest's file name in the index directory.
pub const MANIFEST: &str = "manifest.json";

/// The format version this build writes and reads (the `version` field). Version 3 (the
/// `positions` table by key prefix, one row per game and key, verified by replaying the moves
/// that the `games` table now holds) replaced version 2 (the `positions` table's `solo` column;
/// the `explorer` table without keys of one game), which replaced version 1: an index of
/// another version is refused with [`IndexError::Version`], which says to rebuild it.
pub const VERSION: u64 = 3;

/// The key function the files are sorted by (see [`crate::key`]).
pub const KEY_NAME: &str = "chessbits-position-key-1";

/// The tables, in the order the manifest lists them.
pub const TABLES: [&str; 6] = [
    "explorer",
    "positions",
    "games",
    "sources",
    "top_games",
    "explorer_summary",
];

/// One file of a table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileEntry {
    /// Relative to the index directory, `/`-separated.
    pub file: String,
    pub rows: u64,
    pub bytes: u64,
    pub crc32: u32,
    /// CRC-32 of the file's page checksums (`file.crc`, see [`crate::checksums`]).
    pub pages_crc32: u32,
}

/// The parsed manifest.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Manifest {
    pub games: u64,
    pub created_by: String,
    /// Per table of [`TABLES`], its files in order.
    pub tables: [Vec<FileEntry>; 6],
}

impl Manifest {
    /// The files of `table` (one of [`TABLES`]).
    pub fn files(&self, table: &str) -> &[FileEntry] {
        let i = TABLES.iter().position(|t| *t == table).expect("a known table");
        &self.tables[i]
    }

    pub(crate) fn files_mut(&mut self, table: &str) -> &mut Vec<FileEntry> {
        let i = TABLES.iter().position(|t| *t == table).expect("a known table");
        &mut self.tables[i]
    }

    /// Reads `dir/manifest.json`.
    pub fn read(dir: &Path) -> Result<Manifest, IndexError> {
        let path = dir.join(MANIFEST);
        let text = fs::read(&path).map_err(|e| IndexError::io(&path, e))?;
        let value: Value =
            serde_json::from_slice(&text).map_err(|e| IndexError::format(&path, format!("not JSON: {e}")))?;
        let bad = |reason: &str| IndexError::format(&path, reason.to_string());
        if value["format"] != "chessbits-index" {
            return Err(bad("`format` is not \"chessbits-index\""));
        }
        match value["version"].as_u64() {
            Some(VERSION) => {}
            Some(other) => {
                return Err(IndexError::Version {
                    path: path.clone(),
                    version: other,
                    reads: VERSION,
                })
            }
            _ => return Err(bad(&format!("unknown `version` (this build reads version {VERSION})"))),
        }
        if value["key"] != KEY_NAME {
            return Err(bad("unknown `key` function"));
        }
        let mut manifest = Manifest {
            games: value["games"].as_u64().ok_or_else(|| bad("`games` is not a number"))?,
            created_by: value["created_by"].as_str().unwrap_or("").to_string(),
            ..Manifest::default()
        };
        for (i, table) in TABLES.iter().enumerate() {
            let files = value["tables"][table].as_array().ok_or_else(|| {
                bad(&format!(
                    "the table `{table}` is missing (an index of an older build: rebuild it)"
                ))
            })?;
            for entry in files {
                let file = entry["file"].as_str().ok_or_else(|| bad("a file without a name"))?;
                // Only plain relative paths below the index: nothing outside it is read.
                let safe = !file.is_empty()
                    && !file.starts_with('/')
                    && file
                        .split('/')
                        .all(|part| !part.is_empty() && part != ".." && part != ".");
                if !safe {
                    return Err(bad("a file path that leaves the index directory"));
                }
                let number = |name: &str| {
                    entry[name]
                        .as_u64()
                        .ok_or_else(|| bad("a file entry without its numbers"))
                };
                manifest.tables[i].push(FileEntry {
                    file: file.to_string(),
                    rows: number("rows")?,
                    bytes: number("bytes")?,
                    crc32: u32::try_from(number("crc32")?).map_err(|_| bad("a crc32 over 32 bits"))?,
                    pages_crc32: u32::try_from(number("pages_crc32")?).map_err(|_| bad("a crc32 over 32 bits"))?,
                });
            }
        }
        Ok(manifest)
    }

    /// Writes `dir/manifest.json` by rename (a reader sees the old manifest or the new one).
    pub(crate) fn write(&self, dir: &Path) -> Result<(), IndexError> {
        let mut tables = serde_json::Map::new();
        for (i, table) in TABLES.iter().enumerate() {
            let files: Vec<Value> = self.tables[i]
                .iter()
                .map(|f| json!({"file": f.file, "rows": f.rows, "bytes": f.bytes, "crc32": f.crc32, "pages_crc32": f.pages_crc32}))
                .collect();
            tables.insert(table.to_string(), Value::Array(files));
        }
        let value = json!({
            "format": "chessbits-index",
            "version": VERSION,
            "key": KEY_NAME,
            "created_by": self.created_by,
            "games": self.games,
            "tables": tables,
        });
        let text = serde_json::to_vec_pretty(&value).expect("a JSON value serializes");
        let temp = dir.join(format!(".{MANIFEST}.tmp"));
        fs::write(&temp, &text).map_err(|e| IndexError::io(&temp, e))?;
        let path = dir.join(MANIFEST);
        fs::rename(&temp, &path).map_err(|e| IndexError::io(&path, e))
    }
}

/// The entry of a finished Parquet file: its size and CRC-32 (read in pieces: files can be
/// larger than memory), and its page checksums written beside it.
pub(crate) fn file_entry(dir: &Path, file: &str, rows: u64) -> Result<FileEntry, IndexError> {
    let path: PathBuf = dir.join(file);
    let (bytes, crc32) = checksum(&path)?;
    let opened = fs::File::open(&path).map_err(|e| IndexError::io(&path, e))?;
    let options = parquet::arrow::arrow_reader::ArrowReaderOptions::new().with_page_index(true);
    let meta = parquet::arrow::arrow_reader::ArrowReaderMetadata::load(&opened, options)
        .map_err(|e| IndexError::parquet(&path, e))?;
    let pages_crc32 = crate::checksums::write_sidecar(&path, meta.metadata())?;
    Ok(FileEntry {
        file: file.to_string(),
        rows,
        bytes,
        crc32,
        pages_crc32,
    })
}

/// The length and CRC-32 of the file at `path`.
pub(crate) fn checksum(path: &Path) -> Result<(u64, u32), IndexError> {
    use std::io::Read;
    let mut input = fs::File::open(path).map_err(|e| IndexError::io(path, e))?;
    let mut hasher = crc32fast::Hasher::new();
    let mut buffer = vec![0u8; 1 << 20];
    let mut total = 0u64;
    loop {
        let n = match input.read(&mut buffer) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(IndexError::io(path, e)),
        };
        hasher.update(&buffer[..n]);
        total += n as u64;
    }
    Ok((total, hasher.finalize()))
}
