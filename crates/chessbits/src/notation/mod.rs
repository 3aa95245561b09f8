//! Notation: [`fen`] (FEN, X-FEN, Shredder-FEN), [`uci`] moves.

pub mod fen;
pub mod lan;
pub mod san;
pub mod uci;
