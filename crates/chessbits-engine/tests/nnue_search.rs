//! NNUE inference in the engine: incremental accumulators against the full refresh, the search
//! evaluating with a network, and the `EvalFile` option.

use std::sync::Arc;

use chessbits::game::Game;
use chessbits::position::Position;
use chessbits_engine::eval::nnue::accumulator::{AccumulatorStack, Snapshot};
use chessbits_engine::eval::nnue::{embedded, Network};
use chessbits_engine::rng::SplitMix64;
use chessbits_engine::search::{run, Control, Limits, SearchThreads};
use chessbits_engine::tt::TranspositionTable;

use crate::common::{assert_legal, best_move, Engine, SECOND};

/// Starts with castling both ways, en passant and promotions close at hand; the last three are
/// Chess960 (Shredder-FEN castling, king and rook on unusual files).
const STARTS: [&str; 7] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
    "2nnrbkr/p1qppppp/8/1ppb4/6PP/3PP3/PPP2P2/BQNNRBKR w HEhe - 1 9",
    "1r2kr2/8/8/8/8/8/8/1R2KR2 w BFbf - 0 1",
];

const PLIES: usize = 120;

/// What the random walks must have played at least once.
#[derive(Default, Debug)]
struct Seen {
    captures: usize,
    en_passant: usize,
    promotions: usize,
    castles: usize,
    chess960_castles: usize,
}

/// Plays random games from every start; after every make and every unmake (of the move played
/// and of a few siblings tried on the way) the incremental evaluation must equal the reference:
/// on the portable paths, on the AVX2 paths where the CPU has them (the output layer in 16-bit
/// lanes, its output weights at the bound of that path, and in 32-bit lanes for weights past
/// it), with a width that is not a multiple of 16, and with a `QA` above 255 (the general path).
#[test]
fn incremental_accumulators_equal_the_full_refresh_over_random_games() {
    let mut wide_qa = Network::seeded(16, 3);
    wide_qa.qa = 300;
    let mut bound_weights = Network::seeded(32, 29);
    for (i, w) in bound_weights.out_weights.iter_mut().enumerate() {
        *w = if i % 2 == 0 { 128 } else { -128 }; // 128 · 255 = 32 640 ≤ 32 767
    }
    let mut wide_weights = Network::seeded(32, 30);
    wide_weights.out_weights[5] = 129; // past the bound: the 32-bit path
    for (net, simd) in [
        (Network::seeded(32, 28), false),
        (Network::seeded(32, 28), true),
        (Network::seeded(40, 31), true),
        (Network::seeded(40, 31), false),
        (bound_weights, true),
        (wide_weights, true),
        (wide_qa, true),
    ] {
        let mut stack = AccumulatorStack::new(&net, PLIES + 3);
        stack.set_simd(simd);
        random_games(&net, &mut stack);
    }
}

fn random_games(net: &Network, stack: &mut AccumulatorStack) {
    let mut rng = SplitMix64::new(2026);
    let mut seen = Seen::default();
    for fen in STARTS {
        for _game in 0..6 {
            let mut pos = Position::from_fen(fen).unwrap();
            stack.refresh(net, 0, &pos);
            assert_eq!(stack.evaluate(net, 0, pos.turn()), net.evaluate(&pos), "{fen}");
            for ply in 0..PLIES {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                // Prefer the rare kinds so each run sees them; otherwise any move.
                let rare: Vec<_> = moves
                    .iter()
                    .copied()
                    .filter(|m| m.is_castle() || m.is_en_passant() || m.is_promotion())
                    .collect();
                let pick = if !rare.is_empty() && rng.below(3) == 0 {
                    rare[rng.below(rare.len())]
                } else {
                    moves[rng.below(moves.len())]
                };
                let siblings: Vec<_> = (0..3).map(|_| moves[rng.below(moves.len())]).collect();
                let tries = siblings.into_iter().map(|m| (m, false)).chain([(pick, true)]);
                for (m, keep) in tries {
                    seen.captures += usize::from(m.is_capture());
                    seen.en_passant += usize::from(m.is_en_passant());
                    seen.promotions += usize::from(m.is_promotion());
                    seen.castles += usize::from(m.is_castle());
                    seen.chess960_castles += usize::from(m.is_castle() && pos.is_chess960());
                    let before = Snapshot::of(pos.board());
                    let fen_before = pos.fen();
                    let undo = pos.play_unchecked(m);
                    stack.update(net, ply, &before, pos.board());
                    assert_eq!(
                        stack.evaluate(net, ply + 1, pos.turn()),
                        net.evaluate(&pos),
                        "after {m:?} from {fen_before}"
                    );
                    if !keep {
                        pos.unmake_move(m, undo);
                        assert_eq!(
                            stack.evaluate(net, ply, pos.turn()),
                            net.evaluate(&pos),
                            "after unmaking {m:?} in {fen_before}"
                        );
                    }
                }
                // A null move now and then: the accumulators are copied.
                if !pos.is_check() && rng.below(8) == 0 {
                    let undo = pos.make_null_move();
                    stack.copy(ply + 1);
                    assert_eq!(stack.evaluate(net, ply + 2, pos.turn()), net.evaluate(&pos));
                    pos.unmake_null_move(undo);
                }
            }
        }
    }
    assert!(
        seen.captures > 0
            && seen.en_passant > 0
            && seen.promotions > 0
            && seen.castles > 0
            && seen.chess960_castles > 0,
        "some move kind was never played: {seen:?}"
    );
}

fn search_score(network: Option<Network>, depth: i32) -> (i32, Option<String>) {
    let game = Game::new();
    let limits = Limits {
        depth: Some(depth),
        quiet: true,
        network: network.map(Arc::new),
        ..Limits::default()
    };
    let tt = TranspositionTable::new(1);
    let mut threads = SearchThreads::new(1);
    let result = run(&game, &limits, &tt, &Control::new(), &mut threads, &mut |_| {});
    (result.score, result.best_move.map(|m| m.to_string()))
}

#[test]
fn the_search_evaluates_with_the_network_it_is_given() {
    // A network whose every input weighs nothing evaluates every position to its output bias:
    // 4080 · 400 / (255 · 64) = 100 cp for the side to move. At depth 1 the root's replies are
    // all quiet leaves worth 100 to the opponent, so the root scores -100.
    let mut constant = Network::zeroed(8);
    constant.out_bias = 4080;
    assert_eq!(constant.evaluate(&Position::startpos()), 100);
    let (score, best) = search_score(Some(constant), 1);
    assert_eq!(score, -100);
    assert!(best.is_some());
    let (hand, _) = search_score(None, 1);
    assert_ne!(hand, -100, "the hand-tuned evaluation scores differently");
    // A seeded network searches deeper to a legal move (null moves, captures and all).
    let (_, best) = search_score(Some(Network::seeded(64, 5)), 6);
    assert_legal(&[], &best.unwrap());
}

#[test]
fn eval_file_loads_a_network_and_the_engine_plays_with_it() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("net.nnue");
    Network::seeded(128, 9)
        .write(&mut std::fs::File::create(&path).unwrap())
        .unwrap();
    let mut e = Engine::start();
    e.send("uci");
    let lines = e.expect("uciok", 5 * SECOND);
    assert!(lines
        .iter()
        .any(|l| l == "option name EvalFile type string default <embedded>"));
    e.send(&format!("setoption name EvalFile value {}", path.display()));
    e.send("position startpos moves e2e4");
    e.send("go depth 5");
    let lines = e.expect("bestmove", 20 * SECOND);
    assert!(!lines.iter().any(|l| l.contains("error")), "{lines:?}");
    assert!(lines.iter().any(|l| l.contains(" score cp ")), "{lines:?}");
    assert_legal(&["e2e4"], &best_move(&lines));
    // The golden network works the same way.
    let golden = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/golden/nnue_v1.nnue");
    e.send(&format!("setoption name EvalFile value {golden}"));
    e.send("go depth 4");
    let lines = e.expect("bestmove", 20 * SECOND);
    assert!(!lines.iter().any(|l| l.contains("error")), "{lines:?}");
    assert_legal(&["e2e4"], &best_move(&lines));
    // The search really uses the loaded network: one that evaluates everything to 100 cp
    // scores the root -100 at depth 1 (see the test above).
    let mut constant = Network::zeroed(4);
    constant.out_bias = 4080;
    let constant_path = dir.path().join("constant.nnue");
    std::fs::write(&constant_path, constant.to_bytes()).unwrap();
    e.send(&format!("setoption name EvalFile value {}", constant_path.display()));
    e.send("go depth 1");
    let lines = e.expect("bestmove", 20 * SECOND);
    assert!(lines.iter().any(|l| l.contains(" score cp -100 ")), "{lines:?}");
    // And `<embedded>` goes back to the embedded network.
    e.send("setoption name EvalFile value <embedded>");
    e.send("go depth 1");
    let lines = e.expect("bestmove", 20 * SECOND);
    assert!(!lines.iter().any(|l| l.contains(" score cp -100 ")), "{lines:?}");
    assert_legal(&["e2e4"], &best_move(&lines));
    e.quit();
}

#[test]
fn a_bad_eval_file_is_reported_and_the_engine_keeps_playing() {
    let dir = tempfile::tempdir().unwrap();
    let good = Network::seeded(16, 4).to_bytes();
    let truncated = dir.path().join("truncated.nnue");
    std::fs::write(&truncated, &good[..good.len() / 2]).unwrap();
    let random = dir.path().join("random.nnue");
    let mut rng = SplitMix64::new(1);
    std::fs::write(&random, (0..5000).map(|_| rng.next_u64() as u8).collect::<Vec<_>>()).unwrap();
    let mut corrupt = good.clone();
    corrupt[100] ^= 1;
    let corrupted = dir.path().join("corrupt.nnue");
    std::fs::write(&corrupted, corrupt).unwrap();
    let missing = dir.path().join("missing.nnue");
    let mut e = Engine::start();
    for bad in [&missing, &truncated, &random, &corrupted, &dir.path().to_path_buf()] {
        e.send(&format!("setoption name EvalFile value {}", bad.display()));
        let lines = e.expect("info string", 5 * SECOND);
        let line = lines.last().unwrap();
        assert!(line.starts_with("info string error: EvalFile"), "{line}");
        assert!(
            line.contains("keeping the current network (the embedded network)"),
            "{line}"
        );
        e.send("go depth 3");
        let lines = e.expect("bestmove", 20 * SECOND);
        assert_legal(&[], &best_move(&lines));
    }
    e.quit();
}

/// The score of the last `info` line of `lines` with `score cp`.
fn last_cp(lines: &[String]) -> i32 {
    let line = lines.iter().rev().find(|l| l.contains(" score cp ")).expect("a score");
    let after = line.split(" score cp ").nth(1).unwrap();
    after.split_whitespace().next().unwrap().parse().unwrap()
}

#[test]
fn the_engine_plays_with_the_embedded_network_unless_use_nnue_is_off() {
    let (embedded_score, _) = search_score(Some((*embedded::network()).clone()), 1);
    let (hand_score, _) = search_score(None, 1);
    assert_ne!(
        embedded_score, hand_score,
        "the two evaluations score the start differently"
    );
    let mut e = Engine::start();
    e.send("uci");
    let lines = e.expect("uciok", 5 * SECOND);
    assert!(lines
        .iter()
        .any(|l| l == "option name Use NNUE type check default true"));
    let depth_one = |e: &mut Engine| {
        e.send("position startpos");
        e.send("go depth 1");
        last_cp(&e.expect("bestmove", 20 * SECOND))
    };
    assert_eq!(depth_one(&mut e), embedded_score);
    e.send("setoption name Use NNUE value false");
    assert_eq!(depth_one(&mut e), hand_score);
    // A loaded network is not used while `Use NNUE` is off.
    let golden = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/golden/nnue_v1.nnue");
    e.send(&format!("setoption name EvalFile value {golden}"));
    assert_eq!(depth_one(&mut e), hand_score);
    e.send("setoption name EvalFile value <embedded>");
    e.send("setoption name Use NNUE value true");
    assert_eq!(depth_one(&mut e), embedded_score);
    e.quit();
}

#[test]
fn the_embedded_network_is_the_committed_file_and_matches_its_recipe() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/nets/");
    let file = std::fs::read(format!("{dir}{}", embedded::NAME)).unwrap();
    assert_eq!(file, embedded::BYTES);
    let net = Network::from_bytes(&file).unwrap();
    assert_eq!(*embedded::network(), net);
    let recipe = std::fs::read_to_string(format!("{dir}{}.recipe", embedded::NAME)).unwrap();
    assert!(recipe.contains(&format!("(768 -> {})x2 -> 1", net.hidden)), "{recipe}");
    // A trained network, not noise: the side a queen up is far ahead, from either side's view.
    let queen_up = Position::from_fen("rnb1kbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 3").unwrap();
    assert!(net.evaluate(&queen_up) > 400, "{}", net.evaluate(&queen_up));
    let queen_down = Position::from_fen("rnb1kbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 3").unwrap();
    assert!(net.evaluate(&queen_down) < -400, "{}", net.evaluate(&queen_down));
}

#[test]
fn limited_strength_plays_with_the_evaluation_its_scale_was_calibrated_with() {
    // The four lines of a depth-1 search at the top level: their scores and moves.
    let lines = |use_nnue: bool| {
        let mut e = Engine::start();
        e.send(&format!("setoption name Use NNUE value {use_nnue}"));
        e.send("setoption name UCI_LimitStrength value true");
        e.send("setoption name UCI_Elo value 2140");
        e.send("position startpos");
        e.send("go depth 1");
        let lines = e.expect("bestmove", 20 * SECOND);
        e.quit();
        let lines: Vec<String> = lines
            .iter()
            .filter(|l| l.contains(" score cp "))
            .map(|l| {
                let score = l.split(" score cp ").nth(1).unwrap().split_whitespace().next().unwrap();
                format!("{score} {}", l.split(" pv ").nth(1).unwrap())
            })
            .collect();
        assert_eq!(lines.len(), 4, "{lines:?}");
        lines
    };
    assert_eq!(lines(true), lines(false));
    // Without the strength limit the network's scores differ from the hand-tuned ones.
    let (embedded_score, _) = search_score(Some((*embedded::network()).clone()), 1);
    let (hand_score, _) = search_score(None, 1);
    assert_ne!(embedded_score, hand_score);
}
