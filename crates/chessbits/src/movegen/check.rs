//! Whether a move gives check, decided without making it.

use crate::attacks;
use crate::moves::Move;
use crate::position::Position;
use crate::types::{Bitboard, Piece, Role, Square};

impl Position {
    /// Whether the legal move `m` checks the opponent's king, computed from the occupancy after
    /// the move: a direct attack by the moved (or promoted, or castled) piece, or a discovered
    /// attack by a slider the move uncovers (en passant may uncover two squares).
    ///
    /// ```
    /// use chessbits::position::Position;
    /// use chessbits::notation::uci::parse_uci;
    /// let pos = Position::from_fen("4k3/8/8/8/8/8/8/4K2R w K - 0 1").unwrap();
    /// assert!(pos.gives_check(parse_uci(&pos, "h1h8").unwrap()));
    /// assert!(!pos.gives_check(parse_uci(&pos, "h1h7").unwrap()));
    /// ```
    pub fn gives_check(&self, m: Move) -> bool {
        let board = self.board();
        let us = self.turn();
        let their_king = self.king(!us);
        let (from, to) = (m.from(), m.to());

        // Where pieces end up: (square left, square reached, role there).
        let (mut vacated, mover_to, mover_role) = if let Some(side) = m.castling_side() {
            let rook_to = side.rook_to(us);
            (
                Bitboard::from_square(from) | Bitboard::from_square(to),
                rook_to,
                Role::Rook,
            )
        } else {
            let role = m.promotion().or(board.role_at(from)).unwrap_or(Role::Pawn);
            (Bitboard::from_square(from), to, role)
        };
        if m.is_en_passant() {
            vacated |= Bitboard::from_square(Square::from_coords(to.file(), from.rank()));
        }
        let mut arrived = Bitboard::from_square(mover_to);
        if m.is_castle() {
            arrived |= Bitboard::from_square(m.king_to());
        }
        let occupied = (board.occupied() - vacated) | arrived;

        if attacks::attacks(Piece::new(us, mover_role), mover_to, occupied).contains(their_king) {
            return true;
        }
        // Discovered: our sliders (not the moved piece, already judged) that now see the king.
        let ours = board.by_color(us) - vacated - arrived;
        let straight = board.straight_sliders() & ours;
        let diagonal = board.diagonal_sliders() & ours;
        ((attacks::rook(their_king, occupied) & straight) | (attacks::bishop(their_king, occupied) & diagonal)).any()
    }
}
