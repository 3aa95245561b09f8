//! The generator: legal or pseudo-legal, all moves or one class, handed to a closure as [`MoveSet`]s.
//!
//! Legal generation needs no make/unmake: the king avoids the squares the opponent attacks (with
//! the king lifted off the board, so it cannot hide behind itself), pinned pieces stay on the line
//! to their king, and in check every other move must capture the checker or block its line. En
//! passant, which removes two pieces from one rank, is checked by recomputing slider attacks on
//! the king with the new occupancy.
//!
//! Moves leave as [`MoveSet`]s handed to a closure: counting popcounts them, listing expands them.

use super::move_set::{MoveSet, PawnMoveKind};
use crate::attacks;
use crate::moves::{Move, MoveKind};
use crate::position::Position;
use crate::types::geometry::{FILE_A, FILE_H};
use crate::types::{Bitboard, CastlingSide, Color, Piece, Rank, Role, Square};

/// Which moves to generate.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub(crate) enum Class {
    /// Every move.
    All,
    /// Captures (en passant included) and promotions.
    Tactical,
    /// Everything else: quiet moves, double pushes, castles.
    Quiet,
}

const NOT_A: Bitboard = Bitboard(!FILE_A);
const NOT_H: Bitboard = Bitboard(!FILE_H);

/// Generates moves of `class` for the side to move; `LEGAL` selects legal or pseudo-legal moves.
#[inline(always)]
pub(crate) fn generate<const LEGAL: bool, F: FnMut(MoveSet)>(pos: &Position, class: Class, sink: &mut F) {
    let board = pos.board();
    let us = pos.turn();
    let them = !us;
    let ours = board.by_color(us);
    let theirs = board.by_color(them);
    let occupied = board.occupied();
    let king = pos.king(us);
    let checkers = pos.checkers();

    let (capture_mask, quiet_mask) = match class {
        Class::All => (theirs, !occupied),
        Class::Tactical => (theirs, Bitboard::EMPTY),
        Class::Quiet => (Bitboard::EMPTY, !occupied),
    };

    // King steps.
    let danger = if LEGAL {
        attacked_squares(pos, them, occupied - Bitboard::from_square(king))
    } else {
        Bitboard::EMPTY
    };
    emit_piece(
        sink,
        Role::King,
        king,
        attacks::king(king) & (capture_mask | quiet_mask) & !danger,
        theirs,
    );
    if LEGAL && checkers.more_than_one() {
        return;
    }

    // In check, other pieces must capture the checker or block.
    let target = match checkers.single_square() {
        Some(checker) if LEGAL => attacks::between(king, checker) | checkers,
        _ => Bitboard::FULL,
    };
    // In check, a pinned piece can neither capture the checker nor block: it stays put.
    let pinned = if LEGAL {
        pinned_pieces(pos, us, king)
    } else {
        Bitboard::EMPTY
    };
    let movable = if LEGAL && checkers.any() { ours - pinned } else { ours };
    let move_mask = (capture_mask | quiet_mask) & target;

    for from in board.by_role(Role::Knight) & (movable - pinned) {
        emit_piece(sink, Role::Knight, from, attacks::knight(from) & move_mask, theirs);
    }
    // Sliders: a pinned one keeps to the line through its king.
    for role in [Role::Bishop, Role::Rook, Role::Queen] {
        for from in board.by_role(role) & movable {
            let pin_mask = if pinned.contains(from) {
                attacks::line(king, from)
            } else {
                Bitboard::FULL
            };
            let reach = match role {
                Role::Bishop => attacks::bishop(from, occupied),
                Role::Rook => attacks::rook(from, occupied),
                _ => attacks::queen(from, occupied),
            };
            emit_piece(sink, role, from, reach & move_mask & pin_mask, theirs);
        }
    }

    let pawns = board.by_role(Role::Pawn) & movable;
    pawn_moves(us, pawns - pinned, occupied, theirs, target, class, sink);
    for pawn in pawns & pinned {
        let only = Bitboard::from_square(pawn);
        pawn_moves(
            us,
            only,
            occupied,
            theirs,
            target & attacks::line(king, pawn),
            class,
            sink,
        );
    }

    if class != Class::Quiet {
        if let Some(ep) = pos.ep_square() {
            en_passant::<LEGAL, F>(pos, ep, king, sink);
        }
    }
    // Castling is generated only when legal, pseudo-legal mode included: never out of check.
    if class != Class::Tactical && checkers.is_empty() {
        castles(pos, king, sink);
    }
}

#[inline(always)]
fn emit_piece<F: FnMut(MoveSet)>(sink: &mut F, role: Role, from: Square, to: Bitboard, theirs: Bitboard) {
    if to.any() {
        sink(MoveSet::Piece {
            role,
            from,
            to,
            captures: to & theirs,
        });
    }
}

#[inline(always)]
fn emit_pawns<F: FnMut(MoveSet)>(sink: &mut F, to: Bitboard, delta: i8, kind: PawnMoveKind) {
    if to.any() {
        sink(MoveSet::Pawns { to, delta, kind });
    }
}

/// Set-wise pawn moves of `pawns` (none of them pinned off `target`'s lines).
#[inline(always)]
fn pawn_moves<F: FnMut(MoveSet)>(
    us: Color,
    pawns: Bitboard,
    occupied: Bitboard,
    theirs: Bitboard,
    target: Bitboard,
    class: Class,
    sink: &mut F,
) {
    if pawns.is_empty() {
        return;
    }
    let empty = !occupied;
    let seventh = Bitboard::relative_rank(us, Rank::SEVENTH);
    let (normal, promoting) = (pawns - seventh, pawns & seventh);
    let (up, up_left, up_right): (i8, i8, i8) = us.fold((8, 7, 9), (-8, -9, -7));
    let left = |bb: Bitboard| us.fold(Bitboard((bb & NOT_A).0 << 7), Bitboard((bb & NOT_A).0 >> 9));
    let right = |bb: Bitboard| us.fold(Bitboard((bb & NOT_H).0 << 9), Bitboard((bb & NOT_H).0 >> 7));

    if class != Class::Tactical {
        let single = normal.forward(us) & empty;
        let double = (single & Bitboard::relative_rank(us, Rank::THIRD)).forward(us) & empty & target;
        emit_pawns(sink, single & target, up, PawnMoveKind::Push);
        emit_pawns(sink, double, 2 * up, PawnMoveKind::DoublePush);
    }
    if class != Class::Quiet {
        let capture_targets = theirs & target;
        emit_pawns(sink, left(normal) & capture_targets, up_left, PawnMoveKind::Capture);
        emit_pawns(sink, right(normal) & capture_targets, up_right, PawnMoveKind::Capture);
        if promoting.any() {
            emit_pawns(
                sink,
                promoting.forward(us) & empty & target,
                up,
                PawnMoveKind::Promotion,
            );
            emit_pawns(
                sink,
                left(promoting) & capture_targets,
                up_left,
                PawnMoveKind::PromotionCapture,
            );
            emit_pawns(
                sink,
                right(promoting) & capture_targets,
                up_right,
                PawnMoveKind::PromotionCapture,
            );
        }
    }
}

#[inline(always)]
fn en_passant<const LEGAL: bool, F: FnMut(MoveSet)>(pos: &Position, ep: Square, king: Square, sink: &mut F) {
    let board = pos.board();
    let us = pos.turn();
    // The pawn that just made the double push stands one rank behind the square it skipped.
    let victim = Square::from_index_masked((ep.index() as i32 + us.fold(-8, 8)) as u32);
    for from in attacks::pawn(!us, ep) & board.by_piece(Piece::new(us, Role::Pawn)) {
        if LEGAL {
            let occupied = (board.occupied() - Bitboard::from_square(from) - Bitboard::from_square(victim))
                | Bitboard::from_square(ep);
            let attackers = board.attackers_to(king, !us, occupied) - Bitboard::from_square(victim);
            if attackers.any() {
                continue;
            }
        }
        sink(MoveSet::Single(Move::new(from, ep, MoveKind::EnPassant)));
    }
}

#[inline(always)]
fn castles<F: FnMut(MoveSet)>(pos: &Position, king: Square, sink: &mut F) {
    let us = pos.turn();
    let rights = pos.castling();
    if !rights.has_color(us) {
        return;
    }
    let board = pos.board();
    for side in CastlingSide::ALL {
        let Some(rook) = rights.rook(us, side, king) else {
            continue;
        };
        let (king_to, rook_to) = (side.king_to(us), side.rook_to(us));
        let movers = Bitboard::from_square(king) | Bitboard::from_square(rook);
        let king_path = attacks::between(king, king_to) | Bitboard::from_square(king_to);
        let rook_path = attacks::between(rook, rook_to) | Bitboard::from_square(rook_to);
        if ((king_path | rook_path) & (board.occupied() - movers)).any() {
            continue;
        }
        // The king may not pass through or land on an attacked square — judged with the rook
        // lifted too, since in Chess960 it may have shielded the king's destination.
        let occupied = board.occupied() - movers;
        if king_path
            .into_iter()
            .any(|sq| board.attackers_to(sq, !us, occupied).any())
        {
            continue;
        }
        sink(MoveSet::Single(Move::castle(king, rook, side)));
    }
}

/// Every square `by` attacks with the given occupancy.
#[inline(always)]
pub(crate) fn attacked_squares(pos: &Position, by: Color, occupied: Bitboard) -> Bitboard {
    let board = pos.board();
    let theirs = board.by_color(by);
    let pawns = board.by_role(Role::Pawn) & theirs;
    let mut attacked = match by {
        Color::White => Bitboard(((pawns & NOT_A).0 << 7) | ((pawns & NOT_H).0 << 9)),
        Color::Black => Bitboard(((pawns & NOT_A).0 >> 9) | ((pawns & NOT_H).0 >> 7)),
    };
    for sq in board.by_role(Role::Knight) & theirs {
        attacked |= attacks::knight(sq);
    }
    for sq in board.diagonal_sliders() & theirs {
        attacked |= attacks::bishop(sq, occupied);
    }
    for sq in board.straight_sliders() & theirs {
        attacked |= attacks::rook(sq, occupied);
    }
    attacked | attacks::king(pos.king(by))
}

/// The pieces of `us` pinned to their king on `king`.
#[inline(always)]
pub(crate) fn pinned_pieces(pos: &Position, us: Color, king: Square) -> Bitboard {
    let board = pos.board();
    let theirs = board.by_color(!us);
    let snipers = ((attacks::rook(king, theirs) & board.straight_sliders())
        | (attacks::bishop(king, theirs) & board.diagonal_sliders()))
        & theirs;
    let mut pinned = Bitboard::EMPTY;
    for sniper in snipers {
        let blockers = attacks::between(king, sniper) & board.occupied();
        if !blockers.more_than_one() {
            pinned |= blockers & board.by_color(us);
        }
    }
    pinned
}
