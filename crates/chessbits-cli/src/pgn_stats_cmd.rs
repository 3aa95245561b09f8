//! `chessbits pgn stats FILE|DIR...`: what a collection of games holds: results, lengths,
//! players, openings, ECO codes, terminations.
//!
//! Streams: one game at a time, counters only. Lengths are kept as a histogram (plies → games)
//! for the median; players, openings, ECO codes and terminations as maps of counts, of which the
//! `--top` most frequent are printed. `--player P` reports on one player instead
//! (`player_report.rs`).

use std::collections::{BTreeMap, HashMap};
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use chessbits::pgn::GameResult;
use indicatif::ProgressBar;

use crate::games::{eco_of, expand_with_progress, for_each_game, EcoSource, ErrorLog};
use crate::json::Json;
use crate::output::write_error;
use crate::player_report::PlayerReport;

#[derive(clap::Args)]
#[command(after_help = crate::player_report::PLAYER_HELP)]
pub struct StatsArgs {
    /// PGN files (plain, gzip or zstd) or `.cbits` archives, recognised by content; `-` reads standard input; a directory, every `.pgn`, `.pgn.gz`, `.pgn.zst` and `.cbits` file below it.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// How many players, openings, ECO codes and terminations to list (the most frequent).
    #[arg(long, default_value_t = 10)]
    top: usize,
    /// Report on this player only (a part of the name, any case): games, wins, draws and losses
    /// by colour, score, performance rating, most played openings by colour.
    #[arg(long)]
    player: Option<String>,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

/// The counters.
#[derive(Default)]
struct Stats {
    games: u64,
    errors: ErrorLog,
    results: [u64; 4],
    /// Plies of the main line → games.
    lengths: BTreeMap<u32, u64>,
    players: HashMap<String, u64>,
    openings: HashMap<String, u64>,
    ecos: HashMap<String, u64>,
    eco_from_tag: u64,
    eco_classified: u64,
    eco_unknown: u64,
    terminations: HashMap<String, u64>,
    checkmates: u64,
    stalemates: u64,
}

const RESULTS: [GameResult; 4] = [
    GameResult::WhiteWins,
    GameResult::BlackWins,
    GameResult::Draw,
    GameResult::Unknown,
];

fn result_index(result: GameResult) -> usize {
    RESULTS.iter().position(|&r| r == result).unwrap_or(3)
}

/// A tag's value if present and not a placeholder (`?`, `-`, empty).
fn known(value: Option<std::borrow::Cow<'_, str>>) -> Option<String> {
    let value = value?;
    let value = value.trim();
    match value {
        "" | "?" | "-" | "??" => None,
        v => Some(v.to_string()),
    }
}

impl Stats {
    fn add(&mut self, game: &chessbits::pgn::GameTree) {
        self.results[result_index(game.declared_result())] += 1;
        let plies = game.moves.nodes.len() as u32;
        *self.lengths.entry(plies).or_default() += 1;
        for side in ["White", "Black"] {
            if let Some(name) = known(game.tag(side)) {
                *self.players.entry(name).or_default() += 1;
            }
        }
        let opening = known(game.tag("Opening")).unwrap_or_else(|| "(no Opening tag)".to_string());
        *self.openings.entry(opening).or_default() += 1;
        match eco_of(game) {
            Some((eco, source)) => {
                *self.ecos.entry(eco).or_default() += 1;
                match source {
                    EcoSource::Tag => self.eco_from_tag += 1,
                    EcoSource::Classified => self.eco_classified += 1,
                }
            }
            None => self.eco_unknown += 1,
        }
        let termination = known(game.tag("Termination")).unwrap_or_else(|| "(no Termination tag)".to_string());
        *self.terminations.entry(termination).or_default() += 1;
        let last = game.final_position();
        if last.is_checkmate() {
            self.checkmates += 1;
        } else if last.is_stalemate() {
            self.stalemates += 1;
        }
    }

    fn counted(&self) -> u64 {
        self.lengths.values().sum()
    }

    /// Min, mean, median (the lower middle for an even count) and max plies.
    fn length_summary(&self) -> Option<(u32, f64, u32, u32)> {
        let n = self.counted();
        let (&min, &max) = (self.lengths.keys().next()?, self.lengths.keys().next_back()?);
        let total: u64 = self.lengths.iter().map(|(&p, &c)| u64::from(p) * c).sum();
        let middle = (n - 1) / 2;
        let mut seen = 0;
        let mut median = min;
        for (&plies, &count) in &self.lengths {
            seen += count;
            if seen > middle {
                median = plies;
                break;
            }
        }
        Some((min, total as f64 / n as f64, median, max))
    }
}

/// The `n` most frequent entries, most frequent first (ties by name).
fn top(map: &HashMap<String, u64>, n: usize) -> Vec<(&str, u64)> {
    let mut entries: Vec<(&str, u64)> = map.iter().map(|(k, &v)| (k.as_str(), v)).collect();
    entries.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
    entries.truncate(n);
    entries
}

fn top_json(map: &HashMap<String, u64>, n: usize) -> Json {
    Json::Arr(
        top(map, n)
            .into_iter()
            .map(|(name, count)| Json::obj([("name", Json::from(name)), ("games", Json::from(count))]))
            .collect(),
    )
}

pub fn run(args: StatsArgs) -> Result<ExitCode, String> {
    let (files, bar) = expand_with_progress(&args.files)?;
    if let Some(player) = &args.player {
        return run_player(&files, &bar, player, &args);
    }
    let mut stats = Stats::default();
    for_each_game(&files, &bar, |input| {
        stats.games += 1;
        match &input.game {
            Ok(game) => stats.add(game),
            Err(error) => stats.errors.record(&bar, error),
        }
        Ok(())
    })?;
    bar.finish_and_clear();
    let mut out = std::io::stdout().lock();
    let written = if args.json {
        writeln!(out, "{}", to_json(&stats, args.top))
    } else {
        print_text(&mut out, &stats, args.top)
    };
    written.map_err(|e| write_error("standard output", e))?;
    Ok(match stats.errors.is_empty() {
        true => ExitCode::SUCCESS,
        false => ExitCode::from(1),
    })
}

/// `--player`: the player's report instead of the collection's.
fn run_player(files: &[PathBuf], bar: &ProgressBar, player: &str, args: &StatsArgs) -> Result<ExitCode, String> {
    let mut report = PlayerReport::new(player);
    for_each_game(files, bar, |input| {
        report.games += 1;
        match &input.game {
            Ok(game) => report.add(game),
            Err(error) => report.errors.record(bar, error),
        }
        Ok(())
    })?;
    bar.finish_and_clear();
    let mut out = std::io::stdout().lock();
    let written = match args.json {
        true => writeln!(out, "{}", report.to_json(args.top)),
        false => report.print_text(&mut out, args.top),
    };
    written.map_err(|e| write_error("standard output", e))?;
    Ok(match report.errors.is_empty() {
        true => ExitCode::SUCCESS,
        false => ExitCode::from(1),
    })
}

fn to_json(stats: &Stats, n: usize) -> Json {
    let results = Json::obj(
        RESULTS
            .iter()
            .map(|r| (r.as_str(), Json::from(stats.results[result_index(*r)]))),
    );
    let lengths = match stats.length_summary() {
        Some((min, mean, median, max)) => Json::obj([
            ("min", Json::from(min)),
            ("mean", Json::from(mean)),
            ("median", Json::from(median)),
            ("max", Json::from(max)),
        ]),
        None => Json::Null,
    };
    Json::obj([
        ("games", Json::from(stats.games)),
        ("errors", Json::from(stats.errors.count)),
        ("counted", Json::from(stats.counted())),
        ("results", results),
        ("plies", lengths),
        ("players", top_json(&stats.players, n)),
        ("openings", top_json(&stats.openings, n)),
        (
            "eco",
            Json::obj([
                ("from_tag", Json::from(stats.eco_from_tag)),
                ("classified", Json::from(stats.eco_classified)),
                ("unknown", Json::from(stats.eco_unknown)),
                ("top", top_json(&stats.ecos, n)),
            ]),
        ),
        ("terminations", top_json(&stats.terminations, n)),
        (
            "final_position",
            Json::obj([
                ("checkmate", Json::from(stats.checkmates)),
                ("stalemate", Json::from(stats.stalemates)),
            ]),
        ),
        ("error_messages", stats.errors.messages_json()),
    ])
}

fn print_text(out: &mut impl Write, stats: &Stats, n: usize) -> std::io::Result<()> {
    writeln!(
        out,
        "games {} ({} with errors, left out below)",
        stats.games, stats.errors.count
    )?;
    let results: Vec<String> = RESULTS
        .iter()
        .map(|r| format!("{} {}", r.as_str(), stats.results[result_index(*r)]))
        .collect();
    writeln!(out, "results {}", results.join(", "))?;
    if let Some((min, mean, median, max)) = stats.length_summary() {
        writeln!(out, "plies min {min}, mean {mean:.1}, median {median}, max {max}")?;
    }
    writeln!(
        out,
        "final position: {} checkmate, {} stalemate",
        stats.checkmates, stats.stalemates
    )?;
    let section = |out: &mut dyn Write, title: &str, map: &HashMap<String, u64>| -> std::io::Result<()> {
        writeln!(out, "\n{title} (top {n} of {}):", map.len())?;
        for (name, count) in top(map, n) {
            writeln!(out, "{count:>8}  {name}")?;
        }
        Ok(())
    };
    section(out, "players", &stats.players)?;
    section(out, "openings (Opening tag)", &stats.openings)?;
    section(
        out,
        &format!(
            "ECO ({} from the ECO tag, {} classified by the lichess tables, {} unknown)",
            stats.eco_from_tag, stats.eco_classified, stats.eco_unknown
        ),
        &stats.ecos,
    )?;
    section(out, "terminations (Termination tag)", &stats.terminations)?;
    Ok(())
}
