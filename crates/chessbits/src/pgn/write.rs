//! The PGN writer: export format.
//!
//! Tags first, one per line, the Seven Tag Roster in its order; a blank line; the movetext
//! wrapped at 80 columns, with move numbers where export format wants them (every white move,
//! and a black move that starts a line or follows a comment or a variation, as `12...`);
//! comments, NAGs (`$n`) and variations; the result; a blank line.

use core::fmt::{self, Write};

use super::game::{Game, Line, Node, SEVEN_TAG_ROSTER};
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
}

impl Default for WriteOptions {
    fn default() -> WriteOptions {
        WriteOptions {
            notation: MoveNotation::San,
            comments: true,
            nags: true,
            variations: true,
            max_width: 80,
        }
    }
}

/// Writes tokens separated by one space or, where the line would grow too long, a line break.
struct Wrapper<'a, W: Write> {
    out: &'a mut W,
    width: usize,
    column: usize,
    /// `(`s to write right before the next token.
    open: usize,
    /// Variations open: room kept at the end of each line for their `)`s.
    depth: usize,
}

impl<W: Write> Wrapper<'_, W> {
    /// Writes `token`; `breakable` says whether a line break may come before it.
    fn token(&mut self, token: &str, breakable: bool) -> fmt::Result {
        let len = self.open + token.chars().count();
        if self.column > 0 {
            if breakable && self.column + 1 + len + self.depth > self.width {
                self.out.write_char('\n')?;
                self.column = 0;
            } else {
                self.out.write_char(' ')?;
                self.column += 1;
            }
        }
        for _ in 0..self.open {
            self.out.write_char('(')?;
        }
        self.open = 0;
        self.out.write_str(token)?;
        self.column += len;
        Ok(())
    }

    /// Opens a variation: its `(` sticks to its first token.
    fn open_variation(&mut self) {
        self.open += 1;
        self.depth += 1;
    }

    /// Closes a variation: `)` right after the last token.
    fn close_variation(&mut self) -> fmt::Result {
        self.depth = self.depth.saturating_sub(1);
        if self.open > 0 {
            // An empty variation.
            self.token(")", true)?;
            return Ok(());
        }
        self.out.write_char(')')?;
        self.column += 1;
        Ok(())
    }

    /// A comment: `{ words }` broken between words where needed, or `; text` and a line break
    /// if the text holds a `}`. A line never starts with a `%` word, which readers could take
    /// for an escape line.
    fn comment(&mut self, text: &str) -> fmt::Result {
        if text.contains('}') {
            self.token(";", true)?;
            self.out.write_char(' ')?;
            self.out.write_str(text)?;
            self.out.write_char('\n')?;
            self.column = 0;
            return Ok(());
        }
        self.token("{", true)?;
        // A run of spaces stays with the word after it (`a  b` is `a` and ` b`): a line break
        // in the run would otherwise swallow it, and the text would read back with one space.
        let mut word = String::new();
        for part in text.split(' ') {
            word.push_str(part);
            if part.is_empty() {
                word.push(' ');
                continue;
            }
            let breakable = !word.starts_with('%');
            self.token(&word, breakable)?;
            word.clear();
        }
        if !word.is_empty() {
            self.token(word.trim_end_matches(' '), true)?;
        }
        self.token("}", true)
    }
}

/// Writes the movetext of a line, starting at ply `ply` (0 = white's first move).
struct MovetextWriter<'a, 'w, W: Write> {
    wrapper: Wrapper<'w, W>,
    options: &'a WriteOptions,
    chess960: bool,
}

impl<W: Write> MovetextWriter<'_, '_, W> {
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

    fn comments(&mut self, comments: &[String]) -> fmt::Result {
        if self.options.comments {
            for comment in comments {
                self.wrapper.comment(comment)?;
            }
        }
        Ok(())
    }

    fn line(&mut self, line: &Line, first_ply: u32) -> fmt::Result {
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
            self.wrapper.token(&text, true)?;
            need_number = false;
            if self.options.nags {
                for nag in &node.nags {
                    self.wrapper.token(&nag.to_string(), true)?;
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

/// Escapes `\` and `"` in a tag value.
fn escape_tag(value: &str) -> String {
    value.replace('\\', "\\\\").replace('"', "\\\"")
}

impl Game {
    /// Writes the game as PGN in export format with `options`.
    ///
    /// ```
    /// use chessbits::pgn::{MoveNotation, PgnReader, WriteOptions};
    /// let game = PgnReader::new(&b"1. e4 e5 2. Nf3 *"[..]).read_owned_game().unwrap().unwrap().unwrap();
    /// let mut out = String::new();
    /// let options = WriteOptions { notation: MoveNotation::Lan, ..WriteOptions::default() };
    /// game.write_pgn(&mut out, &options).unwrap();
    /// assert!(out.ends_with("\n\n1. e2-e4 e7-e5 2. Ng1-f3 *\n\n"));
    /// ```
    pub fn write_pgn<W: Write>(&self, out: &mut W, options: &WriteOptions) -> fmt::Result {
        // The roster first (whatever order the tags are in), then the rest.
        for (name, default) in SEVEN_TAG_ROSTER {
            let value = match (self.tag(name), name) {
                (Some(value), _) => value,
                (None, "Result") => self.result.as_str(),
                (None, _) => default,
            };
            writeln!(out, "[{name} \"{}\"]", escape_tag(value))?;
        }
        for (name, value) in &self.tags {
            if !SEVEN_TAG_ROSTER.iter().any(|(n, _)| n == name) {
                writeln!(out, "[{name} \"{}\"]", escape_tag(value))?;
            }
        }
        out.write_char('\n')?;
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
        writer.wrapper.token(self.result.as_str(), true)?;
        out.write_str("\n\n")
    }

    /// The game as PGN in export format (SAN, everything included).
    ///
    /// ```
    /// use chessbits::pgn::PgnReader;
    /// let pgn = b"[White \"A\"]\n1. e4 {good} (1. d4 $1) e5 *";
    /// let game = PgnReader::new(&pgn[..]).read_owned_game().unwrap().unwrap().unwrap();
    /// assert_eq!(
    ///     game.to_pgn(),
    ///     "[Event \"?\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n[White \"A\"]\n\
    ///      [Black \"?\"]\n[Result \"*\"]\n\n1. e4 { good } (1. d4 $1) 1... e5 *\n\n"
    /// );
    /// ```
    pub fn to_pgn(&self) -> String {
        let mut out = String::new();
        // Writing to a String cannot fail.
        let _ = self.write_pgn(&mut out, &WriteOptions::default());
        out
    }
}

impl fmt::Display for Game {
    /// Same as [`Game::to_pgn`].
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write_pgn(f, &WriteOptions::default())
    }
}
