//! The staged `MovePicker` yields exactly the legal moves — each once — whatever hash move and
//! killers it is given (legal, illegal, random bits, moves of other positions), in stage order,
//! captures by MVV-LVA and quiet moves by history; from random games and the perft suites.

use crate::common;

use std::path::Path;

use chessbits::lists::{mvv_lva, MoveList, MovePicker, Stage};
use chessbits::moves::Move;
use chessbits::position::Position;
use common::{perft_suite, shared_path, testdata_path};
use proptest::prelude::*;

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

fn suite_fens(root: &Path, name: &str) -> Vec<String> {
    perft_suite(root, name).into_iter().map(|case| case.fen).collect()
}

fn legal_moves(pos: &Position) -> MoveList {
    let mut list = MoveList::new();
    pos.legal_moves_into(&mut list);
    list
}

/// A hash-move or killer candidate: none, a legal move (quiet or not), random bits, or a move
/// of `other` (plausible-looking, often illegal here).
fn candidate(rng: &mut Rng, legal: &MoveList, other: &MoveList) -> Option<Move> {
    match rng.below(5) {
        0 => None,
        1 | 2 if !legal.is_empty() => Some(legal[rng.below(legal.len())]),
        3 if !other.is_empty() => Some(other[rng.below(other.len())]),
        _ => Move::from_bits(rng.next() as u16),
    }
}

/// Runs the picker and checks everything it promises; returns how many moves came from each
/// stage (hash, captures, killers, quiets).
fn check_picker(
    pos: &Position,
    hash: Option<Move>,
    killers: [Option<Move>; 2],
    history: &[i32; 4096],
) -> Result<[usize; 4], String> {
    let fen = pos.fen();
    let legal = legal_moves(pos);
    let mut picker = MovePicker::with_history(pos, hash, killers, history);
    let mut yielded: Vec<(Move, Stage)> = Vec::new();
    while let Some(m) = picker.next() {
        yielded.push((m, picker.stage()));
        if yielded.len() > legal.len() {
            return Err(format!("{fen}: more moves than legal ones: {yielded:?}"));
        }
    }
    if picker.stage() != Stage::Done || picker.next().is_some() {
        return Err(format!("{fen}: not done after the last move"));
    }

    // Exactly the legal moves, each once.
    let mut got: Vec<u16> = yielded.iter().map(|(m, _)| m.bits()).collect();
    let mut want: Vec<u16> = legal.iter().map(|m| m.bits()).collect();
    got.sort_unstable();
    want.sort_unstable();
    if got != want {
        return Err(format!(
            "{fen}: hash {hash:?} killers {killers:?}: got {got:?}, want {want:?}"
        ));
    }

    // Stages come in order.
    if !yielded.windows(2).all(|w| w[0].1 <= w[1].1) {
        return Err(format!("{fen}: stages out of order: {yielded:?}"));
    }
    let of = |stage| {
        yielded
            .iter()
            .filter(|(_, s)| *s == stage)
            .map(|&(m, _)| m)
            .collect::<Vec<_>>()
    };
    let legal_hash = hash.filter(|h| legal.contains(h));
    if of(Stage::HashMove) != legal_hash.into_iter().collect::<Vec<_>>() {
        return Err(format!("{fen}: hash {hash:?}: {yielded:?}"));
    }

    // Captures: the tactical moves (but the hash move), best MVV-LVA first.
    let captures = of(Stage::Captures);
    let expected_captures = legal
        .iter()
        .filter(|m| m.is_tactical() && Some(**m) != legal_hash)
        .count();
    if captures.len() != expected_captures || captures.iter().any(|m| !m.is_tactical()) {
        return Err(format!("{fen}: captures {captures:?}"));
    }
    let capture_scores: Vec<i32> = captures.iter().map(|&m| mvv_lva(pos.board(), m)).collect();
    if !capture_scores.windows(2).all(|w| w[0] >= w[1]) {
        return Err(format!("{fen}: capture order {captures:?} {capture_scores:?}"));
    }

    // Killers: the legal quiet ones, not the hash move, no duplicates, in the given order.
    let mut expected_killers: Vec<Move> = Vec::new();
    for killer in killers.into_iter().flatten() {
        if legal.contains(&killer)
            && !killer.is_tactical()
            && Some(killer) != legal_hash
            && !expected_killers.contains(&killer)
        {
            expected_killers.push(killer);
        }
    }
    if of(Stage::Killers) != expected_killers {
        return Err(format!("{fen}: killers {killers:?} gave {:?}", of(Stage::Killers)));
    }

    // Quiet moves by history, highest first (the test histories span less than 1024, so the
    // order is exact).
    let quiets = of(Stage::Quiets);
    let quiet_history: Vec<i32> = quiets.iter().map(|m| history[m.butterfly_index()]).collect();
    if !quiet_history.windows(2).all(|w| w[0] >= w[1]) || quiets.iter().any(|m| m.is_tactical()) {
        return Err(format!("{fen}: quiet order {quiets:?} {quiet_history:?}"));
    }
    Ok([
        of(Stage::HashMove).len(),
        captures.len(),
        of(Stage::Killers).len(),
        quiets.len(),
    ])
}

fn random_history(rng: &mut Rng) -> Box<[i32; 4096]> {
    let mut history = Box::new([0i32; 4096]);
    for h in history.iter_mut() {
        *h = (rng.next() % 1000) as i32 - 500;
    }
    history
}

/// Checks the picker on `pos` with several candidate sets; accumulates stage counts.
fn check_position(pos: &Position, other: &MoveList, rng: &mut Rng, history: &[i32; 4096], totals: &mut [usize; 4]) {
    let legal = legal_moves(pos);
    for _ in 0..4 {
        let hash = candidate(rng, &legal, other);
        let killers = [candidate(rng, &legal, other), candidate(rng, &legal, other)];
        let counts = check_picker(pos, hash, killers, history).unwrap_or_else(|e| panic!("{e}"));
        for (total, n) in totals.iter_mut().zip(counts) {
            *total += n;
        }
    }
    // The killers equal to each other and to the hash move.
    if let Some(&m) = legal.iter().find(|m| !m.is_tactical()) {
        check_picker(pos, Some(m), [Some(m), Some(m)], history).unwrap_or_else(|e| panic!("{e}"));
        check_picker(pos, None, [Some(m), Some(m)], history).unwrap_or_else(|e| panic!("{e}"));
    }
}

#[test]
fn random_games_from_the_start() {
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    let mut totals = [0; 4];
    let mut in_check = 0;
    for _ in 0..150 {
        let history = random_history(&mut rng);
        let mut pos = Position::startpos();
        let mut previous = MoveList::new();
        for _ in 0..120 {
            check_position(&pos, &previous, &mut rng, &history, &mut totals);
            in_check += usize::from(pos.is_check());
            let legal = legal_moves(&pos);
            if legal.is_empty() {
                break;
            }
            pos.play_unchecked(legal[rng.below(legal.len())]);
            previous = legal;
        }
    }
    // Every stage was exercised, evasions included.
    assert!(totals.iter().all(|&n| n > 1000), "{totals:?}");
    assert!(in_check > 500, "{in_check}");
}

/// `fischer_step`: every how many Chess960 positions one is taken (the bundled file holds the
/// first 100 of the 960).
fn suite_positions_and_random_walks(root: &Path, fischer_step: usize) {
    let mut rng = Rng(0xdead_beef_cafe_f00d);
    let mut totals = [0; 4];
    let mut fens = suite_fens(root, "shakmaty_tricky.perft");
    fens.extend(suite_fens(root, "ethereal_standard.epd"));
    fens.extend(
        suite_fens(root, "ethereal_fischer.epd")
            .into_iter()
            .step_by(fischer_step),
    );
    for fen in &fens {
        let history = random_history(&mut rng);
        let mut pos = common::composed_position(fen);
        let mut previous = MoveList::new();
        for _ in 0..16 {
            check_position(&pos, &previous, &mut rng, &history, &mut totals);
            let legal = legal_moves(&pos);
            if legal.is_empty() {
                break;
            }
            pos.play_unchecked(legal[rng.below(legal.len())]);
            previous = legal;
        }
    }
    assert!(totals.iter().all(|&n| n > 500), "{totals:?}");
}

#[test]
fn perft_suite_positions_and_random_walks_from_them() {
    suite_positions_and_random_walks(&testdata_path(), 1);
}

#[test]
#[ignore = "needs ../shared/data (see testdata/README.md); run: cargo test --workspace -- --ignored shared_data_"]
fn shared_data_perft_suite_positions_and_random_walks_from_them() {
    suite_positions_and_random_walks(&shared_path(), 8);
}

#[test]
fn skip_quiets_yields_the_hash_move_and_the_tactical_moves_only() {
    let pos = Position::from_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1").unwrap();
    let legal = legal_moves(&pos);
    let quiet = legal.iter().copied().find(|m| !m.is_tactical()).unwrap();
    let mut picker = MovePicker::new(&pos, Some(quiet), [None, None], |_| 0);
    picker.skip_quiets();
    let got: Vec<Move> = picker.collect();
    assert_eq!(got[0], quiet);
    assert_eq!(got.len(), 1 + legal.iter().filter(|m| m.is_tactical()).count());
    assert!(got[1..].iter().all(|m| m.is_tactical()));
}

#[test]
fn an_illegal_hash_move_is_never_yielded() {
    // Every kind code on some from/to pairs: a pinned knight, the king stepping into the pin
    // line, a move of the other side, castles in both encodings, rook moves and captures.
    let pos = Position::from_fen("4k3/8/8/8/1b6/8/3N4/R3K2R w KQ - 0 1").unwrap();
    let legal = legal_moves(&pos);
    for uci in ["d2e4", "e1d1", "e8e7", "e1c1", "e1a1", "a1a8", "h1h8"] {
        let bits = chessbits::notation::uci::parse_parts(uci).unwrap().unwrap();
        for kind_code in 0..16u16 {
            let raw = (kind_code << 12) | ((bits.from.index() as u16) << 6) | bits.to.index() as u16;
            let Some(m) = Move::from_bits(raw) else { continue };
            let first = MovePicker::new(&pos, Some(m), [None, None], |_| 0).next();
            assert_eq!(first == Some(m), legal.contains(&m), "{uci} kind {kind_code}");
        }
    }
}

proptest! {
    #[test]
    fn picker_yields_each_legal_move_once(
        choices in prop::collection::vec(any::<u16>(), 0..80),
        hash_bits in any::<u16>(),
        killer_bits in any::<[u16; 2]>(),
        pick_legal in any::<[bool; 3]>(),
        seed in any::<u64>(),
    ) {
        let mut rng = Rng(seed | 1);
        let history = random_history(&mut rng);
        let mut pos = Position::startpos();
        for choice in choices {
            let legal = legal_moves(&pos);
            if legal.is_empty() {
                break;
            }
            pos.play_unchecked(legal[choice as usize % legal.len()]);
        }
        let legal = legal_moves(&pos);
        let pick = |bits: u16, legal_one: bool| {
            if legal_one && !legal.is_empty() {
                Some(legal[bits as usize % legal.len()])
            } else {
                Move::from_bits(bits)
            }
        };
        let hash = pick(hash_bits, pick_legal[0]);
        let killers = [pick(killer_bits[0], pick_legal[1]), pick(killer_bits[1], pick_legal[2])];
        let result = check_picker(&pos, hash, killers, &history);
        prop_assert!(result.is_ok(), "{}", result.err().unwrap_or_default());
    }
}
