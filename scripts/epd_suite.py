#!/usr/bin/env python3
"""Runs a test suite of EPD positions (Win At Chess, Bratko-Kopec, ...) through one or more UCI
engines with python-chess and reports how many each solves, all in one run so that the counts are
comparable.

Usage:
  epd_suite.py SUITE.epd ENGINE [ENGINE ...] [--ms 200 | --nodes N] [--option K=NAME=VALUE ...]
               [--show-failed] [--min-solved N]

A position is solved when the engine's `bestmove` after `go movetime MS` is one of the `bm`
moves, or, for a position with `am` (avoid move) only, none of them. `--nodes N` searches N nodes
a position instead (`go nodes N`: counts that do not depend on the machine or its load, for
comparing two builds of one engine; node counts of different engines are not comparable). Each position is searched as
a new game (`ucinewgame`, so nothing carries over from the position before). An ENGINE is a
command line (`"gnuchess --uci"` works); `--option 2=Hash=64` sets a UCI option of the second
engine (counting from 1). `--min-solved N` exits 1 when an engine solves fewer than N (the
check `.ci/run` makes on `testdata/positions/tactics.epd`). `Threads` and `Hash` default to 1 and 16 MiB for every engine, as in
`match.py`.

Win At Chess (300 positions, Reinfeld 1958) is not bundled: any copy of `wac.epd` with `bm` and
`id` opcodes works (the one used in BENCHMARKS.md is 22,698 bytes, SHA-256 in that section).
"""
import argparse
import os
import sys
import time

import chess
import chess.engine

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from match import open_engine  # noqa: E402  (one way to start and configure an engine)


def load_suite(path):
    """(id, board, best moves, avoid moves) for each position of an EPD file."""
    suite = []
    with open(path) as f:
        for number, line in enumerate(f, 1):
            if not line.strip() or line.startswith("#"):
                continue
            try:
                board, ops = chess.Board.from_epd(line)
            except ValueError as error:
                raise SystemExit(f"{path}:{number}: {error}")
            best, avoid = ops.get("bm", []), ops.get("am", [])
            if not best and not avoid:
                raise SystemExit(f"{path}:{number}: no bm or am opcode")
            suite.append((ops.get("id", f"line {number}"), board, best, avoid))
    return suite


def solved(move, best, avoid):
    if best:
        return move in best
    return move not in avoid


def run(engine, suite, limit):
    """The ids of the positions solved and not solved, and the mean wall time a position took."""
    good, bad = [], []
    start = time.monotonic()
    for index, (name, board, best, avoid) in enumerate(suite):
        result = engine.play(board, limit, game=index)
        played = board.san(result.move) if result.move in board.legal_moves else str(result.move)
        expected = " ".join(board.san(m) for m in best) or "not " + " ".join(board.san(m) for m in avoid)
        (good if solved(result.move, best, avoid) else bad).append((name, played, expected))
    return good, bad, (time.monotonic() - start) / max(len(suite), 1)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("suite")
    ap.add_argument("engines", nargs="+")
    ap.add_argument("--ms", type=int, default=None)
    ap.add_argument("--nodes", type=int, default=None)
    ap.add_argument("--option", action="append", default=[])
    ap.add_argument("--show-failed", action="store_true")
    ap.add_argument("--min-solved", type=int, default=0)
    args = ap.parse_args()
    if args.ms is not None and args.nodes is not None:
        ap.error("give --ms or --nodes, not both")
    if args.nodes is not None:
        limit, each = chess.engine.Limit(nodes=args.nodes), f"{args.nodes} nodes"
    else:
        args.ms = 200 if args.ms is None else args.ms
        limit, each = chess.engine.Limit(time=args.ms / 1000), f"{args.ms} ms"
    suite = load_suite(args.suite)
    options = [{} for _ in args.engines]
    for spec in args.option:
        which, _, pair = spec.partition("=")
        name, _, value = pair.partition("=")
        if not which.isdigit() or not 1 <= int(which) <= len(args.engines) or not name:
            ap.error(f"--option {spec!r}: expected ENGINE_NUMBER=NAME=VALUE")
        options[int(which) - 1][name] = value
    print(f"{args.suite}: {len(suite)} positions, {each} each", flush=True)
    rows = []
    for command, config in zip(args.engines, options):
        engine = open_engine(command, "uci", config)
        try:
            name = engine.id.get("name", command)
            good, bad, mean = run(engine, suite, limit)
        finally:
            engine.quit()
        rows.append((name, len(good), mean))
        print(f"{name}: {len(good)}/{len(suite)} solved ({1000 * mean:.0f} ms a position)", flush=True)
        if args.show_failed:
            for position, played, expected in bad:
                print(f"  not solved: {position}: played {played}, {expected} expected")
    width = max(len(name) for name, _, _ in rows)
    print()
    print(f"{'engine':<{width}}  solved  of {len(suite)}")
    for name, count, _ in rows:
        print(f"{name:<{width}}  {count:>6}")
    short = [name for name, count, _ in rows if count < args.min_solved]
    if short:
        print(f"fewer than {args.min_solved} solved: {', '.join(short)}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
