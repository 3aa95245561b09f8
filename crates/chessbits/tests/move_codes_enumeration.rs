//! The 16-bit enumeration against the seed's "All Moves" sheet: the categories counted by
//! decoding every code, and the constructors checked exhaustively to accept exactly the moves
//! the sheet counts.

use std::collections::{BTreeMap, HashSet};

use chessbits::codec::moves::enumeration::{EnumeratedMove, CODES_PER_SIDE, CODE_COUNT};
use chessbits::types::{CastlingSide, Color, Role, Square};

/// The sheet's row of a move, read from its fields only.
fn category(m: &EnumeratedMove) -> &'static str {
    match m.role() {
        Role::Pawn if m.is_en_passant() => "pawn en passant",
        Role::Pawn => match (m.captured(), m.promotion()) {
            (Some(_), Some(_)) => "pawn capture-promotion",
            (None, Some(_)) => "pawn promotion",
            (Some(_), None) => "pawn capture",
            (None, None) if m.from().rank().index().abs_diff(m.to().rank().index()) == 2 => "pawn double push",
            (None, None) => "pawn push",
        },
        Role::King if m.castling_side().is_some() => "king castle",
        Role::King => "king",
        Role::Knight => "knight",
        Role::Bishop => "bishop",
        Role::Rook => "rook",
        Role::Queen => "queen",
    }
}

#[test]
fn decoding_every_code_counts_the_sheet() {
    let mut counts: BTreeMap<(Color, &str), u32> = BTreeMap::new();
    let mut quiet = [0u32; 2];
    let mut captures = [0u32; 2];
    for code in 0..CODE_COUNT {
        let m = EnumeratedMove::decode(code).unwrap();
        assert_eq!(m.encode(), code);
        assert_eq!(
            m.color(),
            if code < CODES_PER_SIDE {
                Color::White
            } else {
                Color::Black
            }
        );
        *counts.entry((m.color(), category(&m))).or_default() += 1;
        if m.captured().is_some() {
            captures[m.color().index()] += 1;
        } else {
            quiet[m.color().index()] += 1;
        }
    }
    let sheet = [
        ("pawn push", 40),
        ("pawn double push", 8),
        ("pawn promotion", 32),
        ("pawn capture", 350),
        ("pawn capture-promotion", 224),
        ("pawn en passant", 14),
        ("king", 2520),
        ("king castle", 2),
        ("knight", 2016),
        ("bishop", 3360),
        ("rook", 5376),
        ("queen", 8736),
    ];
    for color in Color::ALL {
        for (name, expected) in sheet {
            assert_eq!(counts.get(&(color, name)), Some(&expected), "{color:?} {name}");
        }
        // The sheet's "None" and "Captures" columns per side.
        assert_eq!(quiet[color.index()], 3750);
        assert_eq!(captures[color.index()], 18_928);
    }
    assert_eq!(counts.len(), 2 * sheet.len());
    assert_eq!(counts.values().sum::<u32>(), 45_356);
}

#[test]
fn constructors_accept_exactly_the_counted_moves() {
    let roles = || Role::ALL.into_iter();
    let options = || std::iter::once(None).chain(Role::ALL.into_iter().map(Some));
    let mut codes = HashSet::new();
    let mut en_passant = 0;
    for color in Color::ALL {
        for from in Square::all() {
            for to in Square::all() {
                for role in roles() {
                    for captured in options() {
                        for promotion in options() {
                            if let Ok(m) = EnumeratedMove::new(color, role, from, to, captured, promotion) {
                                assert!(codes.insert(m.encode()), "{m:?}");
                                assert_eq!(EnumeratedMove::decode(m.encode()), Ok(m));
                            }
                        }
                    }
                }
                if let Ok(m) = EnumeratedMove::en_passant(color, from, to) {
                    assert!(codes.insert(m.encode()));
                    en_passant += 1;
                }
            }
        }
        for side in CastlingSide::ALL {
            assert!(codes.insert(EnumeratedMove::castle(color, side).encode()));
        }
    }
    assert_eq!(en_passant, 28);
    // Every code is reached by exactly one constructor call.
    assert_eq!(codes.len(), usize::from(CODE_COUNT));
}

#[test]
fn black_codes_mirror_white_codes() {
    for code in 0..CODES_PER_SIDE {
        let white = EnumeratedMove::decode(code).unwrap();
        let black = EnumeratedMove::decode(code + CODES_PER_SIDE).unwrap();
        assert_eq!(black.color(), Color::Black);
        assert_eq!(black.from(), white.from().flip_vertical());
        assert_eq!(black.to(), white.to().flip_vertical());
        assert_eq!(
            (black.role(), black.captured(), black.promotion()),
            (white.role(), white.captured(), white.promotion())
        );
    }
}
