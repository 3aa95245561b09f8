//! The flagged 32-bit move (`codec::moves::flagged`): every legal move of random games from
//! positions rich in castles (Chess960 included), en passant and promotions encodes, decodes back
//! and converts to and from `ExtendedMove`; each field is checked against the board by other
//! means (the position after the move), and corrupted codes never decode to a different move.

use crate::common;

use chessbits::codec::moves::flagged::{decode, encode, to_extended, FlaggedMove};
use chessbits::lists::MoveList;
use chessbits::moves::ExtendedMove;
use chessbits::moves::Move;
use chessbits::position::Position;
use chessbits::types::{Piece, Role};
use common::{random_moves, Rng};

const FENS: [&str; 7] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    // Chess960: the king on g1 castles king side without moving; the rooks on f and h.
    "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
    "1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w GBgb - 0 1",
    "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
];

/// Checks every field of `code` against what playing `m` does to the board.
fn check_fields(pos: &Position, m: Move, code: FlaggedMove) {
    let us = pos.turn();
    let mut after = pos.clone();
    after.play_unchecked(m);
    assert_eq!(code.bits() >> 24, 0);
    assert_eq!(code.source(), m.from());
    assert_eq!(Some(code.piece()), pos.piece_at(m.from()));
    if code.is_castling() {
        assert!(m.is_castle());
        assert_eq!(after.piece_at(code.target()), Some(Piece::new(us, Role::King)), "{m:?}");
    } else {
        let landed = after.piece_at(code.target()).unwrap();
        assert_eq!(landed, code.promoted().unwrap_or(code.piece()), "{m:?}");
    }
    assert_eq!(code.promoted().is_some(), m.is_promotion());
    // Material the other side lost: a capture, en passant included.
    let theirs = |p: &Position| p.board().by_color(!us).count();
    assert_eq!(code.is_capture(), theirs(&after) < theirs(pos), "{m:?}");
    assert_eq!(
        code.is_en_passant(),
        code.piece().role == Role::Pawn && code.is_capture() && pos.piece_at(code.target()).is_none()
    );
    assert_eq!(
        code.is_double_push(),
        code.piece().role == Role::Pawn && code.source().distance(code.target()) == 2
    );
}

#[test]
fn every_legal_move_round_trips_and_its_fields_match_the_board() {
    let mut rng = Rng::new(0x0f1a_99ed);
    let mut list = MoveList::new();
    let mut seen = [0usize; 4];
    for fen in FENS {
        let start = Position::from_fen(fen).unwrap();
        for _ in 0..40 {
            let mut pos = start.clone();
            for m in random_moves(&start, &mut rng, 60, true) {
                pos.legal_moves_into(&mut list);
                for &legal in list.iter() {
                    let code = encode(&pos, legal).unwrap();
                    check_fields(&pos, legal, code);
                    assert_eq!(decode(&pos, code), Ok(legal));
                    assert_eq!(FlaggedMove::from_bits(code.bits()), Ok(code));
                    let piece = pos.piece_at(legal.from()).unwrap();
                    assert_eq!(FlaggedMove::from_move(legal, piece), code);
                    let xm = to_extended(&pos, code).unwrap();
                    assert_eq!(xm, ExtendedMove::new(legal));
                    assert_eq!(encode(&pos, xm.mv()), Ok(code));
                    seen[0] += usize::from(code.is_castling());
                    seen[1] += usize::from(code.is_en_passant());
                    seen[2] += usize::from(code.promoted().is_some());
                    seen[3] += 1;
                }
                pos.play_unchecked(m);
            }
        }
    }
    // The games reach what the layout has flags for.
    assert!(seen.iter().all(|&n| n > 50), "{seen:?}");
}

#[test]
fn a_corrupted_code_names_no_other_move() {
    // Any bit flipped: rejected, or a different legal move whose own code it is.
    let mut rng = Rng::new(77);
    let mut list = MoveList::new();
    for fen in FENS {
        let start = Position::from_fen(fen).unwrap();
        let mut pos = start.clone();
        for m in random_moves(&start, &mut rng, 40, true) {
            pos.legal_moves_into(&mut list);
            for &legal in list.iter() {
                let code = encode(&pos, legal).unwrap().bits();
                for bit in 0..32 {
                    let Ok(flipped) = FlaggedMove::from_bits(code ^ 1 << bit) else {
                        continue;
                    };
                    if let Ok(other) = decode(&pos, flipped) {
                        assert_ne!(other, legal);
                        assert_eq!(encode(&pos, other), Ok(flipped));
                    }
                }
            }
            pos.play_unchecked(m);
        }
    }
}

#[test]
fn random_bits_never_panic_and_decode_canonically() {
    // Pure noise, and legal codes with one field (source, target, piece, promoted, flags)
    // replaced by noise: whatever decodes is the move whose code it is.
    const FIELDS: [u32; 5] = [0x3f, 0xfc0, 0xf000, 0xf0000, 0xf0_0000];
    let mut rng = Rng::new(5);
    let mut list = MoveList::new();
    let mut decoded = 0;
    for fen in FENS {
        let pos = Position::from_fen(fen).unwrap();
        pos.legal_moves_into(&mut list);
        let codes: Vec<u32> = list.iter().map(|&m| encode(&pos, m).unwrap().bits()).collect();
        for _ in 0..30_000 {
            let noise = rng.next() as u32;
            let bits = if rng.below(2) == 0 {
                noise >> rng.below(9)
            } else {
                let field = FIELDS[rng.below(5)];
                codes[rng.below(codes.len())] & !field | noise & field
            };
            let Ok(code) = FlaggedMove::from_bits(bits) else {
                assert!(bits >= FlaggedMove::LIMIT || (bits >> 12 & 15) > 11 || bits >> 16 & 15 != 0);
                continue;
            };
            if let Ok(m) = decode(&pos, code) {
                assert_eq!(encode(&pos, m), Ok(code));
                decoded += 1;
            }
        }
    }
    assert!(decoded > 1000, "{decoded}");
}

#[test]
fn the_masks_are_the_layouts() {
    // The constants as the layout's table gives them, and disjoint.
    let masks = [
        (FlaggedMove::SOURCE, 0x3f),
        (FlaggedMove::TARGET, 0xfc0),
        (FlaggedMove::PIECE, 0xf000),
        (FlaggedMove::PROMOTED, 0xf0000),
        (FlaggedMove::CAPTURE, 0x10_0000),
        (FlaggedMove::DOUBLE_PUSH, 0x20_0000),
        (FlaggedMove::EN_PASSANT, 0x40_0000),
        (FlaggedMove::CASTLING, 0x80_0000),
    ];
    let mut all = 0;
    for (mask, expected) in masks {
        assert_eq!(mask, expected);
        assert_eq!(all & mask, 0);
        all |= mask;
    }
    assert_eq!(all, FlaggedMove::LIMIT - 1);
}
