//! What the [`huffman`](super::huffman) and [`huffman_multi`](super::huffman_multi) codes share:
//! the square-by-square board with its piece prefix codes, the fields written inside it (castling,
//! en passant), and the omission of trailing empty squares and of a lone last king.
//!
//! A code describes what varies with a [`SquareCode`]: which squares it writes, how a piece is
//! coded, and what its fields hold; [`write_board`] and [`read_board`] do the rest. The layouts are
//! documented in the two codes' modules.

use super::PositionCodeError;
use crate::codec::bits::{BitReader, BitWriter};
use crate::position::{Board, Setup};
use crate::types::geometry::{FILE_A, FILE_H};
use crate::types::{Bitboard, Color, Piece, Rank, Role, Square};

/// The parts of a square-by-square board code that differ between codes.
pub(super) trait SquareCode {
    /// The squares the board writes, in order.
    fn squares(&self) -> Vec<Square>;
    /// The fields and the index of the square after which each comes (one of [`Self::squares`]).
    fn fields(&self, turn: Color) -> Vec<(usize, Field)>;
    /// Writes the code of a square.
    fn write_piece(&self, w: &mut BitWriter, piece: Option<Piece>);
    /// Reads the code of a square.
    fn read_piece(&self, r: &mut BitReader<'_>) -> Result<Option<Piece>, PositionCodeError>;
    /// The rooks of `color` whose castling rights its castling field holds, one bit each, given
    /// the board up to the field's square.
    fn castling_rooks(&self, board: &Board, color: Color) -> Bitboard;
}

/// Writes a field if the board makes it possible; returns whether it did.
fn write_field(w: &mut BitWriter, setup: &Setup, field: Field, code: &impl SquareCode) -> bool {
    match field {
        Field::Castling(color) => {
            let rooks = code.castling_rooks(&setup.board, color);
            for sq in rooks {
                w.write_bit(setup.castling.rooks().contains(sq));
            }
            rooks.any()
        }
        Field::EnPassant => write_ep_field(w, setup),
    }
}

/// Reads a field of a board read up to the field's square.
fn read_field(
    r: &mut BitReader<'_>,
    setup: &mut Setup,
    field: Field,
    code: &impl SquareCode,
) -> Result<(), PositionCodeError> {
    match field {
        Field::Castling(color) => {
            for sq in code.castling_rooks(&setup.board, color) {
                if r.read_bit()? {
                    setup.castling = setup.castling.with_square(sq);
                }
            }
            Ok(())
        }
        Field::EnPassant => read_ep_field(r, setup),
    }
}

/// Writes the board of `setup`: the squares of `code` up to what [`prefix_written`] says, each
/// followed by the fields that come after it.
pub(super) fn write_board(w: &mut BitWriter, setup: &Setup, code: &impl SquareCode) {
    let squares = code.squares();
    let fields = code.fields(setup.turn);
    let mut probe = BitWriter::new();
    let last_field = fields
        .iter()
        .filter(|&&(_, field)| write_field(&mut probe, setup, field, code))
        .filter_map(|&(after, _)| squares.iter().position(|sq| sq.index() == after))
        .max();
    for &sq in squares.iter().take(prefix_written(&setup.board, &squares, last_field)) {
        code.write_piece(w, setup.board.piece_at(sq));
        for &(after, field) in &fields {
            if after == sq.index() {
                write_field(w, setup, field, code);
            }
        }
    }
}

/// Reads a board written by [`write_board`] into `setup` (whose turn is known), up to the end of
/// the bits, which must end with a square or field; restores a lone king left out.
pub(super) fn read_board(
    r: &mut BitReader<'_>,
    setup: &mut Setup,
    code: &impl SquareCode,
) -> Result<(), PositionCodeError> {
    let squares = code.squares();
    let fields = code.fields(setup.turn);
    let mut next = 0;
    for &sq in &squares {
        if r.remaining() == 0 {
            break;
        }
        if let Some(piece) = code.read_piece(r)? {
            setup.board.put(sq, piece);
        }
        for &(after, field) in &fields {
            if after == sq.index() {
                read_field(r, setup, field, code)?;
            }
        }
        next += 1;
    }
    if r.remaining() > 0 {
        return Err(PositionCodeError::Invalid("bits left after the board"));
    }
    restore_lone_king(&mut setup.board, squares.get(next).copied());
    Ok(())
}

/// Writes the role part of a square's code: `0` for an empty square, else `10` pawn, `1100`
/// bishop, `1101` knight, `1110` rook, `1111` queen or king (the codes tell them apart after);
/// returns the piece, if any.
pub(super) fn write_role_prefix(w: &mut BitWriter, piece: Option<Piece>) -> Option<Piece> {
    let Some(piece) = piece else {
        w.write_bit(false);
        return None;
    };
    let (bits, len) = role_prefix(piece.role);
    w.write(bits, len);
    Some(piece)
}

/// The prefix code of a role (see [`write_role_prefix`]); the king shares the queen's.
pub(super) fn role_prefix(role: Role) -> (u64, u32) {
    match role {
        Role::Pawn => (0b10, 2),
        Role::Bishop => (0b1100, 4),
        Role::Knight => (0b1101, 4),
        Role::Rook => (0b1110, 4),
        Role::Queen | Role::King => (0b1111, 4),
    }
}

/// Reads the rest of a role prefix whose first 1 was read: [`Role::Queen`] stands for queen or
/// king. Without pawns the pawn's `0` is left out (`100`, `101`, `110`, `111`).
pub(super) fn read_role_after_one(r: &mut BitReader<'_>, pawns: bool) -> Result<Role, PositionCodeError> {
    if pawns && !r.read_bit()? {
        return Ok(Role::Pawn);
    }
    Ok(match r.read(2)? {
        0b00 => Role::Bishop,
        0b01 => Role::Knight,
        0b10 => Role::Rook,
        _ => Role::Queen,
    })
}

/// A field written inside the board, after the code of a square.
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

/// The seemingly capturable pawns: pawns of the side that just moved on its fourth rank, with the
/// two squares behind empty and a pawn of `turn` beside them. Only ranks two to four (or five to
/// seven) are looked at.
fn ep_candidates(board: &Board, turn: Color) -> Bitboard {
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

/// Writes the en passant field if the board has candidates; returns whether it did.
fn write_ep_field(w: &mut BitWriter, setup: &Setup) -> bool {
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
fn read_ep_field(r: &mut BitReader<'_>, setup: &mut Setup) -> Result<(), PositionCodeError> {
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

/// How many of the `coded` squares (in writing order) a board code writes, when the last field
/// with bits comes after the square at position `last_field` of `coded`: up to the last piece,
/// without it if it is a lone king the decoder restores (see [`restore_lone_king`]), and at least
/// up to the last field; all of them when exactly one color has no king.
fn prefix_written(board: &Board, coded: &[Square], last_field: Option<usize>) -> usize {
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
    if lone_king && last_field.is_none_or(|p| p < q) {
        q
    } else {
        (q + 1).max(last_field.map_or(0, |p| p + 1))
    }
}

/// The decoder's side of the lone-king omission: if exactly one color has no king, its king stands
/// on `next`, the first square not read (if any).
fn restore_lone_king(board: &mut Board, next: Option<Square>) {
    let kingless: Vec<Color> = Color::ALL
        .into_iter()
        .filter(|&c| board.by_piece(Piece::new(c, Role::King)).is_empty())
        .collect();
    if let ([color], Some(sq)) = (kingless.as_slice(), next) {
        board.put(sq, Piece::new(*color, Role::King));
    }
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
