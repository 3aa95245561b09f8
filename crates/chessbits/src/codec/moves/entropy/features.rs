//! The model's features: which parameters a move switches on, computed from bitboards prepared once
//! per position. One generic function lists the terms of a move; the coder sums parameters through
//! it, the offline tuner records them through it, so both always see the same features.
//!
//! Speed notes: the attack maps are built one piece at a time with the library's attack tables
//! (the move generator just used them, so they are in cache; this measured cheaper than
//! Kogge-Stone fills of whole piece sets). The coder scores a move with
//! [`Info::fast_move_score`], which folds everything that depends on the moving piece's role into
//! [`RoleTerms`] once per role (the danger class of every square as three bit planes among them)
//! and everything that depends on the square left into an [`Origin`] once per moving piece;
//! castles, en passant, promotions and discovered checks take the generic [`Info::move_terms`],
//! which the tuner also uses (a test checks both give the same integers). The encoder and the
//! decoder score the generator's target sets directly with [`Info::target_score`], without a
//! move list to read back (the decoder keeps the moves as they come); `MoveModel::frequencies`,
//! given a list, scores it move by move.
//! See the parent module's docs for the feature list and formulas.

use crate::attacks;
use crate::moves::Move;
use crate::position::{Board, Position};
use crate::types::geometry::{self, DIAGONAL, FILE_A, FILE_B, FILE_G, FILE_H, ORTHOGONAL};
use crate::types::{Bitboard, Color, Role, Square};

/// Parameter offsets. Tapered tables hold two parameters per entry: middle game, then end game.
///
/// ```
/// use chessbits::codec::moves::entropy::model::layout;
/// assert_eq!(layout::NONE, 0);
/// assert_eq!(layout::PST_TO - layout::PST_FROM, 6 * 64 * 2);
/// assert!(layout::PARAM_COUNT < 16 * 1024);
/// ```
pub mod layout {
    /// Always zero: what a feature that is off adds.
    pub const NONE: usize = 0;
    /// Piece-square table of the square left: `[role][relative square]`, tapered.
    pub const PST_FROM: usize = 1;
    /// Piece-square table of the square reached: `[role][relative square]`, tapered.
    pub const PST_TO: usize = PST_FROM + 6 * 64 * 2;
    /// The mover: `[role][attacked by the piece the opponent just moved][is the piece we moved last]`.
    pub const MOVER: usize = PST_TO + 6 * 64 * 2;
    /// Distance from the square left to the opponent's last target: `[0..8]`.
    pub const NEAR_LAST_FROM: usize = MOVER + 6 * 2 * 2;
    /// The tactical class of a move: `[role][victim: none, pawn..queen][danger class 0..6][mover
    /// threatened][gives direct check; for the king: may still castle]`.
    pub const TACTICS: usize = NEAR_LAST_FROM + 8;
    /// Distance from the target to the opponent's last target: `[role][capture][that move was a
    /// capture][0..8]`.
    pub const NEAR_LAST_TO: usize = TACTICS + 6 * 6 * 6 * 2 * 2;
    /// Discovered check.
    pub const DISCOVERED_CHECK: usize = NEAR_LAST_TO + 6 * 2 * 2 * 8;
    /// Promotion: `[knight, bishop, rook, queen]`.
    pub const PROMOTION: usize = DISCOVERED_CHECK + 1;
    /// Castling: `[king side, queen side]`.
    pub const CASTLE: usize = PROMOTION + 4;
    /// The mover goes to a threat square of its role from a square that is not one: `[role]`.
    pub const THREAT: usize = CASTLE + 2;
    /// Times this side played the same from-to before in this game, and whether the move undoes
    /// our last move: `[0, 1, more][undo]`.
    pub const HISTORY: usize = THREAT + 6;
    /// Opening piece-square tables up to full move 20: `[bucket][from, to][role][relative
    /// square]`, buckets by full-move number as in `OPENING_BUCKET`.
    pub const OPENING: usize = HISTORY + 3 * 2;
    /// Number of parameters.
    pub const PARAM_COUNT: usize = OPENING + 12 * 2 * 6 * 64;
}

use layout::*;

/// Receives the terms of a move: a flat parameter counts fully; a tapered pair `(mg, mg + 1)` is
/// blended by the game phase.
pub(super) trait Terms {
    fn flat(&mut self, param: usize);
    fn tapered(&mut self, param: usize);
}

/// What the model remembers of one ply.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct PlyMemory {
    pub from: Square,
    /// Where the moved piece went (the king's square for castling).
    pub to: Square,
    pub capture: bool,
}

/// Knight attacks of every knight in `knights`, one set per jump (two knights never reach the same
/// square with the same jump, so the sets count attackers exactly).
#[inline(always)]
fn knight_jumps(n: u64) -> [u64; 8] {
    const NOT_AB: u64 = !(FILE_A | FILE_B);
    const NOT_GH: u64 = !(FILE_H | FILE_G);
    [
        (n << 17) & !FILE_A,
        (n << 15) & !FILE_H,
        (n << 10) & NOT_AB,
        (n << 6) & NOT_GH,
        (n >> 15) & !FILE_A,
        (n >> 17) & !FILE_H,
        (n >> 6) & NOT_AB,
        (n >> 10) & NOT_GH,
    ]
}

/// Squares attacked by `pawns` of `color`: (towards the a-file, towards the h-file).
#[inline(always)]
fn pawn_captures(color: Color, pawns: u64) -> (u64, u64) {
    match color {
        Color::White => ((pawns & !FILE_A) << 7, (pawns & !FILE_H) << 9),
        Color::Black => ((pawns & !FILE_A) >> 9, (pawns & !FILE_H) >> 7),
    }
}

/// Counts attackers up to two: `once` = attacked at least once, `twice` = at least twice.
#[derive(Default)]
struct Coverage {
    once: u64,
    twice: u64,
}

impl Coverage {
    #[inline(always)]
    fn add(&mut self, set: u64) {
        self.twice |= self.once & set;
        self.once |= set;
    }
}

/// Empty-board lines from every square: `[diagonal, straight][square]`.
static LINES: [[u64; 64]; 2] = lines();

const fn lines() -> [[u64; 64]; 2] {
    let mut table = [[0u64; 64]; 2];
    let mut sq = 0;
    while sq < 64 {
        table[0][sq] = geometry::rays(sq, &DIAGONAL, 0);
        table[1][sq] = geometry::rays(sq, &ORTHOGONAL, 0);
        sq += 1;
    }
    table
}

/// Opening bucket of the full-move numbers 0..=20 (later moves have none): moves 1 to 8 one
/// bucket each (0 counts as 1), then 9-10, 11-12, 13-15 and 16-20.
const OPENING_BUCKET: [u8; 21] = [0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 8, 9, 9, 10, 10, 10, 11, 11, 11, 11, 11];

/// Danger class from the bits (attacked, by a pawn, by a cheaper piece, defended, attacked twice).
static DANGER_CLASS: [u8; 32] = danger_classes();

const fn danger_classes() -> [u8; 32] {
    let mut table = [0u8; 32];
    let mut key = 0;
    while key < 32 {
        let (attacked, pawn, cheaper, defended, twice) =
            (key & 1 != 0, key & 2 != 0, key & 4 != 0, key & 8 != 0, key & 16 != 0);
        table[key] = if !attacked {
            0
        } else if pawn {
            5
        } else if cheaper {
            4
        } else if !defended {
            3
        } else if twice {
            2
        } else {
            1
        };
        key += 1;
    }
    table
}

#[inline(always)]
fn bit(set: u64, sq: usize) -> usize {
    (set >> sq) as usize & 1
}

#[inline(always)]
fn distance(a: usize, b: usize) -> usize {
    let df = (a & 7).abs_diff(b & 7);
    let dr = (a >> 3).abs_diff(b >> 3);
    df.max(dr)
}

/// Bitboards and squares prepared once per position.
pub(super) struct Info {
    us: Color,
    /// `0` for White, `56` for Black: XOR with a square index gives the mover-relative square.
    flip: usize,
    /// Game phase 0 (bare kings and pawns) ..= 16 (all pieces).
    pub phase: i32,
    their_attacks: u64,
    their_double_attacks: u64,
    their_pawn_attacks: u64,
    /// Per role: squares attacked by a cheaper enemy piece other than a pawn.
    cheaper_attacks: [u64; 6],
    our_attacks: u64,
    our_double_attacks: u64,
    threatened: u64,
    attacked_by_last: u64,
    check_squares: [u64; 6],
    discoverers: u64,
    their_king: Square,
    /// Per role: the squares from which that piece of ours would attack one of its targets.
    threat_squares: [u64; 6],
    /// The opponent's last target square, 64 if none.
    last_to: usize,
    /// The king distances to `last_to`, the row of [`DISTANCE`] the fast scorer reads for every
    /// move, picked once per position (row 0 if there is no last move: the fast scorer's offset
    /// then points at zero parameters).
    near_row: &'static [u8; 64],
    /// `NEAR_LAST_TO` plus the offset of the last move's capture flag.
    near_last_to: usize,
    /// Our last move's squares, 64 if none.
    own_from: usize,
    own_to: usize,
    can_castle: bool,
    /// Offset of the opening tables of this move number, if any.
    opening: Option<usize>,
}

impl Info {
    /// Prepares the features of `pos` given the opponent's last move and our own last move.
    #[inline(never)]
    pub fn new(pos: &Position, last: Option<PlyMemory>, own_last: Option<PlyMemory>) -> Info {
        let board = pos.board();
        let us = pos.turn();
        let them = !us;
        let occupied = board.occupied().0;
        let ours = board.by_color(us).0;
        let theirs = board.by_color(them).0;
        let pawns = board.by_role(Role::Pawn).0;
        let knights = board.by_role(Role::Knight).0;
        let bishops = board.by_role(Role::Bishop).0;
        let rooks = board.by_role(Role::Rook).0;
        let queens = board.by_role(Role::Queen).0;
        let kings = board.by_role(Role::King).0;

        let material = (knights | bishops).count_ones() + 2 * rooks.count_ones() + 4 * queens.count_ones();
        let phase = (material.min(24) as i32 * 16 + 12) / 24;

        // Their attacks, keeping minor pieces and rooks apart for the cheaper-attacker test. One
        // attack set per piece: each (attacker, square) pair counts once, as it should.
        let occ = board.occupied();
        let mut cover = Coverage::default();
        let (west, east) = pawn_captures(them, pawns & theirs);
        cover.add(west);
        cover.add(east);
        let mut minor = 0;
        for sq in Bitboard(knights & theirs) {
            let set = attacks::knight(sq).0;
            cover.add(set);
            minor |= set;
        }
        for sq in Bitboard(bishops & theirs) {
            let set = attacks::bishop(sq, occ).0;
            cover.add(set);
            minor |= set;
        }
        let mut rook_attacks = 0;
        for sq in Bitboard(rooks & theirs) {
            let set = attacks::rook(sq, occ).0;
            cover.add(set);
            rook_attacks |= set;
        }
        for sq in Bitboard(queens & theirs) {
            cover.add(attacks::queen(sq, occ).0);
        }
        let their_king = pos.king(them);
        cover.add(attacks::king(their_king).0);
        let (their_attacks, their_double_attacks, their_pawn_attacks) = (cover.once, cover.twice, west | east);

        let mut cover = Coverage::default();
        let (west, east) = pawn_captures(us, pawns & ours);
        cover.add(west);
        cover.add(east);
        for sq in Bitboard(knights & ours) {
            cover.add(attacks::knight(sq).0);
        }
        for sq in Bitboard(bishops & ours) {
            cover.add(attacks::bishop(sq, occ).0);
        }
        for sq in Bitboard(rooks & ours) {
            cover.add(attacks::rook(sq, occ).0);
        }
        for sq in Bitboard(queens & ours) {
            cover.add(attacks::queen(sq, occ).0);
        }
        cover.add(attacks::king(pos.king(us)).0);
        let (our_attacks, our_double_attacks) = (cover.once, cover.twice);

        let threatened = (((ours & !pawns) & their_pawn_attacks)
            | (ours & (rooks | queens) & minor)
            | (ours & queens & rook_attacks)
            | (ours & their_attacks & !our_attacks))
            & !kings;

        let attacked_by_last = match last.and_then(|l| board.piece_at(l.to).map(|p| (l.to, p))) {
            Some((sq, piece)) if piece.color == them => attacks::attacks(piece, sq, occ).0 & ours,
            _ => 0,
        };

        let bishop_checks = attacks::bishop(their_king, occ).0;
        let rook_checks = attacks::rook(their_king, occ).0;
        let check_squares = [
            attacks::pawn(them, their_king).0,
            attacks::knight(their_king).0,
            bishop_checks,
            rook_checks,
            bishop_checks | rook_checks,
            0,
        ];

        let snipers = (LINES[1][their_king.index()] & ours & (rooks | queens))
            | (LINES[0][their_king.index()] & ours & (bishops | queens));
        let mut discoverers = 0;
        let mut rest = snipers;
        while rest != 0 {
            let sniper = Square::from_index_masked(rest.trailing_zeros());
            rest &= rest - 1;
            let blockers = attacks::between(sniper, their_king).0 & occupied;
            if blockers & blockers.wrapping_sub(1) == 0 {
                discoverers |= blockers & ours;
            }
        }

        // Targets per role and the squares from which our piece would attack one: the attacks of
        // the targets themselves, reversed (pawns capture backwards, sliders see through `empty`).
        let loose = theirs & !their_attacks & !kings;
        let for_pawns = (theirs & !pawns & !kings) | loose;
        let for_minors = (theirs & (rooks | queens)) | loose;
        let for_rooks = (theirs & queens) | loose;
        let (west, east) = pawn_captures(them, for_pawns);
        // Rook and queen targets include the loose pieces, and minor targets include both.
        let (mut bishop_lines, mut rook_lines, mut loose_lines) = (0, 0, 0);
        for sq in Bitboard(for_minors) {
            let diagonal = attacks::bishop(sq, occ).0;
            bishop_lines |= diagonal;
            let at = 1u64 << sq.index();
            if for_rooks & at != 0 {
                let straight = attacks::rook(sq, occ).0;
                rook_lines |= straight;
                if loose & at != 0 {
                    loose_lines |= diagonal | straight;
                }
            }
        }
        let threat_squares = [
            west | east,
            knight_jumps(for_minors).iter().fold(0, |a, &b| a | b),
            bishop_lines,
            rook_lines,
            loose_lines,
            0,
        ];

        Info {
            us,
            flip: if us == Color::White { 0 } else { 56 },
            phase,
            their_attacks,
            their_double_attacks,
            their_pawn_attacks,
            cheaper_attacks: [0, 0, 0, minor, minor | rook_attacks, 0],
            our_attacks,
            our_double_attacks,
            threatened,
            attacked_by_last,
            check_squares,
            discoverers,
            their_king,
            threat_squares,
            last_to: last.map_or(64, |l| l.to.index()),
            near_row: &DISTANCE[last.map_or(64, |l| l.to.index()) & 63],
            near_last_to: NEAR_LAST_TO + last.map_or(0, |l| l.capture as usize * 8),
            own_from: own_last.map_or(64, |l| l.from.index()),
            own_to: own_last.map_or(64, |l| l.to.index()),
            can_castle: pos.castling().has_color(us),
            opening: OPENING_BUCKET
                .get(pos.fullmove_number() as usize)
                .map(|&bucket| OPENING + bucket as usize * 2 * 6 * 64),
        }
    }

    /// Terms that depend only on the moving piece and the square it leaves.
    #[inline(always)]
    pub fn origin_terms<T: Terms>(&self, role: Role, from: Square, terms: &mut T) {
        let r = role.index();
        let f = from.index();
        terms.tapered(PST_FROM + (r * 64 + (f ^ self.flip)) * 2);
        if let Some(opening) = self.opening {
            terms.flat(opening + r * 64 + (f ^ self.flip));
        }
        let same = (self.own_to == f) as usize;
        terms.flat(MOVER + r * 4 + bit(self.attacked_by_last, f) * 2 + same);
        terms.flat(if self.last_to < 64 {
            NEAR_LAST_FROM + distance(f, self.last_to)
        } else {
            NONE
        });
    }

    /// Terms that depend on the whole move; `role` is the moving piece, `history` how often this side
    /// played the same from-to before in the game.
    #[inline(always)]
    pub fn move_terms<T: Terms>(&self, board: &Board, role: Role, m: Move, history: u8, terms: &mut T) {
        let r = role.index();
        let (from, to) = (m.from(), m.to());
        let (f, t) = (from.index(), to.index());
        if let Some(side) = m.castling_side() {
            let king_to = side.king_to(self.us).index();
            terms.tapered(PST_TO + (r * 64 + (king_to ^ self.flip)) * 2);
            terms.flat(CASTLE + side as usize);
            return;
        }
        terms.tapered(PST_TO + (r * 64 + (t ^ self.flip)) * 2);
        if let Some(opening) = self.opening {
            terms.flat(opening + 6 * 64 + r * 64 + (t ^ self.flip));
        }

        let capture = m.is_capture();
        // Only captures find a piece on the target square; en passant finds none but takes a pawn.
        let victim = board
            .role_at(to)
            .map_or(m.is_en_passant() as usize, |v| v.index().min(4) + 1);
        let defenders = if role != Role::Pawn || capture {
            self.our_double_attacks
        } else {
            self.our_attacks
        };
        let key = bit(self.their_attacks, t)
            | bit(self.their_pawn_attacks, t) << 1
            | bit(self.cheaper_attacks[r], t) << 2
            | bit(defenders, t) << 3
            | bit(self.their_double_attacks, t) << 4;
        let danger = DANGER_CLASS[key] as usize;
        let arriving = match m.promotion() {
            Some(promoted) => {
                terms.flat(PROMOTION + promoted.index() - 1);
                promoted.index()
            }
            None => r,
        };
        let flag = if role == Role::King {
            self.can_castle as usize
        } else {
            bit(self.check_squares[arriving], t)
        };
        terms.flat(TACTICS + (((r * 6 + victim) * 6 + danger) * 2 + bit(self.threatened, f)) * 2 + flag);
        if bit(self.discoverers, f) != 0 && !attacks::aligned(from, to, self.their_king) {
            terms.flat(DISCOVERED_CHECK);
        }

        // A new threat: the target square attacks a target, the square left did not.
        let threats = self.threat_squares[r];
        terms.flat(if bit(threats, t) > bit(threats, f) {
            THREAT + r
        } else {
            NONE
        });

        terms.flat(if self.last_to < 64 {
            self.near_last_to + r * 32 + capture as usize * 16 + distance(t, self.last_to)
        } else {
            NONE
        });
        let undo = (self.own_to == f && self.own_from == t) as usize;
        terms.flat(HISTORY + (history as usize).min(2) * 2 + undo);
    }
}

/// King distance between every two squares: `DISTANCE[a][b]`.
static DISTANCE: [[u8; 64]; 64] = distances();

const fn distances() -> [[u8; 64]; 64] {
    let mut table = [[0u8; 64]; 64];
    let mut a: usize = 0;
    while a < 64 {
        let mut b: usize = 0;
        while b < 64 {
            let df = (a % 8).abs_diff(b % 8);
            let dr = (a / 8).abs_diff(b / 8);
            table[a][b] = if df > dr { df as u8 } else { dr as u8 };
            b += 1;
        }
        a += 1;
    }
    table
}

/// The victim's offset in the tactics table (`victim · 24`, victim 0 for none, 1..=5 for pawn to
/// queen) by the mailbox role bits of the target square (6 and 7: empty). En passant, which
/// takes a pawn from another square, is left to the generic path.
const VICTIM_OFFSET: [u8; 8] = [24, 48, 72, 96, 120, 120, 0, 0];

/// The victim of a move to `to` as the fast scorer counts it: its offset in the tactics table
/// (see [`VICTIM_OFFSET`]), 0 if `to` is empty.
#[inline(always)]
pub(super) fn victim(board: &Board, to: Square) -> u32 {
    u32::from(VICTIM_OFFSET[usize::from(board.code_at(to) & 7)])
}

/// Move kinds the fast scorer leaves to [`Info::move_terms`]: castles (2, 3), en passant (5) and
/// promotions (8..16).
const SLOW_KINDS: u32 = 0xFF2C;

/// The danger class of every square as three bit planes (bit `j` of the class in plane `j`),
/// from the squares attacked by the opponent (`attacked`), by their pawns (`pawn`), by a
/// cheaper piece (`cheaper`), attacked twice (`twice`) and the squares we defend (`defended`):
/// the same class as [`DANGER_CLASS`] gives, for all squares at once.
#[inline(always)]
fn danger_planes(attacked: u64, pawn: u64, cheaper: u64, defended: u64, twice: u64) -> [u64; 3] {
    // Classes: not attacked 0, by a pawn 5, by a cheaper piece 4, undefended 3, attacked twice 2,
    // else 1.
    let rest = attacked & !pawn & !cheaper;
    [
        (attacked & pawn) | (rest & !(defended & twice)),
        rest & (!defended | twice),
        attacked & (pawn | cheaper),
    ]
}

/// What the fast scorer needs of one kind of moving piece, prepared once per position by
/// [`Info::role_terms`]: the terms of [`Info::move_terms`] that depend on the role only, folded
/// into offsets, masks and values. Kept apart from the [`Origin`] of each square left, so that
/// the eight pawns share one.
#[derive(Clone, Copy, Default)]
pub(super) struct RoleTerms {
    /// `(phase · 6 + role) · 64`: this role's row of the phase-blended target tables.
    pst_to: u32,
    /// `OPENING + bucket · 768 + 384 + role · 64`; without opening tables `PARAM_COUNT`.
    opening_to: u32,
    /// `near_last_to + role · 32`; without a last move `PARAM_COUNT`.
    near_to: u32,
    /// The parameter value of a new threat by this role.
    threat_value: i32,
    /// The danger class of the squares reached as bit planes (see [`danger_planes`]),
    /// `[non-capture, capture]`: a pawn push counts one defender, any other move two.
    danger: [[u64; 3]; 2],
    /// Squares where the move gives direct check (for the king: all squares if we may castle).
    check: u64,
}

/// What the fast scorer needs of one square left (one moving piece), prepared once per position
/// by [`Info::origin`]: the terms of [`Info::move_terms`] that depend on the square left.
#[derive(Clone, Copy, Default)]
pub(super) struct Origin {
    /// [`Info::origin_terms`], phase-blended (1/256 bit).
    pub score: i32,
    /// Move kinds (bits of `1 << kind`) that take the generic path: [`SLOW_KINDS`], or all for a
    /// discoverer.
    slow_kinds: u32,
    /// `TACTICS + role · 144 + threatened(from) · 2`.
    tactics: u32,
    /// Our last move's origin if this piece made it (so moving back undoes it), else 64.
    undo_to: u32,
    /// The threat squares of the role, or none if the square left is one already.
    new_threats: u64,
}

impl Info {
    /// The [`RoleTerms`] of `role`.
    #[inline(always)]
    pub fn role_terms(&self, role: Role, params: &[i8]) -> RoleTerms {
        let r = role.index();
        let value = |param: usize| params.get(param).map_or(0, |&v| i32::from(v));
        let capture = self.danger_planes(r, self.our_double_attacks);
        RoleTerms {
            pst_to: ((self.phase as usize * 6 + r) * 64) as u32,
            // Without opening tables or a last move, the offsets point past the parameters, into
            // the zeros that pad the table (see `fast_move_score`): no branch per move.
            opening_to: self.opening.map_or(PARAM_COUNT, |opening| opening + 6 * 64 + r * 64) as u32,
            near_to: if self.last_to < 64 {
                self.near_last_to + r * 32
            } else {
                PARAM_COUNT
            } as u32,
            threat_value: value(THREAT + r),
            danger: [
                if role == Role::Pawn {
                    self.danger_planes(r, self.our_attacks)
                } else {
                    capture
                },
                capture,
            ],
            check: if role == Role::King {
                if self.can_castle {
                    !0
                } else {
                    0
                }
            } else {
                self.check_squares[r]
            },
        }
    }

    /// The danger planes of the squares a piece of role index `r` reaches, `defended` being
    /// the squares that count as defended.
    #[inline(always)]
    fn danger_planes(&self, r: usize, defended: u64) -> [u64; 3] {
        danger_planes(
            self.their_attacks,
            self.their_pawn_attacks,
            self.cheaper_attacks[r],
            defended,
            self.their_double_attacks,
        )
    }

    /// The [`Origin`] of the piece `role` on `from`.
    #[inline(always)]
    pub fn origin(&self, role: Role, from: Square) -> Origin {
        let r = role.index();
        let f = from.index();
        let threats = self.threat_squares[r];
        Origin {
            score: 0,
            slow_kinds: if bit(self.discoverers, f) != 0 { !0 } else { SLOW_KINDS },
            tactics: (TACTICS + r * 144 + bit(self.threatened, f) * 2) as u32,
            undo_to: if self.own_to == f { self.own_from as u32 } else { 64 },
            new_threats: if bit(threats, f) != 0 { 0 } else { threats },
        }
    }

    /// The part of a move's score that [`Info::move_terms`] gives (1/256 bit), the same integer,
    /// computed from the prepared terms of its role and its square left for every move but
    /// castles, en passant, promotions and moves of a discoverer. `history` is this side's table
    /// (`from · 64 + to`, entries capped at 2), `params` the parameter table and `pst_to` the
    /// target square tables blended for every phase (see [`blended_pst_to`]), both padded to a
    /// power of two.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    pub fn fast_move_score<const N: usize, const B: usize>(
        &self,
        board: &Board,
        role: &RoleTerms,
        origin: &Origin,
        m: Move,
        history: &[u8; 4096],
        params: &[i8; N],
        pst_to: &[i16; B],
    ) -> Option<i32> {
        let bits = u32::from(m.bits());
        let kind = bits >> 12;
        if (origin.slow_kinds >> kind) & 1 != 0 {
            return None;
        }
        Some(self.target_score(
            role,
            origin,
            (kind >> 2) & 1,
            victim(board, Square::from_index_masked(bits & 63)),
            bits & 4095,
            history,
            params,
            pst_to,
        ))
    }

    /// The part of [`fast_move_score`](Info::fast_move_score) that follows the move's kind: the
    /// score of a move of the piece of `origin` (role terms `role`), neither castling, en
    /// passant nor a promotion, that captures if `capture` is 1 (not if 0); `butterfly` is
    /// `from · 64 + to`, and `victim` the [`victim`] on the target. Called once per target of a
    /// piece's target set, the terms of the piece stay in registers.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    pub fn target_score<const N: usize, const B: usize>(
        &self,
        role: &RoleTerms,
        origin: &Origin,
        capture: u32,
        victim: u32,
        butterfly: u32,
        history: &[u8; 4096],
        params: &[i8; N],
        pst_to: &[i16; B],
    ) -> i32 {
        // `params` is zero from `PARAM_COUNT` on, where an origin points what is off.
        const { assert!(N.is_power_of_two() && B.is_power_of_two() && N >= PARAM_COUNT + 64) };
        // In range by the mask: no bounds check, no panic.
        let param = |index: u32| i32::from(params[index as usize & (N - 1)]);
        let t = (butterfly & 63) as usize;
        let relative = (t ^ self.flip) as u32;
        let blended = i32::from(pst_to[(role.pst_to + relative) as usize & (B - 1)]);
        let mut flat = 0;
        flat += param(role.opening_to + relative);
        // Branch-free from here on: whether a move captures or makes a threat is a coin toss for
        // the branch predictor.
        // The class times four, straight from its planes.
        let planes = &role.danger[capture as usize & 1];
        let danger4 = (bit(planes[0], t) << 2 | bit(planes[1], t) << 3 | bit(planes[2], t) << 4) as u32;
        flat += param(origin.tactics + victim + danger4 + bit(role.check, t) as u32);
        flat += role.threat_value & -(bit(origin.new_threats, t) as i32);
        let distance = self.near_row[t];
        flat += param(role.near_to + (capture & 1) * 16 + u32::from(distance));
        // Capped at 2 by `MoveModel::observe`: no `min` per move.
        let played = u32::from(history[(butterfly & 4095) as usize]);
        flat += param(HISTORY as u32 + played * 2 + (origin.undo_to == t as u32) as u32);
        16 * flat + blended
    }
}

impl Origin {
    /// Whether every move of this piece takes the generic path: it is a discoverer (whether a
    /// move checks depends on where it goes).
    #[inline(always)]
    pub fn all_slow(&self) -> bool {
        self.slow_kinds == !0
    }
}

/// The target square tables blended for every phase, in 1/256 bit: entry `(phase · 6 + role) ·
/// 64 + relative square` is `phase · mg + (16 − phase) · eg` of the pair at `PST_TO + (role · 64 +
/// relative square) · 2` of `params` (the tapered term of [`Info::move_terms`]); zero past the
/// 17 phases. One row is read per moving piece.
pub(super) const fn blended_pst_to<const B: usize>(params: &[i8]) -> [i16; B] {
    assert!(B >= 17 * 6 * 64);
    let mut table = [0i16; B];
    let mut phase = 0;
    while phase <= 16 {
        let mut entry = 0;
        while entry < 6 * 64 {
            let mg = params[PST_TO + entry * 2] as i32;
            let eg = params[PST_TO + entry * 2 + 1] as i32;
            // |16 · 128| fits an i16.
            table[phase * 6 * 64 + entry] = (phase as i32 * mg + (16 - phase as i32) * eg) as i16;
            entry += 1;
        }
        phase += 1;
    }
    table
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn leaper_fills_match_the_attack_tables() {
        for sq in Square::all() {
            let at = 1u64 << sq.index();
            let knights: u64 = knight_jumps(at).iter().fold(0, |a, &b| a | b);
            assert_eq!(knights, attacks::knight(sq).0);
            for color in Color::ALL {
                let (w, e) = pawn_captures(color, at);
                assert_eq!(w | e, attacks::pawn(color, sq).0);
            }
            assert_eq!(LINES[0][sq.index()], attacks::bishop(sq, Bitboard::EMPTY).0);
            assert_eq!(LINES[1][sq.index()], attacks::rook(sq, Bitboard::EMPTY).0);
        }
    }

    /// The bit planes give the class of the table for every combination of the five bits.
    #[test]
    fn danger_planes_match_the_classes() {
        for (key, &expected) in DANGER_CLASS.iter().enumerate() {
            let set = |bit: usize| if key >> bit & 1 != 0 { 1u64 << 9 } else { 0 };
            let planes = danger_planes(set(0), set(1), set(2), set(3), set(4));
            let class = (0..3).map(|j| bit(planes[j], 9) << j).sum::<usize>();
            assert_eq!(class, usize::from(expected), "{key:05b}");
            assert!(planes.iter().all(|p| p & !(1 << 9) == 0), "{key:05b}");
        }
    }

    #[test]
    fn coverage_counts_two_attackers() {
        let pos = Position::from_fen("4k3/8/8/3p4/8/2N5/8/3RK3 w - - 0 1").unwrap();
        let info = Info::new(&pos, None, None);
        // d5 is attacked by the knight on c3 and the rook on d1.
        assert_eq!(bit(info.our_double_attacks, Square::D5.index()), 1);
        assert_eq!(bit(info.our_double_attacks, Square::D4.index()), 0);
        assert_eq!(bit(info.our_attacks, Square::D4.index()), 1);
    }
}
