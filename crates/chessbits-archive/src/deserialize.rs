//! Sections of a block back into games (the inverse of [`serialize`](super::serialize)).
//!
//! Every count read from the payload is checked against the bytes left before it sizes a loop
//! or an allocation, every move against the legal moves of its position, and the nesting depth
//! against the encoder's limit: a crafted payload gives an error, never a panic.

use super::block::{decode_payload, SectionKind};
use super::codec::{MoveCodec, MoveReader};
use super::comments::CommentReader;
use super::error::{Corrupt, DecodeResult};
use super::serialize::standard_start;
use super::serialize::{
    FLAG_NULL, FLAG_VARIATIONS, MAX_NESTING, NO_RESULT, SHIFT_AFTER, SHIFT_BEFORE, SHIFT_NAGS, START_CHESS960,
    START_FEN, STORED_AS_TEXT,
};
use super::stored::StoredGame;
use super::tags::TagReader;
use super::varint::ByteReader;
use chessbits::lists::MoveList;
use chessbits::moves::Move;
use chessbits::notation::san::{san_of, San, SanPlus};
use chessbits::pgn::{Comment, GameResult, GameTree, Line, Nag, Node};
use chessbits::position::{Position, Validation};
use chessbits::types::Color;

/// Decodes every game of a block payload.
pub(crate) fn decode_block(payload: &[u8], codec: MoveCodec, game_count: u32) -> DecodeResult<Vec<StoredGame>> {
    let sections = decode_payload(payload)?;
    let section = |kind: SectionKind| sections.get(kind.slot()).map(Vec::as_slice).unwrap_or(&[]);
    let mut decoder = BlockDecoder {
        structure: ByteReader::new(section(SectionKind::Structure), "structure"),
        flags: ByteReader::new(section(SectionKind::Flags), "flags"),
        moves: MoveReader::new(codec, section(SectionKind::Moves)),
        tags: TagReader::new(section(SectionKind::TagNames), section(SectionKind::TagValues))?,
        comments: CommentReader::new(
            section(SectionKind::Comments),
            section(SectionKind::Clocks),
            section(SectionKind::Evals),
        ),
        positions: ByteReader::new(section(SectionKind::Positions), "positions"),
        text: ByteReader::new(section(SectionKind::Text), "text"),
        list: MoveList::new(),
    };
    // Each game takes at least one structure byte: a corrupt count cannot make a huge vector.
    let mut games = Vec::with_capacity((game_count as usize).min(section(SectionKind::Structure).len()));
    for _ in 0..game_count {
        games.push(decoder.game()?);
    }
    decoder.structure.expect_end()?;
    decoder.flags.expect_end()?;
    decoder.moves.expect_end()?;
    decoder.tags.expect_end()?;
    decoder.comments.expect_end()?;
    decoder.positions.expect_end()?;
    decoder.text.expect_end()?;
    Ok(games)
}

struct BlockDecoder<'a> {
    structure: ByteReader<'a>,
    flags: ByteReader<'a>,
    moves: MoveReader<'a>,
    tags: TagReader<'a>,
    comments: CommentReader<'a>,
    positions: ByteReader<'a>,
    text: ByteReader<'a>,
    list: MoveList,
}

impl BlockDecoder<'_> {
    fn game(&mut self) -> DecodeResult<StoredGame> {
        let header = self.structure.varint()?;
        if header == STORED_AS_TEXT {
            return Ok(StoredGame::Text(self.text.prefixed()?.to_vec()));
        }
        if header >> 5 != 0 {
            return Err(Corrupt(format!("unknown game header bits {header:#x}")));
        }
        self.comments.start_game();
        self.moves.start_game();
        let tags = self.tags.read()?;
        let result = match (header & NO_RESULT != 0, header & 3) {
            (_, 0) => GameResult::Unknown,
            (true, _) => return Err(Corrupt::new("a result and no result")),
            (false, 1) => GameResult::WhiteWins,
            (false, 2) => GameResult::BlackWins,
            (false, _) => GameResult::Draw,
        };
        let chess960 = header & START_CHESS960 != 0;
        let start = if header & START_FEN != 0 {
            let fen = core::str::from_utf8(self.positions.prefixed()?)
                .map_err(|_| Corrupt::new("start position is not UTF-8"))?;
            // Composed positions too, as the writer stores what the PGN reader accepts.
            let mut pos = Position::from_fen_with(fen, Validation::Composed)
                .map_err(|e| Corrupt(format!("bad start position {fen}: {e}")))?;
            pos.set_chess960(chess960);
            pos
        } else {
            standard_start(chess960)
        };
        let moves = self.line(&mut start.clone(), 0)?;
        Ok(StoredGame::Game(GameTree {
            tags,
            start,
            moves,
            result,
        }))
    }

    fn comments(&mut self, class: u8, side: Color) -> DecodeResult<Vec<Comment>> {
        let count = match class {
            3 => 3 + self.structure.count(0)?,
            n => usize::from(n),
        };
        // Each comment takes at least one byte of the comments section; the reader fails at
        // its end, so the loop is bounded by the section however large `count` claims to be.
        let mut comments = Vec::new();
        for _ in 0..count {
            comments.push(Comment::new(self.comments.read(side)?));
        }
        Ok(comments)
    }

    fn line(&mut self, pos: &mut Position, depth: usize) -> DecodeResult<Line> {
        if depth > MAX_NESTING {
            return Err(Corrupt::new("variations nested too deep"));
        }
        let header = self.structure.varint()?;
        let mut line = Line::default();
        if header & 1 == 1 {
            let count = self.structure.count(0)?;
            for _ in 0..count {
                line.comments.push(Comment::new(self.comments.read(pos.turn())?));
            }
        }
        // Each node takes one flag byte: the count cannot exceed the flags left.
        let count = usize::try_from(header >> 1).map_err(|_| Corrupt::new("line too long"))?;
        for _ in 0..count {
            let node = self.node(pos, depth)?;
            line.nodes.push(node);
        }
        Ok(line)
    }

    fn node(&mut self, pos: &mut Position, depth: usize) -> DecodeResult<Node> {
        let side = pos.turn();
        let flags = self.flags.u8()?;
        let comments_before = self.comments(flags >> SHIFT_BEFORE & 3, side)?;
        let (mv, san) = if flags & FLAG_NULL != 0 {
            if pos.is_check() {
                return Err(Corrupt::new("null move while in check"));
            }
            (
                Move::NULL,
                SanPlus {
                    san: San::Null,
                    suffix: None,
                },
            )
        } else {
            let m = self.moves.read(pos, &mut self.list)?;
            (m, san_of(pos, m))
        };
        let nag_count = match flags >> SHIFT_NAGS & 3 {
            3 => 3 + self.structure.count(1)?,
            n => usize::from(n),
        };
        let nags = self.structure.bytes(nag_count)?.iter().map(|&b| Nag(b)).collect();
        let comments_after = self.comments(flags >> SHIFT_AFTER & 3, side)?;
        let mut variations = Vec::new();
        if flags & FLAG_VARIATIONS != 0 {
            let count = 1 + self.structure.count(1)?;
            for _ in 0..count {
                variations.push(self.line(&mut pos.clone(), depth + 1)?);
            }
        }
        if mv.is_null() {
            pos.make_null_move();
        } else {
            pos.play_unchecked(mv);
        }
        Ok(Node {
            mv,
            san,
            comments_before,
            nags,
            comments_after,
            variations,
        })
    }
}
