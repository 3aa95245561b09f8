//! The PGN writer: export format, keeping what the game holds byte for byte.
//!
//! Tags first, one per line, as the game holds them (in their order, names and values byte for
//! byte; [`WriteOptions::seven_tag_roster`] puts the Seven Tag Roster first and fills in what
//! is missing); a blank line; the movetext wrapped at 80 columns, with move numbers where export
//! format wants them (every white move, and a black move that starts a line or follows a
//! comment or a variation, as `12...`); comments, NAGs (`$n`) and variations; the result token
//! (none if the game had none); a blank line.
//!
//! Lines are broken only between tokens, never inside a comment: a comment is written exactly
//! as the game holds it, `{` bytes `}`, so a reader gets back the same bytes. A comment that
//! holds a `}` (it came from a `;` comment) is written as `;` comment at the end of a line. Only
//! a comment built by hand that holds both a `}` and a line break cannot be written as one
//! comment: it becomes one `;` comment per line.

use std::io::{self, Write};

use super::text::{Comment, Tag};
use super::tree::{GameTree, Line, Node, SEVEN_TAG_ROSTER};
use crate::notation::lan::{Lan, LanPlus};
use crate::notation::san::San;
use crate::types::Color;

/// How moves are written.
///
/// ```
/// use chessbits::pgn::MoveNotation;
/// assert_eq!(MoveNotation::default(), MoveNotation::San);
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub enum MoveNotation {
    /// `Nf3`
    #[default]
    San,
    /// `Ng1-f3`
    Lan,
    /// `g1f3` (castling as `e1h1` in Chess960 games, `e1g1` otherwise)
    Uci,
}

/// What the writer writes.
///
/// ```
/// use chessbits::pgn::{MoveNotation, WriteOptions};
/// let options = WriteOptions { notation: MoveNotation::Uci, ..WriteOptions::default() };
/// assert_eq!(options.max_width, 80);
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct WriteOptions {
    /// The notation of moves.
    pub notation: MoveNotation,
    /// Write comments.
    pub comments: bool,
    /// Write NAGs.
    pub nags: bool,
    /// Write variations.
    pub variations: bool,
    /// Wrap movetext lines at this width (a single token longer than this stays whole).
    pub max_width: usize,
    /// Write the Seven Tag Roster first, in its order, with `?` (and the result) for the tags
    /// the game lacks, then the other tags: PGN export format. Off: the tags as the game holds
    /// them, nothing added.
    pub seven_tag_roster: bool,
}

impl Default for WriteOptions {
    fn default() -> WriteOptions {
        WriteOptions {
            notation: MoveNotation::San,
            comments: true,
            nags: true,
            variations: true,
            max_width: 80,
            seven_tag_roster: false,
        }
    }
}

/// Characters in `bytes` for the line width: UTF-8 continuation bytes do not count.
fn width(bytes: &[u8]) -> usize {
    bytes.iter().filter(|&&b| b & 0xc0 != 0x80).count()
}

/// Writes tokens separated by one space or, where the line would grow too long, a line break.
struct Wrapper<'a, W: Write + ?Sized> {
    out: &'a mut W,
    width: usize,
    column: usize,
    /// `(`s to write right before the next token.
    open: usize,
    /// Variations open: room kept at the end of each line for their `)`s.
    depth: usize,
}

impl<W: Write + ?Sized> Wrapper<'_, W> {
    /// Writes `token`; `breakable` says whether a line break may come before it.
    fn token(&mut self, token: &[u8], breakable: bool) -> io::Result<()> {
        // A token with line breaks (a comment) ends the line it starts on where its last
        // line starts.
        let last_line = token.iter().rposition(|&b| b == b'\n' || b == b'\r');
        let first_len = self.open + width(&token[..last_line.unwrap_or(token.len())]);
        if self.column > 0 {
            if breakable && self.column + 1 + first_len + self.depth > self.width {
                self.out.write_all(b"\n")?;
                self.column = 0;
            } else {
                self.out.write_all(b" ")?;
                self.column += 1;
            }
        }
        for _ in 0..self.open {
            self.out.write_all(b"(")?;
        }
        self.open = 0;
        self.out.write_all(token)?;
        self.column = match last_line {
            Some(k) => width(&token[k + 1..]),
            None => self.column + first_len,
        };
        Ok(())
    }

    /// Opens a variation: its `(` sticks to its first token.
    fn open_variation(&mut self) {
        self.open += 1;
        self.depth += 1;
    }

    /// Closes a variation: `)` right after the last token.
    fn close_variation(&mut self) -> io::Result<()> {
        self.depth = self.depth.saturating_sub(1);
        if self.open > 0 {
            // An empty variation.
            return self.token(b")", true);
        }
        self.out.write_all(b")")?;
        self.column += 1;
        Ok(())
    }

    /// A comment, exactly: `{bytes}` as one token, or `;bytes` and a line break if the bytes
    /// hold a `}` (one `;` comment per line if they also hold line breaks).
    fn comment(&mut self, comment: &Comment) -> io::Result<()> {
        let bytes = comment.as_bytes();
        if !bytes.contains(&b'}') {
            let mut token = Vec::with_capacity(bytes.len() + 2);
            token.push(b'{');
            token.extend_from_slice(bytes);
            token.push(b'}');
            return self.token(&token, true);
        }
        for line in bytes.split(|&b| b == b'\n' || b == b'\r') {
            let mut token = Vec::with_capacity(line.len() + 1);
            token.push(b';');
            token.extend_from_slice(line);
            self.token(&token, true)?;
            self.out.write_all(b"\n")?;
            self.column = 0;
        }
        Ok(())
    }
}

/// Writes the movetext of a line, starting at ply `ply` (0 = white's first move).
struct MovetextWriter<'a, 'w, W: Write + ?Sized> {
    wrapper: Wrapper<'w, W>,
    options: &'a WriteOptions,
    chess960: bool,
}

impl<W: Write + ?Sized> MovetextWriter<'_, '_, W> {
    fn move_text(&self, node: &Node) -> String {
        match self.options.notation {
            MoveNotation::San => node.san.to_string(),
            MoveNotation::Uci if node.mv.is_null() => "--".to_string(),
            MoveNotation::Uci => node.mv.uci(self.chess960).to_string(),
            MoveNotation::Lan => {
                let lan = match node.san.san {
                    San::Normal { role, .. } => Lan::Normal {
                        role,
                        from: node.mv.from(),
                        capture: node.mv.is_capture(),
                        to: node.mv.to(),
                        promotion: node.mv.promotion(),
                    },
                    San::Castle(side) => Lan::Castle(side),
                    San::Null => Lan::Null,
                };
                LanPlus {
                    lan,
                    suffix: node.san.suffix,
                }
                .to_string()
            }
        }
    }

    fn comments(&mut self, comments: &[Comment]) -> io::Result<()> {
        if self.options.comments {
            for comment in comments {
                self.wrapper.comment(comment)?;
            }
        }
        Ok(())
    }

    fn line(&mut self, line: &Line, first_ply: u32) -> io::Result<()> {
        self.comments(&line.comments)?;
        let mut need_number = true;
        for (i, node) in line.nodes.iter().enumerate() {
            let ply = first_ply + i as u32;
            if self.options.comments && !node.comments_before.is_empty() {
                self.comments(&node.comments_before)?;
                need_number = true;
            }
            // A move number and its move are one token: no line break between them.
            let number = ply / 2 + 1;
            let text = match (ply % 2 == 0, need_number) {
                (true, _) => format!("{number}. {}", self.move_text(node)),
                (false, true) => format!("{number}... {}", self.move_text(node)),
                (false, false) => self.move_text(node),
            };
            self.wrapper.token(text.as_bytes(), true)?;
            need_number = false;
            if self.options.nags {
                for nag in &node.nags {
                    self.wrapper.token(nag.to_string().as_bytes(), true)?;
                }
            }
            if self.options.comments && !node.comments_after.is_empty() {
                self.comments(&node.comments_after)?;
                need_number = true;
            }
            if self.options.variations {
                for variation in &node.variations {
                    self.wrapper.open_variation();
                    self.line(variation, ply)?;
                    self.wrapper.close_variation()?;
                    need_number = true;
                }
            }
        }
        Ok(())
    }
}

fn write_tag<W: Write + ?Sized>(out: &mut W, tag: &Tag) -> io::Result<()> {
    out.write_all(b"[")?;
    out.write_all(tag.name())?;
    out.write_all(b" \"")?;
    out.write_all(tag.raw_value())?;
    out.write_all(b"\"]\n")
}

impl GameTree {
    /// Writes the game as PGN with `options`.
    ///
    /// ```
    /// use chessbits::pgn::{MoveNotation, GameTree, WriteOptions};
    /// let game = GameTree::from_pgn(&b"1. e4 e5 2. Nf3 *"[..]).unwrap();
    /// let mut out = Vec::new();
    /// let options = WriteOptions { notation: MoveNotation::Lan, seven_tag_roster: true, ..WriteOptions::default() };
    /// game.write_pgn(&mut out, &options).unwrap();
    /// assert!(out.starts_with(b"[Event \"?\"]\n"));
    /// assert!(out.ends_with(b"\n\n1. e2-e4 e7-e5 2. Ng1-f3 *\n\n"));
    /// ```
    pub fn write_pgn<W: Write + ?Sized>(&self, out: &mut W, options: &WriteOptions) -> io::Result<()> {
        if options.seven_tag_roster {
            // The roster first (whatever order the tags are in), then the rest.
            for (name, default) in SEVEN_TAG_ROSTER {
                match self.tags.iter().find(|t| t.is_named(name)) {
                    Some(tag) => write_tag(out, tag)?,
                    None if name == "Result" => write_tag(out, &Tag::new(name, self.declared_result().as_str()))?,
                    None => write_tag(out, &Tag::new(name, default))?,
                }
            }
            for tag in &self.tags {
                if !SEVEN_TAG_ROSTER.iter().any(|(n, _)| tag.is_named(n)) {
                    write_tag(out, tag)?;
                }
            }
            out.write_all(b"\n")?;
        } else if !self.tags.is_empty() {
            for tag in &self.tags {
                write_tag(out, tag)?;
            }
            out.write_all(b"\n")?;
        }
        let first_ply = (self.start.fullmove_number().max(1) - 1) * 2 + u32::from(self.start.turn() == Color::Black);
        let mut writer = MovetextWriter {
            wrapper: Wrapper {
                out,
                width: options.max_width,
                column: 0,
                open: 0,
                depth: 0,
            },
            options,
            chess960: self.start.is_chess960(),
        };
        writer.line(&self.moves, first_ply)?;
        // Always a result token: export format ends every game with one (`*` when unknown).
        writer.wrapper.token(self.result.as_str().as_bytes(), true)?;
        if writer.wrapper.column > 0 {
            out.write_all(b"\n")?;
        }
        out.write_all(b"\n")
    }

    /// The game as PGN (SAN, everything included, tags as they are), as bytes: tag values and
    /// comments are the game's bytes, which need not be UTF-8.
    ///
    /// ```
    /// use chessbits::pgn::GameTree;
    /// let pgn = b"[White \"A\"]\n1. e4 {good} (1. d4 $1) e5 *";
    /// let game = GameTree::from_pgn(&pgn[..]).unwrap();
    /// assert_eq!(game.to_pgn(), b"[White \"A\"]\n\n1. e4 {good} (1. d4 $1) 1... e5 *\n\n");
    /// ```
    pub fn to_pgn(&self) -> Vec<u8> {
        let mut out = Vec::new();
        // Writing to a Vec cannot fail.
        let _ = self.write_pgn(&mut out, &WriteOptions::default());
        out
    }
}

impl core::fmt::Display for GameTree {
    /// [`GameTree::to_pgn`], its bytes decoded for showing (see [`decode_text`](super::decode_text)).
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(&super::text::decode(&self.to_pgn()))
    }
}
