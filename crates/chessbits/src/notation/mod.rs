//! Notation: [`fen`] (FEN, X-FEN, Shredder-FEN), [`epd`] (EPD lines with their operations), [`san`] (standard algebraic), [`lan`] (long
//! algebraic) and [`uci`] moves; and playing moves given as text on a position or a game
//! ([`Position::play_san`](crate::position::Position::play_san),
//! [`Game::push_san`](crate::game::Game::push_san) and their UCI forms).

pub mod epd;
pub mod fen;
pub mod lan;
mod play;
pub mod san;
pub mod uci;
