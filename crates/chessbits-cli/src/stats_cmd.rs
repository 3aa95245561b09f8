//! `chessbits stats`: what every move code and position code costs on a PGN file, and how the
//! archive compares with the PGN and its gzip and zstd compressions.

use std::io::{Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use chessbits::archive::{ArchiveWriter, MoveCodec, WriterOptions};
use chessbits::codec::position as position_codes;
use chessbits::codec::r#move::{direction_target, entropy, enumeration, index, lichess, per_square};
use chessbits::moves::Move;
use chessbits::pgn::{Game, PgnReader};
use chessbits::position::Position;
use indicatif::ProgressBar;
use rayon::prelude::*;

use crate::inputs::open_input;
use crate::output::say;

#[derive(clap::Args)]
pub struct StatsArgs {
    /// The PGN file (gzip or zstd compressed too; `-` reads standard input).
    file: PathBuf,
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

    fn measure_game(game: &Game) -> Totals {
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
            pos.make_move(m);
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

fn compressed_sizes(bytes: &[u8]) -> Result<(usize, usize), String> {
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(bytes).map_err(|e| e.to_string())?;
    let gzip = gz.finish().map_err(|e| e.to_string())?.len();
    let zstd = zstd::encode_all(bytes, 19).map_err(|e| e.to_string())?.len();
    Ok((gzip, zstd))
}

/// Bytes of the archive of `games`.
fn archive_size(games: &[Game], options: WriterOptions) -> Result<u64, chessbits::archive::ArchiveError> {
    let mut writer = ArchiveWriter::new(std::io::sink(), options)?;
    for game in games {
        match writer.add_game(game) {
            // Games the archive cannot hold (variations nested too deep) are left out, as `pack` does.
            Ok(()) | Err(chessbits::archive::ArchiveError::InvalidGame { .. }) => {}
            Err(e) => return Err(e),
        }
    }
    Ok(writer.finish()?.1.bytes)
}

pub fn run(args: StatsArgs) -> Result<ExitCode, String> {
    let path = &args.file;
    // The whole (decompressed) PGN: its gzip and zstd sizes are part of the table.
    let mut bytes = Vec::new();
    open_input(path, &ProgressBar::hidden())?
        .read_to_end(&mut bytes)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    let mut games = Vec::new();
    let mut errors = 0;
    for game in PgnReader::new(&bytes[..]).into_games() {
        match game {
            Ok(game) => games.push(game),
            Err(e) => {
                eprintln!("{}: {e}", path.display());
                errors += 1;
            }
        }
    }
    let totals = games
        .par_iter()
        .map(Totals::measure_game)
        .reduce(Totals::new, Totals::add);
    let (plies, positions) = (totals.plies, totals.positions);

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
    let (gzip, zstd) = compressed_sizes(&bytes)?;
    say!("{:<36} {:>10} {:>10}", "size", "bytes", "bits/move");
    for (name, size) in [("PGN", bytes.len()), ("PGN gzip -6", gzip), ("PGN zstd -19", zstd)] {
        say!("{name:<36} {size:>10} {:>10}", ratio(8.0 * size as f64, plies, 2));
    }
    for codec in MoveCodec::ALL {
        let options = WriterOptions {
            codec,
            zstd_level: 19,
            ..WriterOptions::default()
        };
        let archived = archive_size(&games, options).map_err(|e| format!("archive ({codec}): {e}"))?;
        say!(
            "{:<36} {:>10} {:>10}",
            format!("archive --codec {codec}"),
            archived,
            ratio(8.0 * archived as f64, plies, 2)
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// `total / count` with `precision` decimals, or `-` when there is nothing to divide by.
fn ratio(total: f64, count: u64, precision: usize) -> String {
    match count {
        0 => "-".to_string(),
        n => format!("{:.precision$}", total / n as f64),
    }
}
