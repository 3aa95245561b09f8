//! `chessbits codecs`: what every move code and position code costs on a PGN file, and how the
//! archive compares with the PGN and its gzip and zstd compressions.
//!
//! The input is streamed: games are measured a batch at a time (in parallel, the per-batch totals
//! added up), fed in order to one archive writer per move codec whose output only counts bytes,
//! and the PGN bytes go through gzip and zstd on a thread of their own into counting sinks. Memory
//! stays bounded whatever the input size, and every total is a sum (or a maximum) over games, so
//! the figures depend neither on the batch size nor on the number of threads.

use std::io::{self, Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::mpsc::{sync_channel, Receiver, SyncSender};

use chessbits::codec::moves::{direction_target, entropy, enumeration, index, lichess, per_square};
use chessbits::codec::position as position_codes;
use chessbits::lists::MoveList;
use chessbits::moves::Move;
use chessbits::pgn::{GameBuilder, GameTree, Line, PgnReader};
use chessbits::position::Position;
use chessbits_archive::{ArchiveError, ArchiveWriter, MoveCodec, WriterOptions};
use indicatif::ProgressBar;
use rayon::prelude::*;

use crate::inputs::open_input;
use crate::json::Json;
use crate::output::say;

/// Games read before they are measured and dropped: enough to share out over the cores, few
/// enough (a few MB) that memory does not grow with the input.
const BATCH_GAMES: usize = 1024;

/// Chunks of PGN bytes waiting for the compressor thread: bounds the memory if it falls behind.
const COMPRESSOR_QUEUE: usize = 16;

#[derive(clap::Args)]
pub struct CodecsArgs {
    /// The PGN file (gzip or zstd compressed too; `-` reads standard input).
    file: PathBuf,
    /// Print one JSON object instead of the tables.
    #[arg(long)]
    json: bool,
}

/// The move codes measured one move at a time: name and cost in bits of `m` in `pos`.
type PerMoveCode = (&'static str, fn(&Position, Move) -> Option<u64>);

const PER_MOVE_CODES: [PerMoveCode; 6] = [
    ("index-byte (legal list)", |pos, m| {
        let mut out = Vec::new();
        index::write_byte_index(pos, m, &mut out)
            .ok()
            .map(|_| 8 * out.len() as u64)
    }),
    ("index-bits (legal list)", |pos, _| {
        Some(index::bits_for(pos.count_legal_moves()) as u64)
    }),
    ("index-bits (pseudo-legal list)", |pos, _| {
        let mut n = 0;
        pos.for_each_pseudo_legal_set(|set| n += set.len());
        Some(index::bits_for(n) as u64)
    }),
    ("per-square byte (no generation)", |pos, m| {
        let mut out = Vec::new();
        per_square::write(pos, m, &mut out).ok().map(|_| 8 * out.len() as u64)
    }),
    ("enumeration (all moves, 16 bits)", |pos, m| {
        enumeration::encode_move(pos, m).ok().map(|_| 16)
    }),
    ("direction-target (12 bits)", |pos, m| {
        direction_target::encode(pos, m).ok().map(|_| 12)
    }),
];

/// The move codes that encode a whole game at once: name and size in bytes of the game's moves.
type PerGameCode = (&'static str, fn(&Position, &[Move]) -> Option<u64>);

const PER_GAME_CODES: [PerGameCode; 2] = [
    ("lichess (ranked moves, Huffman)", |pos, moves| {
        lichess::encode_game(pos, moves).ok().map(|b| b.len() as u64)
    }),
    ("entropy (move model, range coder)", |pos, moves| {
        entropy::encode_game(pos, moves).ok().map(|b| b.len() as u64)
    }),
];

/// Totals for one game or a whole file.
#[derive(Clone, Default)]
struct Totals {
    games: u64,
    plies: u64,
    positions: u64,
    move_bits: Vec<u64>,
    move_failures: Vec<u64>,
    game_bytes: Vec<u64>,
    game_failures: Vec<u64>,
    position_bits: Vec<u64>,
    position_max: Vec<u64>,
    position_failures: Vec<u64>,
}

impl Totals {
    fn new() -> Totals {
        let positions = position_codes::all().len();
        Totals {
            move_bits: vec![0; PER_MOVE_CODES.len()],
            move_failures: vec![0; PER_MOVE_CODES.len()],
            game_bytes: vec![0; PER_GAME_CODES.len()],
            game_failures: vec![0; PER_GAME_CODES.len()],
            position_bits: vec![0; positions],
            position_max: vec![0; positions],
            position_failures: vec![0; positions],
            ..Totals::default()
        }
    }

    fn add(mut self, other: Totals) -> Totals {
        self.games += other.games;
        self.plies += other.plies;
        self.positions += other.positions;
        let sum = |a: &mut Vec<u64>, b: &[u64]| a.iter_mut().zip(b).for_each(|(x, y)| *x += y);
        sum(&mut self.move_bits, &other.move_bits);
        sum(&mut self.move_failures, &other.move_failures);
        sum(&mut self.game_bytes, &other.game_bytes);
        sum(&mut self.game_failures, &other.game_failures);
        sum(&mut self.position_bits, &other.position_bits);
        sum(&mut self.position_failures, &other.position_failures);
        self.position_max
            .iter_mut()
            .zip(&other.position_max)
            .for_each(|(x, y)| *x = (*x).max(*y));
        self
    }

    fn measure_position(&mut self, pos: &Position) {
        self.positions += 1;
        let setup = pos.to_setup();
        for (i, codec) in position_codes::all().iter().enumerate() {
            match codec.encoded_bits(&setup) {
                Ok(bits) => {
                    self.position_bits[i] += bits;
                    self.position_max[i] = self.position_max[i].max(bits);
                }
                Err(_) => self.position_failures[i] += 1,
            }
        }
    }

    fn measure_game(game: &GameTree) -> Totals {
        let mut totals = Totals::new();
        totals.games = 1;
        let mut pos = game.start.clone();
        for m in game.mainline() {
            totals.measure_position(&pos);
            for (i, (_, cost)) in PER_MOVE_CODES.iter().enumerate() {
                match cost(&pos, m) {
                    Some(bits) => totals.move_bits[i] += bits,
                    None => totals.move_failures[i] += 1,
                }
            }
            pos.play_unchecked(m);
            totals.plies += 1;
        }
        totals.measure_position(&pos);
        let moves: Vec<Move> = game.mainline().collect();
        for (i, (_, size)) in PER_GAME_CODES.iter().enumerate() {
            match size(&game.start, &moves) {
                Some(bytes) => totals.game_bytes[i] += bytes,
                None => totals.game_failures[i] += 1,
            }
        }
        totals
    }
}

/// An `io::Write` that keeps only the number of bytes written to it.
#[derive(Default)]
struct CountingSink(u64);

impl Write for CountingSink {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0 += buf.len() as u64;
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// The sizes of the whole (decompressed) PGN: plain, gzip -6 and zstd -19.
struct PgnSizes {
    plain: u64,
    gzip: u64,
    zstd: u64,
}

/// Compresses the chunks it receives, in order, until the sender is dropped.
fn compress(chunks: Receiver<Vec<u8>>) -> io::Result<PgnSizes> {
    let mut gzip = flate2::write::GzEncoder::new(CountingSink::default(), flate2::Compression::default());
    let mut zstd = zstd::stream::write::Encoder::new(CountingSink::default(), 19)?;
    let mut plain = 0;
    for chunk in chunks {
        plain += chunk.len() as u64;
        gzip.write_all(&chunk)?;
        zstd.write_all(&chunk)?;
    }
    Ok(PgnSizes {
        plain,
        gzip: gzip.finish()?.0,
        zstd: zstd.finish()?.0,
    })
}

/// Passes reads through, sending a copy of every chunk to the compressor thread.
struct Tee<R> {
    inner: R,
    copies: SyncSender<Vec<u8>>,
}

impl<R: Read> Read for Tee<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        if n > 0 {
            // A send fails only if the compressor stopped on an error; joining it reports that.
            let _ = self.copies.send(buf[..n].to_vec());
        }
        Ok(n)
    }
}

/// Whether the index-byte archive code can store every move of `game`, variations included. Its
/// move index is one byte: in a position with more than 256 legal moves (possible only with
/// promoted material) a move at index 256 or beyond cannot be written, and the archive would
/// reject the whole block at encoding time. Games it refuses for other reasons (illegal moves,
/// null moves in check, nesting too deep) pass here: the writer turns them away itself.
fn fits_index_byte(game: &GameTree) -> bool {
    fn line_fits(pos: &mut Position, line: &Line, list: &mut MoveList, depth: usize) -> bool {
        if depth > 256 {
            return true;
        }
        for node in &line.nodes {
            let m = node.mv;
            if m.is_null() {
                if pos.is_check() {
                    return true;
                }
            } else {
                if !pos.is_legal(m) {
                    return true;
                }
                if pos.count_legal_moves() > 256 {
                    pos.legal_moves_into(list);
                    if list.iter().position(|&x| x == m).is_some_and(|i| i > 255) {
                        return false;
                    }
                }
            }
            for variation in &node.variations {
                if !line_fits(&mut pos.clone(), variation, list, depth + 1) {
                    return false;
                }
            }
            if m.is_null() {
                pos.make_null_move();
            } else {
                pos.play_unchecked(m);
            }
        }
        true
    }
    line_fits(&mut game.start.clone(), &game.moves, &mut MoveList::new(), 0)
}

/// One archive (one move codec) being written, of which only the size is kept.
struct ArchiveSize {
    codec: MoveCodec,
    writer: ArchiveWriter<CountingSink>,
    /// Games the writer turned away (as `pack` does, they are left out).
    left_out: u64,
    /// Games left out of the index-byte archive because a move index does not fit its byte.
    index_too_large: u64,
}

impl ArchiveSize {
    fn new(codec: MoveCodec) -> Result<ArchiveSize, String> {
        let options = WriterOptions {
            codec,
            zstd_level: 19,
            ..WriterOptions::default()
        };
        Ok(ArchiveSize {
            codec,
            writer: ArchiveWriter::new(CountingSink::default(), options)
                .map_err(|e| format!("archive ({codec}): {e}"))?,
            left_out: 0,
            index_too_large: 0,
        })
    }

    fn add(&mut self, game: &GameTree, fits_index_byte: bool) -> Result<(), String> {
        if self.codec == MoveCodec::IndexByte && !fits_index_byte {
            self.index_too_large += 1;
            return Ok(());
        }
        match self.writer.add_game(game) {
            Ok(()) => Ok(()),
            // Games the archive cannot hold (variations nested too deep) are left out, as `pack` does.
            Err(ArchiveError::InvalidGame { .. }) => {
                self.left_out += 1;
                Ok(())
            }
            Err(e) => Err(format!("archive ({}): {e}", self.codec)),
        }
    }

    /// The archive's size in bytes and a note on the games left out of it.
    fn finish(self) -> Result<(u64, String), String> {
        let codec = self.codec;
        let bytes = self
            .writer
            .finish()
            .map_err(|e| format!("archive ({codec}): {e}"))?
            .1
            .bytes;
        let mut note = String::new();
        if self.index_too_large > 0 {
            note += &format!(
                "  ({} games left out: the byte index cannot encode a move at index 256 or above)",
                self.index_too_large
            );
        }
        if self.left_out > 0 {
            note += &format!("  ({} games left out: the archive cannot store them)", self.left_out);
        }
        Ok((bytes, note))
    }
}

/// Measures a batch of games and hands them to the archives, in order; leaves `batch` empty.
fn process_batch(batch: &mut Vec<GameTree>, totals: &mut Totals, archives: &mut [ArchiveSize]) -> Result<(), String> {
    let (measured, fits) = rayon::join(
        || {
            batch
                .par_iter()
                .map(Totals::measure_game)
                .reduce(Totals::new, Totals::add)
        },
        || batch.par_iter().map(fits_index_byte).collect::<Vec<bool>>(),
    );
    *totals = std::mem::replace(totals, Totals::new()).add(measured);
    for archive in archives.iter_mut() {
        for (game, &fits) in batch.iter().zip(&fits) {
            archive.add(game, fits)?;
        }
    }
    batch.clear();
    Ok(())
}

pub fn run(args: CodecsArgs) -> Result<ExitCode, String> {
    let path = &args.file;
    let (copies, chunks) = sync_channel(COMPRESSOR_QUEUE);
    let compressor = std::thread::spawn(move || compress(chunks));
    let input = open_input(path, &ProgressBar::hidden())?;
    let mut reader = PgnReader::new(Tee { inner: input, copies });
    let mut builder = GameBuilder::new();
    let mut archives = MoveCodec::ALL
        .into_iter()
        .map(ArchiveSize::new)
        .collect::<Result<Vec<_>, _>>()?;
    let mut totals = Totals::new();
    let mut batch = Vec::with_capacity(BATCH_GAMES);
    let mut errors = 0;
    loop {
        match reader.read_game(&mut builder) {
            Ok(Some(Ok(game))) => {
                batch.push(game);
                if batch.len() >= BATCH_GAMES {
                    process_batch(&mut batch, &mut totals, &mut archives)?;
                }
            }
            Ok(Some(Err(e))) => {
                eprintln!("{}: {e}", path.display());
                errors += 1;
            }
            Ok(None) => break,
            Err(e) => return Err(format!("{}: {e}", path.display())),
        }
    }
    process_batch(&mut batch, &mut totals, &mut archives)?;
    // The reader has seen the end of the input; dropping it (and its sender) ends the compressor.
    drop(reader);
    let sizes = compressor
        .join()
        .map_err(|_| "the compressor thread panicked".to_string())?
        .map_err(|e| format!("compressing {}: {e}", path.display()))?;
    let (plies, positions) = (totals.plies, totals.positions);
    let status = match errors {
        0 => ExitCode::SUCCESS,
        _ => ExitCode::from(1),
    };
    if args.json {
        say!("{}", to_json(&args, &totals, errors, &sizes, archives)?);
        return Ok(status);
    }

    say!(
        "{}: {} games, {} plies, {} positions, {errors} games with errors",
        path.display(),
        totals.games,
        totals.plies,
        totals.positions
    );
    say!();
    say!("{:<36} {:>10}", "move code", "bits/move");
    for (i, (name, _)) in PER_MOVE_CODES.iter().enumerate() {
        let note = if totals.move_failures[i] > 0 {
            format!("  ({} moves not encodable)", totals.move_failures[i])
        } else {
            String::new()
        };
        say!("{name:<36} {:>10}{note}", ratio(totals.move_bits[i] as f64, plies, 3));
    }
    for (i, (name, _)) in PER_GAME_CODES.iter().enumerate() {
        let note = if totals.game_failures[i] > 0 {
            format!("  ({} games not encodable)", totals.game_failures[i])
        } else {
            String::new()
        };
        let bits = ratio(8.0 * totals.game_bytes[i] as f64, plies, 3);
        say!("{name:<36} {bits:>10}{note}  (whole bytes per game)");
    }
    say!();
    say!("{:<36} {:>10} {:>10}", "position code", "avg bits", "max bits");
    for (i, codec) in position_codes::all().iter().enumerate() {
        let note = if totals.position_failures[i] > 0 {
            format!("  ({} positions unsupported)", totals.position_failures[i])
        } else {
            String::new()
        };
        say!(
            "{:<36} {:>10} {:>10}{note}",
            codec.name(),
            ratio(totals.position_bits[i] as f64, positions, 1),
            totals.position_max[i]
        );
    }
    say!();
    say!("{:<36} {:>10} {:>10}", "size", "bytes", "bits/move");
    for (name, size) in [
        ("PGN", sizes.plain),
        ("PGN gzip -6", sizes.gzip),
        ("PGN zstd -19", sizes.zstd),
    ] {
        say!("{name:<36} {size:>10} {:>10}", ratio(8.0 * size as f64, plies, 2));
    }
    for archive in archives {
        let codec = archive.codec;
        let (archived, note) = archive.finish()?;
        say!(
            "{:<36} {:>10} {:>10}{note}",
            format!("archive --codec {codec}"),
            archived,
            ratio(8.0 * archived as f64, plies, 2)
        );
    }
    Ok(status)
}

/// `total / count`, or `null` when there is nothing to divide by.
fn json_ratio(total: f64, count: u64) -> Json {
    match count {
        0 => Json::Null,
        n => Json::from(total / n as f64),
    }
}

/// The report as one JSON object: the same figures as the tables.
fn to_json(
    args: &CodecsArgs,
    totals: &Totals,
    errors: u64,
    sizes: &PgnSizes,
    archives: Vec<ArchiveSize>,
) -> Result<Json, String> {
    let (plies, positions) = (totals.plies, totals.positions);
    let mut move_codes = Vec::new();
    for (i, (name, _)) in PER_MOVE_CODES.iter().enumerate() {
        move_codes.push(Json::obj([
            ("code", Json::from(*name)),
            ("bits_per_move", json_ratio(totals.move_bits[i] as f64, plies)),
            ("moves_not_encodable", Json::from(totals.move_failures[i])),
        ]));
    }
    for (i, (name, _)) in PER_GAME_CODES.iter().enumerate() {
        move_codes.push(Json::obj([
            ("code", Json::from(*name)),
            ("bits_per_move", json_ratio(8.0 * totals.game_bytes[i] as f64, plies)),
            ("games_not_encodable", Json::from(totals.game_failures[i])),
        ]));
    }
    let position_codes: Vec<Json> = position_codes::all()
        .iter()
        .enumerate()
        .map(|(i, codec)| {
            Json::obj([
                ("code", Json::from(codec.name())),
                ("avg_bits", json_ratio(totals.position_bits[i] as f64, positions)),
                ("max_bits", Json::from(totals.position_max[i])),
                ("positions_unsupported", Json::from(totals.position_failures[i])),
            ])
        })
        .collect();
    let size_row = |format: String, bytes: u64, note: &str| {
        Json::obj([
            ("format", Json::from(format)),
            ("bytes", Json::from(bytes)),
            ("bits_per_move", json_ratio(8.0 * bytes as f64, plies)),
            ("note", Json::from(note.trim())),
        ])
    };
    let mut sizes_json = vec![
        size_row("PGN".to_string(), sizes.plain, ""),
        size_row("PGN gzip -6".to_string(), sizes.gzip, ""),
        size_row("PGN zstd -19".to_string(), sizes.zstd, ""),
    ];
    for archive in archives {
        let codec = archive.codec;
        let (bytes, note) = archive.finish()?;
        sizes_json.push(size_row(format!("archive --codec {codec}"), bytes, &note));
    }
    Ok(Json::obj([
        ("file", Json::from(args.file.display().to_string())),
        ("games", Json::from(totals.games)),
        ("plies", Json::from(plies)),
        ("positions", Json::from(positions)),
        ("errors", Json::from(errors)),
        ("move_codes", Json::Arr(move_codes)),
        ("position_codes", Json::Arr(position_codes)),
        ("sizes", Json::Arr(sizes_json)),
    ]))
}

/// `total / count` with `precision` decimals, or `-` when there is nothing to divide by.
fn ratio(total: f64, count: u64, precision: usize) -> String {
    match count {
        0 => "-".to_string(),
        n => format!("{:.precision$}", total / n as f64),
    }
}
