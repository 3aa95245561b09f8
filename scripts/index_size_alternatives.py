"""The `positions` table of a format-2 index rewritten in candidate format-3 layouts (key prefixes of
K bits, a rank, the game, solo), with the bytes per row of each column (docs/index-format-3.md).

    python scripts/index_size_alternatives.py FORMAT2_INDEX   (pyarrow, numpy)
"""
import sys, math, glob
import pyarrow as pa, pyarrow.parquet as pq, pyarrow.compute as pc
import numpy as np
ix = sys.argv[1]
t = pq.read_table(glob.glob(ix + "/positions/*.parquet"))
games = pq.read_metadata(glob.glob(ix + "/games/*.parquet")[0]).num_rows
n = t.num_rows
keys = t.column("key").to_pylist()
hi = np.array([int.from_bytes(k[:8], "big") for k in keys], dtype=np.uint64)
full = keys
game = np.array(t.column("game").to_numpy(), dtype=np.int64)
solo = t.column("solo").to_numpy(zero_copy_only=False)
print(f"rows {n} games {games} rows/game {n/games:.1f}")
def size(tab, **kw):
    pq.write_table(tab, "/tmp/idx3m/x.parquet", compression="zstd", compression_level=3,
                   data_page_size=1<<20, write_statistics=True, **kw)
    md = pq.read_metadata("/tmp/idx3m/x.parquet")
    out = {}
    for g in range(md.num_row_groups):
        rg = md.row_group(g)
        for c in range(rg.num_columns):
            col = rg.column(c)
            out[col.path_in_schema] = out.get(col.path_in_schema, 0) + col.total_compressed_size
    return out
lg = math.ceil(math.log2(n))
for label, K in [("32", 32), ("lg+12", lg+12), ("lg+8", lg+8), ("lg+4", lg+4), ("lg+2", lg+2), ("lg", lg)]:
    pre = (hi >> np.uint64(64 - K)).astype(np.int64)
    # sub: index of the distinct full key within the prefix group
    
    # sort by (pre, fullkey, game): full keys sorted already in table order (key, game, ply)
    # table is sorted by full key; prefix is monotone in full key; so table order == (pre, full, game, ply)
    sub = np.zeros(n, dtype=np.int32)
    newpre = np.r_[True, pre[1:] != pre[:-1]]
    newkey = np.r_[True, [full[i] != full[i-1] for i in range(1, n)]]
    cnt = 0
    for i in range(n):
        if newpre[i]: cnt = 0
        elif newkey[i]: cnt += 1
        sub[i] = cnt
    # drop repeated (same key, same game) rows? keep: one row per ply as now
    tab = pa.table({"key": pa.array(pre, pa.int64()), "sub": pa.array(sub, pa.int32()),
                    "game": pa.array(game, pa.int64()), "solo": pa.array(solo)})
    s = size(tab, use_dictionary=False, column_encoding={"key": "DELTA_BINARY_PACKED", "game": "DELTA_BINARY_PACKED", "sub": "DELTA_BINARY_PACKED"})
    s2 = size(tab.drop(["sub"]), use_dictionary=["solo"], column_encoding={"key": "DELTA_BINARY_PACKED", "game": "DELTA_BINARY_PACKED"})
    ambiguous = int((sub > 0).sum())
    groups_multi = int(((sub > 0) & (newkey)).sum())
    tot = sum(s.values())
    print(f"K={label}({K}): " + ", ".join(f"{c} {v/n:.3f} B/row" for c, v in s.items()) +
          f" | total {tot/n:.2f} B/row {tot/games:.0f} B/game | rows with sub>0 {ambiguous} extra keys {groups_multi}"
          f" | expected false prefix hits per query {n/2**K:.4f}")
