//! Staged move generation on the [`SearchStack`]: the search's own move picker.
//!
//! The library's [`MovePicker`](chessbits::lists::MovePicker) keeps a list per node; the
//! search instead keeps every ply's moves in the one [`SearchStack`] of its thread, so this
//! picker is only a small state machine (stage, hash move, killers, countermove) and reads and
//! writes the current ply's slice of the stack. Stages:
//!
//! 1. the hash move, checked with [`Position::is_legal`], without generating anything;
//! 2. good captures and promotions (SEE ≥ 0), ordered by victim (MVV-LVA's class) and capture history;
//! 3. the two killers and the countermove, each legal, quiet and not yielded before;
//! 4. quiet moves by history — the history value itself is the [`ExtendedMove`] score (16 signed
//!    bits hold `±HISTORY_MAX`) — appended behind the captures already generated, together with
//!    the bad captures left over from stage 2, which score below every quiet move and so come
//!    last.
//!
//! In check the generators produce the legal evasions, so the same stages apply. Quiescence
//! uses only stages 1–2 (at its first ply also the quiet moves that give check, after the
//! good captures), and in check the whole sequence. After late move pruning the quiet moves
//! still on the stack are dropped at once, leaving the bad captures.

use chessbits::lists::{captured_role, mvv_lva, MoveList, SearchStack};
use chessbits::moves::{ExtendedMove, Move};
use chessbits::position::Position;

use crate::history::{context, History, HISTORY_MAX};

/// Good captures score `GOOD + 2048 + victim class × 1200 + capture history / 8` (the class,
/// `mvv_lva / 16`, is at most 9; the history part within ±2048): above every quiet move, whose
/// score is its history value within `±HISTORY_MAX`.
const GOOD: i32 = HISTORY_MAX + 1;
/// Bad captures score `BAD + victim`: below every quiet move.
const BAD: i32 = -HISTORY_MAX - 16;

// Every band fits the 16-bit score of an `ExtendedMove` as it is.
const _: () = assert!(GOOD + 4096 + 9 * 1200 <= ExtendedMove::MAX_SCORE && BAD >= ExtendedMove::MIN_SCORE);

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Stage {
    HashMove,
    GenerateCaptures,
    GoodCaptures,
    Killer(usize),
    GenerateQuiets,
    Rest,
    Done,
}

/// The state of one node's staged generation; the moves live in the [`SearchStack`].
pub struct StagedPicker {
    stage: Stage,
    hash_move: Option<Move>,
    /// Killer 1, killer 2, countermove.
    specials: [Option<Move>; 3],
    good_left: usize,
    quiescence: bool,
    /// In quiescence, the quiet moves that give check after the good captures.
    quiet_checks: bool,
    skip_quiets: bool,
    /// Continuation contexts of the moves one and two plies back, for quiet ordering.
    conts: [Option<usize>; 2],
}

impl StagedPicker {
    /// A picker for a full-width node.
    pub fn new(hash_move: Option<Move>, killers: [Option<Move>; 2], countermove: Option<Move>) -> StagedPicker {
        StagedPicker {
            stage: Stage::HashMove,
            hash_move,
            specials: [killers[0], killers[1], countermove],
            good_left: 0,
            quiescence: false,
            quiet_checks: false,
            skip_quiets: false,
            conts: [None; 2],
        }
    }

    /// Orders quiet moves with the continuation histories after these contexts too.
    pub fn with_continuations(mut self, conts: [Option<usize>; 2]) -> StagedPicker {
        self.conts = conts;
        self
    }

    /// A picker for quiescence: the hash move if tactical, then good captures; in check, every
    /// evasion.
    pub fn quiescence(hash_move: Option<Move>, in_check: bool) -> StagedPicker {
        let mut picker = StagedPicker::new(hash_move.filter(|m| in_check || m.is_tactical()), [None; 2], None);
        picker.quiescence = !in_check;
        picker
    }

    /// Quiescence's picker that also yields the quiet checks, after the good captures.
    pub fn with_quiet_checks(mut self) -> StagedPicker {
        self.quiet_checks = self.quiescence;
        self
    }

    /// No more quiet moves from now on (late move pruning). The quiet moves already on the
    /// `stack` are dropped at once, leaving the bad captures, rather than picked past one by
    /// one.
    pub fn skip_quiets(&mut self, stack: &mut SearchStack) {
        self.skip_quiets = true;
        stack.retain_to_play(|xm| xm.mv().is_tactical());
    }

    fn yielded_before(&self, m: Move) -> bool {
        Some(m) == self.hash_move || self.specials.contains(&Some(m))
    }

    /// The next move to search, or `None` when the node has no more.
    pub fn next(&mut self, pos: &Position, stack: &mut SearchStack, history: &History) -> Option<ExtendedMove> {
        loop {
            match self.stage {
                Stage::HashMove => {
                    self.stage = Stage::GenerateCaptures;
                    match self.hash_move {
                        Some(m) if pos.is_legal(m) => {
                            return Some(ExtendedMove::new(m));
                        }
                        _ => self.hash_move = None,
                    }
                }
                Stage::GenerateCaptures => {
                    let mut list = MoveList::new();
                    pos.tactical_moves_into(&mut list);
                    let mut good = 0;
                    let board = pos.board();
                    let appended = stack.append_with(&list, |m| {
                        if pos.see_ge(m, 0) {
                            good += 1;
                            // The victim (and promotion) first, the capture history within a
                            // class and a little across classes.
                            let class = mvv_lva(board, m) / 16;
                            let piece = board.piece_at(m.from()).map_or(0, |p| p.index());
                            let victim = captured_role(board, m).map_or(5, |r| r.index());
                            let h = history.capture_score(context(piece, m), victim) / 8;
                            GOOD + 2048 + class * 1200 + h.clamp(-2048, 2048)
                        } else {
                            // Bad captures: after the quiet moves, bigger victims first.
                            BAD + captured_role(board, m).map_or(0, |r| r.index() as i32)
                        }
                    });
                    self.good_left = if appended.is_ok() { good } else { 0 };
                    if appended.is_err() {
                        // No room on the stack: treat the node as a leaf (rare, very deep).
                        self.stage = Stage::Done;
                        continue;
                    }
                    self.stage = Stage::GoodCaptures;
                }
                Stage::GoodCaptures => {
                    if self.good_left == 0 {
                        self.stage = if self.quiet_checks {
                            Stage::GenerateQuiets
                        } else if self.quiescence {
                            Stage::Done
                        } else {
                            Stage::Killer(0)
                        };
                        continue;
                    }
                    self.good_left -= 1;
                    let xm = stack.pick_best()?;
                    if Some(xm.mv()) != self.hash_move {
                        return Some(xm);
                    }
                }
                Stage::Killer(i) => {
                    if i >= self.specials.len() {
                        self.stage = Stage::GenerateQuiets;
                        continue;
                    }
                    self.stage = Stage::Killer(i + 1);
                    let Some(m) = self.specials[i] else { continue };
                    let duplicate = Some(m) == self.hash_move || self.specials[..i].contains(&Some(m));
                    if self.skip_quiets || duplicate || m.is_tactical() || !pos.is_legal(m) {
                        // Not to be yielded here; the generated stages will cover it (if legal).
                        self.specials[i] = None;
                        continue;
                    }
                    return Some(ExtendedMove::new(m));
                }
                Stage::GenerateQuiets => {
                    self.stage = Stage::Rest;
                    if self.skip_quiets {
                        continue;
                    }
                    let mut list = MoveList::new();
                    pos.quiet_moves_into(&mut list);
                    list.retain(|m| !self.yielded_before(m));
                    if self.quiet_checks {
                        list.retain(|m| pos.gives_check(m));
                    }
                    let side = pos.turn();
                    let board = pos.board();
                    let conts = self.conts;
                    if stack
                        .append_with(&list, |m| {
                            let piece = board.piece_at(m.from()).map_or(0, |p| p.index());
                            history
                                .quiet_score(side, m, context(piece, m), conts)
                                .clamp(-HISTORY_MAX, HISTORY_MAX)
                        })
                        .is_err()
                    {
                        // No room: play on with the bad captures only.
                        continue;
                    }
                }
                Stage::Rest => {
                    let Some(xm) = stack.pick_best() else {
                        self.stage = Stage::Done;
                        return None;
                    };
                    if self.yielded_before(xm.mv()) || (self.quiet_checks && xm.mv().is_tactical()) {
                        continue;
                    }
                    return Some(xm);
                }
                Stage::Done => return None,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chessbits::notation::uci::parse_uci;

    fn all_moves(fen: &str, hash: Option<&str>, killers: [Option<&str>; 2]) -> Vec<Move> {
        all_moves_with_counter(fen, hash, killers, None)
    }

    fn all_moves_with_counter(
        fen: &str,
        hash: Option<&str>,
        killers: [Option<&str>; 2],
        counter: Option<&str>,
    ) -> Vec<Move> {
        let pos = Position::from_fen(fen).unwrap();
        let parse = |s: Option<&str>| s.and_then(|s| parse_uci(&pos, s).ok());
        let picker = StagedPicker::new(parse(hash), [parse(killers[0]), parse(killers[1])], parse(counter));
        drain(picker, &pos, |_, _, _| {})
    }

    fn legal_moves(fen: &str) -> (Position, Vec<Move>) {
        let pos = Position::from_fen(fen).unwrap();
        let mut legal = MoveList::new();
        pos.legal_moves_into(&mut legal);
        let moves = legal.iter().copied().collect();
        (pos, moves)
    }

    /// Every move `picker` yields at `pos`, in order; `each` sees the picker, the stack and the
    /// number of moves so far.
    fn drain(
        mut picker: StagedPicker,
        pos: &Position,
        mut each: impl FnMut(&mut StagedPicker, &mut SearchStack, usize),
    ) -> Vec<Move> {
        let mut stack = SearchStack::new();
        let history = History::new();
        let mut out = Vec::new();
        while let Some(xm) = picker.next(pos, &mut stack, &history) {
            out.push(xm.mv());
            each(&mut picker, &mut stack, out.len());
        }
        out
    }

    #[test]
    fn every_legal_move_exactly_once_in_stage_order() {
        let fens = [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "4k3/8/8/8/8/8/4q3/4K3 w - - 0 1",
        ];
        for fen in fens {
            let (_, mut expected) = legal_moves(fen);
            // With a hash move and killers, some of them illegal or tactical.
            let first = expected[0].to_string();
            let mut got = all_moves(fen, Some(&first), [Some("a2a3"), Some("e5d7")]);
            assert_eq!(got[0].to_string(), first);
            expected.sort();
            got.sort();
            assert_eq!(got, expected, "{fen}");
        }
    }

    #[test]
    fn quiescence_with_quiet_checks_yields_good_captures_then_exactly_the_quiet_checks() {
        // The first: Rxa8 (a good capture), then the quiet checks Nd6+, Nf6+ and Rd8+; the sets
        // are computed from the legal moves, not listed.
        let fens = [
            "r3k3/8/8/8/4N3/8/8/R2RK3 w - - 0 1",
            "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1",
            "4k3/8/8/8/8/8/4q3/4K3 w - - 0 1",
        ];
        for fen in fens {
            let (pos, legal) = legal_moves(fen);
            let mut quiet_checks: Vec<Move> = legal
                .iter()
                .copied()
                .filter(|m| !m.is_tactical() && pos.gives_check(*m))
                .collect();
            let mut good: Vec<Move> = legal
                .iter()
                .copied()
                .filter(|m| m.is_tactical() && pos.see_ge(*m, 0))
                .collect();
            let in_check = pos.is_check();
            let got = drain(
                StagedPicker::quiescence(None, in_check).with_quiet_checks(),
                &pos,
                |_, _, _| {},
            );
            if in_check {
                // In check the picker yields every evasion, as without quiet checks.
                assert_eq!(got.len(), legal.len(), "{fen}");
                continue;
            }
            let (mut first, mut rest) = (got[..good.len()].to_vec(), got[good.len()..].to_vec());
            for list in [&mut first, &mut rest, &mut good, &mut quiet_checks] {
                list.sort();
            }
            assert_eq!(first, good, "{fen}");
            assert_eq!(rest, quiet_checks, "{fen}");
            assert!(!quiet_checks.is_empty(), "{fen}");
        }
    }

    #[test]
    fn late_move_pruning_leaves_only_the_bad_captures() {
        // Nxd5 wins a queen (good); Rxa6 loses the rook to bxa6 (bad); many quiet moves.
        let fen = "4k3/1p6/p7/3q4/8/2N5/8/R3K3 w - - 0 1";
        let pos = Position::from_fen(fen).unwrap();
        let got: Vec<String> = drain(StagedPicker::new(None, [None; 2], None), &pos, |picker, stack, n| {
            if n == 3 {
                picker.skip_quiets(stack);
            }
        })
        .iter()
        .map(|m| m.to_string())
        .collect();
        // The good capture, two quiet moves, then the bad capture alone.
        assert_eq!(got[0], "c3d5");
        assert_eq!(got.len(), 4, "{got:?}");
        assert_eq!(got[3], "a1a6");
    }

    #[test]
    fn good_captures_before_killers_before_quiets_before_bad_captures() {
        // Nxd5 wins a queen (good); Rxa6 loses the rook to bxa6 (bad).
        let fen = "4k3/1p6/p7/3q4/8/2N5/8/R3K3 w - - 0 1";
        let moves = all_moves(fen, None, [Some("e1f1"), None]);
        let names: Vec<String> = moves.iter().map(|m| m.to_string()).collect();
        assert_eq!(names[0], "c3d5");
        assert_eq!(names[1], "e1f1");
        assert_eq!(names.last().unwrap(), "a1a6");
        // The countermove comes right after the killers; a duplicate of a killer comes once.
        let moves = all_moves_with_counter(fen, None, [Some("e1f1"), None], Some("a1a2"));
        let names: Vec<String> = moves.iter().map(|m| m.to_string()).collect();
        assert_eq!(&names[..3], ["c3d5", "e1f1", "a1a2"]);
        let moves = all_moves_with_counter(fen, None, [Some("e1f1"), None], Some("e1f1"));
        assert_eq!(moves.iter().filter(|m| m.to_string() == "e1f1").count(), 1);
        let pos = Position::from_fen(fen).unwrap();
        assert_eq!(moves.len(), pos.count_legal_moves());
    }
}
