//! The lichess opening explorer API's JSON shape of a move table: [`Explorer::to_lichess_json`].

use chessbits::eco::EcoTable;
use serde::Serialize;

use super::{Explorer, GameHit};
use crate::model::game::{date_text, month_of, GameRow, Outcome};

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Lichess<'a> {
    opening: Option<Opening>,
    white: u64,
    draws: u64,
    black: u64,
    moves: Vec<Move<'a>>,
    top_games: Vec<Game<'a>>,
    recent_games: Vec<Game<'a>>,
    fen: String,
    key: String,
}

#[derive(Serialize)]
struct Opening {
    eco: &'static str,
    name: &'static str,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Move<'a> {
    uci: &'a str,
    san: &'a str,
    average_rating: Option<u64>,
    white: u64,
    draws: u64,
    black: u64,
    game: Option<Game<'a>>,
    last_date: Option<&'a str>,
}

#[derive(Serialize)]
struct Game<'a> {
    uci: Option<&'a str>,
    id: String,
    winner: Option<&'static str>,
    speed: Option<&'static str>,
    white: Player<'a>,
    black: Player<'a>,
    year: Option<u32>,
    month: Option<String>,
    date: Option<String>,
    result: &'a str,
    event: Option<&'a str>,
    site: Option<&'a str>,
}

#[derive(Serialize)]
struct Player<'a> {
    name: Option<&'a str>,
    rating: Option<u16>,
}

impl<'a> Game<'a> {
    fn of(row: &'a GameRow, uci: Option<&'a str>) -> Game<'a> {
        Game {
            uci,
            id: row.game.to_string(),
            winner: row.outcome().and_then(Outcome::winner),
            speed: row.speed.map(|s| s.name()),
            white: Player {
                name: row.white.as_deref(),
                rating: row.white_elo,
            },
            black: Player {
                name: row.black.as_deref(),
                rating: row.black_elo,
            },
            year: Some(row.date / 10000).filter(|&y| y > 0),
            month: month_of(row.date),
            date: date_text(row.date),
            result: &row.result,
            event: row.event.as_deref(),
            site: row.site.as_deref(),
        }
    }

    fn list(hits: &'a [GameHit]) -> Vec<Game<'a>> {
        hits.iter().map(|h| Game::of(&h.row, h.uci.as_deref())).collect()
    }
}

/// serde_json's compact output, except that backspace and form feed are written `\u0008` and
/// `\u000c` (as every other control character), the way the CLI's JSON writer has always
/// written them.
struct Compact;

impl serde_json::ser::Formatter for Compact {
    fn write_char_escape<W: ?Sized + std::io::Write>(
        &mut self,
        writer: &mut W,
        escape: serde_json::ser::CharEscape,
    ) -> std::io::Result<()> {
        use serde_json::ser::CharEscape;
        let text: &[u8] = match escape {
            CharEscape::Quote => b"\\\"",
            CharEscape::ReverseSolidus => b"\\\\",
            CharEscape::Solidus => b"\\/",
            CharEscape::LineFeed => b"\\n",
            CharEscape::CarriageReturn => b"\\r",
            CharEscape::Tab => b"\\t",
            CharEscape::Backspace => b"\\u0008",
            CharEscape::FormFeed => b"\\u000c",
            CharEscape::AsciiControl(byte) => return write!(writer, "\\u{:04x}", byte),
        };
        writer.write_all(text)
    }
}

impl Explorer {
    /// The move table in the lichess explorer API's shape, as one line of JSON (keys in this
    /// order, without spaces), so that tools written for lichess read ours: what `chessbits
    /// explore --json` prints and Python's `Index.explore_json` returns.
    ///
    /// ```json
    /// {
    ///   "opening": {"eco": "B20", "name": "Sicilian Defense"},
    ///   "white": 3, "draws": 1, "black": 2,
    ///   "moves": [
    ///     {"uci": "g1f3", "san": "Nf3", "averageRating": 1850, "white": 2, "draws": 1, "black": 1,
    ///      "game": null, "lastDate": "2024.03.07"},
    ///     {"uci": "b1c3", "san": "Nc3", "averageRating": null, "white": 1, "draws": 0, "black": 0,
    ///      "game": {"uci": "b1c3", "id": "17", ...}, "lastDate": "2023.11.02"}
    ///   ],
    ///   "topGames": [
    ///     {"uci": "g1f3", "id": "4", "winner": "white", "speed": "blitz",
    ///      "white": {"name": "alice", "rating": 2010}, "black": {"name": "bob", "rating": 1990},
    ///      "year": 2024, "month": "2024-03", "date": "2024.03.07", "result": "1-0",
    ///      "event": "Rated blitz game", "site": "https://lichess.org/abcdefgh"}
    ///   ],
    ///   "recentGames": [...],
    ///   "fen": "rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2",
    ///   "key": "463b96181691fc9c..."
    /// }
    /// ```
    ///
    /// As lichess: `moves` most played first, `averageRating` the mean of the games' average
    /// ratings (null when none is rated), `game` the game when the move was played in exactly one,
    /// `winner` null for a draw. Beside lichess's fields: `lastDate`, and per game `id` (the index's
    /// game number, as a string), `date`, `result`, `event`, `site`; `fen` and `key` (the
    /// [position key](crate::key) in hex) of the position.
    ///
    /// `opening` is the position's lichess opening name, when it has one.
    ///
    /// ```
    /// use chessbits_index::{resolve_position, BuildOptions, ExploreOptions, Index, IndexBuilder, SourceInfo};
    /// let dir = tempfile::tempdir().unwrap();
    /// let out = dir.path().join("index");
    /// let mut builder = IndexBuilder::create(&out, BuildOptions::default()).unwrap();
    /// let pgn = b"[White \"a\"]\n[Black \"b\"]\n[WhiteElo \"2000\"]\n[BlackElo \"1900\"]\n[UTCDate \"2024.03.07\"]\n[Result \"1-0\"]\n\n1. e4 c5 2. Nf3 1-0\n";
    /// builder.add_reader(&pgn[..], SourceInfo::named("g.pgn")).unwrap();
    /// builder.finish().unwrap();
    /// let index = Index::open(&out).unwrap();
    /// let explorer = index.explore(&resolve_position(None, "e4 c5").unwrap(), &ExploreOptions::default()).unwrap();
    /// let json: serde_json::Value = serde_json::from_str(&explorer.to_lichess_json()).unwrap();
    /// assert_eq!(json["opening"]["name"], "Sicilian Defense");
    /// assert_eq!((json["white"].as_u64(), json["draws"].as_u64(), json["black"].as_u64()), (Some(1), Some(0), Some(0)));
    /// assert_eq!(json["moves"][0]["san"], "Nf3");
    /// assert_eq!(json["moves"][0]["averageRating"], 1950);
    /// assert_eq!(json["moves"][0]["game"]["white"]["name"], "a");
    /// assert_eq!(json["topGames"][0]["winner"], "white");
    /// assert_eq!(json["recentGames"][0]["date"], "2024.03.07");
    /// ```
    pub fn to_lichess_json(&self) -> String {
        let value = Lichess {
            opening: EcoTable::lichess().get(self.position.key()).map(|o| Opening {
                eco: o.eco,
                name: o.name,
            }),
            white: self.white,
            draws: self.draws,
            black: self.black,
            moves: self
                .moves
                .iter()
                .map(|m| Move {
                    uci: &m.uci,
                    san: &m.san,
                    average_rating: m.average_rating,
                    white: m.white,
                    draws: m.draws,
                    black: m.black,
                    game: m.game.as_ref().map(|g| Game::of(g, Some(&m.uci))),
                    last_date: m.last_date.as_deref(),
                })
                .collect(),
            top_games: Game::list(&self.top_games),
            recent_games: Game::list(&self.recent_games),
            fen: self.position.fen(),
            key: self.key.to_string(),
        };
        let mut out = Vec::new();
        let mut serializer = serde_json::Serializer::with_formatter(&mut out, Compact);
        value
            .serialize(&mut serializer)
            .expect("writing JSON to memory does not fail");
        String::from_utf8(out).expect("serde_json writes UTF-8")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_characters_are_escaped_as_before() {
        let mut out = Vec::new();
        let mut serializer = serde_json::Serializer::with_formatter(&mut out, Compact);
        "q\"\\\n\u{1}\u{8}\u{c}\té/".serialize(&mut serializer).unwrap();
        assert_eq!(String::from_utf8(out).unwrap(), r#""q\"\\\n\u0001\u0008\u000c\té/""#);
    }
}
