//! `chessbits pgn stats --player P`: one player's record in a collection: games, wins, draws
//! and losses by colour, score, performance rating, most played openings by colour.
//!
//! Streams like `pgn stats`: counters only, one entry per distinct opening.

use std::collections::HashMap;
use std::io::Write;

use chessbits::pgn::{GameResult, GameTree};
use chessbits::types::Color;

use crate::games::{classify, is_eco_code, ErrorLog};
use crate::json::Json;

/// What `pgn stats --help` says of `--player`.
pub const PLAYER_HELP: &str = "\
With --player P, the report is P's: the games where White or Black contains P (any case; a game
where both names match counts once, as White's), their wins, draws and losses as White, as Black
and in all, the score (wins + draws/2 over the games with a result), the performance rating and
the most played openings by colour (--top). The performance rating is the usual linear one:
the average rating of the opponents + 400 × (wins − losses) / games, over the games with a
result and the opponent's Elo tag (a game without either is left out of it; none: no
performance). An opening is the ECO and Opening tags, or, for a game without them, the
classification of its moves by the lichess opening tables.";

/// Wins, draws, losses and games without a result, from the player's side.
#[derive(Default, Clone, Copy, Debug, PartialEq, Eq)]
struct Record {
    wins: u64,
    draws: u64,
    losses: u64,
    unknown: u64,
}

impl Record {
    fn add(&mut self, points: Option<u8>) {
        match points {
            Some(2) => self.wins += 1,
            Some(1) => self.draws += 1,
            Some(_) => self.losses += 1,
            None => self.unknown += 1,
        }
    }

    fn games(&self) -> u64 {
        self.wins + self.draws + self.losses + self.unknown
    }

    /// Wins + draws/2 over the games with a result, in percent.
    fn score(&self) -> Option<f64> {
        let decided = self.wins + self.draws + self.losses;
        (decided > 0).then(|| (self.wins as f64 + self.draws as f64 / 2.0) * 100.0 / decided as f64)
    }

    fn json(&self) -> Json {
        Json::obj([
            ("games", Json::from(self.games())),
            ("wins", Json::from(self.wins)),
            ("draws", Json::from(self.draws)),
            ("losses", Json::from(self.losses)),
            ("no_result", Json::from(self.unknown)),
            ("score", self.score().map_or(Json::Null, Json::Float)),
        ])
    }

    fn text(&self) -> String {
        let score = self.score().map_or("-".to_string(), |s| format!("{s:.1}%"));
        format!(
            "{:>7} {:>6} {:>6} {:>6} {:>9} {score:>6}",
            self.games(),
            self.wins,
            self.draws,
            self.losses,
            self.unknown
        )
    }
}

/// The performance rating's sums: games with a result and the opponent's rating.
#[derive(Default)]
struct Performance {
    games: u64,
    opponents: u64,
    wins: u64,
    losses: u64,
}

impl Performance {
    /// Average opponent + 400 × (W − L) / N.
    fn rating(&self) -> Option<f64> {
        let n = self.games as f64;
        (self.games > 0).then(|| self.opponents as f64 / n + 400.0 * (self.wins as f64 - self.losses as f64) / n)
    }

    fn average_opponent(&self) -> Option<f64> {
        (self.games > 0).then(|| self.opponents as f64 / self.games as f64)
    }
}

/// One player's counters.
pub struct PlayerReport {
    player: String,
    needle: String,
    /// Games read, the player's or not.
    pub games: u64,
    /// Games that could not be read.
    pub errors: ErrorLog,
    /// As White, as Black.
    colours: [Record; 2],
    /// The names that matched, with their games.
    names: HashMap<String, u64>,
    /// Opening label → record, as White and as Black.
    openings: [HashMap<String, Record>; 2],
    performance: Performance,
}

/// A tag's value when it is not a placeholder (`?`, `-`, empty).
fn known(game: &GameTree, name: &str) -> Option<String> {
    let value = game.tag(name)?;
    match value.trim() {
        "" | "?" | "-" | "??" => None,
        v => Some(v.to_string()),
    }
}

/// The game's opening: `ECO name` from its ECO and Opening tags, the lichess classification of
/// its moves for whichever is missing.
fn opening_label(game: &GameTree) -> String {
    let eco = known(game, "ECO").filter(|eco| is_eco_code(eco));
    let name = known(game, "Opening");
    let (eco, name) = match (eco, name) {
        (Some(eco), Some(name)) => (Some(eco), Some(name)),
        (eco, name) => {
            let classified = classify(game);
            (
                eco.or_else(|| classified.map(|c| c.eco.to_string())),
                name.or_else(|| classified.map(|c| c.name.to_string())),
            )
        }
    };
    match (eco, name) {
        (Some(eco), Some(name)) => format!("{eco} {name}"),
        (Some(one), None) | (None, Some(one)) => one,
        (None, None) => "(unknown)".to_string(),
    }
}

impl PlayerReport {
    /// An empty report on the player whose name contains `player` (any case).
    pub fn new(player: &str) -> PlayerReport {
        PlayerReport {
            player: player.to_string(),
            needle: player.to_lowercase(),
            games: 0,
            errors: ErrorLog::default(),
            colours: Default::default(),
            names: HashMap::new(),
            openings: Default::default(),
            performance: Performance::default(),
        }
    }

    /// Counts `game` if it is the player's.
    pub fn add(&mut self, game: &GameTree) {
        let matches = |side: &str| known(game, side).filter(|name| name.to_lowercase().contains(&self.needle));
        let (colour, name) = match (matches("White"), matches("Black")) {
            (Some(name), _) => (Color::White, name),
            (None, Some(name)) => (Color::Black, name),
            (None, None) => return,
        };
        let points = match (game.declared_result(), colour) {
            (GameResult::Draw, _) => Some(1),
            (GameResult::WhiteWins, Color::White) | (GameResult::BlackWins, Color::Black) => Some(2),
            (GameResult::WhiteWins, Color::Black) | (GameResult::BlackWins, Color::White) => Some(0),
            (GameResult::Unknown, _) => None,
        };
        let side = colour.index();
        self.colours[side].add(points);
        *self.names.entry(name).or_default() += 1;
        self.openings[side].entry(opening_label(game)).or_default().add(points);
        let opponent_elo = match colour {
            Color::White => "BlackElo",
            Color::Black => "WhiteElo",
        };
        let opponent = known(game, opponent_elo).and_then(|elo| elo.parse::<u16>().ok());
        if let (Some(points), Some(opponent)) = (points, opponent) {
            let perf = &mut self.performance;
            perf.games += 1;
            perf.opponents += u64::from(opponent);
            perf.wins += u64::from(points == 2);
            perf.losses += u64::from(points == 0);
        }
    }

    fn total(&self) -> Record {
        let [w, b] = self.colours;
        Record {
            wins: w.wins + b.wins,
            draws: w.draws + b.draws,
            losses: w.losses + b.losses,
            unknown: w.unknown + b.unknown,
        }
    }

    /// The `n` most played openings as `colour`, most played first (ties by name).
    fn top_openings(&self, side: usize, n: usize) -> Vec<(&str, Record)> {
        let mut entries: Vec<(&str, Record)> = self.openings[side].iter().map(|(k, v)| (k.as_str(), *v)).collect();
        entries.sort_by(|a, b| b.1.games().cmp(&a.1.games()).then(a.0.cmp(b.0)));
        entries.truncate(n);
        entries
    }

    /// The report as one JSON object.
    pub fn to_json(&self, n: usize) -> Json {
        let openings = |side: usize| {
            Json::Arr(
                self.top_openings(side, n)
                    .into_iter()
                    .map(|(name, record)| match record.json() {
                        Json::Obj(mut fields) => {
                            fields.insert(0, ("opening".to_string(), Json::from(name)));
                            Json::Obj(fields)
                        }
                        other => other,
                    })
                    .collect(),
            )
        };
        let mut names: Vec<(&String, &u64)> = self.names.iter().collect();
        names.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
        let names = names
            .into_iter()
            .map(|(name, games)| Json::obj([("name", Json::from(name.as_str())), ("games", Json::from(*games))]));
        let perf = &self.performance;
        Json::obj([
            ("player", Json::from(self.player.as_str())),
            ("games_read", Json::from(self.games)),
            ("errors", Json::from(self.errors.count)),
            ("names", Json::Arr(names.collect())),
            ("white", self.colours[Color::White.index()].json()),
            ("black", self.colours[Color::Black.index()].json()),
            ("total", self.total().json()),
            (
                "performance",
                Json::obj([
                    ("rating", perf.rating().map_or(Json::Null, |r| Json::Float(r.round()))),
                    (
                        "average_opponent",
                        perf.average_opponent().map_or(Json::Null, Json::Float),
                    ),
                    ("games", Json::from(perf.games)),
                    ("wins", Json::from(perf.wins)),
                    ("losses", Json::from(perf.losses)),
                ]),
            ),
            (
                "openings",
                Json::obj([
                    ("white", openings(Color::White.index())),
                    ("black", openings(Color::Black.index())),
                ]),
            ),
            ("error_messages", self.errors.messages_json()),
        ])
    }

    /// The report as text.
    pub fn print_text(&self, out: &mut impl Write, n: usize) -> std::io::Result<()> {
        let total = self.total();
        writeln!(
            out,
            "player {}: {} of {} games ({} with errors, left out)",
            self.player,
            total.games(),
            self.games,
            self.errors.count
        )?;
        let mut names: Vec<(&String, &u64)> = self.names.iter().collect();
        names.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
        let names: Vec<String> = names.iter().map(|(name, games)| format!("{name} ({games})")).collect();
        if !names.is_empty() {
            writeln!(out, "names: {}", names.join(", "))?;
        }
        writeln!(out, "\n            games   wins  draws losses no result  score")?;
        writeln!(out, "as White  {}", self.colours[Color::White.index()].text())?;
        writeln!(out, "as Black  {}", self.colours[Color::Black.index()].text())?;
        writeln!(out, "total     {}", total.text())?;
        let perf = &self.performance;
        match (perf.rating(), perf.average_opponent()) {
            (Some(rating), Some(average)) => writeln!(
                out,
                "\nperformance {rating:.0}: average opponent {average:.0} + 400 × ({} − {}) / {} rated games",
                perf.wins, perf.losses, perf.games
            )?,
            _ => writeln!(out, "\nperformance: no game with a result and the opponent's rating")?,
        }
        for (title, side) in [("White", Color::White.index()), ("Black", Color::Black.index())] {
            writeln!(out, "\nopenings as {title} (top {n} of {}):", self.openings[side].len())?;
            writeln!(out, "            games   wins  draws losses no result  score  opening")?;
            for (name, record) in self.top_openings(side, n) {
                writeln!(out, "          {}  {name}", record.text())?;
            }
        }
        Ok(())
    }
}
