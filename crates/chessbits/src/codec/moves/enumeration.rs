//! All moves in 16 bits: a bijection between the 45,356 moves of the seed's "All Moves" sheet and
//! the numbers `0..45_356`.
//!
//! A move here is (color, moving role, from, to, captured role, promotion role), plus the two
//! special marks en passant and castle. Every such tuple the sheet counts gets exactly one number,
//! whether or not it can occur in a game (a king capturing a pawn on the first rank is counted,
//! as in the sheet). The number depends on the move alone, not on a position, so it can index
//! tables (e.g. move statistics) without any board.
//!
//! # Layout
//!
//! ```text
//! code = color * 22_678 + index        White 0 .. 22_678, Black 22_678 .. 45_356
//! ```
//!
//! Squares inside `index` are **relative to the mover**: Black's squares are mirrored top-bottom
//! (a8 ↔ a1) first, so Black's index of a move equals White's index of the mirrored move.
//! `rank` below is the relative rank counted from 0 (rank 1 = 0), `file` a = 0 … h = 7 and
//! `sq = rank * 8 + file`. Role numbers: pawn 0, knight 1, bishop 2, rook 3, queen 4.
//!
//! | `index` range | count | category | offset inside the category |
//! |---|---:|---|---|
//! | 0 .. 40 | 40 | pawn push, from ranks 2–6 | `from_sq - 8` |
//! | 40 .. 48 | 8 | double push | `file` |
//! | 48 .. 80 | 32 | promotion (push from rank 7) | `file * 4 + promo` |
//! | 80 .. 430 | 350 | pawn capture, from ranks 2–6 | `((from_rank - 1) * 14 + diag) * 5 + captured` |
//! | 430 .. 654 | 224 | capture with promotion | `(diag * 4 + captured - 1) * 4 + promo` |
//! | 654 .. 668 | 14 | en passant (from rank 5) | `diag` |
//! | 668 .. 3188 | 2520 | king step | `pair * 6 + slot` |
//! | 3188, 3189 | 2 | castle king side, queen side | — |
//! | 3190 .. 5206 | 2016 | knight | `pair * 6 + slot` |
//! | 5206 .. 8566 | 3360 | bishop | `pair * 6 + slot` |
//! | 8566 .. 13942 | 5376 | rook | `pair * 6 + slot` |
//! | 13942 .. 22678 | 8736 | queen | `pair * 6 + slot` |
//!
//! - `promo`: knight 0, bishop 1, rook 2, queen 3.
//! - `captured`: the captured role number (pawn 0 … queen 4); with a promotion the capture lands
//!   on the last rank where no pawn stands, so only knight 1 … queen 4 occur.
//! - `diag`: `from_file - 1` (0–6) for a capture towards the a-file, `7 + from_file` (7–13) for a
//!   capture towards the h-file: the 14 diagonal steps between two neighbouring files.
//! - `slot`: 0 for no capture, `1 + captured` (1 pawn … 5 queen) for a capture.
//! - `pair`: the number of the (from, to) step among all steps the role can make on an empty
//!   board (its influence quantity: knight 336, bishop 560, rook 896, queen 1456, king 420),
//!   counted from-square first, then target square, both ascending:
//!   `pair = Σ_{s < from} |targets(s)| + |{t ∈ targets(from) : t < to}|`.
//!
//! # Castles and Chess960
//!
//! Each side has two castle codes, king side and queen side. A castle's
//! [`EnumeratedMove`] always reports the standard squares (e1→g1, e1→c1, e8→g8, e8→c8) as its
//! nominal from and to. [`EnumeratedMove::to_move`] finds the real squares in the position: the
//! king of the mover and the castling rook of that side from the castling rights. So Chess960
//! castles map onto the same two codes — the side and the position determine the king and rook.
//!
//! ```
//! use chessbits::codec::moves::enumeration::{EnumeratedMove, CODE_COUNT};
//! use chessbits::types::{Color, Role, Square};
//! let m = EnumeratedMove::new(Color::White, Role::Knight, Square::G1, Square::F3, None, None).unwrap();
//! let code = m.encode();
//! assert!(code < CODE_COUNT);
//! assert_eq!(EnumeratedMove::decode(code), Ok(m));
//! ```

use super::tables::{pair_index, pair_squares};
use super::MoveCodeError;
use crate::moves::{Move, MoveKind};
use crate::position::Position;
use crate::types::{CastlingSide, Color, File, Piece, Rank, Role, Square};

/// Codes per side: 668 pawn + 2522 king + 2016 knight + 3360 bishop + 5376 rook + 8736 queen.
///
/// ```
/// use chessbits::codec::moves::enumeration::{EnumeratedMove, CODES_PER_SIDE};
/// use chessbits::types::Color;
/// assert_eq!(EnumeratedMove::decode(CODES_PER_SIDE).unwrap().color(), Color::Black);
/// ```
pub const CODES_PER_SIDE: u16 = 22_678;
/// All codes: `0..CODE_COUNT`.
///
/// ```
/// use chessbits::codec::moves::enumeration::{EnumeratedMove, CODE_COUNT};
/// assert!(EnumeratedMove::decode(CODE_COUNT - 1).is_ok() && EnumeratedMove::decode(CODE_COUNT).is_err());
/// ```
pub const CODE_COUNT: u16 = 2 * CODES_PER_SIDE;

const PUSH_BASE: u16 = 0;
const DOUBLE_PUSH_BASE: u16 = 40;
const PROMOTION_BASE: u16 = 48;
const CAPTURE_BASE: u16 = 80;
const CAPTURE_PROMOTION_BASE: u16 = 430;
const EN_PASSANT_BASE: u16 = 654;
const KING_BASE: u16 = 668;
const CASTLE_BASE: u16 = KING_BASE + 2520;
const KNIGHT_BASE: u16 = CASTLE_BASE + 2;
const BISHOP_BASE: u16 = KNIGHT_BASE + 2016;
const ROOK_BASE: u16 = BISHOP_BASE + 3360;
const QUEEN_BASE: u16 = ROOK_BASE + 5376;

/// Where the codes of a non-pawn role start inside a side's range.
const fn piece_base(role: Role) -> u16 {
    match role {
        Role::Knight => KNIGHT_BASE,
        Role::Bishop => BISHOP_BASE,
        Role::Rook => ROOK_BASE,
        Role::Queen => QUEEN_BASE,
        _ => KING_BASE,
    }
}

/// A move as the enumeration sees it: who moves what from where to where, what it captures and
/// promotes to. Built only through validating constructors, so every value has a code.
///
/// ```
/// use chessbits::codec::moves::enumeration::EnumeratedMove;
/// use chessbits::types::{CastlingSide, Color, Role, Square};
/// let m = EnumeratedMove::new(Color::Black, Role::Pawn, Square::B2, Square::A1, Some(Role::Rook), Some(Role::Queen))
///     .unwrap();
/// assert_eq!((m.captured(), m.promotion()), (Some(Role::Rook), Some(Role::Queen)));
/// let castle = EnumeratedMove::castle(Color::White, CastlingSide::QueenSide);
/// assert_eq!((castle.from(), castle.to()), (Square::E1, Square::C1));
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct EnumeratedMove {
    color: Color,
    role: Role,
    from: Square,
    to: Square,
    captured: Option<Role>,
    promotion: Option<Role>,
    castle: Option<CastlingSide>,
    en_passant: bool,
    code: u16,
}

impl EnumeratedMove {
    /// An ordinary move (no castle, no en passant) of `role` of `color`.
    ///
    /// Fails with [`MoveCodeError::InvalidParts`] for what the sheet does not count: a step the
    /// role cannot make on an empty board, a pawn push that captures, a pawn promoting off the
    /// seventh rank or not promoting on it, a promotion by a non-pawn or to a pawn or king, a
    /// captured king, a pawn captured on the last rank.
    ///
    /// ```
    /// use chessbits::codec::moves::enumeration::EnumeratedMove;
    /// use chessbits::types::{Color, Role, Square};
    /// assert!(EnumeratedMove::new(Color::White, Role::Bishop, Square::C1, Square::C2, None, None).is_err());
    /// assert!(EnumeratedMove::new(Color::White, Role::Pawn, Square::E7, Square::E8, None, None).is_err());
    /// assert!(EnumeratedMove::new(Color::White, Role::Pawn, Square::E2, Square::E4, None, None).is_ok());
    /// ```
    pub fn new(
        color: Color,
        role: Role,
        from: Square,
        to: Square,
        captured: Option<Role>,
        promotion: Option<Role>,
    ) -> Result<EnumeratedMove, MoveCodeError> {
        if captured == Some(Role::King) {
            return Err(MoveCodeError::InvalidParts("a king is never captured"));
        }
        let (rel_from, rel_to) = (from.relative_to(color), to.relative_to(color));
        let index = match role {
            Role::Pawn => pawn_index(rel_from, rel_to, captured, promotion)?,
            _ => {
                if promotion.is_some() {
                    return Err(MoveCodeError::InvalidParts("only pawns promote"));
                }
                let pair = pair_index(role, rel_from, rel_to)
                    .ok_or(MoveCodeError::InvalidParts("the piece cannot step from there to there"))?;
                piece_base(role) + pair * 6 + capture_slot(captured)
            }
        };
        Ok(EnumeratedMove {
            color,
            role,
            from,
            to,
            captured,
            promotion,
            castle: None,
            en_passant: false,
            code: color_base(color) + index,
        })
    }

    /// An en passant capture by a pawn of `color` from `from` (on its fifth rank) to `to`.
    ///
    /// ```
    /// use chessbits::codec::moves::enumeration::EnumeratedMove;
    /// use chessbits::types::{Color, Role, Square};
    /// let ep = EnumeratedMove::en_passant(Color::Black, Square::D4, Square::E3).unwrap();
    /// assert!(ep.is_en_passant());
    /// assert_eq!(ep.captured(), Some(Role::Pawn));
    /// assert!(EnumeratedMove::en_passant(Color::White, Square::D4, Square::E5).is_err());
    /// ```
    pub fn en_passant(color: Color, from: Square, to: Square) -> Result<EnumeratedMove, MoveCodeError> {
        let (rel_from, rel_to) = (from.relative_to(color), to.relative_to(color));
        let diag =
            diagonal(rel_from, rel_to).ok_or(MoveCodeError::InvalidParts("en passant goes one diagonal step"))?;
        if rel_from.rank() != Rank::FIFTH {
            return Err(MoveCodeError::InvalidParts("en passant starts on the fifth rank"));
        }
        Ok(EnumeratedMove {
            color,
            role: Role::Pawn,
            from,
            to,
            captured: Some(Role::Pawn),
            promotion: None,
            castle: None,
            en_passant: true,
            code: color_base(color) + EN_PASSANT_BASE + diag,
        })
    }

    /// The castle of `color` on `side`, with the standard squares as nominal from and to (see
    /// the module docs for Chess960).
    ///
    /// ```
    /// use chessbits::codec::moves::enumeration::EnumeratedMove;
    /// use chessbits::types::{CastlingSide, Color, Square};
    /// let m = EnumeratedMove::castle(Color::Black, CastlingSide::KingSide);
    /// assert_eq!((m.from(), m.to(), m.castling_side()), (Square::E8, Square::G8, Some(CastlingSide::KingSide)));
    /// ```
    pub const fn castle(color: Color, side: CastlingSide) -> EnumeratedMove {
        EnumeratedMove {
            color,
            role: Role::King,
            from: Square::from_coords(File::E, Rank::FIRST.relative_to(color)),
            to: side.king_to(color),
            captured: None,
            promotion: None,
            castle: Some(side),
            en_passant: false,
            code: color_base(color) + CASTLE_BASE + side.index() as u16,
        }
    }

    /// The move's number, below [`CODE_COUNT`].
    ///
    /// ```
    /// use chessbits::codec::moves::enumeration::EnumeratedMove;
    /// use chessbits::types::{CastlingSide, Color};
    /// assert_eq!(EnumeratedMove::castle(Color::White, CastlingSide::KingSide).encode(), 3188);
    /// assert_eq!(EnumeratedMove::castle(Color::Black, CastlingSide::QueenSide).encode(), 22_678 + 3189);
    /// ```
    #[inline(always)]
    pub const fn encode(&self) -> u16 {
        self.code
    }

    /// The move numbered `code`; [`MoveCodeError::CodeOutOfRange`] at or past [`CODE_COUNT`].
    ///
    /// ```
    /// use chessbits::codec::moves::enumeration::EnumeratedMove;
    /// use chessbits::types::{Color, Role, Square};
    /// let m = EnumeratedMove::decode(0).unwrap();
    /// assert_eq!((m.color(), m.role(), m.from(), m.to()), (Color::White, Role::Pawn, Square::A2, Square::A3));
    /// assert!(EnumeratedMove::decode(45_356).is_err());
    /// ```
    pub fn decode(code: u16) -> Result<EnumeratedMove, MoveCodeError> {
        if code >= CODE_COUNT {
            return Err(MoveCodeError::CodeOutOfRange {
                code: code.into(),
                limit: CODE_COUNT.into(),
            });
        }
        let color = if code < CODES_PER_SIDE {
            Color::White
        } else {
            Color::Black
        };
        let index = code - color_base(color);
        let square = |rel: Square| rel.relative_to(color);
        let mut m = EnumeratedMove {
            color,
            role: Role::Pawn,
            from: Square::A1,
            to: Square::A1,
            captured: None,
            promotion: None,
            castle: None,
            en_passant: false,
            code,
        };
        match index {
            PUSH_BASE..DOUBLE_PUSH_BASE => {
                let from = square_at(8 + index - PUSH_BASE);
                (m.from, m.to) = (square(from), square(square_at(from.index() as u16 + 8)));
            }
            DOUBLE_PUSH_BASE..PROMOTION_BASE => {
                let file = index - DOUBLE_PUSH_BASE;
                (m.from, m.to) = (square(square_at(8 + file)), square(square_at(24 + file)));
            }
            PROMOTION_BASE..CAPTURE_BASE => {
                let (file, promo) = ((index - PROMOTION_BASE) / 4, (index - PROMOTION_BASE) % 4);
                (m.from, m.to) = (square(square_at(48 + file)), square(square_at(56 + file)));
                m.promotion = Some(promotion_role(promo));
            }
            CAPTURE_BASE..CAPTURE_PROMOTION_BASE => {
                let (step, captured) = ((index - CAPTURE_BASE) / 5, (index - CAPTURE_BASE) % 5);
                let (from, to) = diagonal_squares(1 + step / 14, step % 14);
                (m.from, m.to, m.captured) = (square(from), square(to), Role::from_index(captured.into()));
            }
            CAPTURE_PROMOTION_BASE..EN_PASSANT_BASE => {
                let offset = index - CAPTURE_PROMOTION_BASE;
                let (diag, captured, promo) = (offset / 16, (offset / 4) % 4, offset % 4);
                let (from, to) = diagonal_squares(6, diag);
                (m.from, m.to) = (square(from), square(to));
                (m.captured, m.promotion) = (Role::from_index(1 + captured as usize), Some(promotion_role(promo)));
            }
            EN_PASSANT_BASE..KING_BASE => {
                let (from, to) = diagonal_squares(4, index - EN_PASSANT_BASE);
                (m.from, m.to, m.captured, m.en_passant) = (square(from), square(to), Some(Role::Pawn), true);
            }
            CASTLE_BASE..KNIGHT_BASE => {
                let side = if index == CASTLE_BASE {
                    CastlingSide::KingSide
                } else {
                    CastlingSide::QueenSide
                };
                return Ok(EnumeratedMove::castle(color, side));
            }
            _ => {
                let role = match index {
                    KING_BASE..CASTLE_BASE => Role::King,
                    KNIGHT_BASE..BISHOP_BASE => Role::Knight,
                    BISHOP_BASE..ROOK_BASE => Role::Bishop,
                    ROOK_BASE..QUEEN_BASE => Role::Rook,
                    _ => Role::Queen,
                };
                let offset = index - piece_base(role);
                let (from, to) = pair_squares(role, offset / 6).ok_or(MoveCodeError::CodeOutOfRange {
                    code: code.into(),
                    limit: CODE_COUNT.into(),
                })?;
                m.role = role;
                (m.from, m.to) = (square(from), square(to));
                m.captured = match offset % 6 {
                    0 => None,
                    slot => Role::from_index(slot as usize - 1),
                };
            }
        }
        Ok(m)
    }

    /// The enumerated form of `m`, a legal move in `pos`; [`MoveCodeError::IllegalMove`]
    /// otherwise. Castles (Chess960 ones too) become one of the side's two castle codes.
    ///
    /// ```
    /// use chessbits::codec::moves::enumeration::EnumeratedMove;
    /// use chessbits::notation::uci::parse_uci;
    /// use chessbits::position::Position;
    /// let pos = Position::startpos();
    /// let m = parse_uci(&pos, "g1f3").unwrap();
    /// let e = EnumeratedMove::from_position_move(&pos, m).unwrap();
    /// assert_eq!(EnumeratedMove::decode(e.encode()).unwrap().to_move(&pos), Ok(m));
    /// ```
    pub fn from_position_move(pos: &Position, m: Move) -> Result<EnumeratedMove, MoveCodeError> {
        if !pos.is_legal(m) {
            return Err(MoveCodeError::IllegalMove(m));
        }
        let color = pos.turn();
        if let Some(side) = m.castling_side() {
            return Ok(EnumeratedMove::castle(color, side));
        }
        if m.is_en_passant() {
            return EnumeratedMove::en_passant(color, m.from(), m.to());
        }
        let role = pos
            .board()
            .role_at(m.from())
            .ok_or(MoveCodeError::PieceMismatch(m.from()))?;
        let captured = if m.is_capture() {
            pos.board().role_at(m.to())
        } else {
            None
        };
        EnumeratedMove::new(color, role, m.from(), m.to(), captured, m.promotion())
    }

    /// This move as a [`Move`] in `pos`, checked: the mover must be the side to move
    /// ([`MoveCodeError::WrongSide`]), the board must hold the moving and captured pieces
    /// ([`MoveCodeError::PieceMismatch`]) and the move must be legal
    /// ([`MoveCodeError::IllegalMove`]). A castle takes the king and the castling rook of its side
    /// from the position.
    ///
    /// ```
    /// use chessbits::codec::moves::enumeration::EnumeratedMove;
    /// use chessbits::codec::moves::MoveCodeError;
    /// use chessbits::position::Position;
    /// use chessbits::types::{Color, Role, Square};
    /// let pos = Position::startpos();
    /// let knight = EnumeratedMove::new(Color::White, Role::Knight, Square::B1, Square::C3, None, None).unwrap();
    /// assert_eq!(knight.to_move(&pos).unwrap().to_string(), "b1c3");
    /// let rook = EnumeratedMove::new(Color::White, Role::Rook, Square::A1, Square::A5, None, None).unwrap();
    /// assert!(matches!(rook.to_move(&pos), Err(MoveCodeError::IllegalMove(_))));
    /// ```
    pub fn to_move(&self, pos: &Position) -> Result<Move, MoveCodeError> {
        if self.color != pos.turn() {
            return Err(MoveCodeError::WrongSide);
        }
        let m = if let Some(side) = self.castle {
            let king = pos.king(self.color);
            // Without the right, report the castle with the rook on its standard corner.
            let corner_file = if side == CastlingSide::KingSide {
                File::H
            } else {
                File::A
            };
            let corner = Square::from_coords(corner_file, king.rank());
            let rook = pos
                .castling()
                .rook(self.color, side, king)
                .ok_or(MoveCodeError::IllegalMove(Move::castle(king, corner, side)))?;
            Move::castle(king, rook, side)
        } else {
            let board = pos.board();
            if board.piece_at(self.from) != Some(Piece::new(self.color, self.role)) {
                return Err(MoveCodeError::PieceMismatch(self.from));
            }
            let kind = if self.en_passant {
                MoveKind::EnPassant
            } else {
                let on_target = board.piece_at(self.to);
                if on_target.map(|p| p.role) != self.captured || on_target.is_some_and(|p| p.color == self.color) {
                    return Err(MoveCodeError::PieceMismatch(self.to));
                }
                match self.promotion {
                    Some(role) => MoveKind::promotion(role, self.captured.is_some()),
                    None if self.captured.is_some() => MoveKind::Capture,
                    None if self.role == Role::Pawn && self.from.distance(self.to) == 2 => MoveKind::DoublePush,
                    None => MoveKind::Quiet,
                }
            };
            Move::new(self.from, self.to, kind)
        };
        if pos.is_legal(m) {
            Ok(m)
        } else {
            Err(MoveCodeError::IllegalMove(m))
        }
    }

    /// The moving side.
    ///
    /// ```
    /// use chessbits::codec::moves::enumeration::EnumeratedMove;
    /// use chessbits::types::{Color, Role, Square};
    /// let m = EnumeratedMove::new(Color::White, Role::Pawn, Square::E7, Square::D8, Some(Role::Rook), Some(Role::Knight))
    ///     .unwrap();
    /// assert_eq!(m.color(), Color::White);
    /// ```
    pub const fn color(&self) -> Color {
        self.color
    }

    /// The moving role (the king for castles).
    ///
    /// ```
    /// use chessbits::codec::moves::enumeration::EnumeratedMove;
    /// use chessbits::types::{Color, Role, Square};
    /// let m = EnumeratedMove::new(Color::White, Role::Pawn, Square::E7, Square::D8, Some(Role::Rook), Some(Role::Knight))
    ///     .unwrap();
    /// assert_eq!(m.role(), Role::Pawn);
    /// ```
    pub const fn role(&self) -> Role {
        self.role
    }

    /// The from-square (for castles the standard king square, e1 or e8).
    ///
    /// ```
    /// use chessbits::codec::moves::enumeration::EnumeratedMove;
    /// use chessbits::types::{Color, Role, Square};
    /// let m = EnumeratedMove::new(Color::White, Role::Pawn, Square::E7, Square::D8, Some(Role::Rook), Some(Role::Knight))
    ///     .unwrap();
    /// assert_eq!(m.from(), Square::E7);
    /// ```
    pub const fn from(&self) -> Square {
        self.from
    }

    /// The to-square (for castles the standard king target: the g- or c-file square).
    ///
    /// ```
    /// use chessbits::codec::moves::enumeration::EnumeratedMove;
    /// use chessbits::types::{Color, Role, Square};
    /// let m = EnumeratedMove::new(Color::White, Role::Pawn, Square::E7, Square::D8, Some(Role::Rook), Some(Role::Knight))
    ///     .unwrap();
    /// assert_eq!(m.to(), Square::D8);
    /// ```
    pub const fn to(&self) -> Square {
        self.to
    }

    /// The captured role (a pawn for en passant).
    ///
    /// ```
    /// use chessbits::codec::moves::enumeration::EnumeratedMove;
    /// use chessbits::types::{Color, Role, Square};
    /// let m = EnumeratedMove::new(Color::White, Role::Pawn, Square::E7, Square::D8, Some(Role::Rook), Some(Role::Knight))
    ///     .unwrap();
    /// assert_eq!(m.captured(), Some(Role::Rook));
    /// ```
    pub const fn captured(&self) -> Option<Role> {
        self.captured
    }

    /// The role promoted to.
    ///
    /// ```
    /// use chessbits::codec::moves::enumeration::EnumeratedMove;
    /// use chessbits::types::{Color, Role, Square};
    /// let m = EnumeratedMove::new(Color::White, Role::Pawn, Square::E7, Square::D8, Some(Role::Rook), Some(Role::Knight))
    ///     .unwrap();
    /// assert_eq!(m.promotion(), Some(Role::Knight));
    /// ```
    pub const fn promotion(&self) -> Option<Role> {
        self.promotion
    }

    /// The castling side, for the two castle codes of each side.
    ///
    /// ```
    /// use chessbits::codec::moves::enumeration::EnumeratedMove;
    /// use chessbits::types::{Color, Role, Square};
    /// let m = EnumeratedMove::new(Color::White, Role::Pawn, Square::E7, Square::D8, Some(Role::Rook), Some(Role::Knight))
    ///     .unwrap();
    /// assert_eq!(m.castling_side(), None);
    /// ```
    pub const fn castling_side(&self) -> Option<CastlingSide> {
        self.castle
    }

    /// Whether this is an en passant capture.
    ///
    /// ```
    /// use chessbits::codec::moves::enumeration::EnumeratedMove;
    /// use chessbits::types::{Color, Role, Square};
    /// let m = EnumeratedMove::new(Color::White, Role::Pawn, Square::E7, Square::D8, Some(Role::Rook), Some(Role::Knight))
    ///     .unwrap();
    /// assert_eq!(m.is_en_passant(), false);
    /// ```
    pub const fn is_en_passant(&self) -> bool {
        self.en_passant
    }
}

/// The 16-bit enumeration code of `m`, a legal move in `pos`.
///
/// ```
/// use chessbits::codec::moves::enumeration::{decode_move, encode_move};
/// use chessbits::notation::uci::parse_uci;
/// use chessbits::position::Position;
/// let pos = Position::startpos();
/// let m = parse_uci(&pos, "e2e4").unwrap();
/// let code = encode_move(&pos, m).unwrap();
/// assert_eq!(decode_move(&pos, code), Ok(m));
/// ```
pub fn encode_move(pos: &Position, m: Move) -> Result<u16, MoveCodeError> {
    EnumeratedMove::from_position_move(pos, m).map(|e| e.encode())
}

/// The legal move of `pos` that `code` names; errors as [`EnumeratedMove::decode`] and
/// [`EnumeratedMove::to_move`].
///
/// ```
/// use chessbits::codec::moves::enumeration::decode_move;
/// use chessbits::position::Position;
/// // Code 22_678 is Black's a7-a6: not White's move in the start position.
/// assert!(decode_move(&Position::startpos(), 22_678).is_err());
/// ```
pub fn decode_move(pos: &Position, code: u16) -> Result<Move, MoveCodeError> {
    EnumeratedMove::decode(code)?.to_move(pos)
}

const fn color_base(color: Color) -> u16 {
    match color {
        Color::White => 0,
        Color::Black => CODES_PER_SIDE,
    }
}

/// 0 for no capture, 1 + role number for a captured pawn … queen.
fn capture_slot(captured: Option<Role>) -> u16 {
    captured.map_or(0, |role| 1 + role.index() as u16)
}

/// The square with index `i`, masked into range (callers compute in-range indices).
fn square_at(i: u16) -> Square {
    Square::from_index_masked(i.into())
}

/// Knight 0, bishop 1, rook 2, queen 3.
fn promotion_number(role: Option<Role>) -> Result<u16, MoveCodeError> {
    match role {
        Some(Role::Knight | Role::Bishop | Role::Rook | Role::Queen) => Ok(role.map_or(0, |r| r.index() as u16 - 1)),
        _ => Err(MoveCodeError::InvalidParts(
            "a pawn promotes to a knight, bishop, rook or queen",
        )),
    }
}

fn promotion_role(number: u16) -> Role {
    Role::PROMOTIONS[(number & 3) as usize]
}

/// The 0..14 number of a one-step forward diagonal from `from` to `to` (relative squares).
fn diagonal(from: Square, to: Square) -> Option<u16> {
    if to.index() != from.index() + 7 && to.index() != from.index() + 9 || from.rank().index() + 1 != to.rank().index()
    {
        return None;
    }
    let file = from.file().index() as u16;
    Some(if to.file().index() < from.file().index() {
        file - 1
    } else {
        7 + file
    })
}

/// The relative (from, to) of forward diagonal `diag` (0..14) starting on rank index `rank`.
fn diagonal_squares(rank: u16, diag: u16) -> (Square, Square) {
    let (from_file, to_file) = if diag < 7 {
        (diag + 1, diag)
    } else {
        (diag - 7, diag - 6)
    };
    (square_at(rank * 8 + from_file), square_at((rank + 1) * 8 + to_file))
}

/// The in-side index of a pawn move between relative squares (not en passant).
fn pawn_index(from: Square, to: Square, captured: Option<Role>, promotion: Option<Role>) -> Result<u16, MoveCodeError> {
    let rank = from.rank().index() as u16;
    let file = from.file().index() as u16;
    let invalid = MoveCodeError::InvalidParts;
    if !(1..=6).contains(&rank) {
        return Err(invalid("pawns move from the second to the seventh rank"));
    }
    if rank == 6 && promotion.is_none() {
        return Err(invalid("a pawn leaving the seventh rank promotes"));
    }
    if rank != 6 && promotion.is_some() {
        return Err(invalid("only a pawn leaving the seventh rank promotes"));
    }
    if from.file() == to.file() {
        if captured.is_some() {
            return Err(invalid("pawn pushes do not capture"));
        }
        return match to.index() as i32 - from.index() as i32 {
            8 if rank == 6 => Ok(PROMOTION_BASE + file * 4 + promotion_number(promotion)?),
            8 => Ok(PUSH_BASE + from.index() as u16 - 8),
            16 if rank == 1 => Ok(DOUBLE_PUSH_BASE + file),
            _ => Err(invalid("a pawn pushes one step, or two from the second rank")),
        };
    }
    let diag = diagonal(from, to).ok_or(invalid("a pawn captures one diagonal step forward"))?;
    let captured = captured.ok_or(invalid("a diagonal pawn move captures"))?;
    if rank == 6 {
        if captured == Role::Pawn {
            return Err(invalid("no pawn stands on the last rank"));
        }
        let promo = promotion_number(promotion)?;
        Ok(CAPTURE_PROMOTION_BASE + (diag * 4 + captured.index() as u16 - 1) * 4 + promo)
    } else {
        Ok(CAPTURE_BASE + ((rank - 1) * 14 + diag) * 5 + captured.index() as u16)
    }
}

#[cfg(test)]
mod tests {
    use super::super::tables::pair_count;
    use super::*;

    #[test]
    fn category_bases_sum_to_the_sheet() {
        assert_eq!(QUEEN_BASE + pair_count(Role::Queen) * 6, CODES_PER_SIDE);
        assert_eq!(BISHOP_BASE - KNIGHT_BASE, pair_count(Role::Knight) * 6);
        assert_eq!(CASTLE_BASE - KING_BASE, pair_count(Role::King) * 6);
        assert_eq!(CODE_COUNT, 45_356);
    }

    #[test]
    fn every_code_round_trips() {
        for code in 0..CODE_COUNT {
            let m = EnumeratedMove::decode(code).unwrap();
            assert_eq!(m.encode(), code);
            let rebuilt = if let Some(side) = m.castling_side() {
                EnumeratedMove::castle(m.color(), side)
            } else if m.is_en_passant() {
                EnumeratedMove::en_passant(m.color(), m.from(), m.to()).unwrap()
            } else {
                EnumeratedMove::new(m.color(), m.role(), m.from(), m.to(), m.captured(), m.promotion()).unwrap()
            };
            assert_eq!(rebuilt, m, "code {code}");
        }
    }
}
