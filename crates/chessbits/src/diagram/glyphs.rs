//! The piece drawings: simple geometric glyphs of our own, on a 100 × 100 grid (one square),
//! standing on a plinth at the bottom, facing left (the knight).
//!
//! Each glyph is a few filled parts (in the piece's colour, outlined) and a few detail strokes
//! (the opposite colour), so one drawing serves both colours.

use core::fmt::Write;

use crate::types::{Color, Piece, Role};

/// A filled, outlined part of a glyph.
enum Part {
    /// An SVG path (`d`).
    Path(&'static str),
    /// A circle: centre x, centre y, radius.
    Circle(u8, u8, u8),
    /// A rectangle with rounded corners: x, y, width, height, corner radius.
    Rect(u8, u8, u8, u8, u8),
}

/// A glyph: its parts (drawn in order, later over earlier) and its detail strokes and dots.
struct Glyph {
    parts: &'static [Part],
    /// Paths stroked in the detail colour, not filled.
    details: &'static [&'static str],
    /// Dots in the detail colour: centre x, centre y, radius.
    dots: &'static [(u8, u8, u8)],
}

/// The plinth every piece stands on.
const PLINTH: Part = Part::Rect(22, 79, 56, 10, 3);

const PAWN: Glyph = Glyph {
    parts: &[
        Part::Path("M31 80 C31 66 41 60 44 47 L56 47 C59 60 69 66 69 80 Z"),
        Part::Rect(37, 42, 26, 7, 3),
        Part::Circle(50, 30, 12),
        Part::Rect(26, 79, 48, 10, 3),
    ],
    details: &[],
    dots: &[],
};

const KNIGHT: Glyph = Glyph {
    parts: &[
        Part::Path(
            "M30 80 C30 68 38 62 44 55 C40 56 34 58 30 58 C25 58 19 55 19 50 \
             L26 38 C32 27 40 20 50 17 L54 8 L60 16 C74 22 81 40 80 60 L76 80 Z",
        ),
        PLINTH,
    ],
    details: &["M62 24 C71 34 74 48 72 72", "M20 49 L27 49"],
    dots: &[(42, 31, 3)],
};

const BISHOP: Glyph = Glyph {
    parts: &[
        Part::Path("M41 62 C41 70 33 73 31 80 L69 80 C67 73 59 70 59 62 Z"),
        Part::Circle(50, 13, 5),
        Part::Path("M50 18 C62 28 68 40 62 55 L38 55 C32 40 38 28 50 18 Z"),
        Part::Rect(36, 54, 28, 8, 3),
        PLINTH,
    ],
    details: &["M58 29 L47 42"],
    dots: &[],
};

const ROOK: Glyph = Glyph {
    parts: &[
        Part::Path("M30 80 L34 44 L66 44 L70 80 Z"),
        Part::Path("M25 44 L25 16 L36 16 L36 25 L44 25 L44 16 L56 16 L56 25 L64 25 L64 16 L75 16 L75 44 Z"),
        PLINTH,
    ],
    details: &["M25 35 L75 35", "M33 57 L67 57", "M32 69 L68 69"],
    dots: &[],
};

const QUEEN: Glyph = Glyph {
    parts: &[
        Part::Circle(18, 30, 5),
        Part::Circle(35, 21, 5),
        Part::Circle(50, 16, 5),
        Part::Circle(65, 21, 5),
        Part::Circle(82, 30, 5),
        Part::Path("M30 80 L19 33 L35 56 L35 24 L46 54 L50 19 L54 54 L65 24 L65 56 L81 33 L70 80 Z"),
        PLINTH,
    ],
    details: &["M29 68 L71 68"],
    dots: &[],
};

const KING: Glyph = Glyph {
    parts: &[
        Part::Path("M46 5 L54 5 L54 12 L61 12 L61 20 L54 20 L54 36 L46 36 L46 20 L39 20 L39 12 L46 12 Z"),
        Part::Path("M30 80 L25 50 C25 27 75 27 75 50 L70 80 Z"),
        PLINTH,
    ],
    details: &["M26 55 L74 55", "M28 67 L72 67"],
    dots: &[],
};

fn glyph(role: Role) -> &'static Glyph {
    match role {
        Role::Pawn => &PAWN,
        Role::Knight => &KNIGHT,
        Role::Bishop => &BISHOP,
        Role::Rook => &ROOK,
        Role::Queen => &QUEEN,
        Role::King => &KING,
    }
}

/// `white` or `black`.
pub(super) fn color_name(color: Color) -> &'static str {
    match color {
        Color::White => "white",
        Color::Black => "black",
    }
}

/// `pawn` to `king`.
pub(super) fn role_name(role: Role) -> &'static str {
    match role {
        Role::Pawn => "pawn",
        Role::Knight => "knight",
        Role::Bishop => "bishop",
        Role::Rook => "rook",
        Role::Queen => "queen",
        Role::King => "king",
    }
}

/// The `id` of a piece's definition: `cb-white-king`.
pub(super) fn glyph_id(piece: Piece) -> String {
    format!("cb-{}-{}", color_name(piece.color), role_name(piece.role))
}

/// The glyphs a little larger than drawn, the plinth still inside the square: scaled by 1.08
/// about the centre line, lowered so the king's cross keeps clear of the top.
const GROW: &str = "matrix(1.08 0 0 1.08 -4 -4)";

/// Writes the definition of `piece` (a `<g id="cb-…">`) to `out`.
pub(super) fn write_definition(out: &mut String, piece: Piece) {
    // Fill, outline and detail colours: the detail contrasts with the fill.
    let (fill, outline, detail) = match piece.color {
        Color::White => ("#fafafa", "#1c1c1c", "#1c1c1c"),
        Color::Black => ("#2a2a2a", "#000000", "#ececec"),
    };
    let glyph = glyph(piece.role);
    let _ = write!(
        out,
        r#"<g id="{}" transform="{GROW}" fill="{fill}" stroke="{outline}" stroke-width="3" stroke-linejoin="round" stroke-linecap="round">"#,
        glyph_id(piece)
    );
    for part in glyph.parts {
        let _ = match *part {
            Part::Path(d) => write!(out, r#"<path d="{d}"/>"#),
            Part::Circle(cx, cy, r) => write!(out, r#"<circle cx="{cx}" cy="{cy}" r="{r}"/>"#),
            Part::Rect(x, y, w, h, rx) => {
                write!(out, r#"<rect x="{x}" y="{y}" width="{w}" height="{h}" rx="{rx}"/>"#)
            }
        };
    }
    for d in glyph.details {
        let _ = write!(
            out,
            r#"<path d="{d}" fill="none" stroke="{detail}" stroke-width="2.5"/>"#
        );
    }
    for &(cx, cy, r) in glyph.dots {
        let _ = write!(
            out,
            r#"<circle cx="{cx}" cy="{cy}" r="{r}" fill="{detail}" stroke="none"/>"#
        );
    }
    out.push_str("</g>");
}
