//! Compact encodings: [`move`](self::r#move) codes and [`position`] codes.

pub mod r#move;
pub mod position;
