//! One Parquet file of a table, opened once: its footer and page indexes stay in memory, so a
//! lookup by key reads only the pages whose key range holds the key.

use std::fs::File;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use arrow_array::{Array, BinaryArray, Int64Array, RecordBatch};
use chessbits_parquet::footer::{load_metadata, without_panics};
use parquet::arrow::arrow_reader::{
    ArrowReaderMetadata, ArrowReaderOptions, ParquetRecordBatchReaderBuilder, RowSelection, RowSelector,
};
use parquet::arrow::ProjectionMask;
use parquet::errors::ParquetError;
use parquet::file::page_index::column_index::ColumnIndexMetaData;

use crate::checksums::PageChecksums;
use crate::error::IndexError;
use crate::manifest::FileEntry;
use crate::model::FORMAT_VERSION;

/// Rows to read: per row group, its sorted disjoint row ranges (numbered within the group).
type Plan = Vec<(usize, Vec<Range<usize>>)>;

/// A page of an integer column: its rows (within the row group) and, where the column index
/// says, its least and greatest value.
type IntPage = (Range<usize>, Option<(i64, i64)>);

/// An open file of a table.
pub(crate) struct TableFile {
    pub path: PathBuf,
    file: Arc<File>,
    meta: ArrowReaderMetadata,
    checksums: PageChecksums,
    /// Rows before this file in its table (the games table: the number of its first game).
    pub first_row: u64,
    pub rows: u64,
}

impl TableFile {
    /// Opens `dir/entry.file`, checking it against the manifest: its length (a truncated or
    /// grown file is refused before Parquet reads it), its footer, its format version and its
    /// row count.
    pub fn open(dir: &Path, entry: &FileEntry, first_row: u64) -> Result<TableFile, IndexError> {
        let path = dir.join(&entry.file);
        let file = File::open(&path).map_err(|e| IndexError::io(&path, e))?;
        let len = file.metadata().map_err(|e| IndexError::io(&path, e))?.len();
        if len != entry.bytes {
            return Err(IndexError::format(
                &path,
                format!(
                    "{len} bytes where the manifest says {} (truncated or overwritten)",
                    entry.bytes
                ),
            ));
        }
        // The footer and page indexes are checked before Parquet parses them (damage is an
        // error naming the file); a crafted footer with matching checksums, which the parquet
        // crate can panic on, is an error too (`footer::load_metadata`).
        let checksums = PageChecksums::open(&path, &file, entry.pages_crc32)?;
        let options = ArrowReaderOptions::new().with_page_index(true);
        let meta = load_metadata(&file, options).map_err(|e| IndexError::parquet(&path, e))?;
        let file_meta = meta.metadata().file_metadata();
        let version = file_meta
            .key_value_metadata()
            .and_then(|kv| kv.iter().find(|kv| kv.key == "chessbits.index.format"))
            .and_then(|kv| kv.value.clone());
        if version.as_deref() != Some(FORMAT_VERSION) {
            return Err(IndexError::format(&path, format!("no `chessbits.index.format` {FORMAT_VERSION} in the footer (an index of another version: rebuild it)")));
        }
        if file_meta.num_rows() as u64 != entry.rows {
            return Err(IndexError::format(
                &path,
                format!("{} rows where the manifest says {}", file_meta.num_rows(), entry.rows),
            ));
        }
        Ok(TableFile {
            path,
            file: Arc::new(file),
            meta,
            checksums,
            first_row,
            rows: entry.rows,
        })
    }

    /// The key bits *K* of a `positions` file (its footer's `chessbits.positions.key_bits`).
    pub fn key_bits(&self) -> Result<u32, IndexError> {
        crate::model::positions::key_bits_of(self.meta.metadata().file_metadata(), &self.path)
    }

    /// The rows whose `key` (column 0, sorted) may equal `key`: whole pages, to be filtered by
    /// the caller. Only `columns` are read.
    pub fn pages_with_key(&self, key: u128, columns: &[&str]) -> Result<Vec<RecordBatch>, IndexError> {
        self.pages_where(Lookup::Bytes(key.to_be_bytes()), None, columns)
    }

    /// The rows whose `key_prefix` (column 0 of a `positions` file, sorted int64) may equal
    /// `prefix`: whole pages, to be filtered by the caller; with `flag`, less the pages where
    /// that boolean column is false on every row.
    pub fn pages_with_prefix(
        &self,
        prefix: i64,
        flag: Option<&str>,
        columns: &[&str],
    ) -> Result<Vec<RecordBatch>, IndexError> {
        self.pages_where(Lookup::Int(prefix), flag, columns)
    }

    fn pages_where(&self, key: Lookup, flag: Option<&str>, columns: &[&str]) -> Result<Vec<RecordBatch>, IndexError> {
        let schema = self.meta.metadata().file_metadata().schema_descr();
        let flag = flag.and_then(|name| (0..schema.num_columns()).find(|&c| schema.column(c).name() == name));
        let metadata = self.meta.metadata();
        let mut plan: Plan = Vec::new();
        for (i, group) in metadata.row_groups().iter().enumerate() {
            let n = group.num_rows() as usize;
            if let Some(stats) = group.column(0).statistics()
                && let (Some(min), Some(max)) = (stats.min_bytes_opt(), stats.max_bytes_opt())
                && key.outside(min, max)
            {
                continue;
            }
            let mut ranges = self.pages_of_group(i, &key, n);
            if let Some(flag) = flag {
                ranges = intersect(&ranges, &self.flagged_rows(i, flag, n));
            }
            if !ranges.is_empty() {
                plan.push((i, ranges));
            }
        }
        // The key column first: most lookups of a rare key find it in no row of its page, and
        // then the other columns' pages (one decompression each) are not read at all.
        let key_column = schema.column(0).name().to_string();
        if columns.len() > 1 && columns.contains(&key_column.as_str()) && !plan.is_empty() {
            let keys = self.read_ranges(&plan, &[key_column.as_str()])?;
            plan = self.rows_equal(&plan, &keys, &key)?;
        }
        self.read_ranges(&plan, columns)
    }

    /// `columns` of the rows `plan` (row groups, each with sorted disjoint row ranges), their
    /// pages checked first.
    fn read_ranges(
        &self,
        plan: &[(usize, Vec<Range<usize>>)],
        columns: &[&str],
    ) -> Result<Vec<RecordBatch>, IndexError> {
        if plan.is_empty() {
            return Ok(Vec::new());
        }
        let metadata = self.meta.metadata();
        let mut selectors = Vec::new();
        for (group, ranges) in plan {
            let n = metadata.row_group(*group).num_rows() as usize;
            self.check(*group, ranges, columns)?;
            let mut at = 0;
            for range in ranges {
                if range.start > at {
                    selectors.push(RowSelector::skip(range.start - at));
                }
                selectors.push(RowSelector::select(range.len()));
                at = range.end;
            }
            if at < n {
                selectors.push(RowSelector::skip(n - at));
            }
        }
        let groups = plan.iter().map(|(group, _)| *group).collect();
        self.read(groups, Some(RowSelection::from(selectors)), columns)
    }

    /// The rows of `plan` whose key (column 0, read in `keys`, the plan's rows in order) equals
    /// `key`, as a plan.
    fn rows_equal(
        &self,
        plan: &[(usize, Vec<Range<usize>>)],
        keys: &[RecordBatch],
        key: &Lookup,
    ) -> Result<Plan, IndexError> {
        let mut matches: Vec<bool> = Vec::new();
        for batch in keys {
            let column = batch.column(0);
            let any = column.as_any();
            match key {
                Lookup::Bytes(key) => {
                    let Some(values) = any.downcast_ref::<BinaryArray>() else {
                        return Err(IndexError::format(&self.path, "the key column is not binary"));
                    };
                    matches.extend((0..values.len()).map(|i| !values.is_null(i) && values.value(i) == key.as_slice()));
                }
                Lookup::Int(key) => {
                    let Some(values) = any.downcast_ref::<Int64Array>() else {
                        return Err(IndexError::format(&self.path, "the key prefix column is not int64"));
                    };
                    matches.extend((0..values.len()).map(|i| !values.is_null(i) && values.value(i) == *key));
                }
            }
        }
        let planned: usize = plan.iter().flat_map(|(_, ranges)| ranges).map(|r| r.len()).sum();
        if matches.len() != planned {
            return Err(IndexError::format(
                &self.path,
                format!("{} keys read where {planned} rows were selected", matches.len()),
            ));
        }
        let mut out = Vec::new();
        let mut next = matches.into_iter();
        for (group, ranges) in plan {
            let mut kept: Vec<Range<usize>> = Vec::new();
            for range in ranges {
                for row in range.clone() {
                    if next.next() != Some(true) {
                        continue;
                    }
                    match kept.last_mut() {
                        Some(last) if last.end == row => last.end += 1,
                        _ => kept.push(row..row + 1),
                    }
                }
            }
            if !kept.is_empty() {
                out.push((*group, kept));
            }
        }
        Ok(out)
    }

    /// The row ranges of row group `group` (of `n` rows) whose pages may hold `key`: from the
    /// page index where the file has one, else the whole group.
    fn pages_of_group(&self, group: usize, key: &Lookup, n: usize) -> Vec<Range<usize>> {
        let metadata = self.meta.metadata();
        let (Some(columns), Some(offsets)) = (metadata.column_index(), metadata.offset_index()) else {
            return std::iter::once(0..n).collect();
        };
        let (Some(index), Some(offsets)) = (
            columns.get(group).and_then(|c| c.first()),
            offsets.get(group).and_then(|o| o.first()),
        ) else {
            return std::iter::once(0..n).collect();
        };
        match (index, key) {
            (ColumnIndexMetaData::BYTE_ARRAY(index), Lookup::Bytes(key)) => {
                let page = |p: usize| (index.min_value(p), index.max_value(p), index.is_null_page(p));
                pages_holding(offsets.page_locations(), n, key.as_slice(), page)
            }
            (ColumnIndexMetaData::INT64(index), Lookup::Int(key)) => {
                let page = |p: usize| (index.min_value(p), index.max_value(p), index.is_null_page(p));
                pages_holding(offsets.page_locations(), n, key, page)
            }
            _ => std::iter::once(0..n).collect(),
        }
    }

    /// The row ranges of row group `group` (of `n` rows) whose pages of the boolean column
    /// `column` may hold a `true`: from the page index, else the whole group.
    fn flagged_rows(&self, group: usize, column: usize, n: usize) -> Vec<Range<usize>> {
        let metadata = self.meta.metadata();
        let (Some(columns), Some(offsets)) = (metadata.column_index(), metadata.offset_index()) else {
            return std::iter::once(0..n).collect();
        };
        let (Some(ColumnIndexMetaData::BOOLEAN(index)), Some(offsets)) = (
            columns.get(group).and_then(|c| c.get(column)),
            offsets.get(group).and_then(|o| o.get(column)),
        ) else {
            return std::iter::once(0..n).collect();
        };
        let pages = offsets.page_locations();
        let first_row = |p: usize| match pages.get(p) {
            Some(page) => (page.first_row_index.max(0) as usize).min(n),
            None => n,
        };
        let mut ranges: Vec<Range<usize>> = Vec::new();
        for p in 0..pages.len() {
            if index.max_value(p) == Some(&false) {
                continue;
            }
            let range = first_row(p)..first_row(p + 1);
            match ranges.last_mut() {
                Some(last) if last.end == range.start => last.end = range.end,
                _ => ranges.push(range),
            }
        }
        ranges
    }

    /// The rows (numbered across the file) within `within` where the integer column `name`
    /// equals `value`, the column being sorted ascending over `within`: one range. The page
    /// index decides the pages wholly inside or outside the run; only the pages at its ends are
    /// decoded. Without a page index every page of `within` is decoded.
    pub fn run_of(&self, name: &str, value: i64, within: Range<u64>) -> Result<Range<u64>, IndexError> {
        let metadata = self.meta.metadata();
        let schema = metadata.file_metadata().schema_descr();
        let Some(column) = (0..schema.num_columns()).find(|&c| schema.column(c).name() == name) else {
            return Err(IndexError::format(&self.path, format!("no column `{name}`")));
        };
        // Rows inside the run for certain, and pages to decode (per row group, local ranges).
        let mut sure: Vec<Range<u64>> = Vec::new();
        let mut decode: Plan = Vec::new();
        let mut group_first = Vec::new();
        let mut group_start = 0u64;
        for (g, group) in metadata.row_groups().iter().enumerate() {
            let n = group.num_rows() as u64;
            let group_rows = group_start..group_start + n;
            group_first.push(group_start);
            group_start += n;
            let (lo, hi) = (within.start.max(group_rows.start), within.end.min(group_rows.end));
            if lo >= hi {
                continue;
            }
            let mut to_decode: Vec<Range<usize>> = Vec::new();
            for (page, bounds) in self.int_pages(g, column, n as usize) {
                let (start, end) = (
                    (group_rows.start + page.start as u64).max(lo),
                    (group_rows.start + page.end as u64).min(hi),
                );
                if start >= end {
                    continue;
                }
                match bounds {
                    Some((min, max)) if min > value || max < value => {}
                    Some((min, max)) if min == value && max == value => sure.push(start..end),
                    _ => {
                        let local = (start - group_rows.start) as usize..(end - group_rows.start) as usize;
                        match to_decode.last_mut() {
                            Some(last) if last.end == local.start => last.end = local.end,
                            _ => to_decode.push(local),
                        }
                    }
                }
            }
            if !to_decode.is_empty() {
                decode.push((g, to_decode));
            }
        }
        let batches = self.read_ranges(&decode, &[name])?;
        let mut values = Vec::new();
        for batch in &batches {
            let any = batch.column(0).as_any();
            if let Some(a) = any.downcast_ref::<Int64Array>() {
                values.extend((0..a.len()).map(|i| (!a.is_null(i)).then(|| a.value(i))));
            } else if let Some(a) = any.downcast_ref::<arrow_array::Int32Array>() {
                values.extend((0..a.len()).map(|i| (!a.is_null(i)).then(|| a.value(i) as i64)));
            } else {
                return Err(IndexError::format(
                    &self.path,
                    format!("column `{name}` is not an integer"),
                ));
            }
        }
        let mut values = values.into_iter();
        for (g, ranges) in &decode {
            for range in ranges {
                for row in range.clone() {
                    if values.next() == Some(Some(value)) {
                        let row = group_first[*g] + row as u64;
                        sure.push(row..row + 1);
                    }
                }
            }
        }
        sure.sort_by_key(|r| r.start);
        let mut run: Option<Range<u64>> = None;
        for range in sure {
            match &mut run {
                None => run = Some(range),
                Some(run) if run.end == range.start => run.end = range.end,
                Some(_) => {
                    return Err(IndexError::format(
                        &self.path,
                        format!("column `{name}` is not sorted (the rows of {value} are not consecutive)"),
                    ))
                }
            }
        }
        Ok(run.unwrap_or(within.start..within.start))
    }

    /// The pages of integer column `column` in row group `group` (of `n` rows): their local row
    /// ranges and, from the column index, their min and max (`None` where unknown). Without a
    /// page index: the whole group as one page of unknown bounds.
    fn int_pages(&self, group: usize, column: usize, n: usize) -> Vec<IntPage> {
        let metadata = self.meta.metadata();
        let (Some(index), Some(offsets)) = (
            metadata
                .column_index()
                .and_then(|c| c.get(group))
                .and_then(|c| c.get(column)),
            metadata
                .offset_index()
                .and_then(|o| o.get(group))
                .and_then(|o| o.get(column)),
        ) else {
            return vec![(0..n, None)];
        };
        let pages = offsets.page_locations();
        let first_row = |p: usize| match pages.get(p) {
            Some(page) => (page.first_row_index.max(0) as usize).min(n),
            None => n,
        };
        (0..pages.len())
            .map(|p| {
                let bounds = match index {
                    ColumnIndexMetaData::INT64(index) => match (index.min_value(p), index.max_value(p)) {
                        (Some(&min), Some(&max)) => Some((min, max)),
                        _ => None,
                    },
                    ColumnIndexMetaData::INT32(index) => match (index.min_value(p), index.max_value(p)) {
                        (Some(&min), Some(&max)) => Some((min as i64, max as i64)),
                        _ => None,
                    },
                    _ => None,
                };
                (first_row(p)..first_row(p + 1), bounds)
            })
            .collect()
    }

    /// `columns` of the rows `rows` (numbered across the file).
    pub fn row_range(&self, rows: Range<u64>, columns: &[&str]) -> Result<Vec<RecordBatch>, IndexError> {
        let mut plan = Vec::new();
        let mut group_start = 0u64;
        for (g, group) in self.meta.metadata().row_groups().iter().enumerate() {
            let n = group.num_rows() as u64;
            let (lo, hi) = (rows.start.max(group_start), rows.end.min(group_start + n));
            if lo < hi {
                let local = (lo - group_start) as usize..(hi - group_start) as usize;
                plan.push((g, std::iter::once(local).collect()));
            }
            group_start += n;
        }
        self.read_ranges(&plan, columns)
    }

    /// Rows `rows` (indexes within the file, sorted, distinct) of `columns`.
    pub fn rows(&self, rows: &[u64], columns: &[&str]) -> Result<Vec<RecordBatch>, IndexError> {
        let mut plan: Plan = Vec::new();
        let mut group_start = 0u64;
        let mut wanted = rows.iter().peekable();
        for (i, group) in self.meta.metadata().row_groups().iter().enumerate() {
            let group_end = group_start + group.num_rows() as u64;
            // The wanted rows of this group as ranges (consecutive rows merged).
            let mut ranges: Vec<Range<usize>> = Vec::new();
            while let Some(&&row) = wanted.peek() {
                if row >= group_end {
                    break;
                }
                wanted.next();
                let local = (row.max(group_start) - group_start) as usize;
                match ranges.last_mut() {
                    Some(last) if last.end == local => last.end += 1,
                    Some(last) if last.end > local => {}
                    _ => ranges.push(local..local + 1),
                }
            }
            if !ranges.is_empty() {
                plan.push((i, ranges));
            }
            group_start = group_end;
        }
        self.read_ranges(&plan, columns)
    }

    /// Every row of `columns`.
    pub fn all_rows(&self, columns: &[&str]) -> Result<Vec<RecordBatch>, IndexError> {
        let groups: Vec<usize> = (0..self.meta.metadata().num_row_groups()).collect();
        for &group in &groups {
            self.check(group, std::slice::from_ref(&(0..usize::MAX)), columns)?;
        }
        self.read(groups, None, columns)
    }

    /// Checks the pages that hold `rows` of row group `group` in `columns` against their
    /// checksums.
    fn check(&self, group: usize, rows: &[Range<usize>], columns: &[&str]) -> Result<(), IndexError> {
        let schema = self.meta.metadata().file_metadata().schema_descr();
        let indexes: Vec<usize> = (0..schema.num_columns())
            .filter(|&c| columns.contains(&schema.column(c).path().parts()[0].as_str()))
            .collect();
        self.checksums
            .check_rows(&self.path, &self.file, self.meta.metadata(), group, rows, &indexes)
    }

    fn read(
        &self,
        row_groups: Vec<usize>,
        selection: Option<RowSelection>,
        columns: &[&str],
    ) -> Result<Vec<RecordBatch>, IndexError> {
        let file = PositionalFile(Arc::clone(&self.file));
        let schema = self.meta.metadata().file_metadata().schema_descr();
        let mask = ProjectionMask::columns(schema, columns.iter().copied());
        let mut builder = ParquetRecordBatchReaderBuilder::new_with_metadata(file, self.meta.clone())
            .with_row_groups(row_groups)
            .with_projection(mask)
            .with_batch_size(8192);
        if let Some(selection) = selection {
            builder = builder.with_row_selection(selection);
        }
        // The pages' checksums match, but a hostile file can make them match: the parquet
        // crate's decoders panic on some crafted pages, an error here (`without_panics`).
        without_panics("a page", || {
            let reader = builder.build()?;
            let mut batches = Vec::new();
            for batch in reader {
                batches.push(batch.map_err(|e| ParquetError::ArrowError(e.to_string()))?);
            }
            Ok(batches)
        })
        .map_err(|e| IndexError::parquet(&self.path, e))
    }
}

/// What a lookup looks for in column 0: a 16-byte key, or a `positions` file's key prefix.
enum Lookup {
    Bytes([u8; 16]),
    Int(i64),
}

impl Lookup {
    /// Whether the value lies outside the statistics `min..=max` (plain-encoded bytes).
    fn outside(&self, min: &[u8], max: &[u8]) -> bool {
        match self {
            Lookup::Bytes(key) => key.as_slice() < min || key.as_slice() > max,
            Lookup::Int(key) => match (<[u8; 8]>::try_from(min), <[u8; 8]>::try_from(max)) {
                (Ok(min), Ok(max)) => *key < i64::from_le_bytes(min) || *key > i64::from_le_bytes(max),
                _ => false,
            },
        }
    }
}

/// The row ranges (of a row group of `n` rows) of the pages that may hold `key` in a sorted
/// column; `page(p)`: page `p`'s min, max, and whether it holds only nulls.
fn pages_holding<'a, T: PartialOrd + ?Sized + 'a>(
    pages: &[parquet::file::page_index::offset_index::PageLocation],
    n: usize,
    key: &T,
    page: impl Fn(usize) -> (Option<&'a T>, Option<&'a T>, bool),
) -> Vec<Range<usize>> {
    let first_row = |p: usize| match pages.get(p) {
        Some(page) => (page.first_row_index.max(0) as usize).min(n),
        None => n,
    };
    let mut ranges: Vec<Range<usize>> = Vec::new();
    // The key column is sorted: the pages that may hold the key are consecutive. Find the
    // first page whose max is not below the key, and go on while a page's min is not above.
    let below = |p: usize| page(p).1.is_none_or(|max| max < key);
    let (mut start, mut end) = (0, pages.len());
    while start < end {
        let mid = (start + end) / 2;
        match below(mid) {
            true => start = mid + 1,
            false => end = mid,
        }
    }
    for p in start..pages.len() {
        match page(p) {
            (Some(min), _, _) if min > key => break,
            (Some(_), Some(max), _) if max < key => continue,
            (None, _, true) | (_, None, true) => continue,
            _ => {}
        }
        let range = first_row(p)..first_row(p + 1);
        match ranges.last_mut() {
            Some(last) if last.end == range.start => last.end = range.end,
            _ => ranges.push(range),
        }
    }
    ranges
}

/// The rows in both `a` and `b` (each sorted, disjoint ranges).
fn intersect(a: &[Range<usize>], b: &[Range<usize>]) -> Vec<Range<usize>> {
    let (mut i, mut j, mut out) = (0, 0, Vec::new());
    while i < a.len() && j < b.len() {
        let (start, end) = (a[i].start.max(b[j].start), a[i].end.min(b[j].end));
        if start < end {
            out.push(start..end);
        }
        match a[i].end <= b[j].end {
            true => i += 1,
            false => j += 1,
        }
    }
    out
}

/// A file read by position (`pread`), never by a shared offset: the `ChunkReader` the Parquet
/// reader gets, so that queries on one index can run on several threads at once (a
/// `File::try_clone` shares the offset, and concurrent readers would read each other's bytes).
struct PositionalFile(Arc<File>);

impl parquet::file::reader::Length for PositionalFile {
    fn len(&self) -> u64 {
        self.0.metadata().map_or(0, |m| m.len())
    }
}

impl parquet::file::reader::ChunkReader for PositionalFile {
    type T = PositionalReader;

    fn get_read(&self, start: u64) -> parquet::errors::Result<PositionalReader> {
        Ok(PositionalReader {
            file: Arc::clone(&self.0),
            at: start,
        })
    }

    fn get_bytes(&self, start: u64, length: usize) -> parquet::errors::Result<bytes::Bytes> {
        let mut buffer = vec![0u8; length];
        crate::checksums::read_at(&self.0, &mut buffer, start)?;
        Ok(buffer.into())
    }
}

/// Reads a file from a position of its own.
struct PositionalReader {
    file: Arc<File>,
    at: u64,
}

impl std::io::Read for PositionalReader {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = crate::checksums::read_some_at(&self.file, buf, self.at)?;
        self.at += n as u64;
        Ok(n)
    }
}
