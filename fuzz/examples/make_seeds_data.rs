//! Writes the seed corpora of the data-file targets (`corpus/export_rows/seed-*` and
//! `corpus/training_data/seed-*`): small exports of bundled games (a part file, the PGN, typed
//! rows) and small training-data files played by the engine's datagen and written by its
//! writer. Run from `fuzz/`: `cargo run --example make_seeds_data`.

use chessbits_fuzz::write_seed as write;
use std::fs;
use std::path::Path;

use chessbits::pgn::PgnReader;
use chessbits_engine::datagen::format::{header, GameReader, GameWriter, TrainingGame};
use chessbits_engine::datagen::{play_game, DatagenConfig};
use chessbits_engine::tt::TranspositionTable;
use chessbits_parquet::{ExportOptions, ExportReader, GameRow, MovesCode, ParquetExporter};

/// Games with what the rebuild looks at: clocks and evals, a NAG, a variation, a comment, a null
/// move, a FEN start, a Chess960 game, tags out of the lichess order.
const PGN: &str = r#"[Event "Rated Blitz game"]
[Site "https://lichess.org/abc"]
[White "a"]
[Black "b"]
[Result "1-0"]
[UTCDate "2024.01.02"]
[UTCTime "03:04:05"]
[WhiteElo "1500"]
[BlackElo "1490"]
[WhiteRatingDiff "+6"]
[BlackRatingDiff "-6"]
[TimeControl "180+0"]

1. e4 { [%eval 0.17] [%clk 0:03:00] } 1... e5 { [%eval #-3] [%clk 0:03:00] } 2. Nf3 $1 (2. f4 exf4 {gambit}) 2... Nc6 1-0

[Event "Second"]
[FEN "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"]
[SetUp "1"]

1. e4 Kd7 2. -- Ke6 {null move} *

[Black "c"]
[White "d"]
[Variant "Chess960"]
[FEN "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9"]

9. b4 cxb4 10. axb4 Ne7 1/2-1/2
"#;

fn with(prefix: &[u8], bytes: &[u8]) -> Vec<u8> {
    let mut out = prefix.to_vec();
    out.extend_from_slice(bytes);
    out
}

/// The first `n` games of a bundled PGN file, as text.
fn bundled(file: &str, n: usize) -> Vec<u8> {
    let text = fs::read(Path::new("../testdata/pgn").join(file)).unwrap();
    let mut reader = PgnReader::new(&text[..]);
    let mut out = Vec::new();
    let mut bytes = Vec::new();
    for _ in 0..n {
        bytes.clear();
        reader.read_raw_game(&mut bytes).unwrap().unwrap();
        out.extend_from_slice(&bytes);
        out.extend_from_slice(b"\n\n");
    }
    out
}

/// The one part file of an export of `pgn` with `options` (its games checked by the reader).
fn part_file(pgn: &[u8], options: ExportOptions) -> Vec<u8> {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("export");
    let mut exporter = ParquetExporter::create(&out, options).unwrap();
    let source = exporter.add_source("seed.pgn");
    exporter.add_pgn(source, pgn).unwrap();
    exporter.finish().unwrap();
    let reader = ExportReader::open(&out).unwrap();
    assert_eq!(reader.parts().len(), 1);
    let path = reader.parts()[0].path.clone();
    assert!(reader.map(Result::unwrap).count() > 0);
    fs::read(path).unwrap()
}

/// Mode 2's input for the rows of `pgn`: the typed fields the target reads, from real rows.
fn typed_rows(pgn: &[u8], code: MovesCode) -> Vec<u8> {
    let mut out = vec![2, (code == MovesCode::IndexByte) as u8];
    let mut reader = PgnReader::new(pgn);
    let mut bytes = Vec::new();
    let mut first = true;
    while let Some(raw) = reader.read_raw_game(&mut bytes).unwrap() {
        let Ok(row) = GameRow::from_raw_with(&bytes, &raw, code) else {
            bytes.clear();
            continue;
        };
        bytes.clear();
        if !std::mem::take(&mut first) {
            out.push(0xff);
        }
        let items = |list: &Option<Vec<Option<i32>>>| -> Vec<u8> {
            list.iter()
                .flatten()
                .flat_map(|v| v.unwrap_or(i32::MIN).to_le_bytes())
                .collect()
        };
        let tags: String = row.other_tags.iter().map(|(k, v)| format!("{k}={v}\n")).collect();
        let fields: [Vec<u8>; 10] = [
            row.moves.clone().unwrap_or_default(),
            row.plies.to_le_bytes().to_vec(),
            items(&row.clocks),
            items(&row.evals),
            row.annotations.clone().unwrap_or_default().into_bytes(),
            row.start_fen.clone().unwrap_or_default().into_bytes(),
            row.result.clone().unwrap_or_default().into_bytes(),
            row.white.clone().unwrap_or_default().into_bytes(),
            tags.into_bytes(),
            row.white_elo.unwrap_or(0).to_le_bytes().to_vec(),
        ];
        out.extend_from_slice(&fields.join(&0xfe));
    }
    out
}

fn export_rows() {
    let lichess = bundled("shakmaty_lichess_db_1000k.pgn", 3);
    let twic = bundled("notnil_twic0920.pgn", 2);
    let small = ExportOptions {
        threads: 1,
        ..ExportOptions::default()
    };
    write(
        "export_rows",
        "seed-part-lichess",
        &with(&[0], &part_file(&lichess, small.clone())),
    );
    let index_byte = ExportOptions {
        moves_code: MovesCode::IndexByte,
        movetext: true,
        ..small.clone()
    };
    write(
        "export_rows",
        "seed-part-movetext",
        &with(&[0], &part_file(PGN.as_bytes(), index_byte)),
    );
    write("export_rows", "seed-pgn-lichess", &with(&[1], &lichess));
    write("export_rows", "seed-pgn-twic", &with(&[1], &twic));
    write("export_rows", "seed-pgn-edge", &with(&[1], PGN.as_bytes()));
    write("export_rows", "seed-pgn-edge-index-byte", &with(&[5], PGN.as_bytes()));
    write(
        "export_rows",
        "seed-rows-lichess",
        &typed_rows(&lichess, MovesCode::Entropy),
    );
    write(
        "export_rows",
        "seed-rows-edge",
        &typed_rows(PGN.as_bytes(), MovesCode::IndexByte),
    );
}

fn training_data() {
    let config = DatagenConfig {
        nodes: 300,
        max_plies: 80,
        threads: 1,
        ..DatagenConfig::default()
    };
    let tt = TranspositionTable::new(1);
    let games: Vec<TrainingGame> = (0..3).map(|i| play_game(&config, i, &tt)).collect();
    let mut writer = GameWriter::new(Vec::new()).unwrap();
    let mut records = Vec::new();
    for game in &games {
        let len = writer.write_game(game).unwrap();
        records.push(len);
    }
    let file = writer.finish().unwrap();
    let mut reader = GameReader::new(&file[..]).unwrap();
    for game in &games {
        assert_eq!(reader.next_game().unwrap().as_ref(), Some(game));
    }
    write("training_data", "seed-file", &with(&[0], &file));
    // Each game's body: after its length (one or two bytes), before its checksum.
    let mut at = header().len();
    for (i, len) in records.into_iter().enumerate() {
        let record = &file[at..at + len];
        let skip = if record[0] & 0x80 != 0 { 2 } else { 1 };
        write(
            "training_data",
            &format!("seed-body-{i}"),
            &with(&[1], &record[skip..len - 4]),
        );
        at += len;
    }
    // Mode 2: two games built from bytes (start selector, result, then 3 bytes a move).
    let mut built = vec![2, 0, 2];
    built.extend((0..60u8).flat_map(|i| [i.wrapping_mul(37), i, 0]));
    built.extend([0xff, 3, 1]);
    built.extend((0..30u8).flat_map(|i| [i | 0x80, 0x30, 0x7d]));
    write("training_data", "seed-built", &built);
}

fn main() {
    export_rows();
    training_data();
}
