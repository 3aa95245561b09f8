use chessbits::pgn::PgnReader;
fn main() {
    for path in std::env::args().skip(1) {
        let data = std::fs::read(&path).unwrap();
        let (mut ok, mut bad) = (0, 0);
        for (i, g) in PgnReader::new(&data[..]).into_games().enumerate() {
            let Ok(g1) = g else { continue };
            let text = g1.to_pgn();
            for l in text.lines() {
                if l.chars().count() > 80 && !l.starts_with('[') {
                    println!("{path} #{i} long line: {l}");
                }
            }
            let g2 = PgnReader::new(text.as_bytes()).into_games().next().unwrap();
            match g2 {
                Ok(g2) if g2 == g1 && g2.to_pgn() == text => ok += 1,
                Ok(g2) => {
                    bad += 1;
                    if bad < 3 {
                        println!("{path} #{i} differs:\n{text}\n---\n{}", g2.to_pgn());
                    }
                }
                Err(e) => {
                    bad += 1;
                    println!("{path} #{i} reread error {e}\n{text}");
                }
            }
        }
        println!("{path}: ok {ok} bad {bad}");
    }
}
