//! Making and unmaking moves, with incremental updates of the board, key, rights and clocks.

use super::{zobrist, Position};
use crate::attacks;
use crate::moves::{Move, MoveKind};
use crate::types::{Bitboard, CastlingRights, Color, Piece, Role, Square};

/// What [`Position::unmake_move`] needs to restore a position: the state a move cannot tell.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Undo {
    key: u64,
    castling: CastlingRights,
    halfmove_clock: u32,
    ep_square: Option<Square>,
    captured: Option<Role>,
}

impl Undo {
    /// The role captured by the move, if any (a pawn for en passant).
    pub fn captured(&self) -> Option<Role> {
        self.captured
    }
}

impl Position {
    fn undo_record(&self) -> Undo {
        Undo {
            key: self.key,
            castling: self.castling,
            halfmove_clock: self.halfmove_clock,
            ep_square: self.ep_square,
            captured: None,
        }
    }

    /// Plays `m`, which must be legal here (see [`Position::is_legal`]); returns what
    /// [`Position::unmake_move`] needs to take it back.
    ///
    /// ```
    /// use chessbits::position::Position;
    /// use chessbits::notation::uci::parse_uci;
    /// let mut pos = Position::startpos();
    /// let before = pos.clone();
    /// let m = parse_uci(&pos, "e2e4").unwrap();
    /// let undo = pos.make_move(m);
    /// assert_eq!(pos.key(), pos.compute_key());
    /// pos.unmake_move(m, undo);
    /// assert_eq!(pos, before);
    /// ```
    pub fn make_move(&mut self, m: Move) -> Undo {
        let mut undo = self.undo_record();
        let us = self.turn;
        let them = !us;
        let (from, to) = (m.from(), m.to());
        let mut key = self.key ^ zobrist::white_to_move_key();
        if let Some(ep) = self.ep_square.take() {
            key ^= zobrist::en_passant_key(ep.file());
        }
        self.halfmove_clock += 1;

        let mover = self.board.role_at(from).unwrap_or(Role::King);
        let old_castling = self.castling;
        let castling_changes = old_castling.any_of(Bitboard::from_square(from) | Bitboard::from_square(to))
            || (mover == Role::King && old_castling.has_color(us));
        if castling_changes {
            key ^= zobrist::castling_rights_key(old_castling, self.kings());
        }

        match m.kind() {
            kind @ (MoveKind::KingCastle | MoveKind::QueenCastle) => {
                let side = kind.castling_side().unwrap_or(crate::types::CastlingSide::KingSide);
                let (king_to, rook_to) = (side.king_to(us), side.rook_to(us));
                let (king, rook) = (Piece::new(us, Role::King), Piece::new(us, Role::Rook));
                self.board.take(from);
                self.board.take(to);
                self.board.put(king_to, king);
                self.board.put(rook_to, rook);
                key ^= zobrist::piece_key(king, from)
                    ^ zobrist::piece_key(king, king_to)
                    ^ zobrist::piece_key(rook, to)
                    ^ zobrist::piece_key(rook, rook_to);
            }
            kind => {
                let piece = Piece::new(us, mover);
                if kind == MoveKind::EnPassant {
                    let victim_sq = Square::from_coords(to.file(), from.rank());
                    self.board.take(victim_sq);
                    key ^= zobrist::piece_key(Piece::new(them, Role::Pawn), victim_sq);
                    undo.captured = Some(Role::Pawn);
                } else if kind.is_capture() {
                    if let Some(victim) = self.board.take(to) {
                        key ^= zobrist::piece_key(victim, to);
                        undo.captured = Some(victim.role);
                    }
                }
                if let Some(promoted) = kind.promotion_role() {
                    let promoted = Piece::new(us, promoted);
                    self.board.take(from);
                    self.board.put(to, promoted);
                    key ^= zobrist::piece_key(piece, from) ^ zobrist::piece_key(promoted, to);
                } else {
                    self.board.relocate(from, to);
                    key ^= zobrist::piece_key(piece, from) ^ zobrist::piece_key(piece, to);
                }
                if mover == Role::Pawn || undo.captured.is_some() {
                    self.halfmove_clock = 0;
                }
                if kind == MoveKind::DoublePush {
                    let skipped = Square::from_index_masked((from.index() + to.index()) as u32 / 2);
                    let capturers = attacks::pawn(us, skipped) & self.board.by_piece(Piece::new(them, Role::Pawn));
                    if capturers.any() {
                        self.ep_square = Some(skipped);
                        key ^= zobrist::en_passant_key(skipped.file());
                    }
                }
            }
        }

        if castling_changes {
            let mut rights = old_castling.without(Bitboard::from_square(from) | Bitboard::from_square(to));
            if mover == Role::King {
                rights = rights.without_color(us);
            }
            self.castling = rights;
            key ^= zobrist::castling_rights_key(rights, self.kings());
        }

        if us == Color::Black {
            self.fullmove_number += 1;
        }
        self.turn = them;
        self.key = key;
        undo
    }

    /// The pieces checking the king of `side`: `attackers_to` without the king term (a king
    /// never checks) and with the slider lookups skipped when no slider of the attacker is even
    /// on a line with the king (the usual case), which an empty-board lookup tells cheaply.
    #[inline(always)]
    pub(crate) fn checkers_of(&self, side: Color) -> Bitboard {
        let board = &self.board;
        let king = self.king(side);
        let attackers = board.by_color(!side);
        let mut checkers = ((attacks::pawn(side, king) & board.by_role(Role::Pawn))
            | (attacks::knight(king) & board.by_role(Role::Knight)))
            & attackers;
        let straight = board.straight_sliders() & attackers;
        if (attacks::rook(king, Bitboard::EMPTY) & straight).any() {
            checkers |= attacks::rook(king, board.occupied()) & straight;
        }
        let diagonal = board.diagonal_sliders() & attackers;
        if (attacks::bishop(king, Bitboard::EMPTY) & diagonal).any() {
            checkers |= attacks::bishop(king, board.occupied()) & diagonal;
        }
        checkers
    }

    /// Takes back `m`, made by [`Position::make_move`] which returned `undo`.
    pub fn unmake_move(&mut self, m: Move, undo: Undo) {
        let them = self.turn;
        let us = !them;
        let (from, to) = (m.from(), m.to());
        match m.kind() {
            kind @ (MoveKind::KingCastle | MoveKind::QueenCastle) => {
                let side = kind.castling_side().unwrap_or(crate::types::CastlingSide::KingSide);
                self.board.take(side.king_to(us));
                self.board.take(side.rook_to(us));
                self.board.put(from, Piece::new(us, Role::King));
                self.board.put(to, Piece::new(us, Role::Rook));
            }
            kind => {
                if kind.is_promotion() {
                    self.board.take(to);
                    self.board.put(from, Piece::new(us, Role::Pawn));
                } else {
                    self.board.relocate(to, from);
                }
                if kind == MoveKind::EnPassant {
                    self.board.put(
                        Square::from_coords(to.file(), from.rank()),
                        Piece::new(them, Role::Pawn),
                    );
                } else if let Some(victim) = undo.captured {
                    self.board.put(to, Piece::new(them, victim));
                }
            }
        }
        if us == Color::Black {
            self.fullmove_number -= 1;
        }
        self.turn = us;
        self.key = undo.key;
        self.castling = undo.castling;
        self.halfmove_clock = undo.halfmove_clock;
        self.ep_square = undo.ep_square;
    }

    /// Passes the turn. Must not be called when in check.
    pub fn make_null_move(&mut self) -> Undo {
        debug_assert!(!self.is_check(), "null move while in check");
        let undo = self.undo_record();
        let mut key = self.key ^ zobrist::white_to_move_key();
        if let Some(ep) = self.ep_square.take() {
            key ^= zobrist::en_passant_key(ep.file());
        }
        self.halfmove_clock += 1;
        if self.turn == Color::Black {
            self.fullmove_number += 1;
        }
        self.turn = !self.turn;
        self.key = key;
        undo
    }

    /// Takes back a null move.
    pub fn unmake_null_move(&mut self, undo: Undo) {
        self.turn = !self.turn;
        if self.turn == Color::Black {
            self.fullmove_number -= 1;
        }
        self.key = undo.key;
        self.castling = undo.castling;
        self.halfmove_clock = undo.halfmove_clock;
        self.ep_square = undo.ep_square;
    }

    /// Both kings, by color index.
    #[inline(always)]
    fn kings(&self) -> [Option<Square>; 2] {
        [self.board.king_of(Color::White), self.board.king_of(Color::Black)]
    }
}
