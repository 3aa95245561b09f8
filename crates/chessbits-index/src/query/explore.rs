//! The explorer: the moves played from a position, with how those games ended, as the lichess
//! opening explorer shows them.

use std::collections::BTreeMap;

use chessbits::notation::san::san_of;
use chessbits::notation::uci::parse_uci;
use chessbits::position::Position;

use super::{Filters, GameHit, Index};
use crate::error::IndexError;
use crate::key::PositionKey;
use crate::model::game::{date_text, GameRow, Outcome};
use crate::model::top_games::{rating_order, TopGameRow, LISTED};

/// What to show.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExploreOptions {
    pub filters: Filters,
    /// Moves listed at most (the most played first).
    pub moves: usize,
    /// Highest-rated games listed, and most recent games listed.
    pub top_games: usize,
    pub recent_games: usize,
}

impl Default for ExploreOptions {
    fn default() -> ExploreOptions {
        ExploreOptions {
            filters: Filters::default(),
            moves: usize::MAX,
            top_games: 4,
            recent_games: 4,
        }
    }
}

/// A position's move table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Explorer {
    pub key: PositionKey,
    pub position: Position,
    /// Games that reached the position (and passed the filters), by result.
    pub white: u64,
    pub draws: u64,
    pub black: u64,
    /// The moves, most played first.
    pub moves: Vec<ExplorerMove>,
    /// The highest-rated games that reached the position, and the most recent ones.
    pub top_games: Vec<GameHit>,
    pub recent_games: Vec<GameHit>,
}

/// One move of the table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExplorerMove {
    pub uci: String,
    pub san: String,
    pub white: u64,
    pub draws: u64,
    pub black: u64,
    /// The average of the games' average ratings (games with both ratings).
    pub average_rating: Option<u64>,
    /// The date of its latest game (`YYYY.MM.DD`).
    pub last_date: Option<String>,
    /// The game, when the move was played in exactly one: its tags (`white`, `black`, the
    /// ratings, `result`, `date`, `speed`, `event`, `site`, as the lichess explorer shows a
    /// move's only game); its other columns are left empty (`None`, 0), which saves reading
    /// them for every such move ([`Index::game_rows`] reads the whole row).
    pub game: Option<GameRow>,
}

impl ExplorerMove {
    /// Games that played the move.
    pub fn games(&self) -> u64 {
        self.white + self.draws + self.black
    }
}

impl Explorer {
    /// Games that reached the position.
    pub fn games(&self) -> u64 {
        self.white + self.draws + self.black
    }

    /// The position after one of the table's moves (`None` if `uci` is not legal here).
    pub fn position_after(&self, uci: &str) -> Option<Position> {
        let m = parse_uci(&self.position, uci).ok()?;
        let mut pos = self.position.clone();
        pos.play_unchecked(m);
        Some(pos)
    }
}

/// A move's counts while they add up.
#[derive(Default)]
struct Tally {
    white: u64,
    draws: u64,
    black: u64,
    rated: u64,
    rating_sum: u64,
    last: (u32, u64),
}

impl Index {
    /// The move table of `pos`. Counts are per game: the games that reached the position, and
    /// per move the games that played it at their first visit of the position. Games without a
    /// decided result are not counted.
    ///
    /// The top and recent games come from the `top_games` table (see
    /// [`crate::model::top_games`]) when the query has no filters and asks for at most
    /// [`LISTED`] of each; otherwise (a speed, rating, month or player filter, or longer lists)
    /// every game of the position is read to pick them, which for the start position of a big
    /// index takes seconds. Both ways give the same games in the same order.
    ///
    /// The counts come from the `explorer_summary` table (see
    /// [`crate::model::explorer_summary`]) for a popular position when the query has no month
    /// filter (speed and rating filters are sums of its rows), else from the `explorer` rows;
    /// with a player filter, from the games. All ways give the same counts.
    pub fn explore(&self, pos: &Position, options: &ExploreOptions) -> Result<Explorer, IndexError> {
        self.explore_with(pos, options, true)
    }

    /// What [`explore`](Self::explore) answers, always found the slow way: every game of the
    /// position is read to pick the listed games, and the counts are sums of `explorer` rows
    /// (the `top_games` and `explorer_summary` tables are not used). For checks and comparisons.
    pub fn explore_scan(&self, pos: &Position, options: &ExploreOptions) -> Result<Explorer, IndexError> {
        self.explore_with(pos, options, false)
    }

    fn explore_with(
        &self,
        pos: &Position,
        options: &ExploreOptions,
        precomputed: bool,
    ) -> Result<Explorer, IndexError> {
        let key = PositionKey::of(pos);
        let filters = &options.filters;
        let mut tallies: BTreeMap<Option<String>, Tally> = BTreeMap::new();
        let wants_lists = options.top_games > 0 || options.recent_games > 0;
        let from_table =
            precomputed && filters.is_empty() && options.top_games <= LISTED && options.recent_games <= LISTED;
        // The player filter needs the games themselves; the others are sums of explorer rows.
        let listed = match filters.player.is_some() || (wants_lists && !from_table) {
            true => Some(self.filtered_hits(key, filters, filters.player.is_some())?),
            false => None,
        };
        match (&filters.player, &listed) {
            (Some(_), Some(hits)) => {
                for hit in hits {
                    let Some(outcome) = hit.row.outcome() else { continue };
                    let tally = tallies.entry(hit.uci.clone()).or_default();
                    match outcome {
                        Outcome::WhiteWins => tally.white += 1,
                        Outcome::Draw => tally.draws += 1,
                        Outcome::BlackWins => tally.black += 1,
                    }
                    if let Some(average) = hit.row.average_rating() {
                        tally.rated += 1;
                        tally.rating_sum += average as u64;
                    }
                    tally.last = tally.last.max((hit.row.date, hit.row.game as u64));
                }
            }
            _ => {
                // Without a month filter, the rows summed over months answer the same.
                let summed = precomputed && filters.since.is_none() && filters.until.is_none();
                for row in self.explorer_rows(key, summed, !filters.is_empty())? {
                    if !filters.admits_row(&row) {
                        continue;
                    }
                    let tally = tallies.entry(row.uci.clone()).or_default();
                    tally.white += row.white;
                    tally.draws += row.draws;
                    tally.black += row.black;
                    tally.rated += row.rated;
                    tally.rating_sum += row.rating_sum;
                    tally.last = tally.last.max((row.last_date, row.last_game));
                }
            }
        }
        let mut explorer = Explorer {
            key,
            position: pos.clone(),
            white: 0,
            draws: 0,
            black: 0,
            moves: Vec::new(),
            top_games: Vec::new(),
            recent_games: Vec::new(),
        };
        let mut moves: Vec<(ExplorerMove, u64)> = Vec::new();
        for (uci, tally) in tallies {
            explorer.white += tally.white;
            explorer.draws += tally.draws;
            explorer.black += tally.black;
            let Some(uci) = uci else { continue };
            let san = match parse_uci(pos, &uci) {
                Ok(m) => san_of(pos, m).to_string(),
                Err(_) => {
                    let path = self.dir().join(crate::manifest::MANIFEST);
                    return Err(IndexError::format(
                        &path,
                        format!("the stored move {uci} is not legal in {}", pos.fen()),
                    ));
                }
            };
            moves.push((
                ExplorerMove {
                    uci,
                    san,
                    white: tally.white,
                    draws: tally.draws,
                    black: tally.black,
                    average_rating: (tally.rated > 0).then(|| tally.rating_sum / tally.rated),
                    last_date: date_text(tally.last.0),
                    game: None,
                },
                tally.last.1,
            ));
        }
        moves.sort_by(|(a, _), (b, _)| b.games().cmp(&a.games()).then_with(|| a.uci.cmp(&b.uci)));
        moves.truncate(options.moves);
        // A move played in one game shows that game (its latest game is the one).
        let mut single: Vec<u64> = moves
            .iter()
            .filter(|(m, _)| m.games() == 1)
            .map(|(_, game)| *game)
            .collect();
        single.sort_unstable();
        single.dedup();
        let rows = self.move_games(&single)?;
        for (mut m, game) in moves {
            if m.games() == 1 {
                m.game = rows.iter().find(|r| r.game as u64 == game).cloned();
            }
            explorer.moves.push(m);
        }
        let candidates = match listed {
            // Only decided games are listed, as only they are counted.
            Some(hits) => Some(
                hits.into_iter()
                    .filter(|h| h.row.outcome().is_some())
                    .map(|h| TopGameRow {
                        game: h.row.game,
                        rating: h.row.average_rating(),
                        date: h.row.date,
                        plies: h.plies,
                        uci: h.uci,
                    })
                    .collect(),
            ),
            None if wants_lists => Some(self.listed_candidates(key)?),
            None => None,
        };
        if let Some(candidates) = candidates {
            (explorer.top_games, explorer.recent_games) =
                self.pick_games(key, candidates, options.top_games, options.recent_games)?;
        }
        Ok(explorer)
    }

    /// The top and recent games among `candidates` (in game order): sorted (stably) by rating,
    /// the first `top`; then by date, the first `recent`. The listed games are read whole.
    fn pick_games(
        &self,
        key: PositionKey,
        mut candidates: Vec<TopGameRow>,
        top: usize,
        recent: usize,
    ) -> Result<(Vec<GameHit>, Vec<GameHit>), IndexError> {
        candidates.sort_by_key(|c| rating_order(c.rating));
        let top: Vec<u32> = candidates.iter().take(top).map(|c| c.game).collect();
        candidates.sort_by_key(|c| std::cmp::Reverse(c.date));
        let recent: Vec<u32> = candidates.iter().take(recent).map(|c| c.game).collect();
        let mut wanted: Vec<u64> = top.iter().chain(&recent).map(|&g| g as u64).collect();
        wanted.sort_unstable();
        wanted.dedup();
        let whole: BTreeMap<u32, GameRow> = self.game_rows(&wanted)?.into_iter().map(|r| (r.game, r)).collect();
        let mut by_game: BTreeMap<u32, TopGameRow> = candidates.into_iter().map(|c| (c.game, c)).collect();
        // Candidates read from the positions table have no plies yet (every game that stands in
        // the position has one): the picked games' come from their replay.
        let unknown: Vec<u64> = wanted
            .iter()
            .copied()
            .filter(|&g| by_game.get(&(g as u32)).is_some_and(|c| c.plies.is_empty()))
            .collect();
        if !unknown.is_empty() {
            let rows: Vec<GameRow> = unknown.iter().map(|g| whole[&(*g as u32)].clone()).collect();
            for (row, (plies, uci)) in rows.iter().zip(self.plies_in(key, &rows)?) {
                if let Some(c) = by_game.get_mut(&row.game) {
                    (c.plies, c.uci) = (plies, uci);
                }
            }
        }
        let pick = |games: &[u32]| -> Vec<GameHit> {
            games
                .iter()
                .map(|g| GameHit {
                    row: whole[g].clone(),
                    plies: by_game[g].plies.clone(),
                    uci: by_game[g].uci.clone(),
                })
                .collect()
        };
        Ok((pick(&top), pick(&recent)))
    }

    /// The candidates for the lists of the key's position, from the `top_games` table: per
    /// positions file, its lists when it has them, else its few decided games read directly.
    /// In game order.
    fn listed_candidates(&self, key: PositionKey) -> Result<Vec<TopGameRow>, IndexError> {
        let mut candidates = Vec::new();
        for file in 0..self.positions.len() {
            let listed = self.top_game_rows(key, file)?;
            if !listed.is_empty() {
                candidates.extend(listed);
                continue;
            }
            let mut ids: Vec<u64> = self.resolve(key, file, false)?.into_iter().map(|c| c.game).collect();
            ids.sort_unstable();
            ids.dedup();
            // Plies and moves are found (by replay) for the picked games only.
            for row in self.game_summaries(&ids)? {
                if row.outcome().is_none() {
                    continue;
                }
                candidates.push(TopGameRow {
                    game: row.game,
                    rating: row.average_rating(),
                    date: row.date,
                    plies: Vec::new(),
                    uci: None,
                });
            }
        }
        candidates.sort_by_key(|c| c.game);
        Ok(candidates)
    }

    /// The games that reached the key's position and pass the filters, in index order.
    /// `with_moves`: each game's plies and move there are found (by replay); else they are left
    /// empty, for [`pick_games`](Self::pick_games) to find for the picked games.
    fn filtered_hits(&self, key: PositionKey, filters: &Filters, with_moves: bool) -> Result<Vec<GameHit>, IndexError> {
        let ids = self.hit_games(key)?;
        let rows: Vec<GameRow> = self
            .game_summaries(&ids)?
            .into_iter()
            .filter(|r| filters.admits_game(r))
            .collect();
        let mut moves = match with_moves {
            true => {
                let kept: Vec<u64> = rows.iter().map(|r| r.game as u64).collect();
                self.plies_of(key, &kept)?
            }
            false => Default::default(),
        };
        Ok(rows
            .into_iter()
            .map(|row| {
                let (plies, uci) = moves.remove(&(row.game as u64)).unwrap_or_default();
                GameHit { row, plies, uci }
            })
            .collect())
    }
}
