#!/usr/bin/env python3
"""Bytes per game by column of a `chessbits export` directory, from the Parquet footers.

    python3 scripts/export_columns.py OUT_DIR [OUT_DIR ...]

Each column's size is the sum of its chunks' `total_compressed_size` over every part file and row
group (a list or map column is the sum of its leaf columns); `file` is the part files' total size
(the footers included). One table column per export directory, so exports of the same input at
different settings read side by side. Needs pyarrow.
"""
import os
import sys
from collections import OrderedDict

import pyarrow.parquet as pq


def measure(directory):
    """(games, {column: bytes}, file bytes) of the export in `directory`."""
    sizes, games, total = OrderedDict(), 0, 0
    for root, _dirs, files in sorted(os.walk(directory)):
        for name in sorted(files):
            if not name.endswith(".parquet"):
                continue
            path = os.path.join(root, name)
            total += os.path.getsize(path)
            meta = pq.ParquetFile(path).metadata
            games += meta.num_rows
            for g in range(meta.num_row_groups):
                group = meta.row_group(g)
                for c in range(group.num_columns):
                    chunk = group.column(c)
                    top = chunk.path_in_schema.split(".")[0]
                    sizes[top] = sizes.get(top, 0) + chunk.total_compressed_size
    return games, sizes, total


def main():
    dirs = sys.argv[1:]
    if not dirs:
        sys.exit(__doc__)
    results = [measure(d) for d in dirs]
    names = []
    for _games, sizes, _total in results:
        names += [n for n in sizes if n not in names]
    names.sort(key=lambda n: -max(r[1].get(n, 0) / max(r[0], 1) for r in results))
    print("| column | " + " | ".join(dirs) + " |")
    print("|---|" + "---|" * len(dirs))
    for n in names:
        cells = [f"{r[1][n] / r[0]:.1f}" if n in r[1] and r[0] else "" for r in results]
        print(f"| `{n}` | " + " | ".join(cells) + " |")
    cells = [f"{sum(r[1].values()) / r[0]:.1f}" if r[0] else "" for r in results]
    print("| all columns | " + " | ".join(cells) + " |")
    cells = [f"**{r[2] / r[0]:.1f}**" if r[0] else "" for r in results]
    print("| **file** | " + " | ".join(cells) + " |")
    print("| games | " + " | ".join(str(r[0]) for r in results) + " |")


if __name__ == "__main__":
    main()
