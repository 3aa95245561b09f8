#!/usr/bin/env python3
"""PGN to Parquet with python-chess and pyarrow, written the way users of the lichess Parquet
dataset write it: `chess.pgn.read_game` per game, the tags of the dataset's columns, the movetext
as python-chess exports it, batches of rows to `pyarrow`, zstd-compressed Parquet.

The peer of `chessbits export` in scripts/export_bench.py (one process: the per-core figure).

    python_chess_to_parquet.py IN.pgn OUT.parquet
"""
import sys

import chess.pgn
import pyarrow as pa
import pyarrow.parquet as pq

TEXT = ["Event", "Site", "White", "Black", "Result", "WhiteTitle", "BlackTitle", "ECO", "Opening",
        "Termination", "TimeControl", "UTCDate", "UTCTime"]
INT = ["WhiteElo", "BlackElo", "WhiteRatingDiff", "BlackRatingDiff"]
SCHEMA = pa.schema([(name, pa.string()) for name in TEXT] + [(name, pa.int16()) for name in INT]
                   + [("movetext", pa.string()), ("moves", pa.list_(pa.string())), ("plies", pa.int32())])


def to_int(value):
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


def main():
    src, dst = sys.argv[1], sys.argv[2]
    writer = pq.ParquetWriter(dst, SCHEMA, compression="zstd")
    rows, games = [], 0
    with open(src, encoding="utf-8", errors="replace") as f:
        while True:
            game = chess.pgn.read_game(f)
            if game is None:
                break
            headers = game.headers
            row = {name: headers.get(name) for name in TEXT}
            row.update({name: to_int(headers.get(name)) for name in INT})
            exporter = chess.pgn.StringExporter(headers=False, variations=True, comments=True)
            row["movetext"] = game.accept(exporter)
            moves = [m.uci() for m in game.mainline_moves()]
            row["moves"] = moves
            row["plies"] = len(moves)
            rows.append(row)
            games += 1
            if len(rows) == 10000:
                writer.write_table(pa.Table.from_pylist(rows, schema=SCHEMA))
                rows = []
    if rows:
        writer.write_table(pa.Table.from_pylist(rows, schema=SCHEMA))
    writer.close()
    print(games)


if __name__ == "__main__":
    main()
