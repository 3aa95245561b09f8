//! Piece placement: bitboards by role and by color, plus a square-to-piece lookup.

use crate::attacks;
use crate::types::{Bitboard, Color, File, Piece, Rank, Role, Square};

/// Where the pieces stand: one bitboard per role, one per color, and a 64-square lookup.
///
/// The three views are kept in step by [`Board::put`] and [`Board::take`]; nothing else
/// writes them.
///
/// ```
/// use chessbits::position::Board;
/// use chessbits::types::{Color, Piece, Role, Square};
/// let board = Board::standard();
/// assert_eq!(board.piece_at(Square::E1), Some(Piece::new(Color::White, Role::King)));
/// assert_eq!(board.occupied().count(), 32);
/// assert_eq!(board.king_of(Color::Black), Some(Square::E8));
/// ```
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Board {
    /// By role index; the last two entries stay empty, so that any 3-bit role code of the
    /// mailbox indexes it without a bounds check.
    by_role: [Bitboard; 8],
    by_color: [Bitboard; 2],
    occupied: Bitboard,
    /// One byte per square (see [`code`]): 64 bytes, one cache line, instead of 128 for
    /// `[Option<Piece>; 64]`; make/unmake read and write it without decoding.
    squares: [u8; 64],
}

/// The one-byte square codes of [`Board`]'s mailbox: `color << 3 | role`, or [`code::EMPTY`].
pub(crate) mod code {
    use crate::types::{Color, Piece, Role};

    /// An empty square: role bits 6 (no role), color bit 0.
    pub const EMPTY: u8 = 6;

    #[inline(always)]
    pub const fn encode(piece: Piece) -> u8 {
        (piece.color as u8) << 3 | piece.role as u8
    }

    /// The role bits (0..8; 6 for an empty square).
    #[inline(always)]
    pub const fn role_bits(code: u8) -> usize {
        (code & 7) as usize
    }

    /// The color bit (0 or 1; 0 for an empty square).
    #[inline(always)]
    pub const fn color_bit(code: u8) -> usize {
        ((code >> 3) & 1) as usize
    }

    #[inline(always)]
    pub const fn decode(code: u8) -> Option<Piece> {
        let color = if code & 8 == 0 { Color::White } else { Color::Black };
        match Role::from_index(role_bits(code)) {
            Some(role) => Some(Piece::new(color, role)),
            None => None,
        }
    }
}

impl Board {
    /// No pieces.
    pub const fn empty() -> Board {
        Board {
            by_role: [Bitboard::EMPTY; 8],
            by_color: [Bitboard::EMPTY; 2],
            occupied: Bitboard::EMPTY,
            squares: [code::EMPTY; 64],
        }
    }

    /// The standard start position.
    pub fn standard() -> Board {
        let mut board = Board::empty();
        let back = [
            Role::Rook,
            Role::Knight,
            Role::Bishop,
            Role::Queen,
            Role::King,
            Role::Bishop,
            Role::Knight,
            Role::Rook,
        ];
        for (file, role) in File::ALL.into_iter().zip(back) {
            board.put(Square::from_coords(file, Rank::FIRST), Piece::new(Color::White, role));
            board.put(
                Square::from_coords(file, Rank::SECOND),
                Piece::new(Color::White, Role::Pawn),
            );
            board.put(
                Square::from_coords(file, Rank::SEVENTH),
                Piece::new(Color::Black, Role::Pawn),
            );
            board.put(Square::from_coords(file, Rank::EIGHTH), Piece::new(Color::Black, role));
        }
        board
    }

    #[inline(always)]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        code::decode(self.squares[sq.index()])
    }

    #[inline(always)]
    pub fn role_at(&self, sq: Square) -> Option<Role> {
        Role::from_index(code::role_bits(self.squares[sq.index()]))
    }

    /// The mailbox code on `sq` (see [`code`]).
    #[inline(always)]
    pub(crate) fn code_at(&self, sq: Square) -> u8 {
        self.squares[sq.index()]
    }

    #[inline(always)]
    pub fn occupied(&self) -> Bitboard {
        self.occupied
    }

    #[inline(always)]
    pub fn by_color(&self, color: Color) -> Bitboard {
        self.by_color[color.index()]
    }

    #[inline(always)]
    pub fn by_role(&self, role: Role) -> Bitboard {
        self.by_role[role.index()]
    }

    #[inline(always)]
    pub fn by_piece(&self, piece: Piece) -> Bitboard {
        self.by_role[piece.role.index()] & self.by_color[piece.color.index()]
    }

    /// Bishops and queens.
    #[inline(always)]
    pub fn diagonal_sliders(&self) -> Bitboard {
        self.by_role[Role::Bishop.index()] | self.by_role[Role::Queen.index()]
    }

    /// Rooks and queens.
    #[inline(always)]
    pub fn straight_sliders(&self) -> Bitboard {
        self.by_role[Role::Rook.index()] | self.by_role[Role::Queen.index()]
    }

    /// The king of `color`: the lowest one if there are several, `None` if there is none.
    #[inline(always)]
    pub fn king_of(&self, color: Color) -> Option<Square> {
        self.by_piece(Piece::new(color, Role::King)).first()
    }

    /// The pieces of `by` attacking `sq` when the occupancy is `occupied` (which may differ from
    /// the board's, e.g. with a piece lifted).
    #[inline]
    pub fn attackers_to(&self, sq: Square, by: Color, occupied: Bitboard) -> Bitboard {
        ((attacks::rook(sq, occupied) & self.straight_sliders())
            | (attacks::bishop(sq, occupied) & self.diagonal_sliders())
            | (attacks::knight(sq) & self.by_role(Role::Knight))
            | (attacks::king(sq) & self.by_role(Role::King))
            | (attacks::pawn(!by, sq) & self.by_role(Role::Pawn)))
            & self.by_color(by)
    }

    /// Puts `piece` on the empty square `sq`. Putting on an occupied square is a logic error
    /// (the views would disagree); use [`Board::set`] to replace.
    #[inline(always)]
    pub fn put(&mut self, sq: Square, piece: Piece) {
        debug_assert!(self.squares[sq.index()] == code::EMPTY, "put on occupied {sq}");
        self.put_code(sq, code::encode(piece));
    }

    /// Removes and returns the piece on `sq`.
    #[inline(always)]
    pub fn take(&mut self, sq: Square) -> Option<Piece> {
        let code = self.squares[sq.index()];
        let piece = code::decode(code)?;
        self.take_code(sq, code);
        Some(piece)
    }

    /// Puts the piece with mailbox code `code` (not [`code::EMPTY`]) on the empty square `sq`.
    #[inline(always)]
    pub(crate) fn put_code(&mut self, sq: Square, code: u8) {
        let bit = Bitboard::from_square(sq);
        self.by_role[code::role_bits(code)] |= bit;
        self.by_color[code::color_bit(code)] |= bit;
        self.occupied |= bit;
        self.squares[sq.index()] = code;
    }

    /// Removes the piece with mailbox code `code` (not [`code::EMPTY`]), which stands on `sq`.
    #[inline(always)]
    pub(crate) fn take_code(&mut self, sq: Square, code: u8) {
        let bit = Bitboard::from_square(sq);
        self.by_role[code::role_bits(code)] ^= bit;
        self.by_color[code::color_bit(code)] ^= bit;
        self.occupied ^= bit;
        self.squares[sq.index()] = code::EMPTY;
    }

    /// Moves the piece with mailbox code `code` (not [`code::EMPTY`]) from `from` to the empty
    /// square `to`.
    #[inline(always)]
    pub(crate) fn relocate_code(&mut self, from: Square, to: Square, code: u8) {
        let bits = Bitboard::from_square(from) | Bitboard::from_square(to);
        self.by_role[code::role_bits(code)] ^= bits;
        self.by_color[code::color_bit(code)] ^= bits;
        self.occupied ^= bits;
        self.squares[from.index()] = code::EMPTY;
        self.squares[to.index()] = code;
    }

    /// Moves the piece on `from` to the empty square `to`.
    #[inline(always)]
    pub fn relocate(&mut self, from: Square, to: Square) {
        let code = self.squares[from.index()];
        if code != code::EMPTY {
            self.relocate_code(from, to, code);
        }
    }

    /// Sets `sq` to `piece` (or empties it), replacing what stood there.
    pub fn set(&mut self, sq: Square, piece: Option<Piece>) {
        self.take(sq);
        if let Some(piece) = piece {
            self.put(sq, piece);
        }
    }

    /// Every piece with its square, a1 first.
    pub fn pieces(&self) -> impl Iterator<Item = (Square, Piece)> + '_ {
        self.occupied
            .into_iter()
            .filter_map(|sq| self.piece_at(sq).map(|p| (sq, p)))
    }

    /// The board mirrored top-bottom with colors swapped: the same position from the other side.
    pub fn flipped(&self) -> Board {
        let mut board = Board::empty();
        for (sq, piece) in self.pieces() {
            board.put(sq.flip_vertical(), Piece::new(!piece.color, piece.role));
        }
        board
    }
}

impl Default for Board {
    fn default() -> Board {
        Board::standard()
    }
}

/// The board as a diagram: eight ranks, the eighth first, each led by its number, pieces as FEN
/// letters (upper case for White) and `.` for an empty square, files lettered below.
///
/// ```
/// use chessbits::position::Board;
/// let diagram = Board::standard().to_string();
/// assert_eq!(diagram.lines().next(), Some("8 r n b q k b n r"));
/// assert_eq!(diagram.lines().nth(4), Some("4 . . . . . . . ."));
/// assert_eq!(diagram.lines().last(), Some("  a b c d e f g h"));
/// ```
impl core::fmt::Display for Board {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        for rank in Rank::ALL.into_iter().rev() {
            write!(f, "{}", rank.char())?;
            for file in File::ALL {
                let c = self.piece_at(Square::from_coords(file, rank)).map_or('.', Piece::char);
                write!(f, " {c}")?;
            }
            writeln!(f)?;
        }
        write!(f, "  a b c d e f g h")
    }
}

impl core::fmt::Debug for Board {
    /// The board as eight FEN-lettered rows, eighth rank first.
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        for rank in Rank::ALL.into_iter().rev() {
            for file in File::ALL {
                let c = self.piece_at(Square::from_coords(file, rank)).map_or('.', Piece::char);
                write!(f, "{c}")?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}
