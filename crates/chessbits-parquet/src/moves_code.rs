//! Which move code fills the `moves` column: the smallest (entropy) or the fastest (index byte).

use core::cell::RefCell;
use core::fmt;
use core::str::FromStr;

use chessbits::codec::moves::entropy::{GameDecoder, GameEncoder};
use chessbits::codec::moves::index;
use chessbits::moves::Move;
use chessbits::position::Position;

/// The key of the `moves` field's Arrow metadata (also a Parquet key-value entry of every file)
/// that names its code: `entropy` or `index-byte`.
pub const MOVES_CODE_KEY: &str = "chessbits.moves_code";

/// The move code of the `moves` column.
///
/// - [`MovesCode::Entropy`] (default): the library's entropy code
///   ([`chessbits::codec::moves::entropy`]), about 3.2 bits a move on lichess games; decoding
///   needs the ply count (`plies`).
/// - [`MovesCode::IndexByte`]: one byte a move, the move's index in the legal move list
///   ([`chessbits::codec::moves::index::encode_game_bytes`]); 8 bits a move, faster to write and
///   read.
///
/// ```
/// use chessbits::notation::uci::parse_uci;
/// use chessbits::position::Position;
/// use chessbits_parquet::MovesCode;
/// let start = Position::startpos();
/// let moves = [parse_uci(&start, "e2e4").unwrap()];
/// for code in [MovesCode::Entropy, MovesCode::IndexByte] {
///     let bytes = code.encode(&start, &moves).unwrap();
///     assert_eq!(code.decode(&start, &bytes, 1).unwrap(), moves);
///     assert_eq!(code.name().parse::<MovesCode>(), Ok(code));
/// }
/// ```
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum MovesCode {
    /// The entropy code: smallest.
    #[default]
    Entropy,
    /// One byte a move: fastest.
    IndexByte,
}

impl MovesCode {
    /// Every code, the default first.
    pub const ALL: [MovesCode; 2] = [MovesCode::Entropy, MovesCode::IndexByte];

    /// The code's name, as in the column metadata and the golden files: `entropy`, `index-byte`.
    ///
    /// ```
    /// assert_eq!(chessbits_parquet::MovesCode::IndexByte.name(), "index-byte");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            MovesCode::Entropy => "entropy",
            MovesCode::IndexByte => "index-byte",
        }
    }

    /// The code of a main line from `start`; `None` if the code cannot hold it (a null move, or
    /// an illegal one).
    ///
    /// ```
    /// use chessbits::moves::Move;
    /// use chessbits::position::Position;
    /// use chessbits_parquet::MovesCode;
    /// assert_eq!(MovesCode::IndexByte.encode(&Position::startpos(), &[Move::NULL]), None);
    /// ```
    pub fn encode(self, start: &Position, moves: &[Move]) -> Option<Vec<u8>> {
        if moves.iter().any(|m| m.is_null()) {
            return None;
        }
        match self {
            MovesCode::Entropy => {
                // One encoder per thread: its tables are reused from game to game.
                thread_local! {
                    static ENCODER: RefCell<GameEncoder> = RefCell::new(GameEncoder::new());
                }
                let mut bytes = Vec::with_capacity(moves.len() / 2 + 2);
                ENCODER
                    .with_borrow_mut(|encoder| encoder.encode_into(start, moves, &mut bytes))
                    .ok()?;
                Some(bytes)
            }
            MovesCode::IndexByte => index::encode_game_bytes(start, moves).ok(),
        }
    }

    /// The main line of `plies` moves coded in `bytes`, or why the bytes are not one.
    ///
    /// ```
    /// use chessbits::position::Position;
    /// use chessbits_parquet::MovesCode;
    /// assert!(MovesCode::IndexByte.decode(&Position::startpos(), &[200], 1).is_err());
    /// ```
    pub fn decode(self, start: &Position, bytes: &[u8], plies: usize) -> Result<Vec<Move>, String> {
        let mut moves = Vec::with_capacity(plies.min(1024));
        self.decode_into(start, bytes, plies, &mut moves)?;
        Ok(moves)
    }

    /// [`decode`](Self::decode) into `moves` (cleared first), which keeps its allocation from
    /// game to game; the entropy decoder's tables are reused per thread too.
    ///
    /// ```
    /// use chessbits::position::Position;
    /// use chessbits_parquet::MovesCode;
    /// let start = Position::startpos();
    /// let mut moves = Vec::new();
    /// MovesCode::Entropy.decode_into(&start, &[], 0, &mut moves).unwrap();
    /// assert!(moves.is_empty());
    /// assert!(MovesCode::Entropy.decode_into(&start, &[], 3, &mut moves).is_err());
    /// ```
    pub fn decode_into(
        self,
        start: &Position,
        bytes: &[u8],
        plies: usize,
        moves: &mut Vec<Move>,
    ) -> Result<(), String> {
        moves.clear();
        match self {
            MovesCode::Entropy => {
                // One decoder per thread: a new one allocates and zeroes its tables (tens of kB),
                // a cost comparable to decoding a short game.
                thread_local! {
                    static DECODER: RefCell<GameDecoder> = RefCell::new(GameDecoder::new());
                }
                DECODER
                    .with_borrow_mut(|decoder| decoder.decode_into(start, bytes, plies, moves))
                    .map_err(|e| e.to_string())?;
            }
            MovesCode::IndexByte => *moves = index::decode_game_bytes(start, bytes).map_err(|e| e.to_string())?,
        }
        if moves.len() != plies {
            return Err(format!("{} moves where plies says {plies}", moves.len()));
        }
        Ok(())
    }
}

impl fmt::Display for MovesCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.name())
    }
}

impl FromStr for MovesCode {
    type Err = String;

    /// A code by name; `index` is short for `index-byte`.
    fn from_str(s: &str) -> Result<MovesCode, String> {
        match s {
            "entropy" => Ok(MovesCode::Entropy),
            "index" | "index-byte" => Ok(MovesCode::IndexByte),
            _ => Err(format!("unknown moves code '{s}' (entropy, index-byte)")),
        }
    }
}
