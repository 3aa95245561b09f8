//! Bits per move of the move codes on the shared games (the bundled `testdata/` when
//! `../shared/data` is missing), and entropy coder speed in thread CPU time.
//!
//! ```text
//! cargo bench -p chessbits --bench move_code_bits
//! ```
//!
//! Split: in every file, odd-numbered games (1st, 3rd, ...) are the training half the model and
//! the lichess Huffman table were tuned on; even-numbered games are held out.

#[path = "../tests/common/mod.rs"]
mod common;

#[path = "support/clock.rs"]
mod clock;

use clock::Clock;

use chessbits::codec::bits::BitWriter;
use chessbits::codec::moves::{entropy, lichess};
use chessbits::lists::MoveList;
use chessbits::moves::Move;
use chessbits::position::Position;

#[derive(Default, Clone, Copy)]
struct Tally {
    plies: u64,
    index_bits: u64,
    lichess_bits: u64,
    entropy_bytes: u64,
}

impl Tally {
    fn add(&mut self, other: Tally) {
        self.plies += other.plies;
        self.index_bits += other.index_bits;
        self.lichess_bits += other.lichess_bits;
        self.entropy_bytes += other.entropy_bytes;
    }

    fn print(&self, label: &str) {
        let per = |bits: u64| bits as f64 / self.plies.max(1) as f64;
        println!(
            "{label:<28} {:>8} plies  index {:.3}  lichess {:.3}  entropy {:.3} bits/move",
            self.plies,
            per(self.index_bits),
            per(self.lichess_bits),
            per(self.entropy_bytes * 8)
        );
    }
}

fn measure(moves: &[Move], encoder: &mut entropy::GameEncoder, bytes: &mut Vec<u8>) -> Tally {
    let start = Position::startpos();
    let mut pos = start.clone();
    let mut list = MoveList::new();
    let mut index_bits = 0u64;
    for &m in moves {
        pos.legal_moves_into(&mut list);
        index_bits += u64::from(usize::BITS - (list.len().max(1) - 1).leading_zeros());
        pos.play_unchecked(m);
    }
    let mut writer = BitWriter::new();
    lichess::encode_into(&start, moves, &mut writer).expect("legal game");
    bytes.clear();
    encoder.encode_into(&start, moves, bytes).expect("legal game");
    Tally {
        plies: moves.len() as u64,
        index_bits,
        lichess_bits: writer.bit_len(),
        entropy_bytes: bytes.len() as u64,
    }
}

fn main() {
    if !clock::benchmarking("move_code_bits") {
        return;
    }
    let mut encoder = entropy::GameEncoder::new();
    let mut bytes = Vec::new();
    // [lichess, master] x [train, held out]
    let mut tallies = [[Tally::default(); 2]; 2];
    let mut games = Vec::new();
    let speed_only = std::env::args().any(|a| a == "--speed");
    for (name, is_lichess) in common::PGN_FILES {
        if speed_only {
            games.extend(
                common::load_pgn(&common::data_path(), name)
                    .into_iter()
                    .map(|g| g.moves),
            );
            continue;
        }
        let mut file = [Tally::default(); 2];
        for game in common::load_pgn(&common::data_path(), name) {
            let held_out = game.number % 2 == 0;
            file[held_out as usize].add(measure(&game.moves, &mut encoder, &mut bytes));
            games.push(game.moves);
        }
        file[0].print(&format!("{name} train"));
        file[1].print(&format!("{name} held-out"));
        for split in 0..2 {
            tallies[(!is_lichess) as usize][split].add(file[split]);
        }
    }
    if !speed_only {
        println!();
        tallies[0][0].print("lichess train");
        tallies[0][1].print("lichess held-out");
        tallies[1][0].print("master train");
        tallies[1][1].print("master held-out");
    }

    // Speed: encode all games, then decode them all, a few rounds.
    let start = Position::startpos();
    let plies: usize = games.iter().map(Vec::len).sum();
    let mut encoded = Vec::with_capacity(games.len());
    let t = Clock::start();
    let rounds = 3;
    for round in 0..rounds {
        for moves in &games {
            let mut out = Vec::new();
            encoder.encode_into(&start, moves, &mut out).expect("legal game");
            if round == 0 {
                encoded.push(out);
            }
        }
    }
    let encode_rate = (plies * rounds) as f64 / t.seconds();
    let mut decoder = entropy::GameDecoder::new();
    let mut out = Vec::new();
    let t = Clock::start();
    for _ in 0..rounds {
        for (moves, bytes) in games.iter().zip(&encoded) {
            out.clear();
            decoder
                .decode_into(&start, bytes, moves.len(), &mut out)
                .expect("decodes");
            assert_eq!(&out, moves);
        }
    }
    let decode_rate = (plies * rounds) as f64 / t.seconds();
    let mut list = MoveList::new();
    let t = Clock::start();
    for _ in 0..rounds {
        for moves in &games {
            let mut pos = start.clone();
            for &m in moves {
                pos.legal_moves_into(&mut list);
                pos.play_unchecked(m);
            }
        }
    }
    let replay_rate = (plies * rounds) as f64 / t.seconds();
    let mut model = entropy::model::MoveModel::new();
    let t = Clock::start();
    let mut checksum = 0u64;
    for _ in 0..rounds {
        for moves in &games {
            let mut pos = start.clone();
            model.reset();
            for &m in moves {
                pos.legal_moves_into(&mut list);
                checksum += u64::from(model.frequencies(&pos, &list).1);
                model.observe(&pos, m);
                pos.play_unchecked(m);
            }
        }
    }
    let model_rate = (plies * rounds) as f64 / t.seconds();
    println!();
    println!(
        "entropy encode {:.2} M plies/s, decode {:.2} M plies/s; replay with legal_moves: {:.2} M plies/s, \
         with the model too: {:.2} M plies/s ({checksum:x})",
        encode_rate / 1e6,
        decode_rate / 1e6,
        replay_rate / 1e6,
        model_rate / 1e6,
    );
}
