#!/usr/bin/env python3
"""PGN -> Parquet speed: `chessbits export` (1 and 2 threads, both moves codes) beside
`chessbits pgn check` and a python-chess + pyarrow converter (scripts/python_chess_to_parquet.py),
in one run. Prints a Markdown table: seconds (best of --runs), MB/s, games/s, ratio to python-chess
per core.

    export_bench.py CHESSBITS PGN [--copies 20] [--python-copies 3] [--runs 3] [--python PYTHON]

The chessbits runs read PGN repeated
--copies times (so they run long enough to time); python-chess reads it --python-copies times
(enough that its 0.2 s of interpreter start-up and imports, timed with the rest, weigh little;
throughput is per MB and per game either way). The Python needs chess and pyarrow installed.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def timed(cmd, runs):
    best = None
    for _ in range(runs):
        start = time.perf_counter()
        proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        elapsed = time.perf_counter() - start
        if proc.returncode not in (0, 1):
            sys.exit(f"{' '.join(cmd)} failed ({proc.returncode}): {proc.stderr.decode()}")
        best = elapsed if best is None else min(best, elapsed)
    return best, proc


def cpu():
    fields = {}
    with open("/proc/cpuinfo") as f:
        for line in f:
            key, _, value = line.partition(":")
            key = key.strip()
            if key in ("model name", "cpu family", "model") and key not in fields:
                fields[key] = value.strip()
    return f"{fields.get('model name')} (cpu family {fields.get('cpu family')}, model {fields.get('model')})"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("chessbits")
    ap.add_argument("pgn")
    ap.add_argument("--copies", type=int, default=20)
    ap.add_argument("--python-copies", type=int, default=3)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--python", default=sys.executable)
    args = ap.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        data = open(args.pgn, "rb").read()
        if not data.endswith(b"\n\n"):
            data += b"\n\n"
        big = os.path.join(tmp, "big.pgn")
        with open(big, "wb") as f:
            for _ in range(args.copies):
                f.write(data)
        big_mb = os.path.getsize(big) / 1e6
        one_mb = len(data) / 1e6

        results = []  # (name, cores, seconds, MB, games)
        for threads in (1, 2):
            secs, proc = timed([args.chessbits, "pgn", "check", big, "--threads", str(threads), "--json"], args.runs)
            games = json.loads(proc.stdout)["games"]
            results.append((f"`chessbits pgn check --threads {threads}`", threads, secs, big_mb, games))
        sizes = {}
        for codec in ("entropy", "index"):
            for threads in (1, 2):
                out = os.path.join(tmp, f"out-{codec}")
                cmd = [args.chessbits, "export", big, "-o", out, "--force", "--json",
                       "--threads", str(threads), "--moves-codec", codec]
                secs, proc = timed(cmd, args.runs)
                summary = json.loads(proc.stderr)
                sizes[codec] = os.path.getsize(os.path.join(out, "part-0.parquet"))
                results.append((f"`chessbits export --moves-codec {codec} --threads {threads}`", threads, secs,
                                big_mb, summary["games"]))
        py_in = os.path.join(tmp, "python.pgn")
        with open(py_in, "wb") as f:
            for _ in range(args.python_copies):
                f.write(data)
        py_out = os.path.join(tmp, "python.parquet")
        secs, proc = timed([args.python, os.path.join(HERE, "python_chess_to_parquet.py"), py_in, py_out], 1)
        py_games = int(proc.stdout.decode().split()[-1])
        results.append(("python-chess + pyarrow (`scripts/python_chess_to_parquet.py`)", 1, secs,
                        os.path.getsize(py_in) / 1e6, py_games))
        py_rate = py_games / secs

    print(f"CPU: {cpu()}; input: {args.pgn} ({one_mb:.2f} MB; chessbits reads it {args.copies}x, "
          f"python-chess {args.python_copies}x)\n")
    print("| command | cores | seconds | MB/s | games/s | games/s per core vs python-chess |")
    print("|---|---|---|---|---|---|")
    for name, cores, secs, mb, games in results:
        rate = games / secs
        print(f"| {name} | {cores} | {secs:.3f} | {mb / secs:.1f} | {rate:,.0f} | {rate / cores / py_rate:.0f}x |")
    print(f"\nParquet size for {args.copies} copies: moves entropy-coded {sizes['entropy'] / 1e6:.2f} MB, "
          f"index-byte {sizes['index'] / 1e6:.2f} MB")


if __name__ == "__main__":
    main()
