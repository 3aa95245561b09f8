//! `BlockStream`, the archive read front to back without seeking (a pipe), on arbitrary bytes.
//! The first byte picks how the rest is used, as in `archive_reader` (its seeds fit here too):
//! `% 3 == 0` the bytes as they are, `% 3 == 1` with the checksums recomputed, `% 3 == 2` a
//! block payload wrapped in a valid one-block archive.
//!
//! Nothing panics; the stream read all at once and read one byte per `read` (a trickling pipe)
//! gives the same blocks and ends the same way; a block error names its block. When the seeking
//! reader (`ArchiveReader::open`) opens the bytes without problems and decodes every block, the
//! stream reads the same blocks (same places, same games) and ends without error; when the
//! stream reads to its end without error, the seeking reader opens the bytes and agrees.
#![no_main]

use std::io::{Cursor, Read};

use chessbits_archive::{ArchiveError, ArchiveReader, BlockInfo, BlockStream, StoredGame};
use chessbits_fuzz::archive::{fix_checksums, wrap};
use libfuzzer_sys::fuzz_target;

/// Reads one byte per call, as a slow pipe can.
struct Trickle<'a>(&'a [u8]);

impl Read for Trickle<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = buf.len().min(self.0.len()).min(1);
        buf[..n].copy_from_slice(&self.0[..n]);
        self.0 = &self.0[n..];
        Ok(n)
    }
}

/// What a stream gave: per block read its place and its games (or the decode error's text),
/// then the error that ended it (its text), if any.
type Outcome = (Vec<(BlockInfo, Result<Vec<StoredGame>, String>)>, Option<String>);

fn stream(input: impl Read) -> Outcome {
    let mut blocks = Vec::new();
    let mut stream = match BlockStream::new(input) {
        Ok(stream) => stream,
        Err(error) => return (blocks, Some(error.to_string())),
    };
    let mut end = None;
    for block in stream.by_ref() {
        match block {
            Ok(raw) => {
                let games = raw.decode();
                if let Err(error) = &games {
                    assert_eq!(error.block(), Some(raw.info.number), "a decode error names its block");
                }
                blocks.push((raw.info, games.map_err(|e| e.to_string())));
            }
            Err(error) => {
                if let ArchiveError::Truncated { block } | ArchiveError::ChecksumMismatch { block } = error {
                    assert_eq!(block, blocks.len() as u64, "the error names the block being read");
                }
                end = Some(error.to_string());
            }
        }
    }
    assert!(stream.next().is_none(), "the stream stays ended");
    (blocks, end)
}

/// The seeking reader's blocks and games, when it opens the bytes without problems and
/// every block decodes.
fn seeking(bytes: &[u8]) -> Option<Vec<(BlockInfo, Vec<StoredGame>)>> {
    let mut reader = ArchiveReader::open(Cursor::new(bytes)).ok()?;
    if !reader.problems().is_empty() {
        return None;
    }
    let blocks: Result<Vec<_>, _> = reader
        .blocks()
        .map(|raw| raw.and_then(|raw| Ok((raw.info, raw.decode()?))))
        .collect();
    blocks.ok()
}

fn check(bytes: &[u8]) {
    let whole = stream(bytes);
    let trickled = stream(Trickle(bytes));
    assert_eq!(whole, trickled, "read at once and a byte at a time");
    let read_through = whole.1.is_none() && whole.0.iter().all(|(_, games)| games.is_ok());
    let expected = seeking(bytes);
    if let Some(expected) = &expected {
        let got: Vec<(BlockInfo, Vec<StoredGame>)> = whole
            .0
            .iter()
            .map(|(info, games)| (*info, games.clone().unwrap_or_default()))
            .collect();
        assert!(
            read_through,
            "the seeking reader reads it all, the stream ends with {:?}",
            whole.1
        );
        assert_eq!(&got, expected, "the stream's blocks are the seeking reader's");
    }
    assert!(
        !read_through || expected.is_some(),
        "the stream reads what the seeking reader refuses"
    );
}

fuzz_target!(|data: &[u8]| {
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    match mode % 3 {
        0 => check(rest),
        1 => {
            let mut bytes = rest.to_vec();
            fix_checksums(&mut bytes);
            check(&bytes);
        }
        _ => {
            let [codec_id, games, payload @ ..] = rest else {
                return;
            };
            check(&wrap(codec_id % 4, u32::from(*games % 16), payload));
        }
    }
});
