//! Single-threaded parse + replay throughput on the shared PGN files (concatenated in memory).
use chessbits::pgn::{GameBuilder, PgnReader, Validator};

/// CPU time of this thread in seconds (the machine is shared: wall time overstates).
fn cpu() -> f64 {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").unwrap_or_default();
    text.split_whitespace()
        .next()
        .and_then(|t| t.parse::<f64>().ok())
        .unwrap_or(0.0)
        / 1e9
}

fn main() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared/data/pgn");
    let mut data = Vec::new();
    let mut paths: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "pgn"))
        .collect();
    paths.sort();
    for p in paths {
        data.extend(std::fs::read(p).unwrap());
        data.push(b'\n');
    }
    let rounds = if std::env::args().any(|a| a == "--validate") {
        30
    } else {
        5
    };
    let only_validate = std::env::args().any(|a| a == "--validate");
    let mut best = f64::MAX;
    let (mut games, mut plies) = (0u64, 0u64);
    for _ in 0..rounds {
        let t = cpu();
        let mut reader = PgnReader::new(&data[..]);
        let mut v = Validator::new();
        games = 0;
        plies = 0;
        while let Some(r) = reader.read_game(&mut v).unwrap() {
            games += 1;
            plies += r.unwrap().plies as u64;
        }
        best = best.min(cpu() - t);
    }
    if only_validate {
        println!("{:.1} ms", best * 1e3);
        return;
    }
    println!(
        "validate: {games} games, {plies} plies, {:.1} MB in {:.1} ms: {:.1} MB/s, {:.2} M moves/s",
        data.len() as f64 / 1e6,
        best * 1e3,
        data.len() as f64 / 1e6 / best,
        plies as f64 / 1e6 / best
    );
    let mut best = f64::MAX;
    for _ in 0..rounds {
        let t = cpu();
        let mut reader = PgnReader::new(&data[..]);
        let mut b = GameBuilder::new();
        while let Some(r) = reader.read_game(&mut b).unwrap() {
            r.unwrap();
        }
        best = best.min(cpu() - t);
    }
    println!(
        "owned games: {:.1} ms: {:.1} MB/s, {:.2} M moves/s",
        best * 1e3,
        data.len() as f64 / 1e6 / best,
        plies as f64 / 1e6 / best
    );
    // Lexing only.
    struct Count(u64);
    impl chessbits::pgn::Visitor for Count {
        type Output = ();
        fn san(&mut self, _t: chessbits::pgn::SanToken<'_>) {
            self.0 += 1;
        }
        fn end_game(&mut self) {}
    }
    let mut best = f64::MAX;
    for _ in 0..rounds {
        let t = cpu();
        let mut reader = PgnReader::new(&data[..]);
        let mut c = Count(0);
        while reader.read_game(&mut c).unwrap().is_some() {}
        best = best.min(cpu() - t);
    }
    println!(
        "lex+SAN parse only: {:.1} ms: {:.1} MB/s",
        best * 1e3,
        data.len() as f64 / 1e6 / best
    );
}
