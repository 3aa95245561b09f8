//! Opening book moves for `OwnBook`: a Polyglot file opened once per `setoption name BookFile`
//! and probed by binary search, so only the entries of the probed key are ever read.
//!
//! A Polyglot book is a run of 16-byte entries sorted by key (see [`chessbits::book`]). The
//! entries of one key are read in file order and handed to [`chessbits::book::Book`], whose
//! weighted choice picks the move: the same rule as when the whole file was read.
//!
//! ```
//! use chessbits::position::Position;
//! use chessbits_engine::book::BookFile;
//! let pos = Position::startpos();
//! // One entry: 1. e4 with weight 10 (e2 = file 4 rank 1, e4 = file 4 rank 3).
//! let raw: u16 = (1 << 9) | (4 << 6) | (3 << 3) | 4;
//! let mut bytes = pos.key().to_be_bytes().to_vec();
//! bytes.extend(raw.to_be_bytes());
//! bytes.extend(10u16.to_be_bytes());
//! bytes.extend(0u32.to_be_bytes());
//! let path = std::env::temp_dir().join(format!("chessbits-engine-doc-book-{}.bin", std::process::id()));
//! std::fs::write(&path, &bytes).unwrap();
//! let book = BookFile::open(&path).unwrap();
//! assert_eq!(book.len(), 1);
//! assert_eq!(book.probe(&pos, 0).unwrap().unwrap().to_string(), "e2e4");
//! std::fs::remove_file(&path).unwrap();
//! assert!(BookFile::open(&path).is_err());
//! ```

use core::fmt;
use std::fs::File;
use std::io::{BufReader, Read, Seek, SeekFrom};
use std::path::Path;

use chessbits::book::Book;
use chessbits::moves::Move;
use chessbits::position::Position;

/// Bytes per Polyglot entry.
pub const ENTRY_BYTES: u64 = 16;

/// Most entries read for one key. A real book holds one entry per legal move (218 at most); a
/// hostile file with millions of equal keys must not make one probe read it all.
pub const MAX_ENTRIES_PER_KEY: usize = 1024;

/// Why a book file was not opened.
#[derive(Debug)]
pub enum BookFileError {
    /// Not a regular file (a FIFO, a device, a directory): reading it could block or never end.
    NotRegular,
    /// The length is not a multiple of [`ENTRY_BYTES`].
    Length(u64),
    /// The file could not be inspected or opened.
    Io(std::io::Error),
}

impl fmt::Display for BookFileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BookFileError::NotRegular => write!(f, "not a regular file"),
            BookFileError::Length(len) => write!(
                f,
                "a Polyglot book holds 16-byte entries; {len} bytes is not a multiple"
            ),
            BookFileError::Io(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for BookFileError {}

/// An open Polyglot book file, probed without reading it whole.
#[derive(Debug)]
pub struct BookFile {
    file: File,
    /// Entries when opened; a file that shrinks later makes probes fail, not panic.
    entries: u64,
}

impl BookFile {
    /// Opens the book at `path`: a regular file whose length is a multiple of 16 bytes.
    pub fn open(path: &Path) -> Result<BookFile, BookFileError> {
        // Checked before opening: opening a FIFO for reading blocks until a writer appears.
        if !std::fs::metadata(path).map_err(BookFileError::Io)?.is_file() {
            return Err(BookFileError::NotRegular);
        }
        let file = File::open(path).map_err(BookFileError::Io)?;
        // Checked again on the open file, which may have been swapped since.
        let meta = file.metadata().map_err(BookFileError::Io)?;
        if !meta.is_file() {
            return Err(BookFileError::NotRegular);
        }
        if meta.len() % ENTRY_BYTES != 0 {
            return Err(BookFileError::Length(meta.len()));
        }
        Ok(BookFile {
            file,
            entries: meta.len() / ENTRY_BYTES,
        })
    }

    /// The number of entries when the file was opened.
    pub fn len(&self) -> u64 {
        self.entries
    }

    /// Whether the file held no entry when opened.
    pub fn is_empty(&self) -> bool {
        self.entries == 0
    }

    fn key_at(&self, index: u64) -> std::io::Result<u64> {
        let mut file = &self.file;
        file.seek(SeekFrom::Start(index * ENTRY_BYTES))?;
        let mut key = [0; 8];
        file.read_exact(&mut key)?;
        Ok(u64::from_be_bytes(key))
    }

    /// The entries for `key` in file order (at most [`MAX_ENTRIES_PER_KEY`]), as a [`Book`]
    /// holding only them; found by binary search, so the file must be sorted by key, as
    /// Polyglot books are. A read error (the file shrank since it was opened) is returned.
    pub fn entries_for(&self, key: u64) -> std::io::Result<Book> {
        // The first entry whose key is not below `key`.
        let (mut lo, mut hi) = (0, self.entries);
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            if self.key_at(mid)? < key {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        let mut file = &self.file;
        file.seek(SeekFrom::Start(lo * ENTRY_BYTES))?;
        let mut reader = BufReader::with_capacity(64 * ENTRY_BYTES as usize, file);
        let mut bytes = Vec::new();
        let mut entry = [0; ENTRY_BYTES as usize];
        for _ in lo..self.entries.min(lo + MAX_ENTRIES_PER_KEY as u64) {
            reader.read_exact(&mut entry)?;
            if entry[..8] != key.to_be_bytes() {
                break;
            }
            bytes.extend_from_slice(&entry);
        }
        // Whole 16-byte entries: the length is always a multiple.
        Book::from_bytes(&bytes).map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidData, e))
    }

    /// A book move for `pos`, chosen by weight with `seed` as [`Book::weighted_move`] does;
    /// `Ok(None)` when the book does not hold the position, an error when the file cannot be
    /// read any more.
    pub fn probe(&self, pos: &Position, seed: u64) -> std::io::Result<Option<Move>> {
        Ok(self.entries_for(pos.key())?.weighted_move(pos, seed))
    }
}

/// A seed for [`BookFile::probe`] that differs from call to call: the clock's nanoseconds.
pub fn clock_seed() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn book_path(name: &str) -> std::path::PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../testdata/books")
            .join(name)
    }

    #[test]
    fn binary_search_equals_a_linear_scan_for_every_key() {
        let path = book_path("python-chess_performance.bin");
        let whole = Book::open(&path).unwrap();
        let file = BookFile::open(&path).unwrap();
        assert_eq!(file.len(), whole.entries().len() as u64);
        let mut keys: Vec<u64> = whole.entries().iter().map(|e| e.key).collect();
        keys.dedup();
        assert!(keys.len() > 100, "{}", keys.len());
        for &key in &keys {
            let linear: Vec<_> = whole.entries().iter().filter(|e| e.key == key).copied().collect();
            assert_eq!(file.entries_for(key).unwrap().entries(), &linear[..], "key {key:016x}");
        }
        // Keys absent from the book: below, between and above those present.
        for key in [
            0,
            keys[0].wrapping_sub(1),
            keys[1] - 1,
            keys[keys.len() / 2] + 1,
            u64::MAX,
        ] {
            if !keys.contains(&key) {
                assert!(file.entries_for(key).unwrap().entries().is_empty());
            }
        }
    }

    #[test]
    fn the_book_move_is_the_whole_file_choice() {
        let path = book_path("python-chess_performance.bin");
        let whole = Book::open(&path).unwrap();
        let file = BookFile::open(&path).unwrap();
        let pos = Position::startpos();
        assert!(whole.moves(&pos).len() > 1);
        for seed in 0..200 {
            assert_eq!(file.probe(&pos, seed).unwrap(), whole.weighted_move(&pos, seed));
        }
    }

    #[test]
    fn hostile_files_are_refused_or_fail_without_panic() {
        let dir = std::env::temp_dir().join(format!("chessbits-engine-book-unit-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let odd = dir.join("odd.bin");
        std::fs::write(&odd, [0u8; 17]).unwrap();
        assert!(matches!(BookFile::open(&odd), Err(BookFileError::Length(17))));
        assert!(matches!(BookFile::open(&dir), Err(BookFileError::NotRegular)));
        assert!(matches!(
            BookFile::open(&dir.join("missing.bin")),
            Err(BookFileError::Io(_))
        ));
        // Many entries of one key: a probe reads at most MAX_ENTRIES_PER_KEY of them.
        let pos = Position::startpos();
        let e4: u16 = (1 << 9) | (4 << 6) | (3 << 3) | 4;
        let mut entry = pos.key().to_be_bytes().to_vec();
        entry.extend(e4.to_be_bytes());
        entry.extend(1u16.to_be_bytes());
        entry.extend(0u32.to_be_bytes());
        let many = dir.join("many.bin");
        std::fs::write(&many, entry.repeat(MAX_ENTRIES_PER_KEY + 10)).unwrap();
        let file = BookFile::open(&many).unwrap();
        assert_eq!(
            file.entries_for(pos.key()).unwrap().entries().len(),
            MAX_ENTRIES_PER_KEY
        );
        // Truncated after opening: the probe reports a read error.
        std::fs::OpenOptions::new()
            .write(true)
            .open(&many)
            .unwrap()
            .set_len(16)
            .unwrap();
        assert!(file.probe(&pos, 0).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
