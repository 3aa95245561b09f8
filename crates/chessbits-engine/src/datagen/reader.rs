//! Training positions streamed out of a [training-data file](super::format), with the standard
//! filters: positions in check, positions whose best move (the move played, see the format's
//! [filtering rule](super::format#the-filtering-rule)) is a capture or a promotion, and mate
//! scores are skipped, and counted per reason.
//!
//! ```
//! use chessbits::Position;
//! use chessbits::notation::uci::parse_uci;
//! use chessbits_engine::datagen::format::{GameWriter, TrainingGame, Wdl};
//! use chessbits_engine::datagen::reader::{Filters, PositionReader};
//! let start = Position::startpos();
//! let mut pos = start.clone();
//! let mut moves = Vec::new();
//! for uci in ["e2e4", "d7d5", "e4d5"] {
//!     let m = parse_uci(&pos, uci).unwrap();
//!     pos.play_unchecked(m);
//!     moves.push(m);
//! }
//! let game = TrainingGame { start, moves, scores: vec![20, -40, 90], result: Wdl::WhiteWins };
//! let mut bytes = Vec::new();
//! GameWriter::new(&mut bytes).unwrap().write_game(&game).unwrap();
//! let mut reader = PositionReader::new(&bytes[..], Filters::default()).unwrap();
//! let kept: Vec<_> = reader.by_ref().map(|p| p.unwrap()).collect();
//! assert_eq!(kept.len(), 2); // e4xd5 is a capture: its position is skipped
//! assert_eq!(kept[1].score, -40);
//! assert_eq!(kept[1].result, 0.0); // Black to move, White won
//! assert_eq!(reader.skipped().tactical, 1);
//! ```

use std::collections::VecDeque;
use std::io::Read;

use chessbits::position::Position;
use chessbits::types::Color;

use super::format::{FormatError, GameReader, Wdl, MATE_THRESHOLD};

/// Which positions a [`PositionReader`] skips.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Filters {
    /// Skip positions whose side to move is in check.
    pub in_check: bool,
    /// Skip positions whose best move is a capture or a promotion.
    pub tactical: bool,
    /// Skip positions with a mate score.
    pub mate: bool,
}

impl Default for Filters {
    /// All three filters on.
    fn default() -> Filters {
        Filters {
            in_check: true,
            tactical: true,
            mate: true,
        }
    }
}

impl Filters {
    /// No filter: every scored position.
    pub fn none() -> Filters {
        Filters {
            in_check: false,
            tactical: false,
            mate: false,
        }
    }
}

/// How many positions were skipped, per reason (a position counts under the first reason that
/// applies, in the order of the fields).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SkipCounts {
    /// The side to move was in check.
    pub in_check: u64,
    /// The best move was a capture or a promotion.
    pub tactical: u64,
    /// The score was a mate score.
    pub mate: u64,
}

impl SkipCounts {
    /// All skipped positions.
    pub fn total(&self) -> u64 {
        self.in_check + self.tactical + self.mate
    }
}

/// One training position.
#[derive(Clone, Debug, PartialEq)]
pub struct TrainingPosition {
    /// The position (its FEN: [`Position::fen`]; its fullmove number counts from the game's
    /// start position, which the format stores as move 1).
    pub position: Position,
    /// The search score from the side to move's view, centipawns.
    pub score: i32,
    /// The game's result for the side to move: 1 won, 0.5 drawn, 0 lost.
    pub result: f32,
    /// The game's result from White's view.
    pub wdl: Wdl,
    /// The index of the game in the file.
    pub game: u64,
    /// The ply of the position in its game (0: the game's start position).
    pub ply: usize,
}

impl TrainingPosition {
    /// The side to move.
    pub fn side_to_move(&self) -> Color {
        self.position.turn()
    }
}

/// Streams the kept positions of a file, game by game; an error ends the stream.
pub struct PositionReader<R: Read> {
    games: GameReader<R>,
    filters: Filters,
    pending: VecDeque<TrainingPosition>,
    skipped: SkipCounts,
    kept: u64,
    failed: bool,
}

impl<R: Read> PositionReader<R> {
    /// Reads the header of `input`.
    pub fn new(input: R, filters: Filters) -> Result<PositionReader<R>, FormatError> {
        Ok(PositionReader {
            games: GameReader::new(input)?,
            filters,
            pending: VecDeque::new(),
            skipped: SkipCounts::default(),
            kept: 0,
            failed: false,
        })
    }

    /// The positions skipped so far, per reason.
    pub fn skipped(&self) -> SkipCounts {
        self.skipped
    }

    /// The positions returned so far.
    pub fn kept(&self) -> u64 {
        self.kept
    }

    /// The games read so far.
    pub fn games_read(&self) -> u64 {
        self.games.games_read()
    }

    /// Reads the next game into `pending`; false at the end of the file.
    fn fill(&mut self) -> Result<bool, FormatError> {
        let index = self.games.games_read();
        let Some(game) = self.games.next_game()? else {
            return Ok(false);
        };
        let mut pos = game.start.clone();
        for (ply, (&m, &score)) in game.moves.iter().zip(&game.scores).enumerate() {
            let skip = if self.filters.in_check && pos.is_check() {
                Some(&mut self.skipped.in_check)
            } else if self.filters.tactical && m.is_tactical() {
                Some(&mut self.skipped.tactical)
            } else if self.filters.mate && score.abs() >= MATE_THRESHOLD {
                Some(&mut self.skipped.mate)
            } else {
                None
            };
            match skip {
                Some(count) => *count += 1,
                None => self.pending.push_back(TrainingPosition {
                    position: pos.clone(),
                    score,
                    result: game.result.for_color(pos.turn()),
                    wdl: game.result,
                    game: index,
                    ply,
                }),
            }
            pos.play_unchecked(m);
        }
        Ok(true)
    }
}

impl<R: Read> Iterator for PositionReader<R> {
    type Item = Result<TrainingPosition, FormatError>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            if let Some(p) = self.pending.pop_front() {
                self.kept += 1;
                return Some(Ok(p));
            }
            if self.failed {
                return None;
            }
            match self.fill() {
                Ok(true) => {}
                Ok(false) => return None,
                Err(e) => {
                    self.failed = true;
                    return Some(Err(e));
                }
            }
        }
    }
}
