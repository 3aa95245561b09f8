//! The tags of export rows: the tag columns (a number or a date written back as the text of its
//! tag) and `other_tags`, per row in the order the [`export_rows`](super::export_rows) module
//! documentation gives.

use std::path::Path;

use arrow_array::cast::AsArray;
use arrow_array::types::{Date32Type, Int64Type};
use arrow_array::{Array, ArrayRef, MapArray, PrimitiveArray, RecordBatch, StringArray};
use arrow_schema::DataType;
use chessbits_parquet::{TagColumnKind, TAG_COLUMN_KINDS};

use crate::error::IndexError;

/// The column `name` of `batch` cast to `to`, if the batch has it (`path` names the file in the
/// error of a failed cast).
pub(crate) fn cast_column(
    batch: &RecordBatch,
    path: &Path,
    name: &str,
    to: &DataType,
) -> Result<Option<ArrayRef>, IndexError> {
    batch
        .column_by_name(name)
        .map(|c| arrow_cast::cast(c, to).map_err(|e| IndexError::input(path, format!("column `{name}`: {e}"))))
        .transpose()
}

/// The tag columns of an export batch, as text.
pub(crate) struct ExportTags {
    /// Per tag column that the batch has: its name and its values as text.
    columns: Vec<(&'static str, StringArray)>,
    /// `other_tags`: the map, and its keys and values as text.
    other: Option<(MapArray, StringArray, StringArray)>,
}

impl ExportTags {
    /// Reads the tag columns of `batch` (`path` names it in errors).
    pub(crate) fn new(batch: &RecordBatch, path: &Path) -> Result<ExportTags, IndexError> {
        let bad = |name: &str, e: String| IndexError::input(path, format!("column `{name}`: {e}"));
        let cast = |name: &str, to: &DataType| cast_column(batch, path, name, to);
        let mut columns = Vec::new();
        for (name, kind) in TAG_COLUMN_KINDS {
            let values = match kind {
                TagColumnKind::Date => {
                    cast(name, &DataType::Date32)?.map(|a| date_text(a.as_primitive::<Date32Type>()))
                }
                TagColumnKind::Number => {
                    cast(name, &DataType::Int64)?.map(|a| number_text(a.as_primitive::<Int64Type>()))
                }
                TagColumnKind::Text | TagColumnKind::Time => {
                    cast(name, &DataType::Utf8)?.map(|a| a.as_string::<i32>().clone())
                }
            };
            if let Some(values) = values {
                columns.push((name, values));
            }
        }
        let other = match batch.column_by_name("other_tags") {
            None => None,
            Some(column) => {
                let map = column.as_map_opt().ok_or_else(|| {
                    bad(
                        "other_tags",
                        format!("a {} where a map was expected", column.data_type()),
                    )
                })?;
                let keys =
                    arrow_cast::cast(map.keys(), &DataType::Utf8).map_err(|e| bad("other_tags", e.to_string()))?;
                let values =
                    arrow_cast::cast(map.values(), &DataType::Utf8).map_err(|e| bad("other_tags", e.to_string()))?;
                Some((
                    map.clone(),
                    keys.as_string::<i32>().clone(),
                    values.as_string::<i32>().clone(),
                ))
            }
        };
        Ok(ExportTags { columns, other })
    }

    /// The tags of row `i` in the order the module documentation gives.
    pub(crate) fn row(&self, i: usize) -> Vec<(&str, &str)> {
        let column = |name: &str| {
            self.columns
                .iter()
                .find(|(n, _)| *n == name)
                .and_then(|(_, a)| (!a.is_null(i)).then(|| a.value(i)))
        };
        let mut other: Vec<(&str, &str)> = Vec::new();
        if let Some((map, keys, values)) = &self.other
            && !map.is_null(i)
        {
            let offsets = map.value_offsets();
            for j in offsets[i] as usize..offsets[i + 1] as usize {
                if !keys.is_null(j) && !values.is_null(j) {
                    other.push((keys.value(j), values.value(j)));
                }
            }
        }
        // The roster first, for a readable PGN. A hoisted `Date`/`Round` is the first of its
        // name, so the order among tags of one name (the last one counts) is kept.
        let mut tags = Vec::with_capacity(self.columns.len() + other.len());
        for name in ["Event", "Site"] {
            tags.extend(column(name).map(|v| (name, v)));
        }
        for name in ["Date", "Round"] {
            if let Some(j) = other.iter().position(|(n, _)| *n == name) {
                tags.push(other.remove(j));
            }
        }
        for name in ["White", "Black", "Result"] {
            tags.extend(column(name).map(|v| (name, v)));
        }
        for (name, _) in &self.columns {
            if !matches!(*name, "Event" | "Site" | "White" | "Black" | "Result") {
                tags.extend(column(name).map(|v| (*name, v)));
            }
        }
        tags.extend(other);
        tags
    }
}

/// Numbers as the text of their tag.
fn number_text(a: &PrimitiveArray<Int64Type>) -> StringArray {
    a.iter().map(|v| v.map(|v| v.to_string())).collect()
}

/// Days since 1970 as `YYYY.MM.DD`.
fn date_text(a: &PrimitiveArray<Date32Type>) -> StringArray {
    a.iter()
        .map(|v| {
            v.map(|days| {
                let (y, m, d) = civil_from_days(days as i64);
                format!("{y:04}.{m:02}.{d:02}")
            })
        })
        .collect()
}

/// The proleptic Gregorian date of a day number (days since 1970-01-01; Howard Hinnant's
/// algorithm).
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + (m <= 2) as i64;
    (y, m, d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn civil_dates() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(19_723), (2024, 1, 1));
        assert_eq!(civil_from_days(19_782), (2024, 2, 29));
        assert_eq!(civil_from_days(-1), (1969, 12, 31));
    }
}
