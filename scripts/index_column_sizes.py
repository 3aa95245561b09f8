"""Bytes per game of each column of each table of a position index (Parquet footers).

    python scripts/index_column_sizes.py INDEX
"""
import sys, glob, pyarrow.parquet as pq
ix = sys.argv[1]; games = None
for t in ["games", "positions", "explorer", "top_games", "explorer_summary", "sources"]:
    tot = {}; rows = 0
    for f in sorted(glob.glob(f"{ix}/{t}/*.parquet")):
        md = pq.read_metadata(f); rows += md.num_rows
        for g in range(md.num_row_groups):
            rg = md.row_group(g)
            for c in range(rg.num_columns):
                col = rg.column(c); tot[col.path_in_schema] = tot.get(col.path_in_schema, 0) + col.total_compressed_size
    if t == "games": games = rows
    print(f"{t}: {rows} rows; " + ", ".join(f"{k} {v/games:.1f}" for k, v in sorted(tot.items(), key=lambda kv: -kv[1])) + f" | B/row: " + ", ".join(f"{k} {v/max(rows,1):.2f}" for k, v in sorted(tot.items(), key=lambda kv: -kv[1])[:5]))
