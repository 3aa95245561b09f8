//! The move codecs a block can use, each with a stable id byte.
//!
//! A codec writes the moves of a whole block (every game, every variation, in the order the
//! game serializer visits them) as one stream, given the position before each move. Null moves
//! never reach the codec: the node flags mark them.

use core::fmt;
use core::str::FromStr;

use super::error::{Corrupt, DecodeResult};
use super::varint::ByteReader;
use chessbits::codec::bits::{BitReader, BitWriter};
use chessbits::codec::moves::entropy::model::MoveModel;
use chessbits::codec::moves::index::{self, MoveListKind};
use chessbits::codec::range_coder::{RangeDecoder, RangeEncoder};
use chessbits::lists::MoveList;
use chessbits::moves::Move;
use chessbits::position::Position;

/// The move code of an archive, stored as its id byte in the file header and in every block.
///
/// | id | name | code |
/// |---|---|---|
/// | 1 | `index-byte` | one byte per move: its index in [`Position::legal_moves`] |
/// | 2 | `index` | ⌈log₂ n⌉ bits per move (n legal moves; none when n = 1): the same index, MSB first ([`codec::moves::index`](chessbits::codec::moves::index)) |
/// | 3 | `entropy` | the block's moves range-coded as one stream with the probabilities of [`MoveModel`] ([`codec::moves::entropy`](chessbits::codec::moves::entropy)) |
///
/// For `entropy` the model is reset at the start of every game and observes every coded move in
/// the order the block visits them (main line and variations alike; null moves are not coded
/// and not observed); each move is coded with the model's frequencies of the legal moves of its
/// position, cumulative frequency = the sum over the moves before it in the legal list. The
/// range coder is flushed once, at the end of the block.
///
/// Ids are never reused: a new codec gets a new id.
///
/// ```
/// use chessbits_archive::MoveCodec;
/// assert_eq!(MoveCodec::from_id(2), Some(MoveCodec::IndexBits));
/// assert_eq!("index-byte".parse::<MoveCodec>(), Ok(MoveCodec::IndexByte));
/// assert_eq!(MoveCodec::IndexBits.to_string(), "index");
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub enum MoveCodec {
    /// One byte per move: the index into the legal move list (id 1); the fastest.
    IndexByte,
    /// ⌈log₂ n⌉ bits per move: the index into the legal move list of n moves (id 2).
    IndexBits,
    /// Range coding with the move model of [`codec::moves::entropy`](chessbits::codec::moves::entropy)
    /// (id 3): the smallest.
    #[default]
    Entropy,
}

impl MoveCodec {
    /// Every codec this version knows, in id order.
    ///
    /// ```
    /// use chessbits_archive::MoveCodec;
    /// assert!(MoveCodec::ALL.windows(2).all(|w| w[0].id() < w[1].id()));
    /// ```
    pub const ALL: [MoveCodec; 3] = [MoveCodec::IndexByte, MoveCodec::IndexBits, MoveCodec::Entropy];

    /// The id byte.
    ///
    /// ```
    /// use chessbits_archive::MoveCodec;
    /// assert_eq!(MoveCodec::IndexByte.id(), 1);
    /// ```
    pub const fn id(self) -> u8 {
        match self {
            MoveCodec::IndexByte => 1,
            MoveCodec::IndexBits => 2,
            MoveCodec::Entropy => 3,
        }
    }

    /// The codec with this id byte.
    ///
    /// ```
    /// use chessbits_archive::MoveCodec;
    /// assert_eq!(MoveCodec::from_id(0), None);
    /// ```
    pub fn from_id(id: u8) -> Option<MoveCodec> {
        MoveCodec::ALL.into_iter().find(|codec| codec.id() == id)
    }

    /// The name the command line uses.
    ///
    /// ```
    /// use chessbits_archive::MoveCodec;
    /// assert_eq!(MoveCodec::IndexByte.name(), "index-byte");
    /// ```
    pub const fn name(self) -> &'static str {
        match self {
            MoveCodec::IndexByte => "index-byte",
            MoveCodec::IndexBits => "index",
            MoveCodec::Entropy => "entropy",
        }
    }
}

impl fmt::Display for MoveCodec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A codec name that is not one of [`MoveCodec::ALL`].
///
/// ```
/// use chessbits_archive::MoveCodec;
/// let error = "huffman".parse::<MoveCodec>().unwrap_err();
/// assert!(error.to_string().contains("index-byte"));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownCodecName(pub String);

impl fmt::Display for UnknownCodecName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<&str> = MoveCodec::ALL.iter().map(|c| c.name()).collect();
        write!(f, "unknown codec '{}' (known: {})", self.0, names.join(", "))
    }
}

impl std::error::Error for UnknownCodecName {}

impl FromStr for MoveCodec {
    type Err = UnknownCodecName;

    fn from_str(s: &str) -> Result<MoveCodec, UnknownCodecName> {
        MoveCodec::ALL
            .into_iter()
            .find(|c| c.name() == s)
            .ok_or_else(|| UnknownCodecName(s.to_string()))
    }
}

/// Writes the moves of one block.
pub(crate) enum MoveWriter {
    Bytes(Vec<u8>),
    Bits(BitWriter),
    /// The model, and the (cumulative frequency, frequency, total) of every move so far: the
    /// range coder borrows its output, so it runs at the end.
    Entropy(Box<MoveModel>, Vec<(u32, u32, u32)>),
}

impl MoveWriter {
    pub(crate) fn new(codec: MoveCodec) -> MoveWriter {
        match codec {
            MoveCodec::IndexByte => MoveWriter::Bytes(Vec::new()),
            MoveCodec::IndexBits => MoveWriter::Bits(BitWriter::new()),
            MoveCodec::Entropy => MoveWriter::Entropy(Box::default(), Vec::new()),
        }
    }

    /// A new game starts: the entropy model forgets the previous one.
    pub(crate) fn start_game(&mut self) {
        if let MoveWriter::Entropy(model, _) = self {
            model.reset();
        }
    }

    /// Writes `m`, which must be legal in `pos`; `list` is scratch space.
    pub(crate) fn write(&mut self, pos: &Position, list: &mut MoveList, m: Move) -> Result<(), String> {
        match self {
            MoveWriter::Bytes(bytes) => {
                pos.legal_moves_into(list);
                let index = list
                    .iter()
                    .position(|&legal| legal == m)
                    .ok_or_else(|| format!("illegal move {m}"))?;
                // At most 218 legal moves: the index always fits.
                let byte = u8::try_from(index).map_err(|_| format!("move index {index} does not fit a byte"))?;
                bytes.push(byte);
            }
            MoveWriter::Bits(bits) => {
                index::write_bit_index(pos, MoveListKind::Legal, m, bits).map_err(|e| e.to_string())?;
            }
            MoveWriter::Entropy(model, symbols) => {
                let symbol = model.symbol_of(pos, m).ok_or_else(|| format!("illegal move {m}"))?;
                symbols.push(symbol);
                model.observe(pos, m);
            }
        }
        Ok(())
    }

    pub(crate) fn finish(self) -> Vec<u8> {
        match self {
            MoveWriter::Bytes(bytes) => bytes,
            MoveWriter::Bits(bits) => bits.finish(),
            MoveWriter::Entropy(_, symbols) => {
                let mut out = Vec::with_capacity(symbols.len() / 2 + 4);
                let mut encoder = RangeEncoder::new(&mut out);
                for (cum, freq, total) in symbols {
                    encoder.encode(cum, freq, total);
                }
                encoder.finish();
                out
            }
        }
    }
}

/// Reads the moves of one block.
pub(crate) enum MoveReader<'a> {
    Bytes(ByteReader<'a>),
    Bits(BitReader<'a>),
    Entropy(Box<MoveModel>, RangeDecoder<'a>),
}

impl<'a> MoveReader<'a> {
    pub(crate) fn new(codec: MoveCodec, data: &'a [u8]) -> MoveReader<'a> {
        match codec {
            MoveCodec::IndexByte => MoveReader::Bytes(ByteReader::new(data, "moves")),
            MoveCodec::IndexBits => MoveReader::Bits(BitReader::new(data)),
            MoveCodec::Entropy => MoveReader::Entropy(Box::default(), RangeDecoder::new(data)),
        }
    }

    /// A new game starts: the entropy model forgets the previous one.
    pub(crate) fn start_game(&mut self) {
        if let MoveReader::Entropy(model, _) = self {
            model.reset();
        }
    }

    /// The next move, checked to be legal in `pos`; `list` is scratch space.
    pub(crate) fn read(&mut self, pos: &Position, list: &mut MoveList) -> DecodeResult<Move> {
        match self {
            MoveReader::Bytes(bytes) => {
                pos.legal_moves_into(list);
                let index = usize::from(bytes.u8()?);
                list.get(index)
                    .copied()
                    .ok_or_else(|| Corrupt(format!("move index {index} of {} legal moves", list.len())))
            }
            MoveReader::Bits(bits) => {
                index::read_bit_index(pos, MoveListKind::Legal, bits).map_err(|e| Corrupt(format!("moves: {e}")))
            }
            MoveReader::Entropy(model, decoder) => {
                let total = model.prepare(pos);
                if total == 0 {
                    return Err(Corrupt::new("a move where there is no legal move"));
                }
                let corrupt = |e| Corrupt(format!("moves: {e}"));
                let target = decoder.target(total).map_err(corrupt)?;
                let (m, cum, freq) = model
                    .find(target)
                    .ok_or_else(|| Corrupt::new("moves: code beyond the last move"))?;
                decoder.consume(cum, freq).map_err(corrupt)?;
                model.observe(pos, m);
                Ok(m)
            }
        }
    }

    /// Fails unless the stream was read to its end (bit streams: up to the zero padding).
    pub(crate) fn expect_end(&mut self) -> DecodeResult<()> {
        match self {
            MoveReader::Bytes(bytes) => bytes.expect_end(),
            MoveReader::Entropy(_, decoder) => decoder
                .finish()
                .map_err(|e| Corrupt(format!("moves section does not end where its moves end: {e}"))),
            MoveReader::Bits(bits) => {
                let padding = bits.remaining();
                if padding >= 8 || bits.read(padding as u32).ok() != Some(0) {
                    return Err(Corrupt::new("moves section has unread bits"));
                }
                Ok(())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_and_names_are_unique_and_round_trip() {
        for codec in MoveCodec::ALL {
            assert_eq!(MoveCodec::from_id(codec.id()), Some(codec));
            assert_eq!(codec.name().parse::<MoveCodec>(), Ok(codec));
        }
    }

    #[test]
    fn moves_round_trip_through_every_codec() {
        let mut list = MoveList::new();
        for codec in MoveCodec::ALL {
            let mut pos = Position::startpos();
            let mut writer = MoveWriter::new(codec);
            let mut played = Vec::new();
            for ply in 0..40 {
                pos.legal_moves_into(&mut list);
                if list.is_empty() {
                    break;
                }
                let m = list[(ply * 7) % list.len()];
                writer.write(&pos, &mut list, m).unwrap();
                played.push(m);
                pos.play_unchecked(m);
            }
            let bytes = writer.finish();
            let mut reader = MoveReader::new(codec, &bytes);
            let mut pos = Position::startpos();
            for &m in &played {
                assert_eq!(reader.read(&pos, &mut list), Ok(m));
                pos.play_unchecked(m);
            }
            assert_eq!(reader.expect_end(), Ok(()));
        }
    }

    /// The entropy moves of `games` (each a ply count and a move picker) played from the start.
    fn entropy_section(games: &[(usize, usize)]) -> (Vec<Vec<Move>>, Vec<u8>) {
        let mut list = MoveList::new();
        let mut writer = MoveWriter::new(MoveCodec::Entropy);
        let mut played = Vec::new();
        for &(plies, pick) in games {
            writer.start_game();
            let mut pos = Position::startpos();
            let mut game = Vec::new();
            for ply in 0..plies {
                pos.legal_moves_into(&mut list);
                let m = list[(ply * pick) % list.len()];
                writer.write(&pos, &mut list, m).unwrap();
                game.push(m);
                pos.play_unchecked(m);
            }
            played.push(game);
        }
        (played, writer.finish())
    }

    /// Reads games of the given ply counts out of `bytes` to its end: the moves, or the error.
    fn read_section(bytes: &[u8], plies: &[usize]) -> DecodeResult<Vec<Vec<Move>>> {
        let mut list = MoveList::new();
        let mut reader = MoveReader::new(MoveCodec::Entropy, bytes);
        let mut games = Vec::new();
        for &count in plies {
            reader.start_game();
            let mut pos = Position::startpos();
            let mut game = Vec::new();
            for _ in 0..count {
                let m = reader.read(&pos, &mut list)?;
                game.push(m);
                pos.play_unchecked(m);
            }
            games.push(game);
        }
        reader.expect_end()?;
        Ok(games)
    }

    #[test]
    fn cut_entropy_sections_and_extra_plies_are_errors_unless_another_sections_code() {
        // The block's checksums catch damage first; behind them, the moves section itself stops
        // at bytes no writer makes for these ply counts. What passes is exactly the section of
        // other games of those lengths: the code stores no length, no reader can tell.
        // (accepted, tried): one ply more in the last game, the section cut by one byte, by more.
        let mut outcomes = [(0, 0); 3];
        for pick in 1..40 {
            let shape = [(12, pick), (30 + pick % 7, pick + 3), (21, 2 * pick + 1)];
            let (played, bytes) = entropy_section(&shape);
            let plies: Vec<usize> = shape.iter().map(|s| s.0).collect();
            assert_eq!(read_section(&bytes, &plies), Ok(played.clone()));
            let mut longer = plies.clone();
            *longer.last_mut().unwrap() += 1;
            let n = bytes.len();
            let mut cases = vec![(0, &bytes[..], longer), (1, &bytes[..n - 1], plies.clone())];
            cases.extend((0..n - 1).map(|len| (2, &bytes[..len], plies.clone())));
            for (kind, code, counts) in cases {
                outcomes[kind].1 += 1;
                if let Ok(games) = read_section(code, &counts) {
                    outcomes[kind].0 += 1;
                    assert_ne!(games, played);
                    assert_eq!(games.iter().map(Vec::len).collect::<Vec<_>>(), counts);
                    // Re-encoding what was read gives exactly the bytes read.
                    let mut writer = MoveWriter::new(MoveCodec::Entropy);
                    let mut list = MoveList::new();
                    for game in &games {
                        writer.start_game();
                        let mut pos = Position::startpos();
                        for &m in game {
                            writer.write(&pos, &mut list, m).unwrap();
                            pos.play_unchecked(m);
                        }
                    }
                    assert_eq!(writer.finish(), code);
                }
            }
        }
        // One ply more passes here every time (the flush leaves room for a likely move); a cut
        // by one byte is caught in part, a cut by more nearly always.
        assert!(outcomes[1].0 < outcomes[1].1, "{outcomes:?}");
        assert!(
            outcomes[2].1 > 1000 && outcomes[2].0 * 40 < outcomes[2].1,
            "{outcomes:?}"
        );
    }
}
