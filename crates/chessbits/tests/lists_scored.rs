//! The scored move list: the captured role and MVV-LVA read the board right, selection picks
//! return every move once in non-increasing score order, any signed 16-bit key (a history
//! value) orders exactly, and a full list reports instead of panicking.

use crate::common;

use chessbits::lists::{captured_role, mvv_lva, ListFull, MoveList, ScoredMoveList, MAX_MOVES};
use chessbits::moves::ExtendedMove;
use chessbits::position::Position;
use chessbits::types::Role;
use proptest::prelude::*;

fn suite_positions() -> &'static [Position] {
    static POSITIONS: std::sync::OnceLock<Vec<Position>> = std::sync::OnceLock::new();
    POSITIONS.get_or_init(load_suite_positions)
}

/// The positions of two suites that `testdata/` holds whole (no run on `../shared/data` needed).
fn load_suite_positions() -> Vec<Position> {
    let mut positions = Vec::new();
    for name in ["shakmaty_tricky.perft", "ethereal_standard.epd"] {
        for case in common::perft_suite(&common::testdata_path(), name) {
            positions.push(common::composed_position(&case.fen));
        }
    }
    positions
}

fn legal(pos: &Position) -> MoveList {
    let mut list = MoveList::new();
    pos.legal_moves_into(&mut list);
    list
}

#[test]
fn captured_roles_name_the_victim() {
    let mut seen = [0usize; 3]; // en passant, castles, other captures
    for pos in suite_positions() {
        for &m in legal(pos).iter() {
            let captured = captured_role(pos.board(), m);
            let victim = if m.is_en_passant() {
                seen[0] += 1;
                Some(Role::Pawn)
            } else if m.is_castle() {
                seen[1] += 1;
                None
            } else if m.is_capture() {
                seen[2] += 1;
                pos.board().role_at(m.to())
            } else {
                None
            };
            assert_eq!(captured, victim, "{m} in {}", pos.fen());
            // The victim of a capture is an enemy piece and never a king.
            if m.is_capture() && !m.is_en_passant() {
                assert_ne!(pos.piece_at(m.to()).map(|p| p.color), Some(pos.turn()));
                assert_ne!(captured, Some(Role::King));
            }
        }
    }
    assert!(seen.iter().all(|&n| n > 0), "{seen:?}");
}

#[test]
fn picks_are_a_permutation_in_score_order() {
    for pos in suite_positions() {
        let moves = legal(pos);
        let mut scored = ScoredMoveList::from_moves(&moves, pos);
        assert_eq!(scored.len(), moves.len());
        let picked: Vec<ExtendedMove> = std::iter::from_fn(|| scored.pick_best()).collect();
        assert_eq!(scored.picked(), &picked[..]);
        assert!(scored.remaining().is_empty());
        let scores: Vec<i32> = picked.iter().map(|xm| xm.score()).collect();
        assert!(scores.windows(2).all(|w| w[0] >= w[1]), "{}", pos.fen());
        // The same multiset of moves, each with its MVV-LVA score.
        let mut got: Vec<u16> = picked.iter().map(|xm| xm.mv().bits()).collect();
        let mut want: Vec<u16> = moves.iter().map(|m| m.bits()).collect();
        got.sort_unstable();
        want.sort_unstable();
        assert_eq!(got, want);
        assert!(picked.iter().all(|&xm| xm.score() == mvv_lva(pos.board(), xm.mv())));
        // A full sort gives the same score sequence.
        let mut sorted: Vec<i32> = picked.iter().map(|&xm| mvv_lva(pos.board(), xm.mv())).collect();
        sorted.sort_unstable_by(|a, b| b.cmp(a));
        assert_eq!(scores, sorted);
    }
}

#[test]
fn mvv_lva_puts_every_capture_before_every_quiet_move() {
    for pos in suite_positions() {
        let mut scored = ScoredMoveList::from_moves(&legal(pos), pos);
        let picked: Vec<ExtendedMove> = std::iter::from_fn(|| scored.pick_best()).collect();
        let first_quiet = picked
            .iter()
            .position(|xm| !xm.mv().is_tactical())
            .unwrap_or(picked.len());
        assert!(
            picked[first_quiet..].iter().all(|xm| !xm.mv().is_capture()),
            "{}",
            pos.fen()
        );
    }
}

#[test]
fn a_full_list_reports_instead_of_panicking() {
    let mut list = ScoredMoveList::new();
    for i in 0..MAX_MOVES {
        assert_eq!(list.push(ExtendedMove::default().with_score(i as i32 % 1024)), Ok(()));
    }
    assert_eq!(list.push(ExtendedMove::default()), Err(ListFull));
    assert_eq!(list.len(), MAX_MOVES);
    assert_eq!(list.pick_best().map(|xm| xm.score()), Some(MAX_MOVES as i32 - 1));
}

/// Keys in the 16-bit range order exactly (a history table's values need no scaling); keys
/// beyond it are clamped, so picks never put a lower key before a higher one unless both are
/// clamped to the same end.
#[test]
fn signed_keys_keep_their_order() {
    // The positions are read first: a missing file fails here, never inside the property, where
    // proptest would save the panic as a failing case in a regressions file.
    assert!(!suite_positions().is_empty());
    signed_keys_keep_their_order_on_suite_positions();
}

proptest! {
    fn signed_keys_keep_their_order_on_suite_positions(keys in prop::collection::vec(any::<i32>(), 4096), narrow in any::<bool>()) {
        let key_of = |m: chessbits::Move| {
            let k = keys[m.butterfly_index()];
            if narrow { k.rem_euclid(32_768) - 16_384 } else { k }
        };
        for pos in suite_positions().iter().step_by(7) {
            let moves = legal(pos);
            let mut scored = ScoredMoveList::new();
            scored.fill_with(&moves, key_of);
            let picked: Vec<ExtendedMove> = std::iter::from_fn(|| scored.pick_best()).collect();
            prop_assert_eq!(picked.len(), moves.len());
            for w in picked.windows(2) {
                let (a, b) = (key_of(w[0].mv()), key_of(w[1].mv()));
                prop_assert!(a >= b || w[0].score() == w[1].score());
                if narrow {
                    prop_assert!(a >= b);
                    prop_assert_eq!(w[0].score(), a);
                }
            }
        }
    }
}
