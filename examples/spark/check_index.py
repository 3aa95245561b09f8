#!/usr/bin/env python3
"""Checks that the index build_index.py built with Spark answers every query of a test set
exactly as the index `chessbits index build` builds from the same export.

    python check_index.py CHESSBITS SPARK_INDEX EXPORT_DIR [--local LOCAL_INDEX] [--sample 200]

CHESSBITS is the CLI. Without --local the local index is built
first (`CHESSBITS index build EXPORT_DIR -o ...`). The test set, from the export's games (read
with pyarrow, moves decoded by the chessbits package):
  - every position of every game up to ply 4 (the explorer's opening tree);
  - --sample positions (default 200) drawn from the games at plies 10 to 60 (seeded);
  - transpositions: positions of plies 2 to 12 that games reached by different move orders.
For each position (as a FEN), `explore --json` and `search --json --limit 1000000` of both
indexes must print the same JSON: totals, moves, top and recent games, and every game with its
tags, source reference and plies. Prints one line; exits 1 on a difference, with the first few.
"""

import argparse
import concurrent.futures
import json
import os
import random
import subprocess
import sys
import tempfile

import pyarrow.compute as pc
import pyarrow.dataset as ds

import chessbits


def position_set(export_dir, sample, seed):
    """The test set's FENs: (opening, sampled, transpositions) lists, each without repeats."""
    parts = chessbits.export_parts(export_dir)
    codec = parts[0]["moves_code"]
    table = ds.dataset([p["path"] for p in parts], format="parquet").to_table(
        columns=["moves", "plies", "start_fen", "other_tags"])
    variant = pc.map_lookup(table.column("other_tags"), "Variant", "first")
    chess960 = pc.fill_null(pc.match_substring(variant, "960"), False)
    start_fens = table.column("start_fen")
    common = dict(start_fens=start_fens, chess960=chess960, on_error="null", codec=codec)
    fens = chessbits.positions(table.column("moves"), table.column("plies"), **common).to_pylist()
    ucis = chessbits.decode_moves(table.column("moves"), table.column("plies"), **common).to_pylist()

    def position(fen):  # placement, side, castling, en passant: what the key covers
        return " ".join(fen.split()[:4])

    opening, middle, paths = {}, [], {}
    for game_fens, game_moves in zip(fens, ucis):
        if game_fens is None or game_moves is None:
            continue
        for ply, fen in enumerate(game_fens):
            if ply <= 4:
                opening.setdefault(position(fen), fen)
            if 10 <= ply <= 60:
                middle.append(fen)
            if 2 <= ply <= 12:
                paths.setdefault(position(fen), (fen, set()))[1].add(tuple(game_moves[:ply]))
    rng = random.Random(seed)
    sampled = {}
    for fen in rng.sample(middle, min(sample, len(middle))):
        sampled.setdefault(position(fen), fen)
    transpositions = {p: fen for p, (fen, seen) in paths.items() if len(seen) > 1}
    return list(opening.values()), list(sampled.values()), list(transpositions.values())


def answers(binary, index, fen):
    """explore --json and search --json of one position, as parsed JSON."""
    out = []
    for args in (["explore", index, "--fen", fen, "--json"],
                 ["search", index, "--fen", fen, "--json", "--limit", "1000000"]):
        run = subprocess.run([binary, *args], capture_output=True, text=True)
        if run.returncode != 0:
            raise SystemExit(f"{' '.join(args)}: exit {run.returncode}: {run.stderr.strip()}")
        out.append(json.loads(run.stdout))
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("chessbits")
    parser.add_argument("spark_index")
    parser.add_argument("export_dir")
    parser.add_argument("--local", help="the local index (default: built here from EXPORT_DIR)")
    parser.add_argument("--sample", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    temp = None
    local = args.local
    if local is None:
        temp = tempfile.TemporaryDirectory()
        local = os.path.join(temp.name, "index")
        build = subprocess.run([args.chessbits, "index", "build", args.export_dir, "-o", local],
                               capture_output=True, text=True)
        # Status 1: some games could not be indexed (reported by both builds alike).
        if build.returncode > 1:
            raise SystemExit(f"index build: exit {build.returncode}: {build.stderr.strip()}")

    opening, sampled, transpositions = position_set(args.export_dir, args.sample, args.seed)
    if len(sampled) < min(args.sample, 200) // 2 or not transpositions:
        raise SystemExit(f"too small a test set: {len(sampled)} sampled, {len(transpositions)} transpositions")
    fens = list(dict.fromkeys(opening + sampled + transpositions))
    differences = []

    def compare(fen):
        spark, ours = answers(args.chessbits, args.spark_index, fen), answers(args.chessbits, local, fen)
        for what, a, b in zip(("explore", "search"), spark, ours):
            if a != b:
                return f"{what} --fen '{fen}':\n  spark: {json.dumps(a)[:600]}\n  local: {json.dumps(b)[:600]}"
        return None

    pool = concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 2)
    for difference in pool.map(compare, fens):
        if difference:
            differences.append(difference)
            if len(differences) == 3:
                break
    pool.shutdown(cancel_futures=True)
    if differences:
        print(f"positions differ (the first {len(differences)} shown):")
        for d in differences[:3]:
            print(d)
        return 1
    print(f"Spark index equals the local index on {len(fens)} positions (explorer and search): "
          f"{len(opening)} up to ply 4, {len(sampled)} sampled at plies 10-60, "
          f"{len(transpositions)} transpositions")
    return 0


if __name__ == "__main__":
    sys.exit(main())
