//! What can make a setup an invalid position.

use core::fmt;

use super::Setup;
use crate::attacks;
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
    /// A side has more pieces than a game can give it: its pawns plus the pieces beyond the
    /// starting set (a second queen, a third rook or knight, a second bishop on one square
    /// colour), each of which took a promotion, number more than eight. Accepted by
    /// [`Validation::Composed`].
    ImpossibleMaterial(Color),
    /// The side to move is in a check no move could have given: three checkers or more, two
    /// checkers that no single move uncovers (on one line through the king, or neither a
    /// bishop, rook or queen), or, with an en passant square, a checker other than the pawn
    /// that just moved two squares or a line that move opened. Accepted by
    /// [`Validation::Composed`].
    ImpossibleCheck,
}

/// How much of the rules a [`Setup`] must satisfy to become a
/// [`Position`](super::Position): see [`Position::from_setup_with`](super::Position::from_setup_with).
///
/// ```
/// use chessbits::position::{Position, PositionError, Validation};
/// // Nine white pawns.
/// let fen = "4k3/8/8/8/8/P7/PPPPPPPP/4K3 w - - 0 1";
/// let error = Position::from_fen(fen).unwrap_err();
/// assert_eq!(error.to_string(), "invalid position: white has more material than a game can give");
/// assert!(Position::from_fen_with(fen, Validation::Composed).is_ok());
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Validation {
    /// Everything [`PositionError`] names: the position could arise in a game (as far as
    /// material and checks tell; the default).
    #[default]
    Game,
    /// Only what moves need (one king a side, no pawn on a back rank, castling rights and en
    /// passant square that make sense, the side not to move not in check): composed problems
    /// and studies with material or checks no game reaches are accepted
    /// ([`PositionError::ImpossibleMaterial`], [`PositionError::ImpossibleCheck`] are not
    /// checked).
    Composed,
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
            PositionError::ImpossibleMaterial(c) => write!(f, "{c} has more material than a game can give"),
            PositionError::ImpossibleCheck => f.write_str("a check that no move could have given"),
        }
    }
}

impl std::error::Error for PositionError {}

pub(super) fn validate(setup: &Setup, validation: Validation) -> Result<(), PositionError> {
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
    if validation == Validation::Game {
        for color in Color::ALL {
            if !is_possible_material(board, color) {
                return Err(PositionError::ImpossibleMaterial(color));
            }
        }
        if !is_possible_check(setup) {
            return Err(PositionError::ImpossibleCheck);
        }
    }
    Ok(())
}

/// Whether `color`'s pawns and the promotions its pieces need fit the eight pawns it started with.
fn is_possible_material(board: &super::Board, color: Color) -> bool {
    let ours = board.by_color(color);
    let count = |role, squares: Bitboard| (board.by_role(role) & ours & squares).count();
    // Beyond one queen, two rooks, two knights and one bishop per square colour, a piece was
    // promoted. This also bounds a side to 16 pieces.
    let promoted = count(Role::Queen, Bitboard::FULL).saturating_sub(1)
        + count(Role::Rook, Bitboard::FULL).saturating_sub(2)
        + count(Role::Knight, Bitboard::FULL).saturating_sub(2)
        + count(Role::Bishop, Bitboard::LIGHT_SQUARES).saturating_sub(1)
        + count(Role::Bishop, Bitboard::DARK_SQUARES).saturating_sub(1);
    count(Role::Pawn, Bitboard::FULL) + promoted <= 8
}

/// Whether the check on the side to move (if any) is one the last move could have given.
fn is_possible_check(setup: &Setup) -> bool {
    let board = &setup.board;
    let Some(king) = board.king_of(setup.turn) else {
        return true;
    };
    let checkers = board.attackers_to(king, !setup.turn, board.occupied());
    let sliders = board.by_role(Role::Bishop) | board.by_role(Role::Rook) | board.by_role(Role::Queen);
    if let Some(ep) = setup.ep_square {
        // The last move was a double push over `ep`, from `source` to `pushed`: the pawn
        // checks, or its source square was on the line of the one slider that checks.
        let (to, from) = if setup.turn == Color::White { (-8, 8) } else { (8, -8) };
        let (Some(pushed), Some(source)) = (ep.offset(to), ep.offset(from)) else {
            return true; // not a square a double push skips: `validate` refused it before
        };
        return match checkers.single_square() {
            None => checkers.is_empty(),
            Some(checker) => checker == pushed || attacks::between(checker, king).contains(source),
        };
    }
    match checkers.count() {
        0 | 1 => true,
        // One move uncovered a line and gave the other check: the uncovered piece is a slider,
        // and the two are not on one line through the king (the mover would have blocked it).
        2 => {
            let (Some(a), Some(b)) = (checkers.first(), checkers.last()) else {
                return true;
            };
            (checkers & sliders).any() && !attacks::aligned(a, king, b)
        }
        _ => false,
    }
}
