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
}

/// Sorts game rows (stable: ties keep the index order).
pub(crate) fn sort_rows(rows: &mut [crate::model::game::GameRow], sort: SortOrder) {
    match sort {
        SortOrder::Index => {}
        SortOrder::Date => rows.sort_by_key(|r| std::cmp::Reverse(r.date)),
        SortOrder::Rating => rows.sort_by_key(|r| crate::model::top_games::rating_order(r.average_rating())),
    }
}
