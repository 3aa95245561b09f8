#!/usr/bin/env python3
"""Checks the output of opening_stats.py without Spark: exact equality, row set against row set.

    python check_opening_stats.py OUT_DIR PGN_PATH... [--plies 4] [--fen-ply 20]

PGN_PATH are the files or directories that were exported (`chessbits export`) for the job. They
are read again here with `chessbits.read_pgn`, so the export and the Spark job are both checked:

- `opening_stats`: recomputed row by row in plain Python from the SAN main line
  (`chessbits.decode_moves`, one game at a time as Python lists), with the same
  rules (standard start only, no null-move games, band floor(mean / 200) * 200), and compared
  as a set of rows (elo_band, opening, games, white_wins, draws, black_wins).
- `fen_after_ply_K`: for every game with at least K plies (and no null move), python-chess reads
  the game's PGN rebuilt from its row (`chessbits.to_pgn`: tags, FEN / Variant, moves,
  annotations; equal to the input game), plays K moves and writes
  `board.fen()`; the multiset of (Site, White, Black, Round, fen) must equal the job's. The
  whole FEN is compared: chessbits writes the en passant square as python-chess does by default
  (only when an en passant capture is legal), so the field is comparable as it is; were
  it written after every double step (the FEN standard), that field alone would have to be
  compared with `board.fen(en_passant="fen")`. Games python-chess cannot read cleanly are
  replayed in python-chess from chessbits' UCI moves instead (counted in the report).

Exits non-zero with the first differences on any mismatch.
"""

import argparse
import collections
import io
import sys
from pathlib import Path

import chess
import chess.pgn
import chessbits
import pyarrow as pa
import pyarrow.parquet as pq

SUFFIXES = (".pgn", ".pgn.gz", ".pgn.zst")


def pgn_files(paths):
    for path in map(Path, paths):
        if path.is_dir():
            yield from sorted(p for p in path.rglob("*") if p.name.lower().endswith(SUFFIXES))
        else:
            yield path


def read_games(paths):
    """All games of the PGN files, as one pyarrow table of the export's schema."""
    tables = []
    for path in pgn_files(paths):
        rejected = []  # variant games: the export rejects them too
        tables.append(chessbits.read_pgn(str(path), errors=rejected).read_all())
    return pa.concat_tables(tables)


def tag(pairs, name):
    """The first value of `name` in an `other_tags` row (a list of pairs), as Spark's map lookup."""
    return next((v for k, v in pairs or [] if k == name), None)


def python_chess_fen(pgn, fen_ply):
    """The FEN after `fen_ply` moves by python-chess from a game's PGN; None if it cannot tell."""
    game = chess.pgn.read_game(io.StringIO(pgn))
    if game is None or game.errors:
        return None
    board = game.board()
    for i, move in enumerate(game.mainline_moves()):
        if i == fen_ply:
            break
        board.push(move)
    return board.fen() if board.ply() - game.board().ply() == fen_ply else None


def compare(name, expected, actual):
    if expected == actual:
        print(f"{name}: {sum(expected.values())} rows equal")
        return True
    missing = expected - actual
    extra = actual - expected
    print(f"{name}: MISMATCH, {sum(missing.values())} rows missing from the job's output, "
          f"{sum(extra.values())} unexpected", file=sys.stderr)
    for row in list(missing)[:5]:
        print(f"  missing {row}", file=sys.stderr)
    for row in list(extra)[:5]:
        print(f"  extra   {row}", file=sys.stderr)
    return False


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("out_dir")
    parser.add_argument("pgn", nargs="+")
    parser.add_argument("--plies", type=int, default=4)
    parser.add_argument("--fen-ply", type=int, default=20)
    args = parser.parse_args()

    table = read_games(args.pgn)
    rows = table.select(["Site", "White", "Black", "Result", "WhiteElo", "BlackElo", "moves",
                         "plies", "start_fen", "other_tags"]).to_pylist()
    pgns = chessbits.to_pgn(table)
    chess960 = [("960" in (tag(r["other_tags"], "Variant") or "")) for r in rows]
    sans = chessbits.decode_moves(table["moves"], table["plies"], notation="san",
                                  start_fens=table["start_fen"], chess960=chess960).to_pylist()
    ucis = chessbits.decode_moves(table["moves"], table["plies"], start_fens=table["start_fen"],
                                  chess960=chess960).to_pylist()

    stats = collections.defaultdict(lambda: [0, 0, 0, 0])
    fens = collections.Counter()
    fallbacks = 0
    for row, san, uci, c960, pgn in zip(rows, sans, ucis, chess960, pgns):
        if san is None:  # a null move: no `moves`, left out of both outputs
            continue
        if row["start_fen"] is None:
            w, b = row["WhiteElo"], row["BlackElo"]
            band = None if w is None or b is None else (w + b) // 400 * 200
            counts = stats[(band, " ".join(san[:args.plies]))]
            result = row["Result"]
            counts[0] += 1
            counts[1] += result == "1-0"
            counts[2] += result == "1/2-1/2"
            counts[3] += result == "0-1"
        if row["plies"] >= args.fen_ply:
            fen = python_chess_fen(pgn, args.fen_ply)
            if fen is None:
                fallbacks += 1
                board = chess.Board(row["start_fen"] or chess.STARTING_FEN, chess960=c960)
                for move in uci[:args.fen_ply]:
                    board.push_uci(move)
                fen = board.fen()
            fens[(row["Site"], row["White"], row["Black"], tag(row["other_tags"], "Round"), fen)] += 1

    expected_stats = collections.Counter(
        (band, opening, *counts) for (band, opening), counts in stats.items())
    job_stats = pq.read_table(f"{args.out_dir}/opening_stats").select(
        ["elo_band", "opening", "games", "white_wins", "draws", "black_wins"])
    actual_stats = collections.Counter(tuple(r.values()) for r in job_stats.to_pylist())
    job_fens = pq.read_table(f"{args.out_dir}/fen_after_ply_{args.fen_ply}").select(
        ["Site", "White", "Black", "Round", "fen"])
    actual_fens = collections.Counter(tuple(r.values()) for r in job_fens.to_pylist())

    from_movetext = sum(fens.values()) - fallbacks
    print(f"{len(rows)} games read with chessbits.read_pgn; python-chess read {from_movetext} of "
          f"the FEN games from their rebuilt PGN, {fallbacks} from chessbits' UCI moves")
    ok = compare("opening_stats", expected_stats, actual_stats)
    ok = compare(f"fen_after_ply_{args.fen_ply}", fens, actual_fens) and ok
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
