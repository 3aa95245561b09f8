//! Reading an export back: Arrow batches to [`GameRow`]s ([`rows_from_batch`]), and every game of
//! an export directory rebuilt as PGN ([`ExportReader`]).

use core::fmt;
use std::fs::File;
use std::io;
use std::path::{Path, PathBuf};

use arrow_array::cast::AsArray;
use arrow_array::types::{Date32Type, Int16Type, Int32Type};
use arrow_array::{Array, ArrayRef, RecordBatch};
use arrow_schema::{DataType, Field, Schema};
use parquet::arrow::arrow_reader::{ParquetRecordBatchReader, RowSelection};
use parquet::arrow::ProjectionMask;
use rayon::prelude::*;

use parquet::file::metadata::KeyValue;

use crate::moves_code::{MovesCode, MOVES_CODE_KEY};
use crate::parts::{part_files, PartFile};
use crate::rebuild::RebuildError;
use crate::row::{parse_time, GameRow};
use crate::{EXPORT_VERSION, EXPORT_VERSION_KEY};

/// Why an export (or a batch of its rows) cannot be read.
#[derive(Debug)]
pub enum ReadError {
    /// Listing the directory or opening a file.
    Io(io::Error),
    /// A part file that is not Parquet, or is damaged.
    Parquet {
        /// The file.
        path: PathBuf,
        /// The reader's error.
        error: parquet::errors::ParquetError,
    },
    /// An export of a schema version this reader does not know (a newer chessbits wrote it):
    /// see [`export_version`].
    Version {
        /// The part file.
        path: PathBuf,
        /// The version the file's metadata names ([`EXPORT_VERSION_KEY`]).
        version: String,
    },
    /// Something that is not an export: a directory with no part file, a file without the
    /// `plies` column or without both `moves` and `movetext`, a column of another type, a
    /// `moves` field that names no known code.
    NotExport {
        /// The directory or file.
        path: PathBuf,
        /// What is wrong.
        reason: String,
    },
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReadError::Io(e) => e.fmt(f),
            ReadError::Parquet { path, error } => write!(f, "{}: {error}", path.display()),
            ReadError::NotExport { path, reason } => write!(f, "{}: {reason}", path.display()),
            ReadError::Version { path, version } => write!(
                f,
                "{}: an export of version {version}, which needs a chessbits that reads export version {version} \
                 (this one reads versions 1 to {EXPORT_VERSION})",
                path.display()
            ),
        }
    }
}

impl std::error::Error for ReadError {}

/// The schema version of an export's part file from its key-value metadata
/// ([`EXPORT_VERSION_KEY`]): 1 when the entry is absent (the exports before it), the version
/// when this crate reads it (1 to [`EXPORT_VERSION`]), else `Err` with the version named (a
/// newer chessbits wrote the file: [`ReadError::Version`] says so).
///
/// ```
/// use chessbits_parquet::{export_version, EXPORT_VERSION_KEY};
/// use parquet::file::metadata::KeyValue;
/// assert_eq!(export_version(None), Ok(1));
/// let kv = vec![KeyValue::new(EXPORT_VERSION_KEY.to_string(), "2".to_string())];
/// assert_eq!(export_version(Some(&kv)), Ok(2));
/// let kv = vec![KeyValue::new(EXPORT_VERSION_KEY.to_string(), "5".to_string())];
/// assert_eq!(export_version(Some(&kv)), Err("5".to_string()));
/// ```
pub fn export_version(key_value_metadata: Option<&Vec<KeyValue>>) -> Result<u32, String> {
    let entry = key_value_metadata
        .into_iter()
        .flatten()
        .find(|kv| kv.key == EXPORT_VERSION_KEY);
    let Some(entry) = entry else { return Ok(1) };
    let text = entry.value.clone().unwrap_or_default();
    match text.trim().parse::<u32>() {
        Ok(v) if (1..=EXPORT_VERSION).contains(&v) => Ok(v),
        _ => Err(text),
    }
}

/// The code of a schema's `moves` column ([`MOVES_CODE_KEY`]): named by the field's metadata
/// (export versions 1 to 3, from the embedded Arrow schema), else by the schema's (the file's
/// key-value metadata, which Arrow's Parquet readers put there: version 4 has only that); the
/// default code when the schema has no `moves` column (no row then has moves).
///
/// ```
/// use std::collections::HashMap;
/// use arrow_schema::{DataType, Field, Schema};
/// use chessbits_parquet::{moves_code_of, schema_with, MovesCode, MOVES_CODE_KEY};
/// assert_eq!(moves_code_of(&schema_with(MovesCode::IndexByte)), Ok(MovesCode::IndexByte));
/// let file_level = HashMap::from([(MOVES_CODE_KEY.to_string(), "index-byte".to_string())]);
/// let schema = Schema::new(vec![Field::new("moves", DataType::Binary, true)]);
/// assert!(moves_code_of(&schema).is_err());
/// assert_eq!(moves_code_of(&schema.with_metadata(file_level)), Ok(MovesCode::IndexByte));
/// ```
pub fn moves_code_of(schema: &Schema) -> Result<MovesCode, String> {
    let Ok(field) = schema.field_with_name("moves") else {
        return Ok(MovesCode::default());
    };
    match field
        .metadata()
        .get(MOVES_CODE_KEY)
        .or_else(|| schema.metadata().get(MOVES_CODE_KEY))
    {
        Some(name) => name.parse::<MovesCode>().map_err(|e| format!("column `moves`: {e}")),
        None => Err(format!(
            "column `moves` does not name its code (field or file metadata `{MOVES_CODE_KEY}`)"
        )),
    }
}

/// The rows of a batch of an export: [`rows_to_batch`](crate::rows_to_batch) undone. A column
/// the batch lacks reads as null (empty for `movetext`, `other_tags` and `latin1_fields`,
/// false for `non_utf8`), except `plies`, which every row needs; a column of another type than
/// the [schema](crate::schema)'s (or one Arrow casts to it: `large_utf8`, `int64`, ...) is an
/// error naming it. `partition_date` is left unset.
///
/// ```
/// use chessbits::pgn::PgnReader;
/// use chessbits_parquet::{rows_from_batch, rows_to_batch, GameRow};
/// let pgn = b"[White \"Ann\"]\n[UTCTime \"1:2:3\"]\n\n1. e4 { [%clk 0:03:00] } e5 *";
/// let game = PgnReader::new(&pgn[..]).read_owned_game().unwrap().unwrap().unwrap();
/// let row = GameRow::from_game(&game, b"1. e4 { [%clk 0:03:00] } e5 *");
/// let back = rows_from_batch(&rows_to_batch(&[row.clone()]).unwrap()).unwrap();
/// // The default schema has no `movetext`.
/// assert_eq!(back, [GameRow { movetext: String::new(), ..row }]);
/// ```
pub fn rows_from_batch(batch: &RecordBatch) -> Result<Vec<GameRow>, String> {
    let n = batch.num_rows();
    let cast = |name: &str, to: &DataType| -> Result<Option<ArrayRef>, String> {
        batch
            .column_by_name(name)
            .map(|c| arrow_cast::cast(c, to).map_err(|e| format!("column `{name}`: {e}")))
            .transpose()
    };
    let texts = |name: &str| -> Result<Vec<Option<String>>, String> {
        Ok(match cast(name, &DataType::Utf8)? {
            Some(a) => a.as_string::<i32>().iter().map(|v| v.map(str::to_string)).collect(),
            None => vec![None; n],
        })
    };
    let int16s = |name: &str| -> Result<Vec<Option<i16>>, String> {
        Ok(match cast(name, &DataType::Int16)? {
            Some(a) => a.as_primitive::<Int16Type>().iter().collect(),
            None => vec![None; n],
        })
    };
    let lists = |name: &str| -> Result<Vec<Option<Vec<Option<i32>>>>, String> {
        let item = Field::new("item", DataType::Int32, true);
        Ok(match cast(name, &DataType::List(item.into()))? {
            Some(a) => a
                .as_list::<i32>()
                .iter()
                .map(|l| l.map(|l| l.as_primitive::<Int32Type>().iter().collect()))
                .collect(),
            None => vec![None; n],
        })
    };
    let plies = cast("plies", &DataType::Int32)?.ok_or("no column `plies`: not rows of an export")?;
    let plies = plies.as_primitive::<Int32Type>();
    let utc_date: Vec<Option<i32>> = match cast("UTCDate", &DataType::Date32)? {
        Some(a) => a.as_primitive::<Date32Type>().iter().collect(),
        None => vec![None; n],
    };
    let moves: Vec<Option<Vec<u8>>> = match cast("moves", &DataType::Binary)? {
        Some(a) => a.as_binary::<i32>().iter().map(|v| v.map(<[u8]>::to_vec)).collect(),
        None => vec![None; n],
    };
    let non_utf8: Vec<bool> = match cast("non_utf8", &DataType::Boolean)? {
        Some(a) => a.as_boolean().iter().map(|v| v.unwrap_or(false)).collect(),
        None => vec![false; n],
    };
    let latin1 = cast("latin1_fields", &DataType::List(crate::name_item()))?;
    let other_tags = match batch.column_by_name("other_tags") {
        None => None,
        Some(column) => {
            let map = column
                .as_map_opt()
                .ok_or_else(|| format!("column `other_tags`: a {} where a map was expected", column.data_type()))?;
            let text =
                |a: &ArrayRef| arrow_cast::cast(a, &DataType::Utf8).map_err(|e| format!("column `other_tags`: {e}"));
            Some((map.clone(), text(map.keys())?, text(map.values())?))
        }
    };
    let (mut event, mut site, mut white, mut black, mut result) = (
        texts("Event")?,
        texts("Site")?,
        texts("White")?,
        texts("Black")?,
        texts("Result")?,
    );
    let (mut white_title, mut black_title, mut eco, mut opening) = (
        texts("WhiteTitle")?,
        texts("BlackTitle")?,
        texts("ECO")?,
        texts("Opening")?,
    );
    let (mut termination, mut time_control, mut start_fen) =
        (texts("Termination")?, texts("TimeControl")?, texts("start_fen")?);
    let (utc_time, mut movetext, mut annotations) = (texts("UTCTime")?, texts("movetext")?, texts("annotations")?);
    // Version 2 marked no moves: its `0x04` and `0x05` bytes are the input's, escaped here as
    // version 3 escapes them.
    if batch
        .schema()
        .metadata()
        .get(EXPORT_VERSION_KEY)
        .is_some_and(|v| v == "2")
    {
        for text in annotations.iter_mut().flatten() {
            if text.contains(['\u{4}', '\u{5}']) {
                *text = text.replace('\u{4}', "\u{3}\u{4}").replace('\u{5}', "\u{3}\u{5}");
            }
        }
    }
    let (white_elo, black_elo) = (int16s("WhiteElo")?, int16s("BlackElo")?);
    let (white_diff, black_diff) = (int16s("WhiteRatingDiff")?, int16s("BlackRatingDiff")?);
    // `clock_deltas` (version 2 on); `clocks` as the clocks themselves (version 1, or a table
    // made by hand).
    let mut clocks = match batch.column_by_name("clock_deltas") {
        Some(_) => lists("clock_deltas")?
            .into_iter()
            .map(|l| l.map(|deltas| crate::clocks_from_deltas(&deltas)))
            .collect(),
        None => lists("clocks")?,
    };
    let mut evals = lists("evals")?;
    let mut moves = moves;
    let mut rows = Vec::with_capacity(n);
    for i in 0..n {
        let mut row = GameRow {
            event: event[i].take(),
            site: site[i].take(),
            white: white[i].take(),
            black: black[i].take(),
            result: result[i].take(),
            white_title: white_title[i].take(),
            black_title: black_title[i].take(),
            white_elo: white_elo[i],
            black_elo: black_elo[i],
            white_rating_diff: white_diff[i],
            black_rating_diff: black_diff[i],
            utc_date: utc_date[i],
            utc_time: utc_time[i].as_deref().and_then(parse_time),
            eco: eco[i].take(),
            opening: opening[i].take(),
            termination: termination[i].take(),
            time_control: time_control[i].take(),
            movetext: movetext[i].take().unwrap_or_default(),
            annotations: annotations[i].take(),
            moves: moves[i].take(),
            plies: if plies.is_null(i) { 0 } else { plies.value(i) },
            clocks: clocks[i].take(),
            evals: evals[i].take(),
            start_fen: start_fen[i].take(),
            non_utf8: non_utf8[i],
            ..GameRow::default()
        };
        if let Some((map, keys, values)) = &other_tags {
            let (keys, values) = (keys.as_string::<i32>(), values.as_string::<i32>());
            if !map.is_null(i) {
                let offsets = map.value_offsets();
                for j in offsets[i] as usize..offsets[i + 1] as usize {
                    let value = if values.is_null(j) { "" } else { values.value(j) };
                    row.other_tags.push((keys.value(j).to_string(), value.to_string()));
                }
            }
        }
        if let Some(list) = latin1.as_ref().map(|a| a.as_list::<i32>()) {
            if !list.is_null(i) {
                let names = list.value(i);
                row.latin1_fields = names.as_string::<i32>().iter().flatten().map(str::to_string).collect();
            }
        }
        rows.push(row);
    }
    Ok(rows)
}

/// A game of an export read back by [`ExportReader`].
#[derive(Debug)]
pub struct ExportGame {
    /// Its part file (an index into [`ExportReader::parts`]).
    pub part: usize,
    /// Its row in the part file, from 0.
    pub row: u64,
    /// Its PGN ([`GameRow::to_pgn`]), or why the row's columns do not give it.
    pub pgn: Result<Vec<u8>, RebuildError>,
    /// Whether `pgn` was written from the row's columns alone (its `annotations` is null): the
    /// text is then what [`GameTree::write_pgn`](chessbits::pgn::GameTree::write_pgn) writes with
    /// the default options, and reading it back and writing it again gives the same bytes.
    pub from_columns: bool,
}

/// Every game of an export directory, rebuilt as PGN from its columns ([`GameRow::to_pgn`]; the
/// `movetext` column is not read): the part files in [`part_files`] order, the rows of each in
/// order, a batch of rows in memory at a time, rebuilt on every core (a row with `annotations`
/// from them: every game equal to the input's). In a version-1 export (no `annotations`), a
/// row whose `moves` is null (a null move in the main line) is written from its tags and
/// `movetext` ([`GameRow::to_pgn_with_movetext`]), read for that row alone. A part file of a
/// newer export version is an error ([`ReadError::Version`]). A row whose game cannot be rebuilt is an item with an error ([`ExportGame::pgn`])
/// and reading goes on; a part file that cannot be read is an error item, after which the
/// iterator ends.
///
/// ```
/// use chessbits_parquet::{ExportOptions, ExportReader, ParquetExporter};
/// let dir = tempfile::tempdir().unwrap();
/// let out = dir.path().join("export");
/// let mut exporter = ParquetExporter::create(&out, ExportOptions::default()).unwrap();
/// let source = exporter.add_source("games.pgn");
/// exporter.add_pgn(source, &b"[Result \"1-0\"]\n\n1. e4 e5 1-0\n"[..]).unwrap();
/// exporter.finish().unwrap();
/// let games: Vec<_> = ExportReader::open(&out).unwrap().map(|g| g.unwrap()).collect();
/// assert_eq!(games.len(), 1);
/// assert_eq!(games[0].pgn.as_ref().unwrap(), b"[Result \"1-0\"]\n\n1. e4 e5 1-0\n\n");
/// ```
pub struct ExportReader {
    parts: Vec<PartFile>,
    /// The part being read: its index, reader, moves code and the next row's number.
    current: Option<(usize, ParquetRecordBatchReader, MovesCode)>,
    next_part: usize,
    /// Rebuilt games of the current batch not yet handed out, in reverse order.
    ready: Vec<ExportGame>,
    row: u64,
    failed: bool,
}

impl ExportReader {
    /// Lists the part files of the export in `dir` (an error if there is none).
    pub fn open(dir: &Path) -> Result<ExportReader, ReadError> {
        let parts = part_files(dir).map_err(ReadError::Io)?;
        if parts.is_empty() {
            return Err(ReadError::NotExport {
                path: dir.to_path_buf(),
                reason: "no `*.parquet` file below it: not a Parquet export".to_string(),
            });
        }
        Ok(ExportReader {
            parts,
            current: None,
            next_part: 0,
            ready: Vec::new(),
            row: 0,
            failed: false,
        })
    }

    /// The part files, in reading order.
    pub fn parts(&self) -> &[PartFile] {
        &self.parts
    }

    /// Opens part `i` with every column but `movetext`.
    fn open_part(&self, i: usize) -> Result<(ParquetRecordBatchReader, MovesCode), ReadError> {
        let path = &self.parts[i].path;
        let file = File::open(path)
            .map_err(|e| ReadError::Io(io::Error::new(e.kind(), format!("{}: {e}", path.display()))))?;
        let parquet = |error| ReadError::Parquet {
            path: path.clone(),
            error,
        };
        let not_export = |reason: String| ReadError::NotExport {
            path: path.clone(),
            reason,
        };
        let builder = crate::footer::reader_builder(file).map_err(parquet)?;
        export_version(builder.metadata().file_metadata().key_value_metadata()).map_err(|version| {
            ReadError::Version {
                path: path.clone(),
                version,
            }
        })?;
        let code = moves_code_of(builder.schema()).map_err(not_export)?;
        let has = |name: &str| builder.schema().column_with_name(name).is_some();
        if !has("moves") && !has("movetext") {
            return Err(not_export(
                "no column `moves` or `movetext`: not a part file of an export (chessbits export)".to_string(),
            ));
        }
        if builder.schema().column_with_name("plies").is_none() {
            return Err(not_export(
                "no column `plies`: not a part file of an export (chessbits export)".to_string(),
            ));
        }
        let roots: Vec<usize> = (0..builder.parquet_schema().root_schema().get_fields().len())
            .filter(|&j| builder.parquet_schema().root_schema().get_fields()[j].name() != "movetext")
            .collect();
        let mask = ProjectionMask::roots(builder.parquet_schema(), roots);
        let reader = builder.with_projection(mask).build().map_err(parquet)?;
        Ok((reader, code))
    }

    /// Rebuilds the games of `rows` whose `moves` is null (a null move in the main line) from
    /// their tags and `movetext`, read for those rows alone, when part `part` has that column.
    fn fill_null_moves(&self, part: usize, rows: &[GameRow], games: &mut [ExportGame]) -> Result<(), ReadError> {
        let wanted: Vec<usize> = (0..games.len())
            .filter(|&k| games[k].pgn == Err(RebuildError::NullMove))
            .collect();
        if wanted.is_empty() {
            return Ok(());
        }
        let path = &self.parts[part].path;
        let parquet = |error| ReadError::Parquet {
            path: path.clone(),
            error,
        };
        let file = File::open(path)
            .map_err(|e| ReadError::Io(io::Error::new(e.kind(), format!("{}: {e}", path.display()))))?;
        let builder = crate::footer::reader_builder(file).map_err(parquet)?;
        let fields = builder.parquet_schema().root_schema().get_fields();
        let Some(column) = fields.iter().position(|f| f.name() == "movetext") else {
            return Ok(());
        };
        let total = usize::try_from(builder.metadata().file_metadata().num_rows()).unwrap_or(0);
        let ranges: Vec<_> = wanted
            .iter()
            .map(|&k| games[k].row as usize..games[k].row as usize + 1)
            .collect();
        let mask = ProjectionMask::roots(builder.parquet_schema(), [column]);
        let reader = builder
            .with_projection(mask)
            .with_row_selection(RowSelection::from_consecutive_ranges(ranges.into_iter(), total))
            .build()
            .map_err(parquet)?;
        let mut texts = Vec::with_capacity(wanted.len());
        let mut reader = reader;
        while let Some(batch) =
            crate::footer::without_panics("a page", || reader.next().transpose().map_err(Into::into))
                .map_err(parquet)?
        {
            let column = arrow_cast::cast(batch.column(0), &DataType::Utf8).map_err(|e| parquet(e.into()))?;
            texts.extend(
                column
                    .as_string::<i32>()
                    .iter()
                    .map(|t| t.unwrap_or_default().to_string()),
            );
        }
        for (k, text) in wanted.into_iter().zip(texts) {
            // The batch's rows start at the first game's row.
            let row = &rows[(games[k].row - games[0].row) as usize];
            games[k].pgn = Ok(row.to_pgn_with_movetext(&text));
            games[k].from_columns = false;
        }
        Ok(())
    }

    /// Reads the next batch into `ready`; false at the end of the export.
    fn fill(&mut self) -> Result<bool, ReadError> {
        loop {
            if self.current.is_none() {
                if self.next_part == self.parts.len() {
                    return Ok(false);
                }
                let (reader, code) = self.open_part(self.next_part)?;
                self.current = Some((self.next_part, reader, code));
                self.next_part += 1;
                self.row = 0;
            }
            let Some((part, reader, code)) = self.current.as_mut() else {
                continue;
            };
            let (part, code) = (*part, *code);
            let path = &self.parts[part].path;
            // The `parquet` crate's page decoders panic on some crafted pages: an error here.
            let next = crate::footer::without_panics("a page", || reader.next().transpose().map_err(Into::into));
            match next {
                Ok(None) => self.current = None,
                Err(error) => {
                    return Err(ReadError::Parquet {
                        path: path.clone(),
                        error,
                    })
                }
                Ok(Some(batch)) => {
                    let rows = rows_from_batch(&batch).map_err(|reason| ReadError::NotExport {
                        path: path.clone(),
                        reason,
                    })?;
                    let first = self.row;
                    self.row += rows.len() as u64;
                    // Rebuilt on every core (rayon's global pool), a batch at a time.
                    let mut games: Vec<ExportGame> = rows
                        .par_iter()
                        .enumerate()
                        .map(|(k, row)| ExportGame {
                            part,
                            row: first + k as u64,
                            pgn: row.to_pgn(code),
                            from_columns: row.annotations.is_none(),
                        })
                        .collect();
                    self.fill_null_moves(part, &rows, &mut games)?;
                    games.reverse();
                    self.ready = games;
                    if !self.ready.is_empty() {
                        return Ok(true);
                    }
                }
            }
        }
    }
}

impl Iterator for ExportReader {
    type Item = Result<ExportGame, ReadError>;

    fn next(&mut self) -> Option<Self::Item> {
        if let Some(game) = self.ready.pop() {
            return Some(Ok(game));
        }
        if self.failed {
            return None;
        }
        match self.fill() {
            Ok(true) => self.ready.pop().map(Ok),
            Ok(false) => None,
            Err(e) => {
                self.failed = true;
                Some(Err(e))
            }
        }
    }
}
