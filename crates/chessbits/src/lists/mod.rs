//! Move lists: the fixed-capacity [`MoveList`] of generation, the [`ScoredMoveList`] with
//! selection picking, the [`SearchStack`] shared by all plies of a search path, and the staged
//! [`MovePicker`].
//!
//! [`MoveList`] is defined beside [`Move`](crate::moves::Move) (move generation fills it, and
//! generation comes before the lists that order and pick) and re-exported here.

pub mod picker;
pub mod scored;
pub mod search_stack;

pub use crate::moves::{MoveList, MAX_MOVES};
pub use picker::{MovePicker, Stage};
pub use scored::{captured_role, mvv_lva, ListFull, ScoredMoveList};
pub use search_stack::{SearchStack, SearchStackError};
