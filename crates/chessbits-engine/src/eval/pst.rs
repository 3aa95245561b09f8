//! Piece-square tables, middlegame and endgame, from White's point of view.
//!
//! The tables are built from a few shape functions (centre distance, advancement, the
//! castled king's squares) instead of 768 typed-in numbers: the shapes say why a square is
//! good, and Texel tuning (issue 13, item 4) will later adjust the weights behind them.

use chessbits::types::{Role, Square};

use super::pst_tuned::TUNED;

/// Distance from the centre: 0 on d4/e4/d5/e5 … 3 in the corners (Chebyshev rings).
const fn centre_ring(file: i32, rank: i32) -> i32 {
    let df = if file < 4 { 3 - file } else { file - 4 };
    let dr = if rank < 4 { 3 - rank } else { rank - 4 };
    if df > dr {
        df
    } else {
        dr
    }
}

/// The (mg, eg) bonus of a White `role` on `sq` (a1 = 0).
const fn square_bonus(role: Role, sq: usize) -> (i32, i32) {
    let file = (sq % 8) as i32;
    let rank = (sq / 8) as i32;
    let ring = centre_ring(file, rank);
    match role {
        Role::Pawn => {
            if rank == 0 || rank == 7 {
                return (0, 0);
            }
            // Central pawns on ranks 3–5 control the centre; flank pawns in front of a castled
            // king are better left home.
            let central = (file == 3 || file == 4) as i32;
            let mg = (rank - 1) * 4 + central * [0, 0, 10, 20, 15, 5, 0, 0][rank as usize];
            let eg = (rank - 1) * 10;
            (mg, eg)
        }
        Role::Knight => (30 - 12 * ring - if rank == 0 { 10 } else { 0 }, 20 - 10 * ring),
        Role::Bishop => {
            let long_diagonal = (file == rank || file + rank == 7) as i32;
            (
                15 - 6 * ring + 8 * long_diagonal - if rank == 0 { 8 } else { 0 },
                10 - 5 * ring,
            )
        }
        Role::Rook => {
            let seventh = (rank == 6) as i32;
            let central = (file == 3 || file == 4) as i32;
            (20 * seventh + 5 * central, 10 * seventh)
        }
        Role::Queen => (5 - 4 * ring - if rank == 0 { 3 } else { 0 }, 12 - 8 * ring),
        Role::King => {
            // Middlegame: tucked away behind its pawns (castled on g1/b1/c1), away from the
            // centre and from advancing; endgame: to the centre.
            let mg = match rank {
                0 => [20, 30, 10, -10, 0, -10, 30, 20][file as usize],
                1 => [-10, -10, -20, -30, -30, -20, -10, -10][file as usize],
                _ => -30 - 10 * rank,
            };
            (mg, 30 - 15 * ring)
        }
    }
}

const fn build() -> [[[i32; 64]; 6]; 2] {
    let mut tables = [[[0; 64]; 6]; 2];
    let mut r = 0;
    while r < 6 {
        let role = match r {
            0 => Role::Pawn,
            1 => Role::Knight,
            2 => Role::Bishop,
            3 => Role::Rook,
            4 => Role::Queen,
            _ => Role::King,
        };
        let mut sq = 0;
        while sq < 64 {
            let (mg, eg) = square_bonus(role, sq);
            tables[0][r][sq] = mg;
            tables[1][r][sq] = eg;
            sq += 1;
        }
        r += 1;
    }
    tables
}

/// `[phase][role][square]`: the shapes' square bonus for White (the tuned corrections of
/// [`super::pst_tuned`] are added in [`value`]) (material comes from the weights);
/// phase 0 = mg, 1 = eg.
static TABLES: [[[i32; 64]; 6]; 2] = build();

/// The (mg, eg) square bonus of a White piece of `role` on `sq`; for Black pass the square
/// mirrored.
///
/// ```
/// use chessbits_engine::eval::pst::value;
/// use chessbits::types::{Role, Square};
/// assert!(value(Role::Knight, Square::E4).0 > value(Role::Knight, Square::A1).0);
/// ```
#[inline]
pub fn value(role: Role, sq: Square) -> (i32, i32) {
    let (r, s) = (role.index(), sq.index());
    (
        TABLES[0][r][s] + TUNED[0][r][s] as i32,
        TABLES[1][r][s] + TUNED[1][r][s] as i32,
    )
}
