//! `chessbits pgn filter FILE|DIR... [-o OUT]`: the games that match every condition given,
//! written byte for byte as they stand in the input (or packed into a `.cbits` archive).
//!
//! Games are cut from the input with [`PgnReader::read_raw_game`](chessbits::pgn::PgnReader),
//! so a game written out is the input's text, unchanged: tags, comments, line breaks and
//! encoding. Each game is followed by a line break and a blank line between games, in the game's
//! own line-break style (LF, CR LF or CR). A game that cannot be read
//! (an illegal move, broken movetext) matches nothing: it is reported as `file:line: reason`
//! and the exit status is 1.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use chessbits::pgn::{GameResult, GameTree, Speed};
use chessbits_archive::{ArchiveWriter, MoveCodec, WriterOptions};

use crate::archive_cmd::archive_write_error;
use crate::dedup::{date_tag, Dedup};
use crate::games::{
    classify, eco_of, expand_with_progress_for_output, for_each_game, input_name, is_eco_code, ErrorLog,
};
use crate::json::Json;
use crate::output::Sink;

#[derive(clap::Args)]
#[command(after_help = "\
A game is written when it meets every condition given. Names (--player, --white, --black) and
--opening match a part of the tag's value, ignoring case (\"carlsen\" matches \"Carlsen, Magnus\").
--elo-min/--elo-max bound both players' ratings: a game matches when WhiteElo and BlackElo are
both numbers and both within the bounds (a game with a rating missing never matches them).
--player-elo-min/--player-elo-max bound the rating of the --player only: the Elo tag of the side
whose name matches (either side, when both names match); the opponent's rating does not matter.
--speed takes lichess's categories of the TimeControl tag: the estimated duration base + 40 ×
increment seconds under 30 is ultraBullet, under 180 bullet, under 480 blitz, under 1500 rapid,
else classical; `-` or days per move is correspondence (a game without a TimeControl never
matches). --since/--until take YYYY, YYYY.MM or YYYY.MM.DD (`-` also separates) and bound
UTCDate, else Date, both ends included; a partial date (2023.??.??) is compared by its known
part (2023.??.?? is within --since 2023.06.01), a game with no known year never matches.
--opening looks in the Opening tag, or, for a game without one, in the name that the lichess
opening tables give its moves; --eco uses the ECO tag, or the code of that classification.
Plies are half-moves of the main line.

--dedup leaves out duplicates among the games that match (as `chessbits pgn dedup`). Duplicates:
the same main line from the same start position and the same White, Black and date (UTCDate,
else Date); each is reported as `file:line duplicates file:line`. Each distinct game is
remembered as a 128-bit hash (about 50 bytes), never its text: memory grows with the number of
distinct games, not their size.

The summary (games read, matched, duplicates, errors) goes to standard error; --json makes it one
JSON object.")]
pub struct FilterArgs {
    /// PGN files (plain, gzip or zstd) or `.cbits` archives, recognised by content; `-` reads standard input; a directory, every `.pgn`, `.pgn.gz`, `.pgn.zst` and `.cbits` file below it.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Output file (`-`, the default, writes standard output).
    #[arg(short, long, default_value = "-")]
    output: PathBuf,
    /// `pgn`: each game's text as in the input; `cbits`: a `.cbits` archive (as `pack` writes).
    #[arg(long, value_enum, default_value = "pgn")]
    format: Format,
    /// A tag with exactly this value, `NAME=VALUE` (repeatable: all must hold).
    #[arg(long = "tag", value_name = "NAME=VALUE", value_parser = parse_tag)]
    tags: Vec<(String, String)>,
    /// A player, White or Black (a part of the name, any case).
    #[arg(long)]
    player: Option<String>,
    /// The White player (a part of the name, any case).
    #[arg(long)]
    white: Option<String>,
    /// The Black player (a part of the name, any case).
    #[arg(long)]
    black: Option<String>,
    /// Both players rated at least this (WhiteElo and BlackElo).
    #[arg(long)]
    elo_min: Option<u32>,
    /// Both players rated at most this (WhiteElo and BlackElo).
    #[arg(long)]
    elo_max: Option<u32>,
    /// The --player's own rating at least this (the Elo tag of the side whose name matches).
    #[arg(long, requires = "player")]
    player_elo_min: Option<u32>,
    /// The --player's own rating at most this (the Elo tag of the side whose name matches).
    #[arg(long, requires = "player")]
    player_elo_max: Option<u32>,
    /// Time-control categories, as lichess defines them from TimeControl (comma-separated):
    /// ultraBullet, bullet, blitz, rapid, classical, correspondence.
    #[arg(long, value_delimiter = ',', value_parser = parse_speed)]
    speed: Vec<Speed>,
    /// Played on or after this date (UTCDate, else Date): YYYY, YYYY.MM or YYYY.MM.DD.
    #[arg(long, value_parser = parse_date_bound)]
    since: Option<PgnDate>,
    /// Played on or before this date (UTCDate, else Date): YYYY, YYYY.MM or YYYY.MM.DD.
    #[arg(long, value_parser = parse_date_bound)]
    until: Option<PgnDate>,
    /// Leave out duplicates (same main line, White, Black and date); each is reported.
    #[arg(long)]
    dedup: bool,
    /// The result.
    #[arg(long, value_parser = ["1-0", "0-1", "1/2-1/2", "*"])]
    result: Option<String>,
    /// A part of the opening's name (Opening tag, else the classification), any case.
    #[arg(long)]
    opening: Option<String>,
    /// ECO codes: a range `A00-B99` (inclusive) or a prefix `B`, `B2`, `B20`.
    #[arg(long, value_parser = parse_eco)]
    eco: Option<EcoFilter>,
    /// At least this many plies.
    #[arg(long)]
    min_plies: Option<usize>,
    /// At most this many plies.
    #[arg(long)]
    max_plies: Option<usize>,
    /// Print the summary as one JSON object (on standard error).
    #[arg(long)]
    json: bool,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
enum Format {
    Pgn,
    Cbits,
}

/// `--eco`: an inclusive range of codes, or a prefix.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EcoFilter {
    Range(String, String),
    Prefix(String),
}

impl EcoFilter {
    fn matches(&self, eco: &str) -> bool {
        match self {
            EcoFilter::Range(lo, hi) => lo.as_str() <= eco && eco <= hi.as_str(),
            EcoFilter::Prefix(prefix) => eco.starts_with(prefix.as_str()),
        }
    }
}

fn parse_eco(text: &str) -> Result<EcoFilter, String> {
    let text = text.trim().to_ascii_uppercase();
    if let Some((lo, hi)) = text.split_once('-') {
        if is_eco_code(lo) && is_eco_code(hi) && lo <= hi {
            return Ok(EcoFilter::Range(lo.to_string(), hi.to_string()));
        }
        return Err(format!(
            "{text}: a range is two codes A00..E99, the first not after the second"
        ));
    }
    let b = text.as_bytes();
    let prefix_ok =
        (1..=3).contains(&b.len()) && (b'A'..=b'E').contains(&b[0]) && b[1..].iter().all(u8::is_ascii_digit);
    match prefix_ok {
        true => Ok(EcoFilter::Prefix(text)),
        false => Err(format!(
            "{text}: not an ECO code or prefix (A, B2, C42) or range (A00-B99)"
        )),
    }
}

fn parse_tag(text: &str) -> Result<(String, String), String> {
    match text.split_once('=') {
        Some((name, value)) if !name.is_empty() => Ok((name.to_string(), value.to_string())),
        _ => Err(format!("{text}: expected NAME=VALUE")),
    }
}

fn parse_speed(text: &str) -> Result<Speed, String> {
    Speed::from_name(text).ok_or_else(|| {
        let names: Vec<&str> = Speed::ALL.iter().map(|s| s.name()).collect();
        format!("{text}: not a speed ({})", names.join(", "))
    })
}

/// A date as far as it is known: year, then month, then day (`2023.??.??` is `[2023]`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PgnDate(Vec<u16>);

impl PgnDate {
    /// The known part of a PGN date (`YYYY.MM.DD`, `?` for unknown digits; `-` or `/` also
    /// separate): the fields up to the first unknown or malformed one. `None` when the year is
    /// unknown.
    pub fn parse(text: &str) -> Option<PgnDate> {
        let mut known = Vec::with_capacity(3);
        for (i, part) in text.trim().splitn(3, ['.', '-', '/']).enumerate() {
            let (digits, max) = [(4, 9999), (2, 12), (2, 31)][i];
            match part.len() == digits && part.bytes().all(|b| b.is_ascii_digit()) {
                true => match part.parse::<u16>() {
                    Ok(v) if v <= max && (i == 0 || v >= 1) => known.push(v),
                    _ => break,
                },
                false => break,
            }
        }
        (!known.is_empty()).then_some(PgnDate(known))
    }

    /// Compares the fields both dates know: `2023` is equal to `2023.06.01`.
    fn compare(&self, other: &PgnDate) -> std::cmp::Ordering {
        let n = self.0.len().min(other.0.len());
        self.0[..n].cmp(&other.0[..n])
    }
}

/// A `--since`/`--until` bound: a full or partial date, every field given well-formed.
fn parse_date_bound(text: &str) -> Result<PgnDate, String> {
    let fields = text.trim().splitn(3, ['.', '-', '/']).count();
    match PgnDate::parse(text) {
        Some(date) if date.0.len() == fields => Ok(date),
        _ => Err(format!("{text}: expected a date YYYY, YYYY.MM or YYYY.MM.DD")),
    }
}

fn contains_ignoring_case(haystack: &str, needle: &str) -> bool {
    haystack.to_lowercase().contains(&needle.to_lowercase())
}

impl FilterArgs {
    fn matches(&self, game: &GameTree) -> bool {
        let tag = |name: &str| game.tag(name).map(|v| v.into_owned()).unwrap_or_default();
        if !self
            .tags
            .iter()
            .all(|(name, value)| game.tag(name).is_some_and(|v| v == *value))
        {
            return false;
        }
        if let Some(player) = &self.player {
            if !contains_ignoring_case(&tag("White"), player) && !contains_ignoring_case(&tag("Black"), player) {
                return false;
            }
        }
        if self
            .white
            .as_ref()
            .is_some_and(|w| !contains_ignoring_case(&tag("White"), w))
            || self
                .black
                .as_ref()
                .is_some_and(|b| !contains_ignoring_case(&tag("Black"), b))
        {
            return false;
        }
        if self.elo_min.is_some() || self.elo_max.is_some() {
            for side in ["WhiteElo", "BlackElo"] {
                let Ok(elo) = tag(side).trim().parse::<u32>() else {
                    return false;
                };
                if self.elo_min.is_some_and(|min| elo < min) || self.elo_max.is_some_and(|max| elo > max) {
                    return false;
                }
            }
        }
        if self.player_elo_min.is_some() || self.player_elo_max.is_some() {
            let player = self.player.as_deref().unwrap_or_default();
            let rated_within = |side: &str, elo: &str| {
                let within = |elo: u32| {
                    self.player_elo_min.is_none_or(|min| elo >= min) && self.player_elo_max.is_none_or(|max| elo <= max)
                };
                contains_ignoring_case(&tag(side), player) && tag(elo).trim().parse::<u32>().is_ok_and(within)
            };
            if !rated_within("White", "WhiteElo") && !rated_within("Black", "BlackElo") {
                return false;
            }
        }
        if !self.speed.is_empty() {
            let speed = game.tag("TimeControl").and_then(|tc| Speed::from_time_control(&tc));
            if !speed.is_some_and(|speed| self.speed.contains(&speed)) {
                return false;
            }
        }
        if self.since.is_some() || self.until.is_some() {
            let Some(date) = date_tag(game).and_then(|d| PgnDate::parse(&d)) else {
                return false;
            };
            if self.since.as_ref().is_some_and(|since| date.compare(since).is_lt())
                || self.until.as_ref().is_some_and(|until| date.compare(until).is_gt())
            {
                return false;
            }
        }
        if let Some(result) = &self.result {
            if GameResult::from_bytes(result.as_bytes()) != Some(game.declared_result()) {
                return false;
            }
        }
        let plies = game.moves.nodes.len();
        if self.min_plies.is_some_and(|min| plies < min) || self.max_plies.is_some_and(|max| plies > max) {
            return false;
        }
        if let Some(opening) = &self.opening {
            let name = match game.tag("Opening") {
                Some(name) if !name.trim().is_empty() && name.trim() != "?" => name.into_owned(),
                _ => classify(game).map(|c| c.name.to_string()).unwrap_or_default(),
            };
            if !contains_ignoring_case(&name, opening) {
                return false;
            }
        }
        if let Some(eco) = &self.eco {
            if !eco_of(game).is_some_and(|(code, _)| eco.matches(&code)) {
                return false;
            }
        }
        true
    }
}

/// The line break a game's text uses: CR LF, CR (old Mac) or LF (also for a one-line game).
fn line_break(bytes: &[u8]) -> &'static [u8] {
    match bytes.iter().position(|&b| b == b'\r' || b == b'\n') {
        Some(i) if bytes[i] == b'\r' && bytes.get(i + 1) == Some(&b'\n') => b"\r\n",
        Some(i) if bytes[i] == b'\r' => b"\r",
        _ => b"\n",
    }
}

/// Writes one game's bytes, after a blank line in the previous game's line-break style.
pub fn write_game(sink: &mut Sink, last_break: &mut Option<&'static [u8]>, bytes: &[u8]) -> Result<(), String> {
    let written = match *last_break {
        None => sink.write_all(bytes),
        Some(br) => sink
            .write_all(br)
            .and_then(|_| sink.write_all(br))
            .and_then(|_| sink.write_all(bytes)),
    };
    written.map_err(|e| sink.error(e))?;
    *last_break = Some(line_break(bytes));
    Ok(())
}

/// Ends the last game written with its line break.
pub fn finish_games(sink: &mut Sink, last_break: Option<&'static [u8]>) -> Result<(), String> {
    match last_break {
        Some(br) => sink.write_all(br).map_err(|e| sink.error(e)),
        None => Ok(()),
    }
}

/// Where matched games go.
enum Out {
    Pgn(Sink),
    Cbits(Box<ArchiveWriter<Sink>>),
}

pub fn run(args: FilterArgs) -> Result<ExitCode, String> {
    let (files, bar) = expand_with_progress_for_output(&args.files, &args.output)?;
    let out_name = match args.output.as_os_str() == "-" {
        true => "standard output".to_string(),
        false => args.output.display().to_string(),
    };
    let sink = Sink::create(&args.output, &files)?;
    let mut out = match args.format {
        Format::Pgn => Out::Pgn(sink),
        Format::Cbits => {
            let options = WriterOptions {
                codec: MoveCodec::default(),
                ..WriterOptions::default()
            };
            let writer = ArchiveWriter::new(sink, options).map_err(|e| archive_write_error(&out_name, e))?;
            Out::Cbits(Box::new(writer))
        }
    };
    let (mut games, mut matched, mut errors) = (0u64, 0u64, ErrorLog::default());
    let mut dedup = args
        .dedup
        .then(|| Dedup::new(files.iter().map(|path| input_name(path)).collect()));
    let mut last_break: Option<&'static [u8]> = None;
    for_each_game(&files, &bar, |input| {
        games += 1;
        let game = match &input.game {
            Ok(game) => game,
            Err(error) => {
                errors.record(&bar, error);
                return Ok(());
            }
        };
        if !args.matches(game) {
            return Ok(());
        }
        if let Some(dedup) = &mut dedup {
            if dedup.is_duplicate(&bar, input.source, input.raw.first_line, game) {
                return Ok(());
            }
        }
        matched += 1;
        match &mut out {
            Out::Pgn(sink) => write_game(sink, &mut last_break, input.bytes)?,
            Out::Cbits(writer) => {
                writer
                    .add_pgn(input.bytes.to_vec(), input.raw, input.source as u32)
                    .map_err(|e| archive_write_error(&out_name, e))?;
                // Every game written is one that was read without error: none is stored as text
                // for a reason worth reporting.
                writer.take_stored_as_text();
            }
        }
        Ok(())
    })?;
    match out {
        Out::Pgn(mut sink) => {
            finish_games(&mut sink, last_break)?;
            sink.commit()?;
        }
        Out::Cbits(writer) => {
            let (sink, _) = writer.finish().map_err(|e| archive_write_error(&out_name, e))?;
            sink.commit()?;
        }
    }
    bar.finish_and_clear();
    if args.json {
        let mut fields = vec![
            ("games", Json::from(games)),
            ("matched", Json::from(matched)),
            ("errors", Json::from(errors.count)),
            ("error_messages", errors.messages_json()),
        ];
        if let Some(dedup) = &dedup {
            fields.push(("duplicates", Json::from(dedup.count)));
            fields.push(("duplicate_games", dedup.json()));
        }
        eprintln!("{}", Json::obj(fields));
    } else {
        let duplicates = match &dedup {
            Some(dedup) => format!(", {} duplicates left out", dedup.count),
            None => String::new(),
        };
        eprintln!(
            "{games} games read, {matched} matched{duplicates}, {} errors",
            errors.count
        );
    }
    Ok(match errors.is_empty() {
        true => ExitCode::SUCCESS,
        false => ExitCode::from(1),
    })
}
