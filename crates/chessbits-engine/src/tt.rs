//! The transposition table: a shared, lock-free hash of search results.
//!
//! Each entry is two 64-bit words (16 bytes): `data` packs the 16-bit [`Move`], the score, the
//! static evaluation, the depth, the bound and the search generation; the other word stores
//! `key ^ data`. Threads write and read the two words without locks (Lazy SMP), so a reader
//! may see one word of one write and the other word of another; the xor check rejects such a
//! torn entry, as it rejects an entry of a different position (the "lockless hashing" of Hyatt
//! and Mann). The move of an accepted entry is still checked for legality before it is played
//! ([`Position::is_legal`](chessbits::position::Position::is_legal)).
//!
//! Four entries form a bucket of 64 bytes, aligned to a cache line: a probe touches one line.
//! Replacement keeps the deeper and the more recent entries: an entry of the same position is
//! overwritten, else the one with the smallest `depth − 8 × age` goes.
//!
//! ```
//! use chessbits_engine::tt::{Bound, TranspositionTable};
//! let tt = TranspositionTable::new(1);
//! tt.store(0x1234_5678, None, 42, 10, 7, Bound::Exact, 0);
//! let hit = tt.probe(0x1234_5678, 0).unwrap();
//! assert_eq!((hit.score, hit.depth, hit.bound), (42, 7, Bound::Exact));
//! ```

use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};

use chessbits::moves::Move;
use chessbits::position::zobrist::{en_passant_key, piece_key, white_to_move_key};
use chessbits::position::Position;

use crate::search::score::{from_tt, to_tt};

/// What a stored score says about the true value.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Bound {
    /// Nothing stored (an empty slot).
    None = 0,
    /// The true value is at most the score (all moves failed low).
    Upper = 1,
    /// The true value is at least the score (a move failed high).
    Lower = 2,
    /// The score is exact (a PV node).
    Exact = 3,
}

impl Bound {
    fn from_bits(bits: u64) -> Bound {
        match bits & 3 {
            1 => Bound::Upper,
            2 => Bound::Lower,
            3 => Bound::Exact,
            _ => Bound::None,
        }
    }
}

/// One probe result, unpacked.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct TtHit {
    /// The best move found, if any (check it for legality before use).
    pub mv: Option<Move>,
    /// The score, adjusted to the probing ply for mate scores.
    pub score: i32,
    /// The static evaluation stored with it.
    pub eval: i32,
    /// The depth searched.
    pub depth: i32,
    /// The bound type.
    pub bound: Bound,
}

/// One 16-byte entry: `check = key ^ data`.
#[derive(Default)]
struct Entry {
    check: AtomicU64,
    data: AtomicU64,
}

const ENTRIES_PER_BUCKET: usize = 4;

/// Four entries in one 64-byte cache line.
#[derive(Default)]
#[repr(align(64))]
struct Bucket {
    entries: [Entry; ENTRIES_PER_BUCKET],
}

// data layout: move 0..16, score 16..32 (i16), eval 32..48 (i16), depth 48..56 (u8),
// bound 56..58, generation 58..64.
fn pack(mv: Option<Move>, score: i32, eval: i32, depth: i32, bound: Bound, generation: u8) -> u64 {
    let mv = mv.map_or(0, |m| m.bits()) as u64;
    let score = score.clamp(i16::MIN as i32, i16::MAX as i32) as i16 as u16 as u64;
    let eval = eval.clamp(i16::MIN as i32, i16::MAX as i32) as i16 as u16 as u64;
    let depth = depth.clamp(0, 255) as u64;
    mv | score << 16 | eval << 32 | depth << 48 | (bound as u64) << 56 | ((generation & 63) as u64) << 58
}

fn depth_of(data: u64) -> i32 {
    ((data >> 48) & 0xff) as i32
}

fn generation_of(data: u64) -> u8 {
    (data >> 58) as u8
}

/// The shared hash table (see the [module docs](self)).
pub struct TranspositionTable {
    buckets: Vec<Bucket>,
    generation: AtomicU8,
}

impl TranspositionTable {
    /// A table of about `megabytes` MiB (at least one bucket).
    ///
    /// ```
    /// use chessbits_engine::tt::TranspositionTable;
    /// assert_eq!(TranspositionTable::new(1).bucket_count(), 16_384);
    /// ```
    pub fn new(megabytes: usize) -> TranspositionTable {
        TranspositionTable::try_new(megabytes).unwrap_or_else(|_| TranspositionTable::try_new(1).expect("1 MiB table"))
    }

    /// A table of about `megabytes` MiB, or an error message if the memory is not available
    /// (a `setoption name Hash` too large for the machine must not abort the engine).
    ///
    /// ```
    /// use chessbits_engine::tt::TranspositionTable;
    /// assert!(TranspositionTable::try_new(1).is_ok());
    /// assert!(TranspositionTable::try_new(usize::MAX >> 20).is_err());
    /// ```
    pub fn try_new(megabytes: usize) -> Result<TranspositionTable, String> {
        let count = (megabytes.max(1).saturating_mul(1 << 20) / std::mem::size_of::<Bucket>()).max(1);
        let mut buckets = Vec::new();
        buckets
            .try_reserve_exact(count)
            .map_err(|e| format!("cannot allocate {megabytes} MiB: {e}"))?;
        buckets.resize_with(count, Bucket::default);
        Ok(TranspositionTable {
            buckets,
            generation: AtomicU8::new(0),
        })
    }

    /// The number of 64-byte buckets.
    pub fn bucket_count(&self) -> usize {
        self.buckets.len()
    }

    /// Empties every entry (a new game).
    pub fn clear(&self) {
        for bucket in &self.buckets {
            for entry in &bucket.entries {
                entry.check.store(0, Ordering::Relaxed);
                entry.data.store(0, Ordering::Relaxed);
            }
        }
        self.generation.store(0, Ordering::Relaxed);
    }

    /// Starts a new search: entries of older searches become preferred victims.
    pub fn new_search(&self) {
        let next = self.generation.load(Ordering::Relaxed).wrapping_add(1) & 63;
        self.generation.store(next, Ordering::Relaxed);
    }

    fn bucket(&self, key: u64) -> &Bucket {
        // Multiply-shift maps the key onto any table size without a modulo.
        let index = ((key as u128 * self.buckets.len() as u128) >> 64) as usize;
        &self.buckets[index]
    }

    /// Starts loading the bucket of `key` into the cache, so that the probe of a position just
    /// reached finds it there (a hint: on targets other than x86-64 it does nothing).
    ///
    /// ```
    /// use chessbits_engine::tt::TranspositionTable;
    /// let tt = TranspositionTable::new(1);
    /// tt.prefetch(0x1234_5678);
    /// assert!(tt.probe(0x1234_5678, 0).is_none());
    /// ```
    #[inline]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            let line = std::ptr::from_ref(self.bucket(key)).cast::<i8>();
            // SAFETY: a prefetch reads nothing and cannot fault (it is a hint to the cache); the
            // pointer is that of a live bucket besides. SSE, which `_mm_prefetch` needs, is part of
            // every x86-64 CPU. `unused_unsafe`: newer compilers treat the intrinsic as safe.
            #[allow(unsafe_code, unused_unsafe)]
            unsafe {
                std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(line);
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// Starts loading the bucket of the position `m` leads to, before the move is made (see
    /// [`predicted_key`]): the search calls it as soon as it picks a move, so the bucket is on
    /// its way while the move is weighed for pruning and made.
    ///
    /// ```
    /// use chessbits::position::Position;
    /// use chessbits_engine::tt::TranspositionTable;
    /// let pos = Position::startpos();
    /// TranspositionTable::new(1).prefetch_after(&pos, pos.legal_moves()[0]);
    /// ```
    #[inline]
    pub fn prefetch_after(&self, pos: &Position, m: Move) {
        self.prefetch(predicted_key(pos, m));
    }

    /// The entry for `key`, with a mate score made relative to `ply`.
    pub fn probe(&self, key: u64, ply: usize) -> Option<TtHit> {
        for entry in &self.bucket(key).entries {
            let data = entry.data.load(Ordering::Relaxed);
            let check = entry.check.load(Ordering::Relaxed);
            if check ^ data != key || data == 0 {
                continue;
            }
            let bound = Bound::from_bits(data >> 56);
            if bound == Bound::None {
                continue;
            }
            return Some(TtHit {
                mv: Move::from_bits(data as u16).filter(|m| !m.is_null()),
                score: from_tt((data >> 16) as u16 as i16 as i32, ply),
                eval: (data >> 32) as u16 as i16 as i32,
                depth: depth_of(data),
                bound,
            });
        }
        None
    }

    /// Stores a result for `key` searched at `ply` (mate scores are stored relative to the node).
    #[allow(clippy::too_many_arguments)]
    pub fn store(&self, key: u64, mv: Option<Move>, score: i32, eval: i32, depth: i32, bound: Bound, ply: usize) {
        let generation = self.generation.load(Ordering::Relaxed);
        let bucket = self.bucket(key);
        let mut victim = &bucket.entries[0];
        let mut victim_worth = i32::MAX;
        for entry in &bucket.entries {
            let data = entry.data.load(Ordering::Relaxed);
            let check = entry.check.load(Ordering::Relaxed);
            if data == 0 || check ^ data == key {
                victim = entry;
                if data != 0 {
                    // Same position: keep its move if we have none, and keep a much deeper
                    // exact result from being overwritten by a shallow bound.
                    let old_move = Move::from_bits(data as u16).filter(|m| !m.is_null());
                    let mv = mv.or(old_move);
                    if bound != Bound::Exact && depth + 3 < depth_of(data) && generation_of(data) == generation {
                        return;
                    }
                    let packed = pack(mv, to_tt(score, ply), eval, depth, bound, generation);
                    entry.data.store(packed, Ordering::Relaxed);
                    entry.check.store(key ^ packed, Ordering::Relaxed);
                    return;
                }
                victim_worth = i32::MIN;
                break;
            }
            let age = (generation.wrapping_sub(generation_of(data)) & 63) as i32;
            let worth = depth_of(data) - 8 * age;
            if worth < victim_worth {
                victim_worth = worth;
                victim = entry;
            }
        }
        let _ = victim_worth;
        let packed = pack(mv, to_tt(score, ply), eval, depth, bound, generation);
        victim.data.store(packed, Ordering::Relaxed);
        victim.check.store(key ^ packed, Ordering::Relaxed);
    }

    /// Permille of sampled entries filled in the current search (UCI `hashfull`).
    pub fn hashfull(&self) -> u32 {
        let generation = self.generation.load(Ordering::Relaxed);
        let sample = self.buckets.iter().take(250);
        let mut used = 0u32;
        let mut total = 0u32;
        for bucket in sample {
            for entry in &bucket.entries {
                total += 1;
                let data = entry.data.load(Ordering::Relaxed);
                if data != 0 && generation_of(data) == generation {
                    used += 1;
                }
            }
        }
        (used * 1000).checked_div(total).unwrap_or(0)
    }
}

/// The key of the position after `m`, cheaply and without making it: exact for every move that
/// is not a castle, an en passant capture, a promotion or a double push and that changes no
/// castling right (almost all the moves a search makes); for the others a key that is slightly
/// off, which costs a useless prefetch and nothing else. A hint, never a key to store under.
///
/// ```
/// use chessbits::notation::uci::parse_uci;
/// use chessbits::position::Position;
/// use chessbits_engine::tt::predicted_key;
/// let mut pos = Position::startpos();
/// let nf3 = parse_uci(&pos, "g1f3").unwrap();
/// let predicted = predicted_key(&pos, nf3);
/// pos.play_unchecked(nf3);
/// assert_eq!(predicted, pos.key());
/// ```
#[inline]
pub fn predicted_key(pos: &Position, m: Move) -> u64 {
    let mut key = pos.key() ^ white_to_move_key();
    if let Some(ep) = pos.ep_square() {
        key ^= en_passant_key(ep.file());
    }
    if let Some(mover) = pos.piece_at(m.from()) {
        key ^= piece_key(mover, m.from()) ^ piece_key(mover, m.to());
    }
    if let Some(victim) = pos.piece_at(m.to()) {
        key ^= piece_key(victim, m.to());
    }
    key
}

#[cfg(test)]
mod tests {
    use super::*;
    use chessbits::moves::MoveKind;
    use chessbits::types::Square;

    #[test]
    fn entries_are_16_bytes_and_buckets_a_cache_line() {
        assert!(std::mem::size_of::<Entry>() <= 16);
        assert_eq!(std::mem::size_of::<Bucket>(), 64);
        assert_eq!(std::mem::align_of::<Bucket>(), 64);
    }

    #[test]
    fn the_predicted_key_is_the_key_after_every_ordinary_move() {
        use chessbits::moves::MoveKind;
        let starts = [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        ];
        let mut rng = crate::rng::SplitMix64::new(7);
        let (mut exact, mut checked) = (0, 0);
        for fen in starts {
            let mut pos = Position::from_fen(fen).unwrap();
            for _ in 0..60 {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                for &m in moves.iter() {
                    let ordinary = matches!(m.kind(), MoveKind::Quiet | MoveKind::Capture);
                    let mut after = pos.clone();
                    after.play_unchecked(m);
                    checked += 1;
                    if ordinary && after.castling() == pos.castling() {
                        assert_eq!(predicted_key(&pos, m), after.key(), "{fen}: {m}");
                        exact += 1;
                    }
                }
                pos.play_unchecked(moves[rng.below(moves.len())]);
            }
        }
        assert!(exact * 10 > checked * 8, "{exact} of {checked} moves are ordinary");
    }

    #[test]
    fn store_and_probe_round_trip() {
        let tt = TranspositionTable::new(1);
        let m = Move::new(Square::E2, Square::E4, MoveKind::DoublePush);
        tt.store(99, Some(m), -250, 17, 9, Bound::Lower, 3);
        let hit = tt.probe(99, 3).unwrap();
        assert_eq!(hit.mv, Some(m));
        assert_eq!((hit.score, hit.eval, hit.depth, hit.bound), (-250, 17, 9, Bound::Lower));
        assert!(tt.probe(100, 0).is_none());
        // A mate score is stored relative to the node and read back relative to the new ply.
        let mate = crate::search::score::MATE - 10;
        tt.store(7, None, mate, 0, 3, Bound::Exact, 4);
        assert_eq!(tt.probe(7, 6).unwrap().score, mate - 2);
    }

    #[test]
    fn a_torn_entry_is_rejected() {
        let tt = TranspositionTable::new(1);
        tt.store(5, None, 10, 0, 4, Bound::Exact, 0);
        let entry = &tt.bucket(5).entries[0];
        entry.data.fetch_xor(1 << 20, Ordering::Relaxed);
        assert!(tt.probe(5, 0).is_none());
    }

    #[test]
    fn replacement_prefers_shallow_and_old_entries_and_hashfull_counts() {
        let tt = TranspositionTable::new(1);
        let buckets = tt.bucket_count() as u128;
        // Keys that land in bucket 0: the high bits decide the index.
        let key = |i: u64| i;
        assert!(((key(5) as u128 * buckets) >> 64) == 0);
        for i in 1..=4 {
            tt.store(key(i), None, 0, 0, 10 + i as i32, Bound::Exact, 0);
        }
        tt.store(key(9), None, 0, 0, 1, Bound::Exact, 0);
        // The shallowest (depth 11, key 1) went.
        assert!(tt.probe(key(1), 0).is_none());
        assert!(tt.probe(key(9), 0).is_some());
        tt.new_search();
        assert_eq!(tt.hashfull(), 0);
        tt.store(key(20), None, 0, 0, 1, Bound::Exact, 0);
        // Old deep entries now lose to age: the new entry replaced one of them.
        assert!(tt.probe(key(20), 0).is_some());
        assert!(tt.hashfull() > 0 || tt.bucket_count() > 250);
    }
}
