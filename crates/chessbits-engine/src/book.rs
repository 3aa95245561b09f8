//! Opening book moves for `OwnBook`: a Polyglot book read by [`chessbits::book`].

use chessbits::moves::Move;
use chessbits::position::Position;

/// A book move for `pos` from the Polyglot file at `path` (weighted random choice), if the
/// file reads and holds the position.
pub fn probe_file(path: &str, pos: &Position) -> Option<Move> {
    if path.is_empty() {
        return None;
    }
    let book = chessbits::book::Book::open(path).ok()?;
    let seed = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    book.weighted_move(pos, seed)
}
