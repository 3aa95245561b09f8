use chessbits::pgn::{GameBuilder, PgnReader, Validator};
use std::time::Instant;
fn main() {
    let mut total_games = 0;
    let mut total_plies = 0u64;
    let mut total_bytes = 0;
    let t = Instant::now();
    for path in std::env::args().skip(1) {
        let data = std::fs::read(&path).unwrap();
        total_bytes += data.len();
        let mut reader = PgnReader::new(&data[..]);
        let mut v = Validator::new();
        let (mut games, mut errors) = (0, 0);
        while let Some(r) = reader.read_game(&mut v).unwrap() {
            games += 1;
            match r {
                Ok(s) => total_plies += s.plies as u64,
                Err(e) => {
                    errors += 1;
                    if errors <= 10 {
                        println!("{path}:{}", e);
                    }
                }
            }
        }
        // builder too
        let mut reader = PgnReader::new(&data[..]);
        let mut b = GameBuilder::new();
        let mut berr = 0;
        while let Some(r) = reader.read_game(&mut b).unwrap() {
            if r.is_err() {
                berr += 1;
            }
        }
        println!("{path}: games {games} errors {errors} builder-errors {berr}");
        total_games += games;
    }
    let el = t.elapsed().as_secs_f64();
    println!("total games {total_games} plies {total_plies} bytes {total_bytes} in {el:.3}s");
}
