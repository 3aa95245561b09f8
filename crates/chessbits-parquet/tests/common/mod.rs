//! Helpers shared by the export's integration tests.
// Each test binary uses some of them.
#![allow(dead_code)]

use std::fs;
use std::path::{Path, PathBuf};

/// The `.pgn` files below `dir`, at any depth, sorted.
pub fn pgn_files(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files.extend(pgn_files(&path));
        } else if path.extension().is_some_and(|e| e == "pgn") {
            files.push(path);
        }
    }
    files.sort();
    files
}
