//! Opening and querying an index directory one of whose files is hostile. A small real index
//! is built once (`chessbits_fuzz::index`); for each input one of its files (manifest, a table's
//! Parquet file, a page checksum sidecar) is changed, the directory written, opened with
//! `Index::open` and queried (explorer, search, games, verify). The first byte picks the file,
//! the second how it changes:
//!
//! - `% 3 == 0`: replaced by the rest of the input, nothing else changed (the checksums and
//!   lengths of the manifest catch it);
//! - `% 3 == 1`: patched in place (the next two bytes: the offset, big-endian, modulo the file's
//!   length; the rest: bytes written there), then the checksums fixed (sidecar entries and
//!   manifest), so the change reaches the Parquet reader or the sidecar's parser;
//! - `% 3 == 2`: replaced by the rest, checksums fixed.
//!
//! Errors are expected; panics, hangs and huge allocations are findings. A panic of the Parquet
//! reader that `chessbits_parquet::footer` catches (a crafted footer, FUZZING.md finding 9) is
//! an error like the others (see `let_parquet_panics_unwind`); one nothing catches is a finding.
#![no_main]

use std::sync::OnceLock;

use chessbits_fuzz::index::{base_files, fix_checksums, let_parquet_panics_unwind, query_all, write_files};
use chessbits_index::Index;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let_parquet_panics_unwind();
    static DIR: OnceLock<tempfile::TempDir> = OnceLock::new();
    let dir = DIR
        .get_or_init(|| tempfile::tempdir().expect("a temporary directory"))
        .path();
    let [selector, mode, rest @ ..] = data else {
        return;
    };
    let mut files = base_files().clone();
    let i = usize::from(*selector) % files.len();
    match mode % 3 {
        0 => files[i].1 = rest.to_vec(),
        1 => {
            let [high, low, patch @ ..] = rest else {
                return;
            };
            let file = &mut files[i].1;
            let at = usize::from(u16::from_be_bytes([*high, *low])) % file.len().max(1);
            let end = (at + patch.len()).min(file.len());
            file[at..end].copy_from_slice(&patch[..end - at]);
            fix_checksums(&mut files, i);
        }
        _ => {
            files[i].1 = rest.to_vec();
            fix_checksums(&mut files, i);
        }
    }
    write_files(dir, &files);
    if let Ok(index) = Index::open(dir) {
        query_all(&index);
    }
});
