//! [`ArchiveWriter`]: games in, a `.cbits` stream out, a few blocks in memory at a time.

use std::io::Write;

use super::block::{SectionKind, SectionSizes};
use super::codec::MoveCodec;
use super::error::ArchiveError;
use super::format::{encode_index, BlockHeader, FileHeader, Footer, IndexEntry, BLOCK_HEADER_LEN, HEADER_LEN};
use super::pipeline::{JobLost, Pipeline};
use super::serialize::{BlockEncoder, BlockStats};
use chessbits::pgn::{GameBuilder, GameTree, Line, RawGame, SyntaxError};
use chessbits::position::Position;

/// How an [`ArchiveWriter`] cuts and encodes blocks.
///
/// ```
/// use chessbits_archive::{MoveCodec, WriterOptions};
/// let options = WriterOptions { codec: MoveCodec::IndexByte, ..WriterOptions::default() };
/// assert_eq!(options.max_games_per_block, 1000);
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct WriterOptions {
    /// The move code of every block.
    pub codec: MoveCodec,
    /// A block is closed when it has this many games ...
    pub max_games_per_block: u32,
    /// ... or when what it holds (tags, comments, a byte a move) reaches this many bytes.
    pub max_block_bytes: usize,
    /// zstd level for the sections it pays to compress (1 fast ... 19 small).
    pub zstd_level: i32,
    /// Threads that encode blocks while the caller adds the next games (0: one per core; 1: the
    /// caller's thread alone). Memory holds about this many blocks.
    pub threads: usize,
}

impl Default for WriterOptions {
    fn default() -> WriterOptions {
        WriterOptions {
            codec: MoveCodec::default(),
            max_games_per_block: 1000,
            max_block_bytes: 1 << 20,
            zstd_level: 12,
            threads: 0,
        }
    }
}

/// What a finished archive holds, and where its bytes went.
///
/// ```
/// use chessbits_archive::ArchiveSummary;
/// let summary = ArchiveSummary::default();
/// assert_eq!(summary.bits_per_move(), 0.0);
/// ```
#[derive(Copy, Clone, Debug, Default, PartialEq)]
pub struct ArchiveSummary {
    /// Games written.
    pub games: u64,
    /// Blocks written.
    pub blocks: u64,
    /// Moves written (main lines, variations and null moves).
    pub moves: u64,
    /// Main-line moves written.
    pub mainline_moves: u64,
    /// Games stored as their PGN text, because they could not be stored as moves (see
    /// [`ArchiveWriter::add_pgn`]).
    pub text_games: u64,
    /// Bytes of the whole archive.
    pub bytes: u64,
    /// Stored bytes per section kind, in [`SectionKind::ALL`] order.
    pub section_bytes: SectionSizes,
}

impl ArchiveSummary {
    /// Archive bits per main-line move: the whole file, tags and comments included.
    ///
    /// ```
    /// use chessbits_archive::ArchiveSummary;
    /// let summary = ArchiveSummary { bytes: 100, mainline_moves: 200, ..ArchiveSummary::default() };
    /// assert_eq!(summary.bits_per_move(), 4.0);
    /// ```
    pub fn bits_per_move(&self) -> f64 {
        if self.mainline_moves == 0 {
            0.0
        } else {
            self.bytes as f64 * 8.0 / self.mainline_moves as f64
        }
    }

    /// Stored bytes of the sections whose [`SectionKind::share`] is `share`.
    ///
    /// ```
    /// use chessbits_archive::{ArchiveSummary, SectionKind};
    /// let mut summary = ArchiveSummary::default();
    /// summary.section_bytes[SectionKind::Clocks.id() as usize - 1] = 5;
    /// summary.section_bytes[SectionKind::Comments.id() as usize - 1] = 7;
    /// assert_eq!(summary.share_bytes("comments"), 12);
    /// ```
    pub fn share_bytes(&self, share: &str) -> u64 {
        SectionKind::ALL
            .iter()
            .zip(self.section_bytes)
            .filter(|(kind, _)| kind.share() == share)
            .map(|(_, b)| b)
            .sum()
    }

    fn add_block(&mut self, stats: &BlockStats) {
        self.blocks += 1;
        self.games += stats.games;
        self.moves += stats.moves;
        self.mainline_moves += stats.mainline_moves;
        self.text_games += stats.text_games;
        for (total, bytes) in self.section_bytes.iter_mut().zip(stats.section_bytes) {
            *total += bytes;
        }
    }
}

/// Writes games into a `.cbits` archive.
///
/// Games are collected into blocks; full blocks are encoded on a thread pool while the caller
/// goes on adding games, and written in order, so memory stays at a few blocks whatever the
/// number of games, and the output does not depend on the number of threads.
/// [`finish`](ArchiveWriter::finish) writes the last blocks, the index and the footer: an
/// archive that was not finished has no footer and does not open.
///
/// ```
/// use chessbits_archive::{ArchiveReader, ArchiveWriter, WriterOptions};
/// use chessbits::pgn::GameTree;
/// use std::io::Cursor;
///
/// let pgn = "[White \"A\"]\n\n1. e4 {[%clk 0:05:00]} e5 (1... c5) 2. Nf3 $1 *\n";
/// let game = GameTree::from_pgn(pgn.as_bytes()).unwrap();
/// let mut writer = ArchiveWriter::new(Cursor::new(Vec::new()), WriterOptions::default()).unwrap();
/// writer.add_game(&game).unwrap();
/// let (file, summary) = writer.finish().unwrap();
/// assert_eq!(summary.games, 1);
///
/// let mut reader = ArchiveReader::open(Cursor::new(file.into_inner())).unwrap();
/// assert_eq!(reader.game(0).unwrap(), game);
/// ```
pub struct ArchiveWriter<W: Write> {
    out: W,
    options: WriterOptions,
    pipeline: Pipeline<EncodedBlock>,
    offset: u64,
    current: Vec<Entry>,
    current_bytes: usize,
    games_added: u64,
    index: Vec<IndexEntry>,
    games_written: u64,
    summary: ArchiveSummary,
    stored_as_text: Vec<StoredAsText>,
}

/// A game [`ArchiveWriter::add_pgn`] stored as its PGN text: which one, and why.
///
/// ```
/// use chessbits_archive::StoredAsText;
/// let note = StoredAsText { game: 3, source: 0, line: 12, reason: "illegal move 'Ke3'".to_string() };
/// assert_eq!(note.line, 12);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredAsText {
    /// The game's number in the archive.
    pub game: u64,
    /// What the caller passed as the game's source (a file number, say).
    pub source: u32,
    /// The line the error is on, in the source.
    pub line: u32,
    /// Why the game could not be stored as moves.
    pub reason: String,
}

/// A game waiting in the current block: built, or PGN text to be read by the encoder.
// Most games are stored as games: boxing them would cost an allocation each for nothing.
#[allow(clippy::large_enum_variant)]
enum Entry {
    Game(GameTree),
    Pgn { text: Vec<u8>, raw: RawGame, source: u32 },
}

impl<W: Write> ArchiveWriter<W> {
    /// Writes the file header and gets ready for games.
    ///
    /// ```
    /// use chessbits_archive::{ArchiveWriter, WriterOptions};
    /// let writer = ArchiveWriter::new(Vec::new(), WriterOptions::default()).unwrap();
    /// let (bytes, _) = writer.finish().unwrap();
    /// assert_eq!(&bytes[..6], b"\x89CBITS");
    /// ```
    pub fn new(mut out: W, options: WriterOptions) -> Result<ArchiveWriter<W>, ArchiveError> {
        out.write_all(&FileHeader { codec: options.codec }.encode())?;
        Ok(ArchiveWriter {
            out,
            options,
            pipeline: Pipeline::new(options.threads),
            offset: HEADER_LEN as u64,
            current: Vec::new(),
            current_bytes: 0,
            games_added: 0,
            index: Vec::new(),
            games_written: 0,
            summary: ArchiveSummary::default(),
            stored_as_text: Vec::new(),
        })
    }

    /// Games added so far.
    ///
    /// ```
    /// use chessbits_archive::{ArchiveWriter, WriterOptions};
    /// use chessbits::pgn::GameTree;
    /// let mut writer = ArchiveWriter::new(Vec::new(), WriterOptions::default()).unwrap();
    /// writer.add_game(&GameTree::default()).unwrap();
    /// assert_eq!(writer.game_count(), 1);
    /// ```
    pub fn game_count(&self) -> u64 {
        self.games_added
    }

    /// Adds a game. A game that cannot be stored (an illegal move, a null move in check,
    /// variations nested too deep) gives [`ArchiveError::InvalidGame`] and is left out; the
    /// archive stays good.
    ///
    /// ```
    /// use chessbits_archive::{ArchiveError, ArchiveWriter, WriterOptions};
    /// use chessbits::pgn::{GameTree, Node};
    /// use chessbits::moves::{Move, MoveKind};
    /// use chessbits::notation::san::{San, SanPlus};
    /// use chessbits::types::Square;
    /// let mut game = GameTree::default();
    /// let bad = Move::new(Square::E2, Square::E5, MoveKind::Quiet);
    /// game.moves.nodes.push(Node::new(bad, SanPlus { san: San::Null, suffix: None }));
    /// let mut writer = ArchiveWriter::new(Vec::new(), WriterOptions::default()).unwrap();
    /// assert!(matches!(writer.add_game(&game), Err(ArchiveError::InvalidGame { game: 0, .. })));
    /// assert_eq!(writer.game_count(), 0);
    /// ```
    pub fn add_game(&mut self, game: &GameTree) -> Result<(), ArchiveError> {
        let number = self.game_count();
        super::serialize::check_game(game, self.options.codec)
            .map_err(|reason| ArchiveError::InvalidGame { game: number, reason })?;
        self.add(Entry::Game(game.clone()), approximate_bytes(game))
    }

    /// Adds a game given as its PGN text, as [`PgnReader::read_raw_game`](chessbits::pgn::PgnReader::read_raw_game) cut it out of its
    /// file (`raw` says where it stood; `source` is any number the caller wants to see again in
    /// [`take_stored_as_text`](Self::take_stored_as_text), a file number say). The game is read
    /// on the encoding threads; if it cannot be read or stored as moves, its text is stored
    /// byte for byte instead, and comes back as [`StoredGame::Text`](super::StoredGame::Text).
    /// Nothing is ever left out.
    ///
    /// ```
    /// use chessbits_archive::{ArchiveReader, ArchiveWriter, StoredGame, WriterOptions};
    /// use chessbits::pgn::PgnReader;
    /// use std::io::Cursor;
    /// let pgn = b"[Event \"ok\"]\n\n1. e4 e5 *\n\n[Event \"bad\"]\n\n1. e4 e4 *\n";
    /// let mut reader = PgnReader::new(&pgn[..]);
    /// let mut writer = ArchiveWriter::new(Cursor::new(Vec::new()), WriterOptions::default()).unwrap();
    /// let mut text = Vec::new();
    /// while let Some(raw) = reader.read_raw_game(&mut text).unwrap() {
    ///     writer.add_pgn(std::mem::take(&mut text), raw, 0).unwrap();
    /// }
    /// let (file, summary) = writer.finish().unwrap();
    /// assert_eq!((summary.games, summary.text_games), (2, 1));
    /// let mut archive = ArchiveReader::open(Cursor::new(file.into_inner())).unwrap();
    /// let games: Vec<StoredGame> = archive.games().map(Result::unwrap).collect();
    /// assert!(games[0].game().is_some());
    /// assert_eq!(games[1], StoredGame::Text(b"[Event \"bad\"]\n\n1. e4 e4 *".to_vec()));
    /// ```
    pub fn add_pgn(&mut self, text: Vec<u8>, raw: RawGame, source: u32) -> Result<(), ArchiveError> {
        if raw.too_long {
            return Err(ArchiveError::InvalidGame {
                game: self.game_count(),
                reason: SyntaxError::GameTooLong.to_string(),
            });
        }
        let bytes = text.len();
        self.add(Entry::Pgn { text, raw, source }, bytes)
    }

    /// The games stored as text since the last call, in order (blocks are encoded on other
    /// threads: a game is listed once its block is written).
    ///
    /// ```
    /// use chessbits_archive::{ArchiveWriter, WriterOptions};
    /// let mut writer = ArchiveWriter::new(Vec::new(), WriterOptions::default()).unwrap();
    /// assert!(writer.take_stored_as_text().is_empty());
    /// ```
    pub fn take_stored_as_text(&mut self) -> Vec<StoredAsText> {
        std::mem::take(&mut self.stored_as_text)
    }

    /// Encodes and writes every game added so far (the current block closes early): after
    /// this, [`take_stored_as_text`](Self::take_stored_as_text) lists every game stored as text.
    ///
    /// ```
    /// use chessbits_archive::{ArchiveWriter, WriterOptions};
    /// use chessbits::pgn::GameTree;
    /// let mut writer = ArchiveWriter::new(Vec::new(), WriterOptions::default()).unwrap();
    /// writer.add_game(&GameTree::default()).unwrap();
    /// writer.flush().unwrap();
    /// let (_, summary) = writer.finish().unwrap();
    /// assert_eq!((summary.games, summary.blocks), (1, 1));
    /// ```
    pub fn flush(&mut self) -> Result<(), ArchiveError> {
        if !self.current.is_empty() {
            self.submit_current()?;
        }
        while let Some(done) = self.pipeline.next() {
            self.write_encoded(done)?;
        }
        Ok(())
    }

    /// Adds an entry of about `bytes` to the current block; a block that would grow past its
    /// size closes first, so a large game gets a block of its own.
    fn add(&mut self, entry: Entry, bytes: usize) -> Result<(), ArchiveError> {
        if !self.current.is_empty() && self.current_bytes + bytes > self.options.max_block_bytes {
            self.submit_current()?;
        }
        self.current_bytes += bytes;
        self.current.push(entry);
        self.games_added += 1;
        if self.current.len() >= self.options.max_games_per_block.max(1) as usize
            || self.current_bytes >= self.options.max_block_bytes
        {
            self.submit_current()?;
        }
        Ok(())
    }

    fn submit_current(&mut self) -> Result<(), ArchiveError> {
        let games = std::mem::take(&mut self.current);
        self.current_bytes = 0;
        while !self.pipeline.has_room() {
            if let Some(done) = self.pipeline.next() {
                self.write_encoded(done)?;
            }
        }
        let (codec, level, first_game) = (self.options.codec, self.options.zstd_level, self.games_added);
        let first_game = first_game - games.len() as u64;
        self.pipeline
            .submit(move || encode_block(games, first_game, codec, level));
        while let Some(done) = self.pipeline.next_ready() {
            self.write_encoded(done)?;
        }
        Ok(())
    }

    fn write_encoded(&mut self, done: Result<EncodedBlock, JobLost>) -> Result<(), ArchiveError> {
        let invalid = |reason: String| ArchiveError::InvalidGame {
            game: self.games_written,
            reason,
        };
        let (payload, stats, notes) = done
            .map_err(|_| invalid("the encoder thread died".to_string()))?
            .map_err(invalid)?;
        self.stored_as_text.extend(notes);
        self.write_block(&payload, &stats)
    }

    fn write_block(&mut self, payload: &[u8], stats: &BlockStats) -> Result<(), ArchiveError> {
        let block_number = self.index.len() as u32;
        let header = BlockHeader {
            payload_len: u32::try_from(payload.len()).map_err(|_| ArchiveError::InvalidGame {
                game: self.games_written,
                reason: "block larger than 4 GiB".to_string(),
            })?,
            first_game: self.games_written,
            game_count: stats.games as u32,
            block_number,
            codec_id: self.options.codec.id(),
            payload_crc: crc32fast::hash(payload),
        };
        self.out.write_all(&header.encode())?;
        self.out.write_all(payload)?;
        self.index.push(IndexEntry {
            offset: self.offset,
            first_game: self.games_written,
            game_count: header.game_count,
        });
        self.offset += (BLOCK_HEADER_LEN + payload.len()) as u64;
        self.games_written += stats.games;
        self.summary.add_block(stats);
        Ok(())
    }

    /// Writes the remaining blocks, the index and the footer; returns the output and a summary.
    ///
    /// ```
    /// use chessbits_archive::{ArchiveWriter, WriterOptions};
    /// let (bytes, summary) = ArchiveWriter::new(Vec::new(), WriterOptions::default()).unwrap().finish().unwrap();
    /// assert_eq!(summary.bytes, bytes.len() as u64);
    /// assert_eq!(summary.blocks, 0);
    /// ```
    pub fn finish(mut self) -> Result<(W, ArchiveSummary), ArchiveError> {
        self.flush()?;
        let index = encode_index(&self.index);
        let footer = Footer {
            index_offset: self.offset,
            game_count: self.games_written,
            block_count: self.index.len() as u32,
        };
        self.out.write_all(&index)?;
        self.out.write_all(&footer.encode())?;
        self.out.flush()?;
        self.summary.bytes = self.offset + (index.len() + footer.encode().len()) as u64;
        Ok((self.out, self.summary))
    }
}

/// A block's payload and what it holds, or why it could not be encoded.
type EncodedBlock = Result<(Vec<u8>, BlockStats, Vec<StoredAsText>), String>;

/// Encodes the games of a block, the first of them game number `first_game`: PGN text is read
/// here, and stored as text if it does not give a game that can be stored as moves.
fn encode_block(entries: Vec<Entry>, first_game: u64, codec: MoveCodec, zstd_level: i32) -> EncodedBlock {
    let mut encoder = BlockEncoder::new(codec);
    let mut builder = GameBuilder::new();
    let mut notes = Vec::new();
    for (number, entry) in (first_game..).zip(entries) {
        match entry {
            Entry::Game(game) => encoder.add(&game)?,
            Entry::Pgn { text, raw, source } => match read_for_storing(&text, raw, codec, &mut builder) {
                Ok(game) => encoder.add(&game)?,
                Err((line, reason)) => {
                    encoder.add_text(&text);
                    notes.push(StoredAsText {
                        game: number,
                        source,
                        line,
                        reason,
                    });
                }
            },
        }
    }
    let (payload, stats) = encoder.finish(zstd_level);
    Ok((payload, stats, notes))
}

/// The game in `text` if it reads without error and can be stored as moves; else the line and
/// the reason.
fn read_for_storing(
    text: &[u8],
    raw: RawGame,
    codec: MoveCodec,
    builder: &mut GameBuilder,
) -> Result<GameTree, (u32, String)> {
    let mut reader = raw.reader(text);
    let game = match reader.read_game(builder) {
        Ok(Some(Ok(game))) => game,
        Ok(Some(Err(error))) => return Err((error.line, error.kind.to_string())),
        Ok(None) | Err(_) => return Err((raw.first_line, "no game in the text".to_string())),
    };
    // A text holds one game; anything after it means it was not cut where the reader ends games.
    if !matches!(reader.skip_game(), Ok(false)) {
        return Err((raw.first_line, "more than one game in the text".to_string()));
    }
    super::serialize::check_game(&game, codec).map_err(|reason| (raw.first_line, reason))?;
    Ok(game)
}

fn approximate_bytes(game: &GameTree) -> usize {
    fn line_bytes(line: &Line) -> usize {
        let comments: usize = line.comments.iter().map(|c| c.as_bytes().len()).sum();
        comments
            + line
                .nodes
                .iter()
                .map(|node| {
                    1 + node.nags.len()
                        + node
                            .comments_before
                            .iter()
                            .chain(&node.comments_after)
                            .map(|c| c.as_bytes().len())
                            .sum::<usize>()
                        + node.variations.iter().map(line_bytes).sum::<usize>()
                })
                .sum::<usize>()
    }
    let tags: usize = game.tags.iter().map(|t| t.name().len() + t.raw_value().len() + 2).sum();
    tags + line_bytes(&game.moves) + usize::from(game.start != Position::startpos()) * 80
}
