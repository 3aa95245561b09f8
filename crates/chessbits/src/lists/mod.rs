//! Move lists: the fixed-capacity [`MoveList`] of generation.

mod move_list;

pub use move_list::{MoveList, MAX_MOVES};
