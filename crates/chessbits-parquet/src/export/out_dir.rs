//! The output directory of an export: where a symbolic link leads, whether it may be written,
//! and the rename that puts the finished export in place.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use super::error::ExportError;

/// Moves the finished export `temp` to `out_dir`. The rename itself decides, atomically: it
/// replaces a missing or empty directory (rename(2) does), and fails, leaving it as it is, on one
/// that is not empty or not a directory. Checking first and renaming after would let an export
/// finished in between be moved aside and deleted. With `force` a directory that is not empty is
/// then moved aside, the export renamed in its place, and the old one removed.
pub(super) fn commit_dir(temp: &Path, out_dir: &Path, force: bool) -> Result<(), ExportError> {
    // Elsewhere than Unix a rename does not replace a directory, even an empty one.
    #[cfg(not(unix))]
    if fs::read_dir(out_dir).is_ok_and(|mut entries| entries.next().is_none()) {
        let _ = fs::remove_dir(out_dir);
    }
    let error = match fs::rename(temp, out_dir) {
        Ok(()) => return Ok(()),
        Err(error) => error,
    };
    let is_dir = match fs::symlink_metadata(out_dir) {
        Ok(meta) => meta.is_dir(),
        // Not there: the rename failed for another reason.
        Err(_) => return Err(error.into()),
    };
    if is_dir && fs::read_dir(out_dir)?.next().is_none() {
        return Err(error.into());
    }
    if !force || !is_dir {
        return Err(ExportError::OutputExists(out_dir.to_path_buf()));
    }
    // Kept until the new directory is in place.
    let aside = temp.with_extension("old");
    fs::rename(out_dir, &aside)?;
    if let Err(e) = fs::rename(temp, out_dir) {
        let _ = fs::rename(&aside, out_dir);
        return Err(e.into());
    }
    fs::remove_dir_all(aside)?;
    Ok(())
}

/// The directory an export into `out_dir` writes: `out_dir`, or where it is a symbolic link (or
/// a chain of them) the directory the link names, absolute, so that the link stays a link and
/// what it names is replaced, as the tool does for files (a dangling link: the directory it
/// names is created).
pub(super) fn resolve_output(out_dir: &Path) -> Result<PathBuf, ExportError> {
    let mut path = out_dir.to_path_buf();
    for _ in 0..40 {
        match fs::symlink_metadata(&path) {
            Ok(meta) if meta.file_type().is_symlink() => {
                let link = fs::read_link(&path)?;
                // A relative link is relative to the link's directory.
                path = match path.parent() {
                    Some(dir) => dir.join(link),
                    None => link,
                };
            }
            _ if path == out_dir => return Ok(path),
            Ok(_) => return Ok(fs::canonicalize(&path)?),
            Err(_) => {
                let parent = match path.parent() {
                    Some(p) if !p.as_os_str().is_empty() => p,
                    _ => Path::new("."),
                };
                let Some(name) = path.file_name() else {
                    return Err(ExportError::OutputExists(path));
                };
                return Ok(fs::canonicalize(parent)?.join(name));
            }
        }
    }
    Err(io::Error::other(format!("{}: too many levels of symbolic links", out_dir.display())).into())
}

/// Refuses an output that exists and is not an empty directory (unless `force`; a file, never).
pub(super) fn check_output(out_dir: &Path, force: bool) -> Result<(), ExportError> {
    match fs::metadata(out_dir) {
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(e.into()),
        Ok(meta) if !meta.is_dir() => Err(ExportError::OutputExists(out_dir.to_path_buf())),
        Ok(_) if force || fs::read_dir(out_dir)?.next().is_none() => Ok(()),
        Ok(_) => Err(ExportError::OutputExists(out_dir.to_path_buf())),
    }
}
