//! The Parquet export read back: `ExportReader` on a part file of arbitrary bytes, and the PGN
//! rebuilt from a row (`rows_from_batch`, `GameRow::to_pgn`) of arbitrary typed columns or of a
//! real game. Only the crate's public read and rebuild API is used, so the target follows the
//! export's columns as they change.
//!
//! Input: a mode byte, then
//! - mode 0: a part file (`part-0.parquet` alone in an export directory), read through by
//!   `ExportReader`;
//! - mode 1: PGN text; every game the export's row maker accepts (`GameRow::from_raw_with`, the
//!   code from the mode byte's bit 2) goes through an Arrow batch (`rows_to_batch_with`,
//!   `rows_from_batch`) and is rebuilt;
//! - mode 2: a flag byte (bit 0: the code), then rows separated by `0xff` (at most 8), each
//!   row's fields by `0xfe`: moves, plies (little-endian, up to 4 bytes), clocks and evals
//!   (4-byte little-endian items, `i32::MIN` null), annotations, start FEN, `Result`, `White`,
//!   other tags (`name=value` lines), `WhiteElo` (2 bytes). A missing field is null.
//!
//! Nothing panics; errors are `ReadError`s and `RebuildError`s; after an error item the export
//! reader ends. A part file's games are numbered in order from row 0. A batch of typed columns
//! reads as rows. A real game's row rebuilds to the game the PGN reader reads from the input:
//! tags, start, main line, comments, NAGs, variations, result. A row without `annotations` that
//! rebuilds does so to PGN that reads back as one game of `plies` moves.
#![no_main]

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, OnceLock};

use arrow_array::builder::{ListBuilder, MapBuilder, PrimitiveBuilder, StringBuilder};
use arrow_array::types::Int32Type;
use arrow_array::{Array, ArrayRef, BinaryArray, Int16Array, Int32Array, RecordBatch, StringArray};
use arrow_schema::{DataType, Field, Schema};
use chessbits::pgn::{GameTree, PgnReader};
use chessbits_parquet::{
    rows_from_batch, rows_to_batch_with, schema_with, ExportReader, GameRow, MovesCode, MOVES_CODE_KEY,
};
use libfuzzer_sys::fuzz_target;

/// An export directory of this process, its one part file rewritten for each input.
fn export_dir() -> &'static PathBuf {
    static DIR: OnceLock<(tempfile::TempDir, PathBuf)> = OnceLock::new();
    &DIR.get_or_init(|| {
        chessbits_fuzz::index::let_parquet_panics_unwind();
        let dir = tempfile::tempdir().expect("a temporary directory");
        let path = dir.path().join("export");
        std::fs::create_dir(&path).expect("the export directory");
        (dir, path)
    })
    .1
}

/// Mode 0: `bytes` as an export's only part file.
fn read_part(bytes: &[u8]) {
    let dir = export_dir();
    std::fs::write(dir.join("part-0.parquet"), bytes).expect("the part file is written");
    let reader = ExportReader::open(dir).expect("a directory with a part file is an export");
    assert_eq!(reader.parts().len(), 1);
    let mut next_row = 0;
    let mut failed = false;
    for item in reader {
        assert!(!failed, "an item after an error");
        match item {
            Ok(game) => {
                assert_eq!((game.part, game.row), (0, next_row));
                next_row += 1;
            }
            Err(_) => failed = true,
        }
    }
}

/// Mode 1: every game of `pgn` the export takes, through a batch and rebuilt, equals the game.
fn real_games(pgn: &[u8], code: MovesCode) {
    let mut reader = PgnReader::new(pgn);
    let mut bytes = Vec::new();
    let mut games = 0;
    while games < 8 {
        bytes.clear();
        let Ok(Some(raw)) = reader.read_raw_game(&mut bytes) else {
            break;
        };
        games += 1;
        let Ok(row) = GameRow::from_raw_with(&bytes, &raw, code) else {
            continue;
        };
        let original = raw
            .reader(&bytes)
            .read_owned_game()
            .expect("reading from memory")
            .expect("a raw game is a game")
            .expect("a game the row maker takes reads");
        let batch = rows_to_batch_with(&[row.clone()], schema_with(code)).expect("a row of the export's schema");
        let back = rows_from_batch(&batch).expect("the export's batch reads");
        assert_eq!(back.len(), 1);
        // The schema has no `movetext`: the column and its Latin-1 mark stay behind.
        let expected = GameRow {
            movetext: String::new(),
            latin1_fields: row.latin1_fields.iter().filter(|f| *f != "movetext").cloned().collect(),
            partition_date: back[0].partition_date,
            ..row.clone()
        };
        assert_eq!(back[0], expected, "the row through a batch");
        let text = match back[0].to_pgn(code) {
            Ok(text) => text,
            // A main line with a null move has only its `movetext`.
            Err(chessbits_parquet::RebuildError::NullMove) if row.moves.is_none() => continue,
            Err(e) => panic!("a real game's row does not rebuild: {e}"),
        };
        let rebuilt = GameTree::from_pgn(&text).unwrap_or_else(|e| {
            panic!(
                "{e}: the rebuilt text does not read:\n{}",
                String::from_utf8_lossy(&text)
            )
        });
        assert!(
            rebuilt == original,
            "the rebuilt game differs:\n{}",
            String::from_utf8_lossy(&text)
        );
    }
}

fn int(bytes: &[u8]) -> i64 {
    let mut le = [0u8; 8];
    let n = bytes.len().min(8);
    le[..n].copy_from_slice(&bytes[..n]);
    i64::from_le_bytes(le)
}

fn list(bytes: &[u8]) -> Vec<Option<i32>> {
    bytes
        .chunks_exact(4)
        .map(|c| Some(i32::from_le_bytes(c.try_into().unwrap())).filter(|&v| v != i32::MIN))
        .take(512)
        .collect()
}

/// One row's typed fields; `None` is null.
#[derive(Default)]
struct Fields {
    moves: Option<Vec<u8>>,
    plies: Option<i32>,
    clocks: Option<Vec<Option<i32>>>,
    evals: Option<Vec<Option<i32>>>,
    texts: [Option<String>; 4],
    other_tags: Option<Vec<(String, String)>>,
    white_elo: Option<i16>,
}

fn fields(bytes: &[u8]) -> Fields {
    let mut parts = bytes.split(|&b| b == 0xfe);
    let mut next = || parts.next();
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    Fields {
        moves: next().map(<[u8]>::to_vec),
        plies: next().map(|b| int(&b[..b.len().min(4)]) as i32),
        clocks: next().map(list),
        evals: next().map(list),
        texts: [next().map(text), next().map(text), next().map(text), next().map(text)],
        other_tags: next().map(|b| chessbits_fuzz::tag_pairs(&text(b))),
        white_elo: next().map(|b| int(&b[..b.len().min(2)]) as i16),
    }
}

fn list_column(rows: &[Fields], get: impl Fn(&Fields) -> &Option<Vec<Option<i32>>>) -> ArrayRef {
    let mut builder = ListBuilder::new(PrimitiveBuilder::<Int32Type>::new());
    for r in rows {
        match get(r) {
            Some(items) => {
                builder.values().extend(items.iter().copied());
                builder.append(true);
            }
            None => builder.append(false),
        }
    }
    Arc::new(builder.finish())
}

/// Mode 2: rows of arbitrary typed columns, rebuilt.
fn typed_rows(flags: u8, data: &[u8]) {
    let code = MovesCode::ALL[usize::from(flags & 1)];
    let rows: Vec<Fields> = data.split(|&b| b == 0xff).take(8).map(fields).collect();
    let moves_field = Field::new("moves", DataType::Binary, true)
        .with_metadata(HashMap::from([(MOVES_CODE_KEY.to_string(), code.name().to_string())]));
    let mut schema = vec![
        moves_field,
        Field::new("plies", DataType::Int32, true),
        Field::new(
            "clocks",
            DataType::List(Arc::new(Field::new("item", DataType::Int32, true))),
            true,
        ),
        Field::new(
            "evals",
            DataType::List(Arc::new(Field::new("item", DataType::Int32, true))),
            true,
        ),
    ];
    let mut columns: Vec<ArrayRef> = vec![
        Arc::new(rows.iter().map(|r| r.moves.as_deref()).collect::<BinaryArray>()),
        Arc::new(rows.iter().map(|r| r.plies).collect::<Int32Array>()),
        list_column(&rows, |r| &r.clocks),
        list_column(&rows, |r| &r.evals),
    ];
    for (i, name) in ["annotations", "start_fen", "Result", "White"].into_iter().enumerate() {
        schema.push(Field::new(name, DataType::Utf8, true));
        columns.push(Arc::new(
            rows.iter().map(|r| r.texts[i].clone()).collect::<StringArray>(),
        ));
    }
    let mut map = MapBuilder::new(None, StringBuilder::new(), StringBuilder::new());
    for r in &rows {
        for (k, v) in r.other_tags.iter().flatten() {
            map.keys().append_value(k);
            map.values().append_value(v);
        }
        map.append(true).expect("a map row");
    }
    let map = map.finish();
    schema.push(Field::new("other_tags", map.data_type().clone(), false));
    columns.push(Arc::new(map));
    schema.push(Field::new("WhiteElo", DataType::Int16, true));
    columns.push(Arc::new(rows.iter().map(|r| r.white_elo).collect::<Int16Array>()));
    let batch = RecordBatch::try_new(Arc::new(Schema::new(schema)), columns).expect("a valid batch");
    let back = rows_from_batch(&batch).expect("columns of the export's types read");
    assert_eq!(back.len(), rows.len());
    for row in back {
        let Ok(text) = row.to_pgn(code) else {
            continue;
        };
        // Text the columns of a PGN file cannot hold (a line break in a tag value, ...) need not
        // read back.
        let plain = |s: &str| !s.chars().any(char::is_control);
        let strings = row.other_tags.iter().flat_map(|(k, v)| [k.as_str(), v.as_str()]);
        let strings = strings.chain(row.result.as_deref()).chain(row.white.as_deref());
        if row.annotations.is_some() || !strings.into_iter().all(plain) {
            continue;
        }
        let mut reader = PgnReader::new(&text[..]);
        let game = reader
            .read_owned_game()
            .expect("reading from memory")
            .expect("a game")
            .unwrap_or_else(|e| {
                panic!(
                    "{e}: the rebuilt text does not read:\n{}",
                    String::from_utf8_lossy(&text)
                )
            });
        assert_eq!(
            game.mainline().len(),
            row.plies as usize,
            "{}",
            String::from_utf8_lossy(&text)
        );
        assert!(reader.read_owned_game().expect("memory").is_none(), "one game");
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    match mode % 3 {
        0 => read_part(rest),
        1 => real_games(rest, MovesCode::ALL[usize::from(mode >> 2 & 1)]),
        _ => {
            if let Some((&flags, rest)) = rest.split_first() {
                typed_rows(flags, rest);
            }
        }
    }
});
