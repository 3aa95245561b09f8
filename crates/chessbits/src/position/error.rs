//! What can make a setup an invalid position.

use core::fmt;

use super::Setup;
use crate::types::{Bitboard, CastlingSide, Color, Piece, Rank, Role, Square};

/// Why a [`Setup`] is not a valid position.
///
/// ```
/// use chessbits::position::PositionError;
/// assert_eq!(PositionError::PawnsOnBackrank.to_string(), "pawns on the first or eighth rank");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum PositionError {
    /// A side has no king.
    MissingKing(Color),
    /// A side has more than one king.
    TooManyKings(Color),
    /// A pawn stands on the first or eighth rank.
    PawnsOnBackrank,
    /// A castling right names a square without a rook of that side, or the king is not on its
    /// back rank, or a side has two rights on one side of its king.
    InvalidCastlingRights(Square),
    /// The en passant square is not one a double push could have just skipped.
    InvalidEpSquare(Square),
    /// The side not to move is in check.
    OppositeCheck,
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionError::MissingKing(c) => write!(f, "{c} has no king"),
            PositionError::TooManyKings(c) => write!(f, "{c} has more than one king"),
            PositionError::PawnsOnBackrank => f.write_str("pawns on the first or eighth rank"),
            PositionError::InvalidCastlingRights(sq) => {
                write!(
                    f,
                    "castling right for {sq} without a rook there and its king on the back rank"
                )
            }
            PositionError::InvalidEpSquare(sq) => write!(f, "impossible en passant square {sq}"),
            PositionError::OppositeCheck => f.write_str("the side not to move is in check"),
        }
    }
}

impl std::error::Error for PositionError {}

pub(super) fn validate(setup: &Setup) -> Result<(), PositionError> {
    let board = &setup.board;
    for color in Color::ALL {
        match board.by_piece(Piece::new(color, Role::King)).count() {
            0 => return Err(PositionError::MissingKing(color)),
            1 => {}
            _ => return Err(PositionError::TooManyKings(color)),
        }
    }
    if (board.by_role(Role::Pawn) & Bitboard::BACKRANKS).any() {
        return Err(PositionError::PawnsOnBackrank);
    }
    for color in Color::ALL {
        let rooks = setup.castling.rooks_of(color);
        let king = board.king_of(color).unwrap_or(Square::A1);
        let back_rank = Rank::FIRST.relative_to(color);
        let own_rooks = board.by_piece(Piece::new(color, Role::Rook));
        for rook in rooks {
            if king.rank() != back_rank || !own_rooks.contains(rook) {
                return Err(PositionError::InvalidCastlingRights(rook));
            }
        }
        // At most one right on each side of the king.
        for side in CastlingSide::ALL {
            let on_side: Bitboard = rooks
                .into_iter()
                .filter(|r| (r.file() > king.file()) == (side == CastlingSide::KingSide))
                .collect();
            if on_side.more_than_one() {
                return Err(PositionError::InvalidCastlingRights(on_side.last().unwrap_or(king)));
            }
        }
    }
    if let Some(ep) = setup.ep_square {
        let mover = setup.turn;
        let pusher = Piece::new(!mover, Role::Pawn);
        let ok = ep.rank() == Rank::SIXTH.relative_to(mover)
            && board.piece_at(ep).is_none()
            && ep
                .relative_to(mover)
                .offset(8)
                .is_some_and(|from| board.piece_at(from.relative_to(mover)).is_none())
            && ep
                .relative_to(mover)
                .offset(-8)
                .is_some_and(|pawn| board.piece_at(pawn.relative_to(mover)) == Some(pusher));
        if !ok {
            return Err(PositionError::InvalidEpSquare(ep));
        }
    }
    let them = !setup.turn;
    let their_king = board.king_of(them).unwrap_or(Square::A1);
    let attackers = board.attackers_to(their_king, setup.turn, board.occupied());
    if attackers.any() {
        return Err(PositionError::OppositeCheck);
    }
    Ok(())
}
