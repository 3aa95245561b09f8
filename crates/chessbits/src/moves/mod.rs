//! Moves: the 16-bit [`Move`] of the search and the 32-bit [`ExtendedMove`] of move ordering.

mod extended;
mod kind;
mod move16;
mod move_list;

pub use extended::ExtendedMove;
pub use kind::MoveKind;
pub use move16::{Move, UciMove};
pub use move_list::{Appender, MoveList, MAX_MOVES};
