//! `chessbits explore INDEX`: the move table of a position, as the lichess opening explorer shows
//! it (`--json` prints the lichess explorer API's shape).

use std::path::PathBuf;

use clap::Args;

/// The position and the filters of `explore` and `search`.
#[derive(Args, Debug)]
pub struct QueryArgs {
    /// The index directory (`chessbits index build`).
    pub index: PathBuf,
    /// The position: a FEN, an EPD line or `startpos` (default: the start position).
    #[arg(long)]
    pub fen: Option<String>,
    /// Moves played from that position, SAN or UCI separated by spaces ("e4 e5 Nf3", "1. e4 e5").
    #[arg(long, default_value = "")]
    pub moves: String,
    /// Only these speeds, comma-separated: ultraBullet, bullet, blitz, rapid, classical,
    /// correspondence (from TimeControl).
    #[arg(long)]
    pub speeds: Option<String>,
    /// Only these rating bands of the players' average rating, comma-separated: 0, 1000, 1200,
    /// 1400, 1600, 1800, 2000, 2200, 2500.
    #[arg(long)]
    pub ratings: Option<String>,
    /// Only games of this month or later (YYYY-MM, from UTCDate or Date).
    #[arg(long)]
    pub since: Option<String>,
    /// Only games of this month or earlier (YYYY-MM).
    #[arg(long)]
    pub until: Option<String>,
    /// Only the games of this player (White or Black tag, case ignored).
    #[arg(long)]
    pub player: Option<String>,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
}

/// `chessbits explore INDEX [--fen F] [--moves "e4 e5"] [filters] [--json]`
#[derive(Args, Debug)]
#[command(after_help = "\
Counts are per game: the games that reached the position (by any move order), and per move the
games that played it at their first visit of the position. Games without a result (*) are not
counted. A position no game reached prints an empty table (exit status 0); an illegal FEN or move
exits with status 2 and the reason.")]
pub struct ExploreArgs {
    #[command(flatten)]
    pub query: QueryArgs,
    /// Moves listed at most (the most played first; 0: all).
    #[arg(long, default_value_t = 0)]
    pub max_moves: usize,
    /// Highest-rated games listed.
    #[arg(long, default_value_t = 4)]
    pub top_games: usize,
    /// Most recent games listed.
    #[arg(long, default_value_t = 4)]
    pub recent_games: usize,
}

pub use with_index::{filters, player_json, resolve, run};

mod with_index {
    use std::process::ExitCode;

    use crate::output::say;

    use chessbits::eco::EcoTable;
    use chessbits::position::Position;
    use chessbits_index::{ExploreOptions, Filters, Index};

    use super::{ExploreArgs, QueryArgs};
    use crate::json::Json;

    /// The position the query names.
    pub fn resolve(query: &QueryArgs) -> Result<Position, String> {
        chessbits_index::resolve_position(query.fen.as_deref(), &query.moves).map_err(|e| e.to_string())
    }

    /// The filters the query names.
    pub fn filters(query: &QueryArgs) -> Result<Filters, String> {
        let mut filters = Filters::default();
        if let Some(speeds) = &query.speeds {
            filters = filters.speeds(speeds).map_err(|e| e.to_string())?;
        }
        if let Some(ratings) = &query.ratings {
            filters = filters.ratings(ratings).map_err(|e| e.to_string())?;
        }
        if let Some(since) = &query.since {
            filters = filters.since(since).map_err(|e| e.to_string())?;
        }
        if let Some(until) = &query.until {
            filters = filters.until(until).map_err(|e| e.to_string())?;
        }
        filters.player = query.player.clone();
        Ok(filters)
    }

    /// `{"name": ..., "rating": ...}` as lichess writes a player.
    pub fn player_json(name: &Option<String>, rating: Option<u16>) -> Json {
        Json::obj([
            ("name", Json::opt_str(name.clone())),
            ("rating", rating.map_or(Json::Null, |r| Json::from(u64::from(r)))),
        ])
    }

    pub fn run(args: ExploreArgs) -> Result<ExitCode, String> {
        let pos = resolve(&args.query)?;
        let options = ExploreOptions {
            filters: filters(&args.query)?,
            moves: match args.max_moves {
                0 => usize::MAX,
                n => n,
            },
            top_games: args.top_games,
            recent_games: args.recent_games,
        };
        let index = Index::open(&args.query.index).map_err(|e| e.to_string())?;
        let explorer = index.explore(&pos, &options).map_err(|e| e.to_string())?;
        if args.query.json {
            // The lichess explorer API's shape, built by the index crate (Python's explore_json
            // gives the same).
            say!("{}", explorer.to_lichess_json());
            return Ok(ExitCode::SUCCESS);
        }
        say!("{}", pos.fen());
        if let Some(o) = EcoTable::lichess().get(pos.key()) {
            say!("{} {}", o.eco, o.name);
        }
        let total = explorer.games();
        let percent = |n: u64, of: u64| n as f64 * 100.0 / of.max(1) as f64;
        say!(
            "{total} games: white wins {:.0}%, draws {:.0}%, black wins {:.0}%",
            percent(explorer.white, total),
            percent(explorer.draws, total),
            percent(explorer.black, total)
        );
        if !explorer.moves.is_empty() {
            say!(
                "\n{:<8} {:>8} {:>6} {:>6} {:>6} {:>7}  last",
                "move",
                "games",
                "white",
                "draws",
                "black",
                "rating"
            );
            for m in &explorer.moves {
                let games = m.games();
                say!(
                    "{:<8} {:>8} {:>5.0}% {:>5.0}% {:>5.0}% {:>7}  {}",
                    m.san,
                    games,
                    percent(m.white, games),
                    percent(m.draws, games),
                    percent(m.black, games),
                    m.average_rating.map_or("-".to_string(), |r| r.to_string()),
                    m.last_date.as_deref().unwrap_or("-"),
                );
            }
        }
        for (title, hits) in [
            ("top games", &explorer.top_games),
            ("recent games", &explorer.recent_games),
        ] {
            if hits.is_empty() {
                continue;
            }
            say!("\n{title}:");
            for hit in hits.iter() {
                say!("  {}", crate::search_cmd::game_line(hit));
            }
        }
        Ok(ExitCode::SUCCESS)
    }
}
