//! Board diagrams as standalone SVG: the board with coordinates, the pieces (drawings of our
//! own, inline), the last move, the king in check, and coloured arrows and squares such as the
//! `%cal` and `%csl` commands of PGN comments carry.
//!
//! No dependency and no fonts beyond a generic `sans-serif` for the coordinates: the text can be
//! written to a `.svg` file, embedded in HTML, or shown by a notebook.
//!
//! The elements carry classes a style sheet (or a test) can select: `square light a1`,
//! `piece white king e1` (a `<use>` of the glyph `#cb-white-king`), `last-move e2`, `check e8`,
//! `mark green d4` (a circled square), `arrow red e2e4`, `coord`. The FEN is the `<desc>`.
//!
//! ```
//! use chessbits::diagram::Diagram;
//! use chessbits::pgn::Brush;
//! use chessbits::{Color, Position, Square};
//!
//! let pos = Position::startpos();
//! let svg = Diagram::new()
//!     .size(360)
//!     .orientation(Color::Black)
//!     .arrow(Brush::Green, Square::E2, Square::E4)
//!     .comment("[%csl Rd4]") // squares and arrows of a PGN comment
//!     .render(&pos);
//! assert!(svg.starts_with("<svg "));
//! assert_eq!(svg.matches(r#"class="piece "#).count(), 32);
//! assert_eq!(svg.matches(r#"class="arrow "#).count(), 1);
//! std::fs::write(std::env::temp_dir().join("start.svg"), &svg).unwrap();
//! ```

mod glyphs;
#[cfg(test)]
mod tests;

use core::fmt::{self, Write};

use crate::moves::Move;
use crate::pgn::{Brush, Comment, Shape};
use crate::position::Position;
use crate::types::{Color, File, Rank, Square};

/// Units of the SVG's own coordinate system per square (the glyphs are drawn on this grid).
const SQUARE: u32 = 100;
/// The band around the board that holds the coordinates, when they are shown.
const MARGIN: u32 = 30;

/// How to draw a diagram: orientation, size, coordinates, the last move, the check, and coloured
/// arrows and squares. Built by chained calls from [`Diagram::new`]; [`Diagram::render`] draws a
/// position.
///
/// ```
/// use chessbits::diagram::Diagram;
/// use chessbits::{Position, Square};
///
/// let mut pos = Position::startpos();
/// let m = pos.play_san("e4").unwrap();
/// let svg = Diagram::new().last_move(m).render(&pos);
/// assert_eq!(svg.matches(r#"class="last-move "#).count(), 2);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagram {
    orientation: Color,
    size: u32,
    coordinates: bool,
    last_move: Option<(Square, Square)>,
    check: bool,
    shapes: Vec<Shape>,
}

impl Default for Diagram {
    fn default() -> Self {
        Diagram::new()
    }
}

impl Diagram {
    /// White at the bottom, 400 pixels wide, with coordinates, the check shown, nothing else.
    pub fn new() -> Diagram {
        Diagram {
            orientation: Color::White,
            size: 400,
            coordinates: true,
            last_move: None,
            check: true,
            shapes: Vec::new(),
        }
    }

    /// The side at the bottom of the board (White by default; Black turns the board around).
    pub fn orientation(mut self, bottom: Color) -> Diagram {
        self.orientation = bottom;
        self
    }

    /// The width and height in pixels (the `width` and `height` attributes; 400 by default).
    /// The drawing scales to any size: it is vector graphics.
    pub fn size(mut self, pixels: u32) -> Diagram {
        self.size = pixels;
        self
    }

    /// Whether to write the files and ranks around the board (yes by default).
    pub fn coordinates(mut self, show: bool) -> Diagram {
        self.coordinates = show;
        self
    }

    /// Highlights the two squares of the move that led to the position: where it came from and
    /// where it went (for a castle, where the king went).
    pub fn last_move(self, m: Move) -> Diagram {
        self.last_move_squares(m.from(), m.king_to())
    }

    /// Highlights two squares as the last move, for a move known only by its squares (UCI text).
    ///
    /// ```
    /// use chessbits::diagram::Diagram;
    /// use chessbits::{Position, Square};
    /// let svg = Diagram::new().last_move_squares(Square::G1, Square::F3).render(&Position::startpos());
    /// assert!(svg.contains(r#"class="last-move g1""#));
    /// ```
    pub fn last_move_squares(mut self, from: Square, to: Square) -> Diagram {
        self.last_move = Some((from, to));
        self
    }

    /// Whether to mark the king of the side to move when it is in check (yes by default).
    pub fn check(mut self, show: bool) -> Diagram {
        self.check = show;
        self
    }

    /// Adds an arrow from one square to another in a colour.
    pub fn arrow(self, brush: Brush, from: Square, to: Square) -> Diagram {
        self.shape(Shape { brush, from, to })
    }

    /// Adds a coloured circle on a square.
    pub fn square(self, brush: Brush, square: Square) -> Diagram {
        self.shape(Shape {
            brush,
            from: square,
            to: square,
        })
    }

    /// Adds an arrow or a square ([`Shape`]: a square when `from == to`).
    pub fn shape(mut self, shape: Shape) -> Diagram {
        self.shapes.push(shape);
        self
    }

    /// Adds several arrows and squares, such as those of [`parse_shapes`] or
    /// [`Node::shapes`](crate::pgn::Node::shapes).
    pub fn shapes(mut self, shapes: impl IntoIterator<Item = Shape>) -> Diagram {
        self.shapes.extend(shapes);
        self
    }

    /// Adds the arrows of the `%cal` and the squares of the `%csl` commands of a PGN comment
    /// (`[%cal Ga1a8,Re2e4] [%csl Gd4,Rf7]`, as lichess and ChessBase write them); entries
    /// that do not parse are left out (see [`Comment::shapes`]).
    ///
    /// ```
    /// use chessbits::diagram::Diagram;
    /// use chessbits::Position;
    /// let svg = Diagram::new().comment("[%cal Ga1a8,Re2e4] [%csl Gd4,Rf7]").render(&Position::startpos());
    /// assert_eq!(svg.matches(r#"class="arrow "#).count(), 2);
    /// assert_eq!(svg.matches(r#"class="mark "#).count(), 2);
    /// ```
    pub fn comment(self, text: &str) -> Diagram {
        self.shapes(Comment::from(text).shapes())
    }

    /// Draws `pos` as a standalone SVG document (one line, no XML declaration).
    pub fn render(&self, pos: &Position) -> String {
        let margin = if self.coordinates { MARGIN } else { 0 };
        let full = 8 * SQUARE + 2 * margin;
        let mut out = String::with_capacity(16 * 1024);
        let _ = write!(
            out,
            r#"<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" version="1.1" viewBox="0 0 {full} {full}" width="{size}" height="{size}">"#,
            size = self.size
        );
        // The FEN as the description: what a screen reader says, and what a reader of the file
        // can paste back. A FEN holds no character XML escapes.
        let _ = write!(out, "<desc>{}</desc>", pos.fen());
        let check = match self.check && pos.is_check() {
            true => pos.board().king_of(pos.turn()),
            false => None,
        };
        self.write_defs(&mut out, pos, check.is_some());
        if margin > 0 {
            let _ = write!(
                out,
                r##"<rect class="margin" width="{full}" height="{full}" fill="#2b2a28"/>"##
            );
        }
        for sq in Square::all() {
            let (x, y) = self.corner(sq, margin);
            let (class, fill) = match (sq.file().index() + sq.rank().index()) % 2 {
                0 => ("dark", "#b0876a"),
                _ => ("light", "#ecdcc0"),
            };
            let _ = write!(
                out,
                r#"<rect class="square {class} {sq}" x="{x}" y="{y}" width="{SQUARE}" height="{SQUARE}" fill="{fill}"/>"#
            );
        }
        if let Some((from, to)) = self.last_move {
            for sq in [from, to] {
                let (x, y) = self.corner(sq, margin);
                let _ = write!(
                    out,
                    r##"<rect class="last-move {sq}" x="{x}" y="{y}" width="{SQUARE}" height="{SQUARE}" fill="#d4d84a" fill-opacity="0.55"/>"##
                );
            }
        }
        if let Some(king) = check {
            let (x, y) = self.corner(king, margin);
            let _ = write!(
                out,
                r#"<rect class="check {king}" x="{x}" y="{y}" width="{SQUARE}" height="{SQUARE}" fill="url(#cb-check)"/>"#
            );
        }
        if margin > 0 {
            self.write_coordinates(&mut out, margin);
        }
        for shape in self.shapes.iter().filter(|s| !s.is_arrow()) {
            let (cx, cy) = self.centre(shape.from, margin);
            let _ = write!(
                out,
                r#"<circle class="mark {name} {sq}" cx="{cx}" cy="{cy}" r="45" fill="none" stroke="{color}" stroke-width="8" stroke-opacity="0.85"/>"#,
                name = brush_name(shape.brush),
                sq = shape.from,
                color = brush_color(shape.brush),
            );
        }
        for (sq, piece) in pos.board().pieces() {
            let (x, y) = self.corner(sq, margin);
            let _ = write!(
                out,
                r##"<use class="piece {} {} {sq}" xlink:href="#{}" x="{x}" y="{y}"/>"##,
                glyphs::color_name(piece.color),
                glyphs::role_name(piece.role),
                glyphs::glyph_id(piece),
            );
        }
        // Arrows over the pieces, as lichess draws them: they point at something.
        for shape in self.shapes.iter().filter(|s| s.is_arrow()) {
            self.write_arrow(&mut out, shape, margin);
        }
        out.push_str("</svg>");
        out
    }

    /// The top-left corner of a square in SVG units.
    fn corner(&self, sq: Square, margin: u32) -> (u32, u32) {
        let (file, rank) = (sq.file().index() as u32, sq.rank().index() as u32);
        let (col, row) = match self.orientation {
            Color::White => (file, 7 - rank),
            Color::Black => (7 - file, rank),
        };
        (margin + col * SQUARE, margin + row * SQUARE)
    }

    /// The centre of a square in SVG units.
    fn centre(&self, sq: Square, margin: u32) -> (u32, u32) {
        let (x, y) = self.corner(sq, margin);
        (x + SQUARE / 2, y + SQUARE / 2)
    }

    /// The glyphs of the pieces on the board (only those), and the check's glow.
    fn write_defs(&self, out: &mut String, pos: &Position, check: bool) {
        out.push_str("<defs>");
        let mut seen = [false; 12];
        for (_, piece) in pos.board().pieces() {
            if !core::mem::replace(&mut seen[piece.index()], true) {
                glyphs::write_definition(out, piece);
            }
        }
        if check {
            out.push_str(concat!(
                r##"<radialGradient id="cb-check" r="0.5">"##,
                r##"<stop offset="0%" stop-color="#ff0000" stop-opacity="1"/>"##,
                r##"<stop offset="50%" stop-color="#e70000" stop-opacity="1"/>"##,
                r##"<stop offset="100%" stop-color="#9e0000" stop-opacity="0"/>"##,
                "</radialGradient>"
            ));
        }
        out.push_str("</defs>");
    }

    /// Files under and over the board, ranks left and right of it, in the orientation's order.
    fn write_coordinates(&self, out: &mut String, margin: u32) {
        let far = margin + 8 * SQUARE + margin / 2;
        let near = margin / 2;
        for (file, rank) in File::ALL.into_iter().zip(Rank::ALL) {
            let sq = Square::from_coords(file, rank);
            let (cx, cy) = self.centre(sq, margin);
            for y in [near, far] {
                let _ = write!(
                    out,
                    r##"<text class="coord" x="{cx}" y="{y}" dy="0.35em" font-size="22" font-family="sans-serif" font-weight="bold" text-anchor="middle" fill="#d8d2c4">{}</text>"##,
                    sq.file()
                );
            }
            for x in [near, far] {
                let _ = write!(
                    out,
                    r##"<text class="coord" x="{x}" y="{cy}" dy="0.35em" font-size="22" font-family="sans-serif" font-weight="bold" text-anchor="middle" fill="#d8d2c4">{}</text>"##,
                    sq.rank()
                );
            }
        }
    }

    /// One arrow as one polygon (shaft and head, so overlapping parts do not darken), from the
    /// centre of `from` to the head's tip near the centre of `to`.
    fn write_arrow(&self, out: &mut String, shape: &Shape, margin: u32) {
        let (x0, y0) = self.centre(shape.from, margin);
        let (x1, y1) = self.centre(shape.to, margin);
        let (x0, y0, x1, y1) = (x0 as f64, y0 as f64, x1 as f64, y1 as f64);
        let length = ((x1 - x0).powi(2) + (y1 - y0).powi(2)).sqrt();
        // Unit vector along the arrow and its normal; `from != to`, so `length >= 100`.
        let (dx, dy) = ((x1 - x0) / length, (y1 - y0) / length);
        let (nx, ny) = (-dy, dx);
        let (shaft, head, head_length, tip_gap) = (16.0, 44.0, 38.0, 8.0);
        let tip = (x1 - dx * tip_gap, y1 - dy * tip_gap);
        let base = (tip.0 - dx * head_length, tip.1 - dy * head_length);
        let points = [
            (x0 + nx * shaft / 2.0, y0 + ny * shaft / 2.0),
            (base.0 + nx * shaft / 2.0, base.1 + ny * shaft / 2.0),
            (base.0 + nx * head / 2.0, base.1 + ny * head / 2.0),
            tip,
            (base.0 - nx * head / 2.0, base.1 - ny * head / 2.0),
            (base.0 - nx * shaft / 2.0, base.1 - ny * shaft / 2.0),
            (x0 - nx * shaft / 2.0, y0 - ny * shaft / 2.0),
        ];
        let _ = write!(
            out,
            r#"<polygon class="arrow {} {}{}" fill="{}" fill-opacity="0.8" points=""#,
            brush_name(shape.brush),
            shape.from,
            shape.to,
            brush_color(shape.brush)
        );
        for (i, (x, y)) in points.iter().enumerate() {
            let sep = if i == 0 { "" } else { " " };
            let _ = write!(out, "{sep}{x:.1},{y:.1}");
        }
        out.push_str(r#""/>"#);
    }
}

/// The position drawn with the default [`Diagram`]: White at the bottom, 400 pixels, with
/// coordinates and the check.
///
/// ```
/// let svg = chessbits::diagram::svg(&chessbits::Position::startpos());
/// assert!(svg.ends_with("</svg>"));
/// ```
pub fn svg(pos: &Position) -> String {
    Diagram::new().render(pos)
}

/// The name of a brush in class names: `green`, `red`, `blue`, `yellow`.
fn brush_name(brush: Brush) -> &'static str {
    match brush {
        Brush::Green => "green",
        Brush::Red => "red",
        Brush::Blue => "blue",
        Brush::Yellow => "yellow",
    }
}

/// The colour a brush paints with (close to lichess's, which players know).
fn brush_color(brush: Brush) -> &'static str {
    match brush {
        Brush::Green => "#15781b",
        Brush::Red => "#882020",
        Brush::Blue => "#003088",
        Brush::Yellow => "#e68f00",
    }
}

/// An entry of a list of shapes that does not parse (see [`parse_shapes`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShapeListError {
    /// The entry as written (trimmed).
    pub entry: String,
}

impl fmt::Display for ShapeListError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "bad arrow or square {:?}: expected a colour letter (G, R, Y or B) and a square (Gd4) or two (Ge2e4)",
            self.entry
        )
    }
}

impl std::error::Error for ShapeListError {}

/// Parses the argument list of a `%cal` or `%csl` command, `Ga1a8,Re2e4` or `Gd4, Rf7`, strictly:
/// the first entry that does not parse is the error (the lenient reading of comments is
/// [`Diagram::comment`]). An empty list is no shape.
///
/// ```
/// use chessbits::diagram::parse_shapes;
/// let shapes = parse_shapes("Ga1a8, Re2e4,Yd4").unwrap();
/// assert_eq!(shapes.len(), 3);
/// assert!(shapes[0].is_arrow() && !shapes[2].is_arrow());
/// assert_eq!(parse_shapes("Ga1a8,Xe2e4").unwrap_err().entry, "Xe2e4");
/// assert!(parse_shapes("").unwrap().is_empty());
/// ```
pub fn parse_shapes(list: &str) -> Result<Vec<Shape>, ShapeListError> {
    if list.trim().is_empty() {
        return Ok(Vec::new());
    }
    list.split(',')
        .map(|entry| {
            let entry = entry.trim();
            Shape::parse(entry.as_bytes()).ok_or_else(|| ShapeListError {
                entry: entry.to_string(),
            })
        })
        .collect()
}
