//! Rows of a Parquet export (`chessbits export`, crate [`chessbits_parquet`]) turned into the
//! index's rows, at the Arrow level: the local build and the Spark job both call
//! [`export_parts`] and [`export_records`], so the index they build is the same.
//!
//! # Numbering (the contract the Spark job relies on)
//!
//! The part files of an export are numbered in the byte order of their paths relative to the
//! export directory ([`export_parts`]). Row `r` of part `p` is game
//! `base + p.first_game + r`, where `base` is the number of games the index held before (0 for
//! a new index). **Every row has a number**: a row that cannot be indexed (moves that do not
//! decode, an impossible start position) still gets its `games` row, but no positions and no
//! explorer rows, and is reported as an error (`file:row R: reason`, `R` counted from 0).
//!
//! In the `games` table, a game of an export has `offset` = its row in the part file, `length`
//! and `line` 0; each part file is one source (format `parquet`).
//!
//! # From a row to a game
//!
//! The `GameRow` (players, ratings, result, date, speed, event, site, FEN) is made from the
//! tags the row holds, by the same function as for a PGN game, with the tags in the order
//! `Event`, `Site`, `Date`, `Round` (the first of `other_tags`), `White`, `Black`, `Result`, the
//! other tag columns, then `other_tags` in order; a tag stored as a number or a date is written
//! back as text (`WhiteElo` 1500 as `1500`, `UTCDate` as `YYYY.MM.DD`). The result falls back to
//! the movetext's result token (its last token) when no `Result` tag decides, as for PGN. A
//! tag stored as a number, date or time whose text is not the one written back (`[WhiteElo
//! "?"]`, `[UTCDate "2024.??.??"]`, `+1500`) is in `other_tags` as written (export version 2;
//! version 1 dropped or rewrote it), so the row is the PGN's.
//!
//! The moves come from `moves`, decoded in its code ([`MovesCode`], named by the field's or
//! the file's metadata [`MOVES_CODE_KEY`](chessbits_parquet::MOVES_CODE_KEY), or given) from
//! `start_fen` (Chess960 when `other_tags` has a `Variant` that names it); when `moves` is null
//! (a null move in the main line) or absent, the game is rebuilt as PGN (tags, then `movetext`) and read by the PGN reader, as a PGN build
//! reads it. Without a `movetext` column (the default) the result token is the `Result` tag's
//! or the one `annotations` holds (the default export, version 2, keeps the movetext there
//! whenever the columns do not give it back: a null move, a result token the tag does not
//! give, ...), a row with a null `moves` and neither column is an error, and the PGN text of a
//! row (`search --pgn`) is rebuilt from its columns
//! ([`chessbits_parquet::GameRow::to_pgn`]: equal to the input game).

use std::borrow::Cow;
use std::fs::{self, File};
use std::path::{Path, PathBuf};

use arrow_array::cast::AsArray;
use arrow_array::types::Int64Type;
use arrow_array::{Array, BinaryArray, PrimitiveArray, RecordBatch, StringArray};
use arrow_schema::DataType;
use chessbits::pgn::{GameResult, MainLineGame, MainLineReader, PgnReader};
use chessbits::position::{Position, Validation};
use chessbits::Move;
use chessbits_parquet::MovesCode;
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;

use super::export_tags::{cast_column, ExportTags};
use super::records::{game_records, row_from_tags, ExplorerRecord, ExplorerSink, KeySet, PositionRecord};
use super::{SourceFormat, SourceInfo};
use crate::error::IndexError;
use crate::model::game::GameRow;
use crate::model::{explorer, games, positions};

/// One part file of an export, as [`export_parts`] lists them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExportPart {
    /// The file: its absolute path, length and modification time; format `parquet`.
    pub info: SourceInfo,
    /// Its path relative to the export directory, `/`-separated (what the parts are sorted by).
    pub relative: String,
    /// Its rows (games), from its footer.
    pub rows: u64,
    /// The rows of the parts before it: its row `r` is game `base + first_game + r`.
    pub first_game: u64,
    /// The code of its `moves` column (from the field's or the file's metadata).
    pub moves_code: MovesCode,
}

/// The part files of the export in `dir`: every `*.parquet` file below it (Hive partition
/// directories `year=2024/month=03/` included; entries whose names start with `.` or `_`, such
/// as `_rejected.pgn` and temporary directories, skipped), sorted by their path relative to
/// `dir` (byte order), each with its row count and `first_game` (see the [module
/// documentation](self) for the numbering).
///
/// Errors: `dir` is not a directory or holds no part file, a part file is not a Parquet file
/// (damaged footer), or lacks the export's `plies` column or both `moves` and `movetext`.
///
/// ```
/// use chessbits_index::export_parts;
/// use chessbits_parquet::{ExportOptions, ParquetExporter};
/// let dir = tempfile::tempdir().unwrap();
/// let out = dir.path().join("export");
/// let mut exporter = ParquetExporter::create(&out, ExportOptions::default()).unwrap();
/// let source = exporter.add_source("games.pgn");
/// exporter.add_pgn(source, &b"1. e4 e5 1-0\n\n1. d4 d5 0-1\n"[..]).unwrap();
/// exporter.finish().unwrap();
/// let parts = export_parts(&out).unwrap();
/// assert_eq!(parts.len(), 1);
/// assert_eq!((parts[0].relative.as_str(), parts[0].rows, parts[0].first_game), ("part-0.parquet", 2, 0));
/// ```
pub fn export_parts(dir: &Path) -> Result<Vec<ExportPart>, IndexError> {
    let meta = fs::metadata(dir).map_err(|e| IndexError::io(dir, e))?;
    if !meta.is_dir() {
        return Err(IndexError::input(dir, "not a directory (a Parquet export is one)"));
    }
    // The order (and what counts as a part file) is chessbits-parquet's, which the PGN rebuild
    // (`ExportReader`) uses too.
    let files: Vec<(String, PathBuf)> = chessbits_parquet::part_files(dir)
        .map_err(|e| IndexError::io(dir, e))?
        .into_iter()
        .map(|part| (part.relative, part.path))
        .collect();
    if files.is_empty() {
        return Err(IndexError::input(
            dir,
            "no `*.parquet` file below it: not a Parquet export",
        ));
    }
    let mut parts = Vec::with_capacity(files.len());
    let mut first_game = 0u64;
    for (relative, path) in files {
        let file = File::open(&path).map_err(|e| IndexError::io(&path, e))?;
        let builder: ParquetRecordBatchReaderBuilder<File> =
            chessbits_parquet::footer::reader_builder(file).map_err(|e| IndexError::parquet(&path, e))?;
        let schema = builder.schema().clone();
        if schema.column_with_name("plies").is_none() {
            return Err(IndexError::input(
                &path,
                "no column `plies`: not a part file of a Parquet export (chessbits export)",
            ));
        }
        // The games are in `moves` or `movetext` (which issue 31 leaves out): one is needed.
        if schema.column_with_name("movetext").is_none() && schema.column_with_name("moves").is_none() {
            return Err(IndexError::input(
                &path,
                "no column `movetext` or `moves`: not a part file of a Parquet export (chessbits export)",
            ));
        }
        let moves_code = moves_code_of(&schema, &path)?.unwrap_or_default();
        let rows = u64::try_from(builder.metadata().file_metadata().num_rows())
            .map_err(|_| IndexError::input(&path, "a negative row count"))?;
        let mut info = SourceInfo::of_file(&path)?;
        info.format = SourceFormat::Parquet;
        parts.push(ExportPart {
            info,
            relative,
            rows,
            first_game,
            moves_code,
        });
        first_game += rows;
    }
    Ok(parts)
}

/// The code of a schema's `moves` column, named by the field's metadata or the schema's (the
/// file's key-value metadata: export version 4 has no field metadata); `None` when there is no
/// such column.
fn moves_code_of(schema: &arrow_schema::Schema, path: &Path) -> Result<Option<MovesCode>, IndexError> {
    if schema.field_with_name("moves").is_err() {
        return Ok(None);
    }
    chessbits_parquet::moves_code_of(schema)
        .map(Some)
        .map_err(|e| IndexError::input(path, e))
}

/// What [`export_records`] makes of a batch of export rows: three batches with the schemas of
/// the index's tables (`positions` without `solo`), and the errors.
#[derive(Clone, Debug)]
pub struct ExportRecords {
    /// One row per input row, in their order ([`crate::model::games::schema`]).
    pub games: RecordBatch,
    /// One row per position of every game's main line, unsorted, without the `solo` flag that
    /// the whole table decides ([`crate::model::positions::raw_schema`]).
    pub positions: RecordBatch,
    /// Unaggregated explorer rows ([`crate::model::explorer::schema`]): one per game and
    /// distinct position of a game with a decided result, its counts 0 or 1, `last_game` the
    /// game. Rows with equal `key`, `uci`, `speed`, `rating` and `month` add up (counts and
    /// `rating_sum` summed, `last_date`/`last_game` of the latest `(date, game)`; `last_date`
    /// compares as text: `YYYY.MM.DD`) to the index's rows, after which the keys whose rows
    /// total one game are left out (their `positions` row is `solo`).
    pub explorer: RecordBatch,
    /// The rows that could not be indexed, as `file:row R: reason`.
    pub errors: Vec<String>,
}

/// The index rows of export rows: `batch` holds rows of an export (any columns that include
/// `plies`; partition columns may be absent, and so may tags, which then count as missing, and
/// `movetext`, without which a row whose `moves` is null cannot be indexed), and for each row its game number (`game`), its source number (`source`) and its
/// row in its part file (`row`) (see the [module documentation](self)). `files[source]` names a
/// source in the error messages. `code` is the code of `moves`; `None` takes it from the field's
/// or the schema's metadata ([`MOVES_CODE_KEY`](chessbits_parquet::MOVES_CODE_KEY);
/// [`ExportPart::moves_code`] has it when the batch lost it).
///
/// A row that cannot be indexed gets its `games` row and an entry in `errors`; the error is for
/// a batch that is not one of an export (a missing or mistyped column, slices of other
/// lengths, a number out of range).
///
/// ```
/// use arrow_array::{Int32Array, RecordBatch, StringArray};
/// use arrow_schema::{DataType, Field, Schema};
/// use std::sync::Arc;
/// use chessbits_index::export_records;
/// // The columns a Spark job might pass on: moves and most tags left out.
/// let schema = Schema::new(vec![
///     Field::new("Result", DataType::Utf8, true),
///     Field::new("movetext", DataType::Utf8, false),
///     Field::new("plies", DataType::Int32, false),
/// ]);
/// let batch = RecordBatch::try_new(Arc::new(schema), vec![
///     Arc::new(StringArray::from(vec![Some("1-0"), None])),
///     Arc::new(StringArray::from(vec!["1. e4 e5 1-0", "1. e4 e4 *"])),
///     Arc::new(Int32Array::from(vec![2, 2])),
/// ]).unwrap();
/// let files = ["part-0.parquet".to_string()];
/// let out = export_records(&batch, &[7, 8], &[0, 0], &[0, 1], &files, None).unwrap();
/// assert_eq!(out.games.schema(), chessbits_index::model::games::schema());
/// assert_eq!(out.games.num_rows(), 2);
/// assert_eq!(out.positions.num_rows(), 3); // game 7's three positions; game 8 has none
/// assert_eq!(out.explorer.num_rows(), 3);
/// assert_eq!(out.errors, ["part-0.parquet:row 1: line 1: illegal move 'e4'"]);
/// ```
pub fn export_records(
    batch: &RecordBatch,
    game: &[i64],
    source: &[i32],
    row: &[i64],
    files: &[String],
    code: Option<MovesCode>,
) -> Result<ExportRecords, IndexError> {
    let n = batch.num_rows();
    let batch_path = Path::new("export batch");
    if game.len() != n || source.len() != n || row.len() != n {
        return Err(IndexError::input(
            batch_path,
            format!(
                "{n} rows, but {} game numbers, {} sources and {} row numbers",
                game.len(),
                source.len(),
                row.len()
            ),
        ));
    }
    let number = |what: &str, value: i64| {
        u32::try_from(value).map_err(|_| IndexError::input(batch_path, format!("{what} {value} out of range")))
    };
    let mut ids = Vec::with_capacity(n);
    for i in 0..n {
        ids.push(RowId {
            game: number("game", game[i])?,
            source: number("source", source[i] as i64)?,
            row: u64::try_from(row[i])
                .map_err(|_| IndexError::input(batch_path, format!("row {} out of range", row[i])))?,
        });
    }
    let name = |s: u32| files.get(s as usize).cloned().unwrap_or_else(|| format!("source {s}"));
    let rows = ExportRows::new(batch, batch_path, code)?;
    let parsed = rows.records(0, &ids, &name, true);
    Ok(ExportRecords {
        games: games::to_batch(&parsed.rows),
        positions: positions::to_raw_batch(&parsed.positions),
        explorer: explorer::to_batch(&parsed.explorer),
        errors: parsed.errors,
    })
}

/// A row's place: its game number, source and row in the part file.
#[derive(Copy, Clone, Debug)]
pub(crate) struct RowId {
    pub game: u32,
    pub source: u32,
    pub row: u64,
}

/// The records of some export rows.
#[derive(Default)]
pub(crate) struct RowRecords {
    pub rows: Vec<GameRow>,
    pub positions: Vec<PositionRecord>,
    pub explorer: Vec<ExplorerRecord>,
    pub errors: Vec<String>,
}

/// The columns of an export batch, in the types this module reads them in.
pub(crate) struct ExportRows {
    /// The tags: the tag columns the batch has and `other_tags`.
    tags: ExportTags,
    /// `None` when the batch has no `movetext` (see [`ExportRows::pgn`]).
    movetext: Option<StringArray>,
    /// `None` when the batch has no `annotations` (an export of version 1).
    annotations: Option<StringArray>,
    plies: PrimitiveArray<Int64Type>,
    moves: Option<BinaryArray>,
    start_fen: Option<StringArray>,
    code: MovesCode,
    /// The batch, for the rows rebuilt as PGN from their columns.
    batch: RecordBatch,
}

impl ExportRows {
    /// Reads the columns of `batch` (`path` names it in errors).
    pub(crate) fn new(batch: &RecordBatch, path: &Path, code: Option<MovesCode>) -> Result<ExportRows, IndexError> {
        let schema = batch.schema();
        let cast = |name: &str, to: &DataType| cast_column(batch, path, name, to);
        let text = |name: &str| -> Result<Option<StringArray>, IndexError> {
            Ok(cast(name, &DataType::Utf8)?.map(|a| a.as_string::<i32>().clone()))
        };
        let tags = ExportTags::new(batch, path)?;
        let missing = |name: &str| {
            IndexError::input(
                path,
                format!("no column `{name}`: not rows of a Parquet export (chessbits export)"),
            )
        };
        let movetext = text("movetext")?;
        let plies = cast("plies", &DataType::Int64)?.ok_or_else(|| missing("plies"))?;
        let moves = cast("moves", &DataType::Binary)?.map(|a| a.as_binary::<i32>().clone());
        if moves.is_none() && movetext.is_none() {
            return Err(missing("moves` or `movetext"));
        }
        let code = match code {
            Some(code) => code,
            None => moves_code_of(&schema, path)?.unwrap_or_default(),
        };
        Ok(ExportRows {
            tags,
            movetext,
            annotations: text("annotations")?,
            batch: batch.clone(),
            plies: plies.as_primitive::<Int64Type>().clone(),
            moves,
            start_fen: text("start_fen")?,
            code,
        })
    }

    /// The movetext of row `i`; `None` when the batch has no `movetext` column or the row's is
    /// null (a reader that fills a column the file lacks with nulls: Spark with a schema).
    pub(crate) fn movetext(&self, i: usize) -> Option<&str> {
        self.movetext.as_ref().and_then(|m| (!m.is_null(i)).then(|| m.value(i)))
    }

    /// The text of row `i` that ends with its movetext's result token: `movetext`, else
    /// `annotations` (which holds the movetext whenever its result token is not the `Result`
    /// tag's); `None` when the row has neither.
    fn result_text(&self, i: usize) -> Option<&str> {
        self.movetext(i).or_else(|| {
            self.annotations
                .as_ref()
                .and_then(|a| (!a.is_null(i)).then(|| a.value(i)))
        })
    }

    /// Row `i` as PGN text. An export of version 2 (with `annotations`) or without `movetext`:
    /// the game rebuilt from the row's columns by [`chessbits_parquet::GameRow::to_pgn`] (equal
    /// to the input game; a row that cannot be rebuilt gives its tags and `*`). A version-1
    /// export: its tags (in the order the module documentation gives), a blank line, the movetext.
    pub(crate) fn pgn(&self, i: usize) -> Vec<u8> {
        let movetext = match self.movetext(i) {
            Some(movetext) if self.annotations.is_none() => movetext,
            movetext => {
                let rebuilt = self.rebuilt_pgn(i);
                match (rebuilt, movetext) {
                    (Some(Ok(text)), _) => return text,
                    // Not rebuilt (no `moves` column, ...): the movetext is there.
                    (_, Some(movetext)) => movetext,
                    (Some(Err(text)), None) => return text,
                    (None, None) => return Vec::new(),
                }
            }
        };
        let mut out = Vec::new();
        for (name, value) in self.tags.row(i) {
            out.push(b'[');
            out.extend_from_slice(name.as_bytes());
            out.extend_from_slice(b" \"");
            for b in value.bytes() {
                if b == b'"' || b == b'\\' {
                    out.push(b'\\');
                }
                out.push(b);
            }
            out.extend_from_slice(b"\"]\n");
        }
        if !out.is_empty() {
            out.push(b'\n');
        }
        out.extend_from_slice(movetext.as_bytes());
        out.extend_from_slice(b"\n\n");
        out
    }

    /// Row `i` rebuilt from its columns (see [`pgn`](Self::pgn)): `Err` with its tags and `*`
    /// when they do not give the game; `None` when the row does not read.
    fn rebuilt_pgn(&self, i: usize) -> Option<Result<Vec<u8>, Vec<u8>>> {
        let rows = chessbits_parquet::rows_from_batch(&self.batch.slice(i, 1)).ok()?;
        let row = rows.first()?;
        Some(row.to_pgn(self.code).map_err(|_| row.to_pgn_with_movetext("*")))
    }

    /// The games and records of the rows from `first` on, one per id; `name` names a source
    /// in error messages; `with_explorer`: make the explorer records too (the build makes its
    /// own from the sorted positions records).
    pub(crate) fn records(
        &self,
        first: usize,
        ids: &[RowId],
        name: &(dyn Fn(u32) -> String + Sync),
        with_explorer: bool,
    ) -> RowRecords {
        let mut out = RowRecords::default();
        let mut seen = KeySet::default();
        let mut reader = MainLineReader::new();
        for (i, id) in (first..).zip(ids) {
            let tags = self.tags.row(i);
            let plies = self.plies.value(i);
            let (row, game) = match self.game(i, &tags, plies, &mut reader) {
                Ok((start, moves, result, coded)) => {
                    let tag_iter = tags.iter().map(|&(n, v)| (n.as_bytes(), Cow::Borrowed(v)));
                    (
                        row_from_tags(tag_iter, moves.len(), result, id.game),
                        Some((start, moves, coded)),
                    )
                }
                Err(reason) => {
                    out.errors.push(format!("{}:row {}: {reason}", name(id.source), id.row));
                    let tag_iter = tags.iter().map(|&(n, v)| (n.as_bytes(), Cow::Borrowed(v)));
                    let plies = usize::try_from(plies).unwrap_or(0);
                    let result = self.result_text(i).and_then(movetext_result).unwrap_or_default();
                    (row_from_tags(tag_iter, plies, result, id.game), None)
                }
            };
            let mut row = GameRow {
                source: id.source,
                offset: id.row,
                length: 0,
                line: 0,
                ..row
            };
            if let Some((start, moves, coded)) = game {
                let explorer = with_explorer.then_some(ExplorerSink {
                    records: &mut out.explorer,
                    seen: &mut seen,
                });
                game_records(&start, &moves, coded, &mut row, &mut out.positions, explorer);
            }
            out.rows.push(row);
        }
        out
    }

    /// Row `i`'s start position, main line and movetext result, and the entropy code of the
    /// main line when the row has it (its `moves` in [`MovesCode::Entropy`], which decoded to
    /// it), or why it has none.
    #[allow(clippy::type_complexity)]
    fn game(
        &self,
        i: usize,
        tags: &[(&str, &str)],
        plies: i64,
        reader: &mut MainLineReader,
    ) -> Result<(Position, Vec<Move>, GameResult, Option<&[u8]>), String> {
        let plies = usize::try_from(plies).map_err(|_| format!("a negative `plies` ({plies})"))?;
        match &self.moves {
            Some(moves) if !moves.is_null(i) => {
                let mut start = match self.start_fen.as_ref().filter(|f| !f.is_null(i)) {
                    Some(fen) => Position::from_fen_with(fen.value(i), Validation::Composed)
                        .map_err(|e| format!("start_fen '{}': {e}", fen.value(i)))?,
                    None => Position::startpos(),
                };
                let variant = tags.iter().rev().find(|(n, _)| *n == "Variant");
                if variant.is_some_and(|(_, v)| chessbits::pgn::is_chess960_variant(v)) {
                    start.set_chess960(true);
                }
                let bytes = moves.value(i);
                let line = self
                    .code
                    .decode(&start, bytes, plies)
                    .map_err(|e| format!("moves ({}): {e}", self.code))?;
                // The entropy decoder is canonical (the bytes of a game that decodes are what the
                // encoder writes for it): the index's replay of this line from this start is
                // these bytes, so the build need not encode the line again.
                let coded = (self.code == MovesCode::Entropy).then_some(bytes);
                Ok((
                    start,
                    line,
                    self.result_text(i).and_then(movetext_result).unwrap_or_default(),
                    coded,
                ))
            }
            _ if self.result_text(i).is_none() => {
                Err("no `moves` (a null move) and neither `movetext` nor `annotations`".to_string())
            }
            _ => {
                // No move code (a null move, or the column left out): the PGN reader reads it.
                let text = self.pgn(i);
                let game: MainLineGame = match PgnReader::new(&text[..]).read_game(reader) {
                    Ok(Some(Ok(game))) => game,
                    Ok(Some(Err(error))) => return Err(error.to_string()),
                    Ok(None) | Err(_) => return Err("no game in the movetext".to_string()),
                };
                let result = (game.start.clone(), game.moves.clone(), game.result, None);
                reader.recycle(game);
                Ok(result)
            }
        }
    }
}

/// The result token that ends a movetext, if its last token is one.
fn movetext_result(movetext: &str) -> Option<GameResult> {
    match movetext.split_ascii_whitespace().next_back()? {
        "1-0" => Some(GameResult::WhiteWins),
        "0-1" => Some(GameResult::BlackWins),
        "1/2-1/2" => Some(GameResult::Draw),
        "*" => Some(GameResult::Unknown),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_of_movetexts() {
        assert_eq!(movetext_result("1. e4 e5 1/2-1/2"), Some(GameResult::Draw));
        assert_eq!(movetext_result("1. e4 {1-0}"), None);
        assert_eq!(movetext_result(""), None);
    }

    /// Games whose rows are easy to get wrong: a FEN start, Chess960 castling, a null move,
    /// duplicate tags, a result only in the movetext, an undecided game, a partial date.
    const TRICKY: &str = "[Event \"a \\\"quoted\\\" event\"]\n[Site \"s\"]\n[Date \"2021.03.??\"]\n[White \"W\"]\n[Black \"B\"]\n[Result \"1-0\"]\n[WhiteElo \"1500\"]\n[BlackElo \"?\"]\n[TimeControl \"180+2\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 1-0\n\n\
        [Result \"*\"]\n[UTCDate \"2024.02.29\"]\n[WhiteElo \"2100\"]\n[BlackElo \"1900\"]\n[WhiteElo \"2200\"]\n\n1. d4 d5 2. c4 0-1\n\n\
        [Variant \"Chess960\"]\n[FEN \"1k5r/8/8/8/8/8/8/RK2R3 w AE - 0 1\"]\n[Result \"1/2-1/2\"]\n\n1. O-O Kc8 2. Rf7 Kb8 1/2-1/2\n\n\
        [Result \"0-1\"]\n\n1. e4 -- 2. d4 e5 0-1\n\n\
        [FEN \"4k3/8/8/8/8/8/8/4K2R w K - 0 1\"]\n[Result \"1-0\"]\n\n1. O-O Kd7 2. Rd1+ 1-0\n\n";

    /// The rows and records of the PGN games, as the PGN build makes them.
    fn pgn_records(pgn: &str) -> (Vec<GameRow>, Vec<PositionRecord>, Vec<ExplorerRecord>) {
        let mut reader = PgnReader::new(pgn.as_bytes());
        let mut main_line = MainLineReader::new();
        let (mut rows, mut positions, mut explorer) = (Vec::new(), Vec::new(), Vec::new());
        let mut seen = KeySet::default();
        while let Some(game) = reader.read_game(&mut main_line).unwrap() {
            let game = game.unwrap();
            let mut row = crate::build::records::game_row(&game, rows.len() as u32);
            let sink = ExplorerSink {
                records: &mut explorer,
                seen: &mut seen,
            };
            game_records(&game.start, &game.moves, None, &mut row, &mut positions, Some(sink));
            row.offset = rows.len() as u64;
            rows.push(row);
        }
        (rows, positions, explorer)
    }

    fn export(pgn: &str, code: MovesCode, dir: &Path) -> RecordBatch {
        // With `movetext`, so that a batch without `moves` still has the games.
        let options = chessbits_parquet::ExportOptions {
            moves_code: code,
            movetext: true,
            ..Default::default()
        };
        let mut exporter = chessbits_parquet::ParquetExporter::create(dir, options).unwrap();
        let source = exporter.add_source("tricky.pgn");
        exporter.add_pgn(source, pgn.as_bytes()).unwrap();
        let summary = exporter.finish().unwrap();
        assert_eq!(summary.rejected, 0);
        let parts = export_parts(dir).unwrap();
        assert_eq!(parts.len(), 1);
        assert_eq!(parts[0].moves_code, code);
        let file = File::open(&parts[0].info.path).unwrap();
        // With the file's schema metadata (the moves code, export version 4), as pyarrow's
        // batches have it: Arrow's Rust reader gives it to the builder's schema only.
        let builder = ParquetRecordBatchReaderBuilder::try_new(file).unwrap();
        let schema = builder.schema().clone();
        let reader = builder.build().unwrap();
        let batches: Vec<RecordBatch> = reader
            .map(|b| b.unwrap().with_schema(schema.clone()).unwrap())
            .collect();
        arrow_select_concat(&batches)
    }

    fn arrow_select_concat(batches: &[RecordBatch]) -> RecordBatch {
        assert_eq!(batches.len(), 1, "one batch for a few games");
        batches[0].clone()
    }

    #[test]
    fn export_rows_give_the_pgn_builds_rows_and_records() {
        let (rows, positions, explorer) = pgn_records(TRICKY);
        assert_eq!(rows.len(), 5);
        for code in MovesCode::ALL {
            let dir = tempfile::tempdir().unwrap();
            let batch = export(TRICKY, code, &dir.path().join("export"));
            let n = batch.num_rows();
            let games: Vec<i64> = (0..n as i64).collect();
            let out = export_records(&batch, &games, &vec![0; n], &games, &[], None).unwrap();
            assert!(out.errors.is_empty(), "{:?}", out.errors);
            assert_eq!(out.games, games::to_batch(&rows), "{code}");
            assert_eq!(out.positions, positions::to_raw_batch(&positions), "{code}");
            assert_eq!(out.explorer, explorer::to_batch(&explorer), "{code}");
            // Every column but `moves` gives the same too (the movetext is read instead).
            let keep: Vec<usize> = (0..batch.num_columns())
                .filter(|&i| batch.schema().field(i).name() != "moves")
                .collect();
            let without = batch.project(&keep).unwrap();
            let again = export_records(&without, &games, &vec![0; n], &games, &[], None).unwrap();
            assert_eq!(again.games, out.games);
            assert_eq!(again.positions, out.positions);
        }
    }

    /// The build's explorer records, made from the sorted positions records
    /// ([`ExplorerTally`](crate::build::records::ExplorerTally)), are the games' own explorer
    /// records (one per decided game and position, at its first ply there) summed per group,
    /// without the keys that one decided game reaches.
    #[test]
    fn the_tally_of_sorted_positions_sums_the_games_explorer_records() {
        use crate::build::records::ExplorerTally;
        use crate::model::top_games::GameKey;
        // Transpositions, repeated positions, undecided games, many games of one group.
        let mut pgn = String::from(TRICKY);
        for i in 0..300 {
            let result = ["1-0", "0-1", "1/2-1/2", "*"][i % 4];
            let line = match i % 3 {
                0 => "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. e4",
                1 => "1. e4 Nf6 2. Nf3 e5",
                _ => "1. e4 e5 2. Nf3 Nf6",
            };
            let elo = 1500 + 300 * (i % 2);
            let month = 1 + i % 2;
            pgn.push_str(&format!(
                "[Result \"{result}\"]\n[WhiteElo \"{elo}\"]\n[BlackElo \"{elo}\"]\n\
                 [UTCDate \"2020.{month:02}.01\"]\n[TimeControl \"{}+0\"]\n\n{line} {result}\n\n",
                60 * (1 + i % 2)
            ));
        }
        let (rows, mut positions, explorer) = pgn_records(&pgn);
        // The old way: every game's records, summed per group; keys of one decided game dropped.
        let mut want = explorer.clone();
        want.sort_by_key(|r| (r.group(), r.last_game));
        let mut summed: Vec<ExplorerRecord> = Vec::new();
        for r in want {
            match summed.last_mut() {
                Some(last) if last.group() == r.group() => last.absorb(&r),
                _ => summed.push(r),
            }
        }
        let games_at = |key: u128| explorer.iter().filter(|r| r.key == key).count();
        summed.retain(|r| games_at(r.key) >= 2);
        assert!(
            summed.iter().any(|r| r.white + r.draws + r.black > 50),
            "groups of many games"
        );
        assert!(
            explorer.iter().any(|r| games_at(r.key) == 1),
            "keys of one decided game"
        );
        // The build's way.
        positions.sort();
        let keys: Vec<GameKey> = rows.iter().map(GameKey::of).collect();
        let mut tally = ExplorerTally::new(&keys, 0);
        let mut got = Vec::new();
        let mut out = |r| {
            got.push(r);
            Ok(())
        };
        for &r in &positions {
            tally.push(r, &mut out).unwrap();
        }
        tally.end_key(&mut out).unwrap();
        assert_eq!(got, summed);
    }

    #[test]
    fn a_row_that_cannot_be_indexed_keeps_its_number() {
        let dir = tempfile::tempdir().unwrap();
        let batch = export(TRICKY, MovesCode::IndexByte, &dir.path().join("export"));
        // Garbage moves for row 1: an error for it, its games row all the same.
        let moves = batch.column_by_name("moves").unwrap().as_binary::<i32>();
        let damaged: BinaryArray = (0..batch.num_rows())
            .map(|i| match i {
                1 => Some(&[250u8, 250][..]),
                _ => (!moves.is_null(i)).then(|| moves.value(i)),
            })
            .collect();
        let index = batch.schema().index_of("moves").unwrap();
        let mut columns = batch.columns().to_vec();
        columns[index] = std::sync::Arc::new(damaged);
        let batch = RecordBatch::try_new(batch.schema(), columns).unwrap();
        let games = [10, 11, 12, 13, 14];
        let files = ["x.parquet".to_string()];
        let out = export_records(&batch, &games, &[0; 5], &[0, 1, 2, 3, 4], &files, None).unwrap();
        assert_eq!(out.games.num_rows(), 5);
        assert_eq!(out.errors.len(), 1);
        assert!(
            out.errors[0].starts_with("x.parquet:row 1: moves (index-byte): "),
            "{:?}",
            out.errors
        );
        let numbers = out
            .positions
            .column_by_name("game")
            .unwrap()
            .as_primitive::<Int64Type>();
        assert!(numbers.iter().all(|g| g != Some(11)));
        assert!(numbers.iter().any(|g| g == Some(12)));
        // A batch that is not one of an export: an error, not a panic.
        let other = batch.project(&[0]).unwrap();
        assert!(export_records(&other, &games, &[0; 5], &games, &files, None).is_err());
        assert!(export_records(&batch, &games[..2], &[0; 5], &games, &files, None).is_err());
    }

    #[test]
    fn rows_without_movetext_index_the_same_but_a_null_move() {
        let dir = tempfile::tempdir().unwrap();
        let batch = export(TRICKY, MovesCode::Entropy, &dir.path().join("export"));
        let n = batch.num_rows();
        let games: Vec<i64> = (0..n as i64).collect();
        let project = |drop: &[&str]| {
            let keep: Vec<usize> = (0..batch.num_columns())
                .filter(|&i| !drop.contains(&batch.schema().field(i).name().as_str()))
                .collect();
            batch.project(&keep).unwrap()
        };
        let files = ["p.parquet".to_string()];
        let full = export_records(&batch, &games, &vec![0; n], &games, &files, None).unwrap();
        // The default export (no `movetext`): row 3's null move is in `annotations`.
        let default = project(&["movetext"]);
        let out = export_records(&default, &games, &vec![0; n], &games, &files, None).unwrap();
        assert!(out.errors.is_empty(), "{:?}", out.errors);
        assert_eq!(
            (out.games.clone(), out.positions.clone()),
            (full.games.clone(), full.positions.clone())
        );
        let rows = ExportRows::new(&default, Path::new("p"), None).unwrap();
        assert_eq!(rows.pgn(3), b"[Result \"0-1\"]\n\n1. e4 -- 2. d4 e5 0-1\n\n");
        // Neither `movetext` nor `annotations`: row 3 cannot be read.
        let slim = project(&["movetext", "annotations"]);
        let out = export_records(&slim, &games, &vec![0; n], &games, &files, None).unwrap();
        // Row 3 holds a null move: only its movetext had the game.
        assert_eq!(out.errors.len(), 1, "{:?}", out.errors);
        assert!(
            out.errors[0].starts_with("p.parquet:row 3: no `moves`"),
            "{:?}",
            out.errors
        );
        assert_eq!(out.games.num_rows(), n);
        let count = |b: &RecordBatch, g: i64| {
            let column = b.column_by_name("game").unwrap().as_primitive::<Int64Type>();
            column.iter().filter(|&v| v == Some(g)).count()
        };
        for g in [0, 1, 2, 4] {
            assert_eq!(count(&out.positions, g), count(&full.positions, g), "game {g}");
        }
        assert_eq!(count(&out.positions, 3), 0);
        // The PGN text of a row comes from its columns: the same moves, the tags in the rebuild's
        // order.
        let rows = ExportRows::new(&slim, Path::new("p"), None).unwrap();
        let text = String::from_utf8(rows.pgn(0)).unwrap();
        assert!(
            text.starts_with("[Event \"a \\\"quoted\\\" event\"]\n[Site \"s\"]\n[Date \"2021.03.??\"]\n"),
            "{text}"
        );
        assert!(text.ends_with("1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 1-0\n\n"), "{text}");
        let null_move = String::from_utf8(rows.pgn(3)).unwrap();
        assert!(null_move.ends_with("\n\n*\n\n"), "{null_move}");
    }
}
