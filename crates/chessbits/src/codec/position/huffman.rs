//! The Huffman code of the seed: one bit per empty square, short codes for pawns, castling and en
//! passant only when the board makes them possible.
//!
//! # Layout
//!
//! **Header.** 1 bit side to move (0 White, 1 Black); 7 bits halfmove clock (0–126 as is; 127 means
//! the clock follows in 32 more bits). The seed's 7 bits for "101 possibilities" would lose clocks
//! above 100; storing them exactly keeps the round trip.
//!
//! **Board.** The squares a1, b1, …, h8 (index order), each as
//!
//! | square | code |
//! |---|---|
//! | empty | `0` |
//! | pawn | `10c` |
//! | bishop | `1100c` |
//! | knight | `1101c` |
//! | rook | `1110c` |
//! | queen | `11110c` |
//! | king | `11111c` |
//!
//! where `c` is the color, 1 = White (light), 0 = Black (dark).
//!
//! **Fields inside the board.** A field is written right after the code of the last square it
//! depends on, and only when the board so far makes it possible (it then has at least one bit):
//!
//! - after h1: White's castling, if the white king is on e1: one bit for each corner (a1, then h1)
//!   holding a white rook, 1 = that rook may castle;
//! - after h4 when Black is to move, after h7 when White is: en passant. The *candidates* are the
//!   pawns of the side that just moved on its fourth rank with the two squares behind them empty and
//!   a pawn of the side to move beside them (at most five, as the seed says). With `n ≥ 1`
//!   candidates the field is a number from 0 to `n` in the fewest bits that hold `n` (1, 2, 2, 3, 3
//!   bits for `n` = 1…5): 0 = no en passant, `i` = the `i`-th candidate in square order just
//!   advanced two squares;
//! - after h8: Black's castling, likewise (a8, then h8).
//!
//! **Omissions.** The board stops after its last piece: trailing empty squares are not written. If
//! that last piece is the only king of its color and the other color has a king, it is left out too
//! (six bits saved), unless a field comes at or after its square. A board where exactly one color
//! has no king is always written to h8 (so that no king is restored by mistake).
//!
//! **End.** The decoder must know where the bits stop, so [`encode`] appends a 1 bit and then zero
//! bits to a whole byte; [`encoded_bits`] does not count them. When the bits run out at square `s`,
//! the squares from `s` on are empty, except that if exactly one color has no king, its king stands
//! on `s`.
//!
//! The fullmove number is not stored (decoded as 1).
//!
//! # Accepted setups
//!
//! Any board; castling rights only for the possible rights above (king on e1/e8, own rook on the
//! corner); an en passant square only behind a candidate pawn (every legal position qualifies); any
//! clock.
//!
//! # Size: at most 204 bits
//!
//! Write `v` for a code's length minus one (the bit an empty square would take): pawn 2, knight,
//! bishop and rook 4, queen and king 5. A full board takes `64 + Σv` bits. The start position has
//! `Σv = 100` (16·2 + 12·4 + 2·5 + 2·5); from there a capture of a pawn lowers `Σv` by 2, of another
//! piece by at least 4, and a promotion raises it by at most 3. So `Σv ≤ 100 − 2P − 4O + 3p` for `P`
//! captured pawns, `O` other captured pieces and `p` promotions.
//!
//! A white and a black pawn start on each file; as long as neither has captured or been captured
//! they block each other and neither promotes. A capture involves at most two pawns, so it *opens*
//! at most two files, and only when a pawn takes a pawn (`C ≤ P` such captures): at most `P + O + C`
//! open files, each giving at most two promotions, fewer by its captured pawns:
//! `p ≤ min(16 − P, 2·min(8, P + O + C) − P) ≤ min(16 − P, 3P + 2O)`. Maximizing
//! `100 − 2P − 4O + 3·min(16 − P, 3P + 2O)` over whole numbers gives 128, at `P = 4, O = 0` (four
//! pawn-takes-pawn captures opening the eight files, twelve queens). Hence a board takes at most
//! 192 bits. With en passant possible at least two pawns stay, `p ≤ 14 − P`, and the maximum drops
//! to `Σv = 123`. The fields add at most 4 castling bits and 3 en passant bits, so the code is at
//! most `8 + 192 + 4 = 204` bits without en passant and `8 + 187 + 4 + 3 = 202` with it — the
//! seed's 204 — for every position reachable from the start position with a clock up to 126 (32
//! more bits above). Setups no game can reach may take up to `8 + 64·6 + 7 = 399` bits.
//!
//! ```
//! use chessbits::codec::position::huffman;
//! use chessbits::position::Setup;
//! let start = Setup::standard();
//! // header 8 + board 164 (32 empty squares, 132 bits of pieces) + 4 castling bits
//! assert_eq!(huffman::encoded_bits(&start), Ok(8 + 164 + 4));
//! assert_eq!(huffman::decode(&huffman::encode(&start).unwrap()), Ok(start));
//! ```

use super::huffman_board::{
    check_ep, field_points, read_board, read_role_after_one, write_board, write_role_prefix, Field, SquareCode,
};
use super::{
    code_functions, decoded_setup, impl_position_codec, read_clock7, read_turn, write_clock7, Framing,
    PositionCodeError,
};
use crate::codec::bits::{BitReader, BitWriter};
use crate::position::{Board, Setup};
use crate::types::{Bitboard, Color, Piece, Role, Square};

/// The seed's Huffman code as a [`PositionCodec`](super::PositionCodec).
///
/// ```
/// use chessbits::codec::position::{Huffman, PositionCodec};
/// assert_eq!(Huffman.name(), "huffman");
/// ```
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Huffman;

impl_position_codec!(
    Huffman,
    "huffman",
    "the seed's Huffman code: empty 0, pawn 10c, pieces 1100c to 11111c, fields only when possible"
);

code_functions! {
    framing: Framing::EndMarker,
    /// Encodes `setup` (see the [module documentation](self) for the layout).
    ///
    /// ```
    /// use chessbits::codec::position::{huffman, PositionCodeError};
    /// use chessbits::position::Setup;
    /// use chessbits::types::{CastlingRights, Square};
    /// let mut setup = Setup::standard();
    /// setup.castling = CastlingRights::NONE.with_square(Square::B1); // a Chess960 right
    /// assert!(matches!(huffman::encode(&setup), Err(PositionCodeError::Unsupported(_))));
    /// ```
    encode;
    /// The length of the code of `setup` in bits, without the end marker and padding.
    ///
    /// ```
    /// use chessbits::codec::position::huffman;
    /// use chessbits::position::{Board, Setup};
    /// use chessbits::types::{Color, Piece, Role, Square};
    /// let mut setup = Setup::standard();
    /// setup.castling = Default::default();
    /// setup.board = Board::empty();
    /// setup.board.put(Square::A1, Piece::new(Color::White, Role::King));
    /// setup.board.put(Square::C1, Piece::new(Color::Black, Role::King));
    /// // header, white king, one empty square; the black king is implied
    /// assert_eq!(huffman::encoded_bits(&setup), Ok(8 + 6 + 1));
    /// ```
    encoded_bits;
    /// Decodes bytes written by [`encode`]; the fullmove number comes back as 1.
    ///
    /// ```
    /// use chessbits::codec::position::{huffman, PositionCodeError};
    /// assert!(matches!(huffman::decode(&[0, 0]), Err(PositionCodeError::Invalid(_))));
    /// ```
    decode;
}

/// The corners of `color` whose rook could castle: a white rook on a1 or h1 with the white king on
/// e1 (a1 first). Only squares up to the back rank's end are looked at.
fn castling_corners(board: &Board, color: Color) -> Bitboard {
    if board.piece_at(Square::E1.relative_to(color)) != Some(Piece::new(color, Role::King)) {
        return Bitboard::EMPTY;
    }
    let corners = Bitboard::EMPTY
        .with(Square::A1.relative_to(color))
        .with(Square::H1.relative_to(color));
    corners & board.by_piece(Piece::new(color, Role::Rook))
}

/// Refuses the rights and en passant squares the fields cannot hold.
fn check_fields(setup: &Setup) -> Result<(), PositionCodeError> {
    let possible = castling_corners(&setup.board, Color::White) | castling_corners(&setup.board, Color::Black);
    if (setup.castling.rooks() & !possible).any() {
        return Err(PositionCodeError::Unsupported(
            "castling right without the king on e1/e8 and the rook on a corner",
        ));
    }
    check_ep(setup)
}

/// The plain code's squares, pieces and fields for the shared board writer and reader.
struct Plain;

impl SquareCode for Plain {
    fn squares(&self) -> Vec<Square> {
        Square::all().collect()
    }

    fn fields(&self, turn: Color) -> Vec<(usize, Field)> {
        field_points(turn).to_vec()
    }

    fn write_piece(&self, w: &mut BitWriter, piece: Option<Piece>) {
        let Some(piece) = write_role_prefix(w, piece) else {
            return;
        };
        if matches!(piece.role, Role::Queen | Role::King) {
            w.write_bit(piece.role == Role::King);
        }
        w.write_bit(piece.color == Color::White);
    }

    fn read_piece(&self, r: &mut BitReader<'_>) -> Result<Option<Piece>, PositionCodeError> {
        if !r.read_bit()? {
            return Ok(None);
        }
        let role = match read_role_after_one(r, true)? {
            Role::Queen if r.read_bit()? => Role::King,
            role => role,
        };
        let color = if r.read_bit()? { Color::White } else { Color::Black };
        Ok(Some(Piece::new(color, role)))
    }

    fn castling_rooks(&self, board: &Board, color: Color) -> Bitboard {
        castling_corners(board, color)
    }
}

fn write(setup: &Setup) -> Result<BitWriter, PositionCodeError> {
    check_fields(setup)?;
    let mut w = BitWriter::new();
    w.write_bit(setup.turn == Color::Black);
    write_clock7(&mut w, setup.halfmove_clock);
    write_board(&mut w, setup, &Plain);
    Ok(w)
}

fn read(r: &mut BitReader<'_>) -> Result<Setup, PositionCodeError> {
    let turn = read_turn(r)?;
    let halfmove_clock = read_clock7(r)?;
    let mut setup = decoded_setup(turn, halfmove_clock);
    read_board(r, &mut setup, &Plain)?;
    Ok(setup)
}
