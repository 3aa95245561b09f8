use super::*;
use crate::notation::uci::parse_uci;
use crate::position::Position;

fn lenient(text: &str) -> SanPlus {
    San::parse_lenient(text.as_bytes()).unwrap_or_else(|e| panic!("{text}: {e}"))
}

#[test]
fn strict_round_trips_canonical_forms() {
    for text in [
        "e4", "exd5", "Nf3", "Nbd7", "R1e2", "Qh4xe1", "Kxf2", "e8=Q", "gxh1=N", "O-O", "O-O-O", "--",
    ] {
        let san: San = text.parse().unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(san.to_string(), text);
    }
    assert_eq!("Z0".parse::<San>(), Ok(San::Null));
    for text in ["Nf3#", "O-O+", "e4"] {
        assert_eq!(text.parse::<SanPlus>().unwrap().to_string(), text);
    }
}

#[test]
fn strict_rejects_sloppy_forms() {
    for text in [
        "", "e", "e9", "i4", "Nf", "0-0", "e8Q", "e8(Q)", "e2e4", "ed5", "exe5", "axc3", "e7=Q", "e8", "Pe4", "Nf3!",
        "Ng1-f3", "Nf3 ", " Nf3", "Kf3=Q", "e8=K", "Nxx3", "O-O-O-O", "Nf3+#", "+",
    ] {
        assert_eq!(text.parse::<San>(), Err(SanError::Malformed), "{text:?}");
        assert_eq!(San::parse_strict(text.as_bytes()), Err(SanError::Malformed), "{text:?}");
    }
    // A check or mate mark: `FromStr` drops it, `parse_strict` refuses it.
    assert_eq!("Nf3+".parse::<San>(), "Nf3".parse::<San>());
    assert_eq!(San::parse_strict(b"Nf3+"), Err(SanError::Malformed));
    assert_eq!("Nf3++".parse::<SanPlus>(), Err(SanError::Malformed));
}

#[test]
fn lenient_castling_null_and_suffixes() {
    assert_eq!(lenient("0-0").san, San::Castle(CastlingSide::KingSide));
    assert_eq!(lenient("0-0-0+").san, San::Castle(CastlingSide::QueenSide));
    assert_eq!(lenient("o-o-o").san, San::Castle(CastlingSide::QueenSide));
    assert_eq!(lenient("O-O#").suffix, Some(Suffix::Checkmate));
    for null in ["--", "Z0", "0000"] {
        assert_eq!(lenient(null).san, San::Null, "{null}");
    }
    assert_eq!(
        lenient("Nf3!?"),
        SanPlus {
            san: "Nf3".parse().unwrap(),
            suffix: None
        }
    );
    assert_eq!(lenient("Nf3+?!").suffix, Some(Suffix::Check));
    assert_eq!(lenient("Qxf7#!!").suffix, Some(Suffix::Checkmate));
    assert_eq!(lenient("Qxf7++").suffix, Some(Suffix::Checkmate));
    assert_eq!(lenient("Qxf7‡").suffix, Some(Suffix::Checkmate));
    assert_eq!(lenient("Qxf7†").suffix, Some(Suffix::Check));
    assert_eq!(lenient("Qxf7‡").san.to_string(), "Qxf7");
}

#[test]
fn lenient_promotions() {
    for text in ["e8Q", "e8=Q", "e8(Q)", "e8/Q", "e8q", "e7e8q", "e7-e8=Q"] {
        let san = lenient(text).san;
        match san {
            San::Normal {
                role: Role::Pawn,
                to,
                promotion: Some(Role::Queen),
                ..
            } => assert_eq!(to, Square::E8),
            other => panic!("{text}: {other:?}"),
        }
    }
    assert_eq!(lenient("bxa1=N").san.to_string(), "bxa1=N");
    assert_eq!(lenient("b2a1n").san.to_string(), "b2xa1=N".replace('x', ""));
    assert!(San::parse_lenient(b"e8=K").is_err());
    assert!(San::parse_lenient(b"Ne8=Q").is_err());
}

#[test]
fn lenient_long_algebraic_and_capture_marks() {
    let knight = San::normal(Role::Knight, Some(File::G), Some(Rank::FIRST), false, Square::F3);
    assert_eq!(lenient("Ng1-f3").san, knight);
    assert_eq!(lenient("Ng1f3").san, knight);
    let queen = San::normal(Role::Queen, Some(File::H), Some(Rank::FOURTH), true, Square::E1);
    assert_eq!(lenient("Qh4xe1").san, queen);
    assert_eq!(lenient("Qh4:e1").san, queen);
    assert_eq!(
        lenient("e2e4").san,
        San::normal(Role::Pawn, Some(File::E), Some(Rank::SECOND), false, Square::E4)
    );
    assert_eq!(lenient("e2-e4").san, lenient("e2e4").san);
    assert_eq!(lenient("Pe4").san, "e4".parse().unwrap());
    assert_eq!(
        lenient("ed5").san,
        San::normal(Role::Pawn, Some(File::E), None, false, Square::D5)
    );
    assert_eq!(lenient("exd6 e.p.").san, "exd6".parse().unwrap());
    assert_eq!(lenient("exd6e.p.+").san, "exd6".parse().unwrap());
    assert_eq!(lenient("  Nf3  ").san, "Nf3".parse().unwrap());
    for bad in [
        "", "+", "e.p.", "N", "Nf3-", "Nf3x", "xx", "Nxx3", "N-", "K9", "é4", "Ng1--f3", "1-0", "e4 e5",
    ] {
        assert_eq!(San::parse_lenient(bad.as_bytes()), Err(SanError::Malformed), "{bad:?}");
    }
}

fn resolve(fen: &str, text: &str) -> Result<String, SanError> {
    let pos = Position::from_fen(fen).unwrap();
    let san = San::parse_lenient(text.as_bytes())?;
    san.san.to_move(&pos).map(|m| m.uci(pos.is_chess960()).to_string())
}

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

#[test]
fn resolution_of_lenient_forms() {
    assert_eq!(resolve(START, "Ng1-f3").as_deref(), Ok("g1f3"));
    assert_eq!(resolve(START, "g1f3").as_deref(), Ok("g1f3"));
    assert_eq!(resolve(START, "e2e4").as_deref(), Ok("e2e4"));
    assert_eq!(
        resolve(START, "Nxf3").as_deref(),
        Ok("g1f3"),
        "a wrong capture mark is ignored"
    );
    // Superfluous disambiguation, missing x.
    let fen = "r1bqkbnr/pppppppp/2n5/3P4/8/8/PPP1PPPP/RNBQKBNR b KQkq - 0 2";
    assert_eq!(resolve(fen, "Ncb4").as_deref(), Ok("c6b4"));
    assert_eq!(resolve(fen, "Nc6xd4").as_deref(), Ok("c6d4"));
    // En passant in its written forms.
    let ep = "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3";
    for text in ["exf6", "exf6 e.p.", "ef6", "e5f6", "exf6ep"] {
        let expected = if text == "exf6ep" {
            Err(SanError::Malformed)
        } else {
            Ok("e5f6".to_string())
        };
        assert_eq!(resolve(ep, text), expected, "{text}");
    }
    // UCI-style castling, both forms.
    let castle = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
    assert_eq!(resolve(castle, "e1g1").as_deref(), Ok("e1g1"));
    assert_eq!(resolve(castle, "e1h1").as_deref(), Ok("e1g1"));
    assert_eq!(resolve(castle, "Ke1c1").as_deref(), Ok("e1c1"));
    assert_eq!(resolve(castle, "0-0-0").as_deref(), Ok("e1c1"));
}

#[test]
fn resolution_errors_are_typed() {
    assert_eq!(resolve(START, "Nf6"), Err(SanError::Illegal));
    assert_eq!(resolve(START, "e5"), Err(SanError::Illegal));
    assert_eq!(resolve(START, "O-O"), Err(SanError::Illegal));
    assert_eq!(resolve(START, "Ng1-h3x"), Err(SanError::Malformed));
    assert_eq!(
        resolve(START, "Nbf3"),
        Err(SanError::Illegal),
        "disambiguation must agree"
    );
    // Both rooks reach d1.
    let rooks = "4k3/8/8/8/8/8/4K3/R6R w - - 0 1";
    assert_eq!(resolve(rooks, "Rd1"), Err(SanError::Ambiguous));
    assert_eq!(resolve(rooks, "Rad1").as_deref(), Ok("a1d1"));
    // A pinned knight does not count: the other one is unique.
    let pinned = "4k3/4r3/8/8/8/1N6/4N3/4K3 w - - 0 1";
    assert_eq!(resolve(pinned, "Nd4").as_deref(), Ok("b3d4"));
    // Promotion must be written, and only on the last rank.
    let promo = "4k3/P7/8/8/8/8/1P6/4K3 w - - 0 1";
    assert_eq!(resolve(promo, "a8"), Err(SanError::Illegal));
    assert_eq!(resolve(promo, "b3=Q"), Err(SanError::Illegal));
    assert_eq!(resolve(promo, "a8=N").as_deref(), Ok("a7a8n"));
    // In check, only evasions.
    let check = "4k3/8/8/8/8/8/3q4/R3K2R w KQ - 0 1";
    assert_eq!(resolve(check, "O-O"), Err(SanError::Illegal));
    assert_eq!(resolve(check, "Ra2"), Err(SanError::Illegal));
    assert_eq!(resolve(check, "Kxd2").as_deref(), Ok("e1d2"));
}

fn san(fen: &str, uci: &str) -> String {
    let pos = Position::from_fen(fen).unwrap();
    let m = parse_uci(&pos, uci).unwrap();
    san_of(&pos, m).to_string()
}

#[test]
fn minimal_disambiguation_file_rank_both() {
    // Knights on b1 and f1 (same rank): the file tells them apart.
    assert_eq!(san("4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1", "b1d2"), "Nbd2");
    // Rooks on a1 and a5 (same file): the rank.
    assert_eq!(san("4k3/8/8/R7/8/8/8/R3K3 w - - 0 1", "a1a3"), "R1a3");
    // Queens on a4, h4, h1 all reach e4... and d4's? Here e1 via h4/h1/a5: both needed.
    assert_eq!(san("8/2k5/8/8/Q6Q/8/8/K6Q w - - 0 1", "h4e4"), "Qh4e4");
    assert_eq!(san("8/2k5/8/8/Q6Q/8/8/K6Q w - - 0 1", "h1e4"), "Q1e4");
    assert_eq!(san("8/2k5/8/8/Q6Q/8/8/K6Q w - - 0 1", "a4e4"), "Qae4");
    // A pinned second knight needs no disambiguation.
    assert_eq!(san("4k3/4r3/8/8/8/1N6/4N3/4K3 w - - 0 1", "b3d4"), "Nd4");
    // Pawn captures name the file; promotions; en passant.
    assert_eq!(san("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "e5d6"), "exd6");
    assert_eq!(san("3r3k/4P3/8/8/8/8/8/4K3 w - - 0 1", "e7d8n"), "exd8=N");
    assert_eq!(san("3r3k/4P3/8/8/8/8/8/4K3 w - - 0 1", "e7e8q"), "e8=Q+");
}

#[test]
fn check_and_mate_suffixes() {
    assert_eq!(
        san("rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2", "d8h4"),
        "Qh4#"
    );
    assert_eq!(san("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1", "a1a8"), "Ra8+");
    assert_eq!(san("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1", "e1c1"), "O-O-O");
    // Discovered check by the castling rook's move.
    assert_eq!(san("3k4/8/8/8/8/8/8/R3K3 w Q - 0 1", "e1c1"), "O-O-O+");
}

#[test]
fn chess960_castling_san() {
    // King b1, rooks a1 and h1: queen side castle puts the king on c1, the rook on d1.
    let fen = "r5kr/8/8/8/8/8/8/RK5R w KQkq - 0 1";
    let pos = Position::from_fen(fen).unwrap();
    assert!(pos.is_chess960());
    assert_eq!(san(fen, "b1a1"), "O-O-O");
    assert_eq!(san(fen, "b1h1"), "O-O");
    assert_eq!(resolve(fen, "O-O-O").as_deref(), Ok("b1a1"));
    assert_eq!(resolve(fen, "O-O").as_deref(), Ok("b1h1"));
    // The king steps to c1 as a normal move too: `Kc1` is that move, not the castle.
    assert_eq!(resolve(fen, "Kc1").as_deref(), Ok("b1c1"));
    assert_eq!(
        resolve(fen, "Kxa1").as_deref(),
        Ok("b1a1"),
        "king takes own rook is the castle"
    );
    // King on g1 and rook on h1: castling does not move the king.
    let fen = "6kr/8/8/8/8/8/8/6KR w Hh - 0 1";
    assert_eq!(san(fen, "g1h1"), "O-O");
    assert_eq!(resolve(fen, "O-O").as_deref(), Ok("g1h1"));
}

#[test]
fn display_honours_width_fill_and_alignment() {
    use crate::moves::Move;
    use crate::notation::lan::Lan;
    use crate::types::{Color, Square};
    let pos = Position::startpos();
    let m = parse_uci(&pos, "g1f3").unwrap();
    let san: SanPlus = "Qxf7#".parse().unwrap();
    let lan: Lan = "Ng1-f3".parse().unwrap();
    assert_eq!(format!("[{:>6}]", "Nf3".parse::<San>().unwrap()), "[   Nf3]");
    assert_eq!(format!("[{san:-<8}]"), "[Qxf7#---]");
    assert_eq!(format!("[{san:^9}]"), "[  Qxf7#  ]");
    assert_eq!(format!("[{lan:>8}]"), "[  Ng1-f3]");
    assert_eq!(format!("[{m:>6}]"), "[  g1f3]");
    assert_eq!(format!("[{:>6}]", Move::NULL), "[  0000]");
    assert_eq!(format!("[{:<4}]", Square::E4), "[e4  ]");
    assert_eq!(format!("[{:>7}]", Color::Black), "[  black]");
    // Without a width: unchanged, and a precision cuts as for strings.
    assert_eq!(format!("{san}"), "Qxf7#");
    assert_eq!(format!("{san:.4}"), "Qxf7");
}
