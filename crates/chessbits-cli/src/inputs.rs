//! Input arguments: files, `-` for standard input, or directories standing for every PGN file below
//! them.

use std::fs::File;
use std::io::{self, Read};
use std::path::{Path, PathBuf};

/// `paths` with every directory replaced by the `.pgn` files below it (any depth, case-insensitive
/// extension), sorted so runs are reproducible; files and `-` (standard input) are kept as given.
/// An unreadable directory is an error naming it.
pub fn expand_inputs(paths: &[PathBuf]) -> Result<Vec<PathBuf>, String> {
    let mut files = Vec::new();
    for path in paths {
        if path.as_os_str() != "-" && path.is_dir() {
            let mut found = Vec::new();
            collect_pgn_files(path, &mut found)?;
            found.sort();
            files.extend(found);
        } else {
            files.push(path.clone());
        }
    }
    Ok(files)
}

/// Opens `path`, or standard input for `-`; the error names the path.
pub fn open_input(path: &Path) -> Result<Box<dyn Read>, String> {
    if path.as_os_str() == "-" {
        Ok(Box::new(io::stdin().lock()))
    } else {
        File::open(path)
            .map(|f| Box::new(f) as Box<dyn Read>)
            .map_err(|e| format!("{}: {e}", path.display()))
    }
}

/// The total length of `files` in bytes, or `None` if one is standard input (length unknown).
/// Files that cannot be read count as empty: opening them reports the error.
pub fn total_len(files: &[PathBuf]) -> Option<u64> {
    files
        .iter()
        .map(|path| match path.as_os_str() == "-" {
            true => None,
            false => Some(std::fs::metadata(path).map_or(0, |m| m.len())),
        })
        .sum()
}

fn collect_pgn_files(dir: &Path, found: &mut Vec<PathBuf>) -> Result<(), String> {
    let entries = std::fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    for entry in entries {
        let path = entry.map_err(|e| format!("{}: {e}", dir.display()))?.path();
        if path.is_dir() {
            collect_pgn_files(&path, found)?;
        } else if path.extension().is_some_and(|ext| ext.eq_ignore_ascii_case("pgn")) {
            found.push(path);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn directories_become_their_pgn_files_sorted_and_recursively() {
        let dir = tempfile::tempdir().unwrap();
        let sub = dir.path().join("sub");
        std::fs::create_dir(&sub).unwrap();
        for name in ["b.pgn", "a.PGN", "notes.txt"] {
            std::fs::write(dir.path().join(name), "").unwrap();
        }
        std::fs::write(sub.join("c.pgn"), "").unwrap();
        let single = PathBuf::from("x.pgn");
        let files = expand_inputs(&[single.clone(), dir.path().to_path_buf(), "-".into()]).unwrap();
        let expected = vec![
            single,
            dir.path().join("a.PGN"),
            dir.path().join("b.pgn"),
            sub.join("c.pgn"),
            PathBuf::from("-"),
        ];
        assert_eq!(files, expected);
    }

    #[test]
    fn missing_paths_are_kept_for_the_caller_to_report() {
        let missing = PathBuf::from("/nonexistent/chessbits/none.pgn");
        assert_eq!(expand_inputs(std::slice::from_ref(&missing)).unwrap(), vec![missing]);
    }
}
