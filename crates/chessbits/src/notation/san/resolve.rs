//! SAN against a position: resolving notation to a move, and writing a move as SAN.
//!
//! Both directions look only at the pieces that could make the move: the attackers of the target
//! square of the named role, found with the attack tables, then checked for legality with one
//! attack query on the king. No move list is generated, except for castling (rare) and mate
//! detection after a checking move.

use super::{San, SanError, SanPlus, Suffix};
use crate::attacks;
use crate::moves::{Move, MoveKind};
use crate::position::{Board, Position};
use crate::types::{Bitboard, CastlingSide, File, Piece, Rank, Role, Square};

/// The squares a rook (`[0]`) and a bishop (`[1]`) reach from each square on an empty board:
/// 1 KiB, so that "could a slider on `a` reach `b`" is one load and a bit test, where a magic
/// lookup would touch the large slider table.
static RAYS: [[Bitboard; 64]; 2] = {
    let mut rays = [[Bitboard::EMPTY; 64]; 2];
    let mut a = 0;
    while a < 64 {
        let mut b = 0;
        while b < 64 {
            let (df, dr) = ((a % 8) as i32 - (b % 8) as i32, (a / 8) as i32 - (b / 8) as i32);
            if a != b && (df == 0 || dr == 0) {
                rays[0][a].0 |= 1 << b;
            }
            if a != b && (df == dr || df == -dr) {
                rays[1][a].0 |= 1 << b;
            }
            b += 1;
        }
        a += 1;
    }
    rays
};

/// Where a rook on `sq` reaches on an empty board.
#[inline(always)]
fn straight_rays(sq: Square) -> Bitboard {
    RAYS[0][sq.index()]
}

/// Where a bishop on `sq` reaches on an empty board.
#[inline(always)]
fn diagonal_rays(sq: Square) -> Bitboard {
    RAYS[1][sq.index()]
}

/// The sliders among `candidates` that reach `sq` along their lines with `occupied` blocking:
/// rooks and queens on its file or rank, bishops and queens on its diagonals, nothing between.
#[inline(always)]
fn sliders_reaching(board: &Board, candidates: Bitboard, sq: Square, occupied: Bitboard) -> Bitboard {
    let aligned =
        ((straight_rays(sq) & board.straight_sliders()) | (diagonal_rays(sq) & board.diagonal_sliders())) & candidates;
    let mut reaching = Bitboard::EMPTY;
    for slider in aligned {
        if (attacks::between(slider, sq) & occupied).is_empty() {
            reaching = reaching.with(slider);
        }
    }
    reaching
}

/// The squares `role` of the side to move could come from to reach `to` (pseudo-legally).
/// Pawns are handled separately.
#[inline]
fn piece_origins(pos: &Position, role: Role, to: Square) -> Bitboard {
    let board = pos.board();
    let pieces = board.by_piece(Piece::new(pos.turn(), role));
    match role {
        Role::Knight => attacks::knight(to) & pieces,
        Role::King => attacks::king(to) & pieces,
        Role::Pawn => Bitboard::EMPTY,
        // A queen counts as both slider kinds, so one filter serves all three roles.
        _ => sliders_reaching(board, pieces, to, board.occupied()),
    }
}

/// The pieces giving check to the side to move.
///
/// Like [`Position::checkers`], but sliders are first filtered with the small empty-board ray
/// table: in a game most of the opponent's sliders are on no line with the king.
#[inline(always)]
fn checkers(pos: &Position) -> Bitboard {
    let us = pos.turn();
    let board = pos.board();
    let king = pos.king(us);
    let theirs = board.by_color(!us);
    let leapers = ((attacks::knight(king) & board.by_role(Role::Knight))
        | (attacks::pawn(us, king) & board.by_role(Role::Pawn)))
        & theirs;
    leapers | sliders_reaching(board, theirs, king, board.occupied())
}

/// Whether the opponent attacks `sq` once our king has left its square (a capture on `sq`
/// included): where the king may not go.
#[inline]
fn is_attacked_without_king(pos: &Position, sq: Square) -> bool {
    let us = pos.turn();
    let board = pos.board();
    let theirs = board.by_color(!us).without(sq);
    let leapers = (attacks::knight(sq) & board.by_role(Role::Knight))
        | (attacks::king(sq) & board.by_role(Role::King))
        | (attacks::pawn(us, sq) & board.by_role(Role::Pawn));
    if (leapers & theirs).any() {
        return true;
    }
    let occupied = board.occupied().without(pos.king(us));
    sliders_reaching(board, theirs, sq, occupied).any()
}

/// Whether the pseudo-legal non-castling move `from`→`to` (en passant if `en_passant`) leaves
/// the mover's king safe, `checkers` being the pieces that give check now.
///
/// One attack query with the occupancy after the move answers every case: pins, check evasion
/// by capture or block, king moves into attacked squares, the en passant discovered check.
#[inline(always)]
fn is_safe(pos: &Position, from: Square, to: Square, en_passant: bool, checkers: Bitboard) -> bool {
    let us = pos.turn();
    let board = pos.board();
    let king = pos.king(us);
    if from == king {
        return !is_attacked_without_king(pos, to);
    }
    if checkers.is_empty() && !en_passant {
        // Not in check: only a pin can make the move illegal, and a pinned piece stands on a
        // line with its king; most pieces do not. Pinned if a slider on that line, beyond the
        // piece, sees the king once the piece has moved.
        let line = attacks::line(king, from);
        if line.is_empty() {
            return true;
        }
        let occupied = board.occupied().without(from).with(to);
        return (sliders_reaching(board, board.by_color(!us).without(to) & line, king, occupied)).is_empty();
    }
    if checkers.more_than_one() {
        return false;
    }
    let mut removed = Bitboard::from_square(from);
    let mut captured = Bitboard::from_square(to);
    if en_passant {
        let victim = Square::from_coords(to.file(), from.rank());
        removed = removed.with(victim);
        captured = captured.with(victim);
    }
    let occupied = (board.occupied() - removed).with(to);
    (pos.attackers_to(king, !us, occupied) - captured).is_empty()
}

/// The origins of a pawn move to `to`, and whether it is en passant.
#[inline]
fn pawn_origins(pos: &Position, to: Square) -> (Bitboard, bool) {
    let us = pos.turn();
    let board = pos.board();
    let pawns = board.by_piece(Piece::new(us, Role::Pawn));
    let en_passant = pos.ep_square() == Some(to);
    if pos.them().contains(to) || en_passant {
        return (attacks::pawn(!us, to) & pawns, en_passant);
    }
    let target = Bitboard::from_square(to);
    let single = target.backward(us);
    if (single & pawns).any() {
        return (single & pawns, false);
    }
    // A double push crosses an empty square from the second rank.
    let double = single.backward(us) & Bitboard::relative_rank(us, Rank::SECOND);
    if (single & board.occupied()).is_empty() && to.rank() == Rank::FOURTH.relative_to(us) {
        return (double & pawns, false);
    }
    (Bitboard::EMPTY, false)
}

/// The move kind of a pseudo-legal pawn or piece move `from`→`to`.
#[inline]
fn kind_of(
    pos: &Position,
    role: Role,
    from: Square,
    to: Square,
    en_passant: bool,
    promotion: Option<Role>,
) -> MoveKind {
    let capture = pos.them().contains(to);
    if en_passant {
        MoveKind::EnPassant
    } else if let Some(promoted) = promotion {
        MoveKind::promotion(promoted, capture)
    } else if capture {
        MoveKind::Capture
    } else if role == Role::Pawn && from.distance(to) == 2 {
        MoveKind::DoublePush
    } else {
        MoveKind::Quiet
    }
}

/// The castle on `side`, if legal.
///
/// Decided without generating moves: not in check, the squares both pieces cross (and land on)
/// empty but for themselves, and no square the king crosses or lands on attacked with both
/// pieces lifted. Lifting the rook is what Chess960 needs (a rook may shield the king's path
/// along the back rank); it never hides an attack in standard chess.
fn castle(pos: &Position, side: CastlingSide) -> Result<Move, SanError> {
    let us = pos.turn();
    let king = pos.king(us);
    let rook = pos.castling().rook(us, side, king).ok_or(SanError::Illegal)?;
    if pos.is_check() {
        return Err(SanError::Illegal);
    }
    let (king_to, rook_to) = (side.king_to(us), side.rook_to(us));
    let king_path = attacks::between(king, king_to).with(king_to);
    let rook_path = attacks::between(rook, rook_to).with(rook_to);
    let lifted = pos.board().occupied().without(king).without(rook);
    if ((king_path | rook_path) & lifted).any() {
        return Err(SanError::Illegal);
    }
    if king_path.into_iter().any(|sq| pos.attackers_to(sq, !us, lifted).any()) {
        return Err(SanError::Illegal);
    }
    Ok(Move::castle(king, rook, side))
}

/// A castle written as a king move: `Ke1g1`, `e1c1` (UCI) or the king taking its own rook.
fn castle_by_king_move(pos: &Position, from_mask: Bitboard, to: Square) -> Result<Move, SanError> {
    let us = pos.turn();
    let king = pos.king(us);
    if !from_mask.contains(king) {
        return Err(SanError::Illegal);
    }
    for side in CastlingSide::ALL {
        let Some(rook) = pos.castling().rook(us, side, king) else {
            continue;
        };
        // The two-square king step means castling only in standard chess: in Chess960 a king
        // may step two squares along the back rank in no other way either, but keep to the
        // unambiguous forms.
        let king_step = to == side.king_to(us) && king.distance(to) == 2 && king.rank() == to.rank();
        if to == rook || king_step {
            return castle(pos, side);
        }
    }
    Err(SanError::Illegal)
}

fn resolve_normal(
    pos: &Position,
    mut role: Role,
    file: Option<File>,
    rank: Option<Rank>,
    to: Square,
    promotion: Option<Role>,
) -> Result<Move, SanError> {
    let us = pos.turn();
    let mut from_mask = Bitboard::FULL;
    if let Some(file) = file {
        from_mask &= Bitboard::from_file(file);
    }
    if let Some(rank) = rank {
        from_mask &= Bitboard::from_rank(rank);
    }
    // Long algebraic without a piece letter (`g1f3`, `e1g1`): the piece on the origin decides.
    if let (Role::Pawn, Some(file), Some(rank)) = (role, file, rank) {
        if let Some(piece) = pos.piece_at(Square::from_coords(file, rank)) {
            if piece.color == us {
                role = piece.role;
            }
        }
    }
    if pos.us().contains(to) {
        return match role {
            Role::King => castle_by_king_move(pos, from_mask, to),
            _ => Err(SanError::Illegal),
        };
    }
    let last_rank = to.rank() == Rank::EIGHTH.relative_to(us);
    let (origins, en_passant) = match role {
        Role::Pawn => {
            if last_rank != promotion.is_some() {
                return Err(SanError::Illegal);
            }
            pawn_origins(pos, to)
        }
        _ if promotion.is_some() => return Err(SanError::Illegal),
        _ => (piece_origins(pos, role, to), false),
    };
    let checkers = checkers(pos);
    let mut found = None;
    for from in origins & from_mask {
        if is_safe(pos, from, to, en_passant, checkers) {
            if found.is_some() {
                return Err(SanError::Ambiguous);
            }
            found = Some(Move::new(from, to, kind_of(pos, role, from, to, en_passant, promotion)));
        }
    }
    match found {
        Some(m) => Ok(m),
        None if role == Role::King => castle_by_king_move(pos, from_mask, to),
        None => Err(SanError::Illegal),
    }
}

impl San {
    /// The legal move this notation names in `pos`.
    ///
    /// Lenient in what it matches: a wrong or missing capture mark is ignored, a superfluous
    /// disambiguation only has to agree, long algebraic without a piece letter takes the piece
    /// on the origin square, and a king move onto its castling square or its own rook is the
    /// castle. A promotion must be written (no default to a queen). [`San::Null`] gives
    /// [`Move::NULL`], whatever the position: play it with [`Position::make_null_move`].
    ///
    /// ```
    /// use chessbits::notation::san::{San, SanError};
    /// use chessbits::position::Position;
    /// let pos = Position::from_fen("4k3/8/8/8/8/8/8/3NK2N w - - 0 1").unwrap();
    /// let ambiguous: San = "Nf2".parse().unwrap();
    /// assert_eq!(ambiguous.to_move(&pos), Err(SanError::Ambiguous));
    /// let clear: San = "Nhf2".parse().unwrap();
    /// assert_eq!(clear.to_move(&pos).unwrap().to_string(), "h1f2");
    /// ```
    pub fn to_move(&self, pos: &Position) -> Result<Move, SanError> {
        match *self {
            San::Normal {
                role,
                file,
                rank,
                capture: _,
                to,
                promotion,
            } => resolve_normal(pos, role, file, rank, to, promotion),
            San::Castle(side) => castle(pos, side),
            San::Null => Ok(Move::NULL),
        }
    }

    /// The SAN of the legal move `m` in `pos`, without suffix, with minimal disambiguation:
    /// none if the move is unique, else the origin file if that tells the pieces apart, else
    /// the rank, else both. ([`Move::NULL`] gives [`San::Null`]. For an illegal move the result
    /// is unspecified, but there is no panic.)
    ///
    /// ```
    /// use chessbits::notation::san::San;
    /// use chessbits::notation::uci::parse_uci;
    /// use chessbits::position::Position;
    /// // Three queens reach e4: a4 and h4 share the rank, h4 and h1 the file.
    /// let pos = Position::from_fen("8/2k5/8/8/Q6Q/8/8/K6Q w - - 0 1").unwrap();
    /// let m = parse_uci(&pos, "h4e4").unwrap();
    /// assert_eq!(San::from_move(&pos, m).to_string(), "Qh4e4");
    /// let m = parse_uci(&pos, "a4e4").unwrap();
    /// assert_eq!(San::from_move(&pos, m).to_string(), "Qae4");
    /// ```
    pub fn from_move(pos: &Position, m: Move) -> San {
        if m.is_null() {
            return San::Null;
        }
        if let Some(side) = m.castling_side() {
            return San::Castle(side);
        }
        let (from, to) = (m.from(), m.to());
        let role = pos.board().role_at(from).unwrap_or(Role::Pawn);
        let capture = m.is_capture();
        if role == Role::Pawn {
            let file = if capture { Some(from.file()) } else { None };
            return San::Normal {
                role,
                file,
                rank: None,
                capture,
                to,
                promotion: m.promotion(),
            };
        }
        let mut others = Bitboard::EMPTY;
        if role != Role::King {
            let checkers = checkers(pos);
            for other in piece_origins(pos, role, to).without(from) {
                if is_safe(pos, other, to, false, checkers) {
                    others = others.with(other);
                }
            }
        }
        let (file, rank) = if others.is_empty() {
            (None, None)
        } else if (others & Bitboard::from_file(from.file())).is_empty() {
            (Some(from.file()), None)
        } else if (others & Bitboard::from_rank(from.rank())).is_empty() {
            (None, Some(from.rank()))
        } else {
            (Some(from.file()), Some(from.rank()))
        };
        San::normal(role, file, rank, capture, to)
    }
}

/// The suffix the legal move `m` earns in `pos`: `#` if it mates, `+` if it checks.
///
/// ```
/// use chessbits::notation::san::{suffix_of, Suffix};
/// use chessbits::notation::uci::parse_uci;
/// use chessbits::position::Position;
/// let pos = Position::from_fen("rnbqkbnr/ppppp2p/5p2/6p1/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 3").unwrap();
/// assert_eq!(suffix_of(&pos, parse_uci(&pos, "d1h5").unwrap()), Some(Suffix::Checkmate));
/// ```
pub fn suffix_of(pos: &Position, m: Move) -> Option<Suffix> {
    if m.is_null() || !pos.gives_check(m) {
        return None;
    }
    let mut after = pos.clone();
    after.play_unchecked(m);
    Some(if after.is_checkmate() {
        Suffix::Checkmate
    } else {
        Suffix::Check
    })
}

/// The SAN of the legal move `m` in `pos`, with its check or mate suffix: the method
/// [`Position::san`] (`pos.san(m)`) is the same and the documented way.
///
/// ```
/// use chessbits::notation::san::san_of;
/// use chessbits::notation::uci::parse_uci;
/// use chessbits::position::Position;
/// let pos = Position::from_fen("3k4/8/8/8/8/8/8/R3K2R w KQ - 0 1").unwrap();
/// assert_eq!(san_of(&pos, parse_uci(&pos, "e1c1").unwrap()).to_string(), "O-O-O+");
/// assert_eq!(san_of(&pos, parse_uci(&pos, "a1a8").unwrap()).to_string(), "Ra8+");
/// ```
pub fn san_of(pos: &Position, m: Move) -> SanPlus {
    SanPlus {
        san: San::from_move(pos, m),
        suffix: suffix_of(pos, m),
    }
}

impl SanPlus {
    /// Same as [`san_of`].
    ///
    /// ```
    /// use chessbits::notation::san::SanPlus;
    /// use chessbits::notation::uci::parse_uci;
    /// use chessbits::position::Position;
    /// let pos = Position::startpos();
    /// assert_eq!(SanPlus::from_move(&pos, parse_uci(&pos, "e2e4").unwrap()).to_string(), "e4");
    /// ```
    pub fn from_move(pos: &Position, m: Move) -> SanPlus {
        san_of(pos, m)
    }
}
