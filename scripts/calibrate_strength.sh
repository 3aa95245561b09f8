#!/usr/bin/env bash
# Calibrates the engine's UCI_Elo against Stockfish's: for each setting N (arguments, default
# 1320 1600 2000 2400), one match of chessbits-engine at UCI_Elo N against Stockfish at
# UCI_Elo N (clamped to Stockfish's range), through scripts/match.py (python-chess). Each match's
# Elo difference gives the Stockfish level our setting scores 50 % against: Stockfish's N plus
# the difference, with its 95 % interval. Prints a Markdown table.
#
#   scripts/calibrate_strength.sh [N...]            # GAMES=40 TC=10+0.1 by default
#   GAMES=20 MOVETIME=0.1 scripts/calibrate_strength.sh 1320 2000
#
# Needs `apt-get install stockfish` (/usr/games/stockfish; STOCKFISH names another) and
# python-chess (PYTHON names the interpreter, default python3); ENGINE names our engine
# (default target/release/chessbits-engine, built if missing). Keep the machine quiet: the
# engines play on the clock.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
cd "$here/.."

python="${PYTHON:-python3}"
stockfish="${STOCKFISH:-/usr/games/stockfish}"
engine="${ENGINE:-target/release/chessbits-engine}"
games="${GAMES:-40}"
if [ -n "${MOVETIME:-}" ]; then
  limit=(--movetime "$MOVETIME")
else
  limit=(--tc "${TC:-10+0.1}")
fi
settings=("$@")
if [ ${#settings[@]} -eq 0 ]; then
  settings=(1320 1600 2000 2400)
fi
[ -x "$engine" ] || cargo build --release -p chessbits-engine
# Stockfish's UCI_Elo range, as it announces it.
read -r sf_min sf_max < <(echo uci | "$stockfish" | sed -n 's/^option name UCI_Elo .* min \([0-9]*\) max \([0-9]*\).*/\1 \2/p')

out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
echo "| our UCI_Elo | Stockfish UCI_Elo | games | our score | Elo difference (95 %) | Stockfish level scoring 50 % |"
echo "|---|---|---|---|---|---|"
for ours in "${settings[@]}"; do
  theirs=$(( ours < sf_min ? sf_min : (ours > sf_max ? sf_max : ours) ))
  "$python" "$here/match.py" "$engine" "$stockfish" --games "$games" "${limit[@]}" \
    --a-option UCI_LimitStrength=true --a-option "UCI_Elo=$ours" \
    --b-option UCI_LimitStrength=true --b-option "UCI_Elo=$theirs" >"$out/$ours.txt"
  # "A: +W =D -L, P/N (S%), Elo D (95%: LO to HI)"
  line="$(grep '^A: +' "$out/$ours.txt")"
  score="$(sed -n 's/.*(\([0-9.]*%\)).*/\1/p' <<<"$line")"
  diff="$(sed -n 's/.*Elo \([-+0-9a-z]*\) (95%: \([-+0-9a-z]*\) to \([-+0-9a-z]*\)).*/\1 \2 \3/p' <<<"$line")"
  read -r d lo hi <<<"$diff"
  level() { case "$1" in *inf*) echo "$1" ;; *) echo $(( theirs + $1 )) ;; esac; }
  echo "| $ours | $theirs | $games | $score | $d ($lo to $hi) | $(level "$d") ($(level "$lo") to $(level "$hi")) |"
done
