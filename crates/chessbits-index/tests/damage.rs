//! A damaged index never answers wrong: with one byte changed anywhere in any of its files (the
//! Parquet files, their page checksums, the manifest), opening it or querying it either fails
//! with an error or answers exactly what the undamaged index answers. No panics.

use std::path::Path;

use chessbits::position::Position;
use chessbits_index::{resolve_position, BuildOptions, ExploreOptions, Index, IndexBuilder, SearchOptions, SourceInfo};

/// Positions whose answers read pages all over the files: the start, openings, a rare one.
fn queries() -> Vec<Position> {
    [
        "",
        "e4",
        "e4 c5",
        "d4 Nf6 c4",
        "e4 e5 Nf3 Nc6 Bb5 a6",
        "Nf3 d5 g3",
        "a3 a6",
    ]
    .iter()
    .map(|moves| resolve_position(None, moves).unwrap())
    .collect()
}

/// Everything the queries answer, as text (or the first error).
fn answers(dir: &Path) -> Result<String, String> {
    let index = Index::open(dir).map_err(|e| e.to_string())?;
    let mut out = String::new();
    for pos in queries() {
        let explorer = index
            .explore(&pos, &ExploreOptions::default())
            .map_err(|e| e.to_string())?;
        out.push_str(&format!("{explorer:?}\n"));
        let options = SearchOptions {
            limit: usize::MAX,
            ..SearchOptions::default()
        };
        let found = index.search(&pos, &options).map_err(|e| e.to_string())?;
        out.push_str(&format!("{found:?}\n"));
    }
    Ok(out)
}

#[test]
fn a_changed_byte_is_an_error_or_changes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("index");
    let mut builder = IndexBuilder::create(&out, BuildOptions::default()).unwrap();
    let pgn =
        std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/pgn/shakmaty_lichess_db_1000k.pgn"))
            .unwrap();
    builder.add_reader(&pgn[..], SourceInfo::named("lichess.pgn")).unwrap();
    builder.finish().unwrap();
    let good = answers(&out).unwrap();

    let mut files: Vec<_> = walk(&out);
    files.sort();
    let (mut trials, mut errors) = (0, 0);
    for file in files {
        let bytes = std::fs::read(&file).unwrap();
        // About 150 places per file, always the first and last bytes.
        let step = (bytes.len() / 150).max(1);
        let mut places: Vec<usize> = (0..bytes.len()).step_by(step).collect();
        places.push(bytes.len() - 1);
        for place in places {
            let mut damaged = bytes.clone();
            damaged[place] ^= 0x10;
            std::fs::write(&file, &damaged).unwrap();
            trials += 1;
            match answers(&out) {
                Ok(text) => assert!(text == good, "{} byte {place}: a wrong answer", file.display()),
                Err(_) => errors += 1,
            }
        }
        std::fs::write(&file, &bytes).unwrap();
    }
    assert_eq!(answers(&out).unwrap(), good);
    assert!(
        trials > 1000 && errors > trials / 2,
        "{errors} errors in {trials} trials"
    );
}

fn walk(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files.extend(walk(&path));
        } else {
            files.push(path);
        }
    }
    files
}
