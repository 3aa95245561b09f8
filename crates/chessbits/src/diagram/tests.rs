//! The diagrams' structure: well-formed XML, one element per piece, squares where the orientation
//! puts them, the highlights and shapes asked for and no others.

use super::*;
use crate::pgn::Brush;

/// Checks that `svg` is well-formed enough for a renderer: every tag closes, in order, quotes
/// balance inside tags, and text holds no stray `<` or `&`. Returns the number of elements.
fn check_xml(svg: &str) -> usize {
    let mut open: Vec<&str> = Vec::new();
    let mut elements = 0;
    let mut rest = svg;
    while let Some(start) = rest.find('<') {
        let text = &rest[..start];
        assert!(
            !text.contains('>') && !text.contains('&'),
            "stray markup in text {text:?}"
        );
        let end = start + rest[start..].find('>').expect("an unclosed tag");
        let tag = &rest[start + 1..end];
        assert_eq!(tag.matches('"').count() % 2, 0, "unbalanced quotes in <{tag}>");
        assert!(!tag.contains('<'), "a tag inside a tag: <{tag}>");
        if let Some(name) = tag.strip_prefix('/') {
            assert_eq!(open.pop(), Some(name.trim()), "</{name}> closes the wrong element");
        } else {
            elements += 1;
            let name = tag.split([' ', '/']).next().unwrap_or("");
            assert!(!name.is_empty(), "an element without a name: <{tag}>");
            if !tag.ends_with('/') {
                open.push(name);
            }
        }
        rest = &rest[end + 1..];
    }
    assert!(rest.trim().is_empty(), "text after the root: {rest:?}");
    assert!(open.is_empty(), "unclosed elements {open:?}");
    elements
}

/// The `x` and `y` attributes of the square `name`'s rect.
fn square_corner(svg: &str, name: &str) -> (u32, u32) {
    let at = svg
        .find(&format!(r#"class="square light {name}""#))
        .or_else(|| svg.find(&format!(r#"class="square dark {name}""#)))
        .unwrap_or_else(|| panic!("no square {name}"));
    let tag = &svg[at..at + svg[at..].find('>').unwrap()];
    let attr = |a: &str| -> u32 {
        let v = &tag[tag.find(&format!(" {a}=\"")).unwrap() + a.len() + 3..];
        v[..v.find('"').unwrap()].parse().unwrap()
    };
    (attr("x"), attr("y"))
}

#[test]
fn the_checker_catches_broken_xml() {
    for bad in [
        "<svg><g></svg></g>",
        "<svg><rect x=\"1/></svg>",
        "<svg>",
        "<svg>a & b</svg>",
    ] {
        assert!(std::panic::catch_unwind(|| check_xml(bad)).is_err(), "{bad}");
    }
    assert_eq!(check_xml(r#"<svg a="1"><g><rect/></g></svg>"#), 3);
}

#[test]
fn one_piece_element_per_piece() {
    for fen in [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "8/8/4k3/8/8/3K4/8/8 w - - 0 1",
        "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 8",
    ] {
        let pos: Position = fen.parse().unwrap();
        let svg = svg(&pos);
        check_xml(&svg);
        let pieces = pos.board().occupied().count() as usize;
        assert_eq!(svg.matches("<use ").count(), pieces, "{fen}");
        assert_eq!(svg.matches(r#"class="piece "#).count(), pieces, "{fen}");
        assert_eq!(svg.matches(r#"class="square "#).count(), 64);
        // One definition per kind of piece on the board, no more.
        let kinds = pos
            .board()
            .pieces()
            .map(|(_, p)| p.index())
            .collect::<std::collections::HashSet<_>>();
        assert_eq!(svg.matches(r#"<g id="cb-"#).count(), kinds.len(), "{fen}");
    }
    let svg = svg(&Position::startpos());
    assert_eq!(svg.matches(r#"class="piece white king e1""#).count(), 1);
    assert_eq!(svg.matches(r#"class="piece black knight "#).count(), 2);
    assert!(
        svg.contains(r##"xlink:href="#cb-black-queen" x="330" y="30""##),
        "d8 at the top"
    );
}

#[test]
fn orientation_turns_the_board_around() {
    let pos = Position::startpos();
    let white = Diagram::new().render(&pos);
    let black = Diagram::new().orientation(Color::Black).render(&pos);
    check_xml(&black);
    // White at the bottom: a8 top-left, a1 bottom-left, h8 top-right.
    assert_eq!(square_corner(&white, "a8"), (30, 30));
    assert_eq!(square_corner(&white, "a1"), (30, 730));
    assert_eq!(square_corner(&white, "h8"), (730, 30));
    // Black at the bottom: h1 top-left, a1 top-right, h8 bottom-left.
    assert_eq!(square_corner(&black, "h1"), (30, 30));
    assert_eq!(square_corner(&black, "a1"), (730, 30));
    assert_eq!(square_corner(&black, "h8"), (30, 730));
    assert!(black.contains(r##"class="piece white king e1" xlink:href="#cb-white-king" x="330" y="30""##));
    // The ranks read 1 to 8 from the top when Black is at the bottom.
    let first_rank_label = black.find(">1</text>").unwrap();
    assert!(first_rank_label < black.find(">8</text>").unwrap());
    // Light and dark stay where they are: h1 is light either way.
    assert!(black.contains(r#"class="square light h1""#) && white.contains(r#"class="square dark a1""#));
}

#[test]
fn size_and_coordinates() {
    let pos = Position::startpos();
    let svg = Diagram::new().size(123).coordinates(false).render(&pos);
    check_xml(&svg);
    assert!(
        svg.contains(r#"viewBox="0 0 800 800" width="123" height="123""#),
        "{svg}"
    );
    assert_eq!(svg.matches("<text ").count(), 0);
    assert_eq!(square_corner(&svg, "a8"), (0, 0));
    let svg = Diagram::new().render(&pos);
    assert!(svg.contains(r#"viewBox="0 0 860 860" width="400" height="400""#));
    assert_eq!(svg.matches(r#"<text class="coord""#).count(), 32);
}

#[test]
fn last_move_and_check() {
    // 1. e4 f6 2. d4 g5 3. Qh5+: Black's king on e8 in check.
    let mut pos = Position::startpos();
    let mut last = None;
    for san in ["e4", "f6", "d4", "g5", "Qh5+"] {
        last = Some(pos.play_san(san).unwrap());
    }
    let svg = Diagram::new().last_move(last.unwrap()).render(&pos);
    check_xml(&svg);
    assert!(svg.contains(r#"class="last-move d1""#) && svg.contains(r#"class="last-move h5""#));
    assert_eq!(svg.matches(r#"class="check "#).count(), 1);
    assert!(svg.contains(r#"class="check e8" x="430" y="30""#), "{svg}");
    assert!(svg.contains(r#"<radialGradient id="cb-check""#));
    let quiet = Diagram::new().check(false).render(&pos);
    assert!(!quiet.contains("class=\"check") && !quiet.contains("cb-check"));
    let start = svg_of_start();
    assert!(!start.contains("class=\"check") && !start.contains("last-move"));
}

fn svg_of_start() -> String {
    svg(&Position::startpos())
}

#[test]
fn a_castle_highlights_where_the_king_went() {
    let mut pos: Position = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1".parse().unwrap();
    let m = pos.play_san("O-O").unwrap();
    let svg = Diagram::new().last_move(m).render(&pos);
    assert!(svg.contains(r#"class="last-move e1""#) && svg.contains(r#"class="last-move g1""#));
}

#[test]
fn arrows_and_squares() {
    let pos = Position::startpos();
    let svg = Diagram::new()
        .arrow(Brush::Green, Square::A1, Square::A8)
        .comment("[%cal Re2e4,Bg1f3] text [%csl Gd4,Rf7,Xz9] [%cal Yb1c3]")
        .square(Brush::Yellow, Square::H5)
        .render(&pos);
    check_xml(&svg);
    assert_eq!(svg.matches("<polygon class=\"arrow ").count(), 4);
    for class in [
        "arrow green a1a8",
        "arrow red e2e4",
        "arrow blue g1f3",
        "arrow yellow b1c3",
    ] {
        assert!(svg.contains(&format!("class=\"{class}\"")), "{class}");
    }
    assert_eq!(svg.matches("class=\"mark ").count(), 3);
    for class in ["mark green d4", "mark red f7", "mark yellow h5"] {
        assert!(svg.contains(&format!("class=\"{class}\"")), "{class}");
    }
    // Arrows come after the pieces (drawn over them), marks before.
    let last_piece = svg.rfind("<use ").unwrap();
    assert!(svg.find("<polygon").unwrap() > last_piece);
    assert!(svg.find("class=\"mark").unwrap() < svg.find("<use ").unwrap());
    // The arrow a1a8 runs up the a-file: its tip (the 4th point) above a8's centre line.
    let at = svg.find("class=\"arrow green a1a8\"").unwrap();
    let points = &svg[at..];
    let points = &points[points.find("points=\"").unwrap() + 8..];
    let points: Vec<&str> = points[..points.find('"').unwrap()].split(' ').collect();
    assert_eq!(points.len(), 7);
    assert_eq!(points[3], "80.0,88.0");
}

#[test]
fn shape_lists_parse_strictly() {
    let shapes = parse_shapes("Ga1a8,Re2e4").unwrap();
    assert_eq!(
        shapes,
        [
            Shape {
                brush: Brush::Green,
                from: Square::A1,
                to: Square::A8
            },
            Shape {
                brush: Brush::Red,
                from: Square::E2,
                to: Square::E4
            },
        ]
    );
    for bad in ["Ga1a8,", "ga1a8", "Ga1a9", "G", "Ge2e4e6", "Gd4;Re5"] {
        let err = parse_shapes(bad).unwrap_err();
        assert!(err.to_string().contains("bad arrow or square"), "{bad}: {err}");
    }
}

#[test]
fn every_role_has_its_own_drawing() {
    let pos: Position = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
        .parse()
        .unwrap();
    let svg = svg(&pos);
    let body = |id: &str| {
        let at = svg.find(&format!(r#"<g id="{id}""#)).unwrap();
        let g = &svg[at..];
        g[g.find('>').unwrap()..g.find("</g>").unwrap()].to_string()
    };
    let roles = ["pawn", "knight", "bishop", "rook", "queen", "king"];
    let drawings: std::collections::HashSet<String> = roles.iter().map(|r| body(&format!("cb-white-{r}"))).collect();
    assert_eq!(drawings.len(), 6);
    // Black pieces: the same shapes, filled dark with light details.
    assert_eq!(
        body("cb-white-king").matches("<path").count(),
        body("cb-black-king").matches("<path").count()
    );
    let black_king = &svg[svg.find(r#"<g id="cb-black-king""#).unwrap()..];
    assert!(black_king[..black_king.find('>').unwrap()].contains(r##"fill="#2a2a2a""##));
    assert!(body("cb-black-king").contains(r##"stroke="#ececec""##), "light details");
}
