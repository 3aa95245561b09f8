//! Where the commands write: standard output, a stream (a FIFO, a device), or a regular file
//! replaced only once everything went well; and what a failed write to standard output means.
//!
//! Output safety:
//! - an output that is one of the inputs (the same file: same device and inode, whatever the
//!   spelling, a hard link or a symbolic link to it) is refused before anything is written;
//! - FIFOs, character and block devices are written in place, as streams (`/dev/null` works,
//!   `/dev/full` reports "No space left on device" and stays a device);
//! - a regular file is written to a temporary file `.chessbits-*.tmp` in its directory, renamed
//!   over it at the end; a symbolic link is followed to the file it names (through chains, and to
//!   the path a dangling link points to), which is replaced: the link stays a link;
//! - temporary files are removed on every error, and on SIGINT, SIGTERM and SIGHUP, after which
//!   the process dies by that signal (so the shell sees 130, 143 or 129).

use std::fs::{File, OpenOptions};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard, PoisonError};

/// Writes a line to standard output like `println!`, but a closed pipe (`chessbits ... | head`)
/// ends the program quietly instead of panicking, and another error is reported.
macro_rules! say {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let mut out = std::io::stdout().lock();
        if let Err(e) = writeln!(out, $($arg)*) {
            let message = $crate::output::write_error("standard output", e);
            eprintln!("chessbits: {message}");
            $crate::output::remove_temps_and_exit(2);
        }
    }};
}
pub(crate) use say;

/// The message for a failed write to `what`. A closed pipe is no error for a command line tool
/// (its reader, `head` say, has all it wanted): the program exits at once with status 0, as Unix
/// tools do (removing its temporary files first).
pub fn write_error(what: impl std::fmt::Display, e: io::Error) -> String {
    if e.kind() == io::ErrorKind::BrokenPipe {
        remove_temps_and_exit(0);
    }
    format!("{what}: {e}")
}

/// Where the output goes: standard output, a stream written in place, or a temporary file renamed
/// over the target at the end (so a failure leaves whatever the user had untouched).
pub enum Sink {
    Stdout(BufWriter<io::Stdout>),
    /// A FIFO, a character or block device (or a socket the system lets us open): no temporary
    /// file, no rename, the node stays what it is.
    Stream {
        out: BufWriter<File>,
        name: String,
    },
    /// A regular file (or one to be created): `target` is where it goes, symbolic links resolved.
    File {
        temp: BufWriter<TempFile>,
        target: PathBuf,
        name: String,
    },
}

impl Sink {
    /// Standard output for `-`; the device or FIFO itself for one (or a link to one); else a new
    /// temporary file next to the file that `target` is or names. Refused (an error naming both)
    /// if the output is the same file as one of `inputs` (`-` among them is standard input),
    /// before anything is opened or written.
    pub fn create(target: &Path, inputs: &[PathBuf]) -> Result<Sink, String> {
        refuse_input_as_output(target, inputs)?;
        if target.as_os_str() == "-" {
            return Ok(Sink::Stdout(BufWriter::new(io::stdout())));
        }
        let name = target.display().to_string();
        match place(target)? {
            Place::Stream => {
                let file = OpenOptions::new()
                    .write(true)
                    .open(target)
                    .map_err(|e| format!("{name}: {e}"))?;
                Ok(Sink::Stream {
                    out: BufWriter::with_capacity(1 << 16, file),
                    name,
                })
            }
            Place::Replace(target) => {
                let dir = match target.parent() {
                    Some(dir) if !dir.as_os_str().is_empty() => dir,
                    _ => Path::new("."),
                };
                let temp = TempFile::create_in(dir)
                    .map_err(|e| format!("cannot create a temporary file in {}: {e}", dir.display()))?;
                Ok(Sink::File {
                    temp: BufWriter::with_capacity(1 << 20, temp),
                    target,
                    name,
                })
            }
        }
    }

    /// The message for a failed write to this sink (see [`write_error`]).
    pub fn error(&self, e: io::Error) -> String {
        match self {
            Sink::Stdout(_) => write_error("standard output", e),
            Sink::Stream { name, .. } | Sink::File { name, .. } => write_error(name, e),
        }
    }

    /// Flushes and, for a file, moves it into place.
    pub fn commit(self) -> Result<(), String> {
        match self {
            Sink::Stdout(mut out) => out.flush().map_err(|e| write_error("standard output", e)),
            Sink::Stream { mut out, name } => out.flush().map_err(|e| write_error(&name, e)),
            Sink::File { temp, target, name } => {
                let temp = temp.into_inner().map_err(|e| format!("{name}: {}", e.error()))?;
                temp.persist(&target).map_err(|e| format!("{name}: {e}"))
            }
        }
    }
}

impl Write for Sink {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self {
            Sink::Stdout(out) => out.write(buf),
            Sink::Stream { out, .. } => out.write(buf),
            Sink::File { temp, .. } => temp.write(buf),
        }
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        match self {
            Sink::Stdout(out) => out.write_all(buf),
            Sink::Stream { out, .. } => out.write_all(buf),
            Sink::File { temp, .. } => temp.write_all(buf),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match self {
            Sink::Stdout(out) => out.flush(),
            Sink::Stream { out, .. } => out.flush(),
            Sink::File { temp, .. } => temp.flush(),
        }
    }
}

/// How an output path is written.
enum Place {
    /// Opened for writing in place: a FIFO, a device, a socket.
    Stream,
    /// A regular file (existing or not) at this path, no symbolic link in its last component:
    /// written beside it and renamed over it.
    Replace(PathBuf),
}

fn place(target: &Path) -> Result<Place, String> {
    let name = target.display();
    match std::fs::metadata(target) {
        Ok(meta) if meta.is_dir() => Err(format!("{name}: is a directory")),
        Ok(meta) if !meta.is_file() => Ok(Place::Stream),
        Ok(_) => {
            let is_link = std::fs::symlink_metadata(target).is_ok_and(|m| m.file_type().is_symlink());
            if is_link {
                let real = std::fs::canonicalize(target).map_err(|e| format!("{name}: {e}"))?;
                Ok(Place::Replace(real))
            } else {
                Ok(Place::Replace(target.to_path_buf()))
            }
        }
        Err(e) if e.kind() == io::ErrorKind::NotFound => resolve_dangling(target).map(Place::Replace),
        Err(e) => Err(format!("{name}: {e}")),
    }
}

/// The path that a missing `target` names once its symbolic links (a dangling link, or a chain
/// ending in one) are followed: where the new file is to be created.
fn resolve_dangling(target: &Path) -> Result<PathBuf, String> {
    let mut path = target.to_path_buf();
    for _ in 0..40 {
        match std::fs::symlink_metadata(&path) {
            Ok(meta) if meta.file_type().is_symlink() => {
                let link = std::fs::read_link(&path).map_err(|e| format!("{}: {e}", path.display()))?;
                // A relative link is relative to the link's directory; joining an absolute one
                // gives that absolute path.
                path = match path.parent() {
                    Some(dir) => dir.join(link),
                    None => link,
                };
            }
            _ => return Ok(path),
        }
    }
    Err(format!("{}: too many levels of symbolic links", target.display()))
}

/// The error if `target` (`-`: standard output) is the same file as one of `inputs` (`-`:
/// standard input). Missing files are no conflict (their opening reports them), nor are character
/// devices and sockets: a terminal, `/dev/null` or a socket read and written is two streams.
fn refuse_input_as_output(target: &Path, inputs: &[PathBuf]) -> Result<(), String> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::{FileTypeExt, MetadataExt};
        let Some(out) = identity(target, false) else {
            return Ok(());
        };
        if out.file_type().is_char_device() || out.file_type().is_socket() {
            return Ok(());
        }
        for input in inputs {
            let Some(meta) = identity(input, true) else { continue };
            if (meta.dev(), meta.ino()) == (out.dev(), out.ino()) {
                let out_name = match target.as_os_str() == "-" {
                    true => "standard output".to_string(),
                    false => target.display().to_string(),
                };
                let input = match input.as_os_str() == "-" {
                    true => "standard input".to_string(),
                    false => format!("the input {}", input.display()),
                };
                return Err(format!(
                    "{out_name}: the output is the same file as {input}; nothing written (choose another output)"
                ));
            }
        }
    }
    #[cfg(not(unix))]
    let _ = (target, inputs);
    Ok(())
}

/// The metadata of `path` (symbolic links followed), or of standard input (`input`) or output for
/// `-`; `None` if there is none to be had.
#[cfg(unix)]
fn identity(path: &Path, input: bool) -> Option<std::fs::Metadata> {
    use std::os::fd::AsFd;
    if path.as_os_str() != "-" {
        return std::fs::metadata(path).ok();
    }
    let fd = match input {
        true => io::stdin().as_fd().try_clone_to_owned(),
        false => io::stdout().as_fd().try_clone_to_owned(),
    };
    File::from(fd.ok()?).metadata().ok()
}

/// The temporary files alive now, for the signal handler to remove. Held while a temporary file
/// is created, renamed or removed, and by the signal handler until the process ends: a file is
/// either complete in place or gone.
static LIVE_TEMPS: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

fn live_temps() -> MutexGuard<'static, Vec<PathBuf>> {
    LIVE_TEMPS.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Removes the temporary files alive and ends the process with `code` (`process::exit` runs no
/// destructor).
pub fn remove_temps_and_exit(code: i32) -> ! {
    let live = live_temps();
    for path in live.iter() {
        let _ = std::fs::remove_file(path);
    }
    remove_temp_dirs();
    std::process::exit(code)
}

/// The temporary directories alive now (`export` writes into one), for the signal handler.
static LIVE_TEMP_DIRS: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

fn remove_temp_dirs() {
    let dirs = LIVE_TEMP_DIRS.lock().unwrap_or_else(PoisonError::into_inner);
    for path in dirs.iter() {
        let _ = std::fs::remove_dir_all(path);
    }
}

/// A temporary directory that another owner creates and renames into place or removes: while
/// this guard lives, SIGINT, SIGTERM and SIGHUP remove it before the process dies.
#[allow(dead_code)] // Used by `export`; unused where a test includes this file (tests/cli_archive.rs).
pub struct TempDirGuard(PathBuf);

#[allow(dead_code)]
impl TempDirGuard {
    /// Guards `path`.
    pub fn new(path: &Path) -> TempDirGuard {
        install_signal_cleanup();
        let mut dirs = LIVE_TEMP_DIRS.lock().unwrap_or_else(PoisonError::into_inner);
        dirs.push(path.to_path_buf());
        TempDirGuard(path.to_path_buf())
    }
}

impl Drop for TempDirGuard {
    fn drop(&mut self) {
        let mut dirs = LIVE_TEMP_DIRS.lock().unwrap_or_else(PoisonError::into_inner);
        dirs.retain(|p| *p != self.0);
    }
}

/// A temporary file `.chessbits-*.tmp`, removed when dropped (on every error path) and by the
/// signal handler, until [`TempFile::persist`] moves it into place.
pub struct TempFile {
    file: Option<tempfile::NamedTempFile>,
}

impl TempFile {
    fn create_in(dir: &Path) -> io::Result<TempFile> {
        install_signal_cleanup();
        let mut live = live_temps();
        let file = tempfile::Builder::new()
            .prefix(".chessbits-")
            .suffix(".tmp")
            .tempfile_in(dir)?;
        live.push(file.path().to_path_buf());
        Ok(TempFile { file: Some(file) })
    }

    fn file(&mut self) -> io::Result<&mut tempfile::NamedTempFile> {
        self.file
            .as_mut()
            .ok_or_else(|| io::Error::other("the temporary file is gone"))
    }

    /// Syncs the file, gives it the permissions of the file it replaces (or 0644) and renames it
    /// to `target`.
    fn persist(mut self, target: &Path) -> io::Result<()> {
        let Some(file) = self.file.take() else {
            return Err(io::Error::other("the temporary file is gone"));
        };
        file.as_file().sync_all()?;
        set_permissions(&file, target);
        let mut live = live_temps();
        let path = file.path().to_path_buf();
        let result = match file.persist(target) {
            Ok(_) => Ok(()),
            // Dropping the file it gives back removes it.
            Err(tempfile::PersistError { error, file }) => {
                drop(file);
                Err(error)
            }
        };
        live.retain(|p| *p != path);
        result
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        if let Some(file) = self.file.take() {
            let mut live = live_temps();
            let path = file.path().to_path_buf();
            drop(file);
            live.retain(|p| *p != path);
        }
    }
}

impl Write for TempFile {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.file()?.write(buf)
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        self.file()?.write_all(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.file()?.flush()
    }
}

/// Gives the new file the permissions of the file it replaces, or the usual 0644 (temporary
/// files are created 0600).
fn set_permissions(temp: &tempfile::NamedTempFile, target: &Path) {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(target)
            .map(|m| m.permissions().mode())
            .unwrap_or(0o644);
        let _ = temp.as_file().set_permissions(std::fs::Permissions::from_mode(mode));
    }
    #[cfg(not(unix))]
    let _ = (temp, target);
}

/// Once: a thread that, on SIGINT, SIGTERM or SIGHUP, removes the live temporary files and ends
/// the process by that signal (the default action, so a shell sees 128 + the signal number and
/// knows the command was interrupted). Returns once the handlers are in place.
#[cfg(unix)]
fn install_signal_cleanup() {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    static INSTALLED: std::sync::Once = std::sync::Once::new();
    INSTALLED.call_once(|| {
        let (ready, installed) = std::sync::mpsc::sync_channel(1);
        let spawned = std::thread::Builder::new()
            .name("chessbits-signals".to_string())
            .spawn(move || {
                let mut signals = match signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP]) {
                    Ok(signals) => signals,
                    Err(_) => {
                        let _ = ready.send(());
                        return;
                    }
                };
                let _ = ready.send(());
                if let Some(signal) = signals.forever().next() {
                    // Held until the end: no temporary file is created or renamed any more.
                    let live = live_temps();
                    for path in live.iter() {
                        let _ = std::fs::remove_file(path);
                    }
                    remove_temp_dirs();
                    let _ = signal_hook::low_level::emulate_default_handler(signal);
                    std::process::exit(128 + signal);
                }
            });
        if spawned.is_ok() {
            let _ = installed.recv();
        }
    });
}

#[cfg(not(unix))]
fn install_signal_cleanup() {}
