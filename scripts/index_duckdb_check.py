"""The position index read without chessbits: DuckDB must get from the Parquet files the counts
that `chessbits explore` and `chessbits search` print.

    python scripts/index_duckdb_check.py CHESSBITS INDEX [--depth N]

Walks the explorer tree from the start position (every move, `--depth` plies deep, default 3),
and for each position compares:
  - explore --json's totals and move table with the documented query (crate chessbits-index,
    lib.rs): the key's explorer rows plus, per `solo` positions row of the key (a position of one
    game, which the explorer table leaves out), that game's result under the row's move,
    summed per uci (the row with a null uci counts the games that ended in the position);
  - search --json's total with the distinct games of the key in INDEX/positions/*.parquet.
Prints one summary line; exits 1 on the first difference.
"""

import json
import subprocess
import sys

import duckdb


# The move table of a key (the query of crates/chessbits-index/src/lib.rs).
MOVE_TABLE = """
SELECT uci, sum(white), sum(draws), sum(black) FROM (
  SELECT uci, white, draws, black FROM read_parquet('{index}/explorer/*.parquet') WHERE key = from_hex(?)
  UNION ALL
  SELECT p.uci, (g.result = '1-0')::BIGINT, (g.result = '1/2-1/2')::BIGINT, (g.result = '0-1')::BIGINT
  FROM read_parquet('{index}/positions/*.parquet') p JOIN read_parquet('{index}/games/*.parquet') g USING (game)
  WHERE p.key = from_hex(?) AND p.solo)
GROUP BY uci
"""


def run_json(binary, args):
    out = subprocess.run([binary, *args], check=True, capture_output=True, text=True)
    return json.loads(out.stdout)


def main():
    args = sys.argv[1:]
    depth = 3
    if "--depth" in args:
        i = args.index("--depth")
        depth = int(args[i + 1])
        del args[i : i + 2]
    binary, index = args
    con = duckdb.connect()
    columns = {row[0] for row in con.execute(f"DESCRIBE SELECT * FROM read_parquet('{index}/explorer/*.parquet')").fetchall()}
    missing = {"key", "uci", "white", "draws", "black"} - columns
    if missing:
        print(f"explorer table lacks columns {sorted(missing)}")
        return 1
    checked = 0
    frontier = [""]
    for level in range(depth + 1):
        following = []
        for moves in frontier:
            explorer = run_json(binary, ["explore", index, "--moves", moves, "--json", "--top-games", "0", "--recent-games", "0"])
            key = explorer["key"]
            rows = con.execute(MOVE_TABLE.format(index=index), [key, key]).fetchall()
            totals = [sum(int(r[i]) for r in rows) for i in (1, 2, 3)]
            want_totals = [explorer["white"], explorer["draws"], explorer["black"]]
            if totals != want_totals:
                print(f"after '{moves}': DuckDB totals {totals}, chessbits {want_totals}")
                return 1
            duck_moves = {r[0]: [int(r[1]), int(r[2]), int(r[3])] for r in rows if r[0] is not None}
            cli_moves = {m["uci"]: [m["white"], m["draws"], m["black"]] for m in explorer["moves"]}
            if duck_moves != cli_moves:
                print(f"after '{moves}': DuckDB moves {duck_moves}, chessbits {cli_moves}")
                return 1
            games = con.execute(
                f"SELECT count(DISTINCT game) FROM read_parquet('{index}/positions/*.parquet') WHERE key = from_hex(?)",
                [key],
            ).fetchone()[0]
            search = run_json(binary, ["search", index, "--moves", moves, "--json", "--limit", "0"])
            if games != search["total"]:
                print(f"after '{moves}': DuckDB finds {games} games, chessbits search {search['total']}")
                return 1
            checked += 1
            if level < depth:
                following.extend(f"{moves} {m['uci']}".strip() for m in explorer["moves"])
        frontier = following
    print(f"DuckDB {duckdb.__version__} agrees with chessbits on {checked} positions of {index}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
