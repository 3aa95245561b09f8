//! Notation: [`fen`] (FEN, X-FEN, Shredder-FEN), [`san`] (standard algebraic), [`lan`] (long
//! algebraic) and [`uci`] moves; and playing moves given as text on a position or a game
//! ([`Position::play_san`](crate::position::Position::play_san),
//! [`Game::push_san`](crate::game::Game::push_san) and their UCI forms).

pub mod fen;
pub mod lan;
mod play;
pub mod san;
pub mod uci;
