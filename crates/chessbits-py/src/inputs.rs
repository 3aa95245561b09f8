//! The inputs of `read_pgn`: a path (a directory standing for the PGN files and `.cbits`
//! archives below it, as the CLI reads one), bytes (a file's content, as Spark hands it to a
//! worker), or a list of them. Each is opened as PGN text; its first bytes say what it is (gzip,
//! zstd, an archive, plain text), never its name.

use std::collections::HashSet;
use std::fs::File;
use std::io::{self, Cursor, Read};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use chessbits_archive::{archive_damage, is_pgn_name, open_pgn_text};
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
    /// The input as PGN text ([`open_pgn_text`]: decompressed if it is gzip or zstd, UTF-16
    /// refused, and a `.cbits` archive's games written as PGN, as `chessbits unpack` writes them,
    /// its blocks decoded on every core).
    ///
    /// Errors: an [`io::Error`]; one carrying [`chessbits::pgn::InputError`] or
    /// [`chessbits_archive::ArchiveDamage`] is about the content (see [`open_error`]).
    pub fn open(&self) -> io::Result<Text> {
        let raw: Text = match &self.source {
            Source::File(path) => Box::new(File::open(path)?),
            Source::Bytes(bytes) => Box::new(Cursor::new(bytes.clone())),
        };
        open_pgn_text(raw)
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

/// Whether `error` is about a damaged archive (not the file system).
pub fn is_archive_damage(error: &io::Error) -> bool {
    archive_damage(error).is_some()
}
