#!/usr/bin/env python3
"""Builds the position index of a `chessbits export` with PySpark: the same index as
`chessbits index build EXPORT_DIR -o OUT_INDEX`, computed on a cluster.

    chessbits export games.pgn -o EXPORT_DIR
    python build_index.py EXPORT_DIR OUT_INDEX [--master local[2]] [--partitions N]

How:

1. The driver lists the export's part files with `chessbits.export_parts` (sorted by relative
   path; part p's row r is game `first_game(p) + r`, every row a game: the numbering of the local
   build).
2. Spark reads the export; each row gets its part (from Spark's hidden `_metadata.file_path`)
   and its row within the part file (`_metadata.row_index`, Spark 3.5 and newer), hence its
   source and game number.
3. In `mapInArrow`, `chessbits.export_records` turns each Arrow batch into the index's rows
   (Rust, all rows of a batch at once): `games`, `positions`, and unaggregated `explorer` rows
   (one per game and distinct position). A mapInArrow has one output schema: it runs once, with
   one struct column per table (the others null), its output kept on disk for the three writes;
   `--three-passes` runs it once per table instead (slower: see README.md for both timings).
4. Spark sums the explorer rows per (key, uci, speed, rating, month), keeping `last_date` and
   `last_game` of the row with the greatest (date, game), as the Rust build does (dates compared
   as numbers YYYYMMDD with `??` as 0, not as text), and leaves out the keys whose rows total one
   game; it marks the positions rows `solo` (the first row of the one decided game of such a
   key: window functions over the key, with the games' results joined); range-partitions each table (by key; games
   by game), sorts within partitions (explorer and positions by key, positions then by game and
   ply; games by game) and writes Parquet (zstd; parquet-mr's page indexes, 4096-row pages).
5. `chessbits.seal_index` checks the files (schemas, order, numbering) and makes OUT_INDEX an
   index: file names, footers' format version, the `sources` table, page checksums, manifest.

OUT_INDEX must be a local path (or one the driver sees as such): the seal runs on the driver.
"""

import argparse
import os
import shutil
import time
import urllib.parse

from pyspark import StorageLevel
from pyspark.sql import SparkSession
from pyspark.sql import functions as F
from pyspark.sql import types as T

# The export's columns that make a game's row and moves (types as the export writes them).
_TEXT_TAGS = ["Event", "Site", "White", "Black", "Result", "WhiteTitle", "BlackTitle", "UTCTime",
              "ECO", "Opening", "Termination", "TimeControl"]
INPUT_SCHEMA = T.StructType(
    [T.StructField(name, T.StringType()) for name in _TEXT_TAGS]
    + [T.StructField(name, T.ShortType())
       for name in ["WhiteElo", "BlackElo", "WhiteRatingDiff", "BlackRatingDiff"]]
    + [T.StructField("UTCDate", T.DateType()),
       # `annotations` (export version 2 on) or `movetext` (version 1, or --movetext): the games
       # whose `moves` is null are read from them; the column a file lacks reads as null.
       T.StructField("movetext", T.StringType()),
       T.StructField("annotations", T.StringType()),
       T.StructField("moves", T.BinaryType()),
       T.StructField("plies", T.IntegerType()),
       T.StructField("start_fen", T.StringType()),
       T.StructField("other_tags", T.MapType(T.StringType(), T.StringType()))])
INPUT_COLUMNS = [f.name for f in INPUT_SCHEMA.fields]


def _text(name, nullable=True):
    return T.StructField(name, T.StringType(), nullable)


def _long(name, nullable=False):
    return T.StructField(name, T.LongType(), nullable)


def _int(name, nullable=False):
    return T.StructField(name, T.IntegerType(), nullable)


# The index's tables (crates/chessbits-index/src/model): the same columns, types and nullability.
TABLE_SCHEMAS = {
    "games": T.StructType([
        _long("game"), _int("source"), _long("offset"), _long("length"), _long("line"), _int("plies"),
        _text("white"), _text("black"), _int("white_elo", True), _int("black_elo", True),
        _text("result", False), _text("date"), _text("time_control"), _text("speed"),
        _text("event"), _text("site"), _text("fen"),
        # Format 3: what replays the game (its moves in the entropy code, their number, the start).
        T.StructField("replay_moves", T.BinaryType(), False), _int("replay_plies"), _text("start_fen"),
        T.StructField("chess960", T.BooleanType(), False)]),
    "positions": T.StructType([
        T.StructField("key", T.BinaryType(), False), _long("game"), _int("ply"), _text("uci")]),
    "explorer": T.StructType([
        T.StructField("key", T.BinaryType(), False), _text("uci"), _text("speed"), _int("rating", True),
        _text("month"), _long("white"), _long("draws"), _long("black"), _long("rated"),
        _long("rating_sum"), _text("last_date"), _long("last_game")]),
}
# The positions table as written: the rows of export_records plus `solo` (see mark_solo): the
# wide rows (one per ply, full keys), which `chessbits.seal_index` rewrites in format 3's layout
# (key prefix, rank, game, solo: crates/chessbits-index/src/model/positions.rs).
WRITTEN_SCHEMAS = dict(TABLE_SCHEMAS, positions=T.StructType(
    TABLE_SCHEMAS["positions"].fields + [T.StructField("solo", T.BooleanType(), False)]))
TABLES = ["games", "positions", "explorer"]
GROUP = ["key", "uci", "speed", "rating", "month"]


class PartNumbers:
    """Maps the file paths Spark reports (URIs) to (source, first_game) of export_parts."""

    def __init__(self, parts):
        self.by_path = {}
        for number, part in enumerate(parts):
            value = (number, part["first_game"])
            self.by_path[part["path"]] = value
            self.by_path[os.path.realpath(part["path"])] = value
        self.relative = [(part["relative"], (number, part["first_game"])) for number, part in enumerate(parts)]
        self.names = [part["relative"] for part in parts]

    def lookup(self, uri):
        path = urllib.parse.unquote(urllib.parse.urlparse(uri).path)
        for candidate in (path, os.path.realpath(path)):
            if candidate in self.by_path:
                return self.by_path[candidate]
        # Another mount of the same files (a cluster's URI, the driver's local path): the
        # longest relative path it ends with.
        matches = sorted(((len(rel), value) for rel, value in self.relative if path.endswith("/" + rel)),
                         reverse=True)
        if not matches or (len(matches) > 1 and matches[0][0] == matches[1][0]):
            raise ValueError(f"{uri}: not a part file of the export as chessbits.export_parts lists it")
        return matches[0][1]


def index_rows(numbers, moves_code, tables, errors=None):
    """The mapInArrow function: export rows (with `_file` and `_row`) to the rows of `tables`
    (one table: its batches; several: one struct column per table, the others null)."""

    def run(batches):
        # Imported here: this runs in the Python workers, where chessbits must be installed.
        import chessbits
        import pyarrow as pa
        import pyarrow.compute as pc

        for batch in batches:
            if batch.num_rows == 0:
                continue
            files = pc.dictionary_encode(batch.column("_file"))
            looked_up = [numbers.lookup(uri) for uri in files.dictionary.to_pylist()]
            source = pc.take(pa.array([s for s, _ in looked_up], pa.int32()), files.indices)
            first = pc.take(pa.array([f for _, f in looked_up], pa.int64()), files.indices)
            row = batch.column("_row")
            game = pc.add(first, row)
            rows = pa.RecordBatch.from_arrays([batch.column(c) for c in INPUT_COLUMNS], names=INPUT_COLUMNS)
            games, positions, explorer, errs = chessbits.export_records(
                rows, game, source, row, files=numbers.names, moves_code=moves_code)
            if errors is not None and errs:
                errors.add(len(errs))
            out = {"games": games, "positions": positions, "explorer": explorer}
            if len(tables) == 1:
                yield out[tables[0]]
                continue
            for table in tables:
                b = out[table]
                columns = [pa.StructArray.from_arrays(b.columns, fields=list(b.schema))
                           if t == table else pa.nulls(b.num_rows, _arrow_struct(t)) for t in tables]
                yield pa.RecordBatch.from_arrays(columns, names=tables)

    return run


def _arrow_struct(table):
    from pyspark.sql.pandas.types import to_arrow_type
    return to_arrow_type(T.StructType(TABLE_SCHEMAS[table].fields))


def explorer_sums(raw):
    """The explorer rows summed per group; last_date/last_game of the latest (date, game)."""
    # "2024.03.??" -> 20240300: the packed date the Rust build compares (null: 0).
    packed = F.coalesce(F.translate(F.regexp_replace("last_date", r"\.", ""), "?", "0").cast("int"), F.lit(0))
    sums = [F.sum(c).cast("long").alias(c) for c in ["white", "draws", "black", "rated", "rating_sum"]]
    latest = F.max(F.struct(packed.alias("d"), F.col("last_game").alias("g"), F.col("last_date").alias("t")))
    return (raw.groupBy(*GROUP).agg(*sums, latest.alias("latest"))
            .select(*GROUP, "white", "draws", "black", "rated", "rating_sum",
                    F.col("latest.t").alias("last_date"), F.col("latest.g").alias("last_game")))


def mark_solo(positions, games):
    """The positions rows with `solo`: true on the first row (least ply) of the one decided game
    of a key that exactly one decided game reaches (the explorer has no rows for such a key)."""
    from pyspark.sql import Window
    decided = games.select("game", F.col("result").isin("1-0", "0-1", "1/2-1/2").alias("decided"))
    rows = positions.join(decided, "game")
    by_key = Window.partitionBy("key")
    decided_game = F.when(F.col("decided"), F.col("game"))
    first_ply = F.min("ply").over(Window.partitionBy("key", "game"))
    solo = (F.col("decided") & (F.min(decided_game).over(by_key) == F.max(decided_game).over(by_key))
            & (F.col("ply") == first_ply))
    return rows.withColumn("solo", F.coalesce(solo, F.lit(False)))


def drop_solo_keys(explorer):
    """The summed explorer rows less the keys whose rows total one game (see mark_solo)."""
    from pyspark.sql import Window
    games = F.sum(F.col("white") + F.col("draws") + F.col("black")).over(Window.partitionBy("key"))
    return explorer.withColumn("_games", games).where(F.col("_games") > 1).drop("_games")


def write_table(df, table, out, partitions):
    """Range-partitions, sorts within partitions and writes one table with its exact schema."""
    schema = WRITTEN_SCHEMAS[table]
    df = df.select(*[F.col(f.name).cast(f.dataType) for f in schema.fields])
    if table == "games":
        df = df.repartitionByRange(partitions, "game").sortWithinPartitions("game")
    elif table == "positions":
        df = df.repartitionByRange(partitions, "key").sortWithinPartitions("key", "game", "ply")
    else:
        df = df.repartitionByRange(partitions, "key").sortWithinPartitions(*GROUP)
    df.write.option("compression", "zstd").parquet(os.path.join(out, table))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("export_dir", help="a `chessbits export` directory (Hive partitions fine)")
    parser.add_argument("out_index", help="the index directory to create (local)")
    parser.add_argument("--master", help="e.g. local[2]; default: what spark-submit says")
    parser.add_argument("--partitions", type=int, help="files per table (default: the default parallelism)")
    parser.add_argument("--three-passes", action="store_true",
                        help="one mapInArrow pass per table (default: one for all three, kept on disk)")
    parser.add_argument("--force", action="store_true", help="replace OUT_INDEX")
    args = parser.parse_args()

    import chessbits  # the driver numbers the parts and seals the index

    if os.path.exists(args.out_index):
        if not args.force:
            parser.error(f"{args.out_index} exists (--force replaces it)")
        shutil.rmtree(args.out_index)

    builder = SparkSession.builder.appName("chessbits index build")
    if args.master:
        builder = builder.master(args.master)
    spark = (builder
             .config("spark.sql.execution.arrow.pyspark.enabled", "true")
             .config("spark.ui.showConsoleProgress", "false")
             # One rayon thread per task in the Python workers: Spark already runs a task per core.
             .config("spark.executorEnv.RAYON_NUM_THREADS", "1")
             # The index's page size: a lookup decodes about this many rows per column.
             .config("spark.hadoop.parquet.page.row.count.limit", "4096")
             # The sorted key needs no dictionary (the local build writes it plain too).
             .config("spark.hadoop.parquet.enable.dictionary#key", "false")
             .getOrCreate())
    spark.sparkContext.setLogLevel("ERROR")
    partitions = args.partitions or spark.sparkContext.defaultParallelism

    started = time.perf_counter()
    parts = chessbits.export_parts(args.export_dir)
    codes = {p["moves_code"] for p in parts}
    if len(codes) != 1:
        raise SystemExit(f"the export's parts use several moves codes: {sorted(codes)}")
    numbers = PartNumbers(parts)
    errors = spark.sparkContext.accumulator(0)
    export = (spark.read.schema(INPUT_SCHEMA).option("pathGlobFilter", "*.parquet")
              .parquet(args.export_dir)
              .select(*INPUT_COLUMNS, F.col("_metadata.file_path").alias("_file"),
                      F.col("_metadata.row_index").alias("_row")))
    code = codes.pop()
    if not args.three_passes:
        union_schema = T.StructType([T.StructField(t, T.StructType(TABLE_SCHEMAS[t].fields), True)
                                     for t in TABLES])
        rows = export.mapInArrow(index_rows(numbers, code, TABLES, errors), union_schema) \
            .persist(StorageLevel.DISK_ONLY)
        tables = {t: rows.where(F.col(t).isNotNull()).select(f"{t}.*") for t in TABLES}
    else:
        tables = {t: export.mapInArrow(index_rows(numbers, code, [t], errors if t == "games" else None),
                                       TABLE_SCHEMAS[t])
                  for t in TABLES}
    tables["explorer"] = drop_solo_keys(explorer_sums(tables["explorer"]))
    tables["positions"] = mark_solo(tables["positions"], tables["games"])
    for table in TABLES:
        write_table(tables[table], table, args.out_index, partitions)
    summary = chessbits.seal_index(args.out_index, args.export_dir)
    seconds = time.perf_counter() - started
    games = summary["games"]
    print(f"errors {errors.value}")
    print(f"games {games} seconds {seconds:.2f} games/s {games / seconds:.0f} "
          f"master {spark.sparkContext.master} partitions {partitions} passes {3 if args.three_passes else 1}")
    spark.stop()


if __name__ == "__main__":
    main()
