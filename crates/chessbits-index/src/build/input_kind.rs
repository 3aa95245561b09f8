//! What an input of the index is, by its content: the one rule the CLI's `index build|add` and
//! the Python package's `build_index` share.

use std::fs::File;
use std::io::Read;
use std::path::Path;

use super::inputs::{is_archive, is_export_dir};
use crate::error::IndexError;

/// The kinds of input an index is built from, each added by its own [`IndexBuilder`] method
/// ([`add_file`](super::IndexBuilder::add_file) or
/// [`add_reader`](super::IndexBuilder::add_reader), [`add_archive`](super::IndexBuilder::add_archive),
/// [`add_export`](super::IndexBuilder::add_export)).
///
/// [`IndexBuilder`]: super::IndexBuilder
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InputKind {
    /// PGN text, plain, gzip or zstd.
    Pgn,
    /// A `.cbits` archive: the file starts with the archive's magic bytes (whatever its name).
    Archive,
    /// A Parquet export directory ([`is_export_dir`]).
    Export,
}

impl InputKind {
    /// What `path` is: an export directory, an archive, or else PGN. Refused, with a message
    /// saying what to do: a single Parquet file (its export's part files are numbered together:
    /// give the directory) and a gzip or zstd file holding an archive (its games could not be
    /// read back by number). A directory that is not an export is not an input of its own: the
    /// caller lists the files below it.
    ///
    /// ```
    /// use chessbits_index::build::InputKind;
    /// let dir = tempfile::tempdir().unwrap();
    /// let pgn = dir.path().join("games.txt");
    /// std::fs::write(&pgn, b"1. e4 *").unwrap();
    /// assert_eq!(InputKind::of(&pgn).unwrap(), InputKind::Pgn);
    /// let part = dir.path().join("part-0.parquet");
    /// std::fs::write(&part, b"PAR1....PAR1").unwrap();
    /// assert!(InputKind::of(&part).unwrap_err().to_string().contains("give the export's directory"));
    /// ```
    pub fn of(path: &Path) -> Result<InputKind, IndexError> {
        if is_export_dir(path) {
            return Ok(InputKind::Export);
        }
        if is_archive(path)? {
            return Ok(InputKind::Archive);
        }
        if starts_with(path, b"PAR1") {
            return Err(IndexError::input(
                path,
                "a Parquet file: give the export's directory (its part files are numbered together)",
            ));
        }
        if is_compressed_archive(path) {
            return Err(IndexError::input(
                path,
                "a compressed .cbits archive: decompress it first (the index reads an archive's games back by number)",
            ));
        }
        Ok(InputKind::Pgn)
    }
}

/// Whether the file at `path` starts with `magic`.
fn starts_with(path: &Path, magic: &[u8]) -> bool {
    let mut head = Vec::new();
    File::open(path).is_ok_and(|f| f.take(magic.len() as u64).read_to_end(&mut head).is_ok()) && head == magic
}

/// Whether `path` is a gzip or zstd file whose content starts with the archive's magic.
fn is_compressed_archive(path: &Path) -> bool {
    if !starts_with(path, &[0x1f, 0x8b]) && !starts_with(path, &[0x28, 0xb5, 0x2f, 0xfd]) {
        return false;
    }
    let Ok(input) = File::open(path).and_then(chessbits::pgn::decompress) else {
        return false;
    };
    let mut magic = Vec::new();
    let _ = input
        .take(chessbits_archive::MAGIC.len() as u64)
        .read_to_end(&mut magic);
    magic == chessbits_archive::MAGIC
}
