//! Page checksums: every byte a query reads is checked before it is used.
//!
//! Parquet's own page CRC is optional and the writer used here does not write it, and a changed
//! byte inside a compressed page can decode to wrong values without any error. So each Parquet
//! file `table/F` of the index has a sidecar `table/.F.crc` listing the CRC-32 of each of its
//! pages; the manifest holds the CRC-32 of the sidecar (`pages_crc32`). The name starts with a
//! dot so that readers of a table's directory (pyarrow datasets, Spark, polars) skip it.
//!
//! Sidecar layout (little-endian): the 8 bytes `CBPAGES1`, a `u32` count N, then N entries of
//! `u64` offset, `u32` length, `u32` CRC-32 (zlib's), sorted by offset. The entries cover, per
//! row group and column chunk, the dictionary page (from the chunk's dictionary page offset to
//! its first data page) and each data page (the offset index's page locations), and last the
//! file's tail: from the first byte after the last page to the end (page indexes and footer).
//!
//! When an index is opened the sidecar and the tail are checked; a query checks the pages it
//! reads (once per open index).

use std::fs::File;
use std::path::Path;
use std::sync::Mutex;

use parquet::file::metadata::ParquetMetaData;

use crate::error::IndexError;

/// The sidecar's first bytes.
const MAGIC: &[u8; 8] = b"CBPAGES1";

/// One checksummed byte range of a file.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
struct Entry {
    offset: u64,
    length: u32,
    crc32: u32,
}

/// The byte ranges of `meta`'s pages, sorted by offset, and where the tail starts.
fn page_ranges(meta: &ParquetMetaData) -> (Vec<(u64, u32)>, u64) {
    let mut ranges = Vec::new();
    let offsets = meta.offset_index();
    for (g, group) in meta.row_groups().iter().enumerate() {
        for (c, chunk) in group.columns().iter().enumerate() {
            let first_data = chunk.data_page_offset().max(0) as u64;
            if let Some(dictionary) = chunk.dictionary_page_offset() {
                let dictionary = dictionary.max(0) as u64;
                if dictionary < first_data {
                    ranges.push((dictionary, (first_data - dictionary) as u32));
                }
            }
            match offsets.and_then(|o| o.get(g)).and_then(|o| o.get(c)) {
                Some(index) => {
                    for page in index.page_locations() {
                        ranges.push((page.offset.max(0) as u64, page.compressed_page_size.max(0) as u32));
                    }
                }
                None => {
                    let (start, len) = chunk.byte_range();
                    ranges.push((start, len as u32));
                }
            }
        }
    }
    ranges.sort_unstable();
    let tail = ranges.last().map_or(4, |&(offset, len)| offset + len as u64);
    (ranges, tail)
}

/// Writes the sidecar of the finished Parquet file at `path` (whose metadata, page index
/// included, is `meta`); returns the sidecar's CRC-32.
pub(crate) fn write_sidecar(path: &Path, meta: &ParquetMetaData) -> Result<u32, IndexError> {
    let file = File::open(path).map_err(|e| IndexError::io(path, e))?;
    let len = file.metadata().map_err(|e| IndexError::io(path, e))?.len();
    let (mut ranges, tail) = page_ranges(meta);
    ranges.push((tail, (len.saturating_sub(tail)) as u32));
    let mut out = Vec::with_capacity(12 + ranges.len() * 16);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&(ranges.len() as u32).to_le_bytes());
    let mut buffer = Vec::new();
    for (offset, length) in ranges {
        buffer.resize(length as usize, 0);
        read_at(&file, &mut buffer, offset).map_err(|e| IndexError::io(path, e))?;
        out.extend_from_slice(&offset.to_le_bytes());
        out.extend_from_slice(&length.to_le_bytes());
        out.extend_from_slice(&crc32fast::hash(&buffer).to_le_bytes());
    }
    let sidecar = sidecar_path(path);
    std::fs::write(&sidecar, &out).map_err(|e| IndexError::io(&sidecar, e))?;
    Ok(crc32fast::hash(&out))
}

/// The sidecar of the file at `path`: `.NAME.crc` beside it.
pub(crate) fn sidecar_path(path: &Path) -> std::path::PathBuf {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    path.with_file_name(format!(".{name}.crc"))
}

/// The sidecar of the file `table/NAME` of a manifest: `table/.NAME.crc`.
pub fn sidecar_name(file: &str) -> String {
    match file.rsplit_once('/') {
        Some((dir, name)) => format!("{dir}/.{name}.crc"),
        None => format!(".{file}.crc"),
    }
}

/// A file's page checksums, read from its sidecar, and which pages were checked already.
pub(crate) struct PageChecksums {
    entries: Vec<Entry>,
    checked: Mutex<Vec<bool>>,
}

impl PageChecksums {
    /// Reads the sidecar of `path`, checks it against `crc32` (the manifest's), then checks the tail of
    /// `file` (page indexes and footer, which the reader has just parsed).
    pub fn open(path: &Path, file: &File, crc32: u32) -> Result<PageChecksums, IndexError> {
        let sidecar = sidecar_path(path);
        let bytes = std::fs::read(&sidecar).map_err(|e| IndexError::io(&sidecar, e))?;
        if crc32fast::hash(&bytes) != crc32 {
            return Err(IndexError::format(
                &sidecar,
                "its checksum differs from the manifest's (the file is damaged)",
            ));
        }
        let bad = || IndexError::format(&sidecar, "not a page checksum file");
        if bytes.len() < 12 || &bytes[..8] != MAGIC {
            return Err(bad());
        }
        let count = u32::from_le_bytes(bytes[8..12].try_into().expect("4 bytes")) as usize;
        if bytes.len() != 12 + count * 16 {
            return Err(bad());
        }
        let entries: Vec<Entry> = bytes[12..]
            .chunks_exact(16)
            .map(|e| Entry {
                offset: u64::from_le_bytes(e[0..8].try_into().expect("8 bytes")),
                length: u32::from_le_bytes(e[8..12].try_into().expect("4 bytes")),
                crc32: u32::from_le_bytes(e[12..16].try_into().expect("4 bytes")),
            })
            .collect();
        // Each range is read into a buffer of its length: one past the end of the file would
        // allocate what the sidecar says (up to 4 GiB) before the read fails.
        let len = file.metadata().map_err(|e| IndexError::io(path, e))?.len();
        if entries
            .iter()
            .any(|e| e.offset.saturating_add(u64::from(e.length)) > len)
        {
            return Err(IndexError::format(
                &sidecar,
                "a page checksum past the end of its file (the file is damaged)",
            ));
        }
        let checksums = PageChecksums {
            checked: Mutex::new(vec![false; entries.len()]),
            entries,
        };
        // The tail: the last entry.
        if let Some(last) = checksums.entries.len().checked_sub(1) {
            checksums.check_entry(path, file, last)?;
        }
        Ok(checksums)
    }

    /// Checks the pages of `meta` holding rows `rows` (ranges within row group `group`, sorted,
    /// not overlapping) of the columns `columns` (their indexes), and their dictionary pages.
    pub fn check_rows(
        &self,
        path: &Path,
        file: &File,
        meta: &ParquetMetaData,
        group: usize,
        rows: &[std::ops::Range<usize>],
        columns: &[usize],
    ) -> Result<(), IndexError> {
        let Some(row_group) = meta.row_groups().get(group) else {
            return Ok(());
        };
        let n = row_group.num_rows().max(0) as usize;
        for &c in columns {
            let Some(chunk) = row_group.columns().get(c) else {
                continue;
            };
            if let Some(dictionary) = chunk.dictionary_page_offset() {
                self.check_offset(path, file, dictionary.max(0) as u64)?;
            }
            match meta.offset_index().and_then(|o| o.get(group)).and_then(|o| o.get(c)) {
                Some(index) => {
                    // Pages and ranges are both in row order: one sweep over both.
                    let pages = index.page_locations();
                    let mut r = 0;
                    for (p, page) in pages.iter().enumerate() {
                        let start = page.first_row_index.max(0) as usize;
                        let end = pages.get(p + 1).map_or(n, |next| next.first_row_index.max(0) as usize);
                        while r < rows.len() && rows[r].end <= start {
                            r += 1;
                        }
                        if r == rows.len() {
                            break;
                        }
                        if rows[r].start < end {
                            self.check_offset(path, file, page.offset.max(0) as u64)?;
                        }
                    }
                }
                None => self.check_offset(path, file, chunk.byte_range().0)?,
            }
        }
        Ok(())
    }

    /// Checks the page starting at `offset`, which the sidecar must list.
    fn check_offset(&self, path: &Path, file: &File, offset: u64) -> Result<(), IndexError> {
        match self.entries.binary_search_by_key(&offset, |e| e.offset) {
            Ok(i) => self.check_entry(path, file, i),
            Err(_) => Err(IndexError::format(
                path,
                format!("a page at byte {offset} that its checksums do not list"),
            )),
        }
    }

    fn check_entry(&self, path: &Path, file: &File, i: usize) -> Result<(), IndexError> {
        if self.checked.lock().map(|c| c[i]).unwrap_or(false) {
            return Ok(());
        }
        let entry = self.entries[i];
        let mut buffer = vec![0u8; entry.length as usize];
        read_at(file, &mut buffer, entry.offset).map_err(|e| IndexError::io(path, e))?;
        if crc32fast::hash(&buffer) != entry.crc32 {
            return Err(IndexError::format(
                path,
                format!(
                    "the {} bytes at {} differ from their checksum (the file is damaged)",
                    entry.length, entry.offset
                ),
            ));
        }
        if let Ok(mut checked) = self.checked.lock() {
            checked[i] = true;
        }
        Ok(())
    }
}

/// Reads `buffer.len()` bytes at `offset` (without moving a shared file position).
#[cfg(unix)]
pub(crate) fn read_at(file: &File, buffer: &mut [u8], offset: u64) -> std::io::Result<()> {
    use std::os::unix::fs::FileExt;
    file.read_exact_at(buffer, offset)
}

#[cfg(not(unix))]
pub(crate) fn read_at(file: &File, buffer: &mut [u8], offset: u64) -> std::io::Result<()> {
    use std::io::{Read, Seek, SeekFrom};
    let mut file = file.try_clone()?;
    file.seek(SeekFrom::Start(offset))?;
    file.read_exact(buffer)
}

/// Reads what can be read into `buffer` at `offset` (0 at the end of the file).
#[cfg(unix)]
pub(crate) fn read_some_at(file: &File, buffer: &mut [u8], offset: u64) -> std::io::Result<usize> {
    use std::os::unix::fs::FileExt;
    file.read_at(buffer, offset)
}

#[cfg(not(unix))]
pub(crate) fn read_some_at(file: &File, buffer: &mut [u8], offset: u64) -> std::io::Result<usize> {
    use std::io::{Read, Seek, SeekFrom};
    let mut file = file.try_clone()?;
    file.seek(SeekFrom::Start(offset))?;
    file.read(buffer)
}
