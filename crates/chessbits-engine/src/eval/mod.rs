//! Static evaluation: tapered middlegame/endgame terms, from the side to move.
//!
//! Terms: material and piece-square tables ([`pst`]), mobility, pawn structure (passed, with
//! the kings' distances in the endgame; isolated, doubled, supported, phalanx), king safety
//! (pawn shield, attacks on the king zone), rooks on open and half-open files, bishop pair and
//! a small tempo bonus. Each term yields a middlegame and an endgame value; the game phase
//! (knights and bishops 1, rooks 2, queens 4; 24 at the start) blends them.
//!
//! ```
//! use chessbits::position::Position;
//! use chessbits_engine::eval::evaluate;
//! // The start position is balanced up to the tempo bonus.
//! assert!(evaluate(&Position::startpos()).abs() < 30);
//! ```

pub mod nnue;
pub mod params;
pub mod pst;
mod pst_tuned;

use chessbits::attacks;
use chessbits::position::{Board, Position};
use chessbits::types::{Bitboard, Color, File, Piece, Role, Square};

/// A middlegame and an endgame value.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
struct Score(i32, i32);

impl std::ops::AddAssign for Score {
    fn add_assign(&mut self, o: Score) {
        self.0 += o.0;
        self.1 += o.1;
    }
}

impl std::ops::SubAssign for Score {
    fn sub_assign(&mut self, o: Score) {
        self.0 -= o.0;
        self.1 -= o.1;
    }
}

const PHASE_WEIGHT: [i32; 6] = [0, 1, 1, 2, 4, 0];
/// The phase with every piece on the board.
pub(crate) const FULL_PHASE: i32 = 24;

/// Reachable squares a piece counts as normal (mobility is scored above and below it), by role.
const MOBILITY_BASE: [i32; 6] = [0, 4, 6, 6, 12, 0];
/// Attack weight on the king zone by attacking role.
const KING_ATTACK_WEIGHT: [i32; 6] = [0, 2, 2, 3, 5, 0];

fn file_mask(file: File) -> Bitboard {
    Bitboard::from_file(file)
}

fn adjacent_files(file: File) -> Bitboard {
    let i = file.index();
    let mut mask = Bitboard::EMPTY;
    if i > 0 {
        mask |= file_mask(File::ALL[i - 1]);
    }
    if i < 7 {
        mask |= file_mask(File::ALL[i + 1]);
    }
    mask
}

/// The squares in front of `sq` for `color` on the same and adjacent files.
fn passed_span(color: Color, sq: Square) -> Bitboard {
    let files = file_mask(sq.file()) | adjacent_files(sq.file());
    let rank = sq.rank().index();
    let ahead: u64 = match color {
        Color::White if rank < 7 => !0u64 << (8 * (rank + 1)),
        Color::Black if rank > 0 => !0u64 >> (8 * (8 - rank)),
        _ => 0,
    };
    files & Bitboard(ahead)
}

fn pawn_attacks(board: &Board, color: Color) -> Bitboard {
    let pawns = board.by_piece(Piece::new(color, Role::Pawn));
    let mut all = Bitboard::EMPTY;
    for sq in pawns {
        all |= attacks::pawn(color, sq);
    }
    all
}

fn side_score(board: &Board, us: Color, w: &[i32; params::COUNT]) -> Score {
    let them = !us;
    let occupied = board.occupied();
    let own = board.by_color(us);
    let our_pawns = board.by_piece(Piece::new(us, Role::Pawn));
    let their_pawns = board.by_piece(Piece::new(them, Role::Pawn));
    let enemy_pawn_attacks = pawn_attacks(board, them);
    let their_king = board.king_of(them);
    let king_zone = their_king.map_or(Bitboard::EMPTY, |k| attacks::king(k).with(k));
    let mut score = Score::default();
    let mut king_attack = 0;
    let mut attackers = 0;

    for sq in own {
        let Some(piece) = board.piece_at(sq) else { continue };
        let relative = if us == Color::White { sq } else { sq.flip_vertical() };
        let (mg, eg) = pst::value(piece.role, relative);
        let r = piece.role.index();
        score += Score(mg * w[params::PST_SCALE] / 100, eg * w[params::PST_SCALE + 1] / 100);
        if r < 5 {
            score += Score(w[params::MATERIAL_MG + r], w[params::MATERIAL_EG + r]);
        }
        match piece.role {
            Role::Pawn => {
                let file = file_mask(sq.file());
                if (passed_span(us, sq) & their_pawns).is_empty() {
                    let rank = sq.rank().relative_to(us).index();
                    if (1..7).contains(&rank) {
                        score += Score(w[params::PASSED_MG + rank - 1], w[params::PASSED_EG + rank - 1]);
                        // In the endgame kings decide races: the square in front of the pawn
                        // wants our king near and theirs far, the more the farther it is.
                        let front = sq.offset(if us == Color::White { 8 } else { -8 });
                        if let (Some(front), Some(ours), Some(theirs)) = (front, board.king_of(us), their_king) {
                            let gap = theirs.distance(front) as i32 - ours.distance(front) as i32;
                            score += Score(0, w[params::PASSED_KING] * gap * (rank as i32 - 1));
                        }
                    }
                }
                if (attacks::pawn(them, sq) & our_pawns).any() {
                    score += Score(w[params::SUPPORTED], w[params::SUPPORTED + 1]);
                }
                if (adjacent_files(sq.file()) & Bitboard::from_rank(sq.rank()) & our_pawns).any() {
                    score += Score(w[params::PHALANX], w[params::PHALANX + 1]);
                }
                if (adjacent_files(sq.file()) & our_pawns).is_empty() {
                    score += Score(w[params::ISOLATED], w[params::ISOLATED + 1]);
                }
                // Count each doubled pair once: from the rear pawn.
                if (passed_span(us, sq) & file & our_pawns).any() {
                    score += Score(w[params::DOUBLED], w[params::DOUBLED + 1]);
                }
            }
            Role::King => {}
            role => {
                if role == Role::Rook {
                    // A rook belongs on a file its own pawns do not block.
                    let file = file_mask(sq.file());
                    if (file & our_pawns).is_empty() {
                        if (file & their_pawns).is_empty() {
                            score += Score(w[params::ROOK_OPEN], w[params::ROOK_OPEN + 1]);
                        } else {
                            score += Score(w[params::ROOK_SEMI_OPEN], w[params::ROOK_SEMI_OPEN + 1]);
                        }
                    }
                }
                let attacked = attacks::attacks(piece, sq, occupied);
                let reach = attacked & !own & !enemy_pawn_attacks;
                let n = reach.count() as i32 - MOBILITY_BASE[role.index()];
                let m = role.index() - 1;
                score += Score(w[params::MOBILITY_MG + m] * n, w[params::MOBILITY_EG + m] * n);
                let hits = (attacked & king_zone).count() as i32;
                if hits > 0 {
                    attackers += 1;
                    king_attack += hits * KING_ATTACK_WEIGHT[role.index()];
                }
            }
        }
    }
    if board.by_piece(Piece::new(us, Role::Bishop)).more_than_one() {
        score += Score(w[params::BISHOP_PAIR], w[params::BISHOP_PAIR + 1]);
    }
    // Our attack on their king: counts only with two attackers or more, and grows faster than
    // linearly (attacks combine).
    if attackers >= 2 {
        score += Score(king_attack * king_attack * w[params::KING_ATTACK] / 200, 0);
    }
    // Our own pawn shield, a middlegame term.
    if let Some(king) = board.king_of(us) {
        let shield = attacks::king(king) & passed_span(us, king) & our_pawns;
        score += Score(w[params::SHIELD] * shield.count() as i32, 0);
    }
    score
}

/// The game phase, 0 (bare kings and pawns) to 24 (all pieces).
pub(crate) fn phase(board: &Board) -> i32 {
    let mut phase = 0;
    for role in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen] {
        phase += PHASE_WEIGHT[role.index()] * board.by_role(role).count() as i32;
    }
    phase.min(FULL_PHASE)
}

/// The static evaluation of `pos` in centipawns, from the side to move.
pub fn evaluate(pos: &Position) -> i32 {
    evaluate_with(pos, &params::DEFAULT)
}

/// [`evaluate`] with other weights (for tuning).
pub fn evaluate_with(pos: &Position, params: &params::Params) -> i32 {
    let w = &params.0;
    let board = pos.board();
    let mut score = side_score(board, Color::White, w);
    score -= side_score(board, Color::Black, w);
    let phase = phase(board);
    let white = (score.0 * phase + score.1 * (FULL_PHASE - phase)) / FULL_PHASE;
    let relative = if pos.turn() == Color::White { white } else { -white };
    relative + w[params::TEMPO]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn eval(fen: &str) -> i32 {
        evaluate(&Position::from_fen(fen).unwrap())
    }

    #[test]
    fn symmetric_positions_evaluate_to_the_tempo() {
        for fen in [
            "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
            "4k3/pp4pp/8/8/8/8/PP4PP/4K3 w - - 0 1",
        ] {
            let pos = Position::from_fen(fen).unwrap();
            let mirrored = Position::from_fen(&mirror_fen(fen)).unwrap();
            assert_eq!(evaluate(&pos), evaluate(&mirrored), "{fen}");
        }
        assert_eq!(eval("4k3/8/8/8/8/8/8/4K3 w - - 0 1"), params::DEFAULT.0[params::TEMPO]);
    }

    /// The colour-flipped FEN (board mirrored, colours swapped, other side to move).
    fn mirror_fen(fen: &str) -> String {
        let fields: Vec<&str> = fen.split(' ').collect();
        let ranks: Vec<String> = fields[0]
            .split('/')
            .rev()
            .map(|r| {
                r.chars()
                    .map(|c| {
                        if c.is_ascii_uppercase() {
                            c.to_ascii_lowercase()
                        } else {
                            c.to_ascii_uppercase()
                        }
                    })
                    .collect()
            })
            .collect();
        let turn = if fields[1] == "w" { "b" } else { "w" };
        let castling: String = fields[2]
            .chars()
            .map(|c| {
                if c.is_ascii_uppercase() {
                    c.to_ascii_lowercase()
                } else {
                    c.to_ascii_uppercase()
                }
            })
            .collect();
        format!("{} {} {} - 0 1", ranks.join("/"), turn, castling)
    }

    #[test]
    fn material_and_structure_count() {
        // A queen up is a lot.
        assert!(eval("4k3/8/8/8/8/8/8/3QK3 w - - 0 1") > 800);
        assert!(eval("4k3/8/8/8/8/8/8/3QK3 b - - 0 1") < -800);
        // A far-advanced passed pawn beats a blocked one in the endgame.
        let passed = eval("4k3/8/1P6/8/8/8/8/4K3 w - - 0 1");
        let blocked = eval("4k3/1p6/1P6/8/8/8/8/4K3 w - - 0 1");
        assert!(passed > blocked + 100, "{passed} {blocked}");
        // Doubled isolated pawns are worse than two connected ones.
        let doubled = eval("4k3/8/8/8/8/2P5/2P5/4K3 w - - 0 1");
        let connected = eval("4k3/8/8/8/8/8/2PP4/4K3 w - - 0 1");
        assert!(connected > doubled);
        // The bishop pair.
        assert!(eval("4k3/8/8/8/8/8/8/2BBK3 w - - 0 1") > eval("4k3/8/8/8/8/8/8/2BNK3 w - - 0 1"));
    }
}
