//! Moves: the 16-bit [`Move`] of the search and the 32-bit [`ExtendedMove`] of move ordering.

mod extended;
mod kind;
mod r#move;

pub use extended::ExtendedMove;
pub use kind::MoveKind;
pub use r#move::{Move, UciMove};
