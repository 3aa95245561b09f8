//! The seed's Huffman multi-table code: a *category* up front says which rooks stand on their home
//! squares and which of them may castle; those rooks, the castling rights and the kings of the sides
//! that may castle are then implied and left off the board.
//!
//! # Layout
//!
//! **Header.** 1 bit side to move (0 White, 1 Black); 7 bits halfmove clock (0–126 as is; 127 means
//! the clock follows in 32 more bits), as in the [`huffman`](super::huffman) code; then the
//! category code.
//!
//! **Category.** The four rook home squares in the order a1, h1, a8, h8 each get a state `s`:
//! 0 = no rook of its color there (the rook "has left it"; the square may hold anything else),
//! 1 = a rook of its color there that may not castle, 2 = a rook of its color there that may castle.
//! The category is `c = s(a1) + 3·s(h1) + 9·s(a8) + 27·s(h8)`, one of 81. It is written as `0` for
//! `c = 0` (no rook at home, the common endgame case), else as `1` followed by `c − 1` in 7 bits.
//! The 7-bit value 80 stands for no category: the *fallback form* below; 81–127 are invalid.
//!
//! **What a category implies.** A rook of the square's color on each home square with state 1 or 2;
//! castling rights exactly for the state-2 rooks; and, for each color with a state-2 rook, its king
//! on e1 (White) or e8 (Black) — a right needs the king on its castling home square. These
//! squares (*implied squares*) are left out of the board, and so is any castling field.
//!
//! **Board.** The squares a1, b1, …, h8 in index order without the implied squares (all 64 in the
//! fallback form), each as
//!
//! | square | code |
//! |---|---|
//! | empty | `0` |
//! | pawn | `10c` |
//! | bishop | `1100c` |
//! | knight | `1101c` |
//! | rook | `1110c` |
//! | queen | `1111c0`, or `1111c` if the king of color `c` is implied |
//! | king | `1111c1` (never for a color whose king is implied) |
//!
//! where `c` is the color, 1 = White. These are the plain Huffman code's lengths with the queen/king
//! bit after the color bit, so that an implied king makes the queen one bit shorter (the seed's
//! "the queen's last bit is not needed"). The seed's further idea, the rook's code for the queen
//! when both rooks are home, is not used: promoted rooks may still be on the board.
//!
//! **Fields inside the board**, written right after the code of the square named, only when the
//! board so far makes them possible (they then have at least one bit):
//!
//! - after h4 when Black is to move, after h7 when White is: en passant, exactly as in the
//!   [`huffman`](super::huffman) code (a number from 0 to `n` in the fewest bits that hold `n`, for
//!   the `n` ≤ 5 candidate pawns: pawns of the side that just moved on its fourth rank, the two
//!   squares behind them empty, a pawn of the side to move beside them; 0 = no en passant). These
//!   squares are never implied;
//! - fallback form only, after h1: one bit for each white rook on the first rank, in file order,
//!   1 = that rook may castle; after h8: likewise for the black rooks on the eighth rank. This holds
//!   any castling rights a legal position can have, Chess960 ones included.
//!
//! **Omissions and end**, as in the [`huffman`](super::huffman) code, counted over the squares
//! written: the board stops after its last piece; if that piece is the only king of its color and
//! the other color has a king (on the board or implied), it is left out too, unless a field comes at
//! or after its square; a board where exactly one color has no king is written to its last square.
//! Then a 1 bit (the end marker) and zero bits to a whole byte; [`encoded_bits`] does not count
//! them. When the bits run out, the squares not read are empty, except that if exactly one color
//! has no king, its king stands on the first square not read.
//!
//! The fullmove number is not stored (decoded as 1).
//!
//! # When the fallback form is used
//!
//! The category form holds a setup if every castling right is on a home square a1/h1/a8/h8 holding a
//! rook of its color, and every color with a right has exactly one king, on e1/e8. Otherwise (the
//! seed's scheme "doesn't work" there: Chess960 rights, or a second king beside an implied one) the
//! fallback form is written. No position of standard chess needs it.
//!
//! # Accepted setups
//!
//! Any board; castling rights for rooks of the right color on their first rank (every legal position
//! of standard chess and Chess960 qualifies); an en passant square only behind a candidate pawn;
//! any clock.
//!
//! # Size: at most 203 bits
//!
//! Write `v` for a code's length minus one: pawn 2, other pieces 4, queen and king 5 (4 for a queen
//! whose king is implied). As the [`huffman`](super::huffman) code proves, the pieces of a position
//! reachable from the start position have `Σv ≤ 128` (`≤ 123` when en passant is possible), so its
//! 64 squares take at most `64 + 128 = 192` bits. Leaving out an implied rook saves its 5 bits, an
//! implied king its 6. So with category `c = 0` the code takes at most `8 + 1 + 192 = 201` bits, and
//! with `c ≠ 0`, which implies at least one rook, at most `8 + 8 + 192 − 5 = 203` bits; with en
//! passant possible, `8 + 1 + 187 + 3 = 199` and `8 + 8 + 182 + 3 = 201`. Hence **203 bits** for
//! every position reachable from the standard start position with a clock up to 126 (32 more bits
//! above), reached by the twelve-queen board of the Huffman proof with one rook at home that may not
//! castle and no other rook at home. Chess960 positions with castling rights take the fallback form,
//! at most `8 + 8 + 192 + 16 + 3 = 227` bits (a bit per rook on its first rank, at most 16). Setups
//! no game can reach take at most `8 + 8 + 64·6 + 16 + 3 = 419` bits.
//!
//! ```
//! use chessbits::codec::position::{huffman, huffman_multi};
//! use chessbits::position::Setup;
//! let start = Setup::standard();
//! // Header 8 + category 8; the board without the four rooks and two kings: 166 − 4·5 − 2·6, the
//! // queens a bit shorter; plain Huffman spends 8 + 164 + 4.
//! assert_eq!(huffman_multi::encoded_bits(&start), Ok(8 + 8 + 164 - 20 - 12 - 2));
//! assert_eq!(huffman::encoded_bits(&start), Ok(176));
//! assert_eq!(huffman_multi::decode(&huffman_multi::encode(&start).unwrap()), Ok(start));
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
use crate::types::{Bitboard, Color, Piece, Rank, Role, Square};

/// The Huffman multi-table code as a [`PositionCodec`](super::PositionCodec).
///
/// ```
/// use chessbits::codec::position::{HuffmanMulti, PositionCodec};
/// assert_eq!(HuffmanMulti.name(), "huffman-multi");
/// ```
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct HuffmanMulti;

impl_position_codec!(
    HuffmanMulti,
    "huffman-multi",
    "the seed's multi-table Huffman: a category of home rooks implies them, castling and kings"
);

code_functions! {
    framing: Framing::EndMarker,
    /// Encodes `setup` (see the [module documentation](self) for the layout).
    ///
    /// ```
    /// use chessbits::codec::position::{huffman_multi, PositionCodeError};
    /// use chessbits::position::Setup;
    /// use chessbits::types::{CastlingRights, Square};
    /// let mut setup = Setup::standard();
    /// setup.castling = CastlingRights::NONE.with_square(Square::D1); // a queen there, no rook
    /// assert!(matches!(huffman_multi::encode(&setup), Err(PositionCodeError::Unsupported(_))));
    /// ```
    encode;
    /// The length of the code of `setup` in bits, without the end marker and padding.
    ///
    /// ```
    /// use chessbits::codec::position::huffman_multi;
    /// use chessbits::position::{Board, Setup};
    /// use chessbits::types::{CastlingRights, Color, Piece, Role, Square};
    /// let mut setup = Setup::standard();
    /// setup.castling = CastlingRights::NONE;
    /// setup.board = Board::empty();
    /// setup.board.put(Square::A1, Piece::new(Color::White, Role::King));
    /// setup.board.put(Square::C1, Piece::new(Color::Black, Role::King));
    /// // header, category 0, white king, one empty square; the black king is implied by its absence
    /// assert_eq!(huffman_multi::encoded_bits(&setup), Ok(8 + 1 + 6 + 1));
    /// ```
    encoded_bits;
    /// Decodes bytes written by [`encode`]; the fullmove number comes back as 1.
    ///
    /// ```
    /// use chessbits::codec::position::{huffman_multi, PositionCodeError};
    /// assert!(matches!(huffman_multi::decode(&[0, 0]), Err(PositionCodeError::Invalid(_))));
    /// assert_eq!(huffman_multi::decode(&[0x01]), Err(PositionCodeError::Truncated));
    /// ```
    decode;
}

/// The rook home squares and their colors, in category order.
const HOMES: [(Square, Color); 4] = [
    (Square::A1, Color::White),
    (Square::H1, Color::White),
    (Square::A8, Color::Black),
    (Square::H8, Color::Black),
];

/// Number of categories.
const CATEGORIES: u8 = 81;
/// The 7-bit value after a leading 1 that announces the fallback form.
const FALLBACK: u64 = CATEGORIES as u64 - 1;

/// What the category says about the board: the squares left out and whose king is implied.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
struct Form {
    /// The category, `None` for the fallback form.
    category: Option<u8>,
    /// Squares not written: home rooks and implied kings.
    implied: Bitboard,
    /// Whether each color's king is implied (by [`Color::index`]).
    king_implied: [bool; 2],
}

impl Form {
    fn fallback() -> Form {
        Form {
            category: None,
            implied: Bitboard::EMPTY,
            king_implied: [false; 2],
        }
    }

    /// The form of category `category` (below 81).
    fn of_category(category: u8) -> Form {
        let mut form = Form {
            category: Some(category),
            ..Form::fallback()
        };
        for (i, (sq, color)) in HOMES.into_iter().enumerate() {
            let state = home_state_of(category, i);
            if state >= 1 {
                form.implied = form.implied.with(sq);
            }
            if state == 2 {
                form.king_implied[color.index()] = true;
            }
        }
        for color in Color::ALL {
            if form.king_implied[color.index()] {
                form.implied = form.implied.with(king_home(color));
            }
        }
        form
    }
}

/// The state (0, 1, 2) of home square number `i` in `category`.
fn home_state_of(category: u8, i: usize) -> u8 {
    category / 3u8.pow(i as u32) % 3
}

/// The square the king of `color` must stand on to castle.
fn king_home(color: Color) -> Square {
    Square::E1.relative_to(color)
}

/// The rooks whose rights the fallback form's castling field of `color` holds: those of `color` on
/// its first rank.
fn back_rank_rooks(board: &Board, color: Color) -> Bitboard {
    board.by_piece(Piece::new(color, Role::Rook)) & Bitboard::relative_rank(color, Rank::FIRST)
}

/// The category of `setup`, or `None` if only the fallback form holds it.
fn category_of(setup: &Setup) -> Option<u8> {
    let board = &setup.board;
    let mut category = 0;
    let mut rights_left = setup.castling.rooks();
    // Most significant digit first: h8, a8, h1, a1.
    for (sq, color) in HOMES.into_iter().rev() {
        let rook_home = board.piece_at(sq) == Some(Piece::new(color, Role::Rook));
        let right = setup.castling.rooks().contains(sq);
        let state = match (rook_home, right) {
            (false, _) => 0,
            (true, false) => 1,
            (true, true) => 2,
        };
        category = category * 3 + state;
        if rook_home {
            rights_left = rights_left.without(sq);
        }
    }
    if rights_left.any() {
        return None;
    }
    for color in Color::ALL {
        let kings = board.by_piece(Piece::new(color, Role::King));
        if setup.castling.has_color(color) && kings != Bitboard::from_square(king_home(color)) {
            return None;
        }
    }
    Some(category)
}

/// Refuses what neither form holds; returns the form to write.
fn check(setup: &Setup) -> Result<Form, PositionCodeError> {
    let holdable = back_rank_rooks(&setup.board, Color::White) | back_rank_rooks(&setup.board, Color::Black);
    if (setup.castling.rooks() & !holdable).any() {
        return Err(PositionCodeError::Unsupported(
            "castling right without a rook of its color on its first rank",
        ));
    }
    check_ep(setup)?;
    Ok(category_of(setup).map_or_else(Form::fallback, Form::of_category))
}

fn write_category(w: &mut BitWriter, form: &Form) {
    match form.category {
        Some(0) => w.write_bit(false),
        Some(c) => w.write(0b1000_0000 | u64::from(c - 1), 8),
        None => w.write(0b1000_0000 | FALLBACK, 8),
    }
}

fn read_category(r: &mut BitReader<'_>) -> Result<Form, PositionCodeError> {
    if !r.read_bit()? {
        return Ok(Form::of_category(0));
    }
    match r.read(7)? {
        FALLBACK => Ok(Form::fallback()),
        v if v < FALLBACK => Ok(Form::of_category(v as u8 + 1)),
        _ => Err(PositionCodeError::Invalid("category above 81")),
    }
}

impl SquareCode for Form {
    fn squares(&self) -> Vec<Square> {
        Square::all().filter(|&sq| !self.implied.contains(sq)).collect()
    }

    /// The en passant field, and in the fallback form the castling fields; the fields' squares are
    /// never implied.
    fn fields(&self, turn: Color) -> Vec<(usize, Field)> {
        let fallback = self.category.is_none();
        field_points(turn)
            .into_iter()
            .filter(|&(_, field)| fallback || field == Field::EnPassant)
            .collect()
    }

    fn write_piece(&self, w: &mut BitWriter, piece: Option<Piece>) {
        let Some(piece) = write_role_prefix(w, piece) else {
            return;
        };
        w.write_bit(piece.color == Color::White);
        if matches!(piece.role, Role::Queen | Role::King) && !self.king_implied[piece.color.index()] {
            w.write_bit(piece.role == Role::King);
        }
    }

    fn read_piece(&self, r: &mut BitReader<'_>) -> Result<Option<Piece>, PositionCodeError> {
        if !r.read_bit()? {
            return Ok(None);
        }
        let role = read_role_after_one(r, true)?;
        let color = if r.read_bit()? { Color::White } else { Color::Black };
        let role = if role == Role::Queen && !self.king_implied[color.index()] && r.read_bit()? {
            Role::King
        } else {
            role
        };
        Ok(Some(Piece::new(color, role)))
    }

    fn castling_rooks(&self, board: &Board, color: Color) -> Bitboard {
        back_rank_rooks(board, color)
    }
}

fn write(setup: &Setup) -> Result<BitWriter, PositionCodeError> {
    let form = check(setup)?;
    let mut w = BitWriter::new();
    w.write_bit(setup.turn == Color::Black);
    write_clock7(&mut w, setup.halfmove_clock);
    write_category(&mut w, &form);
    write_board(&mut w, setup, &form);
    Ok(w)
}

/// Puts the rooks, rights and kings a category implies.
fn place_implied(setup: &mut Setup, form: &Form) {
    let Some(category) = form.category else {
        return;
    };
    for (i, (sq, color)) in HOMES.into_iter().enumerate() {
        let state = home_state_of(category, i);
        if state >= 1 {
            setup.board.put(sq, Piece::new(color, Role::Rook));
        }
        if state == 2 {
            setup.castling = setup.castling.with_square(sq);
        }
    }
    for color in Color::ALL {
        if form.king_implied[color.index()] {
            setup.board.put(king_home(color), Piece::new(color, Role::King));
        }
    }
}

fn read(r: &mut BitReader<'_>) -> Result<Setup, PositionCodeError> {
    let turn = read_turn(r)?;
    let halfmove_clock = read_clock7(r)?;
    let form = read_category(r)?;
    let mut setup = decoded_setup(turn, halfmove_clock);
    place_implied(&mut setup, &form);
    read_board(r, &mut setup, &form)?;
    Ok(setup)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn categories_round_trip_through_their_code() {
        for c in 0..CATEGORIES {
            let form = Form::of_category(c);
            let mut w = BitWriter::new();
            write_category(&mut w, &form);
            assert_eq!(w.bit_len(), if c == 0 { 1 } else { 8 });
            let bytes = w.finish();
            assert_eq!(read_category(&mut BitReader::new(&bytes)), Ok(form));
        }
        let all_castling = Form::of_category(80);
        assert_eq!(all_castling.implied.count(), 6);
        assert_eq!(all_castling.king_implied, [true, true]);
        // A rook at home without its right implies only the rook.
        let a1_only = Form::of_category(1);
        assert_eq!(a1_only.implied, Bitboard::from_square(Square::A1));
        assert_eq!(a1_only.king_implied, [false, false]);
        let bytes = [0b1101_0001, 0];
        assert!(matches!(
            read_category(&mut BitReader::new(&bytes)),
            Err(PositionCodeError::Invalid(_))
        ));
    }

    use crate::types::CastlingRights;

    #[test]
    fn the_start_position_has_the_last_category() {
        assert_eq!(category_of(&Setup::standard()), Some(80));
        let mut setup = Setup::standard();
        setup.castling = CastlingRights::NONE;
        assert_eq!(category_of(&setup), Some(1 + 3 + 9 + 27));
    }
}
