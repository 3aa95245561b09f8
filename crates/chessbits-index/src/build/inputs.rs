//! Inputs besides PGN text: `.cbits` archives and Parquet exports, read in batches whose games
//! are replayed on the builder's pool, as PGN batches are.

use std::fs::File;
use std::io::BufReader;
use std::path::Path;

use chessbits::pgn::{MainLineReader, PgnReader, RawTag};
use chessbits::position::Position;
use chessbits::Move;
use chessbits_archive::{ArchiveReader, StoredGame};
use parquet::arrow::ProjectionMask;
use rayon::prelude::*;

use super::export_rows::{export_parts, ExportRows, RowId, RowRecords};
use super::records::{game_records, row_from_tags};
use super::{too_many_games, IndexBuilder, SourceFormat, SourceInfo, BATCH_GAMES, WRITE_ROWS};
use crate::error::IndexError;
use crate::model::game::GameRow;
use crate::model::sources::SourceRow;

/// Games per chunk handed to one thread.
const CHUNK_GAMES: usize = 64;

/// The export's columns the index does not read (not decoded).
const UNREAD_COLUMNS: [&str; 4] = ["clocks", "evals", "non_utf8", "latin1_fields"];

/// Whether the file at `path` is a `.cbits` archive: it starts with the archive's magic bytes
/// (whatever its name).
///
/// ```
/// let dir = tempfile::tempdir().unwrap();
/// let path = dir.path().join("games.pgn");
/// std::fs::write(&path, b"1. e4 *").unwrap();
/// assert!(!chessbits_index::build::is_archive(&path).unwrap());
/// ```
pub fn is_archive(path: &Path) -> Result<bool, IndexError> {
    chessbits_archive::is_archive_file(path).map_err(|e| IndexError::io(path, e))
}

/// Whether `path` is a directory holding a Parquet export: a `*.parquet` file below it (see
/// [`export_parts`]) and no PGN file (`.pgn`, `.pgn.gz`, `.pgn.zst`) outside the skipped
/// entries (names starting with `.` or `_`, such as `_rejected.pgn`):
/// [`chessbits_parquet::is_export_dir`], which the tool's other commands use too.
pub fn is_export_dir(path: &Path) -> bool {
    chessbits_parquet::is_export_dir(path)
}

impl IndexBuilder {
    /// Adds the games of the `.cbits` archive at `path`: blocks are decoded on `threads`
    /// threads and their games replayed on the pool. A game's `offset` in the `games` table is
    /// its number in the archive, and `search --pgn` prints it as `chessbits unpack` does. A
    /// game that cannot be read (one the archive kept as text because it did not read) is
    /// counted and reported (`file: game N: reason`, `N` from 0), as for PGN; a damaged archive
    /// (a block whose checksum fails, a truncated file) is an error. `progress` gets the bytes of
    /// the archive read so far.
    ///
    /// ```
    /// use chessbits_archive::{ArchiveWriter, WriterOptions};
    /// use chessbits_index::{BuildOptions, Index, IndexBuilder};
    /// let dir = tempfile::tempdir().unwrap();
    /// let archive = dir.path().join("games.cbits");
    /// let mut writer = ArchiveWriter::new(std::fs::File::create(&archive).unwrap(), WriterOptions::default()).unwrap();
    /// let game = chessbits::pgn::GameTree::from_pgn(b"[Result \"1-0\"]\n\n1. e4 e5 1-0").unwrap();
    /// writer.add_game(&game).unwrap();
    /// writer.finish().unwrap();
    /// let mut builder = IndexBuilder::create(&dir.path().join("index"), BuildOptions::default()).unwrap();
    /// builder.add_archive(&archive, &mut |_| {}).unwrap();
    /// assert_eq!(builder.finish().unwrap().positions, 3);
    /// ```
    pub fn add_archive(&mut self, path: &Path, progress: &mut dyn FnMut(u64)) -> Result<(), IndexError> {
        let mut info = SourceInfo::of_file(path)?;
        info.format = SourceFormat::Cbits;
        let file = File::open(path).map_err(|e| IndexError::io(path, e))?;
        let mut reader = ArchiveReader::open(BufReader::with_capacity(1 << 20, file))
            .map_err(|e| IndexError::input(path, format!("damaged archive: {e}")))?;
        let source = self.next_source();
        let first_game = self.next_game;
        let name = info.path.clone();
        // A block's bytes: up to the next block's header (the last: to the end of the file).
        let mut ends: Vec<u64> = reader.block_infos().iter().skip(1).map(|b| b.offset).collect();
        ends.push(reader.file_len());
        let threads = self.options.threads;
        reader.decode_blocks(threads, |block, games| {
            let games = games.map_err(|e| IndexError::input(path, format!("damaged archive: {e}")))?;
            let parsed = self.pool.install(|| {
                games
                    .par_iter()
                    .enumerate()
                    .map(|(i, game)| archive_game(game, &name, block.first_game + i as u64))
                    .collect::<Vec<_>>()
            });
            self.absorb_games(parsed, source)?;
            progress(ends.get(block.number as usize).copied().unwrap_or(0));
            Ok::<(), IndexError>(())
        })?;
        self.push_source(info, source, first_game);
        Ok(())
    }

    /// Adds the games of the Parquet export in the directory `dir` (`chessbits export`; see
    /// [`export_parts`] for which files and in what order): each part file is a source, every
    /// row a game (numbered even when it cannot be indexed; such a row is counted as an error
    /// and has no positions). `search --pgn` prints a game rebuilt from its row. `progress`
    /// gets the bytes of the export read so far.
    ///
    /// ```
    /// use chessbits_index::{BuildOptions, IndexBuilder};
    /// use chessbits_parquet::{ExportOptions, ParquetExporter};
    /// let dir = tempfile::tempdir().unwrap();
    /// let export = dir.path().join("export");
    /// let mut exporter = ParquetExporter::create(&export, ExportOptions::default()).unwrap();
    /// let source = exporter.add_source("games.pgn");
    /// exporter.add_pgn(source, &b"[Result \"1-0\"]\n\n1. e4 e5 1-0\n"[..]).unwrap();
    /// exporter.finish().unwrap();
    /// let mut builder = IndexBuilder::create(&dir.path().join("index"), BuildOptions::default()).unwrap();
    /// builder.add_export(&export, &mut |_| {}).unwrap();
    /// assert_eq!(builder.finish().unwrap().positions, 3);
    /// ```
    pub fn add_export(&mut self, dir: &Path, progress: &mut dyn FnMut(u64)) -> Result<(), IndexError> {
        let parts = export_parts(dir)?;
        let mut done = 0u64;
        for part in parts {
            let path = Path::new(&part.info.path).to_path_buf();
            let source = self.next_source();
            let first_game = self.next_game;
            if first_game + part.rows > u32::MAX as u64 + 1 {
                return Err(too_many_games(&self.out));
            }
            let file = File::open(&path).map_err(|e| IndexError::io(&path, e))?;
            let builder = chessbits_parquet::footer::reader_builder(file).map_err(|e| IndexError::parquet(&path, e))?;
            let roots: Vec<usize> = builder
                .schema()
                .fields()
                .iter()
                .enumerate()
                .filter(|(_, f)| !UNREAD_COLUMNS.contains(&f.name().as_str()))
                .map(|(i, _)| i)
                .collect();
            let mask = ProjectionMask::roots(builder.parquet_schema(), roots);
            let group_bytes: Vec<u64> = builder
                .metadata()
                .row_groups()
                .iter()
                .map(|g| g.compressed_size().max(0) as u64)
                .collect();
            let group_rows: Vec<u64> = builder
                .metadata()
                .row_groups()
                .iter()
                .map(|g| g.num_rows().max(0) as u64)
                .collect();
            let mut reader = builder
                .with_projection(mask)
                .with_batch_size(BATCH_GAMES)
                .build()
                .map_err(|e| IndexError::parquet(&path, e))?;
            let name = part.info.path.clone();
            let file_name = |_: u32| name.clone();
            let mut row = 0u64;
            // The `parquet` crate's page decoders panic on some crafted pages: an error here.
            let mut read_batch = || {
                chessbits_parquet::footer::without_panics("a page", || reader.next().transpose().map_err(Into::into))
                    .transpose()
            };
            let mut next = read_batch();
            while let Some(batch) = next.take() {
                let batch = batch.map_err(|e| IndexError::input(&path, format!("damaged Parquet file: {e}")))?;
                let rows = ExportRows::new(&batch, &path, Some(part.moves_code))?;
                let ids: Vec<RowId> = (0..batch.num_rows() as u64)
                    .map(|i| RowId {
                        game: (self.next_game + i) as u32,
                        source,
                        row: row + i,
                    })
                    .collect();
                // The next batch is read while this one is replayed.
                let mut parsed = Vec::new();
                let (rows, ids, file_name) = (&rows, &ids, &file_name);
                self.pool.in_place_scope(|scope| {
                    scope.spawn(|_| {
                        parsed = ids
                            .par_chunks(CHUNK_GAMES)
                            .enumerate()
                            .map(|(c, chunk)| rows.records(c * CHUNK_GAMES, chunk, file_name, false))
                            .collect::<Vec<_>>();
                    });
                    next = read_batch();
                });
                self.absorb_rows(parsed)?;
                row += batch.num_rows() as u64;
                // Progress by row groups finished.
                let mut seen = 0u64;
                let mut bytes = 0u64;
                for (rows, size) in group_rows.iter().zip(&group_bytes) {
                    seen += rows;
                    if seen > row {
                        break;
                    }
                    bytes += size;
                }
                progress(done + bytes);
            }
            if row != part.rows {
                return Err(IndexError::input(
                    &path,
                    format!("{row} rows read, the footer says {}", part.rows),
                ));
            }
            done += part.info.bytes;
            progress(done);
            self.push_source(part.info, source, first_game);
        }
        Ok(())
    }

    /// The number the next source gets.
    fn next_source(&self) -> u32 {
        self.base.as_ref().map_or(0, |(_, n)| *n) + self.sources.len() as u32
    }

    /// Records a source whose games were numbered from `first_game` on.
    fn push_source(&mut self, info: SourceInfo, source: u32, first_game: u64) {
        self.sources.push(SourceRow {
            source,
            path: info.path,
            format: info.format,
            bytes: info.bytes,
            modified: info.modified,
            games: self.next_game - first_game,
            first_game,
        });
    }

    /// Numbers the games read (those that could not be read are counted as errors and get no
    /// number), then makes their records on the pool.
    fn absorb_games(&mut self, games: Vec<Result<ReadGame, String>>, source: u32) -> Result<(), IndexError> {
        let mut ok = Vec::with_capacity(games.len());
        for game in games {
            match game {
                Ok(mut game) => {
                    let number = self.next_game + ok.len() as u64;
                    game.row.game = u32::try_from(number).map_err(|_| too_many_games(&self.out))?;
                    game.row.source = source;
                    ok.push(game);
                }
                Err(message) => self.error(message),
            }
        }
        let chunks = self.pool.install(|| {
            ok.par_chunks_mut(CHUNK_GAMES)
                .map(|chunk| {
                    let mut out = RowRecords::default();
                    for game in chunk {
                        game_records(&game.start, &game.moves, None, &mut game.row, &mut out.positions, None);
                        out.rows.push(game.row.clone());
                    }
                    out
                })
                .collect::<Vec<_>>()
        });
        self.absorb_rows(chunks)
    }

    /// Takes chunks of numbered games (in order) with their records and errors.
    fn absorb_rows(&mut self, chunks: Vec<RowRecords>) -> Result<(), IndexError> {
        for mut chunk in chunks {
            for message in chunk.errors.drain(..) {
                self.error(message);
            }
            self.next_game += chunk.rows.len() as u64;
            self.game_rows.append(&mut chunk.rows);
            self.sort_records(&mut chunk.positions)?;
        }
        if self.game_rows.len() >= WRITE_ROWS {
            self.flush_games()?;
        }
        Ok(())
    }
}

/// A game read from an archive, not numbered yet.
struct ReadGame {
    row: GameRow,
    start: Position,
    moves: Vec<Move>,
}

/// Game `n` of the archive `name`: its row (source and number to be filled) and main line.
fn archive_game(game: &StoredGame, name: &str, n: u64) -> Result<ReadGame, String> {
    let mut read = match game {
        StoredGame::Game(tree) => {
            let tags = tree.tags.iter().map(|t| (t.name(), RawTag(t.raw_value()).decode()));
            let moves: Vec<Move> = tree.mainline().collect();
            let row = row_from_tags(tags, moves.len(), tree.result, 0);
            ReadGame {
                row,
                start: tree.start.clone(),
                moves,
            }
        }
        StoredGame::Text(text) => {
            // Kept as text because it did not read as a game: read it as the PGN path would.
            let mut reader = MainLineReader::new();
            match PgnReader::new(&text[..]).read_game(&mut reader) {
                Ok(Some(Ok(game))) => ReadGame {
                    row: super::records::game_row(&game, 0),
                    start: game.start.clone(),
                    moves: game.moves.clone(),
                },
                Ok(Some(Err(error))) => return Err(format!("{name}: game {n}: {error}")),
                Ok(None) | Err(_) => return Err(format!("{name}: game {n}: unreadable game")),
            }
        }
    };
    read.row.offset = n;
    read.row.length = 0;
    read.row.line = 0;
    Ok(read)
}
