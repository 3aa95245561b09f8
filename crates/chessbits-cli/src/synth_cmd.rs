//! `chessbits synth --games N --seed S -o FILE.pgn`: a synthetic, lichess-like game collection
//! of any size, for benchmarks that need more games than we have (a position index at 10 M).
//!
//! Each game is sampled from the entropy move model (see
//! [`Sampler`](chessbits::codec::moves::entropy::sample::Sampler)) after an opening line of the
//! lichess tables, with tags like those of the lichess database dumps. What is drawn, and how:
//!
//! - **opening**: a line of the tables (3,800 named lines), each weighing 1 up to 8 plies and
//!   `2^(-(plies - 8) / 4)` beyond: uniform over lines already gives the first moves about the
//!   shares they have on lichess (the tables name more variations where more games are played:
//!   53% 1.e4, 34% 1.d4, 5% 1.c4), and the decay keeps deep theory rarer than short lines;
//! - **moves**: the line, then moves drawn from the model until the game ends by itself
//!   (checkmate, stalemate, insufficient material, threefold repetition or the fifty-move rule,
//!   all draws lichess applies without a claim) or reaches its sampled length: 18 plies plus a
//!   negative binomial (3 successes at probability 1/20; mean about 75 plies, sd 34, right
//!   skewed), at most 400;
//! - **result** of a game that reached its length: by the Elo expectation of White's rating
//!   lead, plus 30 for the first move and 100 per pawn of material ahead (P 1, N/B 3, R 5,
//!   Q 9), with draws `base · 2·min(E, 1 − E)` (`base` from 3% at 1000 to 15% at 2500) so the
//!   expected score stays `E`; `Termination` "Time forfeit" for some decisive ones (40% in
//!   bullet down to 5% in correspondence), else "Normal";
//! - **time control**: 60+0 12%, 180+0 20%, 180+2 12%, 300+0 18%, 300+3 8%, 600+0 15%,
//!   600+5 6%, 900+10 5%, 1800+0 3%, `-` 1%; the `Event` is its lichess speed (estimated
//!   duration `base + 40 · increment`), rated in 92% of games;
//! - **players**: a pool of `max(50, N / 16)` named players in 25-Elo rating bands (band sizes
//!   follow a normal distribution, mean 1575, sd 300, 600 to 2900); White's band drawn from that
//!   distribution, Black's from White's rating plus a normal difference (sd 100, as lichess
//!   pairs close ratings); within a band the first players play most (a player at rank `k`
//!   is drawn with density ∝ `1/√k`), so names recur. A game's Elo is the player's rating ±30;
//! - **Site**: `https://lichess.org/` and 8 letters and digits, a seeded bijection of the game
//!   number (no two games share one); **UTCDate/UTCTime**: game `i` of `N` in slot `i` of
//!   2021-01-01 to 2024-12-31 (so the file is in time order, like the dumps);
//!   `ECO`/`Opening` from the lichess tables for the moves played (the deepest named position).
//!
//! Game `i` is a function of `(seed, N, i)` alone: it has its own generator, seeded from the
//! seed and `i`, so the file is the same for any number of threads. Games are made in batches
//! on all cores and written in order; memory stays that of one batch whatever `N`. The output
//! is written like the other commands' (a temporary file renamed at the end; `-` is standard
//! output).

use std::fmt::Write as _;
use std::io::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use chessbits::codec::moves::entropy::sample::{Sampler, SplitMix64};
use chessbits::eco::{self, EcoTable};
use chessbits::game::Game;
use chessbits::notation::san::San;
use chessbits::types::{Color, Role};
use rayon::prelude::*;

use crate::inputs::progress_bar;
use crate::json::Json;
use crate::output::Sink;

#[derive(clap::Args)]
#[command(after_help = "\
Games are sampled from the entropy move model after a line of the lichess opening tables, with
lichess-like tags (Event, Site, Date, White, Black, Result, UTCDate, UTCTime, WhiteElo, BlackElo,
ECO, Opening, TimeControl, Termination); names recur, so player searches find many games. The
same --games and --seed give the same file, byte for byte, on any number of cores.

The summary (games, plies, bytes, games per second) goes to standard error; --json makes it one
JSON object.")]
pub struct SynthArgs {
    /// Number of games to write.
    #[arg(long)]
    games: u64,
    /// Seed of the generator (any 64-bit number).
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Output file (`-`, the default, writes standard output).
    #[arg(short, long, default_value = "-")]
    output: PathBuf,
    /// Print the summary as one JSON object (on standard error).
    #[arg(long)]
    json: bool,
}

/// The most games a file may hold: `Site` ids are a bijection of 46-bit game numbers.
const MAX_GAMES: u64 = 1 << 46;

/// Games made between two writes: a few megabytes of text.
const BATCH: u64 = 8192;

/// Writes the games and prints the summary.
pub fn run(args: SynthArgs) -> Result<ExitCode, String> {
    if args.games > MAX_GAMES {
        return Err(format!("--games: at most {MAX_GAMES} games (2^46), not {}", args.games));
    }
    let started = Instant::now();
    let corpus = Corpus::new(args.seed, args.games);
    let mut sink = Sink::create(&args.output, &[])?;
    let bar = progress_bar(Some(args.games), "games");
    let (mut plies, mut bytes) = (0u64, 0u64);
    let mut first = 0;
    while first < args.games {
        let last = (first + BATCH).min(args.games);
        // Blocks of 64 games: a buffer each, reused by nothing, so no per-game allocation of output.
        let blocks: Vec<(Vec<u8>, u64)> = (first..last)
            .step_by(64)
            .collect::<Vec<_>>()
            .into_par_iter()
            .map_init(Worker::new, |worker, start| {
                let mut text = Vec::with_capacity(64 * 900);
                let mut block_plies = 0;
                for i in start..(start + 64).min(last) {
                    block_plies += worker.game(&corpus, i, &mut text);
                }
                (text, block_plies)
            })
            .collect();
        for (text, block_plies) in blocks {
            sink.write_all(&text).map_err(|e| sink.error(e))?;
            plies += block_plies;
            bytes += text.len() as u64;
        }
        bar.set_position(last);
        first = last;
    }
    bar.finish_and_clear();
    sink.commit()?;
    let seconds = started.elapsed().as_secs_f64().max(1e-9);
    let out_name = match args.output.as_os_str() == "-" {
        true => "standard output".to_string(),
        false => args.output.display().to_string(),
    };
    if args.json {
        let value = Json::obj([
            ("games", Json::from(args.games)),
            ("plies", Json::from(plies)),
            ("bytes", Json::from(bytes)),
            ("seed", Json::from(args.seed)),
            ("seconds", Json::from(seconds)),
            ("games_per_second", Json::from(args.games as f64 / seconds)),
        ]);
        eprintln!("{value}");
    } else {
        eprintln!(
            "synthesised {} games ({plies} plies, {bytes} bytes) to {out_name}: {seconds:.1}s, {:.0} games/s",
            args.games,
            args.games as f64 / seconds,
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// The time controls drawn, with their weights in percent.
const TIME_CONTROLS: [(&str, u64); 10] = [
    ("60+0", 12),
    ("180+0", 20),
    ("180+2", 12),
    ("300+0", 18),
    ("300+3", 8),
    ("600+0", 15),
    ("600+5", 6),
    ("900+10", 5),
    ("1800+0", 3),
    ("-", 1),
];

/// Lichess's speed of a time control (estimated duration `base + 40 · increment` seconds), and
/// the percentage of decisive games that a flag decides at that speed.
fn speed(time_control: &str) -> (&'static str, u64) {
    let Some((base, increment)) = time_control.split_once('+') else {
        return ("Correspondence", 5);
    };
    let base: u64 = base.parse().unwrap_or(0);
    let increment: u64 = increment.parse().unwrap_or(0);
    match base + 40 * increment {
        0..=179 => ("Bullet", 40),
        180..=479 => ("Blitz", 25),
        480..=1499 => ("Rapid", 15),
        _ => ("Classical", 10),
    }
}

/// The lowest rating of the pool and the width of its bands.
const RATING_FLOOR: i64 = 600;
const BAND: i64 = 25;
const BANDS: usize = 92; // 600 to 2900
const RATING_MEAN: i64 = 1575;
const RATING_SD: i64 = 300;

/// First 2021-01-01 00:00:00 UTC, and four years (1461 days) in seconds.
const EPOCH_START: u64 = 1_609_459_200;
const SPAN: u64 = 1461 * 86_400;

/// What every game shares: the seed, the count, the opening lines and their weights, the
/// player pool.
struct Corpus {
    seed: u64,
    games: u64,
    lines: &'static [eco::Line],
    /// Cumulative line weights (in 1/1024), for a binary search.
    line_weights: Vec<u64>,
    /// `band_start[b]`: the first player of band `b`; the last entry is the pool size.
    band_start: Vec<u64>,
}

impl Corpus {
    fn new(seed: u64, games: u64) -> Corpus {
        let lines = eco::lines();
        let mut total = 0;
        let line_weights = lines
            .iter()
            .map(|line| {
                total += line_weight(line.moves.len());
                total
            })
            .collect();
        let pool = (games / 16).max(50);
        // Band sizes: the normal density at each band's centre, scaled to the pool (at least
        // one player each).
        let density: Vec<f64> = (0..BANDS)
            .map(|b| {
                let centre = (RATING_FLOOR + BAND * b as i64 + BAND / 2 - RATING_MEAN) as f64 / RATING_SD as f64;
                (-0.5 * centre * centre).exp()
            })
            .collect();
        let sum: f64 = density.iter().sum();
        let mut band_start = Vec::with_capacity(BANDS + 1);
        let mut next = 0u64;
        for d in density {
            band_start.push(next);
            next += ((d / sum * pool as f64).round() as u64).max(1);
        }
        band_start.push(next);
        Corpus {
            seed,
            games,
            lines,
            line_weights,
            band_start,
        }
    }

    /// The generator of game `i`.
    fn rng(&self, i: u64) -> SplitMix64 {
        SplitMix64::new(SplitMix64::mix(
            self.seed ^ SplitMix64::mix(i.wrapping_add(0x5851_f42d_4c95_7f2d)),
        ))
    }

    fn line(&self, rng: &mut SplitMix64) -> &'static eco::Line {
        let total = self.line_weights.last().copied().unwrap_or(0);
        let pick = rng.below(total);
        let index = self.line_weights.partition_point(|&w| w <= pick);
        &self.lines[index.min(self.lines.len() - 1)]
    }

    /// A player near `rating`: the band holding it, a player of the band (the first ones more
    /// often), not `not`. Returns the player's number.
    fn player_near(&self, rating: i64, rng: &mut SplitMix64, not: Option<u64>) -> u64 {
        let band = ((rating - RATING_FLOOR) / BAND).clamp(0, BANDS as i64 - 1) as usize;
        let (start, size) = (self.band_start[band], self.band_start[band + 1] - self.band_start[band]);
        // u² of a uniform u: density ∝ 1/√k at rank k.
        let u = rng.next_u64() >> 32;
        let player = start + ((((u * u) >> 32) * size) >> 32);
        if Some(player) != not {
            return player;
        }
        // The band's only player (or the draw hit White): a neighbour, in the band or beside it.
        match player + 1 < self.band_start[BANDS] {
            true => player + 1,
            false => player - 1,
        }
    }

    /// The rating of player `p`: its band's floor and a fixed offset within the band.
    fn rating(&self, p: u64) -> i64 {
        let band = self.band_start.partition_point(|&s| s <= p) - 1;
        RATING_FLOOR
            + BAND * band as i64
            + (SplitMix64::mix(self.seed ^ p ^ 0xa076_1d64_78bd_642f) % BAND as u64) as i64
    }

    /// The name of player `p`: two words and the player's number (words hold no digits, so the
    /// number makes names unique).
    fn name(&self, p: u64, out: &mut String) {
        const FIRST: [&str; 32] = [
            "Silent", "Brave", "Lucky", "Dark", "Swift", "Clever", "Wild", "Royal", "Iron", "Golden", "Sleepy",
            "Crazy", "Happy", "Lone", "Tiny", "Grand", "Mad", "Cosmic", "Red", "Blue", "Frozen", "Hidden", "Quiet",
            "Rapid", "Old", "Young", "Funky", "Noble", "Bold", "Sneaky", "Magic", "Super",
        ];
        const SECOND: [&str; 32] = [
            "Knight", "Bishop", "Rook", "Pawn", "Queen", "King", "Gambit", "Castle", "Tiger", "Wolf", "Fox", "Eagle",
            "Dragon", "Panda", "Owl", "Shark", "Wizard", "Player", "Master", "Hunter", "Tactic", "Fork", "Pin",
            "Zugzwang", "Blunder", "Patzer", "Mate", "Storm", "Falcon", "Bear", "Lion", "Cat",
        ];
        let h = SplitMix64::mix(self.seed ^ p.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ 0xe703_7ed1_a0b4_28db);
        let (first, second) = (FIRST[(h & 31) as usize], SECOND[(h >> 5 & 31) as usize]);
        let _ = match h >> 10 & 3 {
            0 => write!(out, "{first}{second}{p}"),
            1 => write!(out, "{}_{}{p}", first.to_lowercase(), second.to_lowercase()),
            2 => write!(out, "{second}_{first}_{p}"),
            _ => write!(out, "{}{p}", second.to_lowercase()),
        };
    }

    /// The 8-character id of game `i`: a keyed Feistel permutation of 46 bits (so ids never
    /// repeat), in base 62.
    fn site_id(&self, i: u64) -> [u8; 8] {
        const ALPHABET: &[u8; 62] = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
        const HALF: u64 = (1 << 23) - 1;
        let (mut left, mut right) = (i >> 23 & HALF, i & HALF);
        for round in 0..4u64 {
            let f = SplitMix64::mix(self.seed ^ round.wrapping_mul(0xd6e8_feb8_6659_fd93) ^ right) & HALF;
            (left, right) = (right, left ^ f);
        }
        let mut n = left << 23 | right;
        let mut id = [b'0'; 8];
        for byte in id.iter_mut().rev() {
            *byte = ALPHABET[(n % 62) as usize];
            n /= 62;
        }
        id
    }

    /// The start time of game `i` (Unix seconds): in slot `i` of the span, at a random point of
    /// it.
    fn time(&self, i: u64, rng: &mut SplitMix64) -> u64 {
        let slot = SPAN / self.games.max(1);
        let offset = (u128::from(i) * u128::from(SPAN) / u128::from(self.games.max(1))) as u64;
        EPOCH_START + offset + rng.below(slot.max(1))
    }
}

/// The weight of an opening line of `plies` moves, in 1/1024: 1 up to 8 plies, halved every 4
/// plies beyond (linear between the halvings).
fn line_weight(plies: usize) -> u64 {
    let beyond = plies.saturating_sub(8) as u64;
    let (halvings, rest) = (beyond / 4, beyond % 4);
    let base = 1024u64 >> halvings.min(10);
    (base - base * rest / 8).max(1)
}

/// A standard normal deviate times `sd`, rounded: the sum of 12 uniforms (Irwin–Hall) in integer
/// arithmetic, so the same seed gives the same number on every machine.
fn normal(rng: &mut SplitMix64, sd: i64) -> i64 {
    let sum: i64 = (0..12).map(|_| (rng.next_u64() >> 48) as i64).sum();
    (sum - 6 * 65536) * sd / 65536
}

/// The sampled length of a game in plies (see the module docs).
fn target_plies(rng: &mut SplitMix64) -> usize {
    let (mut successes, mut failures) = (0, 0usize);
    while successes < 3 && failures < 382 {
        match rng.chance(1, 20) {
            true => successes += 1,
            false => failures += 1,
        }
    }
    18 + failures
}

/// Material of White minus Black, in pawns.
fn material_balance(game: &Game) -> i64 {
    let board = game.position().board();
    let mut balance = 0;
    for (role, value) in [
        (Role::Pawn, 1),
        (Role::Knight, 3),
        (Role::Bishop, 3),
        (Role::Rook, 5),
        (Role::Queen, 9),
    ] {
        let white = (board.by_role(role) & board.by_color(Color::White)).count() as i64;
        let black = (board.by_role(role) & board.by_color(Color::Black)).count() as i64;
        balance += value * (white - black);
    }
    balance
}

/// How a game ended.
enum End {
    /// By the rules: the winner (`None`: a draw).
    Rules(Option<Color>),
    /// At its sampled length: adjudicated by ratings and material.
    Length,
}

/// One thread's reusable state.
struct Worker {
    sampler: Sampler,
    movetext: String,
    name: String,
}

impl Worker {
    fn new() -> Worker {
        Worker {
            sampler: Sampler::new(),
            movetext: String::with_capacity(1024),
            name: String::with_capacity(32),
        }
    }

    /// Appends game `i` to `out`; returns its plies.
    fn game(&mut self, corpus: &Corpus, i: u64, out: &mut Vec<u8>) -> u64 {
        let mut rng = corpus.rng(i);
        // Every draw below happens in a fixed order: the game is a function of (seed, N, i).
        let tc_pick = rng.below(100);
        let mut acc = 0;
        let time_control = TIME_CONTROLS
            .iter()
            .find(|&&(_, w)| {
                acc += w;
                tc_pick < acc
            })
            .map_or("300+0", |&(tc, _)| tc);
        let (speed, flag_percent) = speed(time_control);
        let rated = rng.chance(92, 100);
        let white_rating = RATING_MEAN + normal(&mut rng, RATING_SD);
        let white = corpus.player_near(white_rating, &mut rng, None);
        let black_rating = corpus.rating(white) + normal(&mut rng, 100);
        let black = corpus.player_near(black_rating, &mut rng, Some(white));
        let white_elo = (corpus.rating(white) + rng.below(61) as i64 - 30).max(400);
        let black_elo = (corpus.rating(black) + rng.below(61) as i64 - 30).max(400);
        let time = corpus.time(i, &mut rng);
        let line = corpus.line(&mut rng);
        let target = target_plies(&mut rng).max(line.moves.len());

        let (game, end) = self.play(line, target, &mut rng);
        let plies = game.len() as u64;
        let (result, termination) = match end {
            End::Rules(winner) => (result_of(winner), "Normal"),
            End::Length => {
                let lead = white_elo - black_elo + 30 + 100 * material_balance(&game);
                let expected = 1.0 / (1.0 + 10f64.powf(-(lead.clamp(-1200, 1200) as f64) / 400.0));
                // Per 65536: the draw share, then White's wins.
                let e = (expected * 65536.0).round() as u64;
                let average = (white_elo + black_elo) / 2;
                let base = (3 + (average - 1000).clamp(0, 1500) * 12 / 1500) as u64; // percent
                let draw = base * 2 * e.min(65536 - e) / 100;
                let pick = rng.below(65536);
                let winner = match pick {
                    p if p < draw => None,
                    p if p < draw + e - draw / 2 => Some(Color::White),
                    _ => Some(Color::Black),
                };
                let flagged = winner.is_some() && rng.chance(flag_percent, 100);
                (result_of(winner), if flagged { "Time forfeit" } else { "Normal" })
            }
        };
        let opening = EcoTable::lichess().classify_keys(game.keys());

        let date = civil_date_of(time / 86_400);
        let clock = time % 86_400;
        let kind = if rated { "Rated" } else { "Casual" };
        let id = corpus.site_id(i);
        let _ = writeln!(out, "[Event \"{kind} {speed} game\"]");
        out.extend_from_slice(b"[Site \"https://lichess.org/");
        out.extend_from_slice(&id);
        out.extend_from_slice(b"\"]\n");
        let _ = writeln!(out, "[Date \"{date}\"]\n[Round \"-\"]");
        for (tag, player) in [("White", white), ("Black", black)] {
            self.name.clear();
            corpus.name(player, &mut self.name);
            let _ = writeln!(out, "[{tag} \"{}\"]", self.name);
        }
        let _ = writeln!(
            out,
            "[Result \"{result}\"]\n[UTCDate \"{date}\"]\n[UTCTime \"{:02}:{:02}:{:02}\"]",
            clock / 3600,
            clock / 60 % 60,
            clock % 60
        );
        let _ = writeln!(out, "[WhiteElo \"{white_elo}\"]\n[BlackElo \"{black_elo}\"]");
        if let Some(opening) = opening {
            let _ = writeln!(out, "[ECO \"{}\"]\n[Opening \"{}\"]", opening.eco, opening.name);
        }
        let _ = writeln!(
            out,
            "[TimeControl \"{time_control}\"]\n[Termination \"{termination}\"]\n"
        );
        out.extend_from_slice(self.movetext.as_bytes());
        let _ = writeln!(out, "{result}\n");
        plies
    }

    /// Plays `line`, then samples moves until the game ends or has `target` plies. Leaves the
    /// movetext (`1. e4 e5 2. Nf3 ...`, a space after each move) in `self.movetext`.
    fn play(&mut self, line: &eco::Line, target: usize, rng: &mut SplitMix64) -> (Game, End) {
        let mut game = Game::new();
        self.sampler.reset();
        self.movetext.clear();
        let end = loop {
            let ply = game.len();
            let pos = game.position();
            let next = match line.moves.get(ply) {
                Some(&m) => {
                    self.sampler.observe(pos, m);
                    Some(m)
                }
                // A game at its length that the last move mated or stalemated ends by that.
                None if ply >= target => match pos.count_legal_moves() {
                    0 => None,
                    _ => break End::Length,
                },
                None => self.sampler.sample(pos, rng),
            };
            let Some(m) = next else {
                if !pos.is_check() {
                    break End::Rules(None);
                }
                // Checkmate: the last move's `+` becomes `#`.
                if self.movetext.ends_with("+ ") {
                    self.movetext.truncate(self.movetext.len() - 2);
                    self.movetext.push_str("# ");
                }
                break End::Rules(Some(!pos.turn()));
            };
            if pos.turn() == Color::White {
                let _ = write!(self.movetext, "{}. ", ply / 2 + 1);
            }
            let _ = write!(self.movetext, "{}", San::from_move(pos, m));
            let material_changed = m.is_capture() || m.promotion().is_some();
            // The move is legal (from the table or the legal move list).
            if game.push(m).is_err() {
                break End::Length;
            }
            self.movetext
                .push_str(if game.position().is_check() { "+ " } else { " " });
            if (material_changed && game.is_insufficient_material())
                || game.is_threefold_repetition()
                || game.is_fifty_moves()
            {
                break End::Rules(None);
            }
        };
        (game, end)
    }
}

fn result_of(winner: Option<Color>) -> &'static str {
    match winner {
        Some(Color::White) => "1-0",
        Some(Color::Black) => "0-1",
        None => "1/2-1/2",
    }
}

/// `YYYY.MM.DD` of a day number since 1970-01-01.
fn civil_date_of(days: u64) -> String {
    chessbits_parquet::date_text(i32::try_from(days).expect("synthetic dates are before year 5 million"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_and_weights() {
        assert_eq!(civil_date_of(0), "1970.01.01");
        assert_eq!(civil_date_of(EPOCH_START / 86_400), "2021.01.01");
        assert_eq!(civil_date_of((EPOCH_START + SPAN) / 86_400 - 1), "2024.12.31");
        assert_eq!(civil_date_of(19_782), "2024.02.29");
        assert_eq!(line_weight(1), 1024);
        assert_eq!(line_weight(8), 1024);
        assert_eq!(line_weight(12), 512);
        assert!(line_weight(10) < 1024 && line_weight(10) > 512);
        assert_eq!(line_weight(100), 1);
    }

    #[test]
    fn site_ids_are_distinct_and_in_base62() {
        let corpus = Corpus::new(7, 1000);
        let mut seen = std::collections::HashSet::new();
        for i in (0..200_000).chain([MAX_GAMES - 1]) {
            let id = corpus.site_id(i);
            assert!(id.iter().all(u8::is_ascii_alphanumeric));
            assert!(seen.insert(id), "{i}");
        }
    }

    #[test]
    fn speeds_of_the_time_controls() {
        let speeds: Vec<&str> = TIME_CONTROLS.iter().map(|&(tc, _)| speed(tc).0).collect();
        assert_eq!(
            speeds,
            [
                "Bullet",
                "Blitz",
                "Blitz",
                "Blitz",
                "Blitz",
                "Rapid",
                "Rapid",
                "Rapid",
                "Classical",
                "Correspondence"
            ]
        );
        assert_eq!(TIME_CONTROLS.iter().map(|&(_, w)| w).sum::<u64>(), 100);
    }

    #[test]
    fn pool_players_are_distinct_and_rated_in_their_band() {
        let corpus = Corpus::new(1, 100_000);
        let pool = corpus.band_start[BANDS];
        assert!(pool >= 100_000 / 16, "{pool}");
        let mut names = std::collections::HashSet::new();
        for p in 0..pool {
            let mut name = String::new();
            corpus.name(p, &mut name);
            assert!(names.insert(name));
            assert!((RATING_FLOOR..RATING_FLOOR + BAND * BANDS as i64).contains(&corpus.rating(p)));
        }
        let mut rng = SplitMix64::new(3);
        for _ in 0..1000 {
            let white = corpus.player_near(1500, &mut rng, None);
            assert_ne!(corpus.player_near(corpus.rating(white), &mut rng, Some(white)), white);
        }
    }
}
