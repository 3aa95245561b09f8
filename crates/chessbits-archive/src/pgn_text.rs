//! Any game input as PGN text: [`open_pgn_text`] recognises gzip, zstd and `.cbits` archives by
//! their first bytes, and [`ArchivePgn`] writes an archive's games out as PGN, decoding its
//! blocks on every core. The CLI's inputs and the Python package's `read_pgn` both read through
//! here, so a file means the same to each.

use std::io::{self, Cursor, Read};
use std::panic::{self, AssertUnwindSafe};
use std::path::Path;
use std::sync::mpsc;

use chessbits::pgn::{decompress, read_full, WriteOptions};

use super::error::ArchiveError;
use super::format::MAGIC;
use super::reader::RawBlock;
use super::stream::BlockStream;

/// `raw` as PGN text, by its first bytes (never a name): gzip and zstd are decompressed
/// ([`decompress`], which also refuses UTF-16; without the core crate's `gzip`/`zstd` features
/// compressed input is its typed error), and a `.cbits` archive (its magic bytes, after any
/// decompression) gives its games' PGN as `chessbits unpack` writes them ([`ArchivePgn`]).
///
/// Errors: reading `raw`; an archive whose header is damaged or cut short is an error carrying
/// an [`ArchiveDamage`] ([`archive_damage`]).
///
/// ```
/// use std::io::Read;
/// use chessbits_archive::{open_pgn_text, ArchiveWriter, WriterOptions};
/// use chessbits::pgn::PgnReader;
///
/// let mut writer = ArchiveWriter::new(Vec::new(), WriterOptions::default()).unwrap();
/// for game in PgnReader::new(&b"[Event \"a\"]\n\n1. e4 e5 *\n"[..]).into_games() {
///     writer.add_game(&game.unwrap()).unwrap();
/// }
/// let archive = writer.finish().unwrap().0;
/// let mut text = String::new();
/// open_pgn_text(std::io::Cursor::new(archive)).unwrap().read_to_string(&mut text).unwrap();
/// assert!(text.starts_with("[Event \"a\"]") && text.contains("1. e4 e5 *"));
///
/// let mut plain = String::new();
/// open_pgn_text(&b"1. d4 *\n"[..]).unwrap().read_to_string(&mut plain).unwrap();
/// assert_eq!(plain, "1. d4 *\n");
/// ```
pub fn open_pgn_text<R: Read + Send + 'static>(raw: R) -> io::Result<Box<dyn Read + Send>> {
    let mut input = decompress(raw)?;
    let mut head = [0u8; MAGIC.len()];
    let len = read_full(&mut input, &mut head)?;
    let input = Cursor::new(head).take(len as u64).chain(input);
    // No PGN starts with the magic's first byte (0x89, not ASCII): a prefix of it is an archive
    // cut short, which BlockStream reports as such.
    if len > 0 && MAGIC.starts_with(&head[..len]) {
        let blocks = BlockStream::new(input).map_err(damage)?;
        return Ok(Box::new(ArchivePgn::new(blocks)));
    }
    Ok(Box::new(input))
}

/// Whether a file name ends in `.pgn`, `.pgn.gz`, `.pgn.zst` or `.cbits` (any case): the files
/// a directory of games stands for. (A file named on its own is read whatever its name.)
///
/// ```
/// use std::path::Path;
/// use chessbits_archive::is_pgn_name;
/// assert!(is_pgn_name(Path::new("db/2024.PGN.zst")) && is_pgn_name(Path::new("all.cbits")));
/// assert!(!is_pgn_name(Path::new("notes.txt")) && !is_pgn_name(Path::new("games.pgn.bak")));
/// ```
pub fn is_pgn_name(path: &Path) -> bool {
    let name = path.file_name().map(|n| n.to_string_lossy().to_ascii_lowercase());
    name.is_some_and(|name| {
        [".pgn", ".pgn.gz", ".pgn.zst", ".cbits"]
            .iter()
            .any(|ext| name.ends_with(ext))
    })
}

/// The games of a `.cbits` archive as PGN text, in archive order, as `chessbits unpack` writes
/// them ([`StoredGame::write_pgn`](crate::StoredGame::write_pgn) with the default options). A
/// thread reads and verifies the blocks ([`BlockStream`]) and hands each to the rayon pool to
/// decode and write out, so the blocks decode on every core while the text of the ones before
/// is read; at most a few blocks per core are in memory at once. A damaged block is a read
/// error carrying an [`ArchiveDamage`]: the games before it have been read, and reading ends
/// there.
pub struct ArchivePgn {
    /// Each block's text (or what is wrong with it), in archive order, as the decoders finish.
    blocks: mpsc::Receiver<mpsc::Receiver<Result<Vec<u8>, ArchiveError>>>,
    text: Vec<u8>,
    at: usize,
    ended: bool,
}

impl ArchivePgn {
    /// Starts reading the blocks of `blocks`.
    pub fn new<R: Read + Send + 'static>(blocks: BlockStream<R>) -> ArchivePgn {
        let (tx, rx) = mpsc::sync_channel(rayon::current_num_threads() + 1);
        std::thread::spawn(move || {
            for block in blocks {
                let (done_tx, done_rx) = mpsc::sync_channel(1);
                match block {
                    Ok(raw) => rayon::spawn(move || {
                        // A decoder bug must not abort the process (rayon's default for a
                        // panic in a spawned task; in Python, the interpreter): it is reported
                        // as damage of the block.
                        let text = panic::catch_unwind(AssertUnwindSafe(|| block_text(&raw))).unwrap_or_else(|_| {
                            Err(ArchiveError::CorruptPayload {
                                block: raw.info.number,
                                reason: "the decoder failed".to_string(),
                            })
                        });
                        let _ = done_tx.send(text);
                    }),
                    Err(error) => {
                        let _ = done_tx.send(Err(error));
                    }
                }
                // The reader is gone (its command stopped early): stop reading.
                if tx.send(done_rx).is_err() {
                    return;
                }
            }
        });
        ArchivePgn {
            blocks: rx,
            text: Vec::new(),
            at: 0,
            ended: false,
        }
    }

    /// Replaces the text with the next block's; false at the end of the archive (or after an
    /// error was returned).
    fn next_block(&mut self) -> io::Result<bool> {
        let next = match self.ended {
            true => None,
            false => self.blocks.recv().ok().and_then(|done| done.recv().ok()),
        };
        match next {
            None => {
                self.ended = true;
                Ok(false)
            }
            Some(Ok(text)) => {
                self.text = text;
                self.at = 0;
                Ok(true)
            }
            Some(Err(error)) => {
                self.ended = true;
                Err(damage(error))
            }
        }
    }
}

/// A block's games decoded and written as PGN.
fn block_text(raw: &RawBlock) -> Result<Vec<u8>, ArchiveError> {
    let options = WriteOptions::default();
    let mut text = Vec::new();
    for game in raw.decode()? {
        // Writing to a Vec cannot fail.
        let _ = game.write_pgn(&mut text, &options);
    }
    Ok(text)
}

impl Read for ArchivePgn {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        // A loop: a block of no games gives no text.
        while self.at == self.text.len() {
            if !self.next_block()? {
                return Ok(0);
            }
        }
        let n = buf.len().min(self.text.len() - self.at);
        buf[..n].copy_from_slice(&self.text[self.at..self.at + n]);
        self.at += n;
        Ok(n)
    }
}

/// An archive input that cannot be read on: what is wrong, naming the block (carried in the
/// [`io::Error`] that [`open_pgn_text`] or an [`ArchivePgn`] returns).
#[derive(Debug)]
pub struct ArchiveDamage(pub ArchiveError);

impl std::fmt::Display for ArchiveDamage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "damaged archive: {}", self.0)
    }
}

impl std::error::Error for ArchiveDamage {}

fn damage(error: ArchiveError) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, ArchiveDamage(error))
}

/// The archive damage `error` carries, if it is about a damaged archive (not the file system).
///
/// ```
/// use chessbits_archive::{archive_damage, open_pgn_text};
/// // An archive's magic bytes and nothing else: a header cut short.
/// let cut = chessbits_archive::MAGIC[..4].to_vec();
/// let error = open_pgn_text(std::io::Cursor::new(cut)).err().unwrap();
/// assert!(archive_damage(&error).is_some());
/// assert!(error.to_string().starts_with("damaged archive: "));
/// ```
pub fn archive_damage(error: &io::Error) -> Option<&ArchiveDamage> {
    error.get_ref().and_then(|e| e.downcast_ref::<ArchiveDamage>())
}
