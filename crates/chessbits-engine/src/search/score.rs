//! Score conventions: centipawns from the side to move, mates as `MATE − plies`.

/// The score of delivering mate now; a mate in `n` plies scores `MATE − n`.
pub const MATE: i32 = 32_000;
/// Larger than any score.
pub const INFINITY: i32 = 32_001;
/// The deepest ply a search reaches (the search stack holds this many plies).
pub const MAX_PLY: usize = 120;
/// Scores at or above this (or at or below its negation) are mate scores.
pub const MATE_BOUND: i32 = MATE - MAX_PLY as i32;

/// Whether `score` announces a mate, for either side.
pub fn is_mate(score: i32) -> bool {
    score.abs() >= MATE_BOUND
}

/// A score as the table stores it: mates counted from the node, not from the root.
pub fn to_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score + ply as i32
    } else if score <= -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

/// A stored score read back at `ply`.
pub fn from_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score - ply as i32
    } else if score <= -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

/// The UCI form of a score: `cp N` or `mate N` (moves, negative when being mated).
///
/// ```
/// use chessbits_engine::search::score::{uci_score, MATE};
/// assert_eq!(uci_score(35), "cp 35");
/// assert_eq!(uci_score(MATE - 3), "mate 2");
/// assert_eq!(uci_score(-(MATE - 4)), "mate -2");
/// ```
pub fn uci_score(score: i32) -> String {
    if score >= MATE_BOUND {
        format!("mate {}", (MATE - score + 1) / 2)
    } else if score <= -MATE_BOUND {
        format!("mate -{}", (MATE + score) / 2)
    } else {
        format!("cp {score}")
    }
}
