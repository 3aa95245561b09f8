//! Replaying a game from the `games` table's moves (format 3, see [`crate::model::positions`]):
//! the keys of its positions, to check a `positions` candidate and to find the plies where the
//! game stands in a position and the move it played there.

use std::cell::RefCell;
use std::path::Path;

use chessbits::codec::moves::entropy::GameDecoder;
use chessbits::position::{Position, Validation};
use chessbits::Move;

use crate::build::records::uci_text;
use crate::error::IndexError;
use crate::key::PositionKey;
use crate::model::game::GameRow;

/// A game replayed: the key of each of its positions (ply 0 to the last) and its moves.
pub(crate) struct Replayed {
    pub keys: Vec<u128>,
    pub moves: Vec<Move>,
}

impl Replayed {
    /// The plies where the game stands in `key` (ascending) and the move it played at the first
    /// (UCI; `None` where the game ended); `None` when it never does.
    pub fn at(&self, key: u128) -> Option<super::Plies> {
        let plies: Vec<u32> = (0..self.keys.len())
            .filter(|&p| self.keys[p] == key)
            .map(|p| p as u32)
            .collect();
        let first = *plies.first()? as usize;
        let uci = self
            .moves
            .get(first)
            .and_then(|m| uci_text(m.bits()))
            .map(str::to_string);
        Some((plies, uci))
    }

    /// The distinct keys of the game whose prefix of `bits` bits is `prefix`, ascending.
    pub fn keys_with_prefix(&self, prefix: i64, bits: u32) -> Vec<u128> {
        let mut keys: Vec<u128> = self
            .keys
            .iter()
            .copied()
            .filter(|&k| crate::model::positions::key_prefix(k, bits) == prefix)
            .collect();
        keys.sort_unstable();
        keys.dedup();
        keys
    }
}

/// Replays the game of `row` (read with the replay columns); `path`: the games file, named by
/// the error when the stored moves do not replay.
pub(crate) fn replay(row: &GameRow, path: &Path) -> Result<Replayed, IndexError> {
    thread_local! {
        static DECODER: RefCell<GameDecoder> = RefCell::new(GameDecoder::new());
    }
    let bad = |reason: String| IndexError::format(path, format!("game {}: {reason}", row.game));
    let replay = &row.replay;
    let mut pos = match &replay.start_fen {
        None => Position::startpos(),
        Some(fen) => Position::from_fen_with(fen, Validation::Composed)
            .map_err(|e| bad(format!("its start position '{fen}' does not parse: {e}")))?,
    };
    if replay.chess960 {
        pos.set_chess960(true);
    }
    let mut moves = Vec::with_capacity(replay.plies as usize);
    DECODER
        .with_borrow_mut(|decoder| decoder.decode_into(&pos, &replay.moves, replay.plies as usize, &mut moves))
        .map_err(|e| bad(format!("its moves do not decode: {e}")))?;
    let mut keys = Vec::with_capacity(moves.len() + 1);
    for &m in &moves {
        keys.push(PositionKey::of(&pos).0);
        pos.play_unchecked(m);
    }
    keys.push(PositionKey::of(&pos).0);
    Ok(Replayed { keys, moves })
}
