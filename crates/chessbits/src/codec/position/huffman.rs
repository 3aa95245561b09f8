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

use super::{
    decoded_setup, ensure_canonical, impl_position_codec, read_clock7, read_turn, write_clock7, PositionCodeError,
};
use crate::codec::bits::{BitReader, BitWriter};
use crate::position::{Board, Setup};
use crate::types::{Bitboard, Color, Piece, Rank, Role, Square};

/// The seed's Huffman code as a [`PositionCodec`].
///
/// ```
/// use chessbits::codec::position::{Huffman, PositionCodec};
/// assert_eq!(Huffman.name(), "huffman");
/// ```
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Huffman;

impl_position_codec!(Huffman, "huffman", "the seed's Huffman code: empty 0, pawn 10c, pieces 1100c to 11111c, fields only when possible");

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
pub fn encode(setup: &Setup) -> Result<Vec<u8>, PositionCodeError> {
    Ok(write(setup)?.finish_with_end_marker())
}

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
pub fn encoded_bits(setup: &Setup) -> Result<u64, PositionCodeError> {
    Ok(write(setup)?.bit_len())
}

/// Decodes bytes written by [`encode`]; the fullmove number comes back as 1.
///
/// ```
/// use chessbits::codec::position::{huffman, PositionCodeError};
/// assert!(matches!(huffman::decode(&[0, 0]), Err(PositionCodeError::Invalid(_))));
/// ```
pub fn decode(bytes: &[u8]) -> Result<Setup, PositionCodeError> {
    let mut bits = BitReader::before_end_marker(bytes).ok_or(PositionCodeError::Invalid("no end marker"))?;
    let setup = read(&mut bits)?;
    ensure_canonical(bytes, setup, encode)
}

/// A field written inside the board, after the code of square `after`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) enum Field {
    Castling(Color),
    EnPassant,
}

/// The fields and the square after which each comes, for this side to move, in board order.
pub(super) fn field_points(turn: Color) -> [(usize, Field); 3] {
    let ep_after = match turn {
        Color::White => Square::H7,
        Color::Black => Square::H4,
    };
    [
        (Square::H1.index(), Field::Castling(Color::White)),
        (ep_after.index(), Field::EnPassant),
        (Square::H8.index(), Field::Castling(Color::Black)),
    ]
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

/// The seemingly capturable pawns: pawns of the side that just moved on its fourth rank, with the
/// two squares behind empty and a pawn of `turn` beside them. Only ranks two to four (or five to
/// seven) are looked at.
pub(super) fn ep_candidates(board: &Board, turn: Color) -> Bitboard {
    let mover = !turn;
    let rank4 = Bitboard::relative_rank(mover, Rank::FOURTH);
    let pushed = board.by_piece(Piece::new(mover, Role::Pawn)) & rank4;
    let empty = !board.occupied();
    // A pawn on rank 4 whose rank 3 and rank 2 squares (its path) are empty.
    let path_clear = empty.forward(mover) & empty.forward(mover).forward(mover);
    let ours = board.by_piece(Piece::new(turn, Role::Pawn)) & rank4;
    let beside = Bitboard(((ours.0 << 1) & !FILE_A) | ((ours.0 >> 1) & !FILE_H));
    pushed & path_clear & beside
}

const FILE_A: u64 = 0x0101_0101_0101_0101;
const FILE_H: u64 = FILE_A << 7;

/// Bits of an en passant field with `n` candidates: the fewest that hold 0 to `n`.
fn ep_width(n: u32) -> u32 {
    32 - n.leading_zeros()
}

/// The square an en passant capture of the pawn on `pawn` would land on.
fn ep_square_behind(pawn: Square, mover: Color) -> Option<Square> {
    pawn.offset(match mover {
        Color::White => -8,
        Color::Black => 8,
    })
}

/// Writes field `field` if the board makes it possible; returns whether it did.
fn write_field(w: &mut BitWriter, setup: &Setup, field: Field) -> bool {
    match field {
        Field::Castling(color) => {
            let corners = castling_corners(&setup.board, color);
            for sq in corners {
                w.write_bit(setup.castling.rooks().contains(sq));
            }
            corners.any()
        }
        Field::EnPassant => write_ep_field(w, setup),
    }
}

/// Writes the en passant field if the board has candidates; returns whether it did.
pub(super) fn write_ep_field(w: &mut BitWriter, setup: &Setup) -> bool {
    let candidates = ep_candidates(&setup.board, setup.turn);
    let n = candidates.count();
    let chosen = candidates
        .into_iter()
        .position(|pawn| ep_square_behind(pawn, !setup.turn) == setup.ep_square)
        .map_or(0, |i| i + 1);
    w.write(chosen as u64, ep_width(n));
    n > 0
}

/// Reads the en passant field of a board read up to the field's point.
pub(super) fn read_ep_field(r: &mut BitReader<'_>, setup: &mut Setup) -> Result<(), PositionCodeError> {
    let candidates = ep_candidates(&setup.board, setup.turn);
    let chosen = r.read(ep_width(candidates.count()))?;
    if chosen > 0 {
        let pawn = candidates
            .into_iter()
            .nth(chosen as usize - 1)
            .ok_or(PositionCodeError::Invalid("en passant number above the candidates"))?;
        setup.ep_square = ep_square_behind(pawn, !setup.turn);
    }
    Ok(())
}

/// Refuses an en passant square that is not behind a candidate pawn.
pub(super) fn check_ep(setup: &Setup) -> Result<(), PositionCodeError> {
    let Some(ep) = setup.ep_square else {
        return Ok(());
    };
    let candidates = ep_candidates(&setup.board, setup.turn);
    if candidates
        .into_iter()
        .any(|pawn| ep_square_behind(pawn, !setup.turn) == Some(ep))
    {
        Ok(())
    } else {
        Err(PositionCodeError::Unsupported(
            "en passant square not behind a pawn that could be taken en passant",
        ))
    }
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

fn code(role: Role) -> (u64, u32) {
    match role {
        Role::Pawn => (0b10, 2),
        Role::Bishop => (0b1100, 4),
        Role::Knight => (0b1101, 4),
        Role::Rook => (0b1110, 4),
        Role::Queen => (0b11110, 5),
        Role::King => (0b11111, 5),
    }
}

/// How many squares the encoder writes (see "Omissions").
fn squares_written(setup: &Setup) -> usize {
    let mut probe = BitWriter::new();
    let last_field = field_points(setup.turn)
        .into_iter()
        .filter(|&(_, field)| write_field(&mut probe, setup, field))
        .map(|(after, _)| after)
        .max();
    let all: Vec<Square> = Square::all().collect();
    prefix_written(&setup.board, &all, last_field)
}

/// How many of the `coded` squares (in writing order) a board code writes, when the last field
/// with bits comes after the square at position `last_field` of `coded`: up to the last piece,
/// without it if it is a lone king the decoder restores (see [`restore_lone_king`]), and at least
/// up to the last field; all of them when exactly one color has no king.
pub(super) fn prefix_written(board: &Board, coded: &[Square], last_field: Option<usize>) -> usize {
    let kings = |c: Color| board.by_piece(Piece::new(c, Role::King)).count();
    if (kings(Color::White) == 0) != (kings(Color::Black) == 0) {
        return coded.len();
    }
    let Some(q) = coded.iter().rposition(|&sq| board.piece_at(sq).is_some()) else {
        return last_field.map_or(0, |p| p + 1);
    };
    let lone_king = coded
        .get(q)
        .and_then(|&sq| board.piece_at(sq))
        .is_some_and(|p| p.role == Role::King && kings(p.color) == 1 && kings(!p.color) >= 1);
    if lone_king && last_field.map_or(true, |p| p < q) {
        q
    } else {
        (q + 1).max(last_field.map_or(0, |p| p + 1))
    }
}

/// The decoder's side of the lone-king omission: if exactly one color has no king, its king stands
/// on `next`, the first square not read (if any).
pub(super) fn restore_lone_king(board: &mut Board, next: Option<Square>) {
    let kingless: Vec<Color> = Color::ALL
        .into_iter()
        .filter(|&c| board.by_piece(Piece::new(c, Role::King)).is_empty())
        .collect();
    if let ([color], Some(sq)) = (kingless.as_slice(), next) {
        board.put(sq, Piece::new(*color, Role::King));
    }
}

fn write(setup: &Setup) -> Result<BitWriter, PositionCodeError> {
    check_fields(setup)?;
    let mut w = BitWriter::new();
    w.write_bit(setup.turn == Color::Black);
    write_clock7(&mut w, setup.halfmove_clock);
    let points = field_points(setup.turn);
    for sq in Square::all().take(squares_written(setup)) {
        match setup.board.piece_at(sq) {
            None => w.write_bit(false),
            Some(piece) => {
                let (bits, len) = code(piece.role);
                w.write(bits, len);
                w.write_bit(piece.color == Color::White);
            }
        }
        for &(after, field) in &points {
            if after == sq.index() {
                write_field(&mut w, setup, field);
            }
        }
    }
    Ok(w)
}

fn read_piece(r: &mut BitReader<'_>) -> Result<Option<Piece>, PositionCodeError> {
    if !r.read_bit()? {
        return Ok(None);
    }
    let role = if !r.read_bit()? {
        Role::Pawn
    } else {
        match r.read(2)? {
            0b00 => Role::Bishop,
            0b01 => Role::Knight,
            0b10 => Role::Rook,
            _ if r.read_bit()? => Role::King,
            _ => Role::Queen,
        }
    };
    let color = if r.read_bit()? { Color::White } else { Color::Black };
    Ok(Some(Piece::new(color, role)))
}

fn read(r: &mut BitReader<'_>) -> Result<Setup, PositionCodeError> {
    let turn = read_turn(r)?;
    let halfmove_clock = read_clock7(r)?;
    let mut setup = decoded_setup(turn, halfmove_clock);
    let points = field_points(turn);
    let mut next = 0;
    for sq in Square::all() {
        if r.remaining() == 0 {
            break;
        }
        if let Some(piece) = read_piece(r)? {
            setup.board.put(sq, piece);
        }
        for &(after, field) in &points {
            if after == sq.index() {
                read_field(r, &mut setup, field)?;
            }
        }
        next = sq.index() + 1;
    }
    if r.remaining() > 0 {
        return Err(PositionCodeError::Invalid("bits left after the board"));
    }
    restore_lone_king(&mut setup.board, Square::new(next as u8));
    Ok(setup)
}

fn read_field(r: &mut BitReader<'_>, setup: &mut Setup, field: Field) -> Result<(), PositionCodeError> {
    match field {
        Field::Castling(color) => {
            for sq in castling_corners(&setup.board, color) {
                if r.read_bit()? {
                    setup.castling = setup.castling.with_square(sq);
                }
            }
        }
        Field::EnPassant => read_ep_field(r, setup)?,
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn at_most_five_candidates_and_widths() {
        assert_eq!([0, 1, 2, 3, 4, 5].map(ep_width), [0, 1, 2, 2, 3, 3]);
        // Black pawns a5 c5 d5 f5 g5 just moved, white pawns b5 e5 h5 beside them.
        let mut board = Board::empty();
        for sq in [Square::A5, Square::C5, Square::D5, Square::F5, Square::G5] {
            board.put(sq, Piece::new(Color::Black, Role::Pawn));
        }
        for sq in [Square::B5, Square::E5, Square::H5] {
            board.put(sq, Piece::new(Color::White, Role::Pawn));
        }
        assert_eq!(ep_candidates(&board, Color::White).count(), 5);
        // A piece on the path removes a candidate.
        board.put(Square::D7, Piece::new(Color::Black, Role::Knight));
        assert_eq!(ep_candidates(&board, Color::White).count(), 4);
        assert_eq!(ep_candidates(&board, Color::Black).count(), 0);
    }
}
