//! ECO classification: the lichess opening tables (`lichess-org/chess-openings`, CC0; 3,807
//! named lines) indexed by the Polyglot key of the position each line reaches.
//!
//! Behind the cargo feature `eco` (off by default): the tables (about 640 KB of text, under
//! `data/openings/`) are compiled in only when it is on. They are parsed with the library's SAN
//! on first use (a few milliseconds), then shared.
//!
//! A position is looked up by [`Position::key`], so an opening reached by a transposition is
//! recognised too. [`classify`] walks a game's positions and returns the deepest one that is in
//! the table: the most specific name the game reached.
//!
//! ```
//! use chessbits::eco;
//! use chessbits::Position;
//!
//! let mut positions = vec![Position::startpos()];
//! for san in ["e4", "c5", "Nf3", "d6", "d4", "cxd4", "Nxd4", "Nf6", "Nc3", "a6"] {
//!     let mut next = positions.last().unwrap().clone();
//!     next.play_san(san).unwrap();
//!     positions.push(next);
//! }
//! let opening = eco::classify(&positions).unwrap();
//! assert_eq!(opening.eco, "B90");
//! assert_eq!(opening.name, "Sicilian Defense: Najdorf Variation");
//! assert_eq!(opening.ply, 10);
//! ```

use std::collections::HashMap;
use std::sync::OnceLock;

use crate::moves::Move;
use crate::position::Position;

/// The tables as published: `eco<TAB>name<TAB>pgn`, one header line each.
const TABLES: [&str; 5] = [
    include_str!("../data/openings/lichess-chess-openings_a.tsv"),
    include_str!("../data/openings/lichess-chess-openings_b.tsv"),
    include_str!("../data/openings/lichess-chess-openings_c.tsv"),
    include_str!("../data/openings/lichess-chess-openings_d.tsv"),
    include_str!("../data/openings/lichess-chess-openings_e.tsv"),
];

/// A named opening: its ECO code (`A00` to `E99`) and name, as the lichess tables give them.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Opening {
    /// The ECO code, `A00` to `E99`.
    pub eco: &'static str,
    /// The name, `Family: Variation, Subvariation`.
    pub name: &'static str,
}

/// An [`Opening`] found along a game, and the ply at which the game reached it (0 is the start
/// position).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Classification {
    /// The ECO code.
    pub eco: &'static str,
    /// The opening's name.
    pub name: &'static str,
    /// The index in the positions given of the position matched.
    pub ply: usize,
}

/// The openings by position key. A position reached by several lines of the tables keeps the
/// first in table order (files `a` to `e`, lines in order).
pub struct EcoTable {
    by_key: HashMap<u64, Opening>,
}

impl EcoTable {
    /// The table built from the bundled lichess tables (once per process; later calls return the
    /// same table).
    ///
    /// ```
    /// let table = chessbits::eco::EcoTable::lichess();
    /// assert!(table.len() > 3000);
    /// ```
    pub fn lichess() -> &'static EcoTable {
        static TABLE: OnceLock<EcoTable> = OnceLock::new();
        TABLE.get_or_init(|| {
            let mut by_key = HashMap::with_capacity(4096);
            for table in TABLES {
                for (eco, name, pos) in parse_table(table) {
                    by_key.entry(pos.key()).or_insert(Opening { eco, name });
                }
            }
            EcoTable { by_key }
        })
    }

    /// The opening whose line reaches the position with this Polyglot key.
    ///
    /// ```
    /// use chessbits::eco::EcoTable;
    /// use chessbits::Position;
    /// let mut pos = Position::startpos();
    /// pos.play_san("Nh3").unwrap();
    /// assert_eq!(EcoTable::lichess().get(pos.key()).unwrap().name, "Amar Opening");
    /// assert!(EcoTable::lichess().get(Position::startpos().key()).is_none());
    /// ```
    pub fn get(&self, key: u64) -> Option<Opening> {
        self.by_key.get(&key).copied()
    }

    /// Positions in the table.
    pub fn len(&self) -> usize {
        self.by_key.len()
    }

    /// Whether the table is empty (never, for the bundled tables).
    pub fn is_empty(&self) -> bool {
        self.by_key.is_empty()
    }

    /// The deepest of `keys` (a game's position keys, start first, as
    /// [`Game::keys`](crate::game::Game::keys) gives them) found in the table.
    ///
    /// ```
    /// use chessbits::eco::EcoTable;
    /// use chessbits::game::Game;
    /// let mut game = Game::new();
    /// for san in ["d4", "d5", "c4", "e6"] {
    ///     game.push_san(san).unwrap();
    /// }
    /// let found = EcoTable::lichess().classify_keys(game.keys()).unwrap();
    /// assert_eq!((found.eco, found.name), ("D30", "Queen's Gambit Declined"));
    /// ```
    pub fn classify_keys(&self, keys: &[u64]) -> Option<Classification> {
        keys.iter().enumerate().rev().find_map(|(ply, &key)| {
            self.get(key).map(|o| Classification {
                eco: o.eco,
                name: o.name,
                ply,
            })
        })
    }
}

/// The deepest of `positions` (a game's positions, start first) that the lichess tables name:
/// see the [module documentation](self). `None` if none is named (the start position is not).
pub fn classify(positions: &[Position]) -> Option<Classification> {
    let keys: Vec<u64> = positions.iter().map(Position::key).collect();
    EcoTable::lichess().classify_keys(&keys)
}

/// One line of the lichess tables: its opening and the moves that play it from the start
/// position (SAN of the table, resolved).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// The opening the line names.
    pub opening: Opening,
    /// The moves of the line, from the standard start position.
    pub moves: Vec<Move>,
}

/// Every line of the bundled tables, in table order (files `a` to `e`, lines in order), parsed
/// once per process: for callers that want the lines themselves (`chessbits synth` starts its
/// games from them).
///
/// ```
/// let lines = chessbits::eco::lines();
/// assert!(lines.len() > 3600);
/// assert_eq!(lines[0].opening.name, "Amar Opening");
/// assert_eq!(lines[0].moves.len(), 1);
/// ```
pub fn lines() -> &'static [Line] {
    static LINES: OnceLock<Vec<Line>> = OnceLock::new();
    LINES.get_or_init(|| {
        let mut lines = Vec::with_capacity(4096);
        for table in TABLES {
            for line in table.lines().skip(1) {
                let mut columns = line.split('\t');
                let (Some(eco), Some(name), Some(pgn)) = (columns.next(), columns.next(), columns.next()) else {
                    continue;
                };
                if let Some(moves) = line_moves(pgn) {
                    lines.push(Line {
                        opening: Opening { eco, name },
                        moves,
                    });
                }
            }
        }
        lines
    })
}

/// The moves of the SAN line `pgn` from the start position (`None` if one does not play).
fn line_moves(pgn: &str) -> Option<Vec<Move>> {
    let mut pos = Position::startpos();
    let mut moves = Vec::new();
    for token in pgn.split_ascii_whitespace() {
        if token.ends_with('.') {
            continue;
        }
        moves.push(pos.play_san(token).ok()?);
    }
    Some(moves)
}

/// The `(eco, name, position)` of every line of a table; a line whose moves do not play (none in
/// the bundled tables, as a test checks) is left out.
fn parse_table(table: &'static str) -> impl Iterator<Item = (&'static str, &'static str, Position)> {
    table.lines().skip(1).filter_map(|line| {
        let mut columns = line.split('\t');
        let (eco, name, pgn) = (columns.next()?, columns.next()?, columns.next()?);
        let pos = play_line(pgn)?;
        Some((eco, name, pos))
    })
}

/// The position after the SAN moves of `pgn` (`1. e4 e5 2. Nf3`: move numbers skipped).
fn play_line(pgn: &str) -> Option<Position> {
    let mut pos = Position::startpos();
    for token in pgn.split_ascii_whitespace() {
        if token.ends_with('.') {
            continue;
        }
        pos.play_san(token).ok()?;
    }
    Some(pos)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_line_of_the_tables_plays() {
        let mut lines = 0;
        for table in TABLES {
            for line in table.lines().skip(1) {
                let pgn = line.split('\t').nth(2).unwrap();
                assert!(play_line(pgn).is_some(), "{line}");
                lines += 1;
            }
        }
        assert!(lines > 3600, "{lines}");
        // Each line's own position is named, by it or by an earlier line reaching it.
        let table = EcoTable::lichess();
        assert!(table.len() > 3400 && table.len() <= lines, "{}", table.len());
    }

    #[test]
    fn transpositions_are_recognised_and_the_deepest_wins() {
        // The Queen's Gambit Declined by 1. c4 e6 2. d4 d5.
        let mut positions = vec![Position::startpos()];
        for san in ["c4", "e6", "d4", "d5", "h3", "h6"] {
            let mut next = positions.last().unwrap().clone();
            next.play_san(san).unwrap();
            positions.push(next);
        }
        let found = classify(&positions).unwrap();
        assert_eq!((found.eco, found.ply), ("D30", 4));
        assert_eq!(classify(&positions[..1]), None);
    }
}
