//! Input arguments: files, `-` for standard input, Parquet export directories (`chessbits
//! export`; their games rebuilt as PGN from the columns, see [`export`]), or directories standing
//! for every PGN file and `.cbits` archive below them; gzip and zstd input decompressed and
//! archives decoded on the fly, recognised by their first bytes; counting what is read and
//! showing progress.

use std::cell::Cell;
use std::collections::HashMap;
use std::fs::File;
use std::io::{self, IsTerminal, Read};
use std::path::{Path, PathBuf};
use std::rc::Rc;

pub use chessbits_archive::archive_damage;
use chessbits_archive::is_pgn_name;
use indicatif::{ProgressBar, ProgressStyle};

// A path: tests include this file by its path (`#[path = "../src/inputs.rs"]`).
#[path = "inputs/export.rs"]
mod export;
pub(crate) use export::is_export_input;
use export::{export_len, ExportInputError, ExportPgn};

/// `paths` with every directory replaced by the PGN files and archives below it (any depth;
/// `.pgn`, `.pgn.gz`, `.pgn.zst` and `.cbits`, case-insensitive), sorted so runs are reproducible; files and `-` (standard
/// input) are kept as given, and so is a Parquet export directory (`*.parquet` files and no PGN
/// file, see [`chessbits_parquet::is_export_dir`]), which [`open_input`] reads as one input. An
/// unreadable directory is an error naming it.
///
/// Below a directory only regular files (or symbolic links to them) are taken, each file once
/// (by device and inode: a second link to a file, or a file also named on the command line, is
/// skipped), each directory once, and a symbolic link to a directory that holds the one being
/// read (`.`, `..`: a loop) is not followed. What is skipped is said on standard error; a FIFO,
/// device or socket is read only when named on the command line (as a stream).
pub fn expand_inputs(paths: &[PathBuf]) -> Result<Vec<PathBuf>, String> {
    report_skipped(expand(paths, None)?)
}

/// [`expand_inputs`] for a command that writes the file `output`: when `output` is an archive
/// already (its magic bytes), it is left out of the directories walked (said on standard error),
/// so that `pack DIR -o DIR/all.cbits` run again does not read its own last output. Any other
/// file stays an input, which the output sink then refuses to write over (a PGN file below the
/// directory is never replaced); named on the command line, an archive stays an input too.
pub fn expand_inputs_for_output(paths: &[PathBuf], output: &Path) -> Result<Vec<PathBuf>, String> {
    report_skipped(expand(paths, Some(output))?)
}

fn report_skipped((files, skipped): (Vec<PathBuf>, Vec<String>)) -> Result<Vec<PathBuf>, String> {
    for note in skipped {
        eprintln!("chessbits: {note}");
    }
    Ok(files)
}

/// [`expand_inputs`], giving back what it skipped, one message each, instead of printing it.
fn expand(paths: &[PathBuf], output: Option<&Path>) -> Result<(Vec<PathBuf>, Vec<String>), String> {
    let mut walk = Walk::default();
    if let Some(output) = output.filter(|o| o.as_os_str() != "-") {
        let meta = std::fs::metadata(output).ok().filter(|m| m.is_file());
        walk.output = meta
            .filter(|_| chessbits_archive::is_archive_file(output).unwrap_or(false))
            .map(|m| file_id(&m));
    }
    let mut files = Vec::new();
    for path in paths {
        if is_export_input(path) {
            files.push(path.clone());
        } else if path.as_os_str() != "-" && path.is_dir() {
            let mut found = Vec::new();
            walk.dir(path, &mut found)?;
            files.extend(found);
        } else {
            if let Ok(meta) = std::fs::metadata(path) {
                walk.seen_files.entry(file_id(&meta)).or_insert_with(|| path.clone());
            }
            files.push(path.clone());
        }
    }
    Ok((files, walk.skipped))
}

/// What a directory walk has seen: files and directories by device and inode, with the path each
/// was first met at, and the messages for what was skipped.
#[derive(Default)]
struct Walk {
    seen_files: HashMap<(u64, u64), PathBuf>,
    seen_dirs: HashMap<(u64, u64), PathBuf>,
    skipped: Vec<String>,
    /// The file the command writes, if it exists: not an input found in a directory.
    output: Option<(u64, u64)>,
}

impl Walk {
    /// Adds the PGN files below `dir` to `found`, depth first, each directory's entries sorted by
    /// name (the order of a sort of the whole paths).
    fn dir(&mut self, dir: &Path, found: &mut Vec<PathBuf>) -> Result<(), String> {
        let meta = std::fs::metadata(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        if let Some(first) = self.seen_dirs.get(&file_id(&meta)) {
            self.skipped.push(format!(
                "{}: skipped, the directory {} is read already",
                dir.display(),
                first.display()
            ));
            return Ok(());
        }
        self.seen_dirs.insert(file_id(&meta), dir.to_path_buf());
        let entries = std::fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        let mut entries = entries
            .map(|entry| entry.map_err(|e| format!("{}: {e}", dir.display())))
            .collect::<Result<Vec<_>, String>>()?;
        entries.sort_by_key(|entry| entry.file_name());
        for entry in entries {
            let path = entry.path();
            let is_link = entry.file_type().is_ok_and(|t| t.is_symlink());
            // Links followed (a FIFO is only looked at, never opened).
            let meta = match std::fs::metadata(&path) {
                Ok(meta) => meta,
                // A dangling link or an unreadable entry: opening it reports it.
                Err(_) if is_pgn_name(&path) => {
                    found.push(path);
                    continue;
                }
                Err(_) => continue,
            };
            if meta.is_dir() {
                if is_link && self.is_loop(dir, &path) {
                    self.skipped.push(format!(
                        "{}: skipped, a symbolic link to a directory that holds {} (a loop)",
                        path.display(),
                        dir.display()
                    ));
                } else {
                    self.dir(&path, found)?;
                }
            } else if !is_pgn_name(&path) {
                continue;
            } else if !meta.is_file() {
                self.skipped.push(format!(
                    "{}: skipped, not a regular file (name a FIFO or device on the command line to read it)",
                    path.display()
                ));
            } else if self.output == Some(file_id(&meta)) {
                self.skipped
                    .push(format!("{}: skipped, it is the output", path.display()));
            } else if let Some(first) = self.seen_files.get(&file_id(&meta)) {
                self.skipped.push(format!(
                    "{}: skipped, the same file as {}",
                    path.display(),
                    first.display()
                ));
            } else {
                self.seen_files.insert(file_id(&meta), path.clone());
                found.push(path);
            }
        }
        Ok(())
    }

    /// Whether the directory that `link` names holds `dir` (or is it).
    fn is_loop(&self, dir: &Path, link: &Path) -> bool {
        match (std::fs::canonicalize(dir), std::fs::canonicalize(link)) {
            (Ok(dir), Ok(target)) => dir.starts_with(target),
            // Not resolvable: the walk's directory set still stops a loop.
            _ => false,
        }
    }
}

/// A file's identity: device and inode (elsewhere than Unix, none: nothing is deduplicated but
/// loops, which the paths still catch).
#[cfg(unix)]
fn file_id(meta: &std::fs::Metadata) -> (u64, u64) {
    use std::os::unix::fs::MetadataExt;
    (meta.dev(), meta.ino())
}

#[cfg(not(unix))]
fn file_id(_meta: &std::fs::Metadata) -> (u64, u64) {
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    (u64::MAX, NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed))
}

/// Refuses an output directory that holds one of `inputs` (`--force` would remove it).
pub fn refuse_output_holding_inputs(output: &Path, inputs: &[PathBuf]) -> Result<(), String> {
    if let Ok(out) = output.canonicalize() {
        for input in inputs.iter().filter(|p| p.as_os_str() != "-") {
            if input.canonicalize().is_ok_and(|p| p.starts_with(&out)) {
                return Err(format!("{}: holds the input {}", output.display(), input.display()));
            }
        }
    }
    Ok(())
}

/// Opens `path`, or standard input for `-`, as PGN text, advancing `bar` by the bytes read from
/// it (compressed bytes for compressed input, so the bar follows the file's length). What the
/// input is, its first bytes say, never its name: input that starts with the gzip or zstd magic
/// number is decompressed and UTF-16 refused with a hint, and a `.cbits` archive (its magic
/// bytes, after any decompression) gives its games' PGN as `chessbits unpack` writes them, read
/// a block at a time and decoded on every core ([`chessbits_archive::open_pgn_text`]); an export
/// directory gives its games' PGN rebuilt from the columns ([`ExportPgn`]). Errors
/// name the path.
pub fn open_input(path: &Path, bar: &ProgressBar) -> Result<Box<dyn Read>, String> {
    if is_export_input(path) {
        let export = ExportPgn::open(path, bar)?;
        return Ok(Box::new(export));
    }
    // Send: an archive is read on a thread of its own (`chessbits_archive::ArchivePgn`).
    let raw: Box<dyn Read + Send> = if path.as_os_str() == "-" {
        Box::new(io::stdin())
    } else {
        Box::new(File::open(path).map_err(|e| format!("{}: {e}", path.display()))?)
    };
    let raw = ProgressReader {
        inner: raw,
        bar: bar.clone(),
    };
    let name = || match path.as_os_str() == "-" {
        true => "<stdin>".to_string(),
        false => path.display().to_string(),
    };
    chessbits_archive::open_pgn_text(raw)
        .map(|text| -> Box<dyn Read> { text })
        .map_err(|e| format!("{}: {e}", name()))
}

/// The message for `error`, met reading the input `name` after line `line` of its text:
/// `name:line: read error: ...`, or for a damaged archive `name: damaged archive: block N: ...`
/// (a line of the text written from the archive would tell the user nothing).
pub fn read_error(name: &str, line: u32, error: &io::Error) -> String {
    // An export's row: its part file and row say where, not a line of the rebuilt text.
    if let Some(row) = error.get_ref().and_then(|e| e.downcast_ref::<ExportInputError>()) {
        return format!("{name}: {row}");
    }
    match archive_damage(error) {
        Some(damage) => format!("{name}: {damage}"),
        None => format!("{name}:{line}: read error: {error}"),
    }
}

/// Advances a progress bar by the bytes passing through.
struct ProgressReader<R> {
    inner: R,
    bar: ProgressBar,
}

impl<R: Read> Read for ProgressReader<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.bar.inc(n as u64);
        Ok(n)
    }
}

/// Counts the bytes read through it. The count stays readable through [`CountingReader::counter`]
/// after the reader has been handed to a parser that consumes it.
pub struct CountingReader<R> {
    inner: R,
    count: Rc<Cell<u64>>,
}

impl<R> CountingReader<R> {
    pub fn new(inner: R) -> CountingReader<R> {
        CountingReader {
            inner,
            count: Rc::new(Cell::new(0)),
        }
    }

    /// The shared count of bytes read so far.
    pub fn counter(&self) -> Rc<Cell<u64>> {
        Rc::clone(&self.count)
    }
}

impl<R: Read> Read for CountingReader<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.count.set(self.count.get() + n as u64);
        Ok(n)
    }
}

/// A progress bar counting `unit`s up to `len` (a spinner if the length is unknown) when standard
/// error is a terminal; hidden otherwise.
pub fn progress_bar(len: Option<u64>, unit: &str) -> ProgressBar {
    if !io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    match len {
        Some(len) => {
            let template = format!("{{bar:40}} {{percent:>3}}% {{pos}}/{{len}} {unit} {{elapsed}} eta {{eta}}");
            let style = ProgressStyle::with_template(&template).unwrap_or_else(|_| ProgressStyle::default_bar());
            ProgressBar::new(len).with_style(style)
        }
        None => ProgressBar::new_spinner(),
    }
}

/// The total length of `files` in bytes (of an export directory, its part files'), or `None` if
/// one is standard input (length unknown). Files that cannot be read count as empty: opening
/// them reports the error.
pub fn total_len(files: &[PathBuf]) -> Option<u64> {
    files
        .iter()
        .map(|path| match path.as_os_str() == "-" {
            true => None,
            false if is_export_input(path) => Some(export_len(path)),
            false => Some(std::fs::metadata(path).map_or(0, |m| m.len())),
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use chessbits_archive::MAGIC;

    #[test]
    fn directories_become_their_pgn_files_sorted_and_recursively() {
        let dir = tempfile::tempdir().unwrap();
        let sub = dir.path().join("sub");
        std::fs::create_dir(&sub).unwrap();
        for name in [
            "b.pgn",
            "a.PGN",
            "notes.txt",
            "d.pgn.zst",
            "e.PGN.gz",
            "f.gz",
            "g.cbits",
            "h.cbits.tmp",
        ] {
            std::fs::write(dir.path().join(name), "").unwrap();
        }
        std::fs::write(sub.join("c.pgn"), "").unwrap();
        let single = PathBuf::from("x.pgn");
        let files = expand_inputs(&[single.clone(), dir.path().to_path_buf(), "-".into()]).unwrap();
        let expected = vec![
            single,
            dir.path().join("a.PGN"),
            dir.path().join("b.pgn"),
            dir.path().join("d.pgn.zst"),
            dir.path().join("e.PGN.gz"),
            dir.path().join("g.cbits"),
            sub.join("c.pgn"),
            PathBuf::from("-"),
        ];
        assert_eq!(files, expected);
    }

    #[test]
    fn an_archive_output_is_left_out_of_directories_and_any_other_file_kept() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("a.pgn"), "").unwrap();
        std::fs::write(dir.path().join("out.cbits"), MAGIC).unwrap();
        std::fs::write(dir.path().join("text.cbits"), "1. e4 *").unwrap();
        let d = dir.path().to_path_buf();
        let (files, skipped) = expand(std::slice::from_ref(&d), Some(&d.join("out.cbits"))).unwrap();
        assert_eq!(files, [d.join("a.pgn"), d.join("text.cbits")]);
        assert_eq!(
            skipped,
            [format!("{}: skipped, it is the output", d.join("out.cbits").display())]
        );
        // Not an archive: kept (the sink refuses to write over it).
        let (files, skipped) = expand(std::slice::from_ref(&d), Some(&d.join("text.cbits"))).unwrap();
        assert_eq!(files.len(), 3);
        assert!(skipped.is_empty());
        // Named on the command line: kept.
        let (files, _) = expand(&[d.join("out.cbits")], Some(&d.join("out.cbits"))).unwrap();
        assert_eq!(files, [d.join("out.cbits")]);
    }

    #[test]
    fn missing_paths_are_kept_for_the_caller_to_report() {
        let missing = PathBuf::from("/nonexistent/chessbits/none.pgn");
        assert_eq!(expand_inputs(std::slice::from_ref(&missing)).unwrap(), vec![missing]);
    }

    #[cfg(unix)]
    #[test]
    fn links_lead_to_each_file_and_directory_once_and_loops_are_skipped() {
        use std::os::unix::fs::symlink;
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path().join("d");
        std::fs::create_dir_all(d.join("sub")).unwrap();
        std::fs::write(d.join("a.pgn"), "").unwrap();
        std::fs::write(d.join("sub/c.pgn"), "").unwrap();
        std::fs::write(dir.path().join("outside.pgn"), "").unwrap();
        for (target, link) in [
            ("a.pgn", "b.pgn"),
            (".", "self"),
            (".", "self2"),
            ("..", "sub/up"),
            ("../..", "sub/top"),
            ("sub", "sub2"),
            ("nowhere.pgn", "dangling.pgn"),
        ] {
            symlink(target, d.join(link)).unwrap();
        }
        assert!(std::process::Command::new("mkfifo")
            .arg(d.join("fifo.pgn"))
            .status()
            .unwrap()
            .success());
        let (files, skipped) = expand(std::slice::from_ref(&d), None).unwrap();
        // A dangling link is kept: opening it reports it.
        assert_eq!(files, [d.join("a.pgn"), d.join("dangling.pgn"), d.join("sub/c.pgn")]);
        let said = |name: &str, why: &str| {
            let prefix = format!("{}: skipped, ", d.join(name).display());
            skipped.iter().any(|s| s.starts_with(&prefix) && s.contains(why))
        };
        assert!(said("b.pgn", "the same file as"), "{skipped:?}");
        assert!(said("fifo.pgn", "not a regular file"), "{skipped:?}");
        for link in ["self", "self2", "sub/up", "sub/top"] {
            assert!(said(link, "(a loop)"), "{link}: {skipped:?}");
        }
        assert!(said("sub2", "is read already"), "{skipped:?}");
        assert_eq!(skipped.len(), 7, "{skipped:?}");
        // A file named on the command line is not read again from a directory.
        let (files, _) = expand(&[d.join("sub/c.pgn"), d.clone()], None).unwrap();
        assert_eq!(files, [d.join("sub/c.pgn"), d.join("a.pgn"), d.join("dangling.pgn")]);
    }

    fn read_all(path: &Path) -> Result<Vec<u8>, String> {
        let bar = ProgressBar::hidden();
        let mut input = open_input(path, &bar)?;
        let mut out = Vec::new();
        input.read_to_end(&mut out).map_err(|e| e.to_string())?;
        assert_eq!(
            bar.position(),
            std::fs::metadata(path).unwrap().len(),
            "the bar counts file bytes"
        );
        Ok(out)
    }

    #[test]
    fn gzip_and_zstd_input_is_decompressed_by_content() {
        use std::io::Write;
        let dir = tempfile::tempdir().unwrap();
        let text = b"[Event \"x\"]\n\n1. e4 e5 *\n".repeat(1000);
        let plain = dir.path().join("plain.pgn");
        std::fs::write(&plain, &text).unwrap();
        // Two gzip members, as `cat a.gz b.gz` makes: both are read.
        let (first, second) = text.split_at(7000);
        let mut gz = Vec::new();
        for part in [first, second] {
            let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
            encoder.write_all(part).unwrap();
            gz.extend(encoder.finish().unwrap());
        }
        // Named .pgn on purpose: the content decides.
        let gz_path = dir.path().join("gz.pgn");
        std::fs::write(&gz_path, gz).unwrap();
        let zst_path = dir.path().join("x.pgn.zst");
        std::fs::write(&zst_path, zstd::encode_all(&text[..], 3).unwrap()).unwrap();
        for path in [&plain, &gz_path, &zst_path] {
            assert_eq!(read_all(path).unwrap(), text, "{}", path.display());
        }
    }

    #[test]
    fn utf16_input_is_refused_with_a_hint() {
        let dir = tempfile::tempdir().unwrap();
        let text = "[Event \"x\"]\n\n1. e4 *\n";
        let le: Vec<u8> = text.encode_utf16().flat_map(u16::to_le_bytes).collect();
        let be: Vec<u8> = text.encode_utf16().flat_map(u16::to_be_bytes).collect();
        for (name, bytes) in [
            ("le.pgn", le.clone()),
            ("be.pgn", be.clone()),
            ("bom-le.pgn", [&[0xff, 0xfe][..], &le].concat()),
            ("bom-be.pgn", [&[0xfe, 0xff][..], &be].concat()),
        ] {
            let path = dir.path().join(name);
            std::fs::write(&path, bytes).unwrap();
            let error = read_all(&path).err().unwrap_or_default();
            assert!(error.contains("UTF-16"), "{name}: {error}");
        }
        // Latin-1 and UTF-8 (with its byte-order mark) are read.
        for bytes in [&b"[Event \"Andr\x82\"]"[..], b"\xef\xbb\xbf[Event \"x\"]"] {
            let path = dir.path().join("ok.pgn");
            std::fs::write(&path, bytes).unwrap();
            assert_eq!(read_all(&path).unwrap(), bytes);
        }
    }

    #[test]
    fn short_and_damaged_input() {
        let dir = tempfile::tempdir().unwrap();
        for content in [&b""[..], b"*", b"\x1f", b"\x28\xb5\x2f"] {
            let path = dir.path().join("short.pgn");
            std::fs::write(&path, content).unwrap();
            assert_eq!(read_all(&path).unwrap(), content);
        }
        // A gzip header followed by garbage: an error, not a panic.
        let path = dir.path().join("bad.pgn.gz");
        std::fs::write(&path, b"\x1f\x8b\x08\x00garbage garbage").unwrap();
        assert!(read_all(&path).is_err());
        let path = dir.path().join("bad.pgn.zst");
        std::fs::write(&path, b"\x28\xb5\x2f\xfdgarbage garbage").unwrap();
        assert!(read_all(&path).is_err());
    }
}
