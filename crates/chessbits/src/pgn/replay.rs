//! What the visitors that replay games share: the start position from the tags, resolving a
//! move token, making and taking back moves (null moves included).

use super::text::decode;
use super::text::RawTag;
use super::tree::{start_position, GameError, GameErrorKind};
use super::visitor::SanToken;
use crate::moves::Move;
use crate::position::{Position, Undo};

/// The tags that decide a game's start position, `[FEN]` and `[Variant]`, kept in buffers
/// reused from game to game.
#[derive(Default)]
pub(super) struct StartTags {
    /// The `[FEN]` value and its line, valid when `has_fen`.
    fen: (String, u32),
    has_fen: bool,
    variant: Option<(String, u32)>,
    /// The standard start position (`Position::default()`), cloned for games without a `[FEN]`
    /// (cheaper than building it again for each game).
    standard: Position,
}

impl StartTags {
    /// Forgets the tags of the last game.
    pub(super) fn clear(&mut self) {
        self.has_fen = false;
        self.variant = None;
    }

    /// Notes `name` if it is one of the tags kept; whether it was.
    pub(super) fn tag(&mut self, name: &[u8], value: RawTag<'_>, line: u32) -> bool {
        match name {
            b"FEN" => {
                self.fen.0.clear();
                self.fen.0.push_str(&value.decode());
                self.fen.1 = line;
                self.has_fen = true;
            }
            b"Variant" => self.variant = Some((value.decode().into_owned(), line)),
            _ => return false,
        }
        true
    }

    /// The start position the tags give, or `None` with the error put in `error`.
    pub(super) fn start_position(&self, error: &mut Option<GameError>) -> Option<Position> {
        let start = match (self.has_fen, &self.variant) {
            (false, None) => Ok(self.standard.clone()),
            (has_fen, variant) => start_position(has_fen.then_some(&self.fen), variant.as_ref()),
        };
        start.map_err(|e| *error = Some(e)).ok()
    }
}

/// The move `token` names in `pos`: [`Move::NULL`] for a null move, which must not be played in
/// check.
#[inline]
pub(super) fn resolve_token(pos: &Position, token: &SanToken<'_>) -> Result<Move, GameErrorKind> {
    let move_error = |error| GameErrorKind::Move {
        token: decode(token.text).into_owned(),
        error,
    };
    let san = token.san.map_err(move_error)?;
    let m = san.san.to_move(pos).map_err(move_error)?;
    if m.is_null() && pos.is_check() {
        return Err(GameErrorKind::NullMoveInCheck);
    }
    Ok(m)
}

/// Plays the move [`resolve_token`] returned.
#[inline]
pub(super) fn make(pos: &mut Position, m: Move) -> Undo {
    if m.is_null() {
        pos.make_null_move()
    } else {
        pos.play_unchecked(m)
    }
}

/// The position before `m`, which [`make`] played on `pos` and returned `undo` for: where a
/// variation, an alternative to `m`, starts.
pub(super) fn position_before(pos: &Position, m: Move, undo: Undo) -> Position {
    let mut before = pos.clone();
    if m.is_null() {
        before.unmake_null_move(undo);
    } else {
        before.unmake_move(m, undo);
    }
    before
}

/// The open lines of a game being replayed, the main line first: each line's position and last
/// move (a variation starts from the position before its parent's last move). What the visitors
/// that check variations without keeping them ([`Validator`](super::Validator),
/// [`MainLineReader`](super::MainLineReader)) share.
#[derive(Default)]
pub(super) struct Lines {
    frames: Vec<(Position, Option<(Move, Undo)>)>,
}

impl Lines {
    /// Forgets the last game.
    pub(super) fn clear(&mut self) {
        self.frames.clear();
    }

    /// Opens the main line at `start`.
    pub(super) fn start(&mut self, start: Position) {
        self.frames.clear();
        self.frames.push((start, None));
    }

    /// Open lines: 1 on the main line, 0 before the tags are done (or after they failed).
    pub(super) fn depth(&self) -> usize {
        self.frames.len()
    }

    /// Resolves and plays `token` on the innermost line: the move, or `None` if no line is open.
    pub(super) fn play(&mut self, token: &SanToken<'_>) -> Result<Option<Move>, GameErrorKind> {
        let Some((pos, last)) = self.frames.last_mut() else {
            return Ok(None);
        };
        let m = resolve_token(pos, token)?;
        *last = Some((m, make(pos, m)));
        Ok(Some(m))
    }

    /// Opens a variation, an alternative to the innermost line's last move; `false` (skip it)
    /// if that line has no move yet.
    pub(super) fn begin_variation(&mut self) -> bool {
        let Some(&(ref pos, Some((m, undo)))) = self.frames.last() else {
            return false;
        };
        let before = position_before(pos, m, undo);
        self.frames.push((before, None));
        true
    }

    /// Closes the innermost variation (never the main line); whether one was closed.
    pub(super) fn end_variation(&mut self) -> bool {
        if self.frames.len() > 1 {
            self.frames.pop();
            return true;
        }
        false
    }
}
