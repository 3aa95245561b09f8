//! Duplicate games, for `pgn dedup` and `--dedup` on `pgn filter` and `pack`: two games are
//! duplicates when they have the same main line from the same start position and the same
//! White, Black and date (`UTCDate`, else `Date`). Each distinct game is remembered as a 128-bit
//! hash and where it was first seen (about 50 bytes), never its text, so memory grows with the
//! number of distinct games, not their size. (A module of its own, needing only the library and
//! `json.rs`, because `tests/cli_archive.rs` compiles `archive_cmd.rs` by itself.)

use std::borrow::Cow;
use std::collections::HashMap;
use std::hash::{DefaultHasher, Hash, Hasher};

use chessbits::pgn::{GameTree, RawGame};
use indicatif::ProgressBar;

use crate::json::Json;

/// Duplicates listed in a JSON report at most (all are counted), the bound of the reports'
/// error messages (`ErrorLog::KEPT`).
pub const KEPT: usize = 1000;

/// The game's date: its `UTCDate` tag, else its `Date` tag (lichess writes both; the UTC one is
/// the one the index and the export partition by).
pub fn date_tag(game: &GameTree) -> Option<Cow<'_, str>> {
    game.tag("UTCDate").or_else(|| game.tag("Date"))
}

/// The 128-bit identity of a game for duplicate detection: start position, main line, White,
/// Black and date. Two SipHash-1-3 hashes with fixed keys (the same in every run), told apart by
/// a leading byte.
pub fn game_hash(game: &GameTree) -> u128 {
    let half = |salt: u8| {
        let mut hasher = DefaultHasher::new();
        salt.hash(&mut hasher);
        game.start.hash(&mut hasher);
        for m in game.mainline() {
            m.hash(&mut hasher);
        }
        // The length ends the move list, so no move sequence can run into the names.
        game.moves.nodes.len().hash(&mut hasher);
        for value in [game.tag("White"), game.tag("Black"), date_tag(game)] {
            value.as_deref().map(str::trim).hash(&mut hasher);
        }
        hasher.finish()
    };
    (u128::from(half(0)) << 64) | u128::from(half(1))
}

/// The games seen so far (by [`game_hash`]) and the duplicates found.
pub struct Dedup {
    /// The inputs' names, for the reports.
    names: Vec<String>,
    /// Hash → (input, line) of the first game with it.
    first: HashMap<u128, (u32, u32)>,
    /// Duplicates found.
    pub count: u64,
    /// The first [`KEPT`] duplicates: (this game, the first one), as `file:line`.
    kept: Vec<(String, String)>,
}

impl Dedup {
    /// An empty set, for games read from the inputs called `names` (in that order: a game's
    /// `source` is an index into it).
    pub fn new(names: Vec<String>) -> Dedup {
        Dedup {
            names,
            first: HashMap::new(),
            count: 0,
            kept: Vec::new(),
        }
    }

    /// Whether `game`, read from input `source` at `line`, is a duplicate of a game seen before;
    /// a duplicate is reported on standard error (`file:line duplicates file:line`).
    pub fn is_duplicate(&mut self, bar: &ProgressBar, source: usize, line: u32, game: &GameTree) -> bool {
        let (first_source, first_line) = *self.first.entry(game_hash(game)).or_insert((source as u32, line));
        if (first_source, first_line) == (source as u32, line) {
            return false;
        }
        let this = format!("{}:{line}", self.names[source]);
        let first = format!("{}:{first_line}", self.names[first_source as usize]);
        bar.suspend(|| eprintln!("{this} duplicates {first}"));
        self.count += 1;
        if self.kept.len() < KEPT {
            self.kept.push((this, first));
        }
        true
    }

    /// [`is_duplicate`](Self::is_duplicate) for a game's text as cut by
    /// [`PgnReader::read_raw_game`](chessbits::pgn::PgnReader::read_raw_game) (`pack` does not
    /// read games itself): a game that cannot be read is not a duplicate.
    pub fn is_duplicate_text(&mut self, bar: &ProgressBar, source: usize, raw: &RawGame, bytes: &[u8]) -> bool {
        match raw.reader(bytes).read_owned_game() {
            Ok(Some(Ok(game))) => self.is_duplicate(bar, source, raw.first_line, &game),
            _ => false,
        }
    }

    /// The `duplicate_games` array of a JSON report: `{"game": "b.pgn:7", "duplicates":
    /// "a.pgn:1"}` for the first [`KEPT`] duplicates (all are counted).
    pub fn json(&self) -> Json {
        let pairs = self.kept.iter().map(|(this, first)| {
            Json::obj([
                ("game", Json::from(this.as_str())),
                ("duplicates", Json::from(first.as_str())),
            ])
        });
        Json::Arr(pairs.collect())
    }
}
