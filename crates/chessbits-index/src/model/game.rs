//! What the index knows of a game besides its positions: players, ratings, result, date, speed,
//! where it came from. One row of the `games` table; the explorer's filters work on these.

use chessbits::pgn::GameResult;

/// A game's speed from its `TimeControl` tag, as lichess classifies it (the core's
/// [`chessbits::pgn::Speed`]; its [`code`](Speed::code) is what sort records store).
pub use chessbits::pgn::Speed;

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

/// The last year of a date the index knows: the explorer's month is `year * 12 + month - 1`
/// in 16 bits (see [`month_number`]), and December 5460 is the last month below 2^16. A date of
/// a later year (`9999.12.31`) is unknown to the index, as `????.??.??` is, rather than wrapped
/// into a wrong month.
pub const MAX_YEAR: u32 = 5460;

/// A date as PGN writes it (`YYYY.MM.DD`, `??` for unknown parts), packed as
/// `YYYY * 10000 + MM * 100 + DD` with unknown parts 0; 0 when the year is unknown or past
/// [`MAX_YEAR`].
///
/// ```
/// use chessbits_index::model::game::{pack_date, month_of};
/// assert_eq!(pack_date("2024.03.07"), 20240307);
/// assert_eq!(pack_date("2024.??.??"), 20240000);
/// assert_eq!(pack_date("????.??.??"), 0);
/// assert_eq!(pack_date("5460.12.31"), 54601231);
/// assert_eq!(pack_date("5461.01.01"), 0);
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
    let year = field(parts.next(), 4, MAX_YEAR);
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
    // `then`, not `then_some`: the sum must not be computed for month 0 (it underflows).
    (year <= 9999 && (1..=12).contains(&month) && text.trim().len() == 7).then(|| year * 12 + month - 1)
}

/// The month number of a packed date (see [`month_number`]); 0 when the month is unknown, or
/// does not fit (a date past [`MAX_YEAR`], which [`pack_date`] does not make).
pub(crate) fn packed_month(date: u32) -> u16 {
    let (year, month) = (date / 10000, date / 100 % 100);
    match year > 0 && month > 0 {
        true => u16::try_from(year * 12 + month - 1).unwrap_or(0),
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
    /// Where its bytes start in the source (decompressed), and how many there are; for an
    /// archive the game's number in it, for a Parquet export its row in the part file, and 0
    /// (see [`crate::model::sources`]).
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
    /// `1-0`, `0-1`, `1/2-1/2` or `*`: the movetext's result token, else the `Result` tag's
    /// ([`chessbits::pgn::GameResult::declared`], the library's one rule).
    pub result: String,
    /// Packed date (see [`pack_date`]): `UTCDate`, else `Date`; 0 when unknown (or past
    /// [`MAX_YEAR`]).
    pub date: u32,
    pub time_control: Option<String>,
    pub speed: Option<Speed>,
    pub event: Option<String>,
    pub site: Option<String>,
    /// The start position when it is not the standard one (`[FEN]`).
    pub fen: Option<String>,
    /// What replays the game's positions (the `games` table's `replay_moves`, `replay_plies`,
    /// `start_fen` and `chess960` columns); empty when a query did not read them.
    pub replay: Replay,
}

/// A game's main line as the index stores it, to replay its positions: the moves before its
/// first null move (at most 65,535), in the library's entropy code
/// ([`chessbits::codec::moves::entropy`]), played from `start_fen` (`None`: the standard start).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Replay {
    /// The entropy code of the moves.
    pub moves: Vec<u8>,
    /// How many moves `moves` holds (the decoder must be told; the `replay_plies` column).
    pub plies: u16,
    /// The start position as [`Position::fen`](chessbits::position::Position::fen) writes it,
    /// when it is not the standard one or the game is Chess960.
    pub start_fen: Option<String>,
    /// Whether the game is Chess960 (castling as king takes rook).
    pub chess960: bool,
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
