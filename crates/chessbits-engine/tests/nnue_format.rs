//! The network file format: its golden file, round trips, hostile bytes, and the reference
//! evaluation's pinned values.

use chessbits::position::Position;
use chessbits_engine::datagen::format::crc32;
use chessbits_engine::eval::nnue::format::{file_len, HEADER_LEN};
use chessbits_engine::eval::nnue::{Network, NetworkError, INPUTS};
use chessbits_engine::rng::SplitMix64;

const GOLDEN: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/golden/nnue_v1.nnue");

const FENS: [&str; 4] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
    "8/5k2/8/3K4/8/8/1P6/8 b - - 0 1",
    "r3k2r/pp1n1ppp/2p1pn2/q7/1bPP4/2N1PN2/PP1B1PPP/R2QKB1R b KQkq - 3 9",
];

fn golden_net() -> Network {
    Network::seeded(8, 2026)
}

#[test]
fn golden_file_is_reproduced_byte_for_byte_and_evaluates_to_its_values() {
    let bytes = golden_net().to_bytes();
    let golden = crate::common::check_golden(GOLDEN, &bytes);
    assert_eq!(golden.len(), 12_360);
    let net = Network::read(&golden[..]).unwrap();
    assert_eq!(net, golden_net());
    let evals: Vec<i32> = FENS
        .iter()
        .map(|f| net.evaluate(&Position::from_fen(f).unwrap()))
        .collect();
    assert_eq!(evals, GOLDEN_EVALS, "the reference evaluation changed");
}

/// The golden network's evaluations of [`FENS`] (pinned when the format was made).
const GOLDEN_EVALS: [i32; 4] = [-652, -624, -4, 26];

#[test]
fn the_header_has_the_documented_layout() {
    let golden = std::fs::read(GOLDEN).unwrap();
    assert_eq!(&golden[..4], b"CBNN");
    let u16_at = |i: usize| u16::from_le_bytes([golden[i], golden[i + 1]]);
    assert_eq!(
        [u16_at(4), u16_at(6), u16_at(8), u16_at(10), u16_at(12), u16_at(14)],
        [1, 8, 255, 64, 400, 0]
    );
    assert_eq!(
        u32::from_le_bytes(golden[16..20].try_into().unwrap()),
        crc32(&golden[20..])
    );
    // The payload in the documented order, decoded by hand.
    let net = golden_net();
    let i16_at = |i: usize| i16::from_le_bytes([golden[i], golden[i + 1]]);
    assert_eq!(i16_at(HEADER_LEN), net.ft_weights[0]);
    assert_eq!(i16_at(HEADER_LEN + 2 * 8 * 5 + 6), net.ft_weights[5 * 8 + 3]);
    let biases = HEADER_LEN + 2 * INPUTS * 8;
    assert_eq!(i16_at(biases + 2), net.ft_biases[1]);
    assert_eq!(i16_at(biases + 16 + 2 * 9), net.out_weights[9]);
    let bias = i32::from_le_bytes(golden[golden.len() - 4..].try_into().unwrap());
    assert_eq!(bias, net.out_bias);
}

#[test]
fn random_networks_round_trip() {
    for (hidden, seed) in [(1, 1), (16, 2), (64, 3)] {
        let net = Network::seeded(hidden, seed);
        let bytes = net.to_bytes();
        assert_eq!(bytes.len(), file_len(hidden));
        let back = Network::read(&bytes[..]).unwrap();
        assert_eq!(back, net);
        assert_eq!(back.to_bytes(), bytes);
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("net.nnue");
        net.write(std::fs::File::create(&path).unwrap()).unwrap();
        assert_eq!(Network::load(&path).unwrap(), net);
    }
}

#[test]
fn corrupted_files_are_typed_errors() {
    let good = golden_net().to_bytes();
    let err = |bytes: &[u8]| Network::read(bytes).unwrap_err();

    assert!(matches!(err(&[]), NetworkError::Truncated { len: 0 }));
    assert!(matches!(err(&good[..10]), NetworkError::Truncated { len: 10 }));
    assert!(matches!(err(&good[..good.len() - 1]), NetworkError::WrongSize { .. }));
    let mut longer = good.clone();
    longer.extend_from_slice(&[0; 100]);
    assert!(matches!(
        err(&longer),
        NetworkError::WrongSize {
            expected: 12_360,
            found: 12_361
        }
    ));

    let mut bad = good.clone();
    bad[0] = b'X';
    assert!(matches!(err(&bad), NetworkError::BadMagic));
    let mut bad = good.clone();
    bad[4] = 2;
    assert!(matches!(err(&bad), NetworkError::UnsupportedVersion(2)));
    for hidden in [0u16, 5000] {
        let mut bad = good.clone();
        bad[6..8].copy_from_slice(&hidden.to_le_bytes());
        assert!(matches!(err(&bad), NetworkError::BadHidden(h) if h == hidden));
    }
    let mut bad = good.clone();
    bad[6] = 9; // a width the length does not match
    assert!(matches!(err(&bad), NetworkError::WrongSize { .. }));
    let mut bad = good.clone();
    bad[8..10].copy_from_slice(&0u16.to_le_bytes());
    assert!(matches!(err(&bad), NetworkError::BadHeader(_)));

    // Every single flipped payload bit is caught by the checksum.
    let mut rng = SplitMix64::new(5);
    for _ in 0..200 {
        let mut bad = good.clone();
        let i = HEADER_LEN + rng.below(good.len() - HEADER_LEN);
        bad[i] ^= 1 << rng.below(8);
        assert!(matches!(err(&bad), NetworkError::Checksum { .. }));
    }
    // Random bytes of any length, with or without the magic: an error, never a panic.
    for len in [3, 20, 21, 100, 12_360] {
        let mut bytes: Vec<u8> = (0..len).map(|_| rng.next_u64() as u8).collect();
        assert!(Network::read(&bytes[..]).is_err());
        if len >= 4 {
            bytes[..4].copy_from_slice(b"CBNN");
            assert!(Network::read(&bytes[..]).is_err());
        }
    }
    let missing = tempfile::tempdir().unwrap().path().join("none.nnue");
    assert!(matches!(Network::load(missing), Err(NetworkError::Io(_))));
    assert!(err(&bad).to_string().contains("scale"));
}

#[test]
fn the_evaluation_follows_the_documented_integer_formula() {
    // One piece on the board besides the kings, recomputed from the documented formula.
    let net = Network::seeded(4, 9);
    let pos = Position::from_fen("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1").unwrap();
    // White to move: own king e1 (role 5, square 4), own pawn e2 (role 0, square 12), their
    // king e8 (role 5, square 60); Black sees the same pieces from its side, ranks mirrored.
    let feats_us = [5 * 64 + 4, 12, 384 + 5 * 64 + 60];
    let feats_them = [384 + 5 * 64 + (4 ^ 56), 384 + (12 ^ 56), 5 * 64 + (60 ^ 56)];
    let acc = |feats: &[usize]| -> Vec<i64> {
        (0..4)
            .map(|i| {
                i64::from(net.ft_biases[i]) + feats.iter().map(|&f| i64::from(net.ft_weights[f * 4 + i])).sum::<i64>()
            })
            .collect()
    };
    let (us, them) = (acc(&feats_us), acc(&feats_them));
    let mut sum = 0i64;
    for i in 0..4 {
        sum += us[i].clamp(0, 255).pow(2) * i64::from(net.out_weights[i]);
        sum += them[i].clamp(0, 255).pow(2) * i64::from(net.out_weights[4 + i]);
    }
    let expected = (sum / 255 + i64::from(net.out_bias)) * 400 / (255 * 64);
    assert_eq!(i64::from(net.evaluate(&pos)), expected);
}
