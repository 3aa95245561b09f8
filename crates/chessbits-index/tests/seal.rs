//! `seal`: tables written by another tool (here rewritten with a plain Parquet writer, as Spark
//! writes them: other file names, no index metadata, no checksums, several files per table)
//! become an index that answers exactly as the index they came from; files that are not as the
//! index wants them are refused with an error naming the file and the column or row, and the
//! directory is left as it was.

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use arrow_array::{Array, ArrayRef, Int32Array, Int64Array, RecordBatch};
use arrow_schema::{DataType, Field, Schema};
use chessbits_index::model::sources::SourceRow;
use chessbits_index::{
    resolve_position, seal_with_sources, BuildOptions, ExploreOptions, Index, IndexBuilder, IndexError, SearchOptions,
};
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use parquet::arrow::ArrowWriter;
use parquet::file::properties::{EnabledStatistics, WriterProperties};

/// A local index of a bundled file, and its sources.
fn local_index(dir: &Path) -> (PathBuf, Vec<SourceRow>) {
    let out = dir.join("local");
    let mut builder = IndexBuilder::create(&out, BuildOptions::default()).unwrap();
    let pgn = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/pgn/shakmaty_twic1599_1000k.pgn");
    builder.add_file(&pgn).unwrap();
    builder.finish().unwrap();
    let sources = Index::open(&out).unwrap().sources().to_vec();
    (out, sources)
}

/// Every row of a table of the index in `dir` (one file per table: a new local index), as one
/// batch.
fn table_rows(dir: &Path, table: &str) -> RecordBatch {
    let file = fs::File::open(dir.join(table).join("part-00000.parquet")).unwrap();
    let builder = ParquetRecordBatchReaderBuilder::try_new(file).unwrap();
    let rows = builder.metadata().file_metadata().num_rows() as usize;
    let mut reader = builder.with_batch_size(rows.max(1)).build().unwrap();
    let batch = reader.next().unwrap().unwrap();
    assert_eq!(batch.num_rows(), rows);
    batch
}

/// Writes `batch` as `parts` files of `out/table/` named as Spark names them, with Hadoop's
/// checksum files and `_SUCCESS` beside them.
fn write_parts(out: &Path, table: &str, batch: &RecordBatch, parts: usize, props: &WriterProperties) {
    let dir = out.join(table);
    fs::create_dir_all(&dir).unwrap();
    let per = batch.num_rows().div_ceil(parts);
    for p in 0..parts {
        let start = (p * per).min(batch.num_rows());
        let len = per.min(batch.num_rows() - start);
        let name = format!("part-{p:05}-0e7c1a2b-c000.zstd.parquet");
        let file = fs::File::create(dir.join(&name)).unwrap();
        let mut writer = ArrowWriter::try_new(file, batch.schema(), Some(props.clone())).unwrap();
        writer.write(&batch.slice(start, len)).unwrap();
        writer.close().unwrap();
        fs::write(dir.join(format!(".{name}.crc")), b"hadoop").unwrap();
    }
    fs::write(dir.join("_SUCCESS"), b"").unwrap();
}

/// The local index's tables rewritten as another tool writes them, `parts` files each.
fn spark_like(local: &Path, out: &Path, parts: usize, props: &WriterProperties) {
    for table in ["explorer", "positions", "games"] {
        write_parts(out, table, &spark_rows(local, table), parts, props);
    }
}

/// The rows another tool writes for `table`: the local index's, except `positions`, which such a
/// tool writes wide (format 3: one row per ply with full keys; the seal narrows them).
fn spark_rows(local: &Path, table: &str) -> RecordBatch {
    match table {
        "positions" => Index::open(local).unwrap().wide_positions_of_file(0).unwrap(),
        _ => table_rows(local, table),
    }
}

/// Everything some queries answer, as text.
fn answers(dir: &Path) -> String {
    let index = Index::open(dir).unwrap();
    let mut out = String::new();
    for moves in [
        "",
        "e4",
        "d4 Nf6",
        "d4 Nf6 c4 e6",
        "e4 c5 Nf3 d6",
        "c4",
        "e4 e5 Nf3 Nc6 Bb5",
    ] {
        let pos = resolve_position(None, moves).unwrap();
        let explorer = index.explore(&pos, &ExploreOptions::default()).unwrap();
        out.push_str(&format!("{explorer:?}\n"));
        let options = SearchOptions {
            limit: usize::MAX,
            ..SearchOptions::default()
        };
        out.push_str(&format!("{:?}\n", index.search(&pos, &options).unwrap()));
    }
    out
}

fn names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn sealed_tables_answer_as_the_local_index() {
    let dir = tempfile::tempdir().unwrap();
    let (local, sources) = local_index(dir.path());
    let spark = dir.path().join("spark");
    spark_like(&local, &spark, 3, &WriterProperties::default());
    let summary = seal_with_sources(&spark, sources).unwrap();
    assert_eq!(summary.games, Index::open(&local).unwrap().games());
    // Three files of each table written elsewhere and of each derived per-file table, one sources file.
    let manifest = Index::open(&spark).unwrap().manifest().clone();
    assert_eq!(summary.files, manifest.tables.iter().map(Vec::len).sum::<usize>());
    assert_eq!(summary.files, 3 * (chessbits_index::manifest::TABLES.len() - 1) + 1);
    assert_eq!(
        names(&spark.join("positions")),
        [
            ".part-00000.parquet.crc",
            ".part-00001.parquet.crc",
            ".part-00002.parquet.crc",
            "part-00000.parquet",
            "part-00001.parquet",
            "part-00002.parquet"
        ]
    );
    assert_eq!(answers(&spark), answers(&local));
    let index = Index::open(&spark).unwrap();
    index.verify().unwrap();
    // A second seal is refused.
    let again = seal_with_sources(&spark, index.sources().to_vec()).unwrap_err();
    assert!(again.to_string().contains("an index already"), "{again}");
}

#[test]
fn files_without_page_indexes_answer_the_same() {
    // Statistics per column chunk only: no column index, so a lookup reads whole row groups.
    let dir = tempfile::tempdir().unwrap();
    let (local, sources) = local_index(dir.path());
    let spark = dir.path().join("spark");
    let props = WriterProperties::builder()
        .set_statistics_enabled(EnabledStatistics::Chunk)
        .set_max_row_group_size(100)
        .build();
    spark_like(&local, &spark, 2, &props);
    seal_with_sources(&spark, sources).unwrap();
    // The explorer file as written (the seal rewrites positions files in its own layout).
    let file = fs::File::open(spark.join("explorer/part-00000.parquet")).unwrap();
    let options = parquet::arrow::arrow_reader::ArrowReaderOptions::new().with_page_index(true);
    let meta = parquet::arrow::arrow_reader::ArrowReaderMetadata::load(&file, options).unwrap();
    assert!(meta.metadata().num_row_groups() > 1);
    let has_column_index = meta.metadata().column_index().is_some_and(|groups| {
        groups
            .iter()
            .flatten()
            .any(|c| !matches!(c, parquet::file::page_index::column_index::ColumnIndexMetaData::NONE))
    });
    assert!(!has_column_index, "the test needs files without a column index");
    assert_eq!(answers(&spark), answers(&local));
}

/// Seals `spark` and expects an error whose text has `expected`; the directory must be left as
/// it was.
fn refused(spark: &Path, sources: Vec<SourceRow>, expected: &str) -> IndexError {
    let before: Vec<Vec<String>> = ["explorer", "positions", "games"]
        .iter()
        .map(|t| names(&spark.join(t)))
        .collect();
    let error = seal_with_sources(spark, sources).unwrap_err();
    assert!(matches!(error, IndexError::Format { .. }), "{error:?}");
    assert!(error.to_string().contains(expected), "{error}");
    let after: Vec<Vec<String>> = ["explorer", "positions", "games"]
        .iter()
        .map(|t| names(&spark.join(t)))
        .collect();
    assert_eq!(before, after);
    assert!(!spark.join("manifest.json").exists() && !spark.join("sources").exists());
    error
}

/// `batch` with its column `name` replaced.
fn with_column(batch: &RecordBatch, name: &str, field: Field, array: ArrayRef) -> RecordBatch {
    let c = batch.schema().index_of(name).unwrap();
    let mut fields: Vec<Field> = batch.schema().fields().iter().map(|f| f.as_ref().clone()).collect();
    let mut columns = batch.columns().to_vec();
    fields[c] = field;
    columns[c] = array;
    RecordBatch::try_new(Arc::new(Schema::new(fields)), columns).unwrap()
}

#[test]
fn an_unsorted_part_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let (local, sources) = local_index(dir.path());
    let spark = dir.path().join("spark");
    spark_like(&local, &spark, 2, &WriterProperties::default());
    // Positions: rows 10 and 11 of the second file swapped (keys differ there: a sorted table
    // has few repeats).
    let rows = spark_rows(&local, "positions");
    let half = rows.num_rows().div_ceil(2);
    let second = rows.slice(half, rows.num_rows() - half);
    let keys = second
        .column(0)
        .as_any()
        .downcast_ref::<arrow_array::BinaryArray>()
        .unwrap();
    let i = (10..second.num_rows() - 1)
        .find(|&i| keys.value(i) != keys.value(i + 1))
        .unwrap();
    let file = spark.join("positions/part-00001-0e7c1a2b-c000.zstd.parquet");
    let mut writer = ArrowWriter::try_new(fs::File::create(&file).unwrap(), second.schema(), None).unwrap();
    for (start, len) in [(0, i), (i + 1, 1), (i, 1), (i + 2, second.num_rows() - i - 2)] {
        writer.write(&second.slice(start, len)).unwrap();
    }
    writer.close().unwrap();
    let error = refused(&spark, sources, &format!("positions: row {} is out of order", i + 1));
    assert!(error.to_string().contains("part-00001-0e7c1a2b"), "{error}");
}

#[test]
fn a_column_of_another_type_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let (local, sources) = local_index(dir.path());
    let spark = dir.path().join("spark");
    spark_like(&local, &spark, 1, &WriterProperties::default());
    let games = table_rows(&local, "games");
    let plies: Vec<i64> = games
        .column_by_name("plies")
        .unwrap()
        .as_any()
        .downcast_ref::<Int32Array>()
        .unwrap()
        .values()
        .iter()
        .map(|&p| p as i64)
        .collect();
    let bad = with_column(
        &games,
        "plies",
        Field::new("plies", DataType::Int64, false),
        Arc::new(Int64Array::from(plies)),
    );
    fs::remove_dir_all(spark.join("games")).unwrap();
    write_parts(&spark, "games", &bad, 1, &WriterProperties::default());
    refused(
        &spark,
        sources,
        "games: column `plies` is Int64 where the index has Int32",
    );
}

#[test]
fn a_gap_in_the_games_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let (local, sources) = local_index(dir.path());
    let spark = dir.path().join("spark");
    spark_like(&local, &spark, 2, &WriterProperties::default());
    let games = table_rows(&local, "games");
    let n = games.num_rows();
    // Game 7 missing: the first file ends at 6, the second starts at 8.
    fs::remove_dir_all(spark.join("games")).unwrap();
    let dir_games = spark.join("games");
    fs::create_dir_all(&dir_games).unwrap();
    for (name, part) in [
        ("part-00000-a.parquet", games.slice(0, 7)),
        ("part-00001-a.parquet", games.slice(8, n - 8)),
    ] {
        let mut writer =
            ArrowWriter::try_new(fs::File::create(dir_games.join(name)).unwrap(), part.schema(), None).unwrap();
        writer.write(&part).unwrap();
        writer.close().unwrap();
    }
    refused(&spark, sources.clone(), "games: row 0 is game 8 where 7 is next");

    // All games there, but fewer than the sources have.
    let mut more = sources.clone();
    more[0].games += 1;
    fs::remove_dir_all(&dir_games).unwrap();
    write_parts(&spark, "games", &games, 2, &WriterProperties::default());
    refused(&spark, more, &format!("{n} games where the sources have {}", n + 1));
}

#[test]
fn nulls_in_a_non_null_column_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let (local, sources) = local_index(dir.path());
    let spark = dir.path().join("spark");
    spark_like(&local, &spark, 1, &WriterProperties::default());
    // `result` optional in the file (as Spark writes every column) and null in one row.
    let games = table_rows(&local, "games");
    let result = games.column_by_name("result").unwrap();
    let nulls: Vec<bool> = (0..games.num_rows()).map(|i| i != 3).collect();
    let data = result
        .to_data()
        .into_builder()
        .nulls(Some(nulls.into()))
        .build()
        .unwrap();
    let bad = with_column(
        &games,
        "result",
        Field::new("result", DataType::Utf8, true),
        arrow_array::make_array(data),
    );
    fs::remove_dir_all(spark.join("games")).unwrap();
    write_parts(&spark, "games", &bad, 1, &WriterProperties::default());
    refused(&spark, sources, "games: 1 nulls in column `result`");
}
