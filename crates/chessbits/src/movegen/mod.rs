//! Legal and pseudo-legal move generation, `gives_check`, and perft.
//!
//! Generation works on sets: each piece hands its whole target bitboard to a sink, pawns move as
//! whole sets. Counting ([`Position::count_legal_moves`], bulk-counted [`perft`]) popcounts those
//! sets; listing expands them into a [`MoveList`] in a fixed order (king, knights, bishops, rooks,
//! queens, pawns, en passant, castles; captures before quiet moves per piece), so move indices
//! are deterministic.

mod check;
mod generate;
mod legality;
mod move_set;
mod perft;
mod see;
pub mod suite;

pub use legality::IllegalMove;
pub use move_set::{MoveSet, PawnMoveKind};
pub use perft::{perft, perft_divide, perft_with, PerftMode, MAX_PERFT_DEPTH};
pub use see::SEE_VALUES;

use crate::moves::MoveList;
use crate::position::Position;
use generate::{generate, Class};

impl Position {
    /// Fills `list` with the legal moves (clearing it first).
    ///
    /// ```
    /// use chessbits::lists::MoveList;
    /// use chessbits::position::Position;
    /// let pos = Position::from_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq -").unwrap();
    /// let mut list = MoveList::new();
    /// pos.legal_moves(&mut list);
    /// assert_eq!(list.len(), 48);
    /// ```
    pub fn legal_moves(&self, list: &mut MoveList) {
        list.clear();
        generate::<true, _>(self, Class::All, &mut |set: MoveSet| set.push_into(list));
    }

    /// Fills `list` with the legal captures (en passant included) and promotions.
    pub fn tactical_moves(&self, list: &mut MoveList) {
        list.clear();
        generate::<true, _>(self, Class::Tactical, &mut |set: MoveSet| set.push_into(list));
    }

    /// Fills `list` with the legal moves that are neither captures nor promotions.
    pub fn quiet_moves(&self, list: &mut MoveList) {
        list.clear();
        generate::<true, _>(self, Class::Quiet, &mut |set: MoveSet| set.push_into(list));
    }

    /// Fills `list` with the pseudo-legal moves: moves by the rules of each piece that may leave
    /// the own king in check. Castling is generated only when legal (as in python-chess).
    pub fn pseudo_legal_moves(&self, list: &mut MoveList) {
        list.clear();
        generate::<false, _>(self, Class::All, &mut |set: MoveSet| set.push_into(list));
    }

    /// The number of legal moves, counted without listing them.
    ///
    /// ```
    /// use chessbits::position::Position;
    /// assert_eq!(Position::startpos().count_legal_moves(), 20);
    /// ```
    #[inline]
    pub fn count_legal_moves(&self) -> usize {
        let mut count = 0;
        generate::<true, _>(self, Class::All, &mut |set: MoveSet| count += set.len());
        count
    }

    /// Calls `f` with the legal moves as [`MoveSet`]s: sets of targets of one piece, sets of
    /// pawn moves of one kind, and single moves (en passant, castling). Counting them needs only
    /// [`MoveSet::len`]; [`MoveSet::for_each`] expands them.
    #[inline]
    pub fn for_each_legal_set(&self, mut f: impl FnMut(MoveSet)) {
        generate::<true, _>(self, Class::All, &mut f);
    }

    /// Like [`Position::for_each_legal_set`], for pseudo-legal moves.
    #[inline]
    pub fn for_each_pseudo_legal_set(&self, mut f: impl FnMut(MoveSet)) {
        generate::<false, _>(self, Class::All, &mut f);
    }

    /// The side to move is checkmated.
    pub fn is_checkmate(&self) -> bool {
        self.is_check() && self.count_legal_moves() == 0
    }

    /// The side to move has no legal move and is not in check.
    pub fn is_stalemate(&self) -> bool {
        !self.is_check() && self.count_legal_moves() == 0
    }
}
