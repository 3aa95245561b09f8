//! The flagged 32-bit move: from-square, to-square, moving piece, promoted piece and four flags
//! in one integer, the layout of many bitboard engines (BBC, Kirin), where a move carries
//! everything its make function needs without looking at the board.
//!
//! # Layout (24 bits used in a `u32`, bits 24–31 zero)
//!
//! ```text
//!  23   22   21   20  19      16 15      12 11       6 5        0
//! +----+----+----+----+----------+----------+----------+----------+
//! | cs | ep | dp | cp | promoted |  piece   |  target  |  source  |
//! +----+----+----+----+----------+----------+----------+----------+
//! ```
//!
//! | field | mask | shift | value |
//! |---|---|---|---|
//! | source | `0x3f` | 0 | from-square index, a1 = 0 … h8 = 63 (rank × 8 + file) |
//! | target | `0xfc0` | 6 | to-square index; for a castle, where the **king** lands (g- or c-file, also in Chess960) |
//! | piece | `0xf000` | 12 | the moving piece: White pawn, knight, bishop, rook, queen, king = 0–5, Black = 6–11 ([`Piece::index`]) |
//! | promoted | `0xf0000` | 16 | the piece promoted to, same numbering (1–4 White, 7–10 Black); 0 = no promotion |
//! | capture | `0x100000` | 20 | the move captures (en passant and capturing promotions included) |
//! | double push | `0x200000` | 21 | a pawn's two-square advance |
//! | en passant | `0x400000` | 22 | an en passant capture (the capture flag is set too) |
//! | castling | `0x800000` | 23 | a castle |
//!
//! Pieces 12–15 and promoted values that are not a knight, bishop, rook or queen of the mover's
//! color are invalid. The code is canonical: [`decode`] accepts exactly the codes [`encode`]
//! writes for the legal moves of the position, so every flag is checked against the board.
//!
//! [`FlaggedMove::from_move`] builds the code from a 16-bit [`Move`] and its moving piece
//! without a board; [`to_extended`] gives the [`ExtendedMove`] (the search's form, the move
//! with an ordering score) that a code names in a position, and [`encode`] of its move goes
//! back.
//!
//! ```
//! use chessbits::codec::moves::flagged::{decode, encode, FlaggedMove};
//! use chessbits::notation::uci::parse_uci;
//! use chessbits::position::Position;
//! let pos = Position::startpos();
//! let m = parse_uci(&pos, "e2e4").unwrap();
//! let code = encode(&pos, m).unwrap();
//! // e2 = 12, e4 = 28, White pawn = 0, double push.
//! assert_eq!(code.bits(), 12 | 28 << 6 | FlaggedMove::DOUBLE_PUSH);
//! assert_eq!(decode(&pos, code), Ok(m));
//! ```

use super::MoveCodeError;
use crate::moves::MoveList;
use crate::moves::{ExtendedMove, Move};
use crate::position::Position;
use crate::types::{Piece, Square};

/// A move in the flagged 32-bit layout (see the [module docs](self)): a value type whose bits
/// are always in range (piece 0–11, promoted 0 or a promotion piece, bits 24–31 zero); whether it
/// is a legal move is up to a position ([`decode`]).
///
/// ```
/// use chessbits::codec::moves::flagged::FlaggedMove;
/// use chessbits::types::{Color, Piece, Role, Square};
/// // Black pawn e7xd8=Q: source 52, target 59, piece 6, promoted 10, capture.
/// let bits = 52 | 59 << 6 | 6 << 12 | 10 << 16 | FlaggedMove::CAPTURE;
/// let m = FlaggedMove::from_bits(bits).unwrap();
/// assert_eq!((m.source(), m.target()), (Square::E7, Square::D8));
/// assert_eq!(m.piece(), Piece::new(Color::Black, Role::Pawn));
/// assert_eq!(m.promoted(), Some(Piece::new(Color::Black, Role::Queen)));
/// assert!(m.is_capture() && !m.is_en_passant());
/// assert!(FlaggedMove::from_bits(bits | 1 << 24).is_err(), "bits 24-31 are zero");
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct FlaggedMove(u32);

impl FlaggedMove {
    /// Mask of the from-square.
    pub const SOURCE: u32 = 0x3f;
    /// Mask of the to-square (shift 6).
    pub const TARGET: u32 = 0xfc0;
    /// Mask of the moving piece (shift 12).
    pub const PIECE: u32 = 0xf000;
    /// Mask of the promoted piece (shift 16).
    pub const PROMOTED: u32 = 0xf0000;
    /// The capture flag.
    pub const CAPTURE: u32 = 0x10_0000;
    /// The double pawn push flag.
    pub const DOUBLE_PUSH: u32 = 0x20_0000;
    /// The en passant flag.
    pub const EN_PASSANT: u32 = 0x40_0000;
    /// The castling flag.
    pub const CASTLING: u32 = 0x80_0000;
    /// Codes run below this: 24 bits.
    pub const LIMIT: u32 = 1 << 24;

    /// Checks the fields of raw bits: bits 24–31 zero ([`MoveCodeError::CodeOutOfRange`]), a
    /// piece 0–11 and a promoted piece that is 0 or a knight to queen of the mover's color
    /// ([`MoveCodeError::InvalidParts`]).
    pub const fn from_bits(bits: u32) -> Result<FlaggedMove, MoveCodeError> {
        if bits >= Self::LIMIT {
            return Err(MoveCodeError::CodeOutOfRange {
                code: bits,
                limit: Self::LIMIT,
            });
        }
        let piece = (bits & Self::PIECE) >> 12;
        if piece > 11 {
            return Err(MoveCodeError::InvalidParts("piece code above 11"));
        }
        let promoted = (bits & Self::PROMOTED) >> 16;
        // Knight to queen of the mover's color: 1-4 for White, 7-10 for Black.
        let first = if piece < 6 { 1 } else { 7 };
        if promoted != 0 && (promoted < first || promoted > first + 3) {
            return Err(MoveCodeError::InvalidParts(
                "promoted piece not a knight, bishop, rook or queen of the mover's color",
            ));
        }
        Ok(FlaggedMove(bits))
    }

    /// The raw bits.
    pub const fn bits(self) -> u32 {
        self.0
    }

    /// The from-square.
    pub const fn source(self) -> Square {
        Square::from_index_masked(self.0 & Self::SOURCE)
    }

    /// The to-square (for a castle, the king's).
    pub const fn target(self) -> Square {
        Square::from_index_masked((self.0 & Self::TARGET) >> 6)
    }

    /// The moving piece.
    pub const fn piece(self) -> Piece {
        match Piece::from_index(((self.0 & Self::PIECE) >> 12) as usize) {
            Some(piece) => piece,
            None => unreachable!(),
        }
    }

    /// The piece promoted to, if any.
    pub const fn promoted(self) -> Option<Piece> {
        match (self.0 & Self::PROMOTED) >> 16 {
            0 => None,
            index => Piece::from_index(index as usize),
        }
    }

    /// The capture flag (set for en passant too).
    pub const fn is_capture(self) -> bool {
        self.0 & Self::CAPTURE != 0
    }

    /// The double pawn push flag.
    pub const fn is_double_push(self) -> bool {
        self.0 & Self::DOUBLE_PUSH != 0
    }

    /// The en passant flag.
    pub const fn is_en_passant(self) -> bool {
        self.0 & Self::EN_PASSANT != 0
    }

    /// The castling flag.
    pub const fn is_castling(self) -> bool {
        self.0 & Self::CASTLING != 0
    }

    /// The flagged form of `m` moved by `piece` (whose colour is also the promoted piece's).
    /// No board needed: the caller vouches that `piece` stands on `m`'s origin, as [`encode`]
    /// checks against a position.
    ///
    /// ```
    /// use chessbits::codec::moves::flagged::FlaggedMove;
    /// use chessbits::notation::uci::parse_uci;
    /// use chessbits::position::Position;
    /// use chessbits::types::{Color, Piece, Role};
    /// let pos = Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1").unwrap();
    /// let castle = parse_uci(&pos, "e8c8").unwrap();
    /// let flagged = FlaggedMove::from_move(castle, Piece::new(Color::Black, Role::King));
    /// // e8 = 60, king to c8 = 58, Black king = 11, castling.
    /// assert_eq!(flagged.bits(), 60 | 58 << 6 | 11 << 12 | FlaggedMove::CASTLING);
    /// ```
    pub const fn from_move(m: Move, piece: Piece) -> FlaggedMove {
        let promoted = match m.promotion() {
            Some(role) => Piece::new(piece.color, role).index() as u32,
            None => 0,
        };
        let piece = piece.index() as u32;
        let mut bits = m.from().index() as u32 | (m.king_to().index() as u32) << 6 | piece << 12 | promoted << 16;
        if m.is_capture() {
            bits |= Self::CAPTURE;
        }
        if m.is_double_push() {
            bits |= Self::DOUBLE_PUSH;
        }
        if m.is_en_passant() {
            bits |= Self::EN_PASSANT;
        }
        if m.is_castle() {
            bits |= Self::CASTLING;
        }
        FlaggedMove(bits)
    }
}

impl TryFrom<u32> for FlaggedMove {
    type Error = MoveCodeError;

    fn try_from(bits: u32) -> Result<FlaggedMove, MoveCodeError> {
        FlaggedMove::from_bits(bits)
    }
}

impl From<FlaggedMove> for u32 {
    fn from(m: FlaggedMove) -> u32 {
        m.bits()
    }
}

/// The flagged form of `m` in `pos`. Fails if no piece of the side to move stands on the
/// from-square ([`MoveCodeError::PieceMismatch`]); legality is left to [`decode`].
pub fn encode(pos: &Position, m: Move) -> Result<FlaggedMove, MoveCodeError> {
    match pos.piece_at(m.from()) {
        Some(piece) if piece.color == pos.turn() => Ok(FlaggedMove::from_move(m, piece)),
        _ => Err(MoveCodeError::PieceMismatch(m.from())),
    }
}

/// The legal move of `pos` that `code` names: the legal move with its source, target (the king's
/// for a castle) and promotion, whose flags and piece are exactly those of `code`. A code whose
/// flags or piece disagree with the board fails ([`MoveCodeError::PieceMismatch`],
/// [`MoveCodeError::InvalidParts`]), as does a code for no legal move.
///
/// ```
/// use chessbits::codec::moves::flagged::{decode, FlaggedMove};
/// use chessbits::codec::moves::MoveCodeError;
/// use chessbits::position::Position;
/// let pos = Position::startpos();
/// // g1f3 by a White knight (1).
/// let code = FlaggedMove::from_bits(6 | 21 << 6 | 1 << 12).unwrap();
/// assert_eq!(decode(&pos, code).unwrap().to_string(), "g1f3");
/// // The same with the capture flag: f3 is empty.
/// let flagged = FlaggedMove::from_bits(code.bits() | FlaggedMove::CAPTURE).unwrap();
/// assert!(matches!(decode(&pos, flagged), Err(MoveCodeError::InvalidParts(_))));
/// ```
pub fn decode(pos: &Position, code: FlaggedMove) -> Result<Move, MoveCodeError> {
    let piece = code.piece();
    if pos.piece_at(code.source()) != Some(piece) {
        return Err(MoveCodeError::PieceMismatch(code.source()));
    }
    if piece.color != pos.turn() {
        return Err(MoveCodeError::WrongSide);
    }
    let mut moves = MoveList::new();
    pos.legal_moves_into(&mut moves);
    let promotion = code.promoted().map(|p| p.role);
    let found = moves.iter().copied().find(|m| {
        m.from() == code.source()
            && m.king_to() == code.target()
            && m.is_castle() == code.is_castling()
            && m.promotion() == promotion
    });
    let m = found.ok_or(MoveCodeError::InvalidParts("no legal move from source to target"))?;
    if encode(pos, m)? != code {
        return Err(MoveCodeError::InvalidParts("flags that do not fit the move"));
    }
    Ok(m)
}

/// The extended move (score 0) that `code` names in `pos`: [`decode`] as an [`ExtendedMove`].
/// The other way is [`encode`] of [`ExtendedMove::mv`]: the flagged form's pieces come from the
/// position.
///
/// ```
/// use chessbits::codec::moves::flagged::{encode, to_extended};
/// use chessbits::notation::uci::parse_uci;
/// use chessbits::position::Position;
/// let pos = Position::from_fen("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2").unwrap();
/// let ep = parse_uci(&pos, "e5d6").unwrap();
/// let code = encode(&pos, ep).unwrap();
/// let xm = to_extended(&pos, code).unwrap();
/// assert_eq!((xm.mv(), xm.score()), (ep, 0));
/// assert_eq!(encode(&pos, xm.mv()), Ok(code));
/// ```
pub fn to_extended(pos: &Position, code: FlaggedMove) -> Result<ExtendedMove, MoveCodeError> {
    decode(pos, code).map(ExtendedMove::new)
}
