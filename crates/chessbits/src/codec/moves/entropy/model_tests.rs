//! Tests of the move model: the fast paths against the generic ones.

use super::*;
use crate::moves::MoveList;

/// The next value of a xorshift generator: random games and weights, the same every run.
fn next(seed: &mut u64) -> u64 {
    *seed ^= *seed << 13;
    *seed ^= *seed >> 7;
    *seed ^= *seed << 17;
    *seed
}

#[test]
fn weights_follow_the_curve_octave_by_octave() {
    for d in 0..300u32 {
        let expected = if d < 256 {
            FRAC[(d % 16) as usize] >> (d / 16)
        } else {
            0
        };
        assert_eq!(weight(16 * d as i32 + 7, 0), expected, "{d}");
    }
    assert_eq!(weight(1 << 24, -(1 << 24)), 0);
}

/// The sums of `w >> k` taken from the lanes of packed weights equal the direct sums, for
/// every shift the lanes serve and lists of up to `MAX_MOVES` weights.
#[test]
fn packed_weights_give_the_scaled_sums() {
    let mut seed = 0x1234_5678_9ABC_DEF1u64;
    for round in 0..2_000 {
        next(&mut seed);
        let n = if round % 100 == 0 {
            MAX_MOVES
        } else {
            1 + (seed % 64) as usize
        };
        let ds: Vec<usize> = (0..n).map(|i| ((seed >> (i % 50)) as usize ^ (i * 7)) % 257).collect();
        let packed: u64 = ds.iter().map(|&d| PACKED[d]).sum();
        let weights: Vec<u32> = ds.iter().map(|&d| u32::from(WEIGHTS[d])).collect();
        assert_eq!(packed_sum(packed), weights.iter().sum::<u32>());
        for shift in 0..=3 {
            let direct: u32 = weights.iter().map(|&w| w >> shift).sum();
            assert_eq!(scaled_sum(packed, shift), Some(direct), "{ds:?} {shift}");
        }
        assert_eq!(scaled_sum(packed, 4), None);
    }
    // All weights at their largest.
    let packed = PACKED[0] * MAX_MOVES as u64;
    assert_eq!(scaled_sum(packed, 3), Some((MAX_MOVES as u32) << 12));
}

#[test]
fn frac_is_the_rounded_curve() {
    for (j, &f) in FRAC.iter().enumerate() {
        let exact = 32768.0 * (-(j as f64) / 16.0).exp2();
        assert_eq!(f, exact.round() as u32, "{j}");
    }
}

#[test]
fn recorded_terms_reproduce_the_scores() {
    let pos = Position::from_fen("r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/3P1N2/PPP2PPP/RNBQK2R w KQkq - 1 5").unwrap();
    let mut moves = MoveList::new();
    pos.legal_moves_into(&mut moves);
    let mut model = MoveModel::new();
    let mut recorded = vec![0i64; moves.len()];
    model.visit_terms(&pos, &moves, |i, t| {
        recorded[i] += i64::from(PARAMS[t.param as usize]) * i64::from(t.weight);
    });
    model.frequencies(&pos, &moves);
    for (i, &r) in recorded.iter().enumerate() {
        assert_eq!(i64::from(model.scores[i]), r, "{}", moves[i]);
    }
}

/// `symbol` gives what `frequencies` implies, for every move of random games (forced moves,
/// shifted totals and all).
#[test]
fn symbols_match_the_frequencies_in_random_games() {
    let mut seed = 0x2545_F491_4F6C_DD1Du64;
    let mut moves = MoveList::new();
    let (mut model, mut symbols, mut by_sets) = (MoveModel::new(), MoveModel::new(), MoveModel::new());
    let (mut checked, mut forced, mut shifted) = (0, 0, 0);
    // Positions by the shift of their frequencies (4: 4 and more).
    let mut shifts = [0usize; 5];
    for _ in 0..100 {
        let mut pos = Position::startpos();
        model.reset();
        symbols.reset();
        by_sets.reset();
        for _ in 0..200 {
            pos.legal_moves_into(&mut moves);
            if moves.is_empty() {
                break;
            }
            let (freqs, total) = model.frequencies(&pos, &moves);
            let freqs = freqs.to_vec();
            let scores = &model.scores[..moves.len()];
            let best = scores.iter().copied().max().unwrap_or(0);
            let k = shift(scores.iter().map(|&s| weight(best, s)).sum(), moves.len());
            shifts[k.min(4) as usize] += 1;
            forced += usize::from(moves.len() == 1);
            shifted += usize::from(freqs.iter().any(|&f| f > 1) && freqs.iter().all(|&f| f < FRAC[0] + 1));
            for index in 0..moves.len() {
                let cum = freqs[..index].iter().sum();
                assert_eq!(symbols.symbol(&pos, &moves, index), Some((cum, freqs[index], total)));
                assert_eq!(by_sets.symbol_of(&pos, moves[index]), Some((cum, freqs[index], total)));
                checked += 1;
            }
            assert_eq!(symbols.symbol(&pos, &moves, moves.len()), None);
            next(&mut seed);
            let m = moves[(seed >> 8) as usize % moves.len()];
            model.observe(&pos, m);
            symbols.observe(&pos, m);
            by_sets.observe(&pos, m);
            pos.play_unchecked(m);
        }
    }
    assert!(
        checked > 100_000 && forced > 10 && shifted > 100,
        "{checked} {forced} {shifted}"
    );
    // Every shift the packed lanes serve occurs (4 and more needs 16 moves as likely as
    // the best: see the next test).
    assert!(shifts[..4].iter().all(|&count| count > 0), "{shifts:?}");
}

/// Shifts of 4 and more, which take `symbol`'s second pass: lists of one move repeated, so
/// that every entry weighs as much as the best.
#[test]
fn symbols_match_the_frequencies_when_many_moves_tie() {
    let pos = Position::startpos();
    let mut legal = MoveList::new();
    pos.legal_moves_into(&mut legal);
    for copies in [15, 16, 17, 40, 100, MAX_MOVES] {
        let mut moves: Vec<Move> = vec![legal[0]; copies];
        moves.push(legal[1]);
        let mut model = MoveModel::new();
        let (freqs, total) = model.frequencies(&pos, &moves);
        let (freqs, total) = (freqs.to_vec(), total);
        let n = moves.len().min(MAX_MOVES);
        assert_eq!(freqs.len(), n);
        assert!(total <= MAX_TOTAL);
        let k = shift(model.scores[..n].iter().map(|&s| weight(model.scores[0], s)).sum(), n);
        assert!(copies < 16 || k >= 4, "{copies} {k}");
        for index in [0, 1, n / 2, n - 1] {
            let cum = freqs[..index].iter().sum();
            assert_eq!(
                MoveModel::new().symbol(&pos, &moves, index),
                Some((cum, freqs[index], total)),
                "{copies} {index}"
            );
        }
    }
}

/// The fast scorer and the generic term list (what the tuner fits) agree on every move of
/// random games, where castles, promotions, en passant, discovered checks and repeated moves
/// all occur.
#[test]
fn fast_scores_match_the_terms_in_random_games() {
    let mut seed = 0x9E37_79B9_7F4A_7C15u64;
    let mut moves = MoveList::new();
    let mut model = MoveModel::new();
    let mut checked = 0;
    for _ in 0..300 {
        let mut pos = Position::startpos();
        model.reset();
        for _ in 0..160 {
            pos.legal_moves_into(&mut moves);
            if moves.is_empty() {
                break;
            }
            let mut recorded = vec![0i64; moves.len()];
            model.visit_terms(&pos, &moves, |i, t| {
                recorded[i] += i64::from(PARAMS[t.param as usize]) * i64::from(t.weight);
            });
            let (freqs, total) = model.frequencies(&pos, &moves);
            let freqs = freqs.to_vec();
            for (i, &r) in recorded.iter().enumerate() {
                assert_eq!(i64::from(model.scores[i]), r, "{} in {}", moves[i], pos.fen());
            }
            // Scored set by set (castles, promotions, en passant and discoverers included):
            // the same symbols.
            for (i, &m) in moves.iter().enumerate() {
                let symbol = (freqs[..i].iter().sum(), freqs[i], total);
                assert_eq!(model.symbol_of(&pos, m), Some(symbol), "{m} in {}", pos.fen());
            }
            checked += moves.len();
            next(&mut seed);
            // Prefer captures and promotions now and then, so material comes off the board.
            let tactical: Vec<Move> = moves
                .iter()
                .copied()
                .filter(|m| m.is_capture() || m.is_promotion())
                .collect();
            let m = if !tactical.is_empty() && seed % 3 == 0 {
                tactical[(seed >> 8) as usize % tactical.len()]
            } else {
                moves[(seed >> 8) as usize % moves.len()]
            };
            model.observe(&pos, m);
            pos.play_unchecked(m);
        }
    }
    assert!(checked > 500_000, "{checked}");
}

/// The decoder's path, `prepare` and `find`, gives the moves and the intervals of
/// `frequencies` on the list of `legal_moves`, on random games from the standard start and
/// from Chess960 starts: castles (Chess960 ones too), en passant and promotions all occur.
#[test]
fn prepared_symbols_match_the_frequencies_in_random_games() {
    let starts = [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w KQkq - 0 1",
        "rkrnnqbb/pppppppp/8/8/8/8/PPPPPPPP/RKRNNQBB w KQkq - 0 1",
        "nrkbbrqn/pppppppp/8/8/8/8/PPPPPPPP/NRKBBRQN w KQkq - 0 1",
    ];
    let mut seed = 0x0DDB_1A5E_5BAD_5EEDu64;
    let mut moves = MoveList::new();
    let (mut model, mut prepared) = (MoveModel::new(), MoveModel::new());
    let (mut castles, mut en_passant, mut promotions, mut checked) = (0, 0, 0, 0);
    for game in 0..240 {
        let mut pos = Position::from_fen(starts[game % starts.len()]).unwrap();
        model.reset();
        prepared.reset();
        for _ in 0..220 {
            pos.legal_moves_into(&mut moves);
            let total = prepared.prepare(&pos);
            assert_eq!(prepared.prepared_moves(), &moves[..], "{}", pos.fen());
            if moves.is_empty() {
                assert_eq!(total, 0);
                assert_eq!(prepared.find(0), None);
                break;
            }
            let (freqs, all) = model.frequencies(&pos, &moves);
            let freqs = freqs.to_vec();
            assert_eq!(total, all, "{}", pos.fen());
            let mut cum = 0;
            for (&m, &freq) in moves.iter().zip(&freqs) {
                assert_eq!(prepared.find(cum), Some((m, cum, freq)), "{m} in {}", pos.fen());
                assert_eq!(
                    prepared.find(cum + freq - 1),
                    Some((m, cum, freq)),
                    "{m} in {}",
                    pos.fen()
                );
                cum += freq;
            }
            assert_eq!(prepared.find(total), None);
            checked += moves.len();
            next(&mut seed);
            // Prefer captures, promotions and castles now and then.
            let special: Vec<Move> = moves
                .iter()
                .copied()
                .filter(|m| m.is_capture() || m.is_promotion() || m.castling_side().is_some())
                .collect();
            let m = if !special.is_empty() && seed % 3 == 0 {
                special[(seed >> 8) as usize % special.len()]
            } else {
                moves[(seed >> 8) as usize % moves.len()]
            };
            castles += usize::from(m.castling_side().is_some());
            en_passant += usize::from(m.is_en_passant());
            promotions += usize::from(m.is_promotion());
            model.observe(&pos, m);
            prepared.observe(&pos, m);
            pos.play_unchecked(m);
        }
    }
    assert!(
        checked > 300_000 && castles > 50 && en_passant > 5 && promotions > 20,
        "{checked} {castles} {en_passant} {promotions}"
    );
}

/// Positions with scores of near-best moves, where `prepare` takes its second pass (a
/// shift of 4 or more): the same totals and intervals as `frequencies`.
#[test]
fn prepared_symbols_match_the_frequencies_with_large_shifts() {
    let fens = [
        "4k3/8/8/8/8/8/8/QQQQKQQQ w - - 0 40",
        "4k3/8/8/8/8/8/8/RRRRKRRR w - - 0 40",
        "4k3/8/8/8/8/8/8/NNQQKQQB w - - 0 40",
    ];
    let mut large = 0;
    for fen in fens {
        let pos = Position::from_fen(fen).unwrap();
        let moves = pos.legal_moves();
        let mut prepared = MoveModel::new();
        let total = prepared.prepare(&pos);
        large += usize::from(prepared.prepared_shift >= 4);
        let mut model = MoveModel::new();
        let (freqs, all) = model.frequencies(&pos, &moves);
        assert_eq!(total, all, "{fen}");
        let mut cum = 0;
        for (&m, &freq) in moves.iter().zip(freqs) {
            assert_eq!(prepared.find(cum + freq / 2), Some((m, cum, freq)), "{m} in {fen}");
            cum += freq;
        }
    }
    assert!(large > 0, "no position takes the second pass");
}
