//! Search: the games that stand in an exact position at any ply, in pages.

use chessbits::position::Position;

use super::{Filters, GameHit, Index};
use crate::error::IndexError;
use crate::key::PositionKey;

/// The order of a search's games.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum SortOrder {
    /// As they were added to the index.
    #[default]
    Index,
    /// Newest first (games of unknown date last).
    Date,
    /// Highest average rating first (unrated games last).
    Rating,
}

/// What to search for and which page to return.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchOptions {
    pub filters: Filters,
    pub sort: SortOrder,
    /// Games skipped before the page.
    pub offset: usize,
    /// Games in the page.
    pub limit: usize,
}

impl Default for SearchOptions {
    fn default() -> SearchOptions {
        SearchOptions {
            filters: Filters::default(),
            sort: SortOrder::Index,
            offset: 0,
            limit: 20,
        }
    }
}

/// A page of a search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult {
    pub key: PositionKey,
    /// Games that pass the filters (all pages).
    pub total: u64,
    /// The page.
    pub games: Vec<GameHit>,
}

impl Index {
    /// The games that stand in `pos` (at any ply, by key: transpositions included), filtered,
    /// sorted and paged as `options` say.
    pub fn search(&self, pos: &Position, options: &SearchOptions) -> Result<SearchResult, IndexError> {
        let key = PositionKey::of(pos);
        if options.filters.is_empty()
            && options.sort == SortOrder::Index
            && let Some(result) = self.search_runs(key, options)?
        {
            return Ok(result);
        }
        let ids = self.hit_games(key)?;
        // The plies and moves of the page's games come from their replay (format 3).
        let to_hits = |rows: Vec<crate::model::game::GameRow>| -> Result<Vec<GameHit>, IndexError> {
            let plies = self.plies_in(key, &rows)?;
            Ok(rows
                .into_iter()
                .zip(plies)
                .map(|(row, (plies, uci))| GameHit { row, plies, uci })
                .collect())
        };
        if options.filters.is_empty() && options.sort == SortOrder::Index {
            let page: Vec<u64> = ids.iter().copied().skip(options.offset).take(options.limit).collect();
            let games = to_hits(self.game_rows(&page)?)?;
            return Ok(SearchResult {
                key,
                total: ids.len() as u64,
                games,
            });
        }
        // Filtered and sorted on the columns that decide; the page's games are read whole.
        let mut rows: Vec<_> = self
            .game_summaries(&ids)?
            .into_iter()
            .filter(|r| options.filters.admits_game(r))
            .collect();
        sort_rows(&mut rows, options.sort);
        let total = rows.len() as u64;
        let page: Vec<u32> = rows
            .iter()
            .skip(options.offset)
            .take(options.limit)
            .map(|r| r.game)
            .collect();
        let mut wanted: Vec<u64> = page.iter().map(|&g| g as u64).collect();
        wanted.sort_unstable();
        let whole: std::collections::BTreeMap<u32, crate::model::game::GameRow> =
            self.game_rows(&wanted)?.into_iter().map(|r| (r.game, r)).collect();
        let games = to_hits(page.iter().map(|g| whole[g].clone()).collect())?;
        Ok(SearchResult { key, total, games })
    }

    /// A page of an unfiltered search in index order without reading every game of the
    /// position: in each positions file the key's rows are one run (rows sorted by prefix,
    /// rank, game), counted from the page index and read only where the page lies. `None` where
    /// a file's prefix has several ranks or the files' games are not in ascending order; the
    /// caller then resolves every row.
    fn search_runs(&self, key: PositionKey, options: &SearchOptions) -> Result<Option<SearchResult>, IndexError> {
        let mut runs = Vec::new();
        for file in 0..self.positions.len() {
            match self.key_run(key, file)? {
                Some(run) => runs.push((file, run)),
                None => return Ok(None),
            }
        }
        // The page: rows of the runs in file order, which is game order when each file's
        // games follow the previous file's (checked on the runs' first and last games).
        let (mut skip, mut wanted) = (options.offset as u64, options.limit as u64);
        let (mut page, mut last) = (Vec::new(), None::<u64>);
        for (file, run) in &runs {
            if run.is_empty() {
                continue;
            }
            let table = &self.positions[*file];
            let (first, end) = (self.run_game(*file, run.start)?, self.run_game(*file, run.end - 1)?);
            if last.is_some_and(|last| last >= first) {
                return Ok(None);
            }
            last = Some(end);
            let len = run.end - run.start;
            if skip >= len {
                skip -= len;
                continue;
            }
            let take = wanted.min(len - skip);
            if take > 0 {
                let rows = run.start + skip..run.start + skip + take;
                for batch in table.row_range(rows, &["game"])? {
                    let games = crate::model::column::<arrow_array::Int64Array>(&batch, "game", &table.path)?;
                    page.extend(games.values().iter().map(|&g| g as u64));
                }
            }
            skip = 0;
            wanted -= take;
        }
        let total = runs.iter().map(|(_, run)| run.end - run.start).sum();
        let rows = self.game_rows(&page)?;
        let plies = self.plies_in(key, &rows)?;
        let games = rows
            .into_iter()
            .zip(plies)
            .map(|(row, (plies, uci))| GameHit { row, plies, uci })
            .collect();
        Ok(Some(SearchResult { key, total, games }))
    }
}

/// Sorts game rows (stable: ties keep the index order).
pub(crate) fn sort_rows(rows: &mut [crate::model::game::GameRow], sort: SortOrder) {
    match sort {
        SortOrder::Index => {}
        SortOrder::Date => rows.sort_by_key(|r| std::cmp::Reverse(r.date)),
        SortOrder::Rating => rows.sort_by_key(|r| crate::model::top_games::rating_order(r.average_rating())),
    }
}
