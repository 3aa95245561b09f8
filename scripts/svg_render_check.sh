#!/usr/bin/env bash
# Renders a few board diagrams (`chessbits show FEN --svg`) to PNG with a real SVG renderer,
# rsvg-convert (Debian's librsvg2-bin), into target/svg-check/, so a person can look at them:
#   start.png      the start position, default options;
#   check.png      1. e4 f6 2. d4 g5 3. Qh5+: the last move and the king in check;
#   shapes.png     a middlegame with arrows and circled squares in the four colours;
#   flipped.png    1. e4 c5 2. Nf3 d6 from Black's side: the last move, a check threatened;
#   pieces.png     every piece of both colours on light and dark squares, large.
# The SVG text of each is kept beside its PNG. Fails if a renderer reports an error or a PNG is
# missing or empty. CHESSBITS picks the binary (default: built here with cargo).
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v rsvg-convert >/dev/null; then
  echo "rsvg-convert not found: apt-get install librsvg2-bin" >&2
  exit 2
fi
if [ -z "${CHESSBITS:-}" ]; then
  cargo build --quiet -p chessbits-cli --bin chessbits
  CHESSBITS=target/debug/chessbits
fi

out=target/svg-check
mkdir -p "$out"
rm -f "$out"/*.png "$out"/*.svg

middlegame="r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 8"
render() { # name, then the arguments of `chessbits show`
  local name=$1
  shift
  "$CHESSBITS" show "$@" --svg >"$out/$name.svg"
  rsvg-convert --format png --output "$out/$name.png" "$out/$name.svg"
  [ -s "$out/$name.png" ] || { echo "$name.png is empty" >&2; exit 1; }
  echo "$out/$name.png"
}

render start startpos
render check "rnbqkbnr/ppppp2p/5p2/6pQ/3PP3/8/PPP2PPP/RNB1KBNR b KQkq - 1 3" --last-move d1h5
render shapes "$middlegame" --arrows "Gf3e5,Rc3b5,Bd1a4,Yc4d5" --squares "Gd4,Re5,Bh7,Yd5" --size 480
render flipped "rnbqkbnr/pp2pppp/3p4/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 0 3" --flip --last-move d7d6 --arrows Gf1b5,Rd8a5 --squares Ye8
render pieces "8/1QRBNP2/1QRBNP2/K7/7k/1qrbnp2/1qrbnp2/8 w - - 0 1" --size 720 --allow-impossible
