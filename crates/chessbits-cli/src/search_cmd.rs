//! `chessbits search INDEX`: the games that stand in an exact position at any ply, in pages.

use std::process::ExitCode;

use clap::Args;

use crate::explore_cmd::QueryArgs;

/// `chessbits search INDEX [--fen F | --moves ...] [filters] [--sort date] [--limit N] [--json] [--pgn]`
#[derive(Args, Debug)]
#[command(after_help = "\
Finds every game that stands in the position at any ply (by position, so transpositions are found
too), with the plies. --json prints {\"total\": N, \"games\": [...]}: each game with its tags, the
plies, and where it stands in its source file. --pgn prints the games themselves, byte for byte as
they stand in their source files (which must not have changed since the index was built). A
position no game reached prints nothing (exit status 0); an illegal FEN or move exits with 2.")]
pub struct SearchArgs {
    #[command(flatten)]
    pub query: QueryArgs,
    /// Games per page.
    #[arg(long, default_value_t = 20)]
    pub limit: usize,
    /// Games skipped before the page.
    #[arg(long, default_value_t = 0)]
    pub offset: usize,
    /// The order: `index` (as added), `date` (newest first) or `rating` (highest average first).
    #[arg(long, default_value = "index", value_parser = ["index", "date", "rating"])]
    pub sort: String,
    /// Print the games' PGN text, as it stands in the source files.
    #[arg(long, conflicts_with = "json")]
    pub pgn: bool,
}

/// One line of text about a game hit: number, players, result, date, event, plies.
pub fn game_line(hit: &chessbits_index::GameHit) -> String {
    let row = &hit.row;
    let player = |name: &Option<String>, elo: Option<u16>| match elo {
        Some(elo) => format!("{} ({elo})", name.as_deref().unwrap_or("?")),
        None => name.as_deref().unwrap_or("?").to_string(),
    };
    let plies: Vec<String> = hit.plies.iter().map(u32::to_string).collect();
    format!(
        "#{} {} - {} {} {} {} [ply {}]",
        row.game,
        player(&row.white, row.white_elo),
        player(&row.black, row.black_elo),
        row.result,
        chessbits_index::model::game::date_text(row.date).unwrap_or_else(|| "????.??.??".to_string()),
        row.event.as_deref().unwrap_or(""),
        plies.join(",")
    )
}

pub fn run(args: SearchArgs) -> Result<ExitCode, String> {
    use std::io::Write;

    use chessbits_index::{Index, SearchOptions, SortOrder};

    use crate::explore_cmd::{filters, player_json, resolve};
    use crate::json::Json;

    let pos = resolve(&args.query)?;
    let options = SearchOptions {
        filters: filters(&args.query)?,
        sort: match args.sort.as_str() {
            "date" => SortOrder::Date,
            "rating" => SortOrder::Rating,
            _ => SortOrder::Index,
        },
        offset: args.offset,
        limit: args.limit,
    };
    let index = Index::open(&args.query.index).map_err(|e| e.to_string())?;
    let found = index.search(&pos, &options).map_err(|e| e.to_string())?;
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let write_error = |e: std::io::Error| crate::output::write_error("standard output", e);
    if args.pgn {
        for hit in &found.games {
            let text = index.game_text(&hit.row).map_err(|e| e.to_string())?;
            out.write_all(&text).map_err(write_error)?;
            out.write_all(b"\n\n").map_err(write_error)?;
        }
        eprintln!("{} of {} games", found.games.len(), found.total);
        return Ok(ExitCode::SUCCESS);
    }
    if args.query.json {
        let games = found.games.iter().map(|hit| {
            let row = &hit.row;
            let source = index.sources().iter().find(|s| s.source == row.source);
            Json::obj([
                ("id", Json::from(row.game.to_string())),
                ("white", player_json(&row.white, row.white_elo)),
                ("black", player_json(&row.black, row.black_elo)),
                ("result", Json::from(row.result.as_str())),
                ("date", Json::opt_str(chessbits_index::model::game::date_text(row.date))),
                ("speed", Json::opt_str(row.speed.map(|s| s.name()))),
                ("timeControl", Json::opt_str(row.time_control.clone())),
                ("event", Json::opt_str(row.event.clone())),
                ("site", Json::opt_str(row.site.clone())),
                ("fen", Json::opt_str(row.fen.clone())),
                ("plies", Json::Arr(hit.plies.iter().map(|&p| Json::from(p)).collect())),
                ("uci", Json::opt_str(hit.uci.clone())),
                ("gamePlies", Json::from(u32::from(row.plies))),
                (
                    "source",
                    Json::obj([
                        ("path", Json::opt_str(source.map(|s| s.path.clone()))),
                        ("offset", Json::from(row.offset)),
                        ("length", Json::from(row.length)),
                        ("line", Json::from(row.line)),
                    ]),
                ),
            ])
        });
        let value = Json::obj([
            ("total", Json::from(found.total)),
            ("offset", Json::from(args.offset)),
            ("fen", Json::from(pos.fen())),
            ("key", Json::from(found.key.to_string())),
            ("games", Json::Arr(games.collect())),
        ]);
        writeln!(out, "{value}").map_err(write_error)?;
        return Ok(ExitCode::SUCCESS);
    }
    for hit in &found.games {
        writeln!(out, "{}", game_line(hit)).map_err(write_error)?;
    }
    eprintln!(
        "{} games reach the position; shown {} from {}",
        found.total,
        found.games.len(),
        args.offset
    );
    Ok(ExitCode::SUCCESS)
}
