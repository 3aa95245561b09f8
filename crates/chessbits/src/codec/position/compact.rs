//! Our compact code: the board square by square, arithmetic-coded with a model of real games, with a
//! plain fallback that bounds the worst case.
//!
//! # Layout
//!
//! The first bit chooses the form: 0 = modeled, 1 = fallback. The encoder writes the modeled form
//! and uses the fallback instead if that is shorter or if the modeled form cannot hold the board
//! (comparing lengths up to the last 1 bit). Then the trailing zero bytes of the code are dropped
//! (the last byte's trailing zero bits stay as padding): the decoder reads zero bits past the end.
//! [`encoded_bits`] counts up to the last 1 bit.
//!
//! **Modeled form.** A [range code](crate::codec::range_coder) (the coder of the entropy move
//! code, ended with its shortest flush, [`RangeEncoder::finish_shortest`]) of these symbols, each
//! with a static frequency table (the tables are in the private `compact_model` module, made by
//! [`ModelTrainer`] from the three master-game files of the shared data; the lichess file was left
//! out to measure on):
//!
//! 0. the form, two equal halves (symbol 0: it makes the code's first bit 0);
//! 1. the side to move, two equal halves (one bit);
//! 2. the *phase*, from the number `n` of pieces on the board: 0 if `n ≥ 28`, 1 if `20 ≤ n ≤ 27`,
//!    2 if `n < 20`;
//! 3. each square a1, b1, …, h8 in turn, a symbol out of fifteen: 0 empty, 1–6 white pawn, knight,
//!    bishop, rook, queen, king, 7–12 the same in black, 13 *a rook that may castle* (white on the
//!    first rank, black on the eighth), 14 *a pawn that just advanced two squares* (white on the
//!    fourth rank, black on the fifth; the en passant square is behind it). The frequencies depend
//!    on the phase and on the square's *context*: the square, what stands on the square below it
//!    (nothing, a white pawn, a black pawn, another piece; no such square on the first rank) and
//!    whether the square on its left is occupied (no such square on the a-file): 435 contexts, 1,305
//!    tables. Symbols that cannot occur get no share: pawns on the first and eighth ranks, castling
//!    rooks elsewhere, a two-square pawn off the rank the side to move allows or after another one,
//!    a king of a color that already has one;
//! 4. the halfmove clock, with a table per phase: 0–99 as one symbol, or the symbol "100 or more"
//!    followed by `clock − 100` as two 16-bit halves of equal frequencies.
//!
//! A symbol's share is its frequency over the total of its table: symbols in numeric order, each
//! table entry counting at least 1, excluded symbols 0. The form, the side to move and the two
//! clock halves are coded with [`RangeEncoder::encode_bits`] (`2^n` equal shares). The range
//! coder's module documents its arithmetic bit for bit.
//!
//! Castling rights and the en passant square thus ride on the symbols of the pieces they concern,
//! as in lichess's binary FEN: there is no field for them.
//!
//! **Fallback form**, fixed-width: 1 bit side to move (0 White); 64 bits, one per square a1…h8, 1 =
//! occupied; 4 bits per occupied square in that order: 0–11 the piece ([`Piece::index`]), 12 a
//! rook that may castle, 13 a pawn that just advanced two squares (as above), 14 and 15 unused;
//! then the clock in 7 bits (0–126, or 127 and the clock in 32 bits).
//!
//! The fullmove number is not stored (decoded as 1).
//!
//! # Accepted setups
//!
//! Any board (the modeled form needs one king at most per color and no pawn on the first or
//! eighth rank; otherwise the fallback is used); castling rights only for rooks of the right color
//! standing on their first rank (Chess960 rights included); an en passant square only behind a pawn
//! of the side that just moved, on the sixth rank (third for Black to move); any clock.
//!
//! # Size: at most 201 bits
//!
//! The code is never longer than its fallback form: `1 + 1 + 64 + 4n + 7` bits for `n` pieces and a
//! clock up to 126, at most 201 bits (26 bytes) for the 32 pieces a game can have; 329 bits for a
//! setup with a piece on each square; 32 more for a larger clock. On the positions of real games
//! the modeled form is far shorter: 76.6 bits on average on the lichess games it was not trained
//! on, 78.1 on the master games, 34 bits for the start position. The fallback is used for 54 of
//! their 478,113 positions, the strangest ones (the largest code met, 193 bits, is one).
//!
//! ```
//! use chessbits::codec::position::compact;
//! use chessbits::position::Setup;
//! let bytes = compact::encode(&Setup::standard()).unwrap();
//! assert_eq!(bytes.len(), 5); // 34 bits
//! assert_eq!(compact::decode(&bytes), Ok(Setup::standard()));
//! ```

use std::sync::OnceLock;

use super::compact_model::{CLOCK_FREQS, PHASE_FREQS, SQUARE_FREQS};
use super::{
    decoded_setup, ensure_canonical, impl_position_codec, read_clock7, read_turn, write_clock7, PositionCodeError,
};
use crate::codec::bits::{BitReader, BitWriter};
use crate::codec::range_coder::{RangeDecoder, RangeEncoder};
use crate::position::Setup;
use crate::types::{Color, Piece, Rank, Role, Square};

/// The compact code as a [`PositionCodec`](super::PositionCodec).
///
/// ```
/// use chessbits::codec::position::{Compact, PositionCodec};
/// assert_eq!(Compact.name(), "compact");
/// ```
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Compact;

impl_position_codec!(
    Compact,
    "compact",
    "arithmetic code of the squares with a model of real games; castling and en passant in the pieces"
);

/// Encodes `setup` (see the [module documentation](self) for the layout).
///
/// ```
/// use chessbits::codec::position::{compact, PositionCodeError};
/// use chessbits::position::Setup;
/// use chessbits::types::Square;
/// let mut setup = Setup::standard();
/// setup.ep_square = Some(Square::E6); // no black pawn on e5
/// assert!(matches!(compact::encode(&setup), Err(PositionCodeError::Unsupported(_))));
/// ```
pub fn encode(setup: &Setup) -> Result<Vec<u8>, PositionCodeError> {
    Ok(write(setup)?.0)
}

/// The length of the code of `setup` in bits: up to its last 1 bit.
///
/// ```
/// use chessbits::codec::position::compact;
/// use chessbits::position::Setup;
/// assert_eq!(compact::encoded_bits(&Setup::standard()), Ok(34));
/// ```
pub fn encoded_bits(setup: &Setup) -> Result<u64, PositionCodeError> {
    Ok(write(setup)?.1)
}

/// Decodes bytes written by [`encode`]; the fullmove number comes back as 1.
///
/// ```
/// use chessbits::codec::position::{compact, PositionCodeError};
/// assert!(matches!(compact::decode(&[0xff; 40]), Err(PositionCodeError::Invalid(_))));
/// ```
pub fn decode(bytes: &[u8]) -> Result<Setup, PositionCodeError> {
    // The first bit tells the forms apart: the modeled form's first symbol (0 of two equal halves)
    // puts the range coder's value below one half.
    let mut bits = BitReader::zero_extended(bytes);
    let setup = if bits.read_bit()? {
        read_fallback(&mut bits)?
    } else {
        // The encoder drops the code's trailing zero bytes, so the decoder reads zeros past the
        // end; re-encoding below checks the framing.
        let mut dec = RangeDecoder::zero_extended(bytes);
        if dec.decode_bits(1)? != MODELED {
            return Err(PositionCodeError::Invalid("modeled form without its form symbol"));
        }
        read_modeled(&mut dec)?
    };
    ensure_canonical(bytes, setup, encode)
}

/// Number of symbols a square can hold.
const SYMBOLS: usize = 15;
const EMPTY: u8 = 0;
const CASTLING_ROOK: u8 = 13;
const PUSHED_PAWN: u8 = 14;
/// Number of square contexts.
const CONTEXTS: usize = 435;
/// Clock symbols: 0–99 and "100 or more".
const CLOCK_SYMBOLS: usize = 101;
/// Game phases, by the number of pieces on the board (see [`phase`]).
const PHASES: usize = 3;

// The generated tables of `compact_model` have the sizes these constants say (checked by type:
// the model is a leaf module and does not import them).
const _: fn() = || {
    let _: &[u16; PHASES] = &PHASE_FREQS;
    let _: &[[[u16; SYMBOLS]; PHASES]; CONTEXTS] = &SQUARE_FREQS;
    let _: &[[u16; CLOCK_SYMBOLS]; PHASES] = &CLOCK_FREQS;
};

/// The phase of a board with `pieces` pieces: 0 for 28 or more (opening), 1 for 20 to 27, 2 for
/// fewer (endgame).
fn phase(pieces: u32) -> usize {
    match pieces {
        28.. => 0,
        20..=27 => 1,
        _ => 2,
    }
}
const CLOCK_ESCAPE: u32 = 100;
/// The modeled form's first symbol, which sets the code's first bit to 0.
const MODELED: u32 = 0;

/// The symbols of the 64 squares (see the layout), after checking the setup is accepted.
fn symbols(setup: &Setup) -> Result<[u8; 64], PositionCodeError> {
    let board = &setup.board;
    for color in Color::ALL {
        let rooks = board.by_piece(Piece::new(color, Role::Rook));
        if (setup.castling.rooks_of(color) & !rooks).any() {
            return Err(PositionCodeError::Unsupported("castling right without its rook"));
        }
    }
    let pushed = match setup.ep_square {
        None => None,
        Some(ep) => {
            let pawn = pushed_pawn(ep, setup.turn);
            if ep.rank() != Rank::SIXTH.relative_to(setup.turn)
                || pawn.and_then(|sq| board.piece_at(sq)) != Some(Piece::new(!setup.turn, Role::Pawn))
            {
                return Err(PositionCodeError::Unsupported(
                    "en passant square not behind a pawn that just moved",
                ));
            }
            pawn
        }
    };
    let mut syms = [EMPTY; 64];
    for (sq, piece) in board.pieces() {
        syms[sq.index()] = if Some(sq) == pushed {
            PUSHED_PAWN
        } else if piece.role == Role::Rook && setup.castling.rooks().contains(sq) {
            CASTLING_ROOK
        } else {
            piece.index() as u8 + 1
        };
    }
    Ok(syms)
}

/// The pawn that skipped `ep` with `turn` to move.
fn pushed_pawn(ep: Square, turn: Color) -> Option<Square> {
    ep.offset(match turn {
        Color::White => -8,
        Color::Black => 8,
    })
}

/// The piece a symbol stands for on `sq`, and whether it carries a castling right or en passant;
/// `None` for a symbol that cannot stand there.
fn piece_of(sym: u8, sq: Square) -> Option<Piece> {
    let rank = sq.rank();
    match sym {
        1..=12 => Piece::from_index(usize::from(sym) - 1),
        CASTLING_ROOK if rank == Rank::FIRST => Some(Piece::new(Color::White, Role::Rook)),
        CASTLING_ROOK if rank == Rank::EIGHTH => Some(Piece::new(Color::Black, Role::Rook)),
        PUSHED_PAWN if rank == Rank::FOURTH => Some(Piece::new(Color::White, Role::Pawn)),
        PUSHED_PAWN if rank == Rank::FIFTH => Some(Piece::new(Color::Black, Role::Pawn)),
        _ => None,
    }
}

/// Builds a setup from symbols (checked again by the canonical re-encoding).
fn setup_from(syms: &[u8; 64], turn: Color, halfmove_clock: u32) -> Result<Setup, PositionCodeError> {
    let mut setup = decoded_setup(turn, halfmove_clock);
    for (sq, &sym) in Square::all().zip(syms) {
        if sym == EMPTY {
            continue;
        }
        let piece = piece_of(sym, sq).ok_or(PositionCodeError::Invalid("a symbol that cannot stand there"))?;
        setup.board.put(sq, piece);
        if sym == CASTLING_ROOK {
            setup.castling = setup.castling.with_square(sq);
        } else if sym == PUSHED_PAWN {
            let behind = sq.offset(if piece.color == Color::White { -8 } else { 8 });
            setup.ep_square = behind;
        }
    }
    Ok(setup)
}

/// The context of square `sq` given the symbols of the squares before it.
pub(super) fn context(syms: &[u8; 64], sq: usize) -> usize {
    let file = sq % 8;
    let rank = sq / 8;
    let left = usize::from(file > 0 && syms[sq - 1] != EMPTY);
    if rank == 0 {
        // a1: 0; b1..h1: 1 + 2·(file − 1) + left.
        return if file == 0 { 0 } else { 1 + 2 * (file - 1) + left };
    }
    let below = match (syms[sq - 8], rank - 1) {
        (EMPTY, _) => 0,
        (1, _) | (PUSHED_PAWN, 3) => 1,
        (7, _) | (PUSHED_PAWN, 4) => 2,
        _ => 3,
    };
    // Per rank above the first: a-file 4 contexts, then 8 per file.
    let base = 15 + (rank - 1) * 60;
    if file == 0 {
        base + below
    } else {
        base + 4 + 8 * (file - 1) + 2 * below + left
    }
}

/// What the coder knows while going through the squares, to exclude impossible symbols.
#[derive(Clone, Debug)]
struct Exclusions {
    /// The rank (0–7) where a pawn that just advanced two squares may stand.
    pushed_rank: usize,
    /// Symbols excluded from now on: kings already seen, the pushed pawn once seen.
    seen: u16,
}

impl Exclusions {
    fn new(turn: Color) -> Exclusions {
        Exclusions {
            pushed_rank: if turn == Color::White { 4 } else { 3 },
            seen: 0,
        }
    }

    /// The symbols excluded on `sq` now beyond those its rank always excludes, as a bit set.
    fn excluded(&self, sq: usize) -> u16 {
        let rank = sq / 8;
        if (rank == 3 || rank == 4) && rank != self.pushed_rank {
            self.seen | 1 << PUSHED_PAWN
        } else {
            self.seen
        }
    }

    fn saw(&mut self, sym: u8) {
        if matches!(sym, 6 | 12 | PUSHED_PAWN) {
            self.seen |= 1 << sym;
        }
    }
}

/// Symbols that can never stand on a square of `rank`, as a bit set (a pushed pawn may stand on
/// the fourth or fifth rank, depending on the side to move).
fn never_on(rank: usize) -> u16 {
    const PAWNS: u16 = 1 << 1 | 1 << 7;
    match rank {
        0 | 7 => PAWNS | 1 << PUSHED_PAWN,
        3 | 4 => 1 << CASTLING_ROOK,
        _ => 1 << CASTLING_ROOK | 1 << PUSHED_PAWN,
    }
}

/// The rank of the squares a context belongs to (see [`context`]).
fn context_rank(ctx: usize) -> usize {
    if ctx < 15 {
        0
    } else {
        1 + (ctx - 15) / 60
    }
}

/// Cumulative frequencies of the (context, phase) tables, entry `k` the total of the symbols below
/// `k`, with each frequency at least 1 and the symbols the rank never allows at 0. Computed once.
fn cumulative(ctx: usize, phase: usize) -> &'static [u32; SYMBOLS + 1] {
    static TABLES: OnceLock<Vec<[u32; SYMBOLS + 1]>> = OnceLock::new();
    const FALLBACK: [u32; SYMBOLS + 1] = [0; SYMBOLS + 1];
    let tables = TABLES.get_or_init(|| {
        let mut tables = Vec::with_capacity(CONTEXTS * PHASES);
        for (ctx, phases) in SQUARE_FREQS.iter().enumerate() {
            let never = never_on(context_rank(ctx));
            for row in phases {
                let mut cum = [0; SYMBOLS + 1];
                for (sym, &f) in row.iter().enumerate() {
                    let f = if never >> sym & 1 == 0 { u32::from(f).max(1) } else { 0 };
                    cum[sym + 1] = cum[sym] + f;
                }
                tables.push(cum);
            }
        }
        tables
    });
    tables.get(ctx * PHASES + phase).unwrap_or(&FALLBACK)
}

/// The cumulative frequencies for a square in context `ctx`, without the symbols in `excluded`.
fn square_cumulative(ctx: usize, phase: usize, excluded: u16) -> [u32; SYMBOLS + 1] {
    let mut cum = *cumulative(ctx, phase);
    let mut rest = excluded;
    while rest != 0 {
        let sym = rest.trailing_zeros() as usize;
        rest &= rest - 1;
        if sym < SYMBOLS {
            let f = cum[sym + 1] - cum[sym];
            for c in &mut cum[sym + 1..] {
                *c -= f;
            }
        }
    }
    cum
}

/// Cumulative bounds of symbol `sym` in `freqs`.
fn interval(freqs: &[u32], sym: usize) -> (u32, u32) {
    let low: u32 = freqs.iter().take(sym).sum();
    (low, low + freqs.get(sym).copied().unwrap_or(0))
}

/// Frequencies (each at least 1) and their total.
fn table<const N: usize>(freqs: &[u16; N]) -> ([u32; N], u32) {
    let freqs = freqs.map(|f| u32::from(f).max(1));
    (freqs, freqs.iter().sum())
}

fn clock_table(phase: usize) -> ([u32; CLOCK_SYMBOLS], u32) {
    table(CLOCK_FREQS.get(phase).unwrap_or(&[1; CLOCK_SYMBOLS]))
}

/// Codes the modeled form after its form symbol; `None` if a symbol is excluded (the fallback then
/// takes over).
fn write_modeled(setup: &Setup, syms: &[u8; 64]) -> Option<Vec<u8>> {
    let mut out = Vec::new();
    let mut enc = RangeEncoder::new(&mut out);
    enc.encode_bits(MODELED, 1);
    enc.encode_bits(u32::from(setup.turn == Color::Black), 1);
    let phase = phase(setup.board.occupied().count());
    let (freqs, total) = table(&PHASE_FREQS);
    let (low, high) = interval(&freqs, phase);
    enc.encode(low, high - low, total);
    let mut exclusions = Exclusions::new(setup.turn);
    for (sq, &sym) in syms.iter().enumerate() {
        let cum = square_cumulative(context(syms, sq), phase, exclusions.excluded(sq));
        let (low, high) = (cum[usize::from(sym)], cum[usize::from(sym) + 1]);
        if low == high {
            return None;
        }
        enc.encode(low, high - low, cum[SYMBOLS]);
        exclusions.saw(sym);
    }
    let (freqs, total) = clock_table(phase);
    let clock = setup.halfmove_clock;
    let (low, high) = interval(&freqs, clock.min(CLOCK_ESCAPE) as usize);
    enc.encode(low, high - low, total);
    if clock >= CLOCK_ESCAPE {
        let extra = clock - CLOCK_ESCAPE;
        enc.encode_bits(extra >> 16, 16);
        enc.encode_bits(extra & 0xffff, 16);
    }
    enc.finish_shortest();
    Some(out)
}

fn write_fallback(setup: &Setup, syms: &[u8; 64]) -> Vec<u8> {
    let mut w = BitWriter::new();
    w.write_bit(true);
    w.write_bit(setup.turn == Color::Black);
    for &sym in syms {
        w.write_bit(sym != EMPTY);
    }
    for &sym in syms.iter().filter(|&&s| s != EMPTY) {
        w.write(u64::from(sym) - 1, 4);
    }
    write_clock7(&mut w, setup.halfmove_clock);
    w.finish()
}

/// The bytes, trailing zero bytes dropped, and the bit length up to the last 1 bit.
fn write(setup: &Setup) -> Result<(Vec<u8>, u64), PositionCodeError> {
    let syms = symbols(setup)?;
    let fallback = trimmed(write_fallback(setup, &syms));
    Ok(match write_modeled(setup, &syms).map(trimmed) {
        Some(modeled) if modeled.1 <= fallback.1 => modeled,
        _ => fallback,
    })
}

/// `bytes` without trailing zero bytes, and their length in bits up to the last 1 bit.
fn trimmed(mut bytes: Vec<u8>) -> (Vec<u8>, u64) {
    while bytes.last() == Some(&0) {
        bytes.pop();
    }
    let bits = match bytes.last() {
        Some(last) => bytes.len() as u64 * 8 - u64::from(last.trailing_zeros()),
        None => 0,
    };
    (bytes, bits)
}

fn read_modeled(dec: &mut RangeDecoder<'_>) -> Result<Setup, PositionCodeError> {
    let turn = if dec.decode_bits(1)? == 1 {
        Color::Black
    } else {
        Color::White
    };
    let (freqs, total) = table(&PHASE_FREQS);
    let phase = decode_symbol(dec, &freqs, total)?;
    let mut syms = [EMPTY; 64];
    let mut exclusions = Exclusions::new(turn);
    for sq in 0..64 {
        let cum = square_cumulative(context(&syms, sq), phase, exclusions.excluded(sq));
        let target = dec.target(cum[SYMBOLS])?;
        let sym = cum[1..]
            .iter()
            .position(|&high| target < high)
            .ok_or(PositionCodeError::Invalid("range code value beyond the table"))?;
        dec.consume(cum[sym], cum[sym + 1] - cum[sym])?;
        syms[sq] = sym as u8;
        exclusions.saw(sym as u8);
    }
    let (freqs, total) = clock_table(phase);
    let mut clock = decode_symbol(dec, &freqs, total)? as u32;
    if clock == CLOCK_ESCAPE {
        let high = dec.decode_bits(16)?;
        let low = dec.decode_bits(16)?;
        clock = CLOCK_ESCAPE.saturating_add(high << 16 | low);
    }
    setup_from(&syms, turn, clock)
}

fn decode_symbol(dec: &mut RangeDecoder<'_>, freqs: &[u32], total: u32) -> Result<usize, PositionCodeError> {
    let target = dec.target(total)?;
    let mut low = 0;
    for (sym, &f) in freqs.iter().enumerate() {
        if target < low + f {
            dec.consume(low, f)?;
            return Ok(sym);
        }
        low += f;
    }
    Err(PositionCodeError::Invalid("range code value beyond the table"))
}

fn read_fallback(bits: &mut BitReader<'_>) -> Result<Setup, PositionCodeError> {
    let turn = read_turn(bits)?;
    let occupied = bits.read(64)?;
    let mut syms = [EMPTY; 64];
    for (sq, sym) in syms.iter_mut().enumerate() {
        if occupied >> (63 - sq) & 1 != 0 {
            *sym = bits.read(4)? as u8 + 1;
            if *sym > PUSHED_PAWN {
                return Err(PositionCodeError::Invalid("unused piece code"));
            }
        }
    }
    let clock = read_clock7(bits)?;
    setup_from(&syms, turn, clock)
}

/// Counts how often each symbol occurs in each context over many positions: the statistics the
/// modeled form's tables are made from. [`ModelTrainer::rust_source`] writes them in the format of
/// the `compact_model` module.
///
/// ```
/// use chessbits::codec::position::compact::ModelTrainer;
/// use chessbits::position::Setup;
/// let mut trainer = ModelTrainer::new();
/// trainer.add(&Setup::standard());
/// assert_eq!(trainer.positions(), 1);
/// assert!(trainer.rust_source().contains("SQUARE_FREQS"));
/// ```
#[derive(Clone, Debug)]
pub struct ModelTrainer {
    squares: Vec<[[u64; SYMBOLS]; PHASES]>,
    phases: [u64; PHASES],
    clock: [[u64; CLOCK_SYMBOLS]; PHASES],
    positions: u64,
}

impl Default for ModelTrainer {
    fn default() -> ModelTrainer {
        ModelTrainer::new()
    }
}

impl ModelTrainer {
    /// No positions yet.
    pub fn new() -> ModelTrainer {
        ModelTrainer {
            squares: vec![[[0; SYMBOLS]; PHASES]; CONTEXTS],
            phases: [0; PHASES],
            clock: [[0; CLOCK_SYMBOLS]; PHASES],
            positions: 0,
        }
    }

    /// Counts the symbols of `setup`; setups the code does not accept are skipped.
    pub fn add(&mut self, setup: &Setup) {
        let Ok(syms) = symbols(setup) else {
            return;
        };
        let phase = phase(setup.board.occupied().count());
        for sq in 0..64 {
            if let Some(counts) = self.squares.get_mut(context(&syms, sq)) {
                counts[phase][usize::from(syms[sq])] += 1;
            }
        }
        self.phases[phase] += 1;
        self.clock[phase][setup.halfmove_clock.min(CLOCK_ESCAPE) as usize] += 1;
        self.positions += 1;
    }

    /// Positions counted.
    pub fn positions(&self) -> u64 {
        self.positions
    }

    /// The tables as Rust source for `compact_model.rs`: counts scaled to a total below 2^15 per
    /// table (each symbol at least 1, so any board stays codable).
    pub fn rust_source(&self) -> String {
        let row = |counts: &[u64]| -> String {
            let freqs: Vec<String> = scale(counts, 1 << 15).iter().map(u32::to_string).collect();
            format!("[{}]", freqs.join(", "))
        };
        let mut out = String::new();
        out.push_str("//! The compact code's frequency tables, generated by `compact::ModelTrainer` (see the\n");
        out.push_str("//! ignored test `train_compact_model` in `tests/position_codes_games.rs`). Do not edit.\n");
        out.push_str(
            "//!\n//! A leaf module: the table sizes are written out, and `compact` checks them against its\n",
        );
        out.push_str("//! constants by type (`SYMBOLS`, `PHASES`, `CONTEXTS`, `CLOCK_SYMBOLS`).\n\n");
        out.push_str(&format!("// Trained on {} positions.\n\n", self.positions));
        out.push_str("/// How often each phase occurs.\n");
        out.push_str(&format!(
            "pub(super) static PHASE_FREQS: [u16; {PHASES}] = {};\n\n",
            row(&self.phases)
        ));
        out.push_str("/// Symbol frequencies by square context, then phase: one line per context.\n");
        out.push_str(&format!(
            "#[rustfmt::skip]\npub(super) static SQUARE_FREQS: [[[u16; {SYMBOLS}]; {PHASES}]; {CONTEXTS}] = [\n"
        ));
        for phases in &self.squares {
            let rows: Vec<String> = phases.iter().map(|counts| row(counts)).collect();
            out.push_str(&format!("    [{}],\n", rows.join(", ")));
        }
        out.push_str("];\n\n/// Halfmove clock frequencies by phase.\n");
        out.push_str(&format!(
            "#[rustfmt::skip]\npub(super) static CLOCK_FREQS: [[u16; {CLOCK_SYMBOLS}]; {PHASES}] = [\n"
        ));
        for counts in &self.clock {
            out.push_str(&format!("    {},\n", row(counts)));
        }
        out.push_str("];\n");
        out
    }
}

/// Scales counts to frequencies summing to at most `total`, each at least 1.
fn scale(counts: &[u64], total: u64) -> Vec<u32> {
    let sum: u64 = counts.iter().sum::<u64>().max(1);
    let room = total - counts.len() as u64;
    counts.iter().map(|&c| (1 + c * room / sum) as u32).collect()
}
