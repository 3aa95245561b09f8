//! Compact encodings: [`moves`] codes, [`position`] codes and the [`bits`] they are
//! written with.

pub mod bits;
pub mod moves;
pub mod position;
