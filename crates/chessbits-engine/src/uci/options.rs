//! The UCI options the engine offers.

use std::path::PathBuf;

use crate::search::strength::Strength;

/// The current option values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// Transposition table size in MiB.
    pub hash_mb: usize,
    /// Search threads.
    pub threads: usize,
    /// Lines to report.
    pub multipv: usize,
    /// Milliseconds kept in reserve per move.
    pub move_overhead: u64,
    /// Castling in king-takes-rook notation.
    pub chess960: bool,
    /// Play from the opening book.
    pub own_book: bool,
    /// The Polyglot book file; empty for none.
    pub book_file: PathBuf,
    /// Play at the strength `elo` says (`UCI_LimitStrength`).
    pub limit_strength: bool,
    /// The rating to play at when strength is limited (`UCI_Elo`).
    pub elo: u32,
    /// Evaluate with a network (`Use NNUE`); off: the hand-tuned evaluation.
    pub use_nnue: bool,
    /// The network file to evaluate with (`EvalFile`); empty: the
    /// [embedded](crate::eval::nnue::embedded) network.
    pub eval_file: String,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            hash_mb: 16,
            threads: 1,
            multipv: 1,
            move_overhead: 50,
            chess960: false,
            own_book: false,
            book_file: PathBuf::new(),
            limit_strength: false,
            elo: Strength::MIN_ELO,
            use_nnue: true,
            eval_file: String::new(),
        }
    }
}

/// The `option` lines printed after `uci`.
pub const OPTION_LINES: &[&str] = &[
    "option name Hash type spin default 16 min 1 max 65536",
    "option name Threads type spin default 1 min 1 max 256",
    "option name MultiPV type spin default 1 min 1 max 256",
    "option name Move Overhead type spin default 50 min 0 max 5000",
    "option name Ponder type check default false",
    "option name UCI_Chess960 type check default false",
    "option name OwnBook type check default false",
    "option name BookFile type string default <empty>",
    "option name Clear Hash type button",
    "option name UCI_LimitStrength type check default false",
    "option name UCI_Elo type spin default 970 min 970 max 2140",
    "option name Use NNUE type check default true",
    "option name EvalFile type string default <embedded>",
];

/// What changed, so the engine can act (resize the table, respawn thread state).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Change {
    /// Nothing the engine must act on.
    None,
    /// The table must be resized.
    Hash,
    /// The thread count changed.
    Threads,
    /// Clear the table.
    ClearHash,
    /// The book file changed: open it.
    BookFile,
    /// The network file changed: load it (or go back to the embedded network).
    EvalFile,
    /// `Use NNUE` or `UCI_LimitStrength` changed: the evaluation may be another one.
    Evaluation,
}

/// A spin option's value: a number within the range the option announced (`Threads 0` is
/// refused, not read as 1: the GUI is told the setting did not take).
fn spin(value: &str, min: u64, max: u64) -> Result<u64, String> {
    let v: u64 = value
        .trim()
        .parse()
        .map_err(|_| format!("expected a number, got '{value}'"))?;
    match (min..=max).contains(&v) {
        true => Ok(v),
        false => Err(format!("{v} is out of range {min} to {max}; unchanged")),
    }
}

fn check(value: &str) -> Result<bool, String> {
    match value.trim() {
        "true" => Ok(true),
        "false" => Ok(false),
        other => Err(format!("expected true or false, got '{other}'")),
    }
}

impl Options {
    /// Sets option `name` (case-insensitive, as UCI says) to `value`.
    ///
    /// ```
    /// use chessbits_engine::uci::options::{Change, Options};
    /// let mut o = Options::default();
    /// assert_eq!(o.set("hash", "64"), Ok(Change::Hash));
    /// assert_eq!(o.hash_mb, 64);
    /// assert!(o.set("Threads", "many").is_err());
    /// assert!(o.set("Threads", "0").is_err());
    /// assert_eq!(o.threads, 1);
    /// ```
    pub fn set(&mut self, name: &str, value: &str) -> Result<Change, String> {
        match name.to_ascii_lowercase().as_str() {
            "hash" => {
                self.hash_mb = spin(value, 1, 65536)? as usize;
                Ok(Change::Hash)
            }
            "threads" => {
                self.threads = spin(value, 1, 256)? as usize;
                Ok(Change::Threads)
            }
            "multipv" => {
                self.multipv = spin(value, 1, 256)? as usize;
                Ok(Change::None)
            }
            "move overhead" => {
                self.move_overhead = spin(value, 0, 5000)?;
                Ok(Change::None)
            }
            "ponder" => check(value).map(|_| Change::None),
            "uci_chess960" => {
                self.chess960 = check(value)?;
                Ok(Change::None)
            }
            "ownbook" => {
                self.own_book = check(value)?;
                Ok(Change::None)
            }
            "bookfile" => {
                self.set_book_file(value.as_bytes());
                Ok(Change::BookFile)
            }
            "clear hash" => Ok(Change::ClearHash),
            "uci_limitstrength" => {
                let limit = check(value)?;
                let changed = limit != self.limit_strength;
                self.limit_strength = limit;
                // A limited search evaluates with the hand-tuned evaluation.
                Ok(if changed { Change::Evaluation } else { Change::None })
            }
            "uci_elo" => {
                self.elo = spin(value, Strength::MIN_ELO.into(), Strength::MAX_ELO.into())? as u32;
                Ok(Change::None)
            }
            "use nnue" => {
                self.use_nnue = check(value)?;
                Ok(Change::Evaluation)
            }
            "evalfile" => {
                let value = value.trim();
                self.eval_file = if value.is_empty() || value == "<empty>" || value == "<embedded>" {
                    String::new()
                } else {
                    value.to_string()
                };
                Ok(Change::EvalFile)
            }
            other => Err(format!("unknown option '{other}'")),
        }
    }

    /// Sets `BookFile` from the bytes of its value as the GUI sent them, which need not be
    /// UTF-8 (a Latin-1 path): on Unix they are the path's bytes unchanged, elsewhere they are
    /// decoded lossily. Empty or `<empty>` means no book.
    ///
    /// ```
    /// use chessbits_engine::uci::options::Options;
    /// let mut o = Options::default();
    /// o.set_book_file(b"books/jos\xe9.bin");
    /// # #[cfg(unix)]
    /// assert_eq!(std::os::unix::ffi::OsStrExt::as_bytes(o.book_file.as_os_str()), b"books/jos\xe9.bin");
    /// o.set_book_file(b"<empty>");
    /// assert!(o.book_file.as_os_str().is_empty());
    /// ```
    pub fn set_book_file(&mut self, value: &[u8]) {
        self.book_file = if value == b"<empty>" {
            PathBuf::new()
        } else {
            path_from_bytes(value)
        };
    }
}

#[cfg(unix)]
fn path_from_bytes(bytes: &[u8]) -> PathBuf {
    use std::os::unix::ffi::OsStrExt;
    PathBuf::from(std::ffi::OsStr::from_bytes(bytes))
}

#[cfg(not(unix))]
fn path_from_bytes(bytes: &[u8]) -> PathBuf {
    PathBuf::from(String::from_utf8_lossy(bytes).into_owned())
}
