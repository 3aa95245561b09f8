#!/usr/bin/env python3
"""Reads `chessbits export` directories with one reader and checks that readers agree.

    reader_matrix.py read READER OUT.json EXPORT_DIR...  # READER: pyarrow pandas polars duckdb spark
    reader_matrix.py compare OUT.json ...                 # the first file is the reference

`read` reads each whole directory (every column; a partitioned one with its Hive partitions
`year=`/`month=`) as the reader's users would, and writes, per directory and row, a few columns
in plain Python form: `Event`, `White`, `UTCDate` (ISO text), `UTCTime`, `WhiteElo`, `clock_deltas`,
`non_utf8`, `latin1_fields`, `Black`, `BlackElo`, `moves` (hex), `plies`, `annotations`. `compare`
checks that every file holds, per directory, the same number of rows and the same rows, value for
value (as a multiset: the readers order the partitions differently), and that the rows are not
vacuous (times, dates, Elos, clocks, names, moves present).

Counts alone miss a reader that decodes values wrongly: PySpark 3.5.3 reads a
`DELTA_LENGTH_BYTE_ARRAY` column (names, `moves`) shifted after a null and past the first 4,096
rows of a page (SPARK-52240, fixed in later 3.5 releases): a game's `moves` then went with
another's `plies`.
`scripts/reader_matrix.sh` runs it on the bundled games for pyarrow, pandas, polars, DuckDB,
PySpark 3.5 and PySpark 4 (each PySpark in its own venv).

One reader needs help, with partitions only: pandas (3.1) fails on a Hive directory with a null
partition (`month=__HIVE_DEFAULT_PARTITION__`, a game without a known month) with "Cannot yet
unify dictionaries with nulls" (pyarrow infers dictionary partition columns; pandas issue
#55400), so it is given the partitions' schema, as its users must.
"""

import json
import math
from collections import Counter
import sys
from pathlib import Path

COLUMNS = ["Event", "White", "UTCDate", "UTCTime", "WhiteElo", "clock_deltas", "non_utf8", "latin1_fields",
           "Black", "BlackElo", "moves", "plies", "annotations"]


def is_null(value):
    """None, or a missing value as pandas and numpy spell it (NaN, NaT, NA)."""
    if value is None:
        return True
    if isinstance(value, float) and math.isnan(value):
        return True
    return type(value).__name__ in ("NaTType", "NAType")


def text(value):
    if is_null(value):
        return None
    assert isinstance(value, str), (type(value), value)
    return value


def integer(value):
    if is_null(value):
        return None
    assert float(value) == int(value), value
    return int(value)


def binary(value):
    """Bytes (bytes, bytearray, memoryview: the readers differ) as hex text."""
    if is_null(value):
        return None
    return bytes(value).hex()


def date(value):
    """A date as ISO text (`datetime.date`, or pandas' Timestamp)."""
    if is_null(value):
        return None
    if hasattr(value, "date") and callable(value.date):
        value = value.date()
    return value.isoformat()


def items(value, item):
    """A list column (a list, a numpy array, a tuple) as a list of `item(x)`."""
    if is_null(value):
        return None
    return [item(x) for x in list(value)]


def normalise(row):
    """One row (a dict of the reader's values) in plain, comparable form."""
    return [
        text(row["Event"]),
        text(row["White"]),
        date(row["UTCDate"]),
        text(row["UTCTime"]),
        integer(row["WhiteElo"]),
        items(row["clock_deltas"], integer),
        bool(row["non_utf8"]),
        items(row["latin1_fields"], text),
        text(row["Black"]),
        integer(row["BlackElo"]),
        binary(row["moves"]),
        integer(row["plies"]),
        text(row["annotations"]),
    ]


def is_partitioned(path):
    return any(Path(path).glob("year=*"))


def read_pyarrow(path):
    import pyarrow.dataset as ds

    table = ds.dataset(path, format="parquet", partitioning="hive").to_table()
    return table.to_pylist()


def read_pandas(path):
    import pandas
    import pyarrow as pa
    import pyarrow.dataset as ds

    if is_partitioned(path):
        # pandas issue #55400: null Hive partitions need the partitions' schema.
        schema = pa.schema([("year", pa.int32()), ("month", pa.int32())])
        frame = pandas.read_parquet(path, partitioning=ds.partitioning(schema, flavor="hive"))
    else:
        frame = pandas.read_parquet(path)
    return frame.to_dict("records")


def read_polars(path):
    import polars

    frame = polars.read_parquet(f"{path}/**/*.parquet", hive_partitioning=is_partitioned(path))
    return frame.to_dicts()


def read_duckdb(path):
    import duckdb

    con = duckdb.connect()
    hive = "true" if is_partitioned(path) else "false"
    result = con.execute(f"SELECT * FROM read_parquet('{path}/**/*.parquet', hive_partitioning = {hive})")
    names = [d[0] for d in result.description]
    return [dict(zip(names, r)) for r in result.fetchall()]


def version(reader):
    module = "pyspark" if reader == "spark" else reader
    return f"{module} {__import__(module).__version__}"


READERS = {"pyarrow": read_pyarrow, "pandas": read_pandas, "polars": read_polars, "duckdb": read_duckdb}


def read(reader, out, paths):
    if reader == "spark":
        from pyspark.sql import SparkSession

        spark = (SparkSession.builder.master("local[1]").appName("chessbits reader matrix")
                 .config("spark.ui.enabled", "false")
                 .config("spark.ui.showConsoleProgress", "false")
                 .getOrCreate())
        spark.sparkContext.setLogLevel("ERROR")
        # Every column, as `spark.read.parquet(OUT_DIR)` infers them: the query that failed on
        # a Parquet TIME column.
        read_one = lambda path: [r.asDict() for r in spark.read.parquet(path).collect()]  # noqa: E731
    else:
        read_one = READERS[reader]
    result = {"reader": version(reader), "dirs": {}}
    try:
        for path in paths:
            rows = read_one(path)
            missing = [c for c in COLUMNS if rows and c not in rows[0]]
            assert not missing, (result["reader"], path, "columns missing", missing)
            result["dirs"][Path(path).name] = [normalise(r) for r in rows]
            print(f"{result['reader']}: {len(rows)} rows read from {path}")
    finally:
        if reader == "spark":
            spark.stop()
    Path(out).write_text(json.dumps(result))


def compare(paths):
    results = [json.loads(Path(p).read_text()) for p in paths]
    reference = results[0]
    for name, rows in reference["dirs"].items():
        assert rows, (name, "no rows")
        # Not vacuous: the compared columns hold values (the bundled games have all of them).
        for i, column in enumerate(COLUMNS):
            if column not in ("non_utf8", "latin1_fields", "annotations"):
                assert any(r[i] is not None for r in rows), (name, column, "always null")
        mine = sorted(rows, key=json.dumps)
        for result in results[1:]:
            theirs = result["dirs"][name]
            assert len(theirs) == len(rows), (name, result["reader"], len(theirs), len(rows))
            # Every row that differs is counted, and the first one shown column by column.
            theirs = sorted(theirs, key=json.dumps)
            differ = [(a, b) for a, b in zip(mine, theirs) if a != b]
            if differ:
                a, b = differ[0]
                columns = [c for c, x, y in zip(COLUMNS, a, b) if x != y]
                missing = Counter(map(json.dumps, mine)) - Counter(map(json.dumps, theirs))
                shown = {c: (str(y)[:80], str(x)[:80]) for c, x, y in zip(COLUMNS, a, b) if x != y}
                raise AssertionError(
                    f"{name}: {sum(missing.values())} of {len(rows)} rows read by {result['reader']} differ from "
                    f"{reference['reader']}'s; the first in {columns}, (theirs, ours): {shown}")
        times = sum(r[3] is not None for r in rows)
        print(f"{name}: {len(rows)} rows ({times} with a UTCTime) the same in "
              + ", ".join(r["reader"] for r in results))


def main():
    if len(sys.argv) >= 5 and sys.argv[1] == "read":
        read(sys.argv[2], sys.argv[3], sys.argv[4:])
    elif len(sys.argv) >= 4 and sys.argv[1] == "compare":
        compare(sys.argv[2:])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
