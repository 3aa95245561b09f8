//! Archive sizes of the shared PGN files next to the PGN, gzip and zstd sizes.
//!
//! `cargo bench -p chessbits-archive --bench archive_sizes [-- FILES...]` (default: the shared
//! collections, or their bundled extracts in `testdata/`). Per file and codec: archive bytes, bits per main-line move overall (the whole
//! archive), bits per move of the moves section alone, and the
//! share of moves, tags, comments and structure (the rest is container overhead). `LEVEL=n` sets
//! the zstd level, `SECTIONS=1` prints the bytes of every section.

#[path = "../../chessbits/benches/support/clock.rs"]
mod clock;
#[path = "../../chessbits/tests/common/mod.rs"]
mod common;

use std::io::Write;
use std::path::PathBuf;

use chessbits::pgn::PgnReader;
use chessbits_archive::{ArchiveWriter, MoveCodec, WriterOptions};
use clock::Clock;

fn main() {
    if !clock::benchmarking("archive_sizes") {
        return;
    }
    let mut files: Vec<PathBuf> = clock::args().into_iter().map(PathBuf::from).collect();
    if files.is_empty() {
        let dir = common::data_path().join("pgn");
        for name in [
            "shakmaty_lichess_db_1000k.pgn",
            "shakmaty_twic1599_1000k.pgn",
            "notnil_twic0920.pgn",
            "notnil_Carlsen.pgn",
        ] {
            files.push(dir.join(name));
        }
    }
    println!("| file | PGN | gzip -9 | zstd -19 | codec | archive | bits/move | move bits/move | moves | tags | comments | structure | pack s |");
    println!("|---|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|");
    for path in files {
        let pgn = std::fs::read(&path).expect("readable PGN file");
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
        gz.write_all(&pgn).expect("gzip");
        let gzip = gz.finish().expect("gzip").len();
        let zstd = zstd::bulk::compress(&pgn, 19).expect("zstd").len();
        let games: Vec<_> = PgnReader::new(&pgn[..]).into_games().filter_map(Result::ok).collect();
        for codec in MoveCodec::ALL {
            let start = Clock::wall();
            let mut options = WriterOptions {
                codec,
                ..WriterOptions::default()
            };
            if let Some(level) = std::env::var("LEVEL").ok().and_then(|l| l.parse().ok()) {
                options.zstd_level = level;
            }
            let mut writer = ArchiveWriter::new(Vec::new(), options).expect("writer");
            for game in &games {
                writer.add_game(game).expect("storable game");
            }
            let (_, s) = writer.finish().expect("finish");
            let seconds = start.seconds();
            let pct = |share: &str| format!("{:.1}%", 100.0 * s.share_bytes(share) as f64 / s.bytes as f64);
            println!(
                "| {} | {} | {gzip} | {zstd} | {codec} | {} | {:.2} | {:.2} | {} | {} | {} | {} | {seconds:.2} |",
                path.file_name().and_then(|n| n.to_str()).unwrap_or("?"),
                pgn.len(),
                s.bytes,
                s.bits_per_move(),
                s.share_bytes("moves") as f64 * 8.0 / s.moves.max(1) as f64,
                pct("moves"),
                pct("tags"),
                pct("comments"),
                pct("structure"),
            );
            if std::env::var_os("SECTIONS").is_some() {
                let names: Vec<String> = chessbits_archive::SectionKind::ALL
                    .iter()
                    .zip(s.section_bytes)
                    .map(|(kind, bytes)| format!("{kind:?} {bytes}"))
                    .collect();
                println!("<!-- {} -->", names.join(", "));
            }
        }
    }
}
