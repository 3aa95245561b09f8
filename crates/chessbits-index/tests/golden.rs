//! The layout pinned: an index of `testdata/index/golden.pgn` (castling both ways, a promotion,
//! en passant, a repetition, Chess960, a game without result) dumped table by table — every
//! column's name and type, every row — must equal `testdata/index/golden.txt`. A change of the
//! format shows here; after a deliberate one, regenerate with `CHESSBITS_BLESS=1 cargo test -p
//! chessbits-index --test integration golden::` and say so in the CHANGELOG.

use std::fmt::Write;
use std::fs::File;
use std::path::Path;

use arrow_array::{Array, BinaryArray, BooleanArray, Int32Array, Int64Array, ListArray, RecordBatch, StringArray};
use chessbits_index::manifest::TABLES;
use chessbits_index::{BuildOptions, Index, IndexBuilder, SourceInfo};
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;

fn cell(batch: &RecordBatch, column: usize, row: usize) -> String {
    let array = batch.column(column);
    if array.is_null(row) {
        return "null".to_string();
    }
    let any = array.as_any();
    if let Some(a) = any.downcast_ref::<BinaryArray>() {
        return a.value(row).iter().map(|b| format!("{b:02x}")).collect();
    }
    if let Some(a) = any.downcast_ref::<StringArray>() {
        return format!("{:?}", a.value(row));
    }
    if let Some(a) = any.downcast_ref::<Int64Array>() {
        return a.value(row).to_string();
    }
    if let Some(a) = any.downcast_ref::<Int32Array>() {
        return a.value(row).to_string();
    }
    if let Some(a) = any.downcast_ref::<BooleanArray>() {
        return a.value(row).to_string();
    }
    if let Some(a) = any.downcast_ref::<ListArray>() {
        let items = a.value(row);
        let cells: Vec<String> = (0..items.len())
            .map(|i| cell(&RecordBatch::try_from_iter([("item", items.clone())]).unwrap(), 0, i))
            .collect();
        return format!("[{}]", cells.join(","));
    }
    panic!("a column of type {} in the index", array.data_type());
}

fn dump(index: &Path, tables: &[&str]) -> String {
    let opened = Index::open(index).unwrap();
    let mut out = String::new();
    for &table in tables {
        for entry in opened.manifest().files(table) {
            let reader =
                ParquetRecordBatchReaderBuilder::try_new(File::open(index.join(&entry.file)).unwrap()).unwrap();
            let schema = reader.schema().clone();
            writeln!(out, "## {}", entry.file).unwrap();
            for field in schema.fields() {
                writeln!(
                    out,
                    "# {}: {}{}",
                    field.name(),
                    field.data_type(),
                    if field.is_nullable() { " null" } else { "" }
                )
                .unwrap();
            }
            for batch in reader.build().unwrap() {
                let batch = batch.unwrap();
                for row in 0..batch.num_rows() {
                    let cells: Vec<String> = (0..batch.num_columns())
                        .filter(|&c| {
                            !(table == "sources"
                                && ["path", "bytes", "modified"].contains(&schema.field(c).name().as_str()))
                        })
                        .map(|c| cell(&batch, c, row))
                        .collect();
                    writeln!(out, "{}", cells.join(" ")).unwrap();
                }
            }
        }
    }
    out
}

#[test]
fn golden_index_layout() {
    let testdata = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/index");
    let pgn = std::fs::read(testdata.join("golden.pgn")).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("index");
    let mut builder = IndexBuilder::create(&out, BuildOptions::default()).unwrap();
    builder.add_reader(&pgn[..], SourceInfo::named("golden.pgn")).unwrap();
    builder.finish().unwrap();
    let mut text = dump(&out, &TABLES);
    // The golden games reach no position often enough for top_games rows: 24 games that share
    // their first moves (ratings and dates with ties, one game without a result) do.
    let mut popular = String::new();
    for i in 0..24u32 {
        let result = ["1-0", "0-1", "1/2-1/2", "*"][(i % 4) as usize];
        let elo = [1500, 1700, 1500, 2100, 1900][(i % 5) as usize];
        let date = ["2024.01.05", "2024.01.??", "2023.11.30"][(i % 3) as usize];
        let last = ["Nc6", "d6", "Nf6"][(i % 3) as usize];
        popular.push_str(&format!(
            "[WhiteElo \"{elo}\"]\n[BlackElo \"1600\"]\n[UTCDate \"{date}\"]\n[Result \"{result}\"]\n\n1. e4 e5 2. Nf3 {last} {result}\n\n"
        ));
    }
    let out = dir.path().join("popular");
    let mut builder = IndexBuilder::create(&out, BuildOptions::default()).unwrap();
    builder
        .add_reader(popular.as_bytes(), SourceInfo::named("popular.pgn"))
        .unwrap();
    builder.finish().unwrap();
    text.push_str("# an index of 24 games that share their first moves\n");
    text.push_str(&dump(&out, &["top_games"]));
    let golden = testdata.join("golden.txt");
    if std::env::var_os("CHESSBITS_BLESS").is_some() {
        std::fs::write(&golden, &text).unwrap();
    }
    let expected = std::fs::read_to_string(&golden).unwrap();
    assert!(
        text == expected,
        "the index layout changed: compare with {}\n{text}",
        golden.display()
    );
}
