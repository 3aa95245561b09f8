"""The position index read without chessbits: DuckDB must get from the Parquet files the counts
that `chessbits explore` and `chessbits search` print.

    python scripts/index_duckdb_check.py CHESSBITS INDEX [--depth N]

Walks the explorer tree from the start position (every move, `--depth` plies deep, default 3),
and for each position compares:
  - explore --json's totals and move table with the documented query (crate chessbits-index,
    lib.rs) where the key has explorer rows (positions of two or more decided games);
  - a key without explorer rows (one decided game: its `solo` positions row stands for it):
    format 3 stores a key prefix per positions row (`key_prefix` = the key's first K bits, K in
    each positions file's footer `chessbits.positions.key_bits`; `key_rank` tells apart the keys
    of one prefix), and which rank is the key takes a replay of the games' moves, which SQL
    cannot do. Where the prefix has one key in a file (every row `key_rank` 0), its rows are the
    key's (the walk only visits positions that games reach): the totals of its `solo` rows'
    games are compared; elsewhere the position is counted as "needs replay";
  - search --json's total with the distinct games of the key's prefix in the positions files,
    under the same condition.
Prints one summary line; exits 1 on the first difference.
"""

import glob
import json
import subprocess
import sys

import duckdb


# The move table of a key reached by two or more decided games (crates/chessbits-index/src/lib.rs).
MOVE_TABLE = """
SELECT uci, sum(white), sum(draws), sum(black) FROM read_parquet('{index}/explorer/*.parquet')
WHERE key = from_hex(?) GROUP BY uci
"""

# Per positions file and key prefix: the rows' games, whether the prefix holds one key there, and
# the results of its `solo` rows' games.
PREFIX_ROWS = """
SELECT count(DISTINCT p.game), max(p.key_rank) = 0,
       coalesce(sum((p.solo AND g.result = '1-0')::BIGINT), 0),
       coalesce(sum((p.solo AND g.result = '1/2-1/2')::BIGINT), 0),
       coalesce(sum((p.solo AND g.result = '0-1')::BIGINT), 0)
FROM read_parquet(?) p JOIN read_parquet('{index}/games/*.parquet') g USING (game)
WHERE p.key_prefix = ?
"""


def key_bits(con, path):
    """A positions file's K (its footer's chessbits.positions.key_bits)."""
    row = con.execute(
        "SELECT value FROM parquet_kv_metadata(?) WHERE key = 'chessbits.positions.key_bits'", [path]
    ).fetchone()
    value = row[0]
    return int(value.decode() if isinstance(value, (bytes, bytearray)) else value)


def prefix_rows(con, index, files, key):
    """Summed over the positions files: games of the key's prefix, whether every file holds one
    key there, and the solo rows' results."""
    games, single, results = 0, True, [0, 0, 0]
    for path, bits in files:
        prefix = int(key, 16) >> (128 - bits)
        n, one, w, d, b = con.execute(PREFIX_ROWS.format(index=index), [path, prefix]).fetchone()
        games += n
        single = single and (n == 0 or bool(one))
        results = [results[0] + w, results[1] + d, results[2] + b]
    return games, single, results


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
    checked = replay = 0
    files = [(path, key_bits(con, path)) for path in sorted(glob.glob(f"{index}/positions/*.parquet"))]
    frontier = [""]
    for level in range(depth + 1):
        following = []
        for moves in frontier:
            explorer = run_json(binary, ["explore", index, "--moves", moves, "--json", "--top-games", "0", "--recent-games", "0"])
            key = explorer["key"]
            rows = con.execute(MOVE_TABLE.format(index=index), [key]).fetchall()
            want_totals = [explorer["white"], explorer["draws"], explorer["black"]]
            games, single, solo_totals = prefix_rows(con, index, files, key)
            search = run_json(binary, ["search", index, "--moves", moves, "--json", "--limit", "0"])
            if rows:
                totals = [sum(int(r[i]) for r in rows) for i in (1, 2, 3)]
                if totals != want_totals:
                    print(f"after '{moves}': DuckDB totals {totals}, chessbits {want_totals}")
                    return 1
                duck_moves = {r[0]: [int(r[1]), int(r[2]), int(r[3])] for r in rows if r[0] is not None}
                cli_moves = {m["uci"]: [m["white"], m["draws"], m["black"]] for m in explorer["moves"]}
                if duck_moves != cli_moves:
                    print(f"after '{moves}': DuckDB moves {duck_moves}, chessbits {cli_moves}")
                    return 1
            elif single and solo_totals != want_totals:
                print(f"after '{moves}': DuckDB solo totals {solo_totals}, chessbits {want_totals}")
                return 1
            if single and games != search["total"]:
                print(f"after '{moves}': DuckDB finds {games} games, chessbits search {search['total']}")
                return 1
            replay += not single
            checked += 1
            if level < depth:
                following.extend(f"{moves} {m['uci']}".strip() for m in explorer["moves"])
        frontier = following
    print(
        f"DuckDB {duckdb.__version__} agrees with chessbits on {checked} positions of {index}"
        f" ({replay} of them need a replay for the one-game rows and the search count)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
