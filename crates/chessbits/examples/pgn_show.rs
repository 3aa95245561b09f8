use chessbits::pgn::PgnReader;
fn main() {
    let path = std::env::args().nth(1).unwrap();
    let n: usize = std::env::args().nth(2).map_or(1, |s| s.parse().unwrap());
    let data = std::fs::read(&path).unwrap();
    for g in PgnReader::new(&data[..]).into_games().take(n) {
        match g {
            Ok(g) => print!("{g}"),
            Err(e) => println!("ERR {e}"),
        }
    }
}
