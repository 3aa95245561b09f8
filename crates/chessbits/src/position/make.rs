//! Making and unmaking moves, with incremental updates of the board, key, rights and clocks.

use super::board::code;
use super::{zobrist, Position};
use crate::attacks;
use crate::moves::{Move, MoveKind};
use crate::types::{Bitboard, CastlingRights, Color, Piece, Rank, Role, Square};

/// What [`Position::unmake_move`] needs to restore a position: the state a move cannot tell.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Undo {
    key: u64,
    castling: CastlingRights,
    halfmove_clock: u32,
    /// Restored rather than decremented: the number saturates at `u32::MAX`, so a decrement
    /// would not always undo the increment.
    fullmove_number: u32,
    ep_square: Option<Square>,
    /// The mailbox code of the captured piece (the pawn for en passant), or `code::EMPTY`.
    captured: u8,
}

impl Undo {
    /// The role captured by the move, if any (a pawn for en passant).
    pub fn captured(&self) -> Option<Role> {
        Role::from_index(code::role_bits(self.captured))
    }
}

/// The four bits of a move's kind (see [`MoveKind`]) that the fast paths branch on.
const QUIET: u16 = MoveKind::Quiet as u16;
const DOUBLE_PUSH: u16 = MoveKind::DoublePush as u16;
const CAPTURE: u16 = MoveKind::Capture as u16;

impl Position {
    fn undo_record(&self) -> Undo {
        Undo {
            key: self.key,
            castling: self.castling,
            halfmove_clock: self.halfmove_clock,
            fullmove_number: self.fullmove_number,
            ep_square: self.ep_square,
            captured: code::EMPTY,
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
    /// let undo = pos.play_unchecked(m);
    /// assert_eq!(pos.key(), pos.compute_key());
    /// pos.unmake_move(m, undo);
    /// assert_eq!(pos, before);
    /// ```
    #[inline]
    pub fn play_unchecked(&mut self, m: Move) -> Undo {
        let mut undo = self.undo_record();
        let us = self.turn;
        let (from, to) = (m.from(), m.to());
        let mut key = self.key ^ zobrist::white_to_move_key();
        if let Some(ep) = self.ep_square.take() {
            key ^= zobrist::en_passant_key(ep.file());
        }
        let mover = self.board.code_at(from);
        let kind = m.bits() >> 12;
        let mut reset_clock = code::role_bits(mover) == Role::Pawn.index();

        // Quiet moves, double pushes and captures, nine moves in ten, take the straight path;
        // castles, en passant and promotions the out-of-line one.
        if kind == QUIET || kind == DOUBLE_PUSH || kind == CAPTURE {
            if kind == CAPTURE {
                let victim = self.board.code_at(to);
                self.board.take_code(to, victim);
                key ^= zobrist::code_key(victim, to);
                undo.captured = victim;
                reset_clock = true;
            }
            self.board.relocate_code(from, to, mover);
            key ^= zobrist::code_key(mover, from) ^ zobrist::code_key(mover, to);
            if kind == DOUBLE_PUSH {
                key ^= self.set_ep_square(us, from, to);
            }
        } else {
            key ^= self.make_special(m, mover, &mut undo);
        }
        // Saturating: a setup may carry any clock up to u32::MAX (position codes store 32 bits).
        self.halfmove_clock = if reset_clock {
            0
        } else {
            self.halfmove_clock.saturating_add(1)
        };

        // A move from or to a rook's square drops its right; a king move drops its side's.
        let rights = self.castling;
        if !rights.is_empty() {
            let mut touched = Bitboard::from_square(from) | Bitboard::from_square(to);
            if code::role_bits(mover) == Role::King.index() {
                touched |= Bitboard::relative_rank(us, Rank::FIRST);
            }
            let remaining = rights.without(touched);
            if remaining != rights {
                key ^= self.castling_change_key(rights, remaining, mover, from);
                self.castling = remaining;
            }
        }

        self.fullmove_number = self.fullmove_number.saturating_add(us.index() as u32);
        self.turn = !us;
        self.key = key;
        undo
    }

    /// After a double push from `from` to `to`: sets the en passant square if an enemy pawn
    /// could capture there (the Polyglot convention), and returns its key (or 0).
    #[inline(always)]
    fn set_ep_square(&mut self, us: Color, from: Square, to: Square) -> u64 {
        let skipped = Square::from_index_masked((from.index() + to.index()) as u32 / 2);
        let capturers = attacks::pawn(us, skipped) & self.board.by_piece(Piece::new(!us, Role::Pawn));
        if capturers.any() {
            self.ep_square = Some(skipped);
            zobrist::en_passant_key(skipped.file())
        } else {
            0
        }
    }

    /// The key change from castling rights `old` to `new` when `mover` (a mailbox code) left
    /// `from`: the rights' sides are judged with the kings where they stood before the move.
    #[inline(never)]
    fn castling_change_key(&self, old: CastlingRights, new: CastlingRights, mover: u8, from: Square) -> u64 {
        let us = self.turn;
        let mut kings = [self.board.king_of(Color::White), self.board.king_of(Color::Black)];
        if code::role_bits(mover) == Role::King.index() {
            kings[us.index()] = Some(from);
        }
        zobrist::castling_rights_key(old, kings) ^ zobrist::castling_rights_key(new, kings)
    }

    /// Castles, en passant and promotions: updates the board, returns the key change of the
    /// pieces moved, records the capture in `undo`.
    #[inline(never)]
    fn make_special(&mut self, m: Move, mover: u8, undo: &mut Undo) -> u64 {
        let us = self.turn;
        let (from, to) = (m.from(), m.to());
        match m.kind() {
            kind @ (MoveKind::KingCastle | MoveKind::QueenCastle) => {
                let side = kind.castling_side().unwrap_or(crate::types::CastlingSide::KingSide);
                let (king_to, rook_to) = (side.king_to(us), side.rook_to(us));
                let rook = code::encode(Piece::new(us, Role::Rook));
                // Both leave before either lands: in Chess960 the squares may overlap.
                self.board.take_code(from, mover);
                self.board.take_code(to, rook);
                self.board.put_code(king_to, mover);
                self.board.put_code(rook_to, rook);
                zobrist::code_key(mover, from)
                    ^ zobrist::code_key(mover, king_to)
                    ^ zobrist::code_key(rook, to)
                    ^ zobrist::code_key(rook, rook_to)
            }
            MoveKind::EnPassant => {
                let victim_sq = Square::from_coords(to.file(), from.rank());
                let victim = code::encode(Piece::new(!us, Role::Pawn));
                self.board.take_code(victim_sq, victim);
                self.board.relocate_code(from, to, mover);
                undo.captured = victim;
                zobrist::code_key(victim, victim_sq) ^ zobrist::code_key(mover, from) ^ zobrist::code_key(mover, to)
            }
            kind => {
                let mut key = 0;
                if kind.is_capture() {
                    let victim = self.board.code_at(to);
                    self.board.take_code(to, victim);
                    key ^= zobrist::code_key(victim, to);
                    undo.captured = victim;
                }
                let promoted = code::encode(Piece::new(us, kind.promotion_role().unwrap_or(Role::Queen)));
                self.board.take_code(from, mover);
                self.board.put_code(to, promoted);
                key ^ zobrist::code_key(mover, from) ^ zobrist::code_key(promoted, to)
            }
        }
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

    /// Takes back `m`, made by [`Position::play_unchecked`] which returned `undo`.
    #[inline]
    pub fn unmake_move(&mut self, m: Move, undo: Undo) {
        let us = !self.turn;
        let (from, to) = (m.from(), m.to());
        let kind = m.bits() >> 12;
        if kind == QUIET || kind == DOUBLE_PUSH || kind == CAPTURE {
            let mover = self.board.code_at(to);
            self.board.relocate_code(to, from, mover);
            if kind == CAPTURE {
                self.board.put_code(to, undo.captured);
            }
        } else {
            self.unmake_special(m, undo);
        }
        self.fullmove_number = undo.fullmove_number;
        self.turn = us;
        self.key = undo.key;
        self.castling = undo.castling;
        self.halfmove_clock = undo.halfmove_clock;
        self.ep_square = undo.ep_square;
    }

    /// The board part of taking back a castle, en passant or promotion.
    #[inline(never)]
    fn unmake_special(&mut self, m: Move, undo: Undo) {
        let us = !self.turn;
        let (from, to) = (m.from(), m.to());
        match m.kind() {
            kind @ (MoveKind::KingCastle | MoveKind::QueenCastle) => {
                let side = kind.castling_side().unwrap_or(crate::types::CastlingSide::KingSide);
                let (king, rook) = (Piece::new(us, Role::King), Piece::new(us, Role::Rook));
                let (king, rook) = (code::encode(king), code::encode(rook));
                self.board.take_code(side.king_to(us), king);
                self.board.take_code(side.rook_to(us), rook);
                self.board.put_code(from, king);
                self.board.put_code(to, rook);
            }
            MoveKind::EnPassant => {
                let mover = self.board.code_at(to);
                self.board.relocate_code(to, from, mover);
                self.board
                    .put_code(Square::from_coords(to.file(), from.rank()), undo.captured);
            }
            _ => {
                let promoted = self.board.code_at(to);
                self.board.take_code(to, promoted);
                self.board.put_code(from, code::encode(Piece::new(us, Role::Pawn)));
                if undo.captured != code::EMPTY {
                    self.board.put_code(to, undo.captured);
                }
            }
        }
    }

    /// Passes the turn. Must not be called when in check.
    pub fn make_null_move(&mut self) -> Undo {
        debug_assert!(!self.is_check(), "null move while in check");
        let undo = self.undo_record();
        let mut key = self.key ^ zobrist::white_to_move_key();
        if let Some(ep) = self.ep_square.take() {
            key ^= zobrist::en_passant_key(ep.file());
        }
        self.halfmove_clock = self.halfmove_clock.saturating_add(1);
        if self.turn == Color::Black {
            self.fullmove_number = self.fullmove_number.saturating_add(1);
        }
        self.turn = !self.turn;
        self.key = key;
        undo
    }

    /// Takes back a null move.
    pub fn unmake_null_move(&mut self, undo: Undo) {
        self.turn = !self.turn;
        self.fullmove_number = undo.fullmove_number;
        self.key = undo.key;
        self.castling = undo.castling;
        self.halfmove_clock = undo.halfmove_clock;
        self.ep_square = undo.ep_square;
    }
}
