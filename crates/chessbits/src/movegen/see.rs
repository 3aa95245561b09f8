//! Static exchange evaluation: what a capture sequence on one square wins or loses.
//!
//! The swap algorithm: both sides recapture on the target square with their least valuable
//! attacker, sliders behind a moved piece join in (x-rays), and either side may stop when
//! going on would lose. Pins are ignored, as usual: SEE is an estimate for move ordering and
//! pruning, and a cheap one.

use crate::attacks;
use crate::moves::Move;
use crate::position::Position;
use crate::types::{Bitboard, Role};

/// The piece values SEE counts in centipawns, indexed by [`Role::index`] (pawn … king).
///
/// ```
/// use chessbits::movegen::SEE_VALUES;
/// use chessbits::types::Role;
/// assert_eq!(SEE_VALUES[Role::Pawn.index()], 100);
/// ```
pub const SEE_VALUES: [i32; 6] = [100, 320, 330, 500, 900, 20_000];

#[inline]
fn value(role: Role) -> i32 {
    SEE_VALUES[role.index()]
}

impl Position {
    /// Whether the static exchange after `m` wins at least `threshold` centipawns for the side
    /// to move (with [`SEE_VALUES`]). Castles count as 0; `m` should be a move of this
    /// position (an empty origin counts as a pawn).
    ///
    /// ```
    /// use chessbits::notation::uci::parse_uci;
    /// use chessbits::position::Position;
    /// // The pawn on d5 is defended by the pawn on e6: knight takes pawn loses the knight.
    /// let pos = Position::from_fen("4k3/8/4p3/3p4/8/4N3/8/4K3 w - - 0 1").unwrap();
    /// let nxd5 = parse_uci(&pos, "e3d5").unwrap();
    /// assert!(pos.see_ge(nxd5, -220));
    /// assert!(!pos.see_ge(nxd5, -219));
    /// ```
    pub fn see_ge(&self, m: Move, threshold: i32) -> bool {
        if m.is_castle() {
            return threshold <= 0;
        }
        let board = self.board();
        let (from, to) = (m.from(), m.to());
        let mover = board.role_at(from).unwrap_or(Role::Pawn);
        let captured = if m.is_en_passant() {
            Some(Role::Pawn)
        } else {
            board.role_at(to)
        };
        let mut swap = captured.map_or(0, value) - threshold;
        let mut next_victim = mover;
        if let Some(promotion) = m.promotion() {
            swap += value(promotion) - value(Role::Pawn);
            next_victim = promotion;
        }
        if swap < 0 {
            return false;
        }
        swap = value(next_victim) - swap;
        if swap <= 0 {
            return true;
        }

        let mut occupied = board.occupied().without(from).with(to);
        if m.is_en_passant() {
            // The captured pawn stands behind the target square, on the mover's rank.
            let behind = crate::types::Square::from_coords(to.file(), from.rank());
            occupied = occupied.without(behind);
        }
        let diagonal = board.diagonal_sliders();
        let straight = board.straight_sliders();
        let mut attackers = (board.attackers_to(to, crate::types::Color::White, occupied)
            | board.attackers_to(to, crate::types::Color::Black, occupied))
            & occupied;
        let mut side = self.turn();
        // 1 while the side that made the last capture wins the exchange so far.
        let mut result = true;
        loop {
            side = !side;
            attackers &= occupied;
            let ours = attackers & board.by_color(side);
            if ours.is_empty() {
                break;
            }
            result = !result;
            let Some((role, sq)) = least_valuable(board, ours) else {
                break;
            };
            if role == Role::King {
                // The king may only take if nothing defends: else the capture is illegal.
                let theirs = attackers & board.by_color(!side);
                return if theirs.any() { !result } else { result };
            }
            swap = value(role) - swap;
            if swap < result as i32 {
                break;
            }
            occupied = occupied.without(sq);
            if matches!(role, Role::Pawn | Role::Bishop | Role::Queen) {
                attackers |= attacks::bishop(to, occupied) & diagonal;
            }
            if matches!(role, Role::Rook | Role::Queen) {
                attackers |= attacks::rook(to, occupied) & straight;
            }
        }
        result
    }
}

/// The least valuable piece among `candidates` and its square.
fn least_valuable(board: &crate::position::Board, candidates: Bitboard) -> Option<(Role, crate::types::Square)> {
    Role::ALL
        .iter()
        .find_map(|&role| (candidates & board.by_role(role)).first().map(|sq| (role, sq)))
}

#[cfg(test)]
mod tests {
    use crate::notation::uci::parse_uci;
    use crate::position::Position;

    fn see_value(fen: &str, uci: &str) -> i32 {
        let pos = Position::from_fen(fen).unwrap();
        let m = parse_uci(&pos, uci).unwrap();
        // The largest threshold that still holds: binary search over the value range.
        let (mut lo, mut hi) = (-30_000, 30_000);
        while lo < hi {
            let mid: i32 = (lo + hi + 1i32).div_euclid(2);
            if pos.see_ge(m, mid) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        lo
    }

    #[test]
    fn exchanges() {
        // Undefended pawn.
        assert_eq!(see_value("4k3/8/8/3p4/8/8/8/3RK3 w - - 0 1", "d1d5"), 100);
        // Defended pawn taken by a rook: rook for pawn.
        assert_eq!(see_value("4k3/8/4p3/3p4/8/8/8/3RK3 w - - 0 1", "d1d5"), -400);
        // Doubled rooks against one defender: rook takes, pawn retakes, rook retakes.
        assert_eq!(see_value("4k3/8/4p3/3p4/8/8/3R4/3RK3 w - - 0 1", "d2d5"), -300);
        // X-ray: queen behind rook on a file against a rook defender.
        assert_eq!(see_value("3rk3/8/8/3p4/8/8/3R4/3QK3 w - - 0 1", "d2d5"), 100);
        // Quiet move to an attacked square loses the piece.
        assert_eq!(see_value("4k3/8/4p3/8/8/8/8/3NK3 w - - 0 1", "d1c3"), 0);
        assert_eq!(see_value("4k3/8/8/4p3/8/8/8/3NK3 w - - 0 1", "d1c3"), 0);
        assert_eq!(see_value("4k3/8/8/2p5/8/8/8/2N1K3 w - - 0 1", "c1b3"), 0);
        assert_eq!(see_value("4k3/8/8/2p5/8/8/8/3NK3 w - - 0 1", "d1b2"), 0);
        assert_eq!(see_value("4k3/8/8/8/2p5/8/8/3NK3 w - - 0 1", "d1b2"), 0);
        assert_eq!(see_value("4k3/8/8/8/2p5/8/8/3NK3 w - - 0 1", "d1e3"), 0);
        assert_eq!(see_value("4k3/8/8/8/8/2p5/8/3NK3 w - - 0 1", "d1b2"), -320);
        // En passant wins a pawn.
        assert_eq!(see_value("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "e5d6"), 100);
        // Promotion to a queen on an undefended square: queen minus pawn.
        assert_eq!(see_value("4k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a7a8q"), 800);
        // The king may not recapture a defended piece.
        assert_eq!(see_value("3rk3/8/8/8/8/8/8/3RK2R w - - 0 1", "d1d8"), 0);
        assert_eq!(see_value("3rk3/8/8/8/8/8/3R4/3RK3 w - - 0 1", "d2d8"), 500);
    }
}
