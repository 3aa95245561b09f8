#!/usr/bin/env bash
# The network pipeline in one command: self-play data, a trained network, and two matches of the
# engine with that network against the engine with its default evaluation, the embedded network
# (one at a fixed node count, which does not depend on the machine's load, one on the clock).
# datagen plays with the embedded network too (EVAL=hand-tuned for the hand-tuned evaluation).
#
#   scripts/nnue_pipeline.sh DIR                      # defaults below; rerun to continue datagen
#   GAMES=200000 HIDDEN=256 EPOCHS=8 scripts/nnue_pipeline.sh /data/nnue
#
# DIR receives data.cbtd (resumed if there: datagen continues where a killed run stopped),
# net.nnue with net.nnue.recipe, loss.csv, loss.png, and the two matches' logs. Settings
# (environment): GAMES (20000 self-play games), NODES (5000 a move), SEED (1), THREADS (all
# cores), HIDDEN (128), EPOCHS (5), LR_DECAY (0.6), MATCH_GAMES (100), MATCH_NODES (5000),
# MATCH_TC (10+0.1; empty skips the clock match), PYTHON (python3 with python-chess).
#
# Measured (2026-12-07, evening): the embedded network (nets/cb-256-4.nnue) was trained on two
# runs at NODES=1000 on 2 cores: cb-256-3's data (below) and 140,000 games with cb-256-3 (10.8 M
# positions, 38 minutes), HIDDEN=256, EPOCHS=10, LR_DECAY=0.75 (chessbits-train takes --data
# more than once): +63 Elo (95 %: +34 to +93) over cb-256-3 in 400 games at 20,000 nodes a move, +42
# (+12 to +72) in 400 at 5,000.
# Before (2026-12-07): cb-256-3 came from one run at
# NODES=1000 on 2 cores with the network before it, cb-256-2 (266,540 games, 22.1 M positions,
# 70 minutes), HIDDEN=256, EPOCHS=10, LR_DECAY=0.75: +33 Elo (95 %: +3 to +63) over cb-256-2 in
# 400 games at 5,000 nodes a move, +56 (+24 to +89) in 300 at 20,000.
# Before (2026-11-29): cb-256-2 came from two runs at
# NODES=1000 on 2 cores: 114,945 games with the hand-tuned evaluation (10.3 M positions, 49
# minutes) and 114,642 with the network before it, cb-256-1 (9.4 M positions, 61 minutes),
# HIDDEN=256, EPOCHS=8, LR_DECAY=0.7: +121 Elo (95 %: +78 to +167) over cb-256-1 in 200 games at
# 5,000 nodes a move. cb-256-1 (the first run's data alone) had scored +92 Elo (+33 to +157) over
# the hand-tuned evaluation in 100 games at 5+0.05.
# Before (2026-11-28): 35,194 games (3.6 M positions, 2.6 M after the filters; 16 Xeon cores,
# 13 minutes) gave a 128-wide network even with the hand-tuned evaluation at 5,000 nodes a move
# (-17 Elo, 95 %: -78 to +42, 100 games). Networks that beat a tuned evaluation are trained on
# tens of millions of positions: run this over a night (about 330 positions/s per core).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
dir="${1:?usage: scripts/nnue_pipeline.sh DIR}"
mkdir -p "$dir"
dir="$(cd "$dir" && pwd)"
cd "$here/.."

python="${PYTHON:-python3}"
threads=()
[ -n "${THREADS:-}" ] && threads=(--threads "$THREADS")
cargo build --release -p chessbits-engine -p chessbits-train
engine=target/release/chessbits-engine

target/release/chessbits-engine datagen --out "$dir/data.cbtd" --games "${GAMES:-20000}" \
  --nodes "${NODES:-5000}" --seed "${SEED:-1}" --eval "${EVAL:-embedded}" "${threads[@]}"
target/release/chessbits-train --data "$dir/data.cbtd" -o "$dir/net.nnue" \
  --hidden "${HIDDEN:-128}" --epochs "${EPOCHS:-5}" --lr-decay "${LR_DECAY:-0.6}" \
  --seed "${SEED:-1}" --csv "$dir/loss.csv" --plot "$dir/loss.png" --keep-best "${threads[@]}"

"$python" scripts/match.py "$engine" "$engine" --games "${MATCH_GAMES:-100}" \
  --nodes "${MATCH_NODES:-5000}" --a-option "EvalFile=$dir/net.nnue" --pgn "$dir/match-nodes.pgn" \
  | tee "$dir/match-nodes.log" | tail -4
if [ -n "${MATCH_TC-10+0.1}" ]; then
  "$python" scripts/match.py "$engine" "$engine" --games "${MATCH_GAMES:-100}" \
    --tc "${MATCH_TC:-10+0.1}" --a-option "EvalFile=$dir/net.nnue" --pgn "$dir/match-clock.pgn" \
    | tee "$dir/match-clock.log" | tail -4
fi
echo "A = the network ($dir/net.nnue), B = the embedded network (the engine's default)"
