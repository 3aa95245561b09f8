//! The training-data format: self-play games with a search score per position, stored in the
//! core crate's compact position code and entropy move code.
//!
//! # Layout
//!
//! All integers are unsigned LEB128 *varints* (7 bits a byte, low group first, the high bit set on
//! every byte but the last) unless said otherwise; a varint must be minimal (no trailing `0x00`
//! group) and fit in 32 bits (at most 5 bytes).
//!
//! ```text
//! file   = header game*
//! header = "CBTD" (0x43 0x42 0x54 0x44), version (one byte, 1)
//! game   = varint body_len, body (body_len bytes, at most 1 MiB)
//! body   = varint (plies * 3 + result)
//!          varint fullmove (the start position's fullmove number, ≥ 1)
//!          varint start_len, start (start_len bytes)
//!          varint moves_len, moves (moves_len bytes)
//!          scores (the bytes up to the crc)
//!          crc (4 bytes, little endian)
//! ```
//!
//! - `plies`: at most [`MAX_PLIES`] (16,384).
//! - `result`: 0 Black won, 1 draw, 2 White won ([`Wdl`]).
//! - `start`: the game's start position in the [compact position
//!   code](chessbits::codec::position::compact), which keeps everything but the fullmove number;
//!   that is `fullmove` (the move code's model depends on it).
//! - `moves`: the `plies` moves in the [entropy move code](chessbits::codec::moves::entropy)
//!   from `start` (the ply count is the one above).
//! - scores: one per position a move was played from (`plies` of them; the position after the last
//!   move has none). `s[i]` is the search score of the position before move `i`, from the side to
//!   move's view, in centipawns; a mate is `±(32000 − n)` for a mate in `n` plies (`n < 120`), so
//!   `|s| ≥ 31880` marks a mate score ([`MATE_THRESHOLD`]); `|s| ≤ 32000` always. They are stored
//!   from White's view, `w[i] = s[i]` with White to move and `−s[i]` with Black to move, as the
//!   difference to the previous one (`w[−1] = 0`), zigzag-mapped (`d ≥ 0 ↦ 2d`, `d < 0 ↦
//!   −2d − 1`): successive scores of a game are close. Each `z = zigzag(w[i] − w[i−1])` (below
//!   2^17) is coded with the core's [range coder](chessbits::codec::range_coder) as its *bucket*
//!   `b`, the bit length of `z` (0 for `z = 0`, at most 17), then, if `b ≥ 2`, the `b − 1` bits
//!   of `z` below its leading 1 as one field ([`RangeEncoder::encode_bits`]). The bucket's
//!   frequencies adapt within the game: they start as [`SCORE_PRIOR`]; after coding bucket `b`,
//!   `freq[b] += 24`, and then if their total exceeds 4096 every `freq` becomes `(freq + 1) / 2`
//!   (integer division). A bucket is coded as `[cum, cum + freq[b])` of the total, `cum` the sum
//!   of the frequencies of the buckets below it. The code ends with the coder's byte flush
//!   ([`RangeEncoder::finish`]); a game of no plies has no score bytes. About 6.8 bits a score
//!   on datagen output, against 8.5 for the same deltas in varints.
//! - `crc`: CRC-32 (IEEE 802.3, reflected polynomial `0xEDB88320`, initial value and final XOR
//!   `0xFFFFFFFF`, the checksum of zlib and PNG) of the body's bytes before it. The position and
//!   move codes detect most damage but not all (a cut entropy code may decode to another game),
//!   so the checksum makes a corrupt game an error rather than wrong data.
//!
//! # The filtering rule
//!
//! The games are self-play games: every move is the search's best move for the score stored
//! beside it. So a reader knows for every position whether it is in check, whether its best move
//! is a capture or a promotion (the move played) and whether its score is a mate score, the three
//! standard filters of [`reader`](super::reader); no flag is stored.
//!
//! A file is only ever appended to: the games are independent records, and a file cut anywhere
//! reads as its complete games followed by [`FormatError::Truncated`].
//!
//! ```
//! use chessbits::Position;
//! use chessbits_engine::datagen::format::{GameReader, GameWriter, TrainingGame, Wdl};
//! let start = Position::startpos();
//! let e4 = chessbits::notation::uci::parse_uci(&start, "e2e4").unwrap();
//! let game = TrainingGame { start, moves: vec![e4], scores: vec![30], result: Wdl::Draw };
//! let mut bytes = Vec::new();
//! let mut writer = GameWriter::new(&mut bytes).unwrap();
//! writer.write_game(&game).unwrap();
//! let mut reader = GameReader::new(&bytes[..]).unwrap();
//! assert_eq!(reader.next_game().unwrap(), Some(game));
//! assert_eq!(reader.next_game().unwrap(), None);
//! ```

use std::fmt;
use std::io::{self, Read, Write};

use chessbits::codec::moves::entropy::{EntropyError, GameDecoder, GameEncoder};
use chessbits::codec::position::compact;
use chessbits::codec::range_coder::{RangeDecoder, RangeEncoder, RangeError};
use chessbits::moves::Move;
use chessbits::pgn::read_full;
use chessbits::position::Position;
use chessbits::types::Color;

/// The first four bytes of a file.
pub const MAGIC: [u8; 4] = *b"CBTD";
/// The format version this module reads and writes.
pub const VERSION: u8 = 1;
/// The header's length in bytes.
pub const HEADER_LEN: usize = 5;
/// Largest body a game may have: a bound on what a reader allocates for hostile input.
pub const MAX_BODY_LEN: usize = 1 << 20;
/// Most plies a game may have.
pub const MAX_PLIES: u32 = 16_384;
/// The score of a mate delivered now; a mate in `n` plies is `MATE_SCORE − n`.
pub const MATE_SCORE: i32 = 32_000;
/// Scores at or beyond this (either sign) are mate scores.
pub const MATE_THRESHOLD: i32 = 31_880;
// The file stores the search's scores as they are: its mate convention is the format's.
const _: () = assert!(MATE_SCORE == crate::search::score::MATE && MATE_THRESHOLD == crate::search::score::MATE_BOUND);

/// The starting frequencies of the score buckets 0 to 17 (bit lengths of the zigzag deltas),
/// from the distribution met in datagen output.
pub const SCORE_PRIOR: [u32; 18] = [6, 2, 4, 7, 11, 15, 12, 6, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1];

/// The adaptive bucket model of the scores (see the [module docs](self)).
struct ScoreModel {
    freq: [u32; 18],
}

impl ScoreModel {
    fn new() -> ScoreModel {
        ScoreModel { freq: SCORE_PRIOR }
    }

    fn total(&self) -> u32 {
        self.freq.iter().sum()
    }

    fn cum(&self, bucket: usize) -> u32 {
        self.freq[..bucket].iter().sum()
    }

    fn observe(&mut self, bucket: usize) {
        self.freq[bucket] += 24;
        if self.total() > 4096 {
            self.freq.iter_mut().for_each(|f| *f = f.div_ceil(2));
        }
    }
}

fn encode_scores(deltas: impl Iterator<Item = u32>, out: &mut Vec<u8>) {
    let mut model = ScoreModel::new();
    let mut enc = RangeEncoder::new(out);
    let mut any = false;
    for z in deltas {
        any = true;
        let bucket = (32 - z.leading_zeros()) as usize;
        enc.encode(model.cum(bucket), model.freq[bucket], model.total());
        if bucket >= 2 {
            let bits = bucket as u32 - 1;
            enc.encode_bits(z - (1 << bits), bits);
        }
        model.observe(bucket);
    }
    if any {
        enc.finish();
    }
}

fn decode_scores(bytes: &[u8], plies: usize, out: &mut Vec<u32>) -> Result<(), RangeError> {
    if plies == 0 {
        return if bytes.is_empty() {
            Ok(())
        } else {
            Err(RangeError::NonCanonical)
        };
    }
    let mut model = ScoreModel::new();
    let mut dec = RangeDecoder::new(bytes);
    for _ in 0..plies {
        let target = dec.target(model.total())?;
        let mut cum = 0;
        let bucket = (0..18)
            .find(|&b| {
                cum += model.freq[b];
                target < cum
            })
            .ok_or(RangeError::Corrupt)?;
        let freq = model.freq[bucket];
        dec.consume(cum - freq, freq)?;
        let z = match bucket {
            0 => 0,
            1 => 1,
            b => (1 << (b - 1)) | dec.decode_bits(b as u32 - 1)?,
        };
        model.observe(bucket);
        out.push(z);
    }
    dec.finish()
}

/// A game's result, from White's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Wdl {
    /// 0-1.
    BlackWins = 0,
    /// 1/2-1/2.
    Draw = 1,
    /// 1-0.
    WhiteWins = 2,
}

impl Wdl {
    /// The result as the code stores it.
    pub fn code(self) -> u32 {
        self as u32
    }

    /// The result of a code (0, 1 or 2).
    pub fn from_code(code: u32) -> Option<Wdl> {
        match code {
            0 => Some(Wdl::BlackWins),
            1 => Some(Wdl::Draw),
            2 => Some(Wdl::WhiteWins),
            _ => None,
        }
    }

    /// The result for `color`: 1 won, 0.5 drawn, 0 lost (the trainer's target).
    ///
    /// ```
    /// use chessbits::Color;
    /// use chessbits_engine::datagen::format::Wdl;
    /// assert_eq!(Wdl::WhiteWins.for_color(Color::Black), 0.0);
    /// assert_eq!(Wdl::Draw.for_color(Color::White), 0.5);
    /// ```
    pub fn for_color(self, color: Color) -> f32 {
        let white = self.code() as f32 / 2.0;
        match color {
            Color::White => white,
            Color::Black => 1.0 - white,
        }
    }
}

/// One game of training data.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TrainingGame {
    /// The position the game starts from (after its opening moves).
    pub start: Position,
    /// The moves, each legal in the position before it.
    pub moves: Vec<Move>,
    /// The search score of the position before each move, from the side to move's view
    /// (centipawns; see [`MATE_THRESHOLD`]); as many as moves.
    pub scores: Vec<i32>,
    /// How the game ended.
    pub result: Wdl,
}

/// What is wrong with a file or a game given to the writer.
#[derive(Debug)]
#[non_exhaustive]
pub enum FormatError {
    /// Reading or writing failed.
    Io(io::Error),
    /// The file does not start with [`MAGIC`].
    BadMagic,
    /// The header names a version this reader does not know.
    UnsupportedVersion(u8),
    /// The file ends inside game `game` (0-based) or inside the header.
    Truncated {
        /// The index of the incomplete game.
        game: u64,
    },
    /// Game `game` is not what the writer writes; `what` says where it fails.
    Corrupt {
        /// The index of the game.
        game: u64,
        /// What is wrong.
        what: String,
    },
    /// The writer was given a game it cannot store; the text says why.
    InvalidGame(String),
}

impl fmt::Display for FormatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FormatError::Io(e) => write!(f, "{e}"),
            FormatError::BadMagic => f.write_str("not a training-data file (bad magic bytes)"),
            FormatError::UnsupportedVersion(v) => write!(f, "training-data format version {v} is not supported"),
            FormatError::Truncated { game } => write!(f, "the file ends inside game {game}"),
            FormatError::Corrupt { game, what } => write!(f, "game {game} is corrupt: {what}"),
            FormatError::InvalidGame(why) => write!(f, "cannot store the game: {why}"),
        }
    }
}

impl std::error::Error for FormatError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            FormatError::Io(e) => Some(e),
            _ => None,
        }
    }
}

impl From<io::Error> for FormatError {
    fn from(e: io::Error) -> FormatError {
        FormatError::Io(e)
    }
}

/// CRC-32 (IEEE) of `bytes`, bitwise over a 256-entry table built on first use.
pub fn crc32(bytes: &[u8]) -> u32 {
    static TABLE: std::sync::OnceLock<[u32; 256]> = std::sync::OnceLock::new();
    let table = TABLE.get_or_init(|| {
        let mut t = [0u32; 256];
        for (i, entry) in t.iter_mut().enumerate() {
            let mut c = i as u32;
            for _ in 0..8 {
                c = if c & 1 != 0 { 0xEDB8_8320 ^ (c >> 1) } else { c >> 1 };
            }
            *entry = c;
        }
        t
    });
    !bytes
        .iter()
        .fold(!0u32, |c, &b| table[((c ^ u32::from(b)) & 0xFF) as usize] ^ (c >> 8))
}

fn put_varint(out: &mut Vec<u8>, mut v: u32) {
    while v >= 0x80 {
        out.push((v as u8) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

fn zigzag(d: i32) -> u32 {
    ((d << 1) ^ (d >> 31)) as u32
}

fn unzigzag(z: u32) -> i32 {
    (z >> 1) as i32 ^ -((z & 1) as i32)
}

/// Why a varint could not be read from a slice.
enum VarintError {
    End,
    Invalid,
}

/// Reads a minimal varint of at most 32 bits from `bytes` at `*at`.
fn get_varint(bytes: &[u8], at: &mut usize) -> Result<u32, VarintError> {
    let mut v: u64 = 0;
    for i in 0..5 {
        let &b = bytes.get(*at).ok_or(VarintError::End)?;
        *at += 1;
        v |= u64::from(b & 0x7F) << (7 * i);
        if b & 0x80 == 0 {
            if (b == 0 && i > 0) || v > u64::from(u32::MAX) {
                return Err(VarintError::Invalid);
            }
            return Ok(v as u32);
        }
    }
    Err(VarintError::Invalid)
}

/// Appends the body of `game` (see the module docs) to `out`; on error `out` is unchanged.
pub fn encode_body(game: &TrainingGame, encoder: &mut GameEncoder, out: &mut Vec<u8>) -> Result<(), FormatError> {
    let invalid = |s: String| FormatError::InvalidGame(s);
    if game.scores.len() != game.moves.len() {
        return Err(invalid(format!(
            "{} scores for {} moves",
            game.scores.len(),
            game.moves.len()
        )));
    }
    if let Some(s) = game.scores.iter().find(|s| s.abs() > MATE_SCORE) {
        return Err(invalid(format!("score {s} out of range")));
    }
    // The reader accepts only positions a game can reach (`Position::from_setup`): a composed
    // start (more material than a game can give) would be written and then read as corrupt.
    Position::from_setup(game.start.to_setup()).map_err(|e| invalid(format!("start position: {e}")))?;
    let start = compact::encode(&game.start.to_setup()).map_err(|e| invalid(e.to_string()))?;
    let mut moves = Vec::new();
    encoder
        .encode_into(&game.start, &game.moves, &mut moves)
        .map_err(|e| invalid(e.to_string()))?;
    let plies = u32::try_from(game.moves.len()).ok().filter(|&p| p <= MAX_PLIES);
    let plies = plies.ok_or_else(|| invalid(format!("more than {MAX_PLIES} moves")))?;
    let begin = out.len();
    put_varint(out, plies * 3 + game.result.code());
    put_varint(out, game.start.to_setup().fullmove_number);
    put_varint(out, start.len() as u32);
    out.extend_from_slice(&start);
    put_varint(out, moves.len() as u32);
    out.extend_from_slice(&moves);
    let mut turn = game.start.turn();
    let mut previous = 0;
    let deltas = game.scores.iter().map(|&s| {
        let white = if turn == Color::White { s } else { -s };
        let z = zigzag(white - previous);
        previous = white;
        turn = !turn;
        z
    });
    encode_scores(deltas, out);
    let crc = crc32(&out[begin..]);
    out.extend_from_slice(&crc.to_le_bytes());
    if out.len() - begin > MAX_BODY_LEN {
        out.truncate(begin);
        return Err(invalid("the game's record is over 1 MiB".into()));
    }
    Ok(())
}

/// Appends a whole game record (length and body) to `out`.
pub fn encode_record(game: &TrainingGame, encoder: &mut GameEncoder, out: &mut Vec<u8>) -> Result<(), FormatError> {
    let mut body = Vec::new();
    encode_body(game, encoder, &mut body)?;
    put_varint(out, body.len() as u32);
    out.extend_from_slice(&body);
    Ok(())
}

/// Decodes a game body whose checksum was checked; `index` names the game in errors.
pub fn decode_body(body: &[u8], index: u64, decoder: &mut GameDecoder) -> Result<TrainingGame, FormatError> {
    let corrupt = |what: String| FormatError::Corrupt { game: index, what };
    let field = |at: &mut usize, name: &str| {
        get_varint(body, at).map_err(|_| FormatError::Corrupt {
            game: index,
            what: format!("bad {name} field"),
        })
    };
    let mut at = 0;
    let head = field(&mut at, "ply count")?;
    let (plies, result) = (head / 3, Wdl::from_code(head % 3).expect("a remainder of 3"));
    let fullmove = field(&mut at, "fullmove number")?;
    if fullmove == 0 {
        return Err(corrupt("fullmove number 0".into()));
    }
    let start_len = field(&mut at, "start length")? as usize;
    let start_bytes = body
        .get(at..at.saturating_add(start_len))
        .ok_or_else(|| corrupt("start position past the end".into()))?;
    at += start_len;
    let mut setup = compact::decode(start_bytes).map_err(|e| corrupt(format!("start position: {e}")))?;
    setup.fullmove_number = fullmove;
    let start = Position::from_setup(setup).map_err(|e| corrupt(format!("start position: {e}")))?;
    let moves_len = field(&mut at, "moves length")? as usize;
    let move_bytes = body
        .get(at..at.saturating_add(moves_len))
        .ok_or_else(|| corrupt("moves past the end".into()))?;
    at += moves_len;
    // Forced moves and repeated scores cost almost nothing, so the bytes do not bound the ply
    // count: the format does, which bounds the work and the allocation below.
    if plies > MAX_PLIES {
        return Err(corrupt(format!("{plies} plies, more than {MAX_PLIES}")));
    }
    let mut moves = Vec::with_capacity(plies as usize);
    decoder
        .decode_into(&start, move_bytes, plies as usize, &mut moves)
        .map_err(|e: EntropyError| corrupt(format!("moves: {e}")))?;
    let mut deltas = Vec::with_capacity(plies as usize);
    decode_scores(&body[at..], plies as usize, &mut deltas).map_err(|e| corrupt(format!("scores: {e}")))?;
    let mut scores = Vec::with_capacity(plies as usize);
    let mut turn = start.turn();
    let mut previous: i32 = 0;
    for z in deltas {
        let d = unzigzag(z);
        let white = previous
            .checked_add(d)
            .filter(|w| w.abs() <= MATE_SCORE)
            .ok_or_else(|| corrupt("score out of range".into()))?;
        scores.push(if turn == Color::White { white } else { -white });
        previous = white;
        turn = !turn;
    }
    Ok(TrainingGame {
        start,
        moves,
        scores,
        result,
    })
}

/// Writes games to a file: the header, then one record per [`GameWriter::write_game`].
pub struct GameWriter<W: Write> {
    out: W,
    encoder: GameEncoder,
    buf: Vec<u8>,
}

impl<W: Write> GameWriter<W> {
    /// A writer for a new file: writes the header.
    pub fn new(mut out: W) -> Result<GameWriter<W>, FormatError> {
        out.write_all(&header())?;
        Ok(GameWriter::append(out))
    }

    /// A writer that appends games to a file whose header and games are already there.
    pub fn append(out: W) -> GameWriter<W> {
        GameWriter {
            out,
            encoder: GameEncoder::new(),
            buf: Vec::new(),
        }
    }

    /// Writes one game; returns the bytes it took.
    pub fn write_game(&mut self, game: &TrainingGame) -> Result<usize, FormatError> {
        self.buf.clear();
        encode_record(game, &mut self.encoder, &mut self.buf)?;
        self.out.write_all(&self.buf)?;
        Ok(self.buf.len())
    }

    /// Writes records made by [`encode_record`] as they are.
    pub fn write_record(&mut self, record: &[u8]) -> Result<(), FormatError> {
        Ok(self.out.write_all(record)?)
    }

    /// Flushes and returns the output.
    pub fn finish(mut self) -> Result<W, FormatError> {
        self.out.flush()?;
        Ok(self.out)
    }
}

/// The header bytes.
pub fn header() -> [u8; HEADER_LEN] {
    [MAGIC[0], MAGIC[1], MAGIC[2], MAGIC[3], VERSION]
}

/// Reads games from a file, one at a time.
pub struct GameReader<R: Read> {
    input: R,
    decoder: GameDecoder,
    body: Vec<u8>,
    games: u64,
    offset: u64,
}

impl<R: Read> GameReader<R> {
    /// Reads and checks the header.
    pub fn new(mut input: R) -> Result<GameReader<R>, FormatError> {
        let mut head = [0u8; HEADER_LEN];
        let n = read_full(&mut input, &mut head)?;
        if head[..n.min(4)] != MAGIC[..n.min(4)] {
            return Err(FormatError::BadMagic);
        }
        if n < HEADER_LEN {
            return Err(FormatError::Truncated { game: 0 });
        }
        if head[4] != VERSION {
            return Err(FormatError::UnsupportedVersion(head[4]));
        }
        Ok(GameReader {
            input,
            decoder: GameDecoder::new(),
            body: Vec::new(),
            games: 0,
            offset: HEADER_LEN as u64,
        })
    }

    /// The number of games read so far.
    pub fn games_read(&self) -> u64 {
        self.games
    }

    /// The byte offset of the end of the last game read (the header's end before the first).
    pub fn offset(&self) -> u64 {
        self.offset
    }

    /// The next game's body, its length and checksum checked; `None` at the end of the file.
    pub fn next_body(&mut self) -> Result<Option<&[u8]>, FormatError> {
        let game = self.games;
        let mut len: u64 = 0;
        let mut len_bytes = 0;
        loop {
            let mut byte = [0u8; 1];
            if read_full(&mut self.input, &mut byte)? == 0 {
                if len_bytes == 0 {
                    return Ok(None);
                }
                return Err(FormatError::Truncated { game });
            }
            len |= u64::from(byte[0] & 0x7F) << (7 * len_bytes);
            len_bytes += 1;
            if byte[0] & 0x80 == 0 {
                if byte[0] == 0 && len_bytes > 1 {
                    return Err(corrupt_at(game, "non-minimal length"));
                }
                break;
            }
            if len_bytes == 3 {
                return Err(corrupt_at(game, "record length over 1 MiB"));
            }
        }
        let len = len as usize;
        if len > MAX_BODY_LEN {
            return Err(corrupt_at(game, "record length over 1 MiB"));
        }
        if len < 4 {
            return Err(corrupt_at(game, "record shorter than its checksum"));
        }
        self.body.resize(len, 0);
        if read_full(&mut self.input, &mut self.body)? < len {
            return Err(FormatError::Truncated { game });
        }
        let (content, crc) = self.body.split_at(len - 4);
        if crc32(content) != u32::from_le_bytes(crc.try_into().expect("four bytes")) {
            return Err(corrupt_at(game, "checksum mismatch"));
        }
        self.games += 1;
        self.offset += (len_bytes + len) as u64;
        Ok(Some(content))
    }

    /// The next game; `None` at the end of the file.
    pub fn next_game(&mut self) -> Result<Option<TrainingGame>, FormatError> {
        let index = self.games;
        if self.next_body()?.is_none() {
            return Ok(None);
        }
        let len = self.body.len() - 4;
        decode_body(&self.body[..len], index, &mut self.decoder).map(Some)
    }
}

fn corrupt_at(game: u64, what: &str) -> FormatError {
    FormatError::Corrupt {
        game,
        what: what.to_string(),
    }
}
