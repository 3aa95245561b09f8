"""Speed of the Python package against python-chess on the bundled corpus (testdata/pgn/*.pgn,
concatenated and repeated): read_pgn (games/s, all columns) against chess.pgn.read_game, and
decode_moves / positions (plies/s) against replaying the main lines with python-chess.

Run in a venv with the wheel, pyarrow and chess installed (scripts/python_package.sh makes one):

    target/py-venv-test/bin/python scripts/python_bench.py [--repeat 10]
"""

import argparse
import os
import pathlib
import tempfile
import time

import chess
import chess.pgn

import chessbits

ROOT = pathlib.Path(__file__).resolve().parents[1]


def best_of(runs, f):
    """The fastest of `runs` calls of f (seconds), and its result."""
    best, result = float("inf"), None
    for _ in range(runs):
        start = time.perf_counter()
        result = f()
        best = min(best, time.perf_counter() - start)
    return best, result


def python_chess_read(path):
    games = []
    with open(path, encoding="utf-8-sig", errors="replace") as f:
        while (game := chess.pgn.read_game(f)) is not None:
            games.append(game)
    return games


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=10, help="copies of the corpus in the file")
    args = parser.parse_args()
    corpus = b"".join(p.read_bytes() + b"\n\n" for p in sorted((ROOT / "testdata/pgn").glob("*.pgn")))
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "corpus.pgn")
        with open(path, "wb") as f:
            f.write(corpus * args.repeat)
        size_mb = os.path.getsize(path) / 1e6

        ours, table = best_of(3, lambda: chessbits.read_pgn(path).read_all())
        games = table.num_rows
        theirs, pc_games = best_of(1, lambda: python_chess_read(path))
        assert len(pc_games) == games, (len(pc_games), games)
        print(f"corpus: {games} games, {size_mb:.1f} MB, {os.cpu_count()} cores")
        print(f"read_pgn:                {games / ours:10.0f} games/s ({size_mb / ours:.1f} MB/s)")
        print(f"python-chess read_game:  {games / theirs:10.0f} games/s ({size_mb / theirs:.2f} MB/s)"
              f"  -> {theirs / ours:.0f}x")

        moves, plies = table["moves"], table["plies"]
        total = sum(plies.to_pylist())
        for notation in ["uci", "san"]:
            t, _ = best_of(3, lambda: chessbits.decode_moves(moves, plies, notation=notation))
            print(f"decode_moves({notation}):       {total / t:10.0f} plies/s")
        t, _ = best_of(3, lambda: chessbits.positions(moves, plies))
        print(f"positions (FEN per ply): {total / t:10.0f} plies/s")

        sample = pc_games[: max(1, len(pc_games) // args.repeat)]

        def replay():
            out = []
            for game in sample:
                board = game.board()
                for move in game.mainline_moves():
                    out.append(board.san(move))
                    board.push(move)
                    out.append(board.fen())
            return out

        t, replayed = best_of(1, replay)
        print(f"python-chess SAN + FEN per ply: {len(replayed) / 2 / t:10.0f} plies/s")


if __name__ == "__main__":
    main()
