//! Notation: [`fen`] (FEN, X-FEN, Shredder-FEN), [`uci`] moves.

pub mod fen;
pub mod uci;
pub mod lan;
pub mod san;
