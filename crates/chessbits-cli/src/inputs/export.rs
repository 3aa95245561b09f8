//! A Parquet export directory (`chessbits export`) as an input: its games' PGN rebuilt from
//! their columns ([`chessbits_parquet::ExportReader`]), read like a PGN file.

use std::fmt;
use std::io::{self, Read};
use std::path::Path;

use chessbits_parquet::{ExportReader, RebuildError};
use indicatif::ProgressBar;

/// Whether `path` (as given on the command line) is read as an export: a directory holding
/// `*.parquet` files and no PGN file ([`chessbits_parquet::is_export_dir`]).
pub fn is_export_input(path: &Path) -> bool {
    path.as_os_str() != "-" && chessbits_parquet::is_export_dir(path)
}

/// The bytes of an export's part files (what a progress bar counts for it).
pub fn export_len(dir: &Path) -> u64 {
    let parts = chessbits_parquet::part_files(dir).unwrap_or_default();
    parts
        .iter()
        .map(|p| std::fs::metadata(&p.path).map_or(0, |m| m.len()))
        .sum()
}

/// A row of an export whose game cannot be read back, or a part file that cannot be read:
/// carried in the [`io::Error`] an [`ExportPgn`] returns, so that the message names the part file
/// and row rather than a line of the rebuilt text.
#[derive(Debug)]
pub struct ExportInputError(pub String);

impl fmt::Display for ExportInputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ExportInputError {}

/// The games of an export directory as PGN text, in the order of its part files and rows (the
/// order the index numbers them in), each as [`chessbits_parquet::GameRow::to_pgn`] rebuilds it.
/// A row that cannot be rebuilt (see [`RebuildError`]) or a part file that cannot be read is a
/// read error ([`ExportInputError`]): the games before it have been read.
pub struct ExportPgn {
    reader: ExportReader,
    /// Each part file's length, and the parts already counted on the bar.
    part_lens: Vec<u64>,
    counted: usize,
    bar: ProgressBar,
    text: Vec<u8>,
    at: usize,
    ended: bool,
}

impl ExportPgn {
    /// Opens the export in `dir`, advancing `bar` by each part file's length as it is read.
    pub fn open(dir: &Path, bar: &ProgressBar) -> Result<ExportPgn, String> {
        let reader = ExportReader::open(dir).map_err(|e| e.to_string())?;
        let part_lens = reader
            .parts()
            .iter()
            .map(|p| std::fs::metadata(&p.path).map_or(0, |m| m.len()))
            .collect();
        Ok(ExportPgn {
            reader,
            part_lens,
            counted: 0,
            bar: bar.clone(),
            text: Vec::new(),
            at: 0,
            ended: false,
        })
    }

    /// Counts the parts before `part` (all of them with `None`) on the bar.
    fn count_parts(&mut self, part: Option<usize>) {
        let upto = part.unwrap_or(self.part_lens.len()).min(self.part_lens.len());
        while self.counted < upto {
            self.bar.inc(self.part_lens[self.counted]);
            self.counted += 1;
        }
    }

    /// Replaces the text with the next game's; false at the end of the export.
    fn next_game(&mut self) -> io::Result<bool> {
        if self.ended {
            return Ok(false);
        }
        let failed = |message: String| io::Error::new(io::ErrorKind::InvalidData, ExportInputError(message));
        match self.reader.next() {
            None => {
                self.ended = true;
                self.count_parts(None);
                Ok(false)
            }
            Some(Err(error)) => {
                self.ended = true;
                Err(failed(error.to_string()))
            }
            Some(Ok(game)) => {
                self.count_parts(Some(game.part));
                match game.pgn {
                    Ok(text) => {
                        self.text = text;
                        self.at = 0;
                        Ok(true)
                    }
                    Err(error) => {
                        self.ended = true;
                        let part = &self.reader.parts()[game.part].relative;
                        Err(failed(row_error(part, game.row, &error)))
                    }
                }
            }
        }
    }
}

/// `part:row R: reason` (rows counted from 0, as the index's errors say).
fn row_error(part: &str, row: u64, error: &RebuildError) -> String {
    format!("{part}:row {row}: {error}")
}

impl Read for ExportPgn {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        while self.at == self.text.len() {
            if !self.next_game()? {
                return Ok(0);
            }
        }
        let n = buf.len().min(self.text.len() - self.at);
        buf[..n].copy_from_slice(&self.text[self.at..self.at + n]);
        self.at += n;
        Ok(n)
    }
}
