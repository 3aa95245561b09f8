#!/usr/bin/env python3
"""Checks `chessbits book` against python-chess's Polyglot reader (chess.polyglot).

Usage: book_python_chess.py CHESSBITS_BINARY BOOK.bin... [--positions N]

For each book, walks the book from the start position breadth-first (every book move of every
position reached, up to N positions; 300 by default) and compares, position by position, the
entries `chessbits book FILE --fen FEN` prints (move in UCI, weight, learn; file order) with
python-chess's `find_all(board, minimum_weight=0)`. python-chess writes castles as the king's
two-step in standard chess, as chessbits does. Exit status 0 if every position matches.
"""
import subprocess
import sys
from collections import deque

import chess
import chess.polyglot


def chessbits_entries(binary, book, fen):
    out = subprocess.run([binary, "book", book, "--fen", fen], capture_output=True, text=True, check=True)
    return [tuple(line.split()) for line in out.stdout.splitlines() if line.strip()]


def main():
    args = sys.argv[1:]
    limit = 300
    if "--positions" in args:
        i = args.index("--positions")
        limit = int(args[i + 1])
        del args[i : i + 2]
    binary, books = args[0], args[1:]
    failures = 0
    for book in books:
        compared = entries = 0
        with chess.polyglot.open_reader(book) as reader:
            queue = deque([chess.Board()])
            seen = set()
            while queue and compared < limit:
                board = queue.popleft()
                key = chess.polyglot.zobrist_hash(board)
                if key in seen:
                    continue
                seen.add(key)
                expected = [
                    (e.move.uci(), str(e.weight), str(e.learn)) for e in reader.find_all(board, minimum_weight=0)
                ]
                got = chessbits_entries(binary, book, board.fen())
                compared += 1
                entries += len(expected)
                if got != expected:
                    failures += 1
                    print(f"MISMATCH {book} {board.fen()}\n  python-chess {expected}\n  chessbits    {got}")
                for e in expected:
                    child = board.copy()
                    child.push(chess.Move.from_uci(e[0]))
                    queue.append(child)
        print(f"{book}: {compared} positions, {entries} entries compared")
    print("all equal" if failures == 0 else f"{failures} positions differ")
    return 0 if failures == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
