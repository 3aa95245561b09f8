//! Where the time of pack and unpack goes: parsing, encoding, decoding, writing PGN.
//!
//! `cargo bench -p chessbits-archive --bench archive_timing [-- FILE]` (default: a shared file,
//! or its bundled extract in `testdata/`). One thread is timed in its CPU time, two in wall time.

#[path = "../../chessbits/benches/support/clock.rs"]
mod clock;
#[path = "../../chessbits/tests/common/mod.rs"]
mod common;

use std::io::Cursor;

use chessbits::pgn::PgnReader;
use chessbits_archive::{ArchiveReader, ArchiveWriter, WriterOptions};
use clock::Clock;

fn main() {
    if !clock::benchmarking("archive_timing") {
        return;
    }
    let path = clock::args().into_iter().next().unwrap_or_else(|| {
        let path = common::data_path().join("pgn/notnil_twic0920.pgn");
        path.to_string_lossy().into_owned()
    });
    let pgn = std::fs::read(&path).expect("readable PGN file");
    let mb = pgn.len() as f64 / 1e6;
    let t = Clock::start();
    let games: Vec<_> = PgnReader::new(&pgn[..]).into_games().filter_map(Result::ok).collect();
    let parse = t.seconds();
    println!(
        "parse PGN        {parse:.3} s  {:.1} MB/s  ({} games)",
        mb / parse,
        games.len()
    );
    for threads in [1, 2] {
        for level in [3, 12] {
            let t = Clock::for_threads(threads);
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
            let pack = t.seconds();
            println!(
                "pack  threads {threads} level {level:2}  {pack:.3} s  {:.1} MB/s  {} bytes",
                mb / pack,
                bytes.len()
            );
            let t = Clock::for_threads(threads);
            let mut reader = ArchiveReader::open(Cursor::new(bytes)).expect("open");
            let mut decoded = Vec::new();
            reader
                .decode_blocks(threads, |_, block| {
                    decoded.extend(block?);
                    Ok::<(), chessbits_archive::ArchiveError>(())
                })
                .expect("decode");
            let unpack = t.seconds();
            println!(
                "decode threads {threads}           {unpack:.3} s  {:.1} MB/s",
                mb / unpack
            );
        }
    }
    let t = Clock::start();
    let text: usize = games.iter().map(|g| g.to_pgn().len()).sum();
    let write = t.seconds();
    println!("write PGN        {write:.3} s  {:.1} MB/s ({text} bytes)", mb / write);
}
