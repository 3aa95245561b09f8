#!/usr/bin/env python3
"""Packs PGN files with `chessbits pack`, unpacks them, and checks with python-chess (an
independent reader) that every game reads back the same: tags (names, values, order), main line
and variations (moves, comments, NAGs), and the result.

Usage: fidelity_python_chess.py CHESSBITS_BINARY FILE_OR_DIR...

Tags and comments are compared as python-chess decodes them; the files are opened with
errors="surrogateescape" so bytes that are not UTF-8 take part in the comparison too.

python-chess ends a game at a blank line inside its movetext, where chessbits (and the PGN
standard) sees only white space; chessbits writes no blank lines inside movetext. Where that makes
python-chess cut a file into a different number of games before and after, the file is compared
game-independently: every move, comment and NAG in file order, and every tag python-chess did
not make up (the Seven Tag Roster's "?" defaults, and Result, which it takes from a movetext's
result token). Where python-chess reads the original otherwise still (it takes a line holding a
tag pair and moves for movetext, for one), the file is listed as not comparable.
Exit status 0 if every file reads back the same, 1 otherwise.
"""

import io
import os
import subprocess
import sys
import tempfile

import chess.pgn


def pgn_files(paths):
    for path in paths:
        if os.path.isdir(path):
            for root, _, names in sorted(os.walk(path)):
                for name in sorted(names):
                    if name.endswith((".pgn", ".txt")):
                        yield os.path.join(root, name)
        else:
            yield path


def node_summary(node):
    """A node's variations, recursively: (move, comment, NAGs, children) per child."""
    return [
        (child.move.uci() if child.move else None, child.comment, sorted(child.nags), node_summary(child))
        for child in node.variations
    ]


def games(text):
    """Every game python-chess reads from `text`, as comparable summaries."""
    out = []
    stream = io.StringIO(text)
    while True:
        game = chess.pgn.read_game(stream)
        if game is None:
            return out
        out.append((list(game.headers.items()), game.comment, node_summary(game), [str(e) for e in game.errors]))


ROSTER_DEFAULTS = {("Event", "?"), ("Site", "?"), ("Date", "????.??.??"), ("Round", "?"),
                   ("White", "?"), ("Black", "?"), ("Result", "*")}


def flattened(summaries):
    """The games' content in file order, whatever the cut into games."""
    # A game python-chess cuts off takes the result token of the movetext as its Result tag.
    tags = [t for headers, _, _, _ in summaries for t in headers if t not in ROSTER_DEFAULTS and t[0] != "Result"]
    content = []
    for _, comment, nodes, _ in summaries:
        if comment:
            content.append(comment)
        content.extend(nodes)
    return tags, content


def read(path):
    with open(path, encoding="utf-8", errors="surrogateescape", newline="") as f:
        return f.read()


def main():
    binary, inputs = sys.argv[1], sys.argv[2:]
    failures = 0
    total = 0
    cut_differently = 0
    not_comparable = 0
    with tempfile.TemporaryDirectory() as tmp:
        archive = os.path.join(tmp, "a.cbits")
        unpacked = os.path.join(tmp, "a.pgn")
        for path in pgn_files(inputs):
            subprocess.run([binary, "pack", path, "-o", archive], check=True, stderr=subprocess.DEVNULL)
            subprocess.run([binary, "unpack", archive, "-o", unpacked], check=True, stderr=subprocess.DEVNULL)
            before, after = games(read(path)), games(read(unpacked))
            total += len(before)
            if len(before) != len(after):
                if flattened(before) == flattened(after):
                    cut_differently += 1
                else:
                    # python-chess reads the original otherwise than chessbits does (a tag pair
                    # and moves on one line, say): nothing to compare game by game.
                    print(f"{path}: python-chess reads {len(before)} games, {len(after)} after: not comparable")
                    not_comparable += 1
                continue
            for n, (a, b) in enumerate(zip(before, after)):
                if a != b:
                    print(f"{path}: game {n} differs:\n  before {a!r:.600}\n  after  {b!r:.600}")
                    failures += 1
                    break
    print(
        f"{total} games compared with python-chess {chess.__version__}; {cut_differently} files cut into "
        f"games differently by python-chess (compared game-independently); {not_comparable} files "
        f"python-chess reads otherwise than chessbits; {failures} files differ"
    )
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
