//! The stream-based code: the board as 4-bit codes, one per piece or run of empty squares, then two
//! bytes of state.
//!
//! # Layout
//!
//! All fields are written most significant bit first, one after the other.
//!
//! **Board.** The squares a1, b1, …, h1, a2, …, h8 (square index order) as a sequence of 4-bit
//! codes (nibbles):
//!
//! | nibble | meaning |
//! |---|---|
//! | 0–5 | white pawn, knight, bishop, rook, queen, king ([`Piece::index`]) |
//! | 6–11 | black pawn, knight, bishop, rook, queen, king |
//! | 12, 13, 14 | 1, 2, 3 empty squares |
//! | 15, then a nibble `n` | `n + 4` empty squares (4 to 19) |
//!
//! A gap of `g` empty squares between pieces (or at either end of the board) is written greedily:
//! while `g ≥ 4`, the long code for `min(g, 19)` squares; then the short code for the 1 to 3
//! squares left, if any. The codes cover exactly 64 squares.
//!
//! **State**, 16 bits (the seed's "two bytes for the 50-move rule and such things"):
//!
//! | bits | field |
//! |---|---|
//! | 1 | side to move: 0 White, 1 Black |
//! | 4 | castling rights of the rooks on h1, a1, h8, a8 (K, Q, k, q), 1 = may castle |
//! | 4 | en passant: 0 none, 1–8 the file a–h of the square (rank 6 if White is to move, else 3) |
//! | 7 | halfmove clock 0–126; 127 means the clock follows in 32 more bits |
//!
//! Then zero bits up to a whole byte. The fullmove number is not stored (decoded as 1).
//!
//! # Accepted setups
//!
//! Any board (any number of pieces of any kind anywhere), castling rights on the four corner squares
//! only (the standard rooks; nothing else is checked), an en passant square on the sixth rank when
//! White is to move or on the third when Black is, any clock.
//!
//! # Size
//!
//! The start position's board takes 36 nibbles, 18 bytes: 16 pieces, 4 nibbles for the 32 empty
//! squares (19 + 13), 16 pieces. Each nibble accounts for at least one square (a piece: one; a short
//! run: one to three; a long run: at least four for two nibbles), so a board takes at most 64
//! nibbles, 32 bytes, reached by alternating a piece and a single empty square. With the two bytes of
//! state the code is at most 34 bytes (272 bits), plus four bytes for a clock above 126.
//!
//! ```
//! use chessbits::codec::position::stream;
//! use chessbits::position::Setup;
//! let bytes = stream::encode(&Setup::standard()).unwrap();
//! assert_eq!(bytes.len(), 18 + 2);
//! assert_eq!(stream::decode(&bytes).unwrap(), Setup::standard());
//! ```

use super::{
    code_functions, decoded_setup, impl_position_codec, read_clock7, read_turn, write_clock7, Framing,
    PositionCodeError,
};
use crate::codec::bits::{BitReader, BitWriter};
use crate::position::{Board, Setup};
use crate::types::{CastlingRights, Color, File, Piece, Rank, Square};

/// The stream-based code as a [`PositionCodec`](super::PositionCodec).
///
/// ```
/// use chessbits::codec::position::{PositionCodec, Stream};
/// use chessbits::position::Setup;
/// assert_eq!(Stream.encoded_bits(&Setup::standard()), Ok(144 + 16));
/// ```
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Stream;

impl_position_codec!(
    Stream,
    "stream",
    "4-bit codes for pieces and runs of empty squares, two bytes of state"
);

/// The corner squares of the four castling bits, in layout order: K, Q, k, q.
const CASTLING_SQUARES: [Square; 4] = [Square::H1, Square::A1, Square::H8, Square::A8];

/// Nibbles 12–14: one to three empty squares.
const SHORT_GAP: u64 = 11;
/// Nibble 15: the next nibble gives 4 to 19 empty squares.
const LONG_GAP: u64 = 15;

code_functions! {
    framing: Framing::Padded,
    /// Encodes `setup` (see the [module documentation](self) for the layout).
    ///
    /// ```
    /// use chessbits::codec::position::{stream, PositionCodeError};
    /// use chessbits::position::Setup;
    /// use chessbits::types::Square;
    /// let mut setup = Setup::standard();
    /// setup.ep_square = Some(Square::E4); // not on the sixth rank with White to move
    /// assert!(matches!(stream::encode(&setup), Err(PositionCodeError::Unsupported(_))));
    /// ```
    encode;
    /// The length of the code of `setup` in bits.
    ///
    /// ```
    /// use chessbits::codec::position::stream;
    /// use chessbits::position::Setup;
    /// let mut setup = Setup::standard();
    /// setup.board = chessbits::position::Board::empty();
    /// // four runs (19 + 19 + 19 + 7 squares) of two nibbles each, then 16 bits of state
    /// assert_eq!(stream::encoded_bits(&setup), Ok(4 * 8 + 16));
    /// ```
    encoded_bits;
    /// Decodes bytes written by [`encode`]; the fullmove number comes back as 1.
    ///
    /// ```
    /// use chessbits::codec::position::{stream, PositionCodeError};
    /// let bytes = stream::encode(&chessbits::position::Setup::standard()).unwrap();
    /// assert_eq!(stream::decode(&bytes[..10]), Err(PositionCodeError::Truncated));
    /// ```
    decode;
}

fn write(setup: &Setup) -> Result<BitWriter, PositionCodeError> {
    let mut w = BitWriter::new();
    let mut gap = 0u64;
    for sq in Square::all() {
        match setup.board.piece_at(sq) {
            None => gap += 1,
            Some(piece) => {
                write_gap(&mut w, gap);
                gap = 0;
                w.write(piece.index() as u64, 4);
            }
        }
    }
    write_gap(&mut w, gap);

    w.write_bit(setup.turn == Color::Black);
    if (setup.castling.rooks() & !corner_squares()).any() {
        return Err(PositionCodeError::Unsupported("castling rights off the corner squares"));
    }
    for sq in CASTLING_SQUARES {
        w.write_bit(setup.castling.rooks().contains(sq));
    }
    let ep_rank = Rank::SIXTH.relative_to(setup.turn);
    match setup.ep_square {
        None => w.write(0, 4),
        Some(ep) if ep.rank() == ep_rank => w.write(ep.file().index() as u64 + 1, 4),
        Some(_) => {
            return Err(PositionCodeError::Unsupported(
                "en passant square not on the sixth rank",
            ))
        }
    }
    write_clock7(&mut w, setup.halfmove_clock);
    Ok(w)
}

fn write_gap(w: &mut BitWriter, mut gap: u64) {
    while gap >= 4 {
        let run = gap.min(19);
        w.write(LONG_GAP, 4);
        w.write(run - 4, 4);
        gap -= run;
    }
    if gap > 0 {
        w.write(SHORT_GAP + gap, 4);
    }
}

fn corner_squares() -> crate::types::Bitboard {
    CASTLING_SQUARES
        .iter()
        .fold(crate::types::Bitboard::EMPTY, |bb, &sq| bb.with(sq))
}

fn read(r: &mut BitReader<'_>) -> Result<Setup, PositionCodeError> {
    let mut board = Board::empty();
    let mut next = 0u64;
    while next < 64 {
        let code = r.read(4)?;
        let covered = match code {
            0..=11 => {
                let piece = Piece::from_index(code as usize).ok_or(PositionCodeError::Invalid("piece code"))?;
                let sq = Square::new(next as u8).ok_or(PositionCodeError::Invalid("square"))?;
                board.put(sq, piece);
                1
            }
            12..=14 => code - SHORT_GAP,
            _ => r.read(4)? + 4,
        };
        next += covered;
    }
    if next > 64 {
        return Err(PositionCodeError::Invalid("the board codes cover more than 64 squares"));
    }

    let turn = read_turn(r)?;
    let mut castling = CastlingRights::NONE;
    for sq in CASTLING_SQUARES {
        if r.read_bit()? {
            castling = castling.with_square(sq);
        }
    }
    let ep_square = match r.read(4)? {
        0 => None,
        file @ 1..=8 => {
            let file = File::new(file as u8 - 1).ok_or(PositionCodeError::Invalid("en passant file"))?;
            Some(Square::from_coords(file, Rank::SIXTH.relative_to(turn)))
        }
        _ => return Err(PositionCodeError::Invalid("en passant field above 8")),
    };
    let halfmove_clock = read_clock7(r)?;
    Ok(Setup {
        board,
        castling,
        ep_square,
        ..decoded_setup(turn, halfmove_clock)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::Role;

    #[test]
    fn start_board_is_eighteen_bytes() {
        assert_eq!(encoded_bits(&Setup::standard()), Ok(18 * 8 + 16));
    }

    #[test]
    fn alternating_piece_and_gap_is_the_worst_case() {
        let mut setup = Setup::standard();
        setup.board = Board::empty();
        for sq in Square::all().filter(|sq| sq.index() % 2 == 0) {
            setup.board.put(sq, Piece::new(Color::White, Role::Queen));
        }
        assert_eq!(encoded_bits(&setup), Ok(32 * 8 + 16));
        assert_eq!(decode(&encode(&setup).unwrap()), Ok(setup));
    }

    #[test]
    fn gaps_are_greedy() {
        for gap in 0..=64u64 {
            let mut w = BitWriter::new();
            write_gap(&mut w, gap);
            let nibbles = w.bit_len() / 4;
            // Optimal: two nibbles per 19 squares, the rest in one (1-3) or two (4-18) nibbles.
            let rest = gap % 19;
            let best = 2 * (gap / 19)
                + if rest == 0 {
                    0
                } else if rest <= 3 {
                    1
                } else {
                    2
                };
            assert_eq!(nibbles, best, "gap {gap}");
        }
    }
}
