//! The explorer's and the search's filters, as lichess's explorer offers them: speeds, rating
//! bands, a month range, and a player.

use crate::error::IndexError;
use crate::model::explorer::ExplorerRow;
use crate::model::game::{month_number, packed_month, rating_band, GameRow, Speed, RATING_BANDS};

/// Which games count. The default takes every game.
///
/// ```
/// use chessbits_index::{Filters, Speed};
/// let filters = Filters::default().speeds("blitz,rapid").unwrap().ratings("1600,1800").unwrap().since("2024-01").unwrap();
/// assert_eq!(filters.speeds, [Speed::Blitz, Speed::Rapid]);
/// assert!(Filters::default().ratings("1700").is_err(), "not a band");
/// assert!(Filters::default().until("2024-13").is_err());
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Filters {
    /// Only these speeds (empty: all, games of unknown speed included).
    pub speeds: Vec<Speed>,
    /// Only games whose players' average rating falls in these bands (lower bounds of
    /// [`RATING_BANDS`]; empty: all, unrated games included).
    pub ratings: Vec<u16>,
    /// Only games of this month or later, of this month or earlier (`year * 12 + month - 1`,
    /// see [`month_number`]); games of unknown month are left out when either is set.
    pub since: Option<u32>,
    pub until: Option<u32>,
    /// Only games this player played (the `White` or `Black` tag, case ignored).
    pub player: Option<String>,
}

impl Filters {
    /// Sets the speeds from lichess names separated by commas (`blitz,rapid`).
    pub fn speeds(mut self, list: &str) -> Result<Filters, IndexError> {
        self.speeds = list
            .split(',')
            .filter(|s| !s.trim().is_empty())
            .map(|s| {
                Speed::from_name(s).ok_or_else(|| {
                    IndexError::Query(format!(
                        "unknown speed '{}' (ultraBullet, bullet, blitz, rapid, classical, correspondence)",
                        s.trim()
                    ))
                })
            })
            .collect::<Result<_, _>>()?;
        Ok(self)
    }

    /// Sets the rating bands from their lower bounds separated by commas (`1600,1800`).
    pub fn ratings(mut self, list: &str) -> Result<Filters, IndexError> {
        self.ratings = list
            .split(',')
            .filter(|s| !s.trim().is_empty())
            .map(|s| match s.trim().parse::<u16>() {
                Ok(band) if RATING_BANDS.contains(&band) => Ok(band),
                _ => Err(IndexError::Query(format!(
                    "'{}' is not a rating band (one of {RATING_BANDS:?})",
                    s.trim()
                ))),
            })
            .collect::<Result<_, _>>()?;
        Ok(self)
    }

    /// Sets the first month (`YYYY-MM`).
    pub fn since(mut self, month: &str) -> Result<Filters, IndexError> {
        self.since = Some(parse_month(month)?);
        Ok(self)
    }

    /// Sets the last month (`YYYY-MM`).
    pub fn until(mut self, month: &str) -> Result<Filters, IndexError> {
        self.until = Some(parse_month(month)?);
        Ok(self)
    }

    /// Whether any filter is set.
    pub fn is_empty(&self) -> bool {
        *self == Filters::default()
    }

    /// Whether an explorer row's games pass (the player filter cannot be told from rows).
    pub(crate) fn admits_row(&self, row: &ExplorerRow) -> bool {
        self.admits(row.speed, row.rating, row.month)
    }

    /// Whether a game passes every filter.
    pub fn admits_game(&self, game: &GameRow) -> bool {
        let month = match packed_month(game.date) {
            0 => None,
            m => Some(m as u32),
        };
        let band = game.average_rating().map(rating_band);
        let player = match &self.player {
            Some(name) => [&game.white, &game.black]
                .into_iter()
                .any(|p| p.as_deref().is_some_and(|p| p.trim().eq_ignore_ascii_case(name.trim()))),
            None => true,
        };
        player && self.admits(game.speed, band, month)
    }

    fn admits(&self, speed: Option<Speed>, band: Option<u16>, month: Option<u32>) -> bool {
        let speed_ok = self.speeds.is_empty() || speed.is_some_and(|s| self.speeds.contains(&s));
        let rating_ok = self.ratings.is_empty() || band.is_some_and(|b| self.ratings.contains(&b));
        let month_ok = match (self.since, self.until) {
            (None, None) => true,
            (since, until) => month.is_some_and(|m| since.is_none_or(|s| m >= s) && until.is_none_or(|u| m <= u)),
        };
        speed_ok && rating_ok && month_ok
    }
}

fn parse_month(text: &str) -> Result<u32, IndexError> {
    month_number(text).ok_or_else(|| IndexError::Query(format!("'{text}' is not a month (YYYY-MM)")))
}
