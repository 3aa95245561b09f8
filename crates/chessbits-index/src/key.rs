//! The position key: the one function that build, queries, the Python package and the Spark job
//! share. Everything the index stores is sorted and found by it.
//!
//! A key is 128 bits, written as 16 bytes big-endian (the `key` column of every table, a
//! `FIXED_LEN_BYTE_ARRAY(16)`), so that byte order is numeric order:
//!
//! - **bits 127..64: the Polyglot key** of the position (the Zobrist hash that Polyglot opening
//!   books use, with Polyglot's 781 random numbers), except that the en passant file is hashed
//!   only when an en passant capture is *legal* (Polyglot hashes it when a pawn merely stands
//!   beside the pushed one). Two positions that differ only by an en passant square nobody can
//!   use are the same position.
//! - **bits 63..0: a second Zobrist hash** over 841 numbers drawn from SplitMix64 seeded with
//!   [`SECOND_SEED`] (`chessbits::codec::moves::entropy::sample::SplitMix64`), in this
//!   order: 768 for a piece on a square (index `64 * piece + square`, piece = `color * 6 + role` with White 0 and roles pawn, knight, bishop, rook, queen, king;
//!   square a1 = 0 ... h8 = 63), 64 for a castling right by its rook's square (exact in Chess960,
//!   where the four Polyglot castling flags are not), 8 for the en passant file (legal only, as
//!   above), and 1 xored in when White is to move.
//!
//! What the key covers: piece placement, side to move, castling rights (by rook square) and a
//! legal en passant square. Not the move counters, not the path: transpositions get one key.
//!
//! Why 128 bits: a lichess-scale index holds about 10^11 distinct positions; with 64-bit keys
//! the chance that two of them collide is near certainty (birthday bound n²/2^65 ≈ 270), and an
//! explorer's counts cannot be checked by replay after the fact. With 128 bits the expected number
//! of colliding pairs is about 10^-17.

use std::fmt;

use chessbits::codec::moves::entropy::sample::SplitMix64;
use chessbits::position::Position;
use chessbits::types::{Color, Piece};
use std::ops::ControlFlow;

/// The seed of the SplitMix64 stream that fills the second hash's table.
pub const SECOND_SEED: u64 = 0x6368_6573_7362_6974; // "chessbit" in ASCII

/// The 128-bit key of a position (see the [module documentation](self)).
///
/// ```
/// use chessbits::position::Position;
/// use chessbits_index::PositionKey;
/// let key = PositionKey::of(&Position::startpos());
/// // The high half is the Polyglot key of the start position.
/// assert_eq!(key.polyglot(), 0x463b96181691fc9c);
/// assert_eq!(PositionKey::from_bytes(key.to_bytes()), key);
/// assert_eq!(key.to_string().len(), 32);
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct PositionKey(pub u128);

impl PositionKey {
    /// The key of `pos`.
    pub fn of(pos: &Position) -> PositionKey {
        let mut second = 0u64;
        for (sq, piece) in pos.board().pieces() {
            second ^= TABLE[piece.index() * 64 + sq.index()];
        }
        PositionKey::with_board_hash(pos, second ^ castling_hash(pos))
    }

    /// The key of `pos` given the second hash of its pieces and castling rights (`board`):
    /// what the en passant square and the side to move add.
    fn with_board_hash(pos: &Position, board: u64) -> PositionKey {
        let mut polyglot = pos.key();
        let mut second = board;
        if let Some(ep) = pos.ep_square() {
            if has_legal_en_passant(pos) {
                second ^= TABLE[EN_PASSANT + ep.file().index()];
            } else {
                // The Polyglot key hashed a square no capture can use: take it out.
                polyglot ^= chessbits::position::zobrist::en_passant_key(ep.file());
            }
        }
        if pos.turn() == Color::White {
            second ^= TABLE[WHITE_TO_MOVE];
        }
        PositionKey((polyglot as u128) << 64 | second as u128)
    }

    /// The high 64 bits: the Polyglot key (en passant hashed only when legal).
    pub fn polyglot(self) -> u64 {
        (self.0 >> 64) as u64
    }

    /// The 16 bytes of the `key` columns (big-endian).
    pub fn to_bytes(self) -> [u8; 16] {
        self.0.to_be_bytes()
    }

    /// The key of 16 bytes as the `key` columns hold them.
    pub fn from_bytes(bytes: [u8; 16]) -> PositionKey {
        PositionKey(u128::from_be_bytes(bytes))
    }

    /// The key from 32 hexadecimal digits (as [`Display`](fmt::Display) writes it).
    ///
    /// ```
    /// use chessbits_index::PositionKey;
    /// let key = PositionKey(0x0123_4567_89ab_cdef_0011_2233_4455_6677);
    /// assert_eq!(PositionKey::from_hex(&key.to_string()), Some(key));
    /// assert_eq!(PositionKey::from_hex("xyz"), None);
    /// ```
    pub fn from_hex(text: &str) -> Option<PositionKey> {
        if text.len() != 32 || !text.bytes().all(|b| b.is_ascii_hexdigit()) {
            return None;
        }
        u128::from_str_radix(text, 16).ok().map(PositionKey)
    }
}

impl fmt::Display for PositionKey {
    /// 32 lowercase hexadecimal digits (DuckDB: `from_hex('...')` gives the `key` column's bytes).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:032x}", self.0)
    }
}

/// The second hash's castling part: a number per castling rook's square.
fn castling_hash(pos: &Position) -> u64 {
    pos.castling()
        .rooks()
        .into_iter()
        .fold(0, |hash, rook| hash ^ TABLE[CASTLING + rook.index()])
}

/// Keys of the positions of one game, in order: the same keys as [`PositionKey::of`], but the
/// second hash's piece part is updated from the squares whose pieces changed since the last
/// position (a move changes two to four), not summed over the whole board again. Works for any
/// sequence of positions; it is only faster when they follow each other.
#[derive(Clone, Debug, Default)]
pub(crate) struct KeyTracker {
    /// The squares of each piece (by [`Piece::index`]) that `pieces_hash` covers.
    pieces: [u64; 12],
    pieces_hash: u64,
    /// The castling rights `castling_hash` covers (`None` before the first position).
    castling: Option<chessbits::types::CastlingRights>,
    castling_hash: u64,
}

impl KeyTracker {
    /// The key of `pos` (equal to [`PositionKey::of`]).
    pub fn key(&mut self, pos: &Position) -> PositionKey {
        let board = pos.board();
        for (i, known) in self.pieces.iter_mut().enumerate() {
            let piece = Piece::from_index(i).expect("12 pieces");
            let now = board.by_piece(piece).0;
            let mut changed = now ^ *known;
            *known = now;
            while changed != 0 {
                self.pieces_hash ^= TABLE[i * 64 + changed.trailing_zeros() as usize];
                changed &= changed - 1;
            }
        }
        if self.castling != Some(pos.castling()) {
            self.castling = Some(pos.castling());
            self.castling_hash = castling_hash(pos);
        }
        PositionKey::with_board_hash(pos, self.pieces_hash ^ self.castling_hash)
    }
}

/// Whether the side to move has a legal en passant capture.
fn has_legal_en_passant(pos: &Position) -> bool {
    pos.try_for_each_legal_move(|m| match m.is_en_passant() {
        true => ControlFlow::Break(()),
        false => ControlFlow::Continue(()),
    })
    .is_break()
}

const CASTLING: usize = 768;
const EN_PASSANT: usize = CASTLING + 64;
const WHITE_TO_MOVE: usize = EN_PASSANT + 8;
const TABLE_LEN: usize = WHITE_TO_MOVE + 1;

/// The second hash's random numbers.
static TABLE: [u64; TABLE_LEN] = second_table();

/// SplitMix64 (Steele, Lea and Flood): the state advances by the golden-ratio constant, each
/// output is the state mixed.
const fn second_table() -> [u64; TABLE_LEN] {
    let mut table = [0; TABLE_LEN];
    let mut state = SECOND_SEED;
    let mut i = 0;
    while i < TABLE_LEN {
        // SplitMix64::next_u64, spelled out: it is not a const fn.
        state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        table[i] = SplitMix64::mix(state);
        i += 1;
    }
    table
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_is_the_splitmix_sequence() {
        // SplitMix64 seeded with 0 gives 0xe220a8397b1dcdaf first (the reference sequence).
        assert_eq!(SplitMix64::new(0).next_u64(), 0xe220_a839_7b1d_cdaf);
        let mut rng = SplitMix64::new(SECOND_SEED);
        assert!(TABLE.iter().all(|&n| n == rng.next_u64()));
    }

    #[test]
    fn tracker_gives_the_keys_of_of() {
        // Random games (captures, promotions, castling, en passant) from the standard and a
        // Chess960 start, and a jump to an unrelated position.
        let mut rng = SplitMix64::new(7);
        let starts = [
            Position::startpos(),
            Position::from_fen("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9").unwrap(),
        ];
        let mut checked = 0;
        for game in 0..200 {
            let mut tracker = KeyTracker::default();
            let mut pos = starts[game % 2].clone();
            for _ in 0..300 {
                assert_eq!(tracker.key(&pos), PositionKey::of(&pos), "{}", pos.fen());
                checked += 1;
                let mut moves = Vec::new();
                let _ = pos.try_for_each_legal_move(|m| {
                    moves.push(m);
                    ControlFlow::<()>::Continue(())
                });
                if moves.is_empty() {
                    break;
                }
                pos.play_unchecked(moves[(rng.next_u64() % moves.len() as u64) as usize]);
            }
            let other = Position::from_fen("8/8/8/8/3pP3/8/8/k3K3 b - e3 0 1").unwrap();
            assert_eq!(tracker.key(&other), PositionKey::of(&other));
        }
        assert!(checked > 10_000);
    }

    #[test]
    fn transpositions_share_a_key_and_counters_do_not_matter() {
        let mut a = Position::startpos();
        for san in ["Nf3", "Nf6", "Ng1", "Ng8"] {
            a.play_san(san).unwrap();
        }
        assert_eq!(PositionKey::of(&a), PositionKey::of(&Position::startpos()));
        assert_ne!(a.fullmove_number(), Position::startpos().fullmove_number());
    }

    #[test]
    fn unusable_en_passant_square_is_not_hashed() {
        // After 1. e4 no black pawn can take on e3: same key as the FEN without the square.
        let with = Position::from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1").unwrap();
        let without = Position::from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1").unwrap();
        assert_eq!(PositionKey::of(&with), PositionKey::of(&without));
        // A pawn beside it that is pinned: Polyglot hashes the square, the key does not.
        let pinned = "8/8/8/8/k2pP2R/8/8/4K3 b - e3 0 1";
        let pinned_without = "8/8/8/8/k2pP2R/8/8/4K3 b - - 0 1";
        let a = Position::from_fen(pinned).unwrap();
        let b = Position::from_fen(pinned_without).unwrap();
        assert_ne!(a.key(), b.key(), "Polyglot hashes the square");
        assert_eq!(PositionKey::of(&a), PositionKey::of(&b));
        // A legal capture: the square counts.
        let legal = Position::from_fen("8/8/8/8/3pP3/8/8/k3K3 b - e3 0 1").unwrap();
        let legal_without = Position::from_fen("8/8/8/8/3pP3/8/8/k3K3 b - - 0 1").unwrap();
        assert_ne!(PositionKey::of(&legal), PositionKey::of(&legal_without));
    }

    #[test]
    fn side_to_move_and_castling_change_the_key() {
        let white = Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").unwrap();
        let black = Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1").unwrap();
        let no_rights = Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w - - 0 1").unwrap();
        let keys = [white, black, no_rights].map(|p| PositionKey::of(&p));
        assert_ne!(keys[0], keys[1]);
        assert_ne!(keys[0], keys[2]);
        assert_ne!(keys[1], keys[2]);
    }
}
