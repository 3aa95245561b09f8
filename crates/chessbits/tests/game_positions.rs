//! `positions()` and `position_at()` of `GameTree` and `Game` against the moves replayed by hand
//! (each SAN parsed again, a null move passing the turn), on bundled games: standard games,
//! Chess960, games from a `[FEN]`, null moves; and the one result type: `GameTree::outcome` is
//! `Game::outcome` of the same moves, `declared_result` the token else the tag.

use crate::common;

use std::fs::File;
use std::io::BufReader;

use chessbits::game::{Game, GameResult, Outcome, Termination};
use chessbits::pgn::{GameTree, PgnReader};
use chessbits::position::Position;

/// The games of a bundled file that read without error (edge-case files hold bad ones too).
fn games(relative: &str, max: usize) -> Vec<GameTree> {
    let path = common::testdata_path().join(relative);
    let file = File::open(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let games: Vec<GameTree> = PgnReader::new(BufReader::new(file))
        .into_games()
        .filter_map(Result::ok)
        .take(max)
        .collect();
    assert!(!games.is_empty(), "{relative}: no game read");
    games
}

/// The positions of the main line replayed by hand: each move's SAN parsed again in the
/// position before it.
fn replayed(tree: &GameTree) -> Vec<Position> {
    let mut pos = tree.start.clone();
    let mut out = vec![pos.clone()];
    for node in &tree.moves.nodes {
        if node.mv.is_null() {
            pos.make_null_move();
        } else {
            let m = pos.play_san(&node.san.to_string()).unwrap();
            assert_eq!(m, node.mv);
        }
        out.push(pos.clone());
    }
    out
}

/// What was checked, so that a file that lost its special games fails the test.
#[derive(Default)]
struct Seen {
    games: usize,
    chess960: usize,
    from_fen: usize,
    null_moves: usize,
}

fn check(tree: &GameTree, seen: &mut Seen) {
    let expected = replayed(tree);
    let plies = tree.moves.nodes.len();
    let positions = tree.positions();
    assert_eq!(positions.len(), plies + 1);
    assert_eq!(positions.collect::<Vec<_>>(), expected);
    for (ply, pos) in expected.iter().enumerate() {
        assert_eq!(tree.position_at(ply).as_ref(), Some(pos), "ply {ply}");
    }
    assert_eq!(tree.position_at(plies + 1), None);
    assert_eq!(tree.position_at(usize::MAX), None);
    assert_eq!(expected.last(), Some(&tree.final_position()));

    seen.games += 1;
    seen.chess960 += usize::from(tree.start.is_chess960());
    seen.from_fen += usize::from(tree.start != Position::startpos());
    if tree.mainline().any(|m| m.is_null()) {
        seen.null_moves += 1;
        assert_eq!(tree.outcome(), None, "a record holds no null move");
        return;
    }
    let game = tree.to_game().unwrap();
    let positions = game.positions();
    assert_eq!(positions.len(), plies + 1);
    assert_eq!(positions.collect::<Vec<_>>(), expected);
    for (ply, pos) in expected.iter().enumerate() {
        assert_eq!(game.position_at(ply).as_ref(), Some(pos), "ply {ply}");
    }
    assert_eq!(game.position_at(plies + 1), None);
    // One outcome type, one meaning: the rules' verdict on the same moves.
    assert_eq!(tree.outcome(), game.outcome());
    assert_eq!(
        game.result(),
        game.outcome().map_or(GameResult::Unknown, |o| o.result())
    );
}

#[test]
fn positions_are_the_moves_replayed_by_hand() {
    let mut seen = Seen::default();
    for (name, _) in common::PGN_FILES {
        for tree in games(&format!("pgn/{name}"), usize::MAX) {
            check(&tree, &mut seen);
        }
    }
    let standard = seen.games;
    assert!(standard >= 400, "{standard} games");
    for file in [
        "pgn/python-chess-tests/cutechess-fischerrandom.pgn",
        "pgn-edgecases/pychess-puzzles/mate_in_2.pgn",
        "pgn-edgecases/pychess-puzzles/mate_in_3.pgn",
        "pgn-edgecases/pgn-extract-test-infield/test-setup-in.pgn",
        "pgn-edgecases/pgn-extract-test-infield/test-allownullmoves.pgn",
    ] {
        for tree in games(file, usize::MAX) {
            check(&tree, &mut seen);
        }
    }
    assert!(seen.chess960 > 0, "no Chess960 game checked");
    assert!(seen.from_fen > 10, "{} games from a FEN", seen.from_fen);
    assert!(seen.null_moves > 0, "no game with a null move checked");
}

#[test]
fn a_game_without_moves_has_one_position() {
    let tree = GameTree::from_pgn(&b"[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/8/4K2R w K - 0 1\"]\n\n*"[..]).unwrap();
    assert_eq!(tree.positions().collect::<Vec<_>>(), std::slice::from_ref(&tree.start));
    assert_eq!(tree.position_at(0), Some(tree.start.clone()));
    assert_eq!(tree.position_at(1), None);
    let game = Game::from_position(tree.start.clone());
    assert_eq!(game.positions().len(), 1);
    assert_eq!(game.position_at(0).as_ref(), Some(game.start()));
    assert_eq!(game.position_at(1), None);
}

#[test]
fn the_iterator_counts_down_and_stays_done() {
    let tree = GameTree::from_pgn(&b"1. e4 e5 2. Nf3 *"[..]).unwrap();
    let mut positions = tree.positions();
    for left in (0..4).rev() {
        assert!(positions.next().is_some());
        assert_eq!(positions.len(), left);
    }
    assert_eq!(positions.next(), None);
    assert_eq!(positions.next(), None);
}

#[test]
fn one_result_type_for_trees_games_and_outcomes() {
    // The token is the tree's result; `*` and no token are both unknown and written as `*`.
    let tree = GameTree::from_pgn(&b"1. f3 e5 2. g4 Qh4# 0-1"[..]).unwrap();
    assert_eq!(tree.result, GameResult::BlackWins);
    let mate = Outcome {
        winner: tree.result.winner(),
        reason: Termination::Checkmate,
    };
    assert_eq!(tree.outcome(), Some(mate));
    assert_eq!(tree.to_game().unwrap().outcome(), Some(mate));
    assert_eq!(mate.result(), tree.result);
    assert_eq!(tree.to_game().unwrap().result(), tree.result);

    for pgn in [&b"[Result \"1-0\"]\n\n1. e4 *"[..], &b"[Result \"1-0\"]\n\n1. e4"[..]] {
        let tree = GameTree::from_pgn(pgn).unwrap();
        assert_eq!(tree.result, GameResult::Unknown);
        assert_eq!(
            tree.declared_result(),
            GameResult::WhiteWins,
            "the tag, when the token says nothing"
        );
        assert_eq!(tree.outcome(), None, "a resignation is no outcome of the rules");
        assert_eq!(tree.to_game().unwrap().result(), GameResult::Unknown);
        assert!(tree.to_pgn().ends_with(b"1. e4 *\n\n"));
    }
    // The token wins over a tag that disagrees with it.
    let tree = GameTree::from_pgn(&b"[Result \"1-0\"]\n\n1. e4 1/2-1/2"[..]).unwrap();
    assert_eq!(tree.declared_result(), GameResult::Draw);

    // A tree made from a finished record carries the record's result, token and tag.
    let mut game = Game::from_fen("7k/5Q2/6K1/8/8/8/8/8 w - - 0 1").unwrap();
    game.push_uci("g6h6").unwrap();
    assert_eq!(game.outcome(), Some(Outcome::draw(Termination::Stalemate)));
    let tree = GameTree::from_game(&game);
    assert_eq!(
        (tree.result, tree.declared_result()),
        (GameResult::Draw, GameResult::Draw)
    );
    assert_eq!(tree.tag("Result").as_deref(), Some("1/2-1/2"));
    assert_eq!(tree.outcome(), game.outcome());
}
