//! Which positions are accepted: cozy-chess's 10,000 valid and 9,992 invalid positions
//! (`testdata/positions/`, Shredder-FEN) are all accepted, resp. all rejected; the rules added
//! for impossible material and checks, each on a position built for it, and their opt-out
//! ([`Validation::Composed`]).

use crate::common;

use chessbits::notation::fen::{parse_setup, CastlingNotation, FenError};
use chessbits::pgn::PgnReader;
use chessbits::position::{Position, PositionError, Validation};
use chessbits::types::Color;

fn lines(name: &str) -> Vec<String> {
    let text = String::from_utf8(common::read_data(&common::testdata_path(), name)).unwrap();
    text.lines().map(str::to_string).collect()
}

#[test]
fn every_valid_cozy_chess_position_is_accepted() {
    let fens = lines("positions/cozy-chess_valid.sfens");
    assert_eq!(fens.len(), 10_000);
    for fen in &fens {
        let pos = Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        // What is accepted writes back to a FEN that is accepted as the same position.
        let written = pos.fen_with(CastlingNotation::Shredder);
        assert!(Position::from_fen(&written).as_ref() == Ok(&pos), "{fen} -> {written}");
    }
}

#[test]
fn every_invalid_cozy_chess_position_is_rejected() {
    let fens = lines("positions/cozy-chess_invalid.sfens");
    assert_eq!(fens.len(), 9_992);
    let (mut material, mut check, mut composed) = (0, 0, 0);
    for fen in &fens {
        match Position::from_fen(fen) {
            Ok(_) => panic!("{fen} accepted"),
            Err(FenError::Position(PositionError::ImpossibleMaterial(_))) => material += 1,
            Err(FenError::Position(PositionError::ImpossibleCheck)) => check += 1,
            Err(_) => {}
        }
        if Position::from_fen_with(fen, Validation::Composed).is_ok() {
            composed += 1;
        }
    }
    // The two rules added for these files reject what the older ones let through, and the
    // opt-out lets exactly those through again.
    assert_eq!(material, 1_634);
    assert_eq!(check, 37);
    assert_eq!(composed, material + check);
}

fn error(fen: &str) -> Option<PositionError> {
    let setup = parse_setup(fen).unwrap();
    let strict = Position::from_setup(setup.clone()).err();
    if strict.is_some() {
        // Every position rejected for material or checks alone is one a composer may set.
        let composed = Position::from_setup_with(setup, Validation::Composed);
        assert!(composed.is_ok(), "{fen}: {composed:?}");
    }
    strict
}

#[test]
fn material_beyond_what_promotions_give_is_rejected() {
    use PositionError::ImpossibleMaterial;
    // Nine pawns.
    assert_eq!(
        error("4k3/8/8/8/8/P7/PPPPPPPP/4K3 w - - 0 1"),
        Some(ImpossibleMaterial(Color::White))
    );
    // Eight pawns and a third bishop; eight pawns and two bishops on light squares.
    assert_eq!(
        error("2b1kbb1/pppppppp/8/8/8/8/8/4K3 w - - 0 1"),
        Some(ImpossibleMaterial(Color::Black))
    );
    assert_eq!(
        error("4k1b1/pppppppp/8/8/8/8/8/1b2K3 w - - 0 1"),
        Some(ImpossibleMaterial(Color::Black))
    );
    // Two bishops on one colour, seven pawns: one promotion.
    assert_eq!(error("4k1b1/ppppppp1/8/8/8/8/8/1b2K3 w - - 0 1"), None);
    // Nine queens and no pawn: eight promotions, the most there can be.
    assert_eq!(error("7k/6pp/8/8/8/8/QQQQ4/QQQQQK2 b - - 0 1"), None);
    assert_eq!(
        error("7k/6pp/8/8/8/8/QQQQQ3/QQQQQK2 b - - 0 1"),
        Some(ImpossibleMaterial(Color::White))
    );
    // Seventeen pieces.
    assert_eq!(
        error("4k3/8/8/8/PPPPPPPP/8/NNNNNNNN/4K3 b - - 0 1"),
        Some(ImpossibleMaterial(Color::White))
    );
}

#[test]
fn checks_no_move_could_give_are_rejected() {
    use PositionError::ImpossibleCheck;
    // Triple check: knight, rook and bishop.
    assert_eq!(error("4k3/8/3N4/8/B3R3/8/8/4K3 b - - 0 1"), Some(ImpossibleCheck));
    // Double check by a knight and a bishop: the knight moved and uncovered the bishop.
    assert_eq!(error("4k3/8/3N4/8/B7/8/8/4K3 b - - 0 1"), None);
    // Two rooks on one line through the king, on either side.
    assert_eq!(error("7K/8/8/8/8/8/8/R3k2R b - - 0 1"), Some(ImpossibleCheck));
    // Two knights: neither can have been uncovered.
    assert_eq!(error("4k3/8/3N1N2/8/8/8/8/4K3 b - - 0 1"), Some(ImpossibleCheck));
    // Black just played d7-d5: the pawn checks, or its move uncovered the check, or nothing.
    assert_eq!(error("8/8/8/3p4/4K3/8/8/7k w - d6 0 1"), None);
    assert_eq!(error("8/8/8/3p4/8/8/8/k3K2r w - d6 0 1"), Some(ImpossibleCheck));
    assert_eq!(
        error("2b5/8/8/3p4/6K1/8/8/k7 w - d6 0 1"),
        None,
        "the bishop's line crosses d7"
    );
    assert_eq!(
        error("8/8/8/3p4/8/8/8/k3K2r w - - 0 1"),
        None,
        "no en passant square: any last move"
    );
    assert_eq!(error("8/8/8/3p4/8/8/6K1/k7 w - d6 0 1"), None);
}

#[test]
fn a_pgn_fen_tag_may_set_up_a_composed_position() {
    // Problem collections set up positions no game reaches: the reader plays them out.
    let pgn = "[SetUp \"1\"]\n[FEN \"4k3/8/3N4/8/B3R3/8/8/4K3 b - - 0 1\"]\n\n1... Kf8 2. Rf4+ *\n";
    let game = PgnReader::new(pgn.as_bytes()).into_games().next().unwrap().unwrap();
    assert_eq!(game.start.checkers().count(), 3);
    assert_eq!(game.mainline().count(), 2);
    // Every other rule still holds: a side without a king is no position, even in a problem.
    let pgn = "[SetUp \"1\"]\n[FEN \"8/8/8/8/8/8/8/4K3 w - - 0 1\"]\n\n1. Kd2 *\n";
    let error = PgnReader::new(pgn.as_bytes()).into_games().next().unwrap().unwrap_err();
    assert!(error.to_string().contains("black has no king"), "{error}");
}
