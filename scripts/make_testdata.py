#!/usr/bin/env python3
"""Cuts the bundled test data (testdata/) from the full corpora (../shared/data, see
testdata/README.md): byte-identical prefixes cut at game or position boundaries, whole small
files, and the entries of one Polyglot book that the key test walks through.

    target/td-venv/bin/python scripts/make_testdata.py [SHARED_DATA] [TESTDATA]

The book extract needs python-chess (pip install chess==1.11.2); everything else is plain bytes.
"""

import os
import re
import shutil
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHARED = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "..", "shared", "data")
OUT = sys.argv[2] if len(sys.argv) > 2 else os.path.join(ROOT, "testdata")

# (relative path, line prefix that starts a record, records kept)
PREFIXES = [
    ("pgn/shakmaty_lichess_db_1000k.pgn", b"[Event ", 120),
    ("pgn/shakmaty_twic1599_1000k.pgn", b"[Event ", 100),
    ("pgn/notnil_twic0920.pgn", b"[Event ", 100),
    ("pgn/notnil_Carlsen.pgn", b"[Event ", 100),
    ("pgn-edgecases/pychess-puzzles/mate_in_2.pgn", b"[Event ", 20),
    ("pgn-edgecases/pychess-puzzles/mate_in_3.pgn", b"[Event ", 20),
    ("pgn-edgecases/pychess-puzzles/mate_in_4.pgn", b"[Event ", 20),
    ("perft/shakmaty_random.perft", b"id ", 300),
    ("perft/shakmaty_chess960.perft", b"id ", 100),
    ("perft/python-chess_chess960.perft", b"id ", 100),
    # One position a line.
    ("perft/ethereal_fischer.epd", b"", 100),
]

WHOLE = [
    "perft/ethereal_standard.epd",
    "perft/shakmaty_tricky.perft",
    "pgn/python-chess-tests",
    "pgn-edgecases/pgn-extract-test-infield",
    "pgn-edgecases/shakmaty-fuzz",
]

BOOK = "books/python-chess_performance.bin"


def prefix(data, start, keep):
    """The bytes before the record number keep + 1 (records start at line starts)."""
    if not start:
        lines = data.splitlines(keepends=True)
        return b"".join(lines[:keep])
    seen = 0
    for m in re.finditer(rb"(?:^|(?<=\n)|(?<=\r))" + re.escape(start), data):
        seen += 1
        if seen == keep + 1:
            return data[: m.start()]
    raise SystemExit(f"fewer than {keep + 1} records")


def book_extract(path):
    """The entries (16 bytes each, file order) of every position that tests/position_keys.rs
    visits: from the start, the first three book moves of each position, ten plies deep."""
    import chess
    import chess.polyglot

    data = open(path, "rb").read()
    keys = set()
    with chess.polyglot.open_reader(path) as reader:
        stack = [(chess.Board(), 0)]
        while stack:
            board, depth = stack.pop()
            entries = list(reader.find_all(board, minimum_weight=0))
            if not entries:
                continue
            keys.add(chess.polyglot.zobrist_hash(board))
            for entry in entries[:3]:
                if depth < 10:
                    child = board.copy()
                    child.push(entry.move)
                    stack.append((child, depth + 1))
    out = bytearray()
    for i in range(0, len(data), 16):
        if int.from_bytes(data[i : i + 8], "big") in keys:
            out += data[i : i + 16]
    return bytes(out)


def main():
    for rel, start, keep in PREFIXES:
        data = open(os.path.join(SHARED, rel), "rb").read()
        os.makedirs(os.path.dirname(os.path.join(OUT, rel)), exist_ok=True)
        open(os.path.join(OUT, rel), "wb").write(prefix(data, start, keep))
    for rel in WHOLE:
        src, dst = os.path.join(SHARED, rel), os.path.join(OUT, rel)
        if os.path.isdir(src):
            shutil.rmtree(dst, ignore_errors=True)
            shutil.copytree(src, dst)
            for dirpath, _, files in os.walk(dst):
                for name in files:
                    os.chmod(os.path.join(dirpath, name), 0o644)
        else:
            os.makedirs(os.path.dirname(dst), exist_ok=True)
            shutil.copyfile(src, dst)
            os.chmod(dst, 0o644)
    book = os.path.join(OUT, BOOK)
    os.makedirs(os.path.dirname(book), exist_ok=True)
    open(book, "wb").write(book_extract(os.path.join(SHARED, BOOK)))


if __name__ == "__main__":
    main()
