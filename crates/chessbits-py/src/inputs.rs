//! The inputs of `read_pgn`: a path (a directory standing for the PGN files and `.cbits`
//! archives below it, as the CLI reads one), bytes (a file's content, as Spark hands it to a
//! worker), or a list of them. Each is opened as PGN text; its first bytes say what it is (gzip,
//! zstd, an archive, plain text), never its name.

use std::collections::HashSet;
use std::fs::File;
use std::io::{self, Cursor, Read};
use std::panic::{self, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use chessbits::pgn::{decompress, read_full, WriteOptions};
use chessbits_archive::{ArchiveError, BlockStream, RawBlock, MAGIC};
use pyo3::exceptions::{PyFileNotFoundError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::pybacked::PyBackedBytes;
use pyo3::types::{PyList, PyMemoryView, PyTuple};

use crate::read::open_error;

/// PGN text read from an input (Send: pyarrow pulls batches on its own threads).
pub type Text = Box<dyn Read + Send>;

/// The bytes of a `bytes`, `bytearray` or `memoryview`, shared by every opening of the input.
#[derive(Clone)]
struct Shared(Arc<PyBackedBytes>);

impl AsRef<[u8]> for Shared {
    fn as_ref(&self) -> &[u8] {
        &self.0
    }
}

enum Source {
    File(PathBuf),
    Bytes(Shared),
}

/// One input: where its bytes are and the name errors give it (the path, or `<bytes>`).
pub struct Input {
    pub name: String,
    source: Source,
}

impl Input {
    /// The input as PGN text: decompressed if it is gzip or zstd ([`decompress`], which also
    /// refuses UTF-16), and if it is a `.cbits` archive (its magic bytes, after any
    /// decompression), its games written as PGN, as `chessbits unpack` writes them.
    ///
    /// Errors: an [`io::Error`]; one carrying [`chessbits::pgn::InputError`] or
    /// [`ArchiveDamage`] is about the content (see [`open_error`]).
    pub fn open(&self) -> io::Result<Text> {
        let raw: Text = match &self.source {
            Source::File(path) => Box::new(File::open(path)?),
            Source::Bytes(bytes) => Box::new(Cursor::new(bytes.clone())),
        };
        let mut input = decompress(raw)?;
        let mut head = [0u8; MAGIC.len()];
        let len = read_full(&mut input, &mut head)?;
        let input = Cursor::new(head).take(len as u64).chain(input);
        // No PGN starts with the magic's first byte (0x89, not ASCII): a prefix of it is an
        // archive cut short, which BlockStream reports as such.
        if len > 0 && MAGIC.starts_with(&head[..len]) {
            let blocks = BlockStream::new(input).map_err(damage)?;
            return Ok(Box::new(ArchiveText {
                blocks,
                text: Vec::new(),
                at: 0,
                ended: false,
            }));
        }
        Ok(Box::new(input))
    }

    /// Whether opening it now, to report a bad input when `read_pgn` is called, reads nothing
    /// that the stream needs later: bytes and regular files (a FIFO would lose what is read).
    pub fn can_reopen(&self) -> bool {
        match &self.source {
            Source::File(path) => std::fs::metadata(path).is_ok_and(|m| m.is_file()),
            Source::Bytes(_) => true,
        }
    }
}

/// What `read_pgn`'s first argument stands for: its inputs in reading order.
///
/// `bytes`, `bytearray` and `memoryview` are one input's content; a `str` or `os.PathLike` is
/// a file, or a directory standing for the files below it ([`directory`]); a list or tuple is
/// each of its items in turn (not lists again). Anything else is a TypeError.
pub fn inputs_of(arg: &Bound<'_, PyAny>) -> PyResult<Vec<Input>> {
    if let Some(bytes) = bytes_of(arg)? {
        return Ok(vec![Input {
            name: "<bytes>".to_string(),
            source: Source::Bytes(bytes),
        }]);
    }
    if arg.is_instance_of::<PyList>() || arg.is_instance_of::<PyTuple>() {
        let mut inputs = Vec::new();
        for (i, item) in arg.try_iter()?.enumerate() {
            let item = item?;
            if let Some(bytes) = bytes_of(&item)? {
                inputs.push(Input {
                    name: format!("<bytes {i}>"),
                    source: Source::Bytes(bytes),
                });
                continue;
            }
            match item.extract::<PathBuf>() {
                Ok(path) => inputs.extend(path_inputs(path)?),
                Err(_) => return Err(type_error(&format!("path[{i}]"), &item)),
            }
        }
        return Ok(inputs);
    }
    match arg.extract::<PathBuf>() {
        Ok(path) => path_inputs(path),
        Err(_) => Err(type_error("path", arg)),
    }
}

/// The bytes of a bytes-like argument; `None` for anything else.
fn bytes_of(arg: &Bound<'_, PyAny>) -> PyResult<Option<Shared>> {
    // A memoryview's bytes are copied once (the buffer protocol is not in the stable ABI of
    // Python 3.9); bytes are shared, a bytearray copied (it can change under the reader).
    let arg = match arg.is_instance_of::<PyMemoryView>() {
        true => arg.call_method0("tobytes")?,
        false => arg.clone(),
    };
    Ok(arg.extract::<PyBackedBytes>().ok().map(|b| Shared(Arc::new(b))))
}

fn type_error(what: &str, arg: &Bound<'_, PyAny>) -> PyErr {
    let type_name = arg
        .get_type()
        .name()
        .map_or_else(|_| "?".to_string(), |n| n.to_string());
    PyTypeError::new_err(format!(
        "{what}: expected a path (str or os.PathLike), bytes, bytearray or memoryview (PGN text, \
         gzip, zstd or a .cbits archive), or a list or tuple of them; got {type_name}"
    ))
}

/// A path's inputs: a file as it is (read whatever its name), a directory as [`directory`].
fn path_inputs(path: PathBuf) -> PyResult<Vec<Input>> {
    let name = path.display().to_string();
    let meta = std::fs::metadata(&path).map_err(|e| match e.kind() {
        // PGN text passed as a file name: say how to pass it.
        io::ErrorKind::NotFound if name.contains('\n') => {
            let start: String = name.chars().take(30).collect();
            PyFileNotFoundError::new_err(format!(
                "no file named {start:?}... (PGN text? pass it as bytes: text.encode())"
            ))
        }
        _ => open_error(e, &name),
    })?;
    if !meta.is_dir() {
        return Ok(vec![Input {
            name,
            source: Source::File(path),
        }]);
    }
    let files = directory(&path)?;
    if files.is_empty() {
        return Err(PyValueError::new_err(format!(
            "{name}: no .pgn, .pgn.gz, .pgn.zst or .cbits file below the directory"
        )));
    }
    Ok(files
        .into_iter()
        .map(|path| Input {
            name: path.display().to_string(),
            source: Source::File(path),
        })
        .collect())
}

/// The files a directory stands for, as in the CLI: the regular files below it (any depth,
/// links followed) named `*.pgn`, `*.pgn.gz`, `*.pgn.zst` or `*.cbits` (any case), each
/// directory's entries sorted by name, depth first (the order of a sort of the whole paths).
/// Each file and directory is read once (by its canonical path), so a link back up is no loop.
pub fn directory(dir: &Path) -> PyResult<Vec<PathBuf>> {
    let mut found = Vec::new();
    walk(dir, &mut HashSet::new(), &mut found)?;
    Ok(found)
}

fn walk(dir: &Path, seen: &mut HashSet<PathBuf>, found: &mut Vec<PathBuf>) -> PyResult<()> {
    let error = |e: io::Error| open_error(e, &dir.display().to_string());
    if !seen.insert(std::fs::canonicalize(dir).map_err(error)?) {
        return Ok(());
    }
    let mut entries = std::fs::read_dir(dir)
        .map_err(error)?
        .collect::<io::Result<Vec<_>>>()
        .map_err(error)?;
    entries.sort_by_key(|entry| entry.file_name());
    for entry in entries {
        let path = entry.path();
        match std::fs::metadata(&path) {
            Ok(meta) if meta.is_dir() => walk(&path, seen, found)?,
            // Each file once (a second link to it is skipped).
            Ok(meta)
                if meta.is_file()
                    && is_pgn_name(&path)
                    && std::fs::canonicalize(&path).is_ok_and(|canonical| seen.insert(canonical)) =>
            {
                found.push(path)
            }
            // A dangling link with an input's name: opening it reports it.
            Err(_) if is_pgn_name(&path) => found.push(path),
            // FIFOs, devices, other files.
            _ => {}
        }
    }
    Ok(())
}

/// Whether the file name ends in `.pgn`, `.pgn.gz`, `.pgn.zst` or `.cbits` (any case).
fn is_pgn_name(path: &Path) -> bool {
    let name = path.file_name().map(|n| n.to_string_lossy().to_ascii_lowercase());
    name.is_some_and(|name| {
        [".pgn", ".pgn.gz", ".pgn.zst", ".cbits"]
            .iter()
            .any(|ext| name.ends_with(ext))
    })
}

/// A `.cbits` archive that cannot be read on: what is wrong, naming the block (carried in the
/// [`io::Error`] an archive input returns).
#[derive(Debug)]
pub struct ArchiveDamage(ArchiveError);

impl std::fmt::Display for ArchiveDamage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "damaged archive: {}", self.0)
    }
}

impl std::error::Error for ArchiveDamage {}

fn damage(error: ArchiveError) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, ArchiveDamage(error))
}

/// Whether `error` is about a damaged archive (not the file system).
pub fn is_archive_damage(error: &io::Error) -> bool {
    error.get_ref().is_some_and(|e| e.is::<ArchiveDamage>())
}

/// The games of an archive as PGN text, a block at a time. (The games are parsed again on
/// rayon's threads by the reader; decoding a block is the smaller part of the work.)
struct ArchiveText<R: Read> {
    blocks: BlockStream<R>,
    text: Vec<u8>,
    at: usize,
    ended: bool,
}

impl<R: Read> Read for ArchiveText<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        // A loop: a block of no games gives no text.
        while self.at == self.text.len() {
            if self.ended {
                return Ok(0);
            }
            match self.blocks.next() {
                None => self.ended = true,
                Some(Ok(raw)) => {
                    self.text = block_text(&raw).map_err(|e| {
                        self.ended = true;
                        damage(e)
                    })?;
                    self.at = 0;
                }
                Some(Err(e)) => {
                    self.ended = true;
                    return Err(damage(e));
                }
            }
        }
        let n = buf.len().min(self.text.len() - self.at);
        buf[..n].copy_from_slice(&self.text[self.at..self.at + n]);
        self.at += n;
        Ok(n)
    }
}

/// A block's games written as PGN (as `chessbits unpack` writes them).
fn block_text(raw: &RawBlock) -> Result<Vec<u8>, ArchiveError> {
    // The stream is called from pyarrow through the C stream interface, where a panic would
    // abort the interpreter: a decoder bug is reported as damage of the block instead.
    panic::catch_unwind(AssertUnwindSafe(|| {
        let options = WriteOptions::default();
        let mut text = Vec::new();
        for game in raw.decode()? {
            // Writing to a Vec cannot fail.
            let _ = game.write_pgn(&mut text, &options);
        }
        Ok(text)
    }))
    .unwrap_or_else(|_| {
        Err(ArchiveError::CorruptPayload {
            block: raw.info.number,
            reason: "the decoder failed".to_string(),
        })
    })
}
