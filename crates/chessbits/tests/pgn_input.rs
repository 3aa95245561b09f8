//! `pgn::read_file` and `pgn::read`: a PGN file read in one call, plain, gzip or zstd (recognised
//! by content), with the same games as `PgnReader`; compressed input without its feature is a
//! typed error, never garbage games. Run with `--features gzip,zstd` to test decompression.

use crate::common;

use std::io::Write;

use chessbits::pgn::{self, Compression, GameTree, InputError, PgnReader};

const FILE: &str = "pgn/shakmaty_lichess_db_1000k.pgn";

fn games(input: &[u8]) -> Vec<GameTree> {
    pgn::read(input).unwrap().map(Result::unwrap).collect()
}

fn gzip(bytes: &[u8]) -> Vec<u8> {
    // Two members, as `cat a.gz b.gz` makes: both are read.
    let (first, second) = bytes.split_at(bytes.len() / 2);
    let mut out = Vec::new();
    for part in [first, second] {
        let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        encoder.write_all(part).unwrap();
        out.extend(encoder.finish().unwrap());
    }
    out
}

#[test]
fn read_file_gives_the_games_of_the_reader() {
    let path = common::testdata_path().join(FILE);
    let expected: Vec<GameTree> = PgnReader::new(std::fs::File::open(&path).unwrap())
        .into_games()
        .map(Result::unwrap)
        .collect();
    assert!(expected.len() > 50);
    let read: Vec<GameTree> = pgn::read_file(&path).unwrap().map(Result::unwrap).collect();
    assert_eq!(read, expected);
    assert!(pgn::read_file(path.with_extension("missing")).is_err());
}

#[test]
fn compressed_input_is_decompressed_or_refused_by_feature() {
    let text = common::read_data(&common::testdata_path(), FILE);
    let plain = games(&text);
    for (compression, bytes) in [
        (Compression::Gzip, gzip(&text)),
        (Compression::Zstd, zstd::encode_all(&text[..], 3).unwrap()),
    ] {
        assert_eq!(Compression::detect(&bytes), compression);
        match pgn::read(&bytes[..]) {
            Ok(read) => {
                assert!(compression.is_supported(), "{compression}");
                let read: Vec<GameTree> = read.map(Result::unwrap).collect();
                assert!(read == plain, "{compression}: other games");
            }
            Err(error) => {
                assert!(!compression.is_supported(), "{compression}: {error}");
                assert_eq!(InputError::of(&error), Some(&InputError::Unsupported(compression)));
                let expected = format!("built without the `{compression}` feature");
                assert!(error.to_string().contains(&expected), "{error}");
            }
        }
    }
}
