//! What the index knows of a game besides its positions: players, ratings, result, date, speed,
//! where it came from. One row of the `games` table; the explorer's filters work on these.

use chessbits::pgn::GameResult;

/// A game's speed, as lichess classifies it from `TimeControl`: the estimated duration
/// `base + 40 × increment` seconds is under 30 (ultraBullet), under 180 (bullet), under 480
/// (blitz), under 1500 (rapid), else classical; `-` (no clock) or days per move is
/// correspondence.
///
/// ```
/// use chessbits_index::Speed;
/// assert_eq!(Speed::from_time_control("180+2"), Some(Speed::Blitz));
/// assert_eq!(Speed::from_time_control("15+0"), Some(Speed::UltraBullet));
/// assert_eq!(Speed::from_time_control("-"), Some(Speed::Correspondence));
/// assert_eq!(Speed::from_time_control("?"), None);
/// assert_eq!(Speed::Rapid.name(), "rapid");
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Speed {
    UltraBullet = 1,
    Bullet = 2,
    Blitz = 3,
    Rapid = 4,
    Classical = 5,
    Correspondence = 6,
}

impl Speed {
    /// Every speed, fastest first.
    pub const ALL: [Speed; 6] = [
        Speed::UltraBullet,
        Speed::Bullet,
        Speed::Blitz,
        Speed::Rapid,
        Speed::Classical,
        Speed::Correspondence,
    ];

    /// The speed of a `TimeControl` tag value (`base+increment` in seconds, `-`, or `1/days`
    /// in seconds per move); `None` when it says nothing (`?`, empty, malformed).
    pub fn from_time_control(text: &str) -> Option<Speed> {
        let text = text.trim();
        if text == "-" {
            return Some(Speed::Correspondence);
        }
        if let Some((moves, seconds)) = text.split_once('/') {
            // "1/259200": a move per so many seconds (days): correspondence.
            let (_, seconds): (u64, u64) = (moves.parse().ok()?, seconds.parse().ok()?);
            return (seconds >= 86_400).then_some(Speed::Correspondence);
        }
        let (base, increment) = match text.split_once('+') {
            Some((base, increment)) => (base.parse::<u64>().ok()?, increment.parse::<u64>().ok()?),
            None => (text.parse::<u64>().ok()?, 0),
        };
        let estimate = base.saturating_add(increment.saturating_mul(40));
        Some(match estimate {
            0..=29 => Speed::UltraBullet,
            30..=179 => Speed::Bullet,
            180..=479 => Speed::Blitz,
            480..=1499 => Speed::Rapid,
            _ => Speed::Classical,
        })
    }

    /// The lichess name: `ultraBullet`, `bullet`, `blitz`, `rapid`, `classical`,
    /// `correspondence`.
    pub fn name(self) -> &'static str {
        match self {
            Speed::UltraBullet => "ultraBullet",
            Speed::Bullet => "bullet",
            Speed::Blitz => "blitz",
            Speed::Rapid => "rapid",
            Speed::Classical => "classical",
            Speed::Correspondence => "correspondence",
        }
    }

    /// The speed of a lichess name (as [`name`](Self::name) writes it, case ignored).
    pub fn from_name(name: &str) -> Option<Speed> {
        Speed::ALL
            .into_iter()
            .find(|speed| speed.name().eq_ignore_ascii_case(name.trim()))
    }

    /// The code stored in sort records (1..=6; 0 is "unknown").
    pub(crate) fn code(speed: Option<Speed>) -> u8 {
        speed.map_or(0, |speed| speed as u8)
    }

    pub(crate) fn from_code(code: u8) -> Option<Speed> {
        Speed::ALL.into_iter().find(|speed| *speed as u8 == code)
    }
}

/// The lichess explorer's rating bands, by the average rating of the two players: a band is
/// named by its lower bound.
pub const RATING_BANDS: [u16; 9] = [0, 1000, 1200, 1400, 1600, 1800, 2000, 2200, 2500];

/// The band (lower bound) of an average rating.
///
/// ```
/// use chessbits_index::rating_band;
/// assert_eq!(rating_band(1999), 1800);
/// assert_eq!(rating_band(2000), 2000);
/// assert_eq!(rating_band(3100), 2500);
/// assert_eq!(rating_band(400), 0);
/// ```
pub fn rating_band(average: u16) -> u16 {
    RATING_BANDS
        .into_iter()
        .rev()
        .find(|&band| average >= band)
        .unwrap_or(0)
}

/// A date as PGN writes it (`YYYY.MM.DD`, `??` for unknown parts), packed as
/// `YYYY * 10000 + MM * 100 + DD` with unknown parts 0; 0 when the year is unknown.
///
/// ```
/// use chessbits_index::model::game::{pack_date, month_of};
/// assert_eq!(pack_date("2024.03.07"), 20240307);
/// assert_eq!(pack_date("2024.??.??"), 20240000);
/// assert_eq!(pack_date("????.??.??"), 0);
/// assert_eq!(month_of(20240307), Some("2024-03".to_string()));
/// assert_eq!(month_of(20240000), None);
/// ```
pub fn pack_date(text: &str) -> u32 {
    let mut parts = text.trim().splitn(3, ['.', '-', '/']);
    let field = |part: Option<&str>, digits: usize, max: u32| -> u32 {
        match part {
            Some(p) if p.len() == digits && p.bytes().all(|b| b.is_ascii_digit()) => {
                p.parse::<u32>().ok().filter(|&v| v <= max).unwrap_or(0)
            }
            _ => 0,
        }
    };
    let year = field(parts.next(), 4, 9999);
    if year == 0 {
        return 0;
    }
    let month = field(parts.next(), 2, 12);
    let day = if month == 0 { 0 } else { field(parts.next(), 2, 31) };
    year * 10000 + month * 100 + day
}

/// The month (`YYYY-MM`, as lichess's `since`/`until` write it) of a packed date; `None` when
/// the month is unknown.
pub fn month_of(date: u32) -> Option<String> {
    let (year, month) = (date / 10000, date / 100 % 100);
    (year > 0 && month > 0).then(|| format!("{year:04}-{month:02}"))
}

/// A packed date as PGN writes it (`2024.03.07`, `2024.??.??`); `None` when unknown.
pub fn date_text(date: u32) -> Option<String> {
    if date == 0 {
        return None;
    }
    let (year, month, day) = (date / 10000, date / 100 % 100, date % 100);
    let part = |v: u32| if v == 0 { "??".to_string() } else { format!("{v:02}") };
    Some(format!("{year:04}.{}.{}", part(month), part(day)))
}

/// A month `YYYY-MM` as a number that orders like the months (`year * 12 + month - 1`), for the
/// `since`/`until` filters.
pub fn month_number(text: &str) -> Option<u32> {
    let (year, month) = text.trim().split_once('-')?;
    let (year, month): (u32, u32) = (year.parse().ok()?, month.parse().ok()?);
    (year <= 9999 && (1..=12).contains(&month) && text.trim().len() == 7).then_some(year * 12 + month - 1)
}

/// The month number of a packed date (see [`month_number`]); 0 when the month is unknown.
pub(crate) fn packed_month(date: u32) -> u16 {
    let (year, month) = (date / 10000, date / 100 % 100);
    match year > 0 && month > 0 {
        true => (year * 12 + month - 1) as u16,
        false => 0,
    }
}

/// A game's result as the explorer counts it.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    WhiteWins,
    Draw,
    BlackWins,
}

impl Outcome {
    /// The outcome of a decided result; `None` for `*`.
    pub fn of(result: GameResult) -> Option<Outcome> {
        match result {
            GameResult::WhiteWins => Some(Outcome::WhiteWins),
            GameResult::Draw => Some(Outcome::Draw),
            GameResult::BlackWins => Some(Outcome::BlackWins),
            _ => None,
        }
    }

    /// The result as PGN writes it.
    pub fn pgn(outcome: Option<Outcome>) -> &'static str {
        match outcome {
            Some(Outcome::WhiteWins) => "1-0",
            Some(Outcome::Draw) => "1/2-1/2",
            Some(Outcome::BlackWins) => "0-1",
            None => "*",
        }
    }

    /// The outcome of a `Result` column value.
    pub fn from_pgn(text: &str) -> Option<Outcome> {
        match text {
            "1-0" => Some(Outcome::WhiteWins),
            "1/2-1/2" => Some(Outcome::Draw),
            "0-1" => Some(Outcome::BlackWins),
            _ => None,
        }
    }

    /// `white`, `black`, or `None` for a draw: lichess's `winner`.
    pub fn winner(self) -> Option<&'static str> {
        match self {
            Outcome::WhiteWins => Some("white"),
            Outcome::BlackWins => Some("black"),
            Outcome::Draw => None,
        }
    }
}

/// One game of the index: the `games` table's row.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GameRow {
    /// The game's number in the index (0, 1, 2, ... in the order the games were added).
    pub game: u32,
    /// The source it came from (an index into the `sources` table).
    pub source: u32,
    /// Where its bytes start in the source (decompressed), and how many there are.
    pub offset: u64,
    pub length: u32,
    /// The line it starts on in the source.
    pub line: u32,
    /// Moves of its main line.
    pub plies: u16,
    pub white: Option<String>,
    pub black: Option<String>,
    pub white_elo: Option<u16>,
    pub black_elo: Option<u16>,
    /// `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub result: String,
    /// Packed date (see [`pack_date`]): `UTCDate`, else `Date`.
    pub date: u32,
    pub time_control: Option<String>,
    pub speed: Option<Speed>,
    pub event: Option<String>,
    pub site: Option<String>,
    /// The start position when it is not the standard one (`[FEN]`).
    pub fen: Option<String>,
}

impl GameRow {
    /// The average of the two ratings, when both are known (the explorer's rating).
    pub fn average_rating(&self) -> Option<u16> {
        match (self.white_elo, self.black_elo) {
            (Some(white), Some(black)) => Some(((white as u32 + black as u32) / 2) as u16),
            _ => None,
        }
    }

    /// The decided result, if any.
    pub fn outcome(&self) -> Option<Outcome> {
        Outcome::from_pgn(&self.result)
    }
}
