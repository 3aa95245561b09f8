//! Move codes: index, enumeration, direction-target, entropy coding.

pub mod entropy;
pub mod lichess;
