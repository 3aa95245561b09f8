#!/usr/bin/env python3
"""Checks a `chessbits export` directory against python-chess, with pyarrow and DuckDB.

    python3 -m venv /tmp/venv && /tmp/venv/bin/pip install pyarrow duckdb chess
    chessbits export testdata/pgn -o /tmp/export --format parquet --partition year,month
    /tmp/venv/bin/python scripts/parquet_check.py /tmp/export testdata/pgn

Reads every PGN file below the input paths with python-chess, in the order `chessbits` reads
them (sorted, per directory), and compares, game by game, with the rows of the export (read
with pyarrow, the partition columns dropped, each game's row found by `Site`, `White`, `Black`,
`plies` and its main line): tags, `latin1_fields` against `non_utf8`, plies, `%clk` clocks and
`%eval` evals, and the game's PGN rebuilt from its row (`chessbits.to_pgn`: the export keeps no
`movetext` by default) read by python-chess: equal to python-chess's reading of the input game
(tags in order, main line, comments with their clocks and evals, NAGs, variations, result;
for a row with Latin-1 text, whose input python-chess reads with replacement characters, the
main line only). The chessbits Python package must be installed (scripts/python_package.sh).
Then counts rows by year and month with DuckDB over the Hive-partitioned files. Games
python-chess reads with errors, and variant games, are skipped (`chessbits` rejects them); every
other game must have its row. The number compared is printed; any difference stops the check
with a non-zero status.
Run by `.ci/run` on testdata/pgn and ../shared/data/pgn (about 15 s there; python-chess is the slow part).
"""

import io
import os
import sys
from pathlib import Path

import chess
import chess.pgn
import duckdb
import pyarrow.dataset as ds

COLUMNS = ["Event", "Site", "White", "Black", "Result", "WhiteTitle", "BlackTitle", "ECO",
           "Opening", "Termination", "TimeControl"]
TYPED = ["WhiteElo", "BlackElo", "WhiteRatingDiff", "BlackRatingDiff", "UTCDate", "UTCTime"]
MATE_BASE = 100_000


def pgn_files(paths):
    for path in map(Path, paths):
        if path.is_dir():
            yield from sorted(p for p in path.rglob("*") if p.name.lower().endswith(".pgn"))
        else:
            yield path


def row_clocks(row):
    """A row's clocks: `clocks` (version 1), or undone from `clock_deltas` (each side's first
    clock as is, each later one its previous clock minus the delta)."""
    if "clock_deltas" not in row:
        return row["clocks"]
    deltas = row["clock_deltas"]
    if deltas is None:
        return None
    last, out = [None, None], []
    for ply, delta in enumerate(deltas):
        clock = None if delta is None else (delta if last[ply % 2] is None else last[ply % 2] - delta)
        if clock is not None:
            last[ply % 2] = clock
        out.append(clock)
    return out


def clock_eval(node):
    clock = node.clock()
    ev = node.eval()
    clk = None if clock is None else int(clock)
    if ev is None:
        val = None
    else:
        white = ev.white()
        if white.is_mate():
            n = white.mate()
            val = (MATE_BASE - abs(n)) * (1 if n > 0 else -1) if n != 0 else None
        else:
            val = white.score()
    return clk, val


ROSTER = ("Event", "Site", "White", "Black")


def tag(headers, name):
    """A tag as python-chess reads it, but None where python-chess fills in its default "?" for
    a Seven Tag Roster tag the game does not have (chessbits stores no value then)."""
    value = headers.get(name)
    return None if name in ROSTER and value == "?" else value


def row_tag(row, name):
    """A row's tag, with "?" read as absent, as `tag` does."""
    value = row[name]
    return None if name in ROSTER and value == "?" else value


def main():
    out, inputs = sys.argv[1], sys.argv[2:]
    # _rejected.pgn and _rejected.tsv sit beside the Parquet files: names starting with "_" are
    # skipped by the dataset reader itself.
    table = ds.dataset(out, format="parquet", partitioning="hive").to_table()
    table = table.drop_columns([c for c in ("year", "month") if c in table.column_names])
    rows = table.to_pylist()
    print(f"{len(rows)} rows in {out}")
    # The `moves` column decoded by the chessbits Python package: each game's row must hold
    # python-chess's main line; and every row's PGN rebuilt from its columns.
    try:
        import chessbits
    except ImportError:
        sys.exit("the chessbits Python package is not installed (scripts/python_package.sh): "
                 "the games are rebuilt from their rows with chessbits.to_pgn")
    # The code the file names (export version 4: the schema's metadata, from the file's
    # key-value entry; versions 1 to 3 the `moves` field's too), else entropy, the default.
    named = {**(table.schema.metadata or {}), **(table.schema.field("moves").metadata or {})}
    code = named.get(b"chessbits.moves_code", b"entropy").decode()
    for row, text in zip(rows, chessbits.to_pgn(table, moves_code=code)):
        row["_game"] = chess.pgn.read_game(io.StringIO(text))
    chess960 = [any(k == "Variant" and "960" in v for k, v in r["other_tags"]) for r in rows]
    decoded = chessbits.decode_moves(table["moves"], table["plies"], start_fens=table["start_fen"],
                                     chess960=chess960).to_pylist()
    for row, moves in zip(rows, decoded):
        row["_decoded"] = moves
    # Rows by a key of their tags and movetext: the order differs when partitioned.
    by_key = {}
    for row in rows:
        by_key.setdefault((row_tag(row, "Site"), row_tag(row, "White"), row_tag(row, "Black"), row["plies"]),
                          []).append(row)

    compared = skipped = tags_differ = decoded_games = rebuilt_equal = 0
    for path in pgn_files(inputs):
        with open(path, encoding="utf-8-sig", errors="replace") as f:
            while True:
                game = chess.pgn.read_game(f)
                if game is None:
                    break
                if game.errors or game.headers.get("Variant", "Standard").lower() not in ("standard", "chess"):
                    skipped += 1
                    continue
                mainline = [m.uci() for m in game.mainline_moves()]
                key = (tag(game.headers, "Site"), tag(game.headers, "White"), tag(game.headers, "Black"), len(mainline))
                candidates = by_key.get(key, [])
                matching = [r for r in candidates if replay(r) == mainline]
                # A game python-chess reads cleanly must be in the export.
                if not matching:
                    # No row with these tags: the main line must still be in the export (a game
                    # whose tag section python-chess reads differently, e.g. across a blank line).
                    same_moves = [r for r in rows if r["plies"] == len(mainline) and replay(r) == mainline]
                    assert same_moves, (path, "main line not exported", dict(game.headers), mainline[:10])
                    print(f"  tags differ ({path}: {game.headers.get('Event')}): python-chess "
                          f"{dict(game.headers)}, chessbits {[{n: r[n] for n in COLUMNS if r[n]} for r in same_moves]}")
                    tags_differ += 1
                    continue
                # Equal tags: the same game (several games may share players and moves).
                row = next((r for r in matching if all(row_tag(r, n) == tag(game.headers, n) for n in COLUMNS)), None)
                assert row is not None, (path, game.headers, [{n: r[n] for n in COLUMNS} for r in matching])
                candidates.remove(row)
                if row.get("_decoded") is None and "0000" in mainline:
                    pass  # a null move: the codes cannot hold it, `moves` is null
                elif "_decoded" in row:
                    assert row["_decoded"] == mainline, (path, "moves column", row["_decoded"][:10], mainline[:10])
                    decoded_games += 1
                # A typed column holds the tag only when its text is the one written back.
                for name in ("WhiteElo", "BlackElo"):
                    value = game.headers.get(name, "")
                    canonical = value.isdigit() and str(int(value)) == value
                    assert row[name] == (int(value) if canonical else None), (path, name)
                # UTCTime is the tag's text, hh:mm:ss (the bundled files write it so).
                assert row["UTCTime"] == game.headers.get("UTCTime"), (path, "UTCTime", row["UTCTime"])
                utc_date = row["UTCDate"].strftime("%Y.%m.%d") if row["UTCDate"] else None
                want_date = game.headers.get("UTCDate")
                assert utc_date == (want_date if want_date and "?" not in want_date else None), (path, "UTCDate")
                latin1_check(path, row)
                # Typed tags not in their column are in other_tags, as written.
                others = {k: v for k, v in game.headers.items()
                          if k not in COLUMNS and not (k in TYPED and row[k] is not None)}
                assert dict(row["other_tags"]) == others, (path, "other_tags", row["other_tags"], others)
                nodes = list(game.mainline())
                pairs = [clock_eval(n) for n in nodes]
                clocks = [c for c, _ in pairs]
                evals = [e for _, e in pairs]
                assert row_clocks(row) == (clocks if any(c is not None for c in clocks) else None), (path, "clocks")
                assert row["evals"] == (evals if any(e is not None for e in evals) else None), (path, "evals")
                # The PGN rebuilt from the row: the same game.
                if row["non_utf8"]:
                    assert replay(row) == mainline, (path, "rebuilt main line")
                else:
                    want, got = signature(game), signature(row["_game"])
                    assert got == want, (path, "rebuilt game", dict(game.headers),
                                         next((w, g) for w, g in zip(want, got) if w != g) if len(want) == len(got)
                                         else (len(want), len(got)))
                    rebuilt_equal += 1
                compared += 1
    print(f"{compared} games equal to python-chess's reading, {tags_differ} with other tags (listed), "
          f"{skipped} skipped (errors or variants); moves column decoded and equal for {decoded_games}; "
          f"PGN rebuilt from the row equal as a whole game for {rebuilt_equal}")

    con = duckdb.connect()
    glob = os.path.join(out, "**", "*.parquet")
    counts = con.execute(
        f"SELECT year, month, count(*) FROM read_parquet('{glob}', hive_partitioning = true) "
        "GROUP BY ALL ORDER BY ALL"
    ).fetchall() if any(Path(out).glob("year=*")) else con.execute(
        f"SELECT count(*) FROM read_parquet('{glob}')").fetchall()
    total = sum(c[-1] for c in counts)
    assert total == len(rows), (total, len(rows))
    print(f"DuckDB reads {total} rows in {len(counts)} partitions")


def latin1_check(path, row):
    """`latin1_fields` as the crate documents it: null exactly when `non_utf8` is false, and each
    field it names one of the row's strings, all of whose characters are bytes (U+0000 to U+00FF)."""
    fields = row["latin1_fields"]
    assert (fields is not None) == row["non_utf8"], (path, "latin1_fields", fields, row["non_utf8"])
    others = row["other_tags"]
    for field in fields or []:
        if field.startswith("other_tags["):
            index, part = field[len("other_tags["):].split("].")
            value = others[int(index)][0 if part == "key" else 1]
        else:
            value = row[field]
        assert value is not None, (path, "latin1_fields names a null", field)
        value.encode("latin-1")


def replay(row):
    """The UCI moves of a row's game rebuilt as PGN (chessbits.to_pgn), as python-chess reads it."""
    return [m.uci() for m in row["_game"].mainline_moves()]


def signature(game):
    """A game as python-chess reads it, as a list: its tags in order, then every node of the
    tree (depth first, variations in order) with its move, comments, NAGs and number of
    variations."""
    out = [list(game.headers.items()), game.comment]

    def walk(node):
        for child in node.variations:
            out.append((child.move.uci(), child.starting_comment, child.comment, sorted(child.nags),
                        len(child.variations)))
            walk(child)

    walk(game)
    return out


if __name__ == "__main__":
    main()
