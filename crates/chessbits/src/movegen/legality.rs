//! Whether a move is legal, decided without generating the position's moves.

use core::fmt;

use super::generate::{generate, Class};
use super::MoveSet;
use crate::attacks;
use crate::moves::{Move, MoveKind};
use crate::position::{Position, Undo};
use crate::types::{Bitboard, Rank, Role};

/// A move that is not legal in the position it was played in ([`Position::play`],
/// [`Game::push`](crate::game::Game::push)).
///
/// ```
/// use chessbits::game::Game;
/// use chessbits::moves::{Move, MoveKind};
/// use chessbits::types::Square;
/// let mut game = Game::new();
/// let err = game.push(Move::new(Square::E2, Square::E5, MoveKind::Quiet)).unwrap_err();
/// assert_eq!(err.to_string(), "illegal move e2e5 in rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IllegalMove {
    /// The rejected move.
    pub mv: Move,
    /// The position it was tried in, as FEN.
    pub fen: String,
}

impl IllegalMove {
    /// The error for `m` in `pos`.
    pub fn new(pos: &Position, m: Move) -> IllegalMove {
        // `Display` of a position is its FEN.
        IllegalMove {
            mv: m,
            fen: pos.to_string(),
        }
    }
}

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "illegal move {} in {}", self.mv, self.fen)
    }
}

impl std::error::Error for IllegalMove {}

impl Position {
    /// Plays `m` if it is legal here ([`Position::is_legal`]), else changes nothing and returns
    /// an error. [`Position::play_unchecked`] is the unchecked form for moves known to be legal
    /// (generated here), as a search plays them.
    ///
    /// ```
    /// use chessbits::moves::{Move, MoveKind};
    /// use chessbits::position::Position;
    /// use chessbits::types::Square;
    /// let mut pos = Position::startpos();
    /// let undo = pos.play(Move::new(Square::E2, Square::E4, MoveKind::DoublePush)).unwrap();
    /// assert!(pos.play(Move::new(Square::E2, Square::E4, MoveKind::DoublePush)).is_err());
    /// pos.unmake_move(Move::new(Square::E2, Square::E4, MoveKind::DoublePush), undo);
    /// assert_eq!(pos, Position::startpos());
    /// ```
    pub fn play(&mut self, m: Move) -> Result<Undo, IllegalMove> {
        if self.is_legal(m) {
            Ok(self.play_unchecked(m))
        } else {
            Err(IllegalMove::new(self, m))
        }
    }

    /// Whether `m` is a legal move here, for any 16-bit move (from a hash table, a killer slot,
    /// a decoder). Checks the mover, its reach and the target directly, then whether our king is
    /// attacked once the move is made; castles and en passant are looked up in the generator's
    /// move sets.
    ///
    /// ```
    /// use chessbits::moves::{Move, MoveKind};
    /// use chessbits::position::Position;
    /// use chessbits::types::Square;
    /// let pos = Position::startpos();
    /// assert!(pos.is_legal(Move::new(Square::G1, Square::F3, MoveKind::Quiet)));
    /// assert!(!pos.is_legal(Move::new(Square::G1, Square::F3, MoveKind::Capture)));
    /// assert!(!pos.is_legal(Move::new(Square::E2, Square::E4, MoveKind::Quiet)));
    /// ```
    pub fn is_legal(&self, m: Move) -> bool {
        let pos = self;

        let board = pos.board();
        let us = pos.turn();
        let (from, to, kind) = (m.from(), m.to(), m.kind());
        let Some(piece) = board.piece_at(from) else {
            return false;
        };
        if piece.color != us {
            return false;
        }
        if m.is_castle() || m.is_en_passant() {
            let right_mover = if m.is_castle() { Role::King } else { Role::Pawn };
            return piece.role == right_mover && pos.is_legal_by_generation(m);
        }
        let target = board.piece_at(to);
        if target.is_some_and(|t| t.color == us || t.role == Role::King) || kind.is_capture() != target.is_some() {
            return false;
        }
        let occupied = board.occupied();
        let reaches = match piece.role {
            Role::Pawn => {
                let last_rank = to.rank() == Rank::EIGHTH.relative_to(us);
                let up = us.fold(8, -8);
                let one_up = from.offset(up);
                if kind.is_promotion() != last_rank {
                    false
                } else if kind.is_capture() {
                    attacks::pawn(us, from).contains(to)
                } else if kind == MoveKind::DoublePush {
                    from.rank() == Rank::SECOND.relative_to(us)
                        && one_up.is_some_and(|mid| !occupied.contains(mid) && mid.offset(up) == Some(to))
                } else {
                    // A push or a promotion; `to` is empty (not a capture, checked above).
                    one_up == Some(to)
                }
            }
            _ => {
                matches!(kind, MoveKind::Quiet | MoveKind::Capture)
                    && attacks::attacks(piece, from, occupied).contains(to)
            }
        };
        if !reaches {
            return false;
        }
        // Legal iff no enemy piece attacks our king once the move is made: the mover has left
        // `from` and stands on `to`, and a captured piece (on `to`) attacks nothing any more.
        let after = (occupied - Bitboard::from_square(from)) | Bitboard::from_square(to);
        let king = if piece.role == Role::King { to } else { pos.king(us) };
        (board.attackers_to(king, !us, after) - Bitboard::from_square(to)).is_empty()
    }

    /// Whether `m` is among the generated legal move sets.
    fn is_legal_by_generation(&self, m: Move) -> bool {
        let mut found = false;
        generate::<true, _>(self, Class::All, &mut |set: MoveSet| found |= set.contains(m));
        found
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::moves::MoveList;

    const FENS: &[&str] = &[
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "8/2p5/3p4/KP5r/1R2Pp1k/8/6P1/8 b - e3 0 1",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        "4k3/8/8/8/8/8/4q3/4K3 w - - 0 1",
        "4k3/8/8/1b6/8/8/8/R3K2R w KQ - 0 1",
        "4k3/8/8/8/1b2r3/8/3N4/4K3 w - - 0 1",
        "3k4/8/8/K1Pp3r/8/8/8/8 w - d6 0 1",
        "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
        "kBQQQQQQ/BR5Q/Q6Q/Q6Q/Q6Q/Q6Q/Q6Q/KQQQQQQQ w - - 0 1",
        "2r1k3/1P6/8/8/8/8/6p1/4K2R b K - 0 1",
    ];

    #[test]
    fn fast_legality_agrees_with_the_generator_on_every_bit_pattern() {
        for fen in FENS {
            // Composed positions too (the 270-move one).
            let pos = Position::from_fen_with(fen, crate::position::Validation::Composed)
                .unwrap_or_else(|e| panic!("{fen}: {e}"));
            let mut legal = MoveList::new();
            pos.legal_moves_into(&mut legal);
            let mut accepted = 0;
            for bits in 0..=u16::MAX {
                let Some(m) = Move::from_bits(bits) else { continue };
                let fast = pos.is_legal(m);
                assert_eq!(fast, legal.contains(&m), "{fen}: {m} ({bits:#06x})");
                accepted += usize::from(fast);
            }
            assert_eq!(accepted, legal.len(), "{fen}");
        }
    }
}
