//! Insufficient material: when no sequence of legal moves can end in checkmate.

use crate::position::Board;
use crate::types::{Bitboard, Color, Role};

/// Whether `color` can never checkmate, whatever either side plays (the rule a flag fall
/// needs: a player without mating material draws even on time).
///
/// `color` cannot mate when it has no pawns, rooks or queens, and:
/// - only its king; or
/// - a single knight (no other piece), and the opponent has nothing but queens besides the
///   king — other opponent pieces could block their own king's flight squares (a "selfmate");
/// - bishops only, all bishops on the board standing on one square color, and no knights or
///   pawns on the board (opponent pieces of those kinds could block, or cover, the other color).
///
/// ```
/// use chessbits::game::has_insufficient_material;
/// use chessbits::position::Position;
/// use chessbits::types::Color;
/// // King and knight against king and pawn: the pawn can block its own king, so the knight
/// // can mate; the pawn side has mating material too (it may promote).
/// let pos = Position::from_fen("7k/7p/8/8/8/8/8/4K1N1 w - - 0 1").unwrap();
/// assert!(!has_insufficient_material(pos.board(), Color::White));
/// let pos = Position::from_fen("7k/8/8/8/8/8/8/4K1N1 w - - 0 1").unwrap();
/// assert!(has_insufficient_material(pos.board(), Color::White));
/// assert!(has_insufficient_material(pos.board(), Color::Black));
/// ```
pub fn has_insufficient_material(board: &Board, color: Color) -> bool {
    let ours = board.by_color(color);
    let theirs = board.by_color(!color);
    let heavy_or_pawns = board.by_role(Role::Pawn) | board.by_role(Role::Rook) | board.by_role(Role::Queen);
    if (ours & heavy_or_pawns).any() {
        return false;
    }
    let knights = board.by_role(Role::Knight);
    if (ours & knights).any() {
        let blockers = theirs - board.by_role(Role::King) - board.by_role(Role::Queen);
        return ours.count() <= 2 && blockers.is_empty();
    }
    let bishops = board.by_role(Role::Bishop);
    if (ours & bishops).any() {
        let one_square_color =
            (bishops & Bitboard::DARK_SQUARES).is_empty() || (bishops & Bitboard::LIGHT_SQUARES).is_empty();
        return one_square_color && (board.by_role(Role::Pawn) | knights).is_empty();
    }
    true
}

/// Whether neither side can ever checkmate: the game is drawn (a dead position by material).
///
/// True for king against king, king and minor piece against king, and kings with any number
/// of bishops (either side's) all on squares of one color — in particular king and bishop
/// against king and bishop with the bishops on the same color. False as soon as one side has
/// a pawn, rook or queen, two minor pieces of different kinds or colors, or a knight facing
/// any piece other than a king.
///
/// ```
/// use chessbits::game::insufficient_material;
/// use chessbits::position::Position;
/// let board = |fen: &str| Position::from_fen(fen).unwrap().board().clone();
/// assert!(insufficient_material(&board("8/8/4k3/8/8/3K4/8/8 w - - 0 1")));
/// assert!(insufficient_material(&board("8/8/4k3/8/8/3K4/8/5B2 w - - 0 1")));
/// // Same-colored bishops (c8 and f1 are both light squares) draw; opposite-colored do not.
/// assert!(insufficient_material(&board("2b5/8/4k3/8/8/3K4/8/5B2 w - - 0 1")));
/// assert!(!insufficient_material(&board("1b6/8/4k3/8/8/3K4/8/5B2 w - - 0 1")));
/// ```
pub fn insufficient_material(board: &Board) -> bool {
    has_insufficient_material(board, Color::White) && has_insufficient_material(board, Color::Black)
}
