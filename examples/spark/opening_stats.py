#!/usr/bin/env python3
"""Opening statistics by Elo band, and the FEN after ply K, from a `chessbits export` with PySpark.

    chessbits export games.pgn -o EXPORT_DIR --partition year,month
    python opening_stats.py EXPORT_DIR OUT_DIR [--master local[2]] [--plies 4] [--fen-ply 20]

Writes two Parquet directories under OUT_DIR:

- `opening_stats`: per (`elo_band`, `opening`): `games`, `white_wins`, `draws`, `black_wins`.
  `elo_band` is the lower bound of the 200-wide band of the mean of WhiteElo and BlackElo
  (null when either is missing); `opening` is the first `--plies` moves in SAN, space-separated
  (fewer for shorter games). Only games from the standard start position with a decodable main
  line count: the first moves of a set-up position (`start_fen`) are not an opening, and a
  game with a null move (`--`) has no `moves`.
- `fen_after_ply_K`: per game with at least K plies: `Site`, `White`, `Black`, `Round` (to name
  the game; none of them is unique on its own) and `fen`, the position after ply K.

The chess work runs in `mapInArrow`: each Arrow record batch goes straight into
`chessbits.decode_moves` / `chessbits.positions` (Rust, all rows of the batch at once, GIL
released), with no Python code per row. Spark does the rest (Elo bands, results, grouping).
Without `--master` the master is whatever `spark-submit` (or pyspark's default) says, so the same
file runs on a cluster; README.md says how to get `chessbits` onto the workers.
"""

import argparse
import time

from pyspark.sql import SparkSession
from pyspark.sql import functions as F
from pyspark.sql import types as T

# Only the columns the job needs, given explicitly: with a schema Spark neither infers nor touches
# the other columns.
INPUT_SCHEMA = T.StructType([
    T.StructField("Site", T.StringType()),
    T.StructField("White", T.StringType()),
    T.StructField("Black", T.StringType()),
    T.StructField("Result", T.StringType()),
    T.StructField("WhiteElo", T.ShortType()),
    T.StructField("BlackElo", T.ShortType()),
    T.StructField("moves", T.BinaryType()),
    T.StructField("plies", T.IntegerType()),
    T.StructField("start_fen", T.StringType()),
    T.StructField("other_tags", T.MapType(T.StringType(), T.StringType())),
    # The Hive partition columns (`year=2024/month=05`; __HIVE_DEFAULT_PARTITION__ is null).
    T.StructField("year", T.IntegerType()),
    T.StructField("month", T.IntegerType()),
])

# What mapInArrow adds to each game: its opening line and the FEN after ply K (null if shorter).
CHESS_FIELDS = [
    T.StructField("opening", T.StringType()),
    T.StructField("fen", T.StringType()),
]


def chess_columns(n_plies, fen_ply):
    """The mapInArrow function: per record batch, the opening line and the FEN after `fen_ply`.

    Whole games are decoded: the entropy code checks that a game ends where its moves end, so
    a prefix cannot be decoded on its own (SAN is cut to `n_plies` moves afterwards).
    """

    def run(batches):
        # Imported here: this runs in the Python workers, where chessbits must be installed.
        import chessbits
        import pyarrow as pa
        import pyarrow.compute as pc

        for batch in batches:
            moves = batch.column("moves")
            plies = batch.column("plies")
            start_fens = batch.column("start_fen")
            chess960 = pc.fill_null(pc.match_substring(batch.column("variant"), "960"), False)
            san = chessbits.decode_moves(moves, plies, notation="san",
                                         start_fens=start_fens, chess960=chess960)
            # null where `moves` is null (a null move in the game)
            opening = pc.binary_join(pc.list_slice(san, 0, n_plies), " ")
            # positions(every=K) gives the FENs at plies 0, K, 2K, ...: element 1 is ply K. Games
            # shorter than K are made null first, so that element 1 exists in every list.
            long_enough = pc.greater_equal(plies, pa.scalar(fen_ply, pa.int32()))
            moves_k = pc.if_else(long_enough, moves, pa.scalar(None, moves.type))
            fens = chessbits.positions(moves_k, plies, every=fen_ply,
                                       start_fens=start_fens, chess960=chess960)
            fen = pc.list_element(fens, 1)
            yield pa.RecordBatch.from_arrays(
                [batch.column(name) for name in PASS_THROUGH]
                + [opening.cast(pa.string()), fen.cast(pa.string())],
                names=PASS_THROUGH + ["opening", "fen"])

    return run


# The columns that go through mapInArrow unchanged (the map `other_tags` is read in Spark first:
# Arrow conversion of a map column is more than the job needs).
PASS_THROUGH = ["Site", "White", "Black", "Round", "Result", "WhiteElo", "BlackElo", "start_fen"]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("export_dir", help="a `chessbits export` directory (Hive partitions fine)")
    parser.add_argument("out_dir")
    parser.add_argument("--master", help="e.g. local[2]; default: what spark-submit says")
    parser.add_argument("--plies", type=int, default=4, help="opening length in plies (4)")
    parser.add_argument("--fen-ply", type=int, default=20, help="the ply of the FEN output (20)")
    args = parser.parse_args()

    builder = SparkSession.builder.appName("chessbits opening stats")
    if args.master:
        builder = builder.master(args.master)
    spark = (builder
             .config("spark.sql.execution.arrow.pyspark.enabled", "true")
             .config("spark.ui.showConsoleProgress", "false")
             # Spark already runs one task per core: one rayon thread per task in the Python
             # workers (chessbits spreads a batch's rows over rayon's pool, by default as many
             # threads as the machine has cores, which would oversubscribe every core).
             .config("spark.executorEnv.RAYON_NUM_THREADS", "1")
             # Small shuffles: a few partitions, not 200 near-empty tasks and files.
             .config("spark.sql.shuffle.partitions", "8")
             .getOrCreate())
    spark.sparkContext.setLogLevel("ERROR")

    # Timed from here: the JVM and the session are up; reading, the Python workers, the chess
    # work, the grouping and both writes count.
    started = time.perf_counter()
    games = (spark.read.schema(INPUT_SCHEMA).parquet(args.export_dir)
             .withColumn("variant", F.col("other_tags")["Variant"])
             .withColumn("Round", F.col("other_tags")["Round"]))
    input_cols = PASS_THROUGH + ["moves", "plies", "variant"]
    out_schema = T.StructType([INPUT_SCHEMA[c] if c != "Round" else T.StructField(c, T.StringType())
                               for c in PASS_THROUGH] + CHESS_FIELDS)
    chess = (games.select(*input_cols)
             .mapInArrow(chess_columns(args.plies, args.fen_ply), out_schema)
             .cache())

    # Elo band: floor(mean / 200) * 200, as floor((w + b) / 400) * 200. The sum in int (a short
    # sum could overflow); the double quotient floors exactly (a non-integer quotient of ints
    # this small is never within rounding error of the integer above it).
    elo_sum = F.col("WhiteElo").cast("int") + F.col("BlackElo").cast("int")
    band = (F.floor(elo_sum / 400) * 200).cast("int")
    # 1 or 0 per game, never null: a sum over nulls alone (games without a Result) would be null.
    def count_if(condition):
        return F.sum(F.when(condition, 1).otherwise(0)).cast("long")

    result = F.col("Result")
    stats = (chess.where(F.col("start_fen").isNull() & F.col("opening").isNotNull())
             .groupBy(band.alias("elo_band"), "opening")
             .agg(F.count("*").alias("games"),
                  count_if(result == "1-0").alias("white_wins"),
                  count_if(result == "1/2-1/2").alias("draws"),
                  count_if(result == "0-1").alias("black_wins")))
    stats.write.mode("overwrite").parquet(f"{args.out_dir}/opening_stats")
    fens = chess.where(F.col("fen").isNotNull()).select("Site", "White", "Black", "Round", "fen")
    fens.write.mode("overwrite").parquet(f"{args.out_dir}/fen_after_ply_{args.fen_ply}")
    n_games = chess.count()
    seconds = time.perf_counter() - started
    print(f"games {n_games} seconds {seconds:.2f} games/s {n_games / seconds:.0f} "
          f"master {spark.sparkContext.master}")
    spark.stop()


if __name__ == "__main__":
    main()
