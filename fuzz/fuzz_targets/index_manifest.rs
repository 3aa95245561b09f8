//! The index manifest (`manifest.json`, `chessbits_index::manifest::Manifest::read`) on
//! arbitrary bytes, in a directory that holds a small real index's files (built once, see
//! `chessbits_fuzz::index`), so a manifest that parses is then opened (`Index::open`) and
//! queried against real tables.
//!
//! Nothing panics. A manifest that reads names only plain relative paths inside the index
//! (no `..`, `.`, empty part or leading `/`), holds every table, and an index that opens counts
//! the games its manifest says.
#![no_main]

use std::sync::OnceLock;

use chessbits_fuzz::index::{base_files, query_all, write_files};
use chessbits_index::manifest::{Manifest, MANIFEST, TABLES};
use chessbits_index::Index;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    static DIR: OnceLock<tempfile::TempDir> = OnceLock::new();
    let dir = DIR
        .get_or_init(|| {
            let dir = tempfile::tempdir().expect("a temporary directory");
            write_files(dir.path(), base_files());
            dir
        })
        .path();
    std::fs::write(dir.join(MANIFEST), data).expect("the manifest written");
    let Ok(manifest) = Manifest::read(dir) else {
        return;
    };
    for table in TABLES {
        for entry in manifest.files(table) {
            let file = entry.file.as_str();
            assert!(
                !file.is_empty() && !file.starts_with('/') && file.split('/').all(|p| !matches!(p, "" | "." | "..")),
                "a path that leaves the index: {file:?}"
            );
        }
    }
    if let Ok(index) = Index::open(dir) {
        assert_eq!(index.games(), manifest.games);
        assert_eq!(index.manifest(), &manifest);
        query_all(&index);
    }
});
