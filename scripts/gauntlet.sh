#!/usr/bin/env bash
# The engine against Debian's engines, one match each through scripts/match.py (python-chess):
#   scripts/gauntlet.sh ENGINE OUT_DIR [match.py options...]
# e.g. scripts/gauntlet.sh target/release/chessbits-engine /tmp/gauntlet --games 40 --movetime 0.1
# Needs `apt-get install stockfish phalanx gnuchess glaurung toga2 ethereal-chess` (in /usr/games)
# and python-chess (PYTHON names the interpreter, default python3). Each opponent's games go to
# OUT_DIR/NAME.pgn and its log to OUT_DIR/NAME.log; the summary lines are printed at the end.
# OPPONENTS (default: all) picks some: OPPONENTS="glaurung toga2" scripts/gauntlet.sh ...
set -euo pipefail
engine="$1"; out="$2"; shift 2
python="${PYTHON:-python3}"
here="$(dirname "$0")"
mkdir -p "$out"
declare -A command=(
  [phalanx]="/usr/games/phalanx"
  [gnuchess]="/usr/games/gnuchess --uci"
  [glaurung]="/usr/games/glaurung"
  [toga2]="/usr/games/toga2"
  [ethereal]="/usr/games/ethereal-chess"
  [stockfish1800]="/usr/games/stockfish"
  [stockfish2200]="/usr/games/stockfish"
)
declare -A options=(
  [phalanx]="--b-protocol xboard"
  [gnuchess]="--b-option OwnBook=false"
  [glaurung]=""
  [toga2]=""
  [ethereal]=""
  [stockfish1800]="--b-option UCI_LimitStrength=true --b-option UCI_Elo=1800"
  [stockfish2200]="--b-option UCI_LimitStrength=true --b-option UCI_Elo=2200"
)
for name in ${OPPONENTS:-phalanx gnuchess glaurung toga2 ethereal stockfish1800 stockfish2200}; do
  # shellcheck disable=SC2086
  "$python" "$here/match.py" "$engine" "${command[$name]}" ${options[$name]} --pgn "$out/$name.pgn" "$@" \
    >"$out/$name.log" 2>&1 || true
  echo "== $name: $(grep -E '^A: ' "$out/$name.log" || tail -n 1 "$out/$name.log")"
done
