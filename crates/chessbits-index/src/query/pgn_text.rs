//! A game's PGN text read back from its source: the bytes of a PGN file, the game of an archive
//! as `chessbits unpack` writes it, or the row of an export rebuilt as PGN.

use std::fs::File;
use std::io::{self, BufReader, Read};
use std::path::Path;

use chessbits::pgn::WriteOptions;
use chessbits_archive::ArchiveReader;
use parquet::arrow::arrow_reader::{ParquetRecordBatchReaderBuilder, RowSelection, RowSelector};

use crate::build::{check_unchanged, ExportRows, SourceFormat};
use crate::error::IndexError;
use crate::model::game::GameRow;
use crate::model::sources::SourceRow;

/// The text of `row`'s game in `source`, once the file is checked against the length and the
/// modification time it had when indexed:
///
/// - PGN: the game's bytes, byte for byte (the file read, decompressed, up to the game);
/// - `.cbits`: the archive's game written as `chessbits unpack` writes it (the archive is
///   lossless: tags, comments, variations and NAGs as they were);
/// - Parquet export: the row rebuilt as PGN from its columns
///   ([`chessbits_parquet::GameRow::to_pgn`]; a version-1 export: its tags, a blank line, its
///   `movetext`): not the original bytes, but the same game (tags, moves, comments, NAGs,
///   variations, result).
pub(crate) fn read_game_text(source: &SourceRow, row: &GameRow) -> Result<Vec<u8>, IndexError> {
    check_unchanged(source)?;
    let path = Path::new(&source.path);
    match source.format {
        SourceFormat::Pgn => pgn_bytes(path, row),
        SourceFormat::Cbits => archive_game(path, row.offset),
        SourceFormat::Parquet => export_row(path, row.offset),
    }
}

fn pgn_bytes(path: &Path, row: &GameRow) -> Result<Vec<u8>, IndexError> {
    let changed = |reason: String| IndexError::SourceChanged {
        path: path.to_path_buf(),
        reason,
    };
    let file = File::open(path).map_err(|e| IndexError::io(path, e))?;
    let mut input = chessbits::pgn::decompress(file).map_err(|e| IndexError::io(path, e))?;
    let skipped = io::copy(&mut (&mut input).take(row.offset), &mut io::sink()).map_err(|e| IndexError::io(path, e))?;
    let mut text = Vec::with_capacity(row.length as usize);
    (&mut input)
        .take(row.length as u64)
        .read_to_end(&mut text)
        .map_err(|e| IndexError::io(path, e))?;
    if skipped != row.offset || text.len() != row.length as usize {
        return Err(changed("it ends before the game".to_string()));
    }
    Ok(text)
}

/// Game `n` of an archive, in the PGN writer's export format (what `chessbits unpack` writes).
fn archive_game(path: &Path, n: u64) -> Result<Vec<u8>, IndexError> {
    let file = File::open(path).map_err(|e| IndexError::io(path, e))?;
    let mut reader = ArchiveReader::open(BufReader::new(file)).map_err(|e| IndexError::input(path, e.to_string()))?;
    let game = reader.game(n).map_err(|e| IndexError::input(path, e.to_string()))?;
    let mut text = Vec::new();
    // Writing to a Vec cannot fail.
    let _ = game.write_pgn(&mut text, &WriteOptions::default());
    Ok(text)
}

/// Row `n` of an export's part file, rebuilt as PGN.
fn export_row(path: &Path, n: u64) -> Result<Vec<u8>, IndexError> {
    let file = File::open(path).map_err(|e| IndexError::io(path, e))?;
    let builder = ParquetRecordBatchReaderBuilder::try_new(file).map_err(|e| IndexError::parquet(path, e))?;
    // The code the file names, from the builder's schema: the batches do not carry the file's
    // key-value metadata, where export version 4 names it.
    let code = chessbits_parquet::moves_code_of(builder.schema()).map_err(|e| IndexError::input(path, e))?;
    // Only the row group that holds the row is read, and of it only the row.
    let mut first = 0u64;
    let mut group = None;
    for (i, rg) in builder.metadata().row_groups().iter().enumerate() {
        let rows = rg.num_rows().max(0) as u64;
        if n < first + rows {
            group = Some((i, (n - first) as usize));
            break;
        }
        first += rows;
    }
    let Some((group, skip)) = group else {
        return Err(IndexError::SourceChanged {
            path: path.to_path_buf(),
            reason: format!("it has no row {n}"),
        });
    };
    let selection = RowSelection::from(vec![RowSelector::skip(skip), RowSelector::select(1)]);
    let reader = builder
        .with_row_groups(vec![group])
        .with_row_selection(selection)
        .build()
        .map_err(|e| IndexError::parquet(path, e))?;
    for batch in reader {
        let batch = batch.map_err(|e| IndexError::input(path, e.to_string()))?;
        if batch.num_rows() > 0 {
            // The code the file names: the rebuild decodes the moves (export version 3 writes
            // the main line's moves in `annotations` as marks against them).
            return Ok(ExportRows::new(&batch, path, Some(code))?.pgn(0));
        }
    }
    Err(IndexError::SourceChanged {
        path: path.to_path_buf(),
        reason: format!("it has no row {n}"),
    })
}
