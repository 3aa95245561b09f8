//! The part files of an export directory, in the one order every reader of an export uses.

use std::collections::HashSet;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};

/// One `*.parquet` file of an export, as [`part_files`] lists them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PartFile {
    /// Its path relative to the export directory, `/`-separated (what the parts are sorted by).
    pub relative: String,
    /// The path to open: the export directory joined with `relative`.
    pub path: PathBuf,
}

/// Whether a directory entry is skipped: names starting with `.` or `_` (`_rejected.pgn`, the
/// exporter's temporary directories, Spark's `_SUCCESS`).
fn skipped(name: &str) -> bool {
    name.starts_with('.') || name.starts_with('_')
}

/// The part files of the export in `dir`: every `*.parquet` file below it (Hive partition
/// directories `year=2024/month=03/` included, symbolic links followed; entries whose names
/// start with `.` or `_` skipped), sorted by their path relative to `dir` in byte order. This
/// order numbers an export's games (row `r` of the `p`-th part is game `rows before + r`): the
/// index and the PGN rebuild ([`ExportReader`](crate::ExportReader)) both use it. An empty list
/// when there is none; an error (naming the path) for a directory that cannot be read.
///
/// ```
/// use chessbits_parquet::{part_files, ExportOptions, ParquetExporter};
/// let dir = tempfile::tempdir().unwrap();
/// let out = dir.path().join("export");
/// let options = ExportOptions { partition: true, ..ExportOptions::default() };
/// let mut exporter = ParquetExporter::create(&out, options).unwrap();
/// let source = exporter.add_source("games.pgn");
/// let pgn = b"[UTCDate \"2024.03.01\"]\n\n1. e4 *\n\n[UTCDate \"2023.12.31\"]\n\n1. d4 *\n";
/// exporter.add_pgn(source, &pgn[..]).unwrap();
/// exporter.finish().unwrap();
/// let parts: Vec<String> = part_files(&out).unwrap().into_iter().map(|p| p.relative).collect();
/// assert_eq!(parts, ["year=2023/month=12/part-0.parquet", "year=2024/month=03/part-0.parquet"]);
/// ```
pub fn part_files(dir: &Path) -> io::Result<Vec<PartFile>> {
    let mut files = Vec::new();
    collect(dir, "", &mut files, 0)?;
    files.sort_by(|a, b| a.relative.as_bytes().cmp(b.relative.as_bytes()));
    Ok(files)
}

/// Directory levels below an export walked at most: a symbolic link loop ends here.
const MAX_DEPTH: usize = 32;

fn collect(dir: &Path, prefix: &str, out: &mut Vec<PartFile>, depth: usize) -> io::Result<()> {
    let named = |e: io::Error, path: &Path| io::Error::new(e.kind(), format!("{}: {e}", path.display()));
    if depth > MAX_DEPTH {
        return Err(io::Error::other(format!(
            "{}: more than {MAX_DEPTH} directory levels (a symbolic link loop?)",
            dir.display()
        )));
    }
    for entry in fs::read_dir(dir).map_err(|e| named(e, dir))? {
        let entry = entry.map_err(|e| named(e, dir))?;
        let name = entry.file_name().to_string_lossy().into_owned();
        if skipped(&name) {
            continue;
        }
        let path = entry.path();
        let relative = format!("{prefix}{name}");
        // Followed through symbolic links, as a reader of the export would.
        let meta = fs::metadata(&path).map_err(|e| named(e, &path))?;
        if meta.is_dir() {
            collect(&path, &format!("{relative}/"), out, depth + 1)?;
        } else if name.ends_with(".parquet") {
            out.push(PartFile { relative, path });
        }
    }
    Ok(())
}

/// Whether `path` is a directory holding a Parquet export: a `*.parquet` file below it (see
/// [`part_files`]) and no PGN file (`.pgn`, `.pgn.gz`, `.pgn.zst`, any case) outside the skipped
/// entries (names starting with `.` or `_`, such as `_rejected.pgn`).
///
/// ```
/// let dir = tempfile::tempdir().unwrap();
/// assert!(!chessbits_parquet::is_export_dir(dir.path()));
/// std::fs::write(dir.path().join("part-0.parquet"), b"").unwrap();
/// assert!(chessbits_parquet::is_export_dir(dir.path()));
/// std::fs::write(dir.path().join("games.pgn"), b"").unwrap();
/// assert!(!chessbits_parquet::is_export_dir(dir.path()));
/// ```
pub fn is_export_dir(path: &Path) -> bool {
    // Each directory is read once (by its canonical path): symbolic link loops (`self -> .`)
    // would otherwise make the walk exponential in the depth.
    fn scan(dir: &Path, parquet: &mut bool, pgn: &mut bool, depth: usize, seen: &mut HashSet<PathBuf>) {
        let Ok(canonical) = fs::canonicalize(dir) else { return };
        if !seen.insert(canonical) {
            return;
        }
        let Ok(entries) = fs::read_dir(dir) else { return };
        for entry in entries.flatten() {
            if *pgn {
                return;
            }
            let name = entry.file_name().to_string_lossy().into_owned();
            let lower = name.to_ascii_lowercase();
            if skipped(&name) {
                continue;
            }
            let path = entry.path();
            if path.is_dir() {
                if depth < MAX_DEPTH {
                    scan(&path, parquet, pgn, depth + 1, seen);
                }
            } else if name.ends_with(".parquet") {
                *parquet = true;
            } else if [".pgn", ".pgn.gz", ".pgn.zst"].iter().any(|ext| lower.ends_with(ext)) {
                *pgn = true;
            }
        }
    }
    let (mut parquet, mut pgn) = (false, false);
    if path.is_dir() {
        scan(path, &mut parquet, &mut pgn, 0, &mut HashSet::new());
    }
    parquet && !pgn
}

#[cfg(all(test, unix))]
mod tests {
    /// Directories whose symbolic links loop (`self -> .`, `up -> ..`, several of them) are
    /// classified at once: each directory is read once.
    #[test]
    fn link_loops_end_the_scan() {
        use std::os::unix::fs::symlink;
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path().join("d");
        std::fs::create_dir_all(d.join("sub")).unwrap();
        for (target, link) in [(".", "self"), (".", "self2"), ("..", "sub/up"), ("../..", "sub/top")] {
            symlink(target, d.join(link)).unwrap();
        }
        std::fs::write(d.join("sub/part-0.parquet"), b"").unwrap();
        assert!(super::is_export_dir(&d));
        std::fs::write(d.join("sub/games.pgn"), b"").unwrap();
        assert!(!super::is_export_dir(&d));
    }
}
