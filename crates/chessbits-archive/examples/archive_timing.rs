//! Where the time of pack and unpack goes: parsing, encoding, decoding, writing PGN.
//!
//! `cargo run --release -p chessbits --example archive_timing [FILE]`

#[path = "../../chessbits/tests/common/mod.rs"]
mod common;

use std::io::Cursor;
use std::time::Instant;

use chessbits::pgn::PgnReader;
use chessbits_archive::{ArchiveReader, ArchiveWriter, WriterOptions};

fn main() {
    let path = std::env::args().nth(1).unwrap_or_else(|| {
        let path = common::shared_path().join("pgn/notnil_twic0920.pgn");
        path.to_string_lossy().into_owned()
    });
    let pgn = std::fs::read(&path).expect("readable PGN file");
    let mb = pgn.len() as f64 / 1e6;
    let t = Instant::now();
    let games: Vec<_> = PgnReader::new(&pgn[..]).into_games().filter_map(Result::ok).collect();
    let parse = t.elapsed().as_secs_f64();
    println!(
        "parse PGN        {parse:.3} s  {:.1} MB/s  ({} games)",
        mb / parse,
        games.len()
    );
    for threads in [1, 2] {
        for level in [3, 12] {
            let t = Instant::now();
            let options = WriterOptions {
                threads,
                zstd_level: level,
                ..WriterOptions::default()
            };
            let mut writer = ArchiveWriter::new(Vec::new(), options).expect("writer");
            for game in &games {
                writer.add_game(game).expect("storable");
            }
            let (bytes, _) = writer.finish().expect("finish");
            let pack = t.elapsed().as_secs_f64();
            println!(
                "pack  threads {threads} level {level:2}  {pack:.3} s  {:.1} MB/s  {} bytes",
                mb / pack,
                bytes.len()
            );
            let t = Instant::now();
            let mut reader = ArchiveReader::open(Cursor::new(bytes)).expect("open");
            let mut decoded = Vec::new();
            reader
                .decode_blocks(threads, |_, block| {
                    decoded.extend(block?);
                    Ok::<(), chessbits_archive::ArchiveError>(())
                })
                .expect("decode");
            let unpack = t.elapsed().as_secs_f64();
            println!(
                "decode threads {threads}           {unpack:.3} s  {:.1} MB/s",
                mb / unpack
            );
        }
    }
    let t = Instant::now();
    let text: usize = games.iter().map(|g| g.to_pgn().len()).sum();
    let write = t.elapsed().as_secs_f64();
    println!("write PGN        {write:.3} s  {:.1} MB/s ({text} bytes)", mb / write);
}
