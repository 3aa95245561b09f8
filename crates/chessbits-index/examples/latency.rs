//! Query latency of an index: opens it once, then times `explore`, the first page of `search`
//! and a complete search over positions drawn from its games (the start position, positions
//! after 8 plies, after 20 plies (middlegames, mostly rare) and the last position of a game),
//! and prints p50/p99/max per query kind.
//!
//! ```sh
//! cargo run --release -p chessbits-index --example latency -- INDEX GAMES.pgn [QUERIES] [--cold]
//! ```
//!
//! GAMES.pgn: games to draw query positions from (the ones indexed, so that most are found).
//! With the page cache warm by default; `--cold` drops the page cache before every query
//! (writes `/proc/sys/vm/drop_caches`, so it needs root; it stops with a message otherwise) and
//! times fewer queries (at most 20 a kind).

use std::fs::File;
use std::time::Instant;

use chessbits::pgn::PgnReader;
use chessbits::position::Position;
use chessbits_index::{ExploreOptions, Filters, Index, SearchOptions};

fn percentile(sorted: &[f64], p: f64) -> f64 {
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

fn report(name: &str, mut ms: Vec<f64>) {
    ms.sort_by(|a, b| a.total_cmp(b));
    println!(
        "{name:<28} n={:<5} p50 {:>8.3} ms  p99 {:>8.3} ms  max {:>8.3} ms",
        ms.len(),
        percentile(&ms, 0.5),
        percentile(&ms, 0.99),
        ms[ms.len() - 1]
    );
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() < 3 {
        eprintln!("usage: latency INDEX GAMES.pgn [QUERIES]");
        std::process::exit(2);
    }
    let cold = args.iter().any(|a| a == "--cold");
    let args: Vec<&String> = args.iter().filter(|a| *a != "--cold").collect();
    let mut queries: usize = args.get(3).map_or(500, |n| n.parse().expect("a number of queries"));
    if cold {
        queries = queries.min(20);
        drop_caches();
    }
    let opened = Instant::now();
    let index = Index::open(args[1].as_str().as_ref()).expect("an index");
    println!(
        "open: {:.3} ms, {} games",
        opened.elapsed().as_secs_f64() * 1e3,
        index.games()
    );

    // Query positions: per game, the position after ply 8 (openings) and the last one (mostly
    // reached by that game only).
    let mut openings = Vec::new();
    let mut middlegames = Vec::new();
    let mut rare = Vec::new();
    let mut reader = PgnReader::new(File::open(args[2]).expect("the PGN file"));
    while let Ok(Some(game)) = reader.read_owned_game() {
        let Ok(game) = game else { continue };
        let mut pos = game.start.clone();
        for (ply, m) in game.mainline().enumerate() {
            if m.is_null() {
                break;
            }
            pos.play_unchecked(m);
            if ply + 1 == 8 {
                openings.push(pos.clone());
            }
            if ply + 1 == 20 {
                middlegames.push(pos.clone());
            }
        }
        rare.push(pos);
        if rare.len() >= queries {
            break;
        }
    }
    let start = vec![Position::startpos(); queries.min(50)];
    let options = ExploreOptions::default();
    let counts = ExploreOptions {
        top_games: 0,
        recent_games: 0,
        ..ExploreOptions::default()
    };
    let by_month = ExploreOptions {
        filters: Filters::default().since("1000-01").expect("a month"),
        ..counts.clone()
    };
    for (name, positions) in [
        ("start position", &start),
        ("after 8 plies", &openings),
        ("after 20 plies", &middlegames),
        ("last position of a game", &rare),
    ] {
        if positions.is_empty() {
            continue;
        }
        // One pass per query kind: a search of a popular position frees hundreds of MB, which
        // would otherwise be charged to the query after it (allocator and caches).
        let time = |query: &dyn Fn(&Position)| -> Vec<f64> {
            positions
                .iter()
                .take(queries)
                .map(|pos| {
                    if cold {
                        drop_caches();
                    }
                    let t = Instant::now();
                    query(pos);
                    t.elapsed().as_secs_f64() * 1e3
                })
                .collect()
        };
        println!("{name}:");
        report(
            "  explore (move table)",
            time(&|pos| drop(index.explore(pos, &counts).expect("explore"))),
        );
        // A month filter: summed from the `explorer` rows, not the `explorer_summary` table.
        report(
            "  explore (month filter)",
            time(&|pos| drop(index.explore(pos, &by_month).expect("explore"))),
        );
        report(
            "  explore (+ top/recent games)",
            time(&|pos| drop(index.explore(pos, &options).expect("explore"))),
        );
        report(
            "  search (first page)",
            time(&|pos| drop(index.search(pos, &SearchOptions::default()).expect("search"))),
        );
        if name != "start position" {
            // Every game of the position in one page (the start position's would list them all).
            let all = SearchOptions {
                limit: usize::MAX,
                ..SearchOptions::default()
            };
            report(
                "  search (complete)",
                time(&|pos| drop(index.search(pos, &all).expect("search"))),
            );
        }
    }
}

/// Empties the page cache (needs root), so that the next query reads the index from disk.
fn drop_caches() {
    if let Err(e) = std::fs::write("/proc/sys/vm/drop_caches", "3") {
        eprintln!("--cold: cannot drop the page cache ({e}); run as root");
        std::process::exit(2);
    }
}
