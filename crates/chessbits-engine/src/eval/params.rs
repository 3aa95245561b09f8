//! The evaluation weights as one vector, so Texel tuning ([`crate::tune`]) can adjust them.
//!
//! Every weight has a name and an index; [`DEFAULT`] holds the values the engine plays with.

/// The number of weights.
pub const COUNT: usize = 50;

/// Index of the first of five middlegame material values (pawn … queen).
pub const MATERIAL_MG: usize = 0;
/// Index of the first of five endgame material values.
pub const MATERIAL_EG: usize = 5;
/// Index of the first of four middlegame mobility weights (knight, bishop, rook, queen).
pub const MOBILITY_MG: usize = 10;
/// Index of the first of four endgame mobility weights.
pub const MOBILITY_EG: usize = 14;
/// Index of the first of six middlegame passed-pawn bonuses (relative ranks 2 … 7).
pub const PASSED_MG: usize = 18;
/// Index of the first of six endgame passed-pawn bonuses.
pub const PASSED_EG: usize = 24;
/// Isolated pawn (mg, eg).
pub const ISOLATED: usize = 30;
/// Doubled pawn (mg, eg).
pub const DOUBLED: usize = 32;
/// Bishop pair (mg, eg).
pub const BISHOP_PAIR: usize = 34;
/// Pawn shield in front of the king, per pawn (mg).
pub const SHIELD: usize = 36;
/// King attack scale in percent.
pub const KING_ATTACK: usize = 37;
/// Side-to-move bonus.
pub const TEMPO: usize = 38;
/// Piece-square shape scale in percent, middlegame and endgame.
pub const PST_SCALE: usize = 39;
/// Rook on a file without pawns (mg, eg).
pub const ROOK_OPEN: usize = 41;
/// Rook on a file without own pawns but with enemy ones (mg, eg).
pub const ROOK_SEMI_OPEN: usize = 43;
/// Pawn defended by an own pawn (mg, eg).
pub const SUPPORTED: usize = 45;
/// Pawn with an own pawn beside it on the same rank (mg, eg).
pub const PHALANX: usize = 47;
/// Passed pawn, endgame: per rank above the second, per square the enemy king is farther from
/// the square in front of it than our king.
pub const PASSED_KING: usize = 49;

/// A full set of weights.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Params(pub [i32; COUNT]);

/// The weights the engine plays with.
pub const DEFAULT: Params = Params([
    // material mg: P N B R Q
    82, 337, 365, 477, 1025, //
    // material eg
    94, 281, 297, 512, 936, //
    // mobility mg: N B R Q; eg
    4, 5, 2, 1, 4, 5, 4, 2, //
    // passed mg by relative rank 2..7; eg
    5, 5, 10, 20, 35, 55, 10, 15, 25, 45, 75, 120, //
    // isolated, doubled, bishop pair (mg, eg)
    -10, -14, -10, -20, 30, 50, //
    // shield, king attack %, tempo, pst scale mg %, eg %
    12, 100, 10, 100, 100, //
    // rook on an open file, on a half-open file (mg, eg)
    26, 24, 15, 14, //
    // supported pawn, phalanx pawn (mg, eg), passed pawn king distance eg
    6, 8, 5, 10, 3,
]);

/// The name of each weight, for the tuner's output.
pub fn name(index: usize) -> String {
    const ROLES: [&str; 5] = ["pawn", "knight", "bishop", "rook", "queen"];
    const MOVERS: [&str; 4] = ["knight", "bishop", "rook", "queen"];
    match index {
        i if i < 5 => format!("material mg {}", ROLES[i]),
        i if i < 10 => format!("material eg {}", ROLES[i - 5]),
        i if i < 14 => format!("mobility mg {}", MOVERS[i - 10]),
        i if i < 18 => format!("mobility eg {}", MOVERS[i - 14]),
        i if i < 24 => format!("passed mg rank {}", i - 18 + 2),
        i if i < 30 => format!("passed eg rank {}", i - 24 + 2),
        30 => "isolated mg".into(),
        31 => "isolated eg".into(),
        32 => "doubled mg".into(),
        33 => "doubled eg".into(),
        34 => "bishop pair mg".into(),
        35 => "bishop pair eg".into(),
        36 => "shield mg".into(),
        37 => "king attack %".into(),
        38 => "tempo".into(),
        39 => "pst scale mg %".into(),
        40 => "pst scale eg %".into(),
        41 => "rook open file mg".into(),
        42 => "rook open file eg".into(),
        43 => "rook half-open file mg".into(),
        44 => "rook half-open file eg".into(),
        45 => "supported pawn mg".into(),
        46 => "supported pawn eg".into(),
        47 => "phalanx pawn mg".into(),
        48 => "phalanx pawn eg".into(),
        49 => "passed king distance eg".into(),
        _ => format!("#{index}"),
    }
}
