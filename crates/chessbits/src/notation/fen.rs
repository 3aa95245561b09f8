//! Forsyth–Edwards Notation, with X-FEN and Shredder-FEN castling for Chess960.
//!
//! `board turn castling en-passant [halfmove fullmove]`: the clocks may be missing (as in EPD);
//! castling letters are `KQkq` (the outermost rook on that side of the king: X-FEN, which is
//! standard FEN for ordinary positions) or rook files `A`–`H`/`a`–`h` (Shredder-FEN).

use core::fmt;
use core::str::FromStr;

use crate::position::{Board, Position, PositionError, Setup, Validation};
use crate::types::{Bitboard, CastlingRights, CastlingSide, Color, File, Piece, Rank, Role, Square};

/// Why a FEN could not be read. Every way a FEN can be wrong has its own variant.
///
/// ```
/// use chessbits::notation::fen::FenError;
/// use chessbits::position::Position;
/// assert_eq!(Position::from_fen("8/8/8 w - -"), Err(FenError::RankCount(3)));
/// assert!(matches!(Position::from_fen("4k3/8/8/8/8/8/8/4K3 x - -"), Err(FenError::InvalidTurn(_))));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum FenError {
    /// Fewer than 4 or more than 6 space-separated fields.
    FieldCount(usize),
    /// A character that is neither a piece letter, a digit 1–8, nor `/`.
    InvalidPiece(char),
    /// A rank (numbered 1–8) that does not describe exactly 8 squares.
    RankLength(u8),
    /// Not exactly 8 ranks.
    RankCount(usize),
    /// Side to move other than `w` or `b`.
    InvalidTurn(String),
    /// A castling field that is not `-` or a set of valid letters, or a letter naming no rook.
    InvalidCastling(String),
    /// An en passant field that is not `-` or a square on the third or sixth rank.
    InvalidEpSquare(String),
    /// A halfmove clock that is not a number.
    InvalidHalfmoveClock(String),
    /// A fullmove number that is not a positive number.
    InvalidFullmoveNumber(String),
    /// The FEN is well formed but the position is not valid.
    Position(PositionError),
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FenError::FieldCount(n) => write!(f, "FEN has {n} fields, expected 4 to 6"),
            FenError::InvalidPiece(c) => write!(f, "invalid piece letter {c:?} in FEN"),
            FenError::RankLength(r) => write!(f, "rank {r} of the FEN does not have 8 squares"),
            FenError::RankCount(n) => write!(f, "FEN board has {n} ranks, expected 8"),
            FenError::InvalidTurn(s) => write!(f, "invalid side to move {s:?} (expected w or b)"),
            FenError::InvalidCastling(s) => write!(f, "invalid castling field {s:?}"),
            FenError::InvalidEpSquare(s) => write!(f, "invalid en passant field {s:?}"),
            FenError::InvalidHalfmoveClock(s) => write!(f, "invalid halfmove clock {s:?}"),
            FenError::InvalidFullmoveNumber(s) => write!(f, "invalid fullmove number {s:?}"),
            FenError::Position(e) => write!(f, "invalid position: {e}"),
        }
    }
}

impl std::error::Error for FenError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            FenError::Position(e) => Some(e),
            _ => None,
        }
    }
}

impl From<PositionError> for FenError {
    fn from(e: PositionError) -> FenError {
        FenError::Position(e)
    }
}

/// Parses the board field (`rnbqkbnr/pppppppp/...`).
pub fn parse_board(field: &str) -> Result<Board, FenError> {
    let ranks: Vec<&str> = field.split('/').collect();
    if ranks.len() != 8 {
        return Err(FenError::RankCount(ranks.len()));
    }
    let mut board = Board::empty();
    for (i, text) in ranks.iter().enumerate() {
        let rank = Rank::new(7 - i as u8).unwrap_or(Rank::FIRST);
        let mut file = 0u8;
        for c in text.chars() {
            if let Some(d) = c.to_digit(10).filter(|d| (1..=8).contains(d)) {
                file += d as u8;
            } else {
                let piece = Piece::from_char(c).ok_or(FenError::InvalidPiece(c))?;
                let sq = File::new(file).map(|f| Square::from_coords(f, rank));
                board.put(sq.ok_or(FenError::RankLength(rank.index() as u8 + 1))?, piece);
                file += 1;
            }
            if file > 8 {
                return Err(FenError::RankLength(rank.index() as u8 + 1));
            }
        }
        if file != 8 {
            return Err(FenError::RankLength(rank.index() as u8 + 1));
        }
    }
    Ok(board)
}

fn parse_castling(field: &str, board: &Board) -> Result<CastlingRights, FenError> {
    let err = || FenError::InvalidCastling(field.to_string());
    if field == "-" {
        return Ok(CastlingRights::NONE);
    }
    let mut rights = CastlingRights::NONE;
    for c in field.chars() {
        let color = if c.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        let back_rank = Rank::FIRST.relative_to(color);
        let rooks = board.by_piece(Piece::new(color, Role::Rook)) & Bitboard::from_rank(back_rank);
        let king = board.king_of(color).filter(|k| k.rank() == back_rank).ok_or_else(err)?;
        let rook = match c.to_ascii_lowercase() {
            'k' => rooks.into_iter().filter(|r| r.file() > king.file()).last(),
            'q' => rooks.into_iter().find(|r| r.file() < king.file()),
            letter @ 'a'..='h' => {
                let file = File::from_char(letter).ok_or_else(err)?;
                Some(Square::from_coords(file, back_rank)).filter(|&sq| rooks.contains(sq))
            }
            _ => None,
        };
        let rook = rook.ok_or_else(err)?;
        if rights.rooks().contains(rook) {
            return Err(err());
        }
        rights = rights.with_square(rook);
    }
    Ok(rights)
}

/// Parses a FEN (4 to 6 fields) into a setup, checking the syntax but not the position.
pub fn parse_setup(fen: &str) -> Result<Setup, FenError> {
    let fields: Vec<&str> = fen.split_ascii_whitespace().collect();
    if !(4..=6).contains(&fields.len()) {
        return Err(FenError::FieldCount(fields.len()));
    }
    let board = parse_board(fields[0])?;
    let turn = match fields[1] {
        "w" => Color::White,
        "b" => Color::Black,
        other => return Err(FenError::InvalidTurn(other.to_string())),
    };
    let castling = parse_castling(fields[2], &board)?;
    let ep_square = match fields[3] {
        "-" => None,
        text => {
            let sq: Square = text.parse().map_err(|_| FenError::InvalidEpSquare(text.to_string()))?;
            if sq.rank() != Rank::THIRD && sq.rank() != Rank::SIXTH {
                return Err(FenError::InvalidEpSquare(text.to_string()));
            }
            Some(sq)
        }
    };
    let halfmove_clock = match fields.get(4) {
        Some(text) => text
            .parse::<u32>()
            .map_err(|_| FenError::InvalidHalfmoveClock(text.to_string()))?,
        None => 0,
    };
    let fullmove_number = match fields.get(5) {
        Some(text) => match text.parse::<u32>() {
            Ok(n) if n > 0 => n,
            _ => return Err(FenError::InvalidFullmoveNumber(text.to_string())),
        },
        None => 1,
    };
    Ok(Setup {
        board,
        turn,
        castling,
        ep_square,
        halfmove_clock,
        fullmove_number,
    })
}

/// Writes the board field.
pub fn board_fen(board: &Board) -> String {
    let mut out = String::with_capacity(72);
    for rank in Rank::ALL.into_iter().rev() {
        let mut empty = 0;
        for file in File::ALL {
            match board.piece_at(Square::from_coords(file, rank)) {
                Some(piece) => {
                    if empty > 0 {
                        out.push(char::from(b'0' + empty));
                        empty = 0;
                    }
                    out.push(piece.char());
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            out.push(char::from(b'0' + empty));
        }
        if rank != Rank::FIRST {
            out.push('/');
        }
    }
    out
}

/// How castling rights are written.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum CastlingNotation {
    /// `KQkq` where that names the rook unambiguously (the outermost), else the rook's file.
    XFen,
    /// Always the rook's file: `HAha`.
    Shredder,
}

fn castling_field(pos: &Position, notation: CastlingNotation) -> String {
    let mut out = String::new();
    for color in Color::ALL {
        let king = pos.king(color);
        let rooks_on_rank =
            pos.board().by_piece(Piece::new(color, Role::Rook)) & Bitboard::relative_rank(color, Rank::FIRST);
        for side in CastlingSide::ALL {
            let Some(rook) = pos.castling().rook(color, side, king) else {
                continue;
            };
            let outermost = match side {
                CastlingSide::KingSide => rooks_on_rank.last(),
                CastlingSide::QueenSide => rooks_on_rank.first(),
            } == Some(rook);
            let letter = if notation == CastlingNotation::XFen && outermost {
                match side {
                    CastlingSide::KingSide => 'k',
                    CastlingSide::QueenSide => 'q',
                }
            } else {
                rook.file().char()
            };
            out.push(if color == Color::White {
                letter.to_ascii_uppercase()
            } else {
                letter
            });
        }
    }
    if out.is_empty() {
        out.push('-');
    }
    out
}

impl Position {
    /// Parses a FEN (the clocks may be missing).
    ///
    /// ```
    /// use chessbits::position::Position;
    /// let pos = Position::from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1").unwrap();
    /// assert_eq!(pos.ep_square(), None); // no black pawn can take on e3
    /// assert_eq!(pos.fen(), "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
    /// ```
    pub fn from_fen(fen: &str) -> Result<Position, FenError> {
        Position::from_fen_with(fen, Validation::Game)
    }

    /// Parses a FEN, validating the position as `validation` says
    /// ([`Position::from_setup_with`]).
    ///
    /// ```
    /// use chessbits::notation::fen::FenError;
    /// use chessbits::position::{Position, PositionError, Validation};
    /// // White in check from a rook: the pawn that just moved two squares could not have uncovered it.
    /// let fen = "4k3/8/8/3p4/8/8/8/r3K3 w - d6 0 1";
    /// assert_eq!(Position::from_fen(fen), Err(FenError::Position(PositionError::ImpossibleCheck)));
    /// assert!(Position::from_fen_with(fen, Validation::Composed).is_ok());
    /// ```
    pub fn from_fen_with(fen: &str, validation: Validation) -> Result<Position, FenError> {
        Ok(Position::from_setup_with(parse_setup(fen)?, validation)?)
    }

    /// The FEN, with X-FEN castling letters.
    pub fn fen(&self) -> String {
        self.fen_with(CastlingNotation::XFen)
    }

    /// The FEN with castling written as `notation` says.
    pub fn fen_with(&self, notation: CastlingNotation) -> String {
        let ep = self.ep_square().map_or_else(|| "-".to_string(), |sq| sq.to_string());
        format!(
            "{} {} {} {} {} {}",
            board_fen(self.board()),
            self.turn().char(),
            castling_field(self, notation),
            ep,
            self.halfmove_clock(),
            self.fullmove_number()
        )
    }

    /// The first four FEN fields (no clocks), as in EPD.
    pub fn epd(&self) -> String {
        let fen = self.fen();
        fen.splitn(5, ' ').take(4).collect::<Vec<_>>().join(" ")
    }
}

impl FromStr for Position {
    type Err = FenError;
    fn from_str(s: &str) -> Result<Position, FenError> {
        Position::from_fen(s)
    }
}

impl fmt::Display for Position {
    /// The FEN.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.fen())
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({})", self.fen())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips() {
        for fen in [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "rnbqkbnr/pp1ppppp/8/2pP4/8/8/PPP1PPPP/RNBQKBNR w KQkq c6 0 3",
            "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w KQkq - 2 9",
        ] {
            assert_eq!(Position::from_fen(fen).unwrap().fen(), fen);
        }
    }

    #[test]
    fn shredder_and_xfen_agree() {
        let shredder = Position::from_fen("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9").unwrap();
        let xfen = Position::from_fen("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w KQkq - 2 9").unwrap();
        assert_eq!(shredder, xfen);
        assert!(shredder.is_chess960());
        assert_eq!(
            shredder.fen_with(CastlingNotation::Shredder).split(' ').nth(2),
            Some("HFhf")
        );
        // An inner rook needs its file even in X-FEN.
        let inner = Position::from_fen("4k3/8/8/8/8/8/8/1R2K1RR w G - 0 1").unwrap();
        assert_eq!(inner.fen().split(' ').nth(2), Some("G"));
    }

    #[test]
    fn every_error_kind() {
        use FenError::*;
        let cases: Vec<(&str, FenError)> = vec![
            ("", FieldCount(0)),
            ("8/8/8/8/8/8/8/8 w - - 0 1 extra", FieldCount(7)),
            (
                "rnbqkbnr/ppppxppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                InvalidPiece('x'),
            ),
            ("rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", RankLength(7)),
            (
                "rnbqkbnr/ppppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                RankLength(7),
            ),
            (
                "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                InvalidPiece('9'),
            ),
            ("rnbqkbnr/pppppppp/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", RankCount(7)),
            ("4k3/8/8/8/8/8/8/4K3 white - - 0 1", InvalidTurn("white".into())),
            ("4k3/8/8/8/8/8/8/4K3 w KQ - 0 1", InvalidCastling("KQ".into())),
            ("4k3/8/8/8/8/8/8/4K3 w X - 0 1", InvalidCastling("X".into())),
            ("4k3/8/8/8/8/8/8/4K3 w - e5 0 1", InvalidEpSquare("e5".into())),
            ("4k3/8/8/8/8/8/8/4K3 w - z9 0 1", InvalidEpSquare("z9".into())),
            ("4k3/8/8/8/8/8/8/4K3 w - - x 1", InvalidHalfmoveClock("x".into())),
            ("4k3/8/8/8/8/8/8/4K3 w - - -1 1", InvalidHalfmoveClock("-1".into())),
            ("4k3/8/8/8/8/8/8/4K3 w - - 0 0", InvalidFullmoveNumber("0".into())),
            ("4k3/8/8/8/8/8/8/4K3 w - - 0 z", InvalidFullmoveNumber("z".into())),
            (
                "8/8/8/8/8/8/8/4K3 w - - 0 1",
                Position(PositionError::MissingKing(Color::Black)),
            ),
            (
                "4k3/8/8/8/8/8/8/3KK3 w - - 0 1",
                Position(PositionError::TooManyKings(Color::White)),
            ),
            (
                "4k2P/8/8/8/8/8/8/4K3 w - - 0 1",
                Position(PositionError::PawnsOnBackrank),
            ),
            (
                "4k3/8/8/8/8/8/8/4K2p w - - 0 1",
                Position(PositionError::PawnsOnBackrank),
            ),
            (
                "4k3/8/8/8/8/8/8/4K2R w - e6 0 1",
                Position(PositionError::InvalidEpSquare(Square::E6)),
            ),
            (
                "4k3/8/8/8/8/8/8/4K2R w - e3 0 1",
                Position(PositionError::InvalidEpSquare(Square::E3)),
            ),
            ("4k2R/8/8/8/8/8/8/4K3 w - - 0 1", Position(PositionError::OppositeCheck)),
            ("4k3/8/8/8/8/8/4K3/7R w H - 0 1", InvalidCastling("H".into())),
        ];
        for (fen, expected) in cases {
            assert_eq!(crate::position::Position::from_fen(fen), Err(expected), "{fen}");
        }
    }

    #[test]
    fn rook_without_king_on_back_rank_is_rejected() {
        // The setup route checks what the FEN route cannot express.
        let mut setup = parse_setup("4k3/8/8/8/8/8/4K3/7R w - - 0 1").unwrap();
        setup.castling = CastlingRights::from_rooks(Bitboard::from_square(Square::H1));
        assert_eq!(
            Position::from_setup(setup),
            Err(PositionError::InvalidCastlingRights(Square::H1))
        );
    }
}
