//! Pages of an unfiltered search in index order, read from the key's run of rows in each
//! positions file: the same games as an index of one part, and every page a slice of the
//! complete answer, also when a page spans two files.

use crate::common;

use std::path::PathBuf;

use chessbits::position::Position;
use chessbits_index::{SearchOptions, SortOrder};
use common::{build_parts, bundled, positions};

#[test]
fn pages_of_an_index_in_parts_are_slices_of_the_whole_answer() {
    let dir = tempfile::tempdir().unwrap();
    let files: Vec<PathBuf> = bundled();
    assert!(files.len() >= 3, "{} bundled files", files.len());
    let third = files.len() / 3;
    let (a, rest) = files.split_at(third);
    let (b, c) = rest.split_at(third);
    let parts = build_parts(&dir.path().join("parts"), &[a, b, c]);
    let whole = build_parts(&dir.path().join("whole"), &[&files]);
    let positions_files = parts
        .manifest()
        .tables
        .iter()
        .flatten()
        .filter(|f| f.file.starts_with("positions/"));
    assert_eq!(positions_files.count(), 3);
    let all = SearchOptions {
        limit: usize::MAX,
        ..SearchOptions::default()
    };
    let mut queries = vec![Position::startpos()];
    queries.extend(positions(&files).into_iter().step_by(37));
    let mut spanning = 0;
    for pos in &queries {
        let complete = parts.search(pos, &all).unwrap();
        assert_eq!(complete, whole.search(pos, &all).unwrap(), "{}", pos.fen());
        assert_eq!(complete.total as usize, complete.games.len());
        // The same games as the path that reads every game (a sort by rating, re-sorted).
        let mut by_rating: Vec<u32> = parts
            .search(
                pos,
                &SearchOptions {
                    sort: SortOrder::Rating,
                    ..all.clone()
                },
            )
            .unwrap()
            .games
            .iter()
            .map(|h| h.row.game)
            .collect();
        by_rating.sort_unstable();
        let ids: Vec<u32> = complete.games.iter().map(|h| h.row.game).collect();
        assert_eq!(ids, by_rating, "{}", pos.fen());
        let total = complete.games.len();
        let offsets: Vec<usize> = match total > 40 {
            true => (0..=total + 2).collect(),
            false => vec![0, 1, total.saturating_sub(1), total, total + 5],
        };
        for offset in offsets {
            let options = SearchOptions {
                offset,
                limit: 3,
                ..SearchOptions::default()
            };
            let page = parts.search(pos, &options).unwrap();
            assert_eq!(page.total, complete.total);
            let want: Vec<_> = complete.games.iter().skip(offset).take(3).cloned().collect();
            assert_eq!(page.games, want, "{} at offset {offset}", pos.fen());
        }
        spanning += usize::from(total > 40);
    }
    assert!(spanning >= 1, "no position with games in every part");
}
