//! The seed's fine-tuned Huffman code: kings stored apart, runs of empty squares, color bits left
//! out where the count of pieces makes them certain.
//!
//! # Layout
//!
//! **Header**, in this order:
//!
//! | bits | field |
//! |---|---|
//! | 1 | side to move: 0 White, 1 Black (the seed leaves it to the context; we store it) |
//! | 12 | both kings' squares and the castling rights, one number (see below) |
//! | 7 | halfmove clock 0–126; 127 means the clock follows in 32 more bits |
//! | 1 | `R`: 1 = runs of empty squares are coded compactly |
//! | 1 | `C`: 1 = a count of the first color's pieces follows |
//! | 1 | `N`: 1 = there is no pawn on the board |
//! | 1 (if `N` = 0) | en passant: 1 = there is an en passant square, on the file in 3 more bits (rank 6 if White is to move, else 3) |
//! | 4 (if `C` = 1) | how many pieces, kings aside, the color of the first piece on the board has (1–15) |
//!
//! The king number: two kings that neither touch nor share a square can stand in 3,612 ways;
//! castling rights need a king on e1/e8, adding 357 ways with rights; all 3,969 fit in 12 bits, so
//! the four castling bits cost nothing (the seed's closing note). The exact numbering is in the
//! private `kings` module: pairs without rights in square order first, then e1 with rights (option ×
//! 58 black king squares), then e8 with rights, then both.
//!
//! **Board.** The 62 squares a1, b1, …, h8 without the two king squares, up to the last piece (later
//! squares are empty and not written). Pieces:
//!
//! | piece | `N` = 0 | `N` = 1 |
//! |---|---|---|
//! | pawn | `10c` | — |
//! | bishop | `1100c` | `100c` |
//! | knight | `1101c` | `101c` |
//! | rook | `1110c` | `110c` |
//! | queen | `1111c` | `111c` |
//!
//! The color bit `c` (1 = White) is left out when the color is certain: once `C` = 1 and the first
//! color's count is reached (all later pieces are the other color's), or for a pawn once one color
//! has shown eight pawns.
//!
//! Empty squares with `R` = 0: `0` each. With `R` = 1, a maximal run of `g` empty squares is written
//! as pieces of at most 41 squares (41s first), each
//!
//! | squares | code |
//! |---|---|
//! | 1 | `0` |
//! | 2–9 | `00nnn`, `nnn` = squares − 2 |
//! | 10–41 | `00nnn0nn`, the five bits `nnnnn` = squares − 10 |
//!
//! (after `00nnn`, a 1 starts the next piece, a 0 extends the run; a 41-run may be followed by
//! another run, any other run by a piece).
//!
//! **End.** Zero bits up to a whole byte. Every piece code starts with a 1, so the board ends where
//! only zero bits are left. The fullmove number is not stored (decoded as 1).
//!
//! The encoder tries the four choices of `R` and `C` and keeps the shortest (the first of equals in
//! the order `RC` = 00, 10, 01, 11); `N` is not a choice.
//!
//! # Accepted setups
//!
//! One king of each color, not touching; castling rights only for rooks on a1/h1 (a8/h8) with their
//! king on e1 (e8); at most eight pawns of each color; an en passant square only on the sixth rank
//! (third for Black to move) and only with pawns on the board; any clock.
//!
//! # Size: at most 190 bits, 24 bytes
//!
//! With `R` = `C` = 0 each of the 62 squares costs 1 bit plus `v`: pawn 2, other pieces 4. As for
//! the [`huffman`](super::huffman) code, `Σv ≤ 88 − 2P − 4O + 2p` with `p ≤ min(16 − P, 3P + 2O)`
//! (a promotion now gains at most 2), whose maximum over whole numbers is 104 (`P = 4`, twelve
//! promotions); with en passant possible (`p ≤ 14 − P`) it is 100. The header is 24 bits, 27 with
//! an en passant square. So a position reachable from the start position with a clock up to 126
//! takes at most `24 + 62 + 104 = 190` bits, at most 24 bytes with the padding — the seed's bound.
//! Setups no game can reach take at most `27 + 62·5 = 337` bits (plus 32 for a clock above 126).
//!
//! ```
//! use chessbits::codec::position::huffman_tuned;
//! use chessbits::position::Setup;
//! let start = Setup::standard();
//! let bits = huffman_tuned::encoded_bits(&start).unwrap();
//! assert!(bits < 24 * 8);
//! assert_eq!(huffman_tuned::decode(&huffman_tuned::encode(&start).unwrap()), Ok(start));
//! ```

use super::huffman_board::{read_role_after_one, role_prefix};
use super::{
    code_functions, decoded_setup, impl_position_codec, kings, read_clock7, read_turn, write_clock7, Framing,
    PositionCodeError,
};
use crate::codec::bits::{BitReader, BitWriter};
use crate::position::{Board, Setup};
use crate::types::{Color, File, Piece, Rank, Role, Square};

/// The fine-tuned Huffman code as a [`PositionCodec`](super::PositionCodec).
///
/// ```
/// use chessbits::codec::position::{HuffmanTuned, PositionCodec};
/// assert_eq!(HuffmanTuned.name(), "huffman-tuned");
/// ```
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct HuffmanTuned;

impl_position_codec!(
    HuffmanTuned,
    "huffman-tuned",
    "fine-tuned Huffman: kings and castling in 12 bits, runs of empty squares, implied color bits"
);

code_functions! {
    framing: Framing::Padded,
    /// Encodes `setup` (see the [module documentation](self) for the layout).
    ///
    /// ```
    /// use chessbits::codec::position::{huffman_tuned, PositionCodeError};
    /// use chessbits::position::Setup;
    /// use chessbits::types::Square;
    /// let mut setup = Setup::standard();
    /// setup.board.take(Square::E8);
    /// assert!(matches!(huffman_tuned::encode(&setup), Err(PositionCodeError::Unsupported(_))));
    /// ```
    encode;
    /// The length of the code of `setup` in bits, without the padding.
    ///
    /// ```
    /// use chessbits::codec::position::huffman_tuned;
    /// use chessbits::position::{Board, Setup};
    /// use chessbits::types::{Color, Piece, Role, Square};
    /// let mut setup = Setup::standard();
    /// setup.castling = Default::default();
    /// setup.board = Board::empty();
    /// setup.board.put(Square::E1, Piece::new(Color::White, Role::King));
    /// setup.board.put(Square::E8, Piece::new(Color::Black, Role::King));
    /// // just the header: turn, kings, clock, three option bits
    /// assert_eq!(huffman_tuned::encoded_bits(&setup), Ok(1 + 12 + 7 + 3));
    /// ```
    encoded_bits;
    /// Decodes bytes written by [`encode`]; the fullmove number comes back as 1.
    ///
    /// ```
    /// use chessbits::codec::position::{huffman_tuned, PositionCodeError};
    /// assert_eq!(huffman_tuned::decode(&[0]), Err(PositionCodeError::Truncated));
    /// ```
    decode;
}

/// The longest run one run code holds.
const MAX_RUN: usize = 41;

/// The encoder's choices and what the board implies.
#[derive(Copy, Clone, Debug)]
struct Options {
    runs: bool,
    /// The first color's piece count, when given.
    count: Option<u8>,
    no_pawns: bool,
}

/// The 62 squares the board part covers, in order.
fn board_squares(kings: [Square; 2]) -> impl Iterator<Item = Square> {
    Square::all().filter(move |sq| !kings.contains(sq))
}

/// Counts pieces as they are written or read, to know when a color bit is implied.
#[derive(Default)]
struct ColorTracker {
    first: Option<Color>,
    first_seen: u8,
    pawns: [u8; 2],
}

impl ColorTracker {
    /// The color a piece of `role` must have, if certain.
    fn implied(&self, role: Role, count: Option<u8>) -> Option<Color> {
        if let (Some(first), Some(count)) = (self.first, count) {
            if self.first_seen >= count {
                return Some(!first);
            }
        }
        if role == Role::Pawn {
            if self.pawns[0] >= 8 {
                return Some(Color::Black);
            }
            if self.pawns[1] >= 8 {
                return Some(Color::White);
            }
        }
        None
    }

    fn saw(&mut self, piece: Piece) {
        let first = *self.first.get_or_insert(piece.color);
        if piece.color == first {
            self.first_seen = self.first_seen.saturating_add(1);
        }
        if piece.role == Role::Pawn {
            self.pawns[piece.color.index()] += 1;
        }
    }
}

/// The shared prefix codes (a king is never on the board part; the seed gives the queen the king's
/// code `1111` once kings are stored apart).
fn piece_code(role: Role, no_pawns: bool) -> (u64, u32) {
    let (bits, len) = role_prefix(role);
    if no_pawns {
        // Without pawns the "not a pawn" bit goes: 1100 → 100 and so on.
        (bits & 0b11 | 0b100, 3)
    } else {
        (bits, len)
    }
}

/// Checks the setup is accepted and returns the kings' number.
fn check(setup: &Setup) -> Result<(u16, [Square; 2]), PositionCodeError> {
    let board = &setup.board;
    let mut kings = [Square::A1; 2];
    for color in Color::ALL {
        let bb = board.by_piece(Piece::new(color, Role::King));
        kings[color.index()] = bb
            .single_square()
            .ok_or(PositionCodeError::Unsupported("not one king per color"))?;
        if board.by_piece(Piece::new(color, Role::Pawn)).count() > 8 {
            return Err(PositionCodeError::Unsupported("more than eight pawns of one color"));
        }
        let rooks = board.by_piece(Piece::new(color, Role::Rook));
        if (setup.castling.rooks_of(color) & !rooks).any() {
            return Err(PositionCodeError::Unsupported("castling right without its rook"));
        }
    }
    let number = kings::encode(kings[0], kings[1], setup.castling).ok_or(PositionCodeError::Unsupported(
        "kings touching, or castling rights other than a1/h1/a8/h8",
    ))?;
    if let Some(ep) = setup.ep_square {
        if ep.rank() != Rank::SIXTH.relative_to(setup.turn) || board.by_role(Role::Pawn).is_empty() {
            return Err(PositionCodeError::Unsupported(
                "en passant square off the sixth rank or without pawns",
            ));
        }
    }
    Ok((number, kings))
}

fn write(setup: &Setup) -> Result<BitWriter, PositionCodeError> {
    let (number, kings) = check(setup)?;
    let no_pawns = setup.board.by_role(Role::Pawn).is_empty();
    let first = board_squares(kings)
        .find_map(|sq| setup.board.piece_at(sq))
        .map(|p| p.color);
    let first_count = first
        .map(|c| setup.board.by_color(c).count() - 1)
        .filter(|&n| n <= 15)
        .map(|n| n as u8);
    // Price the four choices in one pass, then write the cheapest once.
    let costs = board_costs(&setup.board, kings, no_pawns, first_count);
    let mut best: Option<(u64, Options)> = None;
    for (runs, counted) in [(false, false), (true, false), (false, true), (true, true)] {
        if counted && first_count.is_none() {
            continue;
        }
        let count = if counted { first_count } else { None };
        let bits = costs.total(runs, counted);
        if best.is_none_or(|(b, _)| bits < b) {
            best = Some((bits, Options { runs, count, no_pawns }));
        }
    }
    let (bits, options) = best.ok_or(PositionCodeError::Unsupported("no encoding"))?;
    let mut w = BitWriter::new();
    write_header(&mut w, setup, number, options);
    // The header holds the count, which the price includes.
    let header = w.bit_len() - 4 * u64::from(options.count.is_some());
    write_board(&mut w, &setup.board, kings, options);
    debug_assert_eq!(w.bit_len() - header, bits, "the price of the board is its length");
    Ok(w)
}

/// What the board part costs under each choice: pieces' codes, color bits without and with the
/// count (which itself takes 4 bits), empty squares straightforward and in runs.
struct BoardCosts {
    codes: u64,
    colors: [u64; 2],
    gaps: [u64; 2],
}

impl BoardCosts {
    fn total(&self, runs: bool, counted: bool) -> u64 {
        self.codes + self.colors[usize::from(counted)] + 4 * u64::from(counted) + self.gaps[usize::from(runs)]
    }
}

fn board_costs(board: &Board, kings: [Square; 2], no_pawns: bool, first_count: Option<u8>) -> BoardCosts {
    let mut costs = BoardCosts {
        codes: 0,
        colors: [0; 2],
        gaps: [0; 2],
    };
    let mut trackers = [ColorTracker::default(), ColorTracker::default()];
    let counts = [None, first_count];
    let mut gap = 0;
    for sq in board_squares(kings) {
        let Some(piece) = board.piece_at(sq) else {
            gap += 1;
            continue;
        };
        costs.gaps[0] += gap_bits(gap, false);
        costs.gaps[1] += gap_bits(gap, true);
        gap = 0;
        costs.codes += u64::from(piece_code(piece.role, no_pawns).1);
        for ((tracker, count), colors) in trackers.iter_mut().zip(counts).zip(&mut costs.colors) {
            *colors += u64::from(tracker.implied(piece.role, count).is_none());
            tracker.saw(piece);
        }
    }
    costs
}

/// Bits of a gap of `gap` empty squares (as [`write_gap`] writes it).
fn gap_bits(gap: usize, runs: bool) -> u64 {
    if !runs {
        return gap as u64;
    }
    let rest = match gap % MAX_RUN {
        0 => 0,
        1 => 1,
        2..=9 => 5,
        _ => 8,
    };
    (gap / MAX_RUN) as u64 * 8 + rest
}

fn write_header(w: &mut BitWriter, setup: &Setup, kings_number: u16, options: Options) {
    w.write_bit(setup.turn == Color::Black);
    w.write(u64::from(kings_number), kings::BITS);
    write_clock7(w, setup.halfmove_clock);
    w.write_bit(options.runs);
    w.write_bit(options.count.is_some());
    w.write_bit(options.no_pawns);
    if !options.no_pawns {
        w.write_bit(setup.ep_square.is_some());
        if let Some(ep) = setup.ep_square {
            w.write(ep.file().index() as u64, 3);
        }
    }
    if let Some(count) = options.count {
        w.write(u64::from(count), 4);
    }
}

fn write_gap(w: &mut BitWriter, mut gap: usize, runs: bool) {
    if !runs {
        w.write(0, gap as u32);
        return;
    }
    while gap > 0 {
        let run = gap.min(MAX_RUN);
        match run {
            1 => w.write_bit(false),
            2..=9 => w.write((run - 2) as u64, 5),
            _ => {
                let n = (run - 10) as u64;
                w.write(n >> 2, 5);
                w.write(n & 0b11, 3);
            }
        }
        gap -= run;
    }
}

fn write_board(w: &mut BitWriter, board: &Board, kings: [Square; 2], options: Options) {
    let mut tracker = ColorTracker::default();
    let mut gap = 0;
    for sq in board_squares(kings) {
        let Some(piece) = board.piece_at(sq) else {
            gap += 1;
            continue;
        };
        write_gap(w, gap, options.runs);
        gap = 0;
        let (bits, len) = piece_code(piece.role, options.no_pawns);
        w.write(bits, len);
        if tracker.implied(piece.role, options.count).is_none() {
            w.write_bit(piece.color == Color::White);
        }
        tracker.saw(piece);
    }
}

fn read(r: &mut BitReader<'_>) -> Result<Setup, PositionCodeError> {
    let turn = read_turn(r)?;
    let (white_king, black_king, castling) =
        kings::decode(r.read(kings::BITS)? as u16).ok_or(PositionCodeError::Invalid("kings number above 3968"))?;
    let halfmove_clock = read_clock7(r)?;
    let runs = r.read_bit()?;
    let counted = r.read_bit()?;
    let no_pawns = r.read_bit()?;
    let mut ep_square = None;
    if !no_pawns && r.read_bit()? {
        let file = File::new(r.read(3)? as u8).ok_or(PositionCodeError::Invalid("file"))?;
        ep_square = Some(Square::from_coords(file, Rank::SIXTH.relative_to(turn)));
    }
    let count = if counted {
        match r.read(4)? as u8 {
            0 => return Err(PositionCodeError::Invalid("a count of zero pieces")),
            n => Some(n),
        }
    } else {
        None
    };
    let options = Options { runs, count, no_pawns };

    let mut board = Board::empty();
    board.put(white_king, Piece::new(Color::White, Role::King));
    board.put(black_king, Piece::new(Color::Black, Role::King));
    let squares: Vec<Square> = board_squares([white_king, black_king]).collect();
    let mut tracker = ColorTracker::default();
    let mut next = 0;
    let end = r.end_of_ones();
    while r.position() < end {
        if r.read_bit()? {
            let piece = read_piece(r, &tracker, options)?;
            let sq = *squares
                .get(next)
                .ok_or(PositionCodeError::Invalid("pieces beyond the board"))?;
            board.put(sq, piece);
            tracker.saw(piece);
            next += 1;
        } else {
            next += read_gap_after_zero(r, runs)?;
        }
    }
    if next > squares.len() {
        return Err(PositionCodeError::Invalid("empty squares beyond the board"));
    }
    Ok(Setup {
        board,
        castling,
        ep_square,
        ..decoded_setup(turn, halfmove_clock)
    })
}

/// The piece whose code started with the 1 just read.
fn read_piece(r: &mut BitReader<'_>, tracker: &ColorTracker, options: Options) -> Result<Piece, PositionCodeError> {
    let role = read_role_after_one(r, !options.no_pawns)?;
    let color = match tracker.implied(role, options.count) {
        Some(color) => color,
        None if r.read_bit()? => Color::White,
        None => Color::Black,
    };
    Ok(Piece::new(color, role))
}

/// The number of empty squares of the code whose first bit, a 0, was just read.
fn read_gap_after_zero(r: &mut BitReader<'_>, runs: bool) -> Result<usize, PositionCodeError> {
    if !runs || peek(r)? {
        return Ok(1);
    }
    r.read_bit()?;
    let high = r.read(3)? as usize;
    if peek(r)? {
        return Ok(high + 2);
    }
    r.read_bit()?;
    Ok(10 + (high << 2 | r.read(2)? as usize))
}

/// The next bit, left unread; past the end, a 1 (the end only comes after a piece).
fn peek(r: &BitReader<'_>) -> Result<bool, PositionCodeError> {
    Ok(r.remaining() == 0 || r.peek_bit()?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn run_codes_have_the_seed_lengths() {
        for (gap, bits) in [(1, 1), (2, 5), (9, 5), (10, 8), (41, 8), (42, 9), (50, 13), (62, 16)] {
            let mut w = BitWriter::new();
            write_gap(&mut w, gap, true);
            assert_eq!(w.bit_len(), bits, "gap {gap}");
            assert_eq!(gap_bits(gap, true), bits);
        }
        for gap in 0..=62 {
            let mut w = BitWriter::new();
            write_gap(&mut w, gap, true);
            assert_eq!(w.bit_len(), gap_bits(gap, true), "gap {gap}");
        }
    }

    #[test]
    fn no_pawn_codes_drop_one_bit() {
        assert_eq!(piece_code(Role::Bishop, true), (0b100, 3));
        assert_eq!(piece_code(Role::Queen, true), (0b111, 3));
        assert_eq!(piece_code(Role::Queen, false), (0b1111, 4));
    }
}
