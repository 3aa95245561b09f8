//! A small real index for the index targets (`index_manifest`, `index_files`): built once per
//! fuzzing process, kept as its files' bytes, written into a directory for each input with one
//! file changed, then opened and queried.

use std::fs;
use std::path::Path;
use std::sync::OnceLock;

use chessbits_index::{
    resolve_position, BuildOptions, ExploreOptions, Filters, Index, IndexBuilder, SearchOptions, SortOrder, SourceInfo,
};
use serde_json::Value;

/// Games with what the tables and filters look at: ratings, dates, time controls (speeds),
/// every result, a game from a FEN, a Chess960 game, transpositions, a null move.
const PGN: &str = include_str!("index_games.pgn");

/// The index's files: `(path relative to the index directory, bytes)`, sorted by path.
pub type Files = Vec<(String, Vec<u8>)>;

/// The files of the index of [`PGN`], built on first use.
pub fn base_files() -> &'static Files {
    static FILES: OnceLock<Files> = OnceLock::new();
    FILES.get_or_init(|| {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let out = dir.path().join("index");
        let options = BuildOptions {
            threads: 1,
            memory: 64 << 20,
            ..BuildOptions::default()
        };
        let mut builder = IndexBuilder::create(&out, options).expect("a new index");
        builder
            .add_reader(PGN.as_bytes(), SourceInfo::named("games.pgn"))
            .expect("the games are read");
        builder.finish().expect("the index is built");
        let mut files = Vec::new();
        collect(&out, "", &mut files);
        files.sort();
        files
    })
}

fn collect(dir: &Path, prefix: &str, out: &mut Files) {
    for entry in fs::read_dir(dir).expect("the index directory") {
        let entry = entry.expect("an entry");
        let name = format!("{prefix}{}", entry.file_name().to_string_lossy());
        if entry.file_type().expect("a file type").is_dir() {
            collect(&entry.path(), &format!("{name}/"), out);
        } else {
            out.push((name, fs::read(entry.path()).expect("a file of the index")));
        }
    }
}

/// Writes `files` into `dir` (which the fuzzing process reuses: every file is rewritten).
pub fn write_files(dir: &Path, files: &Files) {
    for (name, bytes) in files {
        let path = dir.join(name);
        if let Some(parent) = path.parent() {
            fs::create_dir_all(parent).expect("a table directory");
        }
        fs::write(&path, bytes).expect("a file written");
    }
}

/// A file's sidecar of page checksums (`table/.NAME.crc`), as `chessbits_index::checksums`
/// names it.
pub fn sidecar_of(file: &str) -> String {
    chessbits_index::checksums::sidecar_name(file)
}

/// Makes the checksums of the index agree with file `i` of `files` after it changed, so that
/// the change reaches the Parquet reader (or the sidecar's parser) instead of failing a checksum:
/// a Parquet file's sidecar entries that still fit in it get the CRCs of its new bytes (those
/// that do not fit are dropped), and the manifest gets its new length, CRC-32 and sidecar CRC.
/// A changed sidecar gets its new CRC in the manifest. A changed manifest is left as it is.
pub fn fix_checksums(files: &mut Files, i: usize) {
    let name = files[i].0.clone();
    let Some(m) = files.iter().position(|(n, _)| n == "manifest.json") else {
        return;
    };
    let Ok(mut manifest) = serde_json::from_slice::<Value>(&files[m].1) else {
        return;
    };
    let Some(tables) = manifest.get_mut("tables").and_then(Value::as_object_mut) else {
        return;
    };
    for entry in tables.values_mut().filter_map(Value::as_array_mut).flatten() {
        let Some(file) = entry.get("file").and_then(Value::as_str).map(str::to_string) else {
            continue;
        };
        let sidecar = sidecar_of(&file);
        if file == name {
            let bytes = files[i].1.clone();
            if let Some(s) = files.iter().position(|(n, _)| *n == sidecar) {
                files[s].1 = resum_sidecar(&files[s].1, &bytes);
                entry["pages_crc32"] = crc(&files[s].1).into();
            }
            entry["bytes"] = (bytes.len() as u64).into();
            entry["crc32"] = crc(&bytes).into();
        } else if sidecar == name {
            entry["pages_crc32"] = crc(&files[i].1).into();
        }
    }
    files[m].1 = serde_json::to_vec_pretty(&manifest).expect("JSON writes");
}

fn crc(bytes: &[u8]) -> u64 {
    u64::from(crc32fast::hash(bytes))
}

/// The sidecar `sidecar` (layout in `chessbits_index::checksums`) with its entries' CRCs taken
/// over `file`; entries past the file's end are dropped. A sidecar that does not parse is kept.
fn resum_sidecar(sidecar: &[u8], file: &[u8]) -> Vec<u8> {
    if sidecar.len() < 12 || sidecar[12..].len() % 16 != 0 {
        return sidecar.to_vec();
    }
    let mut entries = Vec::new();
    for entry in sidecar[12..].chunks_exact(16) {
        let offset = u64::from_le_bytes(entry[0..8].try_into().expect("8 bytes"));
        let length = u32::from_le_bytes(entry[8..12].try_into().expect("4 bytes"));
        let Some(end) = offset
            .checked_add(u64::from(length))
            .filter(|&end| end <= file.len() as u64)
        else {
            continue;
        };
        entries.push((offset, length, crc32fast::hash(&file[offset as usize..end as usize])));
    }
    let mut out = sidecar[..8].to_vec();
    out.extend_from_slice(&(entries.len() as u32).to_le_bytes());
    for (offset, length, sum) in entries {
        out.extend_from_slice(&offset.to_le_bytes());
        out.extend_from_slice(&length.to_le_bytes());
        out.extend_from_slice(&sum.to_le_bytes());
    }
    out
}

/// Lets a panic raised inside the `parquet` crate (or by a crate it calls) unwind instead of
/// aborting at once. libFuzzer's panic hook aborts on every panic, caught or not; the
/// footer decoder's panics on a crafted footer are caught (`chessbits_parquet::footer`) and
/// become errors, so they are not findings. A panic of the crate that nothing catches still is:
/// it unwinds to `fuzz_target!`, which aborts. Call before the first input is run (the hook is
/// process-wide). With `CHESSBITS_FUZZ_SHOW_PARQUET_PANICS` set, every panic's message is
/// printed (the parquet crate's are otherwise silent).
pub fn let_parquet_panics_unwind() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let abort = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            // A panic the crate raises through the standard library (`capacity overflow` of a
            // `Vec::with_capacity` sized by the footer) or through `arrow-ipc` (an unknown type
            // in the embedded Arrow schema) has its location there: the backtrace says whose it
            // is. Letting one unwind that nothing catches still aborts, in `fuzz_target!`.
            let in_parquet = info.location().is_some_and(|l| l.file().contains("/parquet-"))
                || std::backtrace::Backtrace::force_capture()
                    .to_string()
                    .contains("/parquet-");
            if std::env::var_os("CHESSBITS_FUZZ_SHOW_PARQUET_PANICS").is_some() {
                eprintln!("{info}");
            }
            if !in_parquet {
                abort(info);
            }
        }));
    });
}

/// Runs the queries a user can run on `index` (explorer with and without filters, the scan,
/// search, games by number, a game's text, verify) on two positions; errors are fine, panics
/// are not. Kept to a few queries: each reads and decompresses pages, slow under ASan. Checks
/// what holds whatever the files say: a search page is no longer than its limit and its total,
/// and an explorer's moves count no more games than the position.
pub fn query_all(index: &Index) {
    let _ = index.verify();
    let filters = Filters::default()
        .speeds("blitz,rapid")
        .and_then(|f| f.ratings("1800,2200"))
        .and_then(|f| f.since("2023-01"))
        .expect("valid filters");
    let player = Filters {
        player: Some("alice".to_string()),
        ..Filters::default()
    };
    for moves in ["", "e4 e5 Nf3 Nc6"] {
        let pos = resolve_position(None, moves).expect("a legal line");
        let plain = ExploreOptions::default();
        let filtered = ExploreOptions {
            filters: filters.clone(),
            ..ExploreOptions::default()
        };
        for explorer in [index.explore(&pos, &plain), index.explore_scan(&pos, &filtered)]
            .into_iter()
            .flatten()
        {
            // In u128: the counts come from the files, which may say anything.
            let games = |w: u64, d: u64, b: u64| u128::from(w) + u128::from(d) + u128::from(b);
            let listed: u128 = explorer.moves.iter().map(|m| games(m.white, m.draws, m.black)).sum();
            let total = games(explorer.white, explorer.draws, explorer.black);
            assert!(listed <= total, "moves count more games than the position");
            let _ = explorer.to_lichess_json();
        }
        let options = SearchOptions {
            filters: player.clone(),
            sort: SortOrder::Date,
            offset: 1,
            limit: 3,
        };
        if let Ok(found) = index.search(&pos, &options) {
            assert!(found.games.len() <= 3, "a page longer than its limit");
            assert!(found.games.len() as u64 <= found.total, "a page longer than the total");
            for hit in &found.games {
                let _ = index.game_text(&hit.row);
            }
        }
    }
    let _ = index.game_rows(&[0, 1, 2, 5, 6, 1000]);
}
