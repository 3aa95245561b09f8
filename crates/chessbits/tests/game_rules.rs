//! The draw rules and outcomes of `Game` on constructed games: repetitions (and what does not
//! count as one), the fifty- and seventy-five-move rules, insufficient material, mate and
//! stalemate.

use chessbits::game::{has_insufficient_material, insufficient_material, Game, Outcome, Termination};
use chessbits::lists::MoveList;
use chessbits::position::Position;
use chessbits::types::Color;

const KNIGHT_SHUFFLE: [&str; 4] = ["g1f3", "g8f6", "f3g1", "f6g8"];

fn play(game: &mut Game, moves: &[&str]) {
    for uci in moves {
        game.push_uci(uci)
            .unwrap_or_else(|e| panic!("{uci} in {}: {e}", game.position().fen()));
    }
}

#[test]
fn knight_shuffles_count_repetitions_up_to_fivefold() {
    let mut game = Game::new();
    assert_eq!(game.repetition_count(), 1);
    let mut counts = Vec::new();
    for _ in 0..4 {
        play(&mut game, &KNIGHT_SHUFFLE);
        counts.push(game.repetition_count());
        if game.repetition_count() < 5 {
            assert_eq!(game.outcome(), None, "after {} shuffles", counts.len());
        }
    }
    assert_eq!(counts, [2, 3, 4, 5]);
    assert!(game.is_threefold_repetition());
    assert!(game.is_fivefold_repetition());
    assert_eq!(game.outcome(), Some(Outcome::draw(Termination::FivefoldRepetition)));

    // One ply back, Black to move with the knights on g1 and f6: reached by the third move of
    // each shuffle, four times.
    game.pop();
    assert_eq!(game.repetition_count(), 4);
    assert_eq!(game.outcome(), None);
    assert_eq!(game.claimable_draw(), Some(Termination::ThreefoldRepetition));
}

#[test]
fn threefold_is_a_claim_and_not_an_automatic_end() {
    let mut game = Game::new();
    play(&mut game, &KNIGHT_SHUFFLE);
    assert_eq!(game.claimable_draw(), None);
    play(&mut game, &KNIGHT_SHUFFLE);
    assert!(game.is_repetition(3));
    assert!(!game.is_repetition(4));
    assert_eq!(game.outcome(), None);
    assert_eq!(game.claimable_draw(), Some(Termination::ThreefoldRepetition));
    assert_eq!(
        game.outcome_with_claims(),
        Some(Outcome::draw(Termination::ThreefoldRepetition))
    );
    // The intermediate positions occurred only twice.
    game.pop();
    assert_eq!(game.repetition_count(), 2);
}

#[test]
fn a_repetition_can_arise_by_transposition() {
    let mut game = Game::new();
    play(&mut game, &["g1f3", "g8f6", "b1c3", "b8c6"]);
    let key = game.position().key();
    // Back and forth in a different order.
    play(
        &mut game,
        &["f3g1", "c6b8", "c3b1", "f6g8", "b1c3", "g8f6", "g1f3", "b8c6"],
    );
    assert_eq!(game.position().key(), key);
    assert_eq!(game.repetition_count(), 2);
}

#[test]
fn the_count_restarts_after_a_pawn_move_or_a_capture() {
    let mut game = Game::new();
    play(&mut game, &KNIGHT_SHUFFLE);
    play(&mut game, &KNIGHT_SHUFFLE);
    assert_eq!(game.repetition_count(), 3);
    play(&mut game, &["e2e4", "e7e5"]);
    assert_eq!(game.position().halfmove_clock(), 0);
    assert_eq!(game.repetition_count(), 1);
    play(&mut game, &KNIGHT_SHUFFLE);
    assert_eq!(game.repetition_count(), 2);

    // A capture: the knights trade, then both sides shuffle their queens.
    let mut game = Game::from_fen("4k3/8/3q4/4n3/8/2N5/3Q4/4K3 w - - 0 1").unwrap();
    play(&mut game, &["d2e2", "d6e6", "e2d2", "e6d6"]);
    assert_eq!(game.repetition_count(), 2);
    play(&mut game, &["c3e4", "e5c4", "e4c3", "c4e5"]);
    assert_eq!(game.repetition_count(), 3);
    play(&mut game, &["c3d5", "e5c4", "d5c3", "c4e5"]);
    assert_eq!(game.repetition_count(), 4);
    assert_eq!(game.claimable_draw(), Some(Termination::ThreefoldRepetition));
    play(&mut game, &["d2d6"]); // queen takes queen
    assert_eq!(game.position().halfmove_clock(), 0);
    assert_eq!(game.repetition_count(), 1);
    play(&mut game, &["e8f7", "d6d2", "f7e8", "d2d6"]);
    assert_eq!(game.repetition_count(), 2);
    assert_eq!(game.claimable_draw(), None);
}

#[test]
fn the_same_placement_with_the_other_side_to_move_is_another_position() {
    // White's king walks a triangle (three moves) while Black's king steps back and forth, so the
    // start placement returns with Black to move.
    let mut game = Game::from_fen("r3k3/8/8/8/8/8/8/4K2R w - - 0 1").unwrap();
    let start_placement = game.position().board().clone();
    play(&mut game, &["e1d1", "e8d8", "d1d2", "d8e8", "d2e1"]);
    assert_eq!(game.position().board(), &start_placement);
    assert_eq!(game.position().turn(), Color::Black);
    assert_eq!(game.repetition_count(), 1);
    // Now the same dance once more reaches the start position with White to move: 2nd time.
    play(&mut game, &["e8d8", "e1d1", "d8e8", "d1d2", "e8d8", "d2e1", "d8e8"]);
    assert_eq!(game.position().board(), &start_placement);
    assert_eq!(game.position().turn(), Color::White);
    assert_eq!(game.repetition_count(), 2);
}

#[test]
fn lost_castling_rights_make_the_placement_a_new_position() {
    let mut game = Game::new();
    // The rooks step out and back: same placement as the start, but no king-side castling.
    play(
        &mut game,
        &["g1f3", "g8f6", "h1g1", "h8g8", "g1h1", "g8h8", "f3g1", "f6g8"],
    );
    assert_eq!(game.position().board(), game.start().board());
    assert_ne!(game.position().castling(), game.start().castling());
    assert_ne!(game.keys()[0], game.position().key());
    assert_eq!(game.repetition_count(), 1);
    play(&mut game, &KNIGHT_SHUFFLE);
    assert_eq!(game.repetition_count(), 2);
    play(&mut game, &KNIGHT_SHUFFLE);
    assert_eq!(game.repetition_count(), 3);
    // The start position, with its castling rights, occurred once only: the shuffles after the
    // rook trip never count it, though the halfmove clock reaches back to it.
    assert_eq!(game.position().halfmove_clock() as usize, game.len());
}

#[test]
fn a_possible_en_passant_capture_makes_a_position_differ() {
    // After e2e4 the black pawn on d4 can take en passant: that position is not repeated by the
    // same placement later, when the right has gone.
    let mut game = Game::from_fen("4k3/8/8/8/3p4/8/4P3/4K3 w - - 0 1").unwrap();
    play(&mut game, &["e2e4"]);
    assert!(game.position().ep_square().is_some());
    let shuffle = ["e8d8", "e1d1", "d8e8", "d1e1"];
    play(&mut game, &shuffle);
    assert_eq!(
        game.position().board(),
        Game::from_fen("4k3/8/8/8/3pP3/8/8/4K3 b - - 0 1")
            .unwrap()
            .position()
            .board()
    );
    assert_eq!(game.repetition_count(), 1);
    play(&mut game, &shuffle);
    assert_eq!(game.repetition_count(), 2);
    play(&mut game, &shuffle);
    assert_eq!(game.repetition_count(), 3); // not 4: the first one had the en passant right
}

#[test]
fn an_en_passant_square_without_a_legal_capture_does_not_make_a_position_differ() {
    // After e2e4, d4xe3 would leave both pawns' rank open between the rook on h4 and the king on
    // a4: illegal. The Polyglot key still hashes the e-file, but by the rules the position equals
    // the same placement later (FIDE 9.2.2: the possible moves are the same).
    let mut game = Game::from_fen("8/8/8/8/k2p3R/8/4P3/7K w - - 0 1").unwrap();
    play(&mut game, &["e2e4"]);
    let after_double_push = game.position().clone();
    assert!(
        after_double_push.ep_square().is_some(),
        "Polyglot convention: a pawn stands ready"
    );
    let mut legal = MoveList::new();
    after_double_push.legal_moves_into(&mut legal);
    assert!(!legal.iter().any(|m| m.is_en_passant()), "but the capture is illegal");
    play(&mut game, &["a4a3", "h1g1", "a3a4", "g1h1"]);
    assert_eq!(game.position().board(), after_double_push.board());
    assert_ne!(game.keys()[1], game.position().key(), "the Polyglot keys differ");
    assert_eq!(game.repetition_count(), 2, "but the positions are the same");
    play(&mut game, &["a4a3", "h1g1", "a3a4", "g1h1"]);
    assert_eq!(game.repetition_count(), 3);
    assert_eq!(game.claimable_draw(), Some(Termination::ThreefoldRepetition));
}

#[test]
fn fifty_move_rule_is_claimable_at_one_hundred_half_moves() {
    let mut game = Game::from_fen("4k3/8/8/8/8/8/8/R3K3 w - - 98 70").unwrap();
    assert!(!game.is_fifty_moves());
    play(&mut game, &["a1a2"]);
    assert_eq!(game.position().halfmove_clock(), 99);
    assert_eq!(game.claimable_draw(), None);
    play(&mut game, &["e8d8"]);
    assert!(game.is_fifty_moves());
    assert_eq!(game.claimable_draw(), Some(Termination::FiftyMoves));
    assert_eq!(game.outcome(), None, "only a claim");
    assert_eq!(game.outcome_with_claims(), Some(Outcome::draw(Termination::FiftyMoves)));
    game.pop();
    assert!(!game.is_fifty_moves());
}

#[test]
fn a_pawn_move_or_capture_resets_the_fifty_move_count() {
    let mut game = Game::from_fen("4k3/8/8/8/8/8/P7/R3K3 w - - 99 70").unwrap();
    play(&mut game, &["a2a3"]);
    assert_eq!(game.claimable_draw(), None);
    let mut game = Game::from_fen("4k3/8/8/8/8/8/r7/R3K3 w - - 99 70").unwrap();
    play(&mut game, &["a1a2"]);
    assert_eq!(game.position().halfmove_clock(), 0);
    assert!(!game.is_fifty_moves());
}

#[test]
fn seventy_five_move_rule_ends_the_game_at_one_hundred_fifty_half_moves() {
    let mut game = Game::from_fen("1k6/8/1K6/8/8/8/8/7R w - - 148 100").unwrap();
    play(&mut game, &["h1h2"]);
    assert_eq!(game.outcome(), None);
    assert_eq!(game.claimable_draw(), Some(Termination::FiftyMoves));
    play(&mut game, &["b8a8"]);
    assert!(game.is_seventy_five_moves());
    assert_eq!(game.outcome(), Some(Outcome::draw(Termination::SeventyFiveMoves)));
}

#[test]
fn a_mate_on_the_one_hundred_fiftieth_half_move_is_a_mate() {
    let mut game = Game::from_fen("1k6/8/1K6/8/8/8/8/7R w - - 149 100").unwrap();
    play(&mut game, &["h1h8"]);
    assert!(game.is_seventy_five_moves());
    assert_eq!(
        game.outcome(),
        Some(Outcome {
            winner: Some(Color::White),
            reason: Termination::Checkmate
        })
    );
    // The same clock without mate: a draw.
    game.pop();
    play(&mut game, &["h1h7"]);
    assert_eq!(game.outcome(), Some(Outcome::draw(Termination::SeventyFiveMoves)));
}

#[test]
fn checkmate_and_stalemate() {
    let mut game = Game::new();
    play(&mut game, &["e2e4", "e7e5", "f1c4", "b8c6", "d1h5", "g8f6", "h5f7"]);
    let outcome = game.outcome().unwrap();
    assert_eq!(outcome.winner, Some(Color::White));
    assert_eq!(outcome.reason, Termination::Checkmate);
    assert_eq!(outcome.result().as_str(), "1-0");
    assert!(game.push_uci("e8f7").is_err(), "the bishop guards f7");
}

#[test]
fn stalemate_is_a_draw() {
    let mut game = Game::from_fen("7k/8/6K1/5Q2/8/8/8/8 w - - 0 1").unwrap();
    play(&mut game, &["f5f7"]);
    assert_eq!(game.outcome(), Some(Outcome::draw(Termination::Stalemate)));
    assert_eq!(game.outcome().unwrap().result().as_str(), "1/2-1/2");
}

#[test]
fn a_capture_down_to_bare_kings_ends_the_game() {
    let mut game = Game::from_fen("4k3/8/8/8/8/8/4q3/4K3 w - - 0 1").unwrap();
    assert_eq!(game.outcome(), None);
    play(&mut game, &["e1e2"]);
    assert_eq!(game.outcome(), Some(Outcome::draw(Termination::InsufficientMaterial)));
}

#[test]
fn insufficient_material_cases() {
    // (FEN, dead position, White cannot mate, Black cannot mate)
    let cases = [
        ("8/8/4k3/8/8/3K4/8/8 w - - 0 1", true, true, true),
        ("8/8/4k3/8/8/3K4/8/6N1 w - - 0 1", true, true, true),
        ("8/8/4k3/8/8/3K4/8/5B2 w - - 0 1", true, true, true),
        ("8/8/4k3/8/8/3K4/8/1n6 w - - 0 1", true, true, true),
        // Bishops on one color, however many and whoever owns them.
        ("2b5/8/4k3/8/8/3K4/8/5B2 w - - 0 1", true, true, true),
        ("2b1b3/1b6/4k3/8/8/3K4/2B5/3B1B2 b - - 0 1", true, true, true),
        ("8/8/4k3/8/8/3K4/2B5/5B2 w - - 0 1", true, true, true),
        // Bishops on both colors: mate is possible (with help).
        ("1b6/8/4k3/8/8/3K4/8/5B2 w - - 0 1", false, false, false),
        ("8/8/4k3/8/8/3K4/8/4BB2 w - - 0 1", false, false, true),
        // Two knights, or knight and bishop.
        ("8/8/4k3/8/8/3K4/8/5NN1 w - - 0 1", false, false, true),
        ("8/8/4k3/8/8/3K4/8/5BN1 w - - 0 1", false, false, true),
        // Knight against knight: each could be mated with the other's pieces in the way.
        ("8/8/4k3/3n4/8/3K4/8/6N1 w - - 0 1", false, false, false),
        // Knight against queen: the knight side cannot mate, the queen side can.
        ("8/8/4k3/3q4/8/3K4/8/6N1 w - - 0 1", false, true, false),
        // Bishop against knight: the knight can block, so the bishop side can mate (and vice versa).
        ("8/8/4k3/3n4/8/3K4/8/5B2 w - - 0 1", false, false, false),
        // Any pawn, rook or queen.
        ("8/8/4k3/8/8/3K4/7P/8 w - - 0 1", false, false, true),
        ("8/8/4k3/8/8/3K4/8/7R w - - 0 1", false, false, true),
        ("8/8/4k3/8/8/3K4/8/7q w - - 0 1", false, true, false),
    ];
    for (fen, dead, white, black) in cases {
        let pos = Position::from_fen(fen).unwrap();
        let board = pos.board();
        assert_eq!(insufficient_material(board), dead, "{fen}");
        assert_eq!(has_insufficient_material(board, Color::White), white, "{fen} white");
        assert_eq!(has_insufficient_material(board, Color::Black), black, "{fen} black");
        let game = Game::from_position(pos.clone());
        assert_eq!(game.is_insufficient_material(), dead, "{fen}");
        if dead {
            assert_eq!(
                game.outcome(),
                Some(Outcome::draw(Termination::InsufficientMaterial)),
                "{fen}"
            );
        }
    }
}

#[test]
fn outcome_display() {
    assert_eq!(
        Outcome::draw(Termination::FivefoldRepetition).to_string(),
        "1/2-1/2 (fivefold repetition)"
    );
    assert!(Termination::SeventyFiveMoves.is_automatic());
    assert!(Termination::InsufficientMaterial.is_automatic());
    assert!(!Termination::FiftyMoves.is_automatic());
}
