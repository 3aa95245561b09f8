//! A game's PGN text read back from its source file, byte for byte.

use std::fs::{self, File};
use std::io::{self, Read};
use std::path::Path;

use crate::build::source_modified;
use crate::error::IndexError;
use crate::model::game::GameRow;
use crate::model::sources::SourceRow;

/// The bytes of `row`'s game in `source`: the file is checked against the length and the
/// modification time it had when indexed, then read (decompressed) up to the game.
pub(crate) fn read_game_text(source: &SourceRow, row: &GameRow) -> Result<Vec<u8>, IndexError> {
    let path = Path::new(&source.path);
    let changed = |reason: String| IndexError::SourceChanged {
        path: path.to_path_buf(),
        reason,
    };
    if source.modified.is_none() && source.bytes == 0 {
        return Err(changed(
            "it was read as a stream (standard input), not a file".to_string(),
        ));
    }
    let meta = fs::metadata(path).map_err(|e| IndexError::io(path, e))?;
    if meta.len() != source.bytes {
        return Err(changed(format!("{} bytes, {} when indexed", meta.len(), source.bytes)));
    }
    if source.modified.is_some() && source_modified(&meta) != source.modified {
        return Err(changed("modified since".to_string()));
    }
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
