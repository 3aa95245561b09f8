//! `chessbits pgn convert EXPORT_DIR`: the games of a Parquet export rewritten without reading
//! their rebuilt text back where that changes nothing.
//!
//! Reading an export as PGN ([`crate::inputs::open_input`]) rebuilds each game's text on every
//! core; `convert` would then read that text back on one thread and write it again. A game
//! written from its row's columns alone ([`ExportGame::from_columns`]) is already what the
//! writer writes with the default options, so with those options its text is copied as it is;
//! any other game (rebuilt from `annotations`), or every game with other options, is read back
//! and written again as before. The output, the error messages (`dir:line: reason`, the line
//! in the rebuilt text) and the counts are those of reading the rebuilt text as one stream.

use std::io::Write;
use std::path::Path;

use chessbits::pgn::{PgnError, PgnReader, WriteOptions};
use chessbits_parquet::{ExportGame, ExportReader};

use crate::output::write_error;
use crate::pgn_cmd::ConvertSummary;

/// Writes every game of the export in `dir` to `out` (named `out_name` in messages) with
/// `options`; each game that does not read is skipped and reported to `errors` as
/// `dir:line: reason`. A row that cannot be rebuilt, or a part file that cannot be read,
/// ends the conversion with an error (the games before it written).
pub fn convert_export(
    dir: &Path,
    options: &WriteOptions,
    out: &mut dyn Write,
    out_name: &str,
    errors: &mut dyn Write,
) -> Result<ConvertSummary, String> {
    let name = dir.display().to_string();
    let reader = ExportReader::open(dir).map_err(|e| e.to_string())?;
    let parts: Vec<String> = reader.parts().iter().map(|p| p.relative.clone()).collect();
    let copy_as_is = *options == WriteOptions::default();
    let mut summary = ConvertSummary::default();
    // Lines of the rebuilt text before the current game.
    let mut lines: u64 = 0;
    for game in reader {
        let ExportGame {
            part,
            row,
            pgn,
            from_columns,
        } = game.map_err(|e| format!("{name}: read error: {e}"))?;
        let text = pgn.map_err(|e| {
            let part = &parts[part];
            format!("{name}: read error: {part}:row {row}: {e}")
        })?;
        if copy_as_is && from_columns {
            out.write_all(&text).map_err(|e| write_error(out_name, e))?;
            summary.games += 1;
        } else {
            for game in PgnReader::new(&text[..]).into_games() {
                match game {
                    Ok(game) => {
                        game.write_pgn(out, options).map_err(|e| write_error(out_name, e))?;
                        summary.games += 1;
                    }
                    Err(PgnError::Game(error)) => {
                        let line = lines + u64::from(error.line);
                        writeln!(errors, "{name}:{line}: {}", error.kind).map_err(|e| format!("stderr: {e}"))?;
                        summary.errors += 1;
                    }
                    Err(e) => return Err(format!("{name}: {e}")),
                }
            }
        }
        lines += text.iter().filter(|&&b| b == b'\n').count() as u64;
    }
    out.flush().map_err(|e| write_error(out_name, e))?;
    Ok(summary)
}
