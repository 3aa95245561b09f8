//! Games into the sections of a block.
//!
//! Structure section, per game: varint game header = result (bits 0-1: 0 `*`, 1 `1-0`, 2 `0-1`,
//! 3 `1/2-1/2`) | 4 if the start position is not the standard one (its FEN, Shredder castling,
//! is the next length-prefixed string of the positions section) | 8 if the game is Chess960 |
//! 16 if the movetext had no result token (only earlier versions write it; read as `*`) | 32
//! if the game is stored as its PGN text (the next length-prefixed entry of the text section;
//! nothing else of the game is in any other section, not even its tags); then, unless stored
//! as text, the main line.
//!
//! A line: varint `(node count << 1) | has line comments`; if it has line comments, varint their
//! count and the comments (comments section); then its nodes. A node: one byte in the flags
//! section, then in this order: comments before, the move (moves section, skipped for a null
//! move), NAGs, comments after, variations (each a line from the position before the move).
//!
//! Flag byte: bit 0 null move; bits 1-2 number of comments before, bits 3-4 comments after,
//! bits 5-6 NAGs (each 0, 1, 2, or 3 = "3 or more", varint `count - 3` in the structure
//! section); bit 7 variations (varint `count - 1` in the structure section). NAG values are
//! bytes of the structure section. Comments are made "at" the side that plays the node
//! (line comments: the side to move), which picks the clock they predict from.

use super::block::{encode_payload, SectionKind, SectionSizes};
use super::codec::{MoveCodec, MoveWriter};
use super::comments::CommentWriter;
use super::tags::TagWriter;
use super::varint::{put_bytes, put_varint};
use chessbits::lists::MoveList;
use chessbits::notation::fen::CastlingNotation;
use chessbits::pgn::{Comment, GameResult, GameTree, Line, Node};
use chessbits::position::{Position, Validation};
use chessbits::types::Color;

/// Variations nested deeper than this are refused (the decoder recurses once per level): the
/// deepest the PGN reader builds.
pub(crate) const MAX_NESTING: usize = chessbits::pgn::MAX_VARIATION_DEPTH as usize;

pub(crate) const FLAG_NULL: u8 = 1;
pub(crate) const SHIFT_BEFORE: u8 = 1;
pub(crate) const SHIFT_AFTER: u8 = 3;
pub(crate) const SHIFT_NAGS: u8 = 5;
pub(crate) const FLAG_VARIATIONS: u8 = 0x80;

pub(crate) const START_FEN: u64 = 4;
pub(crate) const START_CHESS960: u64 = 8;
/// A game without a result token: written by earlier versions, read as `*` (a game's result is
/// now always one of the four tokens).
pub(crate) const NO_RESULT: u64 = 16;
pub(crate) const STORED_AS_TEXT: u64 = 32;

pub(crate) fn result_code(result: GameResult) -> u64 {
    match result {
        GameResult::Unknown => 0,
        GameResult::WhiteWins => 1,
        GameResult::BlackWins => 2,
        GameResult::Draw => 3,
    }
}

pub(crate) fn standard_start(chess960: bool) -> Position {
    let mut pos = Position::startpos();
    pos.set_chess960(chess960);
    pos
}

/// The FEN the archive stores for `pos`, checked to read back as `pos`.
fn start_fen(pos: &Position) -> Result<String, String> {
    let fen = pos.fen_with(CastlingNotation::Shredder);
    // A game's start may be a composed position (the PGN reader accepts those): same rules here.
    let mut back = Position::from_fen_with(&fen, Validation::Composed)
        .map_err(|e| format!("start position does not read back: {e}"))?;
    back.set_chess960(pos.is_chess960());
    if back == *pos {
        Ok(fen)
    } else {
        Err(format!("start position {fen} does not read back as itself"))
    }
}

/// What one block holds, for the writer's summary.
///
/// ```
/// use chessbits_archive::BlockStats;
/// assert_eq!(BlockStats::default().games, 0);
/// ```
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct BlockStats {
    /// Games in the block.
    pub games: u64,
    /// Moves in the block (main lines and variations, null moves included).
    pub moves: u64,
    /// Main-line moves (what "bits per move" divides by).
    pub mainline_moves: u64,
    /// Games stored as their PGN text (they could not be stored as moves).
    pub text_games: u64,
    /// Stored bytes per section kind, in [`SectionKind::ALL`] order.
    pub section_bytes: SectionSizes,
    /// Bytes of the payload (sections and their table).
    pub payload_bytes: u64,
}

/// Collects games into the sections of one block.
pub(crate) struct BlockEncoder {
    structure: Vec<u8>,
    flags: Vec<u8>,
    moves: MoveWriter,
    tags: TagWriter,
    comments: CommentWriter,
    positions: Vec<u8>,
    text: Vec<u8>,
    stats: BlockStats,
    list: MoveList,
}

impl BlockEncoder {
    pub(crate) fn new(codec: MoveCodec) -> BlockEncoder {
        BlockEncoder {
            structure: Vec::new(),
            flags: Vec::new(),
            moves: MoveWriter::new(codec),
            tags: TagWriter::default(),
            comments: CommentWriter::default(),
            positions: Vec::new(),
            text: Vec::new(),
            stats: BlockStats::default(),
            list: MoveList::new(),
        }
    }

    /// Adds a game as its PGN text, byte for byte.
    pub(crate) fn add_text(&mut self, pgn: &[u8]) {
        put_varint(&mut self.structure, STORED_AS_TEXT);
        put_bytes(&mut self.text, pgn);
        self.stats.games += 1;
        self.stats.text_games += 1;
    }

    /// Adds a game that [`check_game`] accepted.
    pub(crate) fn add(&mut self, game: &GameTree) -> Result<(), String> {
        let fen = if game.start == standard_start(game.start.is_chess960()) {
            None
        } else {
            Some(start_fen(&game.start)?)
        };
        self.comments.start_game();
        self.moves.start_game();
        self.tags.write(&game.tags);
        let mut header = result_code(game.result);
        if let Some(fen) = fen {
            header |= START_FEN;
            put_bytes(&mut self.positions, fen.as_bytes());
        }
        if game.start.is_chess960() {
            header |= START_CHESS960;
        }
        put_varint(&mut self.structure, header);
        self.write_line(&mut game.start.clone(), &game.moves)?;
        self.stats.games += 1;
        self.stats.mainline_moves += game.moves.nodes.len() as u64;
        Ok(())
    }

    fn write_line(&mut self, pos: &mut Position, line: &Line) -> Result<(), String> {
        let has_line_comments = !line.comments.is_empty();
        put_varint(
            &mut self.structure,
            (line.nodes.len() as u64) << 1 | u64::from(has_line_comments),
        );
        if has_line_comments {
            put_varint(&mut self.structure, line.comments.len() as u64);
            for comment in &line.comments {
                self.comments.write(comment.as_bytes(), pos.turn());
            }
        }
        for node in &line.nodes {
            self.write_node(pos, node)?;
        }
        Ok(())
    }

    fn write_node(&mut self, pos: &mut Position, node: &Node) -> Result<(), String> {
        let side: Color = pos.turn();
        let class = |count: usize| count.min(3) as u8;
        let mut flags = class(node.comments_before.len()) << SHIFT_BEFORE
            | class(node.comments_after.len()) << SHIFT_AFTER
            | class(node.nags.len()) << SHIFT_NAGS;
        if node.mv.is_null() {
            flags |= FLAG_NULL;
        }
        if !node.variations.is_empty() {
            flags |= FLAG_VARIATIONS;
        }
        self.flags.push(flags);
        self.write_comments(&node.comments_before, side);
        let m = node.mv;
        if !m.is_null() {
            self.moves.write(pos, &mut self.list, m)?;
        }
        if node.nags.len() >= 3 {
            put_varint(&mut self.structure, node.nags.len() as u64 - 3);
        }
        self.structure.extend(node.nags.iter().map(|nag| nag.0));
        self.write_comments(&node.comments_after, side);
        if !node.variations.is_empty() {
            put_varint(&mut self.structure, node.variations.len() as u64 - 1);
            for variation in &node.variations {
                let mut branch = pos.clone();
                self.write_line(&mut branch, variation)?;
            }
        }
        if m.is_null() {
            pos.make_null_move();
        } else {
            pos.play_unchecked(m);
        }
        self.stats.moves += 1;
        Ok(())
    }

    fn write_comments(&mut self, comments: &[Comment], side: Color) {
        if comments.len() >= 3 {
            put_varint(&mut self.structure, comments.len() as u64 - 3);
        }
        for comment in comments {
            self.comments.write(comment.as_bytes(), side);
        }
    }

    /// The block payload and what it holds.
    pub(crate) fn finish(self, zstd_level: i32) -> (Vec<u8>, BlockStats) {
        let tag_values = self.tags.values();
        let sections = vec![
            (SectionKind::Structure, self.structure),
            (SectionKind::Flags, self.flags),
            (SectionKind::Moves, self.moves.finish()),
            (SectionKind::TagNames, self.tags.names),
            (SectionKind::TagValues, tag_values),
            (SectionKind::Comments, self.comments.texts),
            (SectionKind::Clocks, self.comments.clocks),
            (SectionKind::Evals, self.comments.evals),
            (SectionKind::Positions, self.positions),
            (SectionKind::Text, self.text),
        ];
        let (payload, sizes) = encode_payload(&sections, zstd_level);
        let mut stats = self.stats;
        stats.section_bytes = sizes;
        stats.payload_bytes = payload.len() as u64;
        (payload, stats)
    }
}

/// Checks that a game can be stored with `codec`: a start position that reads back from its
/// FEN, legal moves, no null move in check, variations nested at most [`MAX_NESTING`] deep, and
/// for `index-byte` every move at an index a byte holds. Checked before a game joins a block, so
/// that encoding the block cannot fail.
pub(crate) fn check_game(game: &GameTree, codec: MoveCodec) -> Result<(), String> {
    if game.start != standard_start(game.start.is_chess960()) {
        start_fen(&game.start)?;
    }
    check_line(&mut game.start.clone(), &game.moves, 0, codec)
}

/// Replays a line from `pos`, checking that every move is legal and the nesting not too deep.
fn check_line(pos: &mut Position, line: &Line, depth: usize, codec: MoveCodec) -> Result<(), String> {
    if depth > MAX_NESTING {
        return Err(format!("variations nested deeper than {MAX_NESTING}"));
    }
    for node in &line.nodes {
        let m = node.mv;
        if m.is_null() {
            if pos.is_check() {
                return Err("null move while in check".to_string());
            }
        } else if !pos.is_legal(m) {
            return Err(format!("illegal move {m} in {}", pos.fen()));
        } else if codec == MoveCodec::IndexByte && pos.count_legal_moves() > 256 {
            let mut list = MoveList::new();
            pos.legal_moves_into(&mut list);
            if list.iter().position(|&legal| legal == m).is_some_and(|i| i > 255) {
                return Err(format!(
                    "move {m} is at index 256 or above in {}: the index-byte codec cannot store it",
                    pos.fen()
                ));
            }
        }
        for variation in &node.variations {
            check_line(&mut pos.clone(), variation, depth + 1, codec)?;
        }
        if m.is_null() {
            pos.make_null_move();
        } else {
            pos.play_unchecked(m);
        }
    }
    Ok(())
}
