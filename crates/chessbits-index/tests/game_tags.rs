//! What the index reads from a game's tags and result token: the result by the library's one
//! rule (`GameResult::declared`: the movetext's token, else the `Result` tag), and dates whose
//! year the packed month cannot hold read as unknown instead of wrapping into a wrong month.

use std::path::Path;

use chessbits::pgn::GameTree;
use chessbits_index::{
    resolve_position, BuildOptions, ExploreOptions, Filters, Index, IndexBuilder, SearchOptions, SourceInfo,
};

/// An index of the PGN text `pgn`, built in `dir`.
fn index_of(dir: &Path, pgn: &str) -> Index {
    let out = dir.join("index");
    let mut builder = IndexBuilder::create(&out, BuildOptions::default()).unwrap();
    builder
        .add_reader(pgn.as_bytes(), SourceInfo::named("games.pgn"))
        .unwrap();
    builder.finish().unwrap();
    Index::open(&out).unwrap()
}

/// The explorer's `(white, draws, black)` at the position after `moves`, with `filters`.
fn counts(index: &Index, moves: &str, filters: Filters) -> (u64, u64, u64) {
    let options = ExploreOptions {
        filters,
        ..ExploreOptions::default()
    };
    let explorer = index
        .explore(&resolve_position(None, moves).unwrap(), &options)
        .unwrap();
    (explorer.white, explorer.draws, explorer.black)
}

/// Games whose `Result` tag and result token disagree count by the token, as
/// `GameTree::declared_result` reads them; a game ending in `*` counts by its tag. The explorer
/// (rows of positions of several games and a position of one game alike), the search's rows
/// and the core agree.
#[test]
fn the_result_token_decides_over_the_tag() {
    let games = [
        "[Result \"1-0\"]\n\n1. e4 e5 2. Nf3 0-1\n",
        "[Result \"0-1\"]\n\n1. e4 e5 2. d4 *\n",
        "[Result \"1/2-1/2\"]\n\n1. e4 e5 2. Bc4 1-0\n",
        "[Result \"?\"]\n\n1. e4 e5 2. c3 1/2-1/2\n",
    ];
    let pgn = games.join("\n");
    let dir = tempfile::tempdir().unwrap();
    let index = index_of(dir.path(), &pgn);
    let declared: Vec<String> = games
        .iter()
        .map(|g| GameTree::from_pgn(g.as_bytes()).unwrap().declared_result().to_string())
        .collect();
    assert_eq!(declared, ["0-1", "0-1", "1-0", "1/2-1/2"]);
    // Every game stands in the position after 1. e4 e5.
    assert_eq!(counts(&index, "e4 e5", Filters::default()), (1, 1, 2));
    // A position one game reaches (answered from that game's row).
    assert_eq!(counts(&index, "e4 e5 Nf3", Filters::default()), (0, 0, 1));
    assert_eq!(counts(&index, "e4 e5 Bc4", Filters::default()), (1, 0, 0));
    let found = index
        .search(&resolve_position(None, "e4 e5").unwrap(), &SearchOptions::default())
        .unwrap();
    let mut results: Vec<(u32, String)> = found.games.iter().map(|h| (h.row.game, h.row.result.clone())).collect();
    results.sort();
    let expected: Vec<(u32, String)> = (0..).zip(declared).collect();
    assert_eq!(results, expected);
}

/// A date past `MAX_YEAR` (`9999.12.31`: its month number does not fit the 16 bits of the
/// explorer's month and wrapped to August 4538) is unknown: no date in the game's row, no
/// month for the `since`/`until` filters. A 5-digit year is not a date either; `UTCDate`
/// falls back to `Date` as for `????.??.??`.
#[test]
fn a_date_past_the_last_year_is_unknown() {
    use chessbits_index::model::game::{pack_date, MAX_YEAR};
    let pgn = [
        "[UTCDate \"9999.12.31\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Nf3 1-0\n",
        "[Date \"65535.01.01\"]\n[Result \"0-1\"]\n\n1. e4 e5 2. d4 0-1\n",
        "[UTCDate \"5461.01.01\"]\n[Date \"2023.05.06\"]\n[Result \"1/2-1/2\"]\n\n1. e4 e5 2. Bc4 1/2-1/2\n",
        "[UTCDate \"5460.12.31\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. c3 1-0\n",
    ]
    .join("\n");
    assert_eq!(MAX_YEAR, 5460);
    assert_eq!(pack_date("9999.12.31"), 0);
    let dir = tempfile::tempdir().unwrap();
    let index = index_of(dir.path(), &pgn);
    let found = index
        .search(&resolve_position(None, "e4 e5").unwrap(), &SearchOptions::default())
        .unwrap();
    let mut dates: Vec<(u32, u32)> = found.games.iter().map(|h| (h.row.game, h.row.date)).collect();
    dates.sort();
    assert_eq!(dates, [(0, 0), (1, 0), (2, 20230506), (3, 54601231)]);
    let months = |since: &str, until: &str| Filters::default().since(since).unwrap().until(until).unwrap();
    // Where 9999-12 wrapped to: nothing there.
    assert_eq!(counts(&index, "e4 e5", months("4538-01", "4538-12")), (0, 0, 0));
    assert_eq!(counts(&index, "e4 e5 Nf3", months("4538-08", "4538-08")), (0, 0, 0));
    // Every month: the games of known dates only.
    assert_eq!(counts(&index, "e4 e5", months("0001-01", "9999-12")), (1, 1, 0));
    assert_eq!(counts(&index, "e4 e5", months("5460-12", "5460-12")), (1, 0, 0));
    assert_eq!(counts(&index, "e4 e5", Filters::default()), (2, 1, 1));
}
