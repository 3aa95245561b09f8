#!/usr/bin/env bash
# The position index built with Spark (examples/spark/build_index.py): exports the bundled
# testdata/pgn (and ../shared/data/pgn where present) to Parquet, builds the index of each export
# with the Spark job on local[2] and with `chessbits index build`, prints both times (games/s),
# and checks that the two indexes answer the same explorer and search queries
# (examples/spark/check_index.py).
#
# Needs Java 8/11/17 and PyPI: scripts/spark_env.sh sets up the venv, Java and the CLI
# (CHESSBITS=path/to/chessbits picks the CLI; default: the debug build).
set -euo pipefail
cd "$(dirname "$0")/.."

work=target/spark-index
# The venv (pyspark, pandas, chessbits), Java and the CLI: scripts/spark_env.sh.
source scripts/spark_env.sh

# The full corpora of ../shared/data only on request (SPARK_INDEX_SHARED=1): the check runs the
# debug CLI four times per position, minutes for their thousands of positions.
inputs=(testdata/pgn)
if [ -d ../shared/data/pgn ] && [ "${SPARK_INDEX_SHARED:-0}" = 1 ]; then
  inputs+=(../shared/data/pgn)
fi

mkdir -p "$work"
for input in "${inputs[@]}"; do
  name="$(basename "$(dirname "$input")")-$(basename "$input")"
  export_dir="$work/export-$name"
  status=0
  "$CHESSBITS" export "$input" -o "$export_dir" --partition year,month --force >/dev/null 2>&1 || status=$?
  # Status 1: some games rejected (the variant games of the bundled files), which is expected.
  if [ "$status" -gt 1 ]; then
    echo "export of $input failed with status $status" >&2
    exit 1
  fi
  # The Spark job times itself (from the started session to the sealed index: without the JVM's
  # start-up). Its stderr (the JVM's start-up warnings) is shown only on failure.
  if ! "$python" examples/spark/build_index.py "$export_dir" "$work/spark-$name" --master "local[2]" --force \
      >"$work/job.log" 2>"$work/job.err"; then
    cat "$work/job.log" "$work/job.err" >&2
    exit 1
  fi
  spark_line="$(tail -n 1 "$work/job.log")"
  now() { "$python" -c 'import time; print(time.time())'; }
  started=$(now)
  status=0
  "$CHESSBITS" index build "$export_dir" -o "$work/local-$name" --force >"$work/build.log" 2>&1 || status=$?
  # Status 1: games that could not be indexed (the Spark job counts the same ones).
  if [ "$status" -gt 1 ]; then
    cat "$work/build.log" >&2
    exit 1
  fi
  ended=$(now)
  games=$(echo "$spark_line" | awk '{print $2}')
  echo "$input: Spark local[2]: $(echo "$spark_line" | awk '{print $2 " games, " $4 " s, " $6 " games/s"}');" \
    "chessbits index build ($CHESSBITS): $("$python" -c "s = $ended - $started; print(f'$games games, {s:.2f} s, {$games / s:.0f} games/s')")"
  "$python" examples/spark/check_index.py "$CHESSBITS" "$work/spark-$name" "$export_dir" --local "$work/local-$name"
done
