//! The stored tables, one module each, and how their Parquet files are written.
//!
//! Every table is a directory of Parquet files (`part-NNNNN.parquet`); the files the index
//! consists of are listed in its manifest (see [`crate::manifest`]). The tables:
//!
//! | directory | one row per | sorted by | module |
//! |---|---|---|---|
//! | `explorer/` | position × move × speed × rating band × month, for positions of two or more games | `key` | [`explorer`] |
//! | `positions/` | position (by a key prefix) × game that stands in it; `solo` marks the positions of one game | `key_prefix`, `key_rank`, `game` | [`positions`] |
//! | `games/` | game | `game` | [`games`] |
//! | `sources/` | input file | `source` | [`sources`] |
//! | `explorer_summary/` | position × move × speed × rating band, for popular positions (per explorer file) | `key` | [`explorer_summary`] |
//! | `top_games/` | listed game of a popular position (per positions file) | `key`, `game` | [`top_games`] |
//!
//! Types are the ones Spark writes (signed integers, `BINARY` keys), so the index that the Spark
//! job builds has the same schema. Files of sorted tables carry page-level statistics and page
//! indexes (column index and offset index): a lookup by key reads the footer once and then only
//! the pages whose key range holds the key.

pub mod explorer;
pub mod explorer_summary;
pub mod game;
pub mod games;
pub mod positions;
pub mod sources;
pub mod top_games;

use std::fs::File;
use std::path::Path;
use std::sync::Arc;

use arrow_array::{Array, BinaryArray, Int32Array, Int64Array, RecordBatch, StringArray};
use arrow_schema::SchemaRef;
use parquet::arrow::ArrowWriter;
use parquet::basic::{Compression, Encoding, ZstdLevel};
use parquet::file::metadata::{KeyValue, SortingColumn};
use parquet::file::properties::{EnabledStatistics, WriterProperties};
use parquet::schema::types::ColumnPath;

use crate::error::IndexError;

/// The `chessbits.index.format` value in every file's key-value metadata (the manifest's
/// [`VERSION`](crate::manifest::VERSION)).
pub const FORMAT_VERSION: &str = "3";

/// Rows per page of the sorted tables: a lookup decodes about this many rows per column.
pub(crate) const PAGE_ROWS: usize = 4096;

/// Rows per page of the `games` table. A query reads a handful of games at random row numbers
/// (a rare position's game, a move's only game, a search page), one page per column each, so
/// smaller pages decode less: on a 10 M-game index, the move table after 8 plies 3.8 / 11.6 →
/// 3.1 / 7.1 ms (p50 / p99) for 2.7 bytes a game more (BENCHMARKS.md, "Position index"). (The
/// writer checks the limit per write batch of 1,024 rows, so smaller values give the same file.)
pub(crate) const GAMES_PAGE_ROWS: usize = 1024;

/// How [`open_writer`] lays a file out.
struct Layout<'a> {
    /// The rows come in key order (column 0): the file says so and the key column gets page
    /// statistics without a dictionary.
    sorted_by_key: bool,
    /// Dictionary encoding for the columns not named below.
    dictionary: bool,
    /// A `positions` file's key bits, recorded in its footer.
    key_bits: Option<u32>,
    /// Columns written without a dictionary whatever `dictionary` says.
    no_dictionary: &'a [&'a str],
    /// Rows per data page.
    page_rows: usize,
}

impl Layout<'_> {
    const SORTED: Layout<'static> = Layout {
        sorted_by_key: true,
        dictionary: true,
        key_bits: None,
        no_dictionary: &[],
        page_rows: PAGE_ROWS,
    };
}

/// `a` then `b` as one list of `N` names (a compile error unless `N` is their total length).
pub(crate) const fn joined<const N: usize>(a: &[&'static str], b: &[&'static str]) -> [&'static str; N] {
    assert!(a.len() + b.len() == N, "the lengths add up to N");
    let mut out = [""; N];
    let mut i = 0;
    while i < N {
        out[i] = if i < a.len() { a[i] } else { b[i - a.len()] };
        i += 1;
    }
    out
}

/// A writer of one Parquet file of a table. `sorted_by_key`: the rows come in key order
/// (column 0): the file says so and the key column gets page statistics without a dictionary.
pub(crate) fn create_writer(
    path: &Path,
    schema: SchemaRef,
    sorted_by_key: bool,
) -> Result<ArrowWriter<File>, IndexError> {
    open_writer(
        path,
        schema,
        Layout {
            sorted_by_key,
            ..Layout::SORTED
        },
    )
}

/// The writer of a `games` file ([`games`]): a dictionary for its repetitive columns, none for
/// the ones nearly unique per game ([`games::NO_DICTIONARY`]), whose dictionary page (up to
/// 1 MiB) a lookup of one game would otherwise read and decode in full.
pub(crate) fn create_games_writer(path: &Path) -> Result<ArrowWriter<File>, IndexError> {
    let layout = Layout {
        sorted_by_key: false,
        no_dictionary: &games::NO_DICTIONARY,
        page_rows: GAMES_PAGE_ROWS,
        ..Layout::SORTED
    };
    open_writer(path, games::schema(), layout)
}

/// The writer of a `positions` file of `key_bits` key bits ([`positions`]): its footer records
/// them; the sorted integer columns are delta-coded.
pub(crate) fn create_positions_writer(path: &Path, key_bits: u32) -> Result<ArrowWriter<File>, IndexError> {
    let layout = Layout {
        dictionary: false,
        key_bits: Some(key_bits),
        ..Layout::SORTED
    };
    open_writer(path, positions::schema(), layout)
}

/// [`create_writer`] for a small table sorted by key whose columns get no dictionary: a lookup
/// then decodes its pages only, not each column's dictionary page (up to 1 MiB per column).
pub(crate) fn create_plain_writer(path: &Path, schema: SchemaRef) -> Result<ArrowWriter<File>, IndexError> {
    open_writer(
        path,
        schema,
        Layout {
            dictionary: false,
            ..Layout::SORTED
        },
    )
}

fn open_writer(path: &Path, schema: SchemaRef, layout: Layout) -> Result<ArrowWriter<File>, IndexError> {
    let Layout {
        sorted_by_key,
        dictionary,
        key_bits,
        no_dictionary,
        page_rows,
    } = layout;
    let mut metadata = vec![KeyValue::new(
        "chessbits.index.format".to_string(),
        FORMAT_VERSION.to_string(),
    )];
    if let Some(bits) = key_bits {
        metadata.push(KeyValue::new(positions::KEY_BITS_META.to_string(), bits.to_string()));
    }
    let file = File::create(path).map_err(|e| IndexError::io(path, e))?;
    let mut props = WriterProperties::builder()
        .set_created_by(format!("chessbits-index {}", env!("CARGO_PKG_VERSION")))
        .set_compression(Compression::ZSTD(ZstdLevel::try_new(3).expect("level 3 is valid")))
        .set_max_row_group_size(1 << 20)
        .set_data_page_row_count_limit(page_rows)
        .set_write_batch_size(1024)
        .set_statistics_enabled(EnabledStatistics::Page)
        .set_dictionary_enabled(dictionary)
        .set_key_value_metadata(Some(metadata));
    // Bit-packed deltas for integers that rise row by row (the `games` table's numbers,
    // offsets and lines: 8.5 bytes a game less than a dictionary falling back to plain values on
    // the 5,593 real games of ../shared/data/pgn) or that a dictionary cannot hold (game numbers
    // in key order are random: ~25 % less than plain 8-byte values on 200 k synthetic games;
    // ratings: 0.8 bytes a game less).
    for name in [
        "game",
        "last_game",
        "key_prefix",
        "key_rank",
        "offset",
        "line",
        "length",
        "white_elo",
        "black_elo",
    ] {
        props = props
            .set_column_dictionary_enabled(ColumnPath::from(name), false)
            .set_column_encoding(ColumnPath::from(name), Encoding::DELTA_BINARY_PACKED);
    }
    for &name in no_dictionary {
        props = props.set_column_dictionary_enabled(ColumnPath::from(name), false);
    }
    if sorted_by_key {
        // Sorted keys share their first bytes with the previous row's (all 16 when a key has
        // several rows): prefix coding saves ~5 % of the key column over plain + zstd.
        let key = ColumnPath::from("key");
        props = props
            .set_column_dictionary_enabled(key.clone(), false)
            .set_column_encoding(key, Encoding::DELTA_BYTE_ARRAY);
        props = props.set_sorting_columns(Some(vec![SortingColumn {
            column_idx: 0,
            descending: false,
            nulls_first: false,
        }]));
    }
    ArrowWriter::try_new(file, schema, Some(props.build())).map_err(|e| IndexError::parquet(path, e))
}

/// The column `name` of `batch` as `T`, or a typed error naming the file.
pub(crate) fn column<'a, T: Array + 'static>(
    batch: &'a RecordBatch,
    name: &str,
    path: &Path,
) -> Result<&'a T, IndexError> {
    batch
        .column_by_name(name)
        .and_then(|c| c.as_any().downcast_ref::<T>())
        .ok_or_else(|| IndexError::Format {
            path: path.to_path_buf(),
            reason: format!("column `{name}` is missing or of another type"),
        })
}

/// Readers of nullable columns.
pub(crate) fn opt_str(a: &StringArray, i: usize) -> Option<String> {
    (!a.is_null(i)).then(|| a.value(i).to_string())
}

pub(crate) fn opt_i32(a: &Int32Array, i: usize) -> Option<i32> {
    (!a.is_null(i)).then(|| a.value(i))
}

pub(crate) fn opt_i64(a: &Int64Array, i: usize) -> Option<i64> {
    (!a.is_null(i)).then(|| a.value(i))
}

/// The 16-byte key at row `i`, or a format error.
pub(crate) fn key_at(a: &BinaryArray, i: usize, path: &Path) -> Result<u128, IndexError> {
    let bytes: [u8; 16] = a.value(i).try_into().map_err(|_| IndexError::Format {
        path: path.to_path_buf(),
        reason: format!("a key of {} bytes (keys have 16)", a.value(i).len()),
    })?;
    Ok(u128::from_be_bytes(bytes))
}

/// An Arrow schema shared by reference.
pub(crate) fn schema_ref(fields: Vec<arrow_schema::Field>) -> SchemaRef {
    Arc::new(arrow_schema::Schema::new(fields))
}
