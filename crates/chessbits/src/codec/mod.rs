//! Compact encodings: move codes (module `move`), [`position`] codes and the [`bits`] they are
//! written with.

pub mod bits;
pub mod r#move;
pub mod position;
