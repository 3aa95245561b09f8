//! The move model: an integer frequency for every legal move, from the features listed in the
//! [parent module](super) (parameter offsets in [`layout`]) and the tuned parameters.
//!
//! Formulas (all integer; see the parent module for the feature list):
//!
//! - score `S = 16·Σ flat + p·Σ mg + (16 − p)·Σ eg`, where the sums run over the parameters the move
//!   switches on and `p` in `0..=16` is the game phase. Units: 1/256 bit.
//! - `d = (S_max − S) >> 4` (1/16 bit below the best move), weight `w = FRAC[d mod 16] >> (d / 16)`
//!   for `d < 256`, else `0`, with `FRAC[j] = round(32768 · 2^(−j/16))`.
//! - shift `k` = the least `k ≥ 0` with `(Σ w >> k) + n ≤ 2^16` (`n` legal moves); frequency
//!   `f = (w >> k) + 1`; total `Σ f ≤ 2^16`.

use crate::lists::MAX_MOVES;
use crate::movegen::{MoveSet, PawnMoveKind};
use crate::moves::{Move, MoveKind};
use crate::position::{Board, Position};
use crate::types::{Role, Square};

use super::features::{victim, Info, Origin, PlyMemory, RoleTerms, Terms};
use super::params::PARAMS;
use crate::codec::range_coder::MAX_TOTAL;

pub use super::features::layout;
use layout::PARAM_COUNT;

/// `FRAC[j] = round(32768 · 2^(−j/16))`: one octave of the weight curve.
///
/// ```
/// use chessbits::codec::moves::entropy::model::FRAC;
/// assert_eq!(FRAC[0], 1 << 15);
/// assert_eq!(FRAC[8], 23170); // 32768 / √2
/// ```
pub const FRAC: [u32; 16] = [
    32768, 31379, 30048, 28774, 27554, 26386, 25268, 24196, 23170, 22188, 21247, 20347, 19484, 18658, 17867, 17109,
];

/// One term of a move's score, as the tuner sees it: parameter `param` counts `weight / 16` times.
///
/// ```
/// use chessbits::codec::moves::entropy::model::{layout, MoveModel};
/// use chessbits::lists::MoveList;
/// use chessbits::position::Position;
/// let pos = Position::startpos();
/// let mut moves = MoveList::new();
/// pos.legal_moves_into(&mut moves);
/// let mut terms = Vec::new();
/// MoveModel::new().visit_terms(&pos, &moves[..1], |_, term| terms.push(term));
/// // The square left, tapered: the middle-game half weighs 16 at the start (phase 16).
/// assert_eq!(terms[0].weight, 16);
/// assert!((layout::PST_FROM..layout::PST_TO).contains(&(terms[0].param as usize)));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Term {
    /// Index into the parameter table (see [`layout`]).
    pub param: u16,
    /// Multiplier in sixteenths: 16 for a flat feature, the phase blend for a tapered one.
    pub weight: u8,
}

/// `WEIGHTS[d] = FRAC[d mod 16] >> (d / 16)`: the weight `d` sixteenths of a bit below the best
/// move, 0 from 256 on (the last entry stands for all larger `d`).
static WEIGHTS: [u16; 257] = weights();

const fn weights() -> [u16; 257] {
    let mut table = [0u16; 257];
    let mut d = 0;
    while d < 256 {
        table[d] = (FRAC[d % 16] >> (d / 16)) as u16;
        d += 1;
    }
    table
}

/// The index into [`WEIGHTS`] (and [`PACKED`]) of a move scoring `score` when the best scores
/// `best`: `d`, clamped to 256. `best ≥ score`, and clamping keeps the index in range without a
/// branch.
#[inline(always)]
fn weight_index(best: i32, score: i32) -> usize {
    (((best - score) >> 4) as u32).min(256) as usize
}

/// The weight of a move scoring `score` when the best scores `best` (see the module docs).
#[inline(always)]
fn weight(best: i32, score: i32) -> u32 {
    // One load instead of a lookup and a variable shift.
    u32::from(WEIGHTS[weight_index(best, score)])
}

/// Bit offsets of the lanes of a packed weight: the weight `w` itself (25 bits: at most
/// [`MAX_MOVES`] · 2^15), then `w & 1` (10 bits), `w & 3` (12 bits) and `w & 7` (13 bits), each
/// wide enough for the sum over [`MAX_MOVES`] moves, so that sums of packed weights never carry
/// from one lane into the next.
const LANES: [u32; 4] = [0, 25, 35, 47];
const _: () =
    assert!(MAX_MOVES << 15 < 1 << 25 && MAX_MOVES < 1 << 10 && MAX_MOVES * 3 < 1 << 12 && MAX_MOVES * 7 < 1 << 13);

/// `PACKED[d]`: the weight of [`WEIGHTS`] with its low bits in the upper lanes (see [`LANES`]).
static PACKED: [u64; 257] = packed_weights();

const fn packed_weights() -> [u64; 257] {
    let mut table = [0u64; 257];
    let mut d = 0;
    while d < 257 {
        let w = WEIGHTS[d] as u64;
        table[d] = w << LANES[0] | (w & 1) << LANES[1] | (w & 3) << LANES[2] | (w & 7) << LANES[3];
        d += 1;
    }
    table
}

/// The packed weight of a move scoring `score` when the best scores `best`.
#[inline(always)]
fn packed_weight(best: i32, score: i32) -> u64 {
    PACKED[weight_index(best, score)]
}

/// Lane `lane` of a sum of packed weights.
#[inline(always)]
fn lane(packed: u64, lane: usize) -> u32 {
    let width = LANES.get(lane + 1).map_or(64, |&next| next) - LANES[lane];
    ((packed >> LANES[lane]) & (u64::MAX >> (64 - width))) as u32
}

/// The sum of the weights in a sum of packed weights.
#[inline(always)]
fn packed_sum(packed: u64) -> u32 {
    lane(packed, 0)
}

/// `Σ (w >> shift)` from the sum of the packed weights `w`, for a shift up to 3:
/// `w >> k = (w − (w mod 2^k)) / 2^k`, and the lanes hold the sums of `w mod 2^k`.
#[inline(always)]
fn scaled_sum(packed: u64, shift: u32) -> Option<u32> {
    let low = match shift {
        0 => 0,
        // Constant lanes: each arm a shift and a mask.
        1 => lane(packed, 1),
        2 => lane(packed, 2),
        3 => lane(packed, 3),
        _ => return None,
    };
    Some((packed_sum(packed) - low) >> shift)
}

/// The least `k` with `(sum >> k) + n ≤ 2^16`.
#[inline(always)]
fn shift(sum: u32, n: usize) -> u32 {
    let mut shift = 0;
    while (sum >> shift) + n as u32 > MAX_TOTAL {
        shift += 1;
    }
    shift
}

/// The parameters padded to a power of two, so that a masked index needs no bounds check.
static TABLE: [i8; TABLE_LEN] = padded();
const TABLE_LEN: usize = PARAM_COUNT.next_power_of_two();

/// The target square tables of [`TABLE`] blended for every phase (see
/// [`blended_pst_to`](super::features::blended_pst_to)): one load a move instead of two
/// parameters and two products.
static PST_TO_BLENDED: [i16; BLENDED_LEN] = super::features::blended_pst_to(&TABLE);
const BLENDED_LEN: usize = (17 * 6 * 64usize).next_power_of_two();

const fn padded() -> [i8; TABLE_LEN] {
    let mut table = [0; TABLE_LEN];
    let mut i = 0;
    while i < PARAM_COUNT {
        table[i] = PARAMS[i];
        i += 1;
    }
    table
}

/// Adds up parameters, keeping the tapered halves apart until the phase blend.
struct Scorer<'a> {
    params: &'a [i8; TABLE_LEN],
    flat: i32,
    mg: i32,
    eg: i32,
}

impl Terms for Scorer<'_> {
    #[inline(always)]
    fn flat(&mut self, param: usize) {
        self.flat += i32::from(self.params[param & (TABLE_LEN - 1)]);
    }

    #[inline(always)]
    fn tapered(&mut self, param: usize) {
        self.mg += i32::from(self.params[param & (TABLE_LEN - 1)]);
        self.eg += i32::from(self.params[(param + 1) & (TABLE_LEN - 1)]);
    }
}

impl Scorer<'static> {
    #[inline(always)]
    fn new() -> Scorer<'static> {
        Scorer {
            params: &TABLE,
            flat: 0,
            mg: 0,
            eg: 0,
        }
    }
}

impl Scorer<'_> {
    #[inline(always)]
    fn total(&self, phase: i32) -> i32 {
        16 * self.flat + phase * self.mg + (16 - phase) * self.eg
    }
}

/// Lists terms for the tuner.
struct Recorder<F> {
    phase: u8,
    sink: F,
}

impl<F: FnMut(Term)> Terms for Recorder<F> {
    fn flat(&mut self, param: usize) {
        if param == layout::NONE {
            return;
        }
        (self.sink)(Term {
            param: param as u16,
            weight: 16,
        });
    }

    fn tapered(&mut self, param: usize) {
        (self.sink)(Term {
            param: param as u16,
            weight: self.phase,
        });
        (self.sink)(Term {
            param: param as u16 + 1,
            weight: 16 - self.phase,
        });
    }
}

/// The [`Origin`] of the piece `role` on `from`, with the score of its terms.
#[inline(always)]
fn scored_origin(info: &Info, role: Role, from: Square) -> Origin {
    let mut scorer = Scorer::new();
    info.origin_terms(role, from, &mut scorer);
    let mut origin = info.origin(role, from);
    origin.score = scorer.total(info.phase);
    origin
}

/// The score of the terms of the move `m` of a piece `role` (its origin's terms aside) by the
/// generic path, [`Info::move_terms`]: castles, en passant, promotions and discoverers.
#[inline(always)]
fn generic_score(info: &Info, board: &Board, role: Role, m: Move, history: &[u8; 4096]) -> i32 {
    let mut scorer = Scorer::new();
    info.move_terms(board, role, m, history[m.butterfly_index()], &mut scorer);
    scorer.total(info.phase)
}

/// Moves scored so far in [`MoveModel::score_sets`]: their number, the best score and the index
/// of the move looked for. With `LIST` the moves themselves are kept too (the decoder's path,
/// which needs them; it looks for none).
#[derive(Clone, Copy)]
struct Tally<const LIST: bool> {
    n: usize,
    best: i32,
    index: Option<usize>,
    played: Move,
}

impl<const LIST: bool> Tally<LIST> {
    fn new(played: Move) -> Tally<LIST> {
        Tally {
            n: 0,
            best: i32::MIN,
            index: None,
            played,
        }
    }

    /// Records the score of the next move, `m`.
    #[inline(always)]
    fn record(&mut self, scores: &mut [i32; MAX_MOVES], moves: &mut [Move; MAX_MOVES], m: Move, score: i32) {
        if self.n < MAX_MOVES {
            scores[self.n] = score;
            self.best = self.best.max(score);
            if LIST {
                moves[self.n] = m;
            } else if m == self.played {
                self.index = Some(self.n);
            }
            self.n += 1;
        }
    }
}

/// The model of one game: remembers the last two plies and which from-to pairs each side played.
///
/// Feed it every position in order: [`frequencies`](MoveModel::frequencies) for the legal moves of
/// the position, then [`observe`](MoveModel::observe) with the move played.
///
/// ```
/// use chessbits::codec::moves::entropy::model::MoveModel;
/// use chessbits::lists::MoveList;
/// use chessbits::position::Position;
/// let pos = Position::startpos();
/// let mut moves = MoveList::new();
/// pos.legal_moves_into(&mut moves);
/// let mut model = MoveModel::new();
/// let (freqs, total) = model.frequencies(&pos, &moves);
/// assert_eq!(freqs.len(), 20);
/// assert!(freqs.iter().all(|&f| f >= 1));
/// assert_eq!(freqs.iter().sum::<u32>(), total);
/// assert!(total <= 1 << 16);
/// ```
pub struct MoveModel {
    last: Option<PlyMemory>,
    own_last: Option<PlyMemory>,
    /// `[color][from * 64 + to]`: times played in this game, capped at 2 (the features count
    /// 0, 1 and more; the fast scorer reads the entry as it is).
    history: Box<[[u8; 4096]; 2]>,
    /// The entries of `history` that are not zero (`color * 4096 + from * 64 + to`): a reset
    /// clears these instead of 8 KiB.
    played: Vec<u16>,
    scores: Box<[i32; MAX_MOVES]>,
    freqs: Box<[u32; MAX_MOVES]>,
    /// The decoder's path ([`prepare`](MoveModel::prepare)): the legal moves in list order,
    /// their packed weights (see [`PACKED`]), their number and the shift of their frequencies.
    moves: Box<[Move; MAX_MOVES]>,
    packed: Box<[u64; MAX_MOVES]>,
    prepared: usize,
    prepared_shift: u32,
    /// Per square left: the score of its terms and the moving piece.
    origin: [(Origin, Role); 64],
    /// Per moving piece: the terms of its role.
    roles: [RoleTerms; 6],
}

impl Default for MoveModel {
    fn default() -> MoveModel {
        MoveModel::new()
    }
}

impl MoveModel {
    /// A model at the start of a game (no move played yet).
    pub fn new() -> MoveModel {
        MoveModel {
            last: None,
            own_last: None,
            history: Box::new([[0; 4096]; 2]),
            played: Vec::new(),
            scores: Box::new([0; MAX_MOVES]),
            freqs: Box::new([0; MAX_MOVES]),
            moves: Box::new([Move::default(); MAX_MOVES]),
            packed: Box::new([0; MAX_MOVES]),
            prepared: 0,
            prepared_shift: 0,
            origin: [(Origin::default(), Role::Pawn); 64],
            roles: [RoleTerms::default(); 6],
        }
    }

    /// Forgets the game so far.
    ///
    /// ```
    /// use chessbits::codec::moves::entropy::model::MoveModel;
    /// let mut model = MoveModel::new();
    /// model.reset();
    /// ```
    pub fn reset(&mut self) {
        self.last = None;
        self.own_last = None;
        for &entry in &self.played {
            self.history[usize::from(entry >> 12) & 1][usize::from(entry) & 4095] = 0;
        }
        self.played.clear();
    }

    /// Records that `m` is played in `pos` (call before making it).
    ///
    /// ```
    /// use chessbits::codec::moves::entropy::model::MoveModel;
    /// use chessbits::notation::uci::parse_uci;
    /// use chessbits::position::Position;
    /// let pos = Position::startpos();
    /// let mut model = MoveModel::new();
    /// model.observe(&pos, parse_uci(&pos, "e2e4").unwrap());
    /// ```
    pub fn observe(&mut self, pos: &Position, m: Move) {
        let to = match m.castling_side() {
            Some(side) => side.king_to(pos.turn()),
            None => m.to(),
        };
        self.own_last = self.last;
        self.last = Some(PlyMemory {
            from: m.from(),
            to,
            capture: m.is_capture(),
        });
        let (side, index) = (pos.turn().index() & 1, m.butterfly_index() & 4095);
        let slot = &mut self.history[side][index];
        if *slot == 0 {
            self.played.push((side << 12 | index) as u16);
        }
        *slot = (*slot + 1).min(2);
    }

    /// Frequencies of `moves` (the legal moves of `pos`, at most [`MAX_MOVES`]) in list order, and
    /// their total (at most 2^16). Every frequency is at least one.
    ///
    /// ```
    /// use chessbits::codec::moves::entropy::model::MoveModel;
    /// use chessbits::lists::MoveList;
    /// use chessbits::position::Position;
    /// // The queen takes the undefended knight: the likeliest move by far.
    /// let pos = Position::from_fen("4k3/8/8/3n4/8/8/8/3QK3 w - - 0 30").unwrap();
    /// let mut moves = MoveList::new();
    /// pos.legal_moves_into(&mut moves);
    /// let mut model = MoveModel::new();
    /// let (freqs, total) = model.frequencies(&pos, &moves);
    /// let best = moves[freqs.iter().enumerate().max_by_key(|&(_, f)| f).unwrap().0];
    /// assert_eq!(best.to_string(), "d1d5");
    /// assert!(freqs.iter().max().unwrap() * 4 > total);
    /// ```
    pub fn frequencies(&mut self, pos: &Position, moves: &[Move]) -> (&[u32], u32) {
        let n = moves.len().min(MAX_MOVES);
        let best = self.score(pos, &moves[..n]);
        let mut sum = 0u32;
        for (score, freq) in self.scores[..n].iter().zip(self.freqs.iter_mut()) {
            let w = weight(best, *score);
            *freq = w;
            sum += w;
        }
        let shift = shift(sum, n);
        let mut total = 0;
        for f in &mut self.freqs[..n] {
            *f = (*f >> shift) + 1;
            total += *f;
        }
        (&self.freqs[..n], total)
    }

    /// The symbol of the move at `index` in `moves` (the legal moves of `pos`): what an encoder
    /// writes, `(cum, freq, total)`, `cum` being the sum of the [frequencies] of the moves before
    /// it, `freq` its own and `total` the sum of all. The same numbers as from
    /// [`frequencies`](MoveModel::frequencies), in fewer steps; `None` if `index` is out of range.
    ///
    /// [frequencies]: MoveModel::frequencies
    ///
    /// ```
    /// use chessbits::codec::moves::entropy::model::MoveModel;
    /// use chessbits::lists::MoveList;
    /// use chessbits::position::Position;
    /// let pos = Position::startpos();
    /// let mut moves = MoveList::new();
    /// pos.legal_moves_into(&mut moves);
    /// let mut model = MoveModel::new();
    /// let (freqs, total) = model.frequencies(&pos, &moves);
    /// let (freqs, total) = (freqs.to_vec(), total);
    /// let (cum, freq, all) = MoveModel::new().symbol(&pos, &moves, 5).unwrap();
    /// assert_eq!((cum, freq, all), (freqs[..5].iter().sum(), freqs[5], total));
    /// assert!(MoveModel::new().symbol(&pos, &moves, 20).is_none());
    /// ```
    pub fn symbol(&mut self, pos: &Position, moves: &[Move], index: usize) -> Option<(u32, u32, u32)> {
        let n = moves.len().min(MAX_MOVES);
        if index >= n {
            return None;
        }
        if n == 1 {
            // One move: weight 2^15 whatever its score, no shift.
            return Some((0, FRAC[0] + 1, FRAC[0] + 1));
        }
        let best = self.score(pos, &moves[..n]);
        Some(self.symbol_from_scores(n, best, index))
    }

    /// The symbol of the legal move `m` of `pos` among the legal moves in the order of
    /// [`Position::legal_moves`]: what [`symbol`](MoveModel::symbol) gives for that list and
    /// the index of `m` in it, the same integers, without listing the moves (they are scored
    /// set by set as the generator hands them over, see [`Position::for_each_legal_set`]).
    /// `None` if `m` is not legal.
    ///
    /// ```
    /// use chessbits::codec::moves::entropy::model::MoveModel;
    /// use chessbits::notation::uci::parse_uci;
    /// use chessbits::position::Position;
    /// let pos = Position::startpos();
    /// let moves = pos.legal_moves();
    /// let e4 = parse_uci(&pos, "e2e4").unwrap();
    /// let index = moves.iter().position(|&m| m == e4).unwrap();
    /// assert_eq!(MoveModel::new().symbol_of(&pos, e4), MoveModel::new().symbol(&pos, &moves, index));
    /// let e5 = chessbits::moves::Move::new(
    ///     chessbits::types::Square::E2,
    ///     chessbits::types::Square::E5,
    ///     chessbits::moves::MoveKind::Quiet,
    /// );
    /// assert_eq!(MoveModel::new().symbol_of(&pos, e5), None);
    /// ```
    pub fn symbol_of(&mut self, pos: &Position, m: Move) -> Option<(u32, u32, u32)> {
        let (n, best, index) = self.score_sets::<false>(pos, m);
        let index = index?;
        Some(self.symbol_from_scores(n, best, index))
    }

    /// The symbol of the move at `index` of the `n` moves scored into `self.scores`, the best
    /// scoring `best` (see [`symbol`](MoveModel::symbol)).
    fn symbol_from_scores(&self, n: usize, best: i32, index: usize) -> (u32, u32, u32) {
        // One pass adds up packed weights (see `PACKED`): the sum of the weights and the sums of
        // their low one, two and three bits, from which the sums of `w >> k` follow for the
        // shifts 1 to 3 without a second pass over the moves.
        let (before, from) = self.scores[..n].split_at(index);
        let cum_packed: u64 = before.iter().map(|&score| packed_weight(best, score)).sum();
        let packed = cum_packed + from.iter().map(|&score| packed_weight(best, score)).sum::<u64>();
        let own = weight(best, from[0]);
        let shift = shift(packed_sum(packed), n);
        let n = n as u32;
        if let (Some(cum), Some(all)) = (scaled_sum(cum_packed, shift), scaled_sum(packed, shift)) {
            return (cum + index as u32, (own >> shift) + 1, all + n);
        }
        // A shift of 4 or more (16 near-best moves and up): the second pass.
        let scaled = |scores: &[i32]| {
            scores
                .iter()
                .map(|&score| (weight(best, score) >> shift) + 1)
                .sum::<u32>()
        };
        let cum = scaled(before);
        (cum, (own >> shift) + 1, cum + scaled(from))
    }

    /// Scores the legal moves of `pos` into `self.scores` in the generator's order, set by set:
    /// the number of moves, the best score and the index of `played` (if legal).
    fn score_sets<const LIST: bool>(&mut self, pos: &Position, played: Move) -> (usize, i32, Option<usize>) {
        let info = Info::new(pos, self.last, self.own_last);
        let board = pos.board();
        let history = &self.history[pos.turn().index() & 1];
        let scores = &mut *self.scores;
        let moves = &mut *self.moves;
        let origins = &mut self.origin;
        let generic =
            |role: Role, origin: &Origin, m: Move| origin.score + generic_score(&info, board, role, m, history);
        let origin_of = |role: Role, from: Square| scored_origin(&info, role, from);
        // The generator hands over all sets of a role in a row: its terms once.
        let mut terms = info.role_terms(Role::King, &TABLE);
        let mut terms_of = Role::King;
        // Pawns appear in several sets: their origins once, kept in `origins`.
        let mut pawn_origins = 0u64;
        let mut tally = Tally::<LIST>::new(played);
        pos.for_each_legal_set(|set| {
            // Updated in place: a copy per set, written back at the end, cost a stalled
            // wide reload of its narrow stores at every set (store forwarding fails).
            let t = &mut tally;
            match set {
                MoveSet::Piece {
                    role,
                    from,
                    to,
                    captures,
                } => {
                    let origin = origin_of(role, from);
                    if origin.all_slow() {
                        set.for_each(|m| t.record(scores, moves, m, generic(role, &origin, m)));
                    } else {
                        if terms_of != role {
                            terms = info.role_terms(role, &TABLE);
                            terms_of = role;
                        }
                        for (targets, capture, kind) in
                            [(captures, 1, MoveKind::Capture), (to - captures, 0, MoveKind::Quiet)]
                        {
                            for to in targets {
                                let m = Move::new(from, to, kind);
                                let butterfly = u32::from(m.bits()) & 4095;
                                // Quiet targets are empty: no victim to look up.
                                let victim = if capture == 1 { victim(board, to) } else { 0 };
                                let score = info.target_score(
                                    &terms,
                                    &origin,
                                    capture,
                                    victim,
                                    butterfly,
                                    history,
                                    &TABLE,
                                    &PST_TO_BLENDED,
                                );
                                t.record(scores, moves, m, origin.score + score);
                            }
                        }
                    }
                }
                MoveSet::Pawns { to, delta, kind } => {
                    if terms_of != Role::Pawn {
                        terms = info.role_terms(Role::Pawn, &TABLE);
                        terms_of = Role::Pawn;
                    }
                    let (capture, kind) = match kind {
                        PawnMoveKind::Push => (0, MoveKind::Quiet),
                        PawnMoveKind::DoublePush => (0, MoveKind::DoublePush),
                        PawnMoveKind::Capture => (1, MoveKind::Capture),
                        PawnMoveKind::Promotion | PawnMoveKind::PromotionCapture => {
                            set.for_each(|m| {
                                let origin = origin_of(Role::Pawn, m.from());
                                t.record(scores, moves, m, generic(Role::Pawn, &origin, m));
                            });
                            return;
                        }
                    };
                    for to in to {
                        let from = Square::from_index_masked((to.index() as i32 - i32::from(delta)) as u32);
                        let at = 1u64 << from.index();
                        if pawn_origins & at == 0 {
                            pawn_origins |= at;
                            origins[from.index()] = (origin_of(Role::Pawn, from), Role::Pawn);
                        }
                        let origin = &origins[from.index()].0;
                        let m = Move::new(from, to, kind);
                        let score = if origin.all_slow() {
                            generic(Role::Pawn, origin, m)
                        } else {
                            let butterfly = u32::from(m.bits()) & 4095;
                            origin.score
                                + info.target_score(
                                    &terms,
                                    origin,
                                    capture,
                                    if capture == 1 { victim(board, to) } else { 0 },
                                    butterfly,
                                    history,
                                    &TABLE,
                                    &PST_TO_BLENDED,
                                )
                        };
                        t.record(scores, moves, m, score);
                    }
                }
                MoveSet::Single(m) => {
                    // Castles and en passant.
                    let role = board.role_at(m.from()).unwrap_or(Role::Pawn);
                    let origin = origin_of(role, m.from());
                    t.record(scores, moves, m, generic(role, &origin, m));
                }
            }
        });
        (tally.n, tally.best, tally.index)
    }

    /// The decoder's first step: lists the legal moves of `pos` (in [`Position::legal_moves`]
    /// order, see [`prepared_moves`](MoveModel::prepared_moves)) and weighs them, and returns the
    /// total of their frequencies, 0 if there is no legal move. The frequencies are those of
    /// [`frequencies`](MoveModel::frequencies) for that list, the same integers; the moves are
    /// scored set by set as the generator hands them over, as the encoder's
    /// [`symbol_of`](MoveModel::symbol_of) does, without a list to read back.
    /// [`find`](MoveModel::find) then gives the move of a target.
    ///
    /// ```
    /// use chessbits::codec::moves::entropy::model::MoveModel;
    /// use chessbits::position::Position;
    /// let pos = Position::startpos();
    /// let mut model = MoveModel::new();
    /// let total = model.prepare(&pos);
    /// assert_eq!(model.prepared_moves(), &pos.legal_moves()[..]);
    /// let mut reference = MoveModel::new();
    /// let (freqs, all) = reference.frequencies(&pos, &pos.legal_moves());
    /// assert_eq!(total, all);
    /// let (m, cum, freq) = model.find(total - 1).unwrap();
    /// assert_eq!((m, cum, freq), (*pos.legal_moves().last().unwrap(), total - freqs[19], freqs[19]));
    /// assert_eq!(model.find(total), None);
    /// ```
    pub fn prepare(&mut self, pos: &Position) -> u32 {
        let (n, best, _) = self.score_sets::<true>(pos, Move::default());
        // One pass: the packed weights, kept for `find`, and their sum, from which the total
        // follows for the shifts up to 3 (see `PACKED`).
        let mut sum = 0u64;
        for (&score, packed) in self.scores[..n].iter().zip(self.packed.iter_mut()) {
            *packed = packed_weight(best, score);
            sum += *packed;
        }
        let shift = shift(packed_sum(sum), n);
        self.prepared = n;
        self.prepared_shift = shift;
        match scaled_sum(sum, shift) {
            Some(scaled) => scaled + n as u32,
            // 16 near-best moves and up: a second pass.
            None => self.packed[..n].iter().map(|&p| (packed_sum(p) >> shift) + 1).sum(),
        }
    }

    /// The legal moves of the position last given to [`prepare`](MoveModel::prepare), in list
    /// order.
    pub fn prepared_moves(&self) -> &[Move] {
        &self.moves[..self.prepared]
    }

    /// The move of the position last given to [`prepare`](MoveModel::prepare) whose interval
    /// `[cum, cum + freq)` holds `target`, with `cum` and `freq`; `None` if `target` is not below
    /// the total.
    pub fn find(&self, target: u32) -> Option<(Move, u32, u32)> {
        let shift = self.prepared_shift;
        let mut cum = 0;
        for (&m, &packed) in self.moves[..self.prepared].iter().zip(self.packed.iter()) {
            let freq = (packed_sum(packed) >> shift) + 1;
            if target < cum + freq {
                return Some((m, cum, freq));
            }
            cum += freq;
        }
        None
    }

    /// Scores `moves` into `self.scores` (1/256 bit) and returns the best score.
    fn score(&mut self, pos: &Position, moves: &[Move]) -> i32 {
        let info = Info::new(pos, self.last, self.own_last);
        let board = pos.board();
        // Everything that depends on the role only, once per role; on the square left only,
        // once per moving piece.
        for role in Role::ALL {
            self.roles[role.index()] = info.role_terms(role, &TABLE);
        }
        let mut froms = 0u64;
        for m in moves {
            froms |= 1u64 << m.from().index();
        }
        while froms != 0 {
            let from = Square::from_index_masked(froms.trailing_zeros());
            froms &= froms - 1;
            let role = board.role_at(from).unwrap_or(Role::Pawn);
            self.origin[from.index()] = (scored_origin(&info, role, from), role);
        }
        let history = &self.history[pos.turn().index() & 1];
        let mut best = i32::MIN;
        for (&m, score) in moves.iter().zip(self.scores.iter_mut()) {
            let (origin, role) = &self.origin[m.from().index()];
            let terms = &self.roles[role.index()];
            let rest = match info.fast_move_score(board, terms, origin, m, history, &TABLE, &PST_TO_BLENDED) {
                Some(rest) => rest,
                // Castles, en passant, promotions and discoverers: the generic path.
                None => generic_score(&info, board, *role, m, history),
            };
            *score = origin.score + rest;
            best = best.max(*score);
        }
        best
    }

    /// Lists the terms of every move of `moves` in `pos`: calls `sink(move index, term)`. The tuner
    /// uses it; a move's score is `Σ PARAMS[term.param] · term.weight`.
    ///
    /// ```
    /// use chessbits::codec::moves::entropy::model::{layout, MoveModel};
    /// use chessbits::lists::MoveList;
    /// use chessbits::position::Position;
    /// let pos = Position::startpos();
    /// let mut moves = MoveList::new();
    /// pos.legal_moves_into(&mut moves);
    /// let mut count = 0;
    /// MoveModel::new().visit_terms(&pos, &moves, |_, term| {
    ///     assert!((term.param as usize) < layout::PARAM_COUNT);
    ///     count += 1;
    /// });
    /// assert!(count >= 20 * 4);
    /// ```
    pub fn visit_terms(&self, pos: &Position, moves: &[Move], mut sink: impl FnMut(usize, Term)) {
        let info = Info::new(pos, self.last, self.own_last);
        let board = pos.board();
        for (i, &m) in moves.iter().enumerate() {
            let role = board.role_at(m.from()).unwrap_or(Role::Pawn);
            let mut recorder = Recorder {
                phase: info.phase as u8,
                sink: |t| sink(i, t),
            };
            info.origin_terms(role, m.from(), &mut recorder);
            info.move_terms(
                board,
                role,
                m,
                self.history[pos.turn().index() & 1][m.butterfly_index()],
                &mut recorder,
            );
        }
    }
}

#[cfg(test)]
#[path = "model_tests.rs"]
mod tests;
