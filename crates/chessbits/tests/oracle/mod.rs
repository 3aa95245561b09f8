//! An independent second move generator, used only as a test oracle for the library's.
//!
//! It follows the textbook "0x88 method" with piece lists (see the board-representation notes in
//! the shared seeds): a 128-byte mailbox where a square is `0rrr0fff` and `sq & 0x88 != 0` means
//! off the board, one list of piece squares per side, and attack detection by the square
//! difference, which tells alone whether two squares share a line (sliders then step along it).
//! Legality is decided the slow, obvious way: play the move on a copy of the board and see whether
//! the mover's king is attacked.
//!
//! Why: the library's generator (magic/PEXT bitboards, pin masks, check evasions, bulk counting) is
//! fast and intricate; perft suites only check totals of positions someone chose. A generator
//! written from the rules with nothing in common with it (no `Bitboard`, no `attacks`, no
//! `movegen`, its own FEN reader) can compare the exact move set at any position, so a bug shows
//! up as the position and the moves that differ. It is slow on purpose: plain code is easy to
//! check by reading.
//!
//! - [`board`]: the 0x88 board, piece lists, FEN (standard, X-FEN and Shredder-FEN castling).
//! - [`movegen`]: attacks, pseudo-legal moves, castling (standard and Chess960), en passant,
//!   promotions, make on a copy, legal moves as UCI strings, perft.

pub mod board;
pub mod movegen;

pub use board::Board;
