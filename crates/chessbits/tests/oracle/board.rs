//! The oracle's board: a 0x88 mailbox of 128 bytes (square `0rrr0fff`, off the board when
//! `sq & 0x88 != 0`) plus one piece list per side with an index back from each square, so that
//! attack tests walk the enemy pieces (16 at most in a game) instead of the board. Also its own FEN reader
//! (standard `KQkq`, X-FEN and Shredder-FEN castling letters) and UCI square names.
//!
//! Nothing here comes from the library: the types, the FEN syntax and the castling letters are
//! read from the text alone.

/// Colors as indices.
pub const WHITE: usize = 0;
pub const BLACK: usize = 1;

/// Roles (the low three bits of a square's byte; the color is bit 3).
pub const PAWN: u8 = 1;
pub const KNIGHT: u8 = 2;
pub const BISHOP: u8 = 3;
pub const ROOK: u8 = 4;
pub const QUEEN: u8 = 5;
pub const KING: u8 = 6;

/// Castling sides: index into [`Board::castling`].
pub const KING_SIDE: usize = 0;
pub const QUEEN_SIDE: usize = 1;

/// A square's byte for a piece of `color` and `role` (0 is an empty square).
pub const fn piece(color: usize, role: u8) -> u8 {
    ((color as u8) << 3) | role
}

pub const fn role_of(p: u8) -> u8 {
    p & 7
}

pub const fn color_of(p: u8) -> usize {
    (p >> 3) as usize
}

/// The 0x88 square of file `f` and rank `r` (both 0..8).
pub const fn square(f: u8, r: u8) -> u8 {
    (r << 4) | f
}

pub const fn file_of(sq: u8) -> u8 {
    sq & 7
}

pub const fn rank_of(sq: u8) -> u8 {
    sq >> 4
}

/// The algebraic name of a 0x88 square (`e4`).
pub fn square_name(sq: u8) -> String {
    format!("{}{}", (b'a' + file_of(sq)) as char, (b'1' + rank_of(sq)) as char)
}

/// A position: mailbox, piece lists, side to move, castling rooks, en passant square.
#[derive(Clone, Copy)]
pub struct Board {
    /// Piece byte per 0x88 square (0: empty; the off-board half stays 0 and is never read).
    pub squares: [u8; 128],
    /// For an occupied square, where its piece is in its side's list.
    index: [u8; 128],
    /// The squares of each side's pieces, the first `count[color]` entries (room for any board:
    /// the suites hold positions with far more than 16 pieces a side).
    pub list: [[u8; 64]; 2],
    pub count: [usize; 2],
    pub king: [u8; 2],
    pub turn: usize,
    /// The castling rook of each side and color, if the right is still there.
    pub castling: [[Option<u8>; 2]; 2],
    /// The square a pawn skipped with a double push on the last move.
    pub ep: Option<u8>,
    /// Castling is written king-takes-rook (some right is not king-on-e, rook-in-the-corner).
    pub chess960: bool,
}

impl Board {
    fn empty() -> Board {
        Board {
            squares: [0; 128],
            index: [0; 128],
            list: [[0; 64]; 2],
            count: [0; 2],
            king: [0x88; 2],
            turn: WHITE,
            castling: [[None; 2]; 2],
            ep: None,
            chess960: false,
        }
    }

    /// Puts `p` on the empty square `sq`.
    pub fn add(&mut self, sq: u8, p: u8) {
        let color = color_of(p);
        let n = self.count[color];
        self.list[color][n] = sq;
        self.index[sq as usize] = n as u8;
        self.count[color] = n + 1;
        self.squares[sq as usize] = p;
        if role_of(p) == KING {
            self.king[color] = sq;
        }
    }

    /// Takes the piece off `sq` (occupied); the last piece of its list takes its slot.
    pub fn remove(&mut self, sq: u8) {
        let p = self.squares[sq as usize];
        let color = color_of(p);
        let i = self.index[sq as usize] as usize;
        let last = self.count[color] - 1;
        let moved = self.list[color][last];
        self.list[color][i] = moved;
        self.index[moved as usize] = i as u8;
        self.count[color] = last;
        self.squares[sq as usize] = 0;
    }

    /// Moves the piece on `from` to the empty square `to`.
    pub fn relocate(&mut self, from: u8, to: u8) {
        let p = self.squares[from as usize];
        let i = self.index[from as usize];
        self.list[color_of(p)][i as usize] = to;
        self.index[to as usize] = i;
        self.squares[to as usize] = p;
        self.squares[from as usize] = 0;
        if role_of(p) == KING {
            self.king[color_of(p)] = to;
        }
    }

    /// Reads a FEN (4 to 6 fields; the clocks are ignored).
    pub fn from_fen(fen: &str) -> Result<Board, String> {
        let fields: Vec<&str> = fen.split_whitespace().collect();
        if !(4..=6).contains(&fields.len()) {
            return Err(format!("{fen:?}: expected 4 to 6 fields"));
        }
        let mut b = Board::empty();
        let ranks: Vec<&str> = fields[0].split('/').collect();
        if ranks.len() != 8 {
            return Err(format!("{fen:?}: expected 8 ranks"));
        }
        let mut kings = [0; 2];
        for (i, text) in ranks.iter().enumerate() {
            let rank = 7 - i as u8;
            let mut file = 0u8;
            for c in text.chars() {
                if let Some(d) = c.to_digit(10) {
                    file += d as u8;
                    continue;
                }
                let role = match c.to_ascii_lowercase() {
                    'p' => PAWN,
                    'n' => KNIGHT,
                    'b' => BISHOP,
                    'r' => ROOK,
                    'q' => QUEEN,
                    'k' => KING,
                    _ => return Err(format!("{fen:?}: bad piece {c:?}")),
                };
                let color = if c.is_ascii_uppercase() { WHITE } else { BLACK };
                if file > 7 {
                    return Err(format!("{fen:?}: bad rank {}", rank + 1));
                }
                if role == KING {
                    kings[color] += 1;
                }
                b.add(square(file, rank), piece(color, role));
                file += 1;
            }
            if file != 8 {
                return Err(format!("{fen:?}: rank {} is not 8 squares", rank + 1));
            }
        }
        if kings != [1, 1] {
            return Err(format!("{fen:?}: needs one king a side"));
        }
        b.turn = match fields[1] {
            "w" => WHITE,
            "b" => BLACK,
            t => return Err(format!("{fen:?}: bad side to move {t:?}")),
        };
        if fields[2] != "-" {
            for c in fields[2].chars() {
                b.add_castling_letter(c).map_err(|e| format!("{fen:?}: {e}"))?;
            }
        }
        b.chess960 = (0..2).any(|color| {
            b.castling[color]
                .iter()
                .flatten()
                .any(|&rook| file_of(b.king[color]) != 4 || (file_of(rook) != 0 && file_of(rook) != 7))
        });
        if fields[3] != "-" {
            let t = fields[3].as_bytes();
            if t.len() != 2 || !(b'a'..=b'h').contains(&t[0]) || !(b'1'..=b'8').contains(&t[1]) {
                return Err(format!("{fen:?}: bad en passant square"));
            }
            b.ep = Some(square(t[0] - b'a', t[1] - b'1'));
        }
        Ok(b)
    }

    /// One castling letter: `K`/`Q` (the outermost rook on that side of the king) or a rook's
    /// file (Shredder-FEN, also X-FEN's inner rooks); lowercase for Black.
    fn add_castling_letter(&mut self, c: char) -> Result<(), String> {
        let color = if c.is_ascii_uppercase() { WHITE } else { BLACK };
        let back = if color == WHITE { 0 } else { 7 };
        let king = self.king[color];
        if rank_of(king) != back {
            return Err(format!("castling {c:?} with the king off the back rank"));
        }
        let rook = piece(color, ROOK);
        let rooks: Vec<u8> = (0..8)
            .map(|f| square(f, back))
            .filter(|&sq| self.squares[sq as usize] == rook)
            .collect();
        let found = match c.to_ascii_lowercase() {
            'k' => rooks.iter().copied().filter(|&sq| sq > king).max(),
            'q' => rooks.iter().copied().filter(|&sq| sq < king).min(),
            l @ 'a'..='h' => rooks.iter().copied().find(|&sq| file_of(sq) == l as u8 - b'a'),
            _ => None,
        };
        let sq = found.ok_or_else(|| format!("castling letter {c:?} names no rook"))?;
        let side = if sq > king { KING_SIDE } else { QUEEN_SIDE };
        if self.castling[color][side].is_some() {
            return Err(format!("castling letter {c:?} repeats a side"));
        }
        self.castling[color][side] = Some(sq);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn oracle_reads_castling_letters() {
        let b = Board::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").unwrap();
        assert_eq!(b.castling[WHITE], [Some(square(7, 0)), Some(square(0, 0))]);
        assert!(!b.chess960);
        let b = Board::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1").unwrap();
        assert_eq!(b.castling[BLACK], [Some(square(7, 7)), Some(square(0, 7))]);
        assert!(!b.chess960, "standard rights in Shredder letters are still standard");
        let b = Board::from_fen("4k3/8/8/8/8/8/8/1R2K1RR w G - 0 1").unwrap();
        assert_eq!(b.castling[WHITE], [Some(square(6, 0)), None]);
        assert!(b.chess960);
        let b = Board::from_fen("4k3/8/8/8/8/8/8/1R2K1RR w KQ - 0 1").unwrap();
        assert_eq!(b.castling[WHITE], [Some(square(7, 0)), Some(square(1, 0))]);
        assert!(b.chess960);
        assert!(Board::from_fen("4k3/8/8/8/8/8/8/4K3 w K - 0 1").is_err());
    }
}
