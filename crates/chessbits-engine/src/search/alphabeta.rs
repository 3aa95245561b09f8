//! The recursive search: principal variation search with pruning, and quiescence.

use std::sync::LazyLock;

use chessbits::game::insufficient_material;
use chessbits::lists::captured_role;
use chessbits::moves::Move;
use chessbits::types::Role;

use super::picker::StagedPicker;
use super::score::{is_mate, INFINITY, MATE, MATE_BOUND, MAX_PLY};
use super::Worker;
use crate::eval::evaluate;
use crate::eval::nnue::accumulator::Snapshot;
use crate::history::context;
use crate::tt::Bound;

/// Late move reductions by depth and move number: `0.75 + ln(depth) × ln(moves) / 2.25`, with
/// the logarithms from a table (the search called `ln` twice a node; depths and move numbers
/// stay below its 256 entries).
fn reduction(depth: i32, moves: usize) -> i32 {
    static LN: LazyLock<[f64; 256]> = LazyLock::new(|| std::array::from_fn(|i| (i.max(1) as f64).ln()));
    let d = LN[depth.clamp(1, 255) as usize];
    let m = LN[moves.clamp(1, 255)];
    (0.75 + d * m / 2.25) as i32
}

/// Futility margin per depth for quiet moves near the leaves.
const FUTILITY_MARGIN: i32 = 100;
/// Reverse futility (static null move) margin per depth.
const RFP_MARGIN: i32 = 75;
/// Quiescence delta: a capture that cannot lift the score near alpha even with this margin is
/// skipped.
const DELTA_MARGIN: i32 = 200;
const PIECE_VALUE: [i32; 6] = [100, 320, 330, 500, 900, 0];

impl Worker<'_> {
    /// Whether the current position is a draw by rule: repetition (scanning the signature list
    /// back only to the last irreversible move), fifty moves, or insufficient material.
    pub(crate) fn is_draw(&self) -> bool {
        let clock = self.pos.halfmove_clock() as usize;
        if clock >= 100 {
            // Mate on the hundredth half-move still counts as mate.
            return !(self.pos.is_check() && self.pos.count_legal_moves() == 0);
        }
        if insufficient_material(self.pos.board()) {
            return true;
        }
        let n = self.keys.len();
        let current = self.pos.key();
        // Plies back to the last capture or pawn move; a repetition needs four plies at least.
        let reach = clock.min(n.saturating_sub(1));
        let mut back = 4;
        while back <= reach {
            if self.keys[n - 1 - back] == current {
                return true;
            }
            back += 2;
        }
        false
    }

    fn make(&mut self, m: Move, ply: usize) -> chessbits::position::Undo {
        let piece = self.pos.piece_at(m.from()).map_or(0, |p| p.index());
        self.contexts[ply + 1] = Some(context(piece, m));
        // The bucket of the new position is fetched while the accumulator is updated.
        let undo = match self.nnue.as_mut() {
            None => {
                let undo = self.pos.play_unchecked(m);
                self.shared.tt.prefetch(self.pos.key());
                undo
            }
            Some(nnue) => {
                let before = Snapshot::of(self.pos.board());
                let undo = self.pos.play_unchecked(m);
                self.shared.tt.prefetch(self.pos.key());
                nnue.stack.update(&nnue.net, ply, &before, self.pos.board());
                undo
            }
        };
        self.keys.push(self.pos.key());
        self.played[ply + 1] = Some(m);
        undo
    }

    fn unmake(&mut self, m: Move, undo: chessbits::position::Undo) {
        self.keys.pop();
        self.pos.unmake_move(m, undo);
    }

    /// The static evaluation at `ply` from the side to move's view: the network's when one is
    /// loaded (kept clear of mate scores), else the hand-tuned one.
    #[inline]
    fn evaluate(&self, ply: usize) -> i32 {
        match &self.nnue {
            None => evaluate(&self.pos),
            Some(nnue) => nnue
                .stack
                .evaluate(&nnue.net, ply, self.pos.turn())
                .clamp(-MATE_BOUND + 1, MATE_BOUND - 1),
        }
    }

    /// Counts a node; the main thread checks time and node limits every 1024 nodes.
    #[inline]
    fn visit(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes & 1023 == 0 {
            self.publish_nodes();
            if self.main {
                self.check_limits();
            }
        }
        self.stopped()
    }

    /// The alpha-beta search of the current position to `depth` at `ply`.
    pub(crate) fn search(&mut self, mut alpha: i32, mut beta: i32, mut depth: i32, ply: usize, skip_null: bool) -> i32 {
        let pv_node = beta - alpha > 1;
        let root = ply == 0;
        self.pv.clear(ply);
        let in_check = self.pos.is_check();
        if in_check {
            depth += 1; // check extension
        }
        if depth <= 0 {
            return self.qsearch(alpha, beta, ply, true);
        }
        if self.visit() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        if !root {
            if self.is_draw() {
                return 0;
            }
            if ply >= MAX_PLY - 1 {
                return if in_check { 0 } else { self.evaluate(ply) };
            }
            // Mate distance pruning: no line from here beats a mate found closer to the root.
            alpha = alpha.max(-MATE + ply as i32);
            beta = beta.min(MATE - ply as i32 - 1);
            if alpha >= beta {
                return alpha;
            }
        }

        let key = self.pos.key();
        let hit = self.shared.tt.probe(key, ply);
        let hash_move = hit.and_then(|h| h.mv);
        if let Some(h) = hit {
            let usable = match h.bound {
                Bound::Exact => true,
                Bound::Lower => h.score >= beta,
                Bound::Upper => h.score <= alpha,
                Bound::None => false,
            };
            if !pv_node && h.depth >= depth && usable && self.singular_excluded[ply].is_none() {
                return h.score;
            }
        }

        let static_eval = if in_check {
            -INFINITY
        } else {
            hit.map_or_else(|| self.evaluate(ply), |h| h.eval)
        };
        self.evals[ply] = static_eval;
        let improving = !in_check && ply >= 2 && static_eval > self.evals[ply - 2];
        let stored_eval = static_eval;
        // For pruning, a stored search result is a better guess than the static evaluation
        // when its bound points the right way.
        let static_eval = match hit {
            Some(h) if !in_check && !is_mate(h.score) => match h.bound {
                Bound::Lower if h.score > static_eval => h.score,
                Bound::Upper if h.score < static_eval => h.score,
                Bound::Exact => h.score,
                _ => static_eval,
            },
            _ => static_eval,
        };

        let excluded = self.singular_excluded[ply];
        if !pv_node && !in_check && excluded.is_none() {
            // Reverse futility: far above beta near the leaves, assume a cut.
            let margin = RFP_MARGIN * (depth - improving as i32);
            if depth <= 7 && static_eval - margin >= beta && static_eval < MATE_BOUND {
                return static_eval;
            }
            // Null move: give the opponent a free move; still above beta means a cut. Not
            // with pawns and king alone (zugzwang), nor twice in a row.
            let us = self.pos.turn();
            let pieces = self.pos.board().by_color(us)
                & !(self.pos.board().by_role(Role::Pawn) | self.pos.board().by_role(Role::King));
            if !skip_null && depth >= 3 && static_eval >= beta && pieces.any() && beta > -MATE_BOUND {
                let r = 3 + depth / 4 + ((static_eval - beta) / 200).min(3);
                if let Some(nnue) = self.nnue.as_mut() {
                    nnue.stack.copy(ply);
                }
                let undo = self.pos.make_null_move();
                self.keys.push(self.pos.key());
                self.played[ply + 1] = None;
                self.contexts[ply + 1] = None;
                let score = if self.stack.enter_ply().is_ok() {
                    let s = -self.search(-beta, -beta + 1, depth - 1 - r, ply + 1, true);
                    let _ = self.stack.leave_ply();
                    s
                } else {
                    alpha
                };
                self.keys.pop();
                self.pos.unmake_null_move(undo);
                if self.stopped() {
                    return 0;
                }
                if score >= beta {
                    return if score >= MATE_BOUND { beta } else { score };
                }
            }
        }

        // Internal iterative reduction: without a hash move this node was not searched before;
        // search it shallower instead of spending full depth on poorly ordered moves.
        if depth >= 4 && hash_move.is_none() {
            depth -= 1;
        }

        let previous = self.played[ply];
        let countermove = self.history.countermove(previous);
        let conts = [self.contexts[ply], if ply >= 1 { self.contexts[ply - 1] } else { None }];
        let mut picker = StagedPicker::new(hash_move, self.history.killers(ply), countermove).with_continuations(conts);
        let mut best = -INFINITY;
        let mut best_move = None;
        let mut legal = 0usize;
        let mut searched = 0usize;
        // This ply's buffers, taken for this call (a singular search of the same ply takes the
        // empty ones left behind) and put back after the move loop: no allocation per node.
        let mut tried = std::mem::take(&mut self.tried[ply]);
        tried.clear();
        let original_alpha = alpha;
        let us = self.pos.turn();

        while let Some(xm) = picker.next(&self.pos, &mut self.stack, self.history) {
            let m = xm.mv();
            if root && !self.root_allowed(m) {
                continue;
            }
            // The child's bucket is fetched while the move is weighed and made (`make` fetches
            // it again with the exact key, for the moves the prediction misses).
            self.shared.tt.prefetch_after(&self.pos, m);
            legal += 1;
            if Some(m) == excluded {
                continue;
            }
            let quiet = !m.is_tactical();
            let gives_check = self.pos.gives_check(m);
            let ctx = context(self.pos.piece_at(m.from()).map_or(0, |p| p.index()), m);
            let victim = captured_role(self.pos.board(), m).map_or(5, |r| r.index());
            let history = if quiet {
                self.history.quiet_score(us, m, ctx, conts)
            } else {
                0
            };

            if !root && best > -MATE_BOUND && !in_check {
                if quiet && !gives_check {
                    // Late move pruning: enough quiet moves tried at a shallow node.
                    let limit = (3 + depth * depth) as usize / if improving { 1 } else { 2 };
                    if depth <= 6 && tried.quiets.len() >= limit {
                        picker.skip_quiets(&mut self.stack);
                        continue;
                    }
                    // Futility: the static eval plus a margin stays below alpha.
                    if depth <= 6 && static_eval + FUTILITY_MARGIN * (depth + 1) <= alpha {
                        continue;
                    }
                }
                // SEE pruning of moves that lose material at shallow depth.
                let threshold = if quiet { -60 * depth } else { -100 * depth };
                if depth <= 6 && !self.pos.see_ge(m, threshold) {
                    continue;
                }
            }

            // Singular extension: when every other move falls well short of the hash move's
            // stored score, the hash move is the only good one: search it one ply deeper. When
            // even the others reach beta, cut (multi-cut).
            let mut extension = 0;
            if !root && excluded.is_none() && Some(m) == hash_move && depth >= 8 && (ply as i32) < 2 * self.root_depth {
                if let Some(h) = hit.filter(|h| {
                    h.depth >= depth - 3 && matches!(h.bound, Bound::Lower | Bound::Exact) && !is_mate(h.score)
                }) {
                    let singular_beta = h.score - 2 * depth;
                    self.singular_excluded[ply] = Some(m);
                    // A fresh stack frame: this search of the same position must not leave
                    // its moves in the frame of this node.
                    let score = if self.stack.enter_ply().is_ok() {
                        let s = self.search(singular_beta - 1, singular_beta, (depth - 1) / 2, ply, true);
                        let _ = self.stack.leave_ply();
                        s
                    } else {
                        singular_beta
                    };
                    self.singular_excluded[ply] = None;
                    if self.stopped() {
                        return 0;
                    }
                    if score < singular_beta {
                        extension = 1;
                    } else if singular_beta >= beta {
                        return singular_beta;
                    }
                }
            }

            let undo = self.make(m, ply);
            if self.stack.enter_ply().is_err() {
                self.unmake(m, undo);
                continue;
            }
            let new_depth = depth - 1 + extension;
            let mut score;
            if searched == 0 {
                score = -self.search(-beta, -alpha, new_depth, ply + 1, false);
            } else {
                // Late move reductions for quiet moves after the first few.
                let mut r = 0;
                if depth >= 3 && searched > pv_node as usize && quiet && !gives_check {
                    r = reduction(depth, searched);
                    r += (!pv_node) as i32;
                    r -= improving as i32;
                    r -= (self.history.killers(ply).contains(&Some(m)) || countermove == Some(m)) as i32;
                    r -= history / 6000;
                    r = r.clamp(0, new_depth - 1);
                }
                score = -self.search(-alpha - 1, -alpha, new_depth - r, ply + 1, false);
                if score > alpha && r > 0 {
                    score = -self.search(-alpha - 1, -alpha, new_depth, ply + 1, false);
                }
                if pv_node && score > alpha && score < beta {
                    score = -self.search(-beta, -alpha, new_depth, ply + 1, false);
                }
            }
            let _ = self.stack.leave_ply();
            self.unmake(m, undo);
            if self.stopped() {
                return 0;
            }
            searched += 1;

            if score > best {
                best = score;
                if score > alpha {
                    best_move = Some(m);
                    alpha = score;
                    if pv_node {
                        self.pv.update(ply, m);
                    }
                    if alpha >= beta {
                        if quiet {
                            self.history.update_quiet(us, ply, m, previous, depth, &tried.quiets);
                            self.history
                                .update_continuation(conts, ctx, &tried.quiet_contexts, depth);
                            self.history.update_captures(None, &tried.captures, depth);
                        } else {
                            self.history
                                .update_captures(Some((ctx, victim)), &tried.captures, depth);
                        }
                        break;
                    }
                }
            }
            if quiet {
                tried.quiets.push(m);
                tried.quiet_contexts.push(ctx);
            } else {
                tried.captures.push((ctx, victim));
            }
        }
        // Not put back on the early returns inside the loop (a stop, a multi-cut): the next
        // node of this ply then allocates again, which is all it costs.
        self.tried[ply] = tried;

        if legal == 0 {
            // No legal move at all (not just pruned ones): mate or stalemate. At the root with
            // every move excluded the caller ignores the result.
            return if in_check { -MATE + ply as i32 } else { 0 };
        }
        if searched == 0 {
            // Every move was pruned: the node fails low.
            return alpha;
        }

        let bound = if best >= beta {
            Bound::Lower
        } else if alpha > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        if !(root && self.multipv_index > 0) && excluded.is_none() {
            self.shared
                .tt
                .store(key, best_move, best, stored_eval, depth, bound, ply);
        }
        best
    }

    /// Quiescence: captures (good ones by SEE) until the position is quiet; every evasion in
    /// check; with `checks` (its first ply, where the full-width search ends) also the quiet
    /// checks that lose no material, so that a mate threat or a mate one move past the horizon
    /// is seen.
    pub(crate) fn qsearch(&mut self, mut alpha: i32, beta: i32, ply: usize, checks: bool) -> i32 {
        self.pv.clear(ply);
        if self.visit() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        if self.is_draw() {
            return 0;
        }
        let in_check = self.pos.is_check();
        if ply >= MAX_PLY - 1 {
            return if in_check { 0 } else { self.evaluate(ply) };
        }
        let key = self.pos.key();
        let hit = self.shared.tt.probe(key, ply);
        if let Some(h) = hit {
            let usable = match h.bound {
                Bound::Exact => true,
                Bound::Lower => h.score >= beta,
                Bound::Upper => h.score <= alpha,
                Bound::None => false,
            };
            if usable && beta - alpha == 1 {
                return h.score;
            }
        }
        let raw_eval = if in_check {
            0
        } else {
            hit.map_or_else(|| self.evaluate(ply), |h| h.eval)
        };
        let stand_pat = if in_check { -MATE + ply as i32 } else { raw_eval };
        // A stored result bounds the stand-pat score better than the evaluation when its bound
        // points the right way.
        let stand_pat = match hit {
            Some(h) if !in_check && !is_mate(h.score) => match h.bound {
                Bound::Lower if h.score > stand_pat => h.score,
                Bound::Upper if h.score < stand_pat => h.score,
                _ => stand_pat,
            },
            _ => stand_pat,
        };
        if stand_pat >= beta {
            return stand_pat;
        }
        let original_alpha = alpha;
        alpha = alpha.max(stand_pat);
        let mut best = stand_pat;
        let mut best_move = None;
        let mut picker = StagedPicker::quiescence(hit.and_then(|h| h.mv), in_check);
        if checks {
            picker = picker.with_quiet_checks();
        }
        while let Some(xm) = picker.next(&self.pos, &mut self.stack, self.history) {
            let m = xm.mv();
            if !in_check && !m.is_tactical() {
                // A quiet check (the first quiescence ply only): not if it loses material.
                if !self.pos.see_ge(m, 0) {
                    continue;
                }
            } else if !in_check {
                // Delta pruning: even winning the victim cannot reach alpha.
                let gain = captured_role(self.pos.board(), m).map_or(0, |r| PIECE_VALUE[r.index()])
                    + m.promotion().map_or(0, |r| PIECE_VALUE[r.index()] - 100);
                if stand_pat + gain + DELTA_MARGIN <= alpha {
                    continue;
                }
                if !self.pos.see_ge(m, 0) {
                    continue;
                }
            }
            let undo = self.make(m, ply);
            if self.stack.enter_ply().is_err() {
                self.unmake(m, undo);
                continue;
            }
            let score = -self.qsearch(-beta, -alpha, ply + 1, false);
            let _ = self.stack.leave_ply();
            self.unmake(m, undo);
            if self.stopped() {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    best_move = Some(m);
                    self.pv.update(ply, m);
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if alpha > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        let eval = if in_check { 0 } else { raw_eval };
        self.shared.tt.store(key, best_move, best, eval, 0, bound, ply);
        best
    }
}
