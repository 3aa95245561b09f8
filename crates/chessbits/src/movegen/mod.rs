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

use core::ops::ControlFlow;

use crate::moves::{Move, MoveList};
use crate::position::Position;
use generate::{generate, Class};

impl Position {
    /// The legal moves, in the generator's fixed order (see the [module docs](self)).
    ///
    /// ```
    /// use chessbits::position::Position;
    /// let pos = Position::from_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq -").unwrap();
    /// assert_eq!(pos.legal_moves().len(), 48);
    /// assert!(pos.legal_moves().iter().any(|m| m.to_string() == "e1g1"));
    /// ```
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.legal_moves_into(&mut list);
        list
    }

    /// Fills `list` with the legal moves (clearing it first): [`Position::legal_moves`] without
    /// a new list, for a loop that reuses one.
    ///
    /// ```
    /// use chessbits::lists::MoveList;
    /// use chessbits::position::Position;
    /// let mut list = MoveList::new();
    /// Position::startpos().legal_moves_into(&mut list);
    /// assert_eq!(list.len(), 20);
    /// ```
    pub fn legal_moves_into(&self, list: &mut MoveList) {
        list.clear();
        generate::<true, _>(self, Class::All, &mut |set: MoveSet| set.push_into(list));
    }

    /// The legal captures (en passant included) and promotions.
    ///
    /// ```
    /// use chessbits::position::Position;
    /// let pos = Position::from_fen("4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1").unwrap();
    /// assert_eq!(pos.tactical_moves().len(), 1);
    /// ```
    pub fn tactical_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.tactical_moves_into(&mut list);
        list
    }

    /// Fills `list` with the legal captures (en passant included) and promotions.
    pub fn tactical_moves_into(&self, list: &mut MoveList) {
        list.clear();
        generate::<true, _>(self, Class::Tactical, &mut |set: MoveSet| set.push_into(list));
    }

    /// The legal moves that are neither captures nor promotions.
    ///
    /// ```
    /// use chessbits::position::Position;
    /// assert_eq!(Position::startpos().quiet_moves().len(), 20);
    /// ```
    pub fn quiet_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.quiet_moves_into(&mut list);
        list
    }

    /// Fills `list` with the legal moves that are neither captures nor promotions.
    pub fn quiet_moves_into(&self, list: &mut MoveList) {
        list.clear();
        generate::<true, _>(self, Class::Quiet, &mut |set: MoveSet| set.push_into(list));
    }

    /// The pseudo-legal moves: moves by the rules of each piece that may leave the own king in
    /// check. Castling is generated only when legal (as in python-chess).
    ///
    /// ```
    /// use chessbits::position::Position;
    /// // The pinned knight's moves are pseudo-legal, not legal.
    /// let pos = Position::from_fen("4k3/4r3/8/8/8/8/4N3/4K3 w - - 0 1").unwrap();
    /// assert_eq!(pos.pseudo_legal_moves().len(), pos.legal_moves().len() + 6);
    /// ```
    pub fn pseudo_legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.pseudo_legal_moves_into(&mut list);
        list
    }

    /// Fills `list` with the pseudo-legal moves (see [`Position::pseudo_legal_moves`]).
    pub fn pseudo_legal_moves_into(&self, list: &mut MoveList) {
        list.clear();
        generate::<false, _>(self, Class::All, &mut |set: MoveSet| set.push_into(list));
    }

    /// Calls `f` with each legal move, in [`Position::legal_moves`] order, until it returns
    /// [`ControlFlow::Break`], and returns what stopped it. Nothing is listed: a search for one
    /// move (a capture of the king, a mate in one) ends with it. (The generator still hands over
    /// the remaining per-piece target sets, a few bitboard operations, but none is expanded.)
    ///
    /// ```
    /// use core::ops::ControlFlow;
    /// use chessbits::position::Position;
    /// let pos = Position::from_fen("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1").unwrap();
    /// let mate = pos.try_for_each_legal_move(|m| {
    ///     let mut next = pos.clone();
    ///     next.play_unchecked(m);
    ///     if next.is_checkmate() { ControlFlow::Break(m) } else { ControlFlow::Continue(()) }
    /// });
    /// assert_eq!(mate.break_value().map(|m| m.to_string()), Some("a1a8".to_string()));
    /// ```
    pub fn try_for_each_legal_move<B>(&self, mut f: impl FnMut(Move) -> ControlFlow<B>) -> ControlFlow<B> {
        let mut stop = None;
        generate::<true, _>(self, Class::All, &mut |set: MoveSet| {
            if stop.is_none() {
                set.for_each(|m| {
                    if stop.is_none() {
                        if let ControlFlow::Break(value) = f(m) {
                            stop = Some(value);
                        }
                    }
                });
            }
        });
        match stop {
            Some(value) => ControlFlow::Break(value),
            None => ControlFlow::Continue(()),
        }
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
