//! The positions of a line of moves, one after another: what [`Game::positions`] and
//! [`GameTree::positions`](crate::pgn::GameTree::positions) iterate over, and what
//! `position_at` replays.

use super::Game;
use crate::moves::Move;
use crate::position::Position;

/// Plays one move of a recorded line: a null move ([`Move::NULL`], `--` in PGN) passes the turn.
pub(crate) fn play_line_move(pos: &mut Position, m: Move) {
    if m.is_null() {
        pos.make_null_move();
    } else {
        pos.play_unchecked(m);
    }
}

/// The start position, then the position after each move of `moves`.
pub(crate) struct Positions<I> {
    /// The next position to yield; `None` once the last one was.
    next: Option<Position>,
    moves: I,
}

impl<I: ExactSizeIterator<Item = Move>> Positions<I> {
    pub(crate) fn new(start: Position, moves: I) -> Positions<I> {
        Positions {
            next: Some(start),
            moves,
        }
    }
}

impl<I: ExactSizeIterator<Item = Move>> Iterator for Positions<I> {
    type Item = Position;

    fn next(&mut self) -> Option<Position> {
        let current = self.next.take()?;
        if let Some(m) = self.moves.next() {
            let mut after = current.clone();
            play_line_move(&mut after, m);
            self.next = Some(after);
        }
        Some(current)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = if self.next.is_some() { self.moves.len() + 1 } else { 0 };
        (n, Some(n))
    }
}

impl<I: ExactSizeIterator<Item = Move>> ExactSizeIterator for Positions<I> {}

impl<I: ExactSizeIterator<Item = Move>> core::iter::FusedIterator for Positions<I> {}

/// The position after the first `ply` of `moves` from `start`; `None` if there are fewer.
pub(crate) fn position_at(
    start: &Position,
    moves: impl ExactSizeIterator<Item = Move>,
    ply: usize,
) -> Option<Position> {
    if ply > moves.len() {
        return None;
    }
    let mut pos = start.clone();
    for m in moves.take(ply) {
        play_line_move(&mut pos, m);
    }
    Some(pos)
}

impl Game {
    /// Every position of the game: the start position first, then the position after each
    /// move: `len() + 1` of them, the last the current position.
    ///
    /// ```
    /// use chessbits::game::Game;
    /// let mut game = Game::new();
    /// for uci in ["e2e4", "e7e5", "g1f3"] {
    ///     game.push_uci(uci).unwrap();
    /// }
    /// let positions: Vec<_> = game.positions().collect();
    /// assert_eq!(positions.len(), 4);
    /// assert_eq!(&positions[0], game.start());
    /// assert_eq!(&positions[3], game.position());
    /// assert_eq!(positions[1].fen(), "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
    /// ```
    pub fn positions(&self) -> impl ExactSizeIterator<Item = Position> + '_ {
        Positions::new(self.start().clone(), self.moves().iter().copied())
    }

    /// The position after `ply` moves (0: the start position, [`len`](Game::len): the current
    /// one); `None` past the end.
    ///
    /// ```
    /// use chessbits::game::Game;
    /// let mut game = Game::new();
    /// for uci in ["d2d4", "d7d5"] {
    ///     game.push_uci(uci).unwrap();
    /// }
    /// assert_eq!(game.position_at(0).as_ref(), Some(game.start()));
    /// assert_eq!(game.position_at(1).unwrap().fen(), "rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1");
    /// assert_eq!(game.position_at(2).as_ref(), Some(game.position()));
    /// assert_eq!(game.position_at(3), None);
    /// ```
    pub fn position_at(&self, ply: usize) -> Option<Position> {
        if ply == self.len() {
            // The current position is kept: no replay needed.
            return Some(self.position().clone());
        }
        position_at(self.start(), self.moves().iter().copied(), ply)
    }
}
