//! Where the commands write: standard output, or a file replaced only once everything went well;
//! and what a failed write to standard output means.

use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

/// Writes a line to standard output like `println!`, but a closed pipe (`chessbits ... | head`)
/// ends the program quietly instead of panicking, and another error is reported.
macro_rules! say {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let mut out = std::io::stdout().lock();
        if let Err(e) = writeln!(out, $($arg)*) {
            let message = $crate::output::write_error("standard output", e);
            eprintln!("chessbits: {message}");
            std::process::exit(2);
        }
    }};
}
pub(crate) use say;

/// The message for a failed write to `what`. A closed pipe is no error for a command line tool
/// (its reader, `head` say, has all it wanted): the program exits at once with status 0, as Unix
/// tools do.
pub fn write_error(what: impl std::fmt::Display, e: io::Error) -> String {
    if e.kind() == io::ErrorKind::BrokenPipe {
        std::process::exit(0);
    }
    format!("{what}: {e}")
}

/// Where the output goes: standard output, or a temporary file renamed over the target at the
/// end (so a failure leaves whatever the user had untouched).
pub enum Sink {
    Stdout(BufWriter<io::Stdout>),
    File {
        temp: BufWriter<tempfile::NamedTempFile>,
        target: PathBuf,
    },
}

impl Sink {
    /// Standard output for `-`, else a new temporary file next to `target`.
    pub fn create(target: &Path) -> Result<Sink, String> {
        if target.as_os_str() == "-" {
            return Ok(Sink::Stdout(BufWriter::new(io::stdout())));
        }
        let dir = match target.parent() {
            Some(dir) if !dir.as_os_str().is_empty() => dir,
            _ => Path::new("."),
        };
        let temp = tempfile::Builder::new()
            .prefix(".chessbits-")
            .suffix(".tmp")
            .tempfile_in(dir)
            .map_err(|e| format!("cannot create a temporary file in {}: {e}", dir.display()))?;
        Ok(Sink::File {
            temp: BufWriter::with_capacity(1 << 20, temp),
            target: target.to_path_buf(),
        })
    }

    /// The message for a failed write to this sink (see [`write_error`]).
    pub fn error(&self, e: io::Error) -> String {
        match self {
            Sink::Stdout(_) => write_error("standard output", e),
            Sink::File { target, .. } => write_error(target.display(), e),
        }
    }

    /// Flushes and, for a file, moves it into place.
    pub fn commit(self) -> Result<(), String> {
        match self {
            Sink::Stdout(mut out) => out.flush().map_err(|e| write_error("standard output", e)),
            Sink::File { temp, target } => {
                let name = target.display().to_string();
                let temp = temp.into_inner().map_err(|e| format!("{name}: {}", e.error()))?;
                temp.as_file().sync_all().map_err(|e| format!("{name}: {e}"))?;
                set_permissions(&temp, &target);
                temp.persist(&target).map_err(|e| format!("{name}: {}", e.error))?;
                Ok(())
            }
        }
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

impl Write for Sink {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self {
            Sink::Stdout(out) => out.write(buf),
            Sink::File { temp, .. } => temp.write(buf),
        }
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        match self {
            Sink::Stdout(out) => out.write_all(buf),
            Sink::File { temp, .. } => temp.write_all(buf),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match self {
            Sink::Stdout(out) => out.flush(),
            Sink::File { temp, .. } => temp.flush(),
        }
    }
}
