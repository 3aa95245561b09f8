#!/usr/bin/env python3
"""Search speed of chessbits-engine beside Stockfish's and Ethereal's own `bench`, in one run, on
1 and 2 threads; and time-to-depth with 2 threads against 1 (our `bench` searches its fixed
positions to a fixed depth, so its time is the time to reach that depth).

    engine_speed.py ENGINE [--runs 3] [--depth 12] [--stockfish PATH] [--ethereal PATH]

Needs `apt-get install stockfish ethereal-chess` (in /usr/games). Each command runs --runs times;
the table shows the best time and its nodes per second (nodes of multi-threaded runs vary from
run to run). Prints a Markdown table and the CPU.
"""
import argparse
import re
import subprocess
import sys


def cpu():
    fields = {}
    with open("/proc/cpuinfo") as f:
        for line in f:
            key, _, value = line.partition(":")
            key = key.strip()
            if key in ("model name", "cpu family", "model") and key not in fields:
                fields[key] = value.strip()
    return f"{fields.get('model name')} (cpu family {fields.get('cpu family')}, model {fields.get('model')})"


def number(pattern, text):
    found = re.findall(pattern, text)
    if not found:
        sys.exit(f"no match for {pattern!r} in:\n{text[-2000:]}")
    return int(found[-1])


SF_OUTPUT = (r"Nodes searched\s*:\s*(\d+)", r"Total time \(ms\)\s*:\s*(\d+)")
ETHEREAL_OUTPUT = (r"Nodes\s*:\s*(\d+)", r"Time\s*:\s*(\d+)\s*ms")


def run(cmd, patterns, runs):
    """Best (seconds, nodes) of `runs` runs, as the engine reports them (its search time, without
    start-up)."""
    best = None
    for _ in range(runs):
        proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        if proc.returncode != 0:
            sys.exit(f"{' '.join(cmd)} failed ({proc.returncode}):\n{proc.stdout[-2000:]}")
        nodes = number(patterns[0], proc.stdout)
        elapsed = max(number(patterns[1], proc.stdout), 1) / 1000
        if best is None or elapsed < best[0]:
            best = (elapsed, nodes)
    return best


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("engine")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--depth", type=int, default=12)
    ap.add_argument("--stockfish", default="/usr/games/stockfish")
    ap.add_argument("--ethereal", default="/usr/games/ethereal-chess")
    args = ap.parse_args()

    rows = []  # (name, threads, seconds, nodes)
    for threads in (1, 2):
        # Our bench: `bench DEPTH THREADS`, 16 MiB of hash.
        secs, nodes = run([args.engine, "bench", str(args.depth), str(threads)], SF_OUTPUT, args.runs)
        rows.append((f"`chessbits-engine bench {args.depth} {threads}`", threads, secs, nodes))
        # Stockfish: `bench HASH_MB THREADS DEPTH` (its default is depth 13 on its own positions).
        secs, nodes = run([args.stockfish, "bench", "16", str(threads), "13"], SF_OUTPUT, args.runs)
        rows.append((f"`stockfish bench 16 {threads} 13`", threads, secs, nodes))
        # Ethereal: `bench DEPTH THREADS HASH_MB`.
        secs, nodes = run([args.ethereal, "bench", "13", str(threads), "16"], ETHEREAL_OUTPUT, args.runs)
        rows.append((f"`ethereal-chess bench 13 {threads} 16`", threads, secs, nodes))

    ours = {threads: (secs, nodes) for name, threads, secs, nodes in rows if name.startswith("`chessbits")}
    print(f"CPU: {cpu()}; best of {args.runs} runs each\n")
    print("| command | threads | seconds | nodes | nodes/s | our nodes/s over theirs |")
    print("|---|---|---|---|---|---|")
    for name, threads, secs, nodes in rows:
        nps = nodes / secs
        our_nps = ours[threads][1] / ours[threads][0]
        print(f"| {name} | {threads} | {secs:.2f} | {nodes:,} | {nps:,.0f} | {our_nps / nps:.2f} |")
    (t1, _), (t2, _) = ours[1], ours[2]
    print(f"\nTime to depth {args.depth} over the bench positions: {t1:.2f} s with one thread, {t2:.2f} s with two "
          f"({t1 / t2:.2f}x).")


if __name__ == "__main__":
    main()
