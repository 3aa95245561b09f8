//! `chessbits-engine`: speaks UCI on stdin/stdout; `chessbits-engine bench [depth] [threads]`
//! runs the benchmark.

use std::io::BufReader;

use chessbits_engine::bench::{bench, DEFAULT_DEPTH};
use chessbits_engine::uci::{run_uci, Stdout};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("bench") {
        let depth = args.get(1).and_then(|d| d.parse().ok()).unwrap_or(DEFAULT_DEPTH);
        let threads = args.get(2).and_then(|t| t.parse().ok()).unwrap_or(1);
        println!("{}", bench(depth, threads, 16));
        return;
    }
    run_uci(BufReader::new(std::io::stdin()), Stdout);
}
