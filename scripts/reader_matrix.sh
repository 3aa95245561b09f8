#!/usr/bin/env bash
# The reader matrix: exports the bundled testdata/pgn three times (one file; Hive partitions
# year=/month=; the files ten times over in one file, so that a page holds more rows than a
# reader's batch of 4,096) with the debug CLI, then reads each directory as it
# is with pyarrow, pandas, polars, DuckDB, PySpark 3.5.3, 3.5.9 and 4 (scripts/reader_matrix.py
# read; pandas needs the partitions' schema, see there), and checks that all of them read the
# same rows as pyarrow: the same count and, value for value, the same Event, White, Black,
# UTCDate, UTCTime, WhiteElo, BlackElo, clock_deltas, moves, plies, annotations, non_utf8 and
# latin1_fields (scripts/reader_matrix.py compare). PySpark 3.5.3 is the Spark example's
# (scripts/spark_env.sh): it misreads DELTA_LENGTH_BYTE_ARRAY columns (SPARK-52240), which
# later 3.5 releases read.
#
# Each PySpark has a venv of its own (target/venv-spark353, -spark35, -spark4), the other readers
# share target/venv-readers; all pinned, installed from PyPI when absent. Spark needs Java (17
# fits both; installed with apt-get when root and missing). About a minute when the venvs exist:
# one Spark session per venv. CHESSBITS=path/to/chessbits picks the CLI.
set -euo pipefail
cd "$(dirname "$0")/.."

work=target/reader-matrix
pip_flags=(--quiet --disable-pip-version-check)

# venv name, the check that it is ready, the packages.
venv() {
  local dir="target/venv-$1" check="$2"
  shift 2
  if ! "$dir/bin/python" -c "$check" 2>/dev/null; then
    python3 -m venv "$dir"
    "$dir/bin/pip" install "${pip_flags[@]}" "$@"
  fi
}
venv readers "import pyarrow, pandas, polars, duckdb; assert (pyarrow.__version__, pandas.__version__, \
polars.__version__, duckdb.__version__) == ('26.0.1', '3.1.1', '2.1.0', '2.0.1')" \
  pyarrow==26.0.1 pandas==3.1.1 polars==2.1.0 duckdb==2.0.1
venv spark353 "import pyspark; assert pyspark.__version__ == '3.5.3'" pyspark==3.5.3
venv spark35 "import pyspark; assert pyspark.__version__ == '3.5.9'" pyspark==3.5.9
venv spark4 "import pyspark; assert pyspark.__version__ == '4.3.0'" pyspark==4.3.0

if ! command -v java >/dev/null 2>&1; then
  if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
    apt-get update -qq && apt-get install -y -qq openjdk-17-jre-headless >/dev/null
  else
    echo "Spark needs Java 17: install openjdk-17-jre-headless or set PATH" >&2
    exit 1
  fi
fi

if [ -z "${CHESSBITS:-}" ]; then
  cargo build --quiet -p chessbits-cli
  CHESSBITS=target/debug/chessbits
fi

rm -rf "$work"
mkdir -p "$work"
# The export as it comes (one file), and with Hive partitions (some games of the bundled files
# have no known month: a null partition).
# The third, `repeated`, is the bundled files ten times in one file (4,380 games): past a reader's
# batch of 4,096 rows within one page (4,200 games), where PySpark 3.5.3 misreads delta-encoded
# byte arrays.
mkdir -p "$work/repeated-input"
for copy in 0 1 2 3 4 5 6 7 8 9; do
  for file in testdata/pgn/*.pgn; do
    cp "$file" "$work/repeated-input/$copy-$(basename "$file")"
  done
done
for kind in plain partitioned repeated; do
  flags=()
  input=testdata/pgn
  [ "$kind" = partitioned ] && flags=(--partition year,month)
  [ "$kind" = repeated ] && input="$work/repeated-input"
  status=0
  "$CHESSBITS" export "$input" -o "$work/$kind" "${flags[@]}" >/dev/null 2>&1 || status=$?
  # Status 1: some games rejected (the variant games of the bundled files), which is expected.
  if [ "$status" -gt 1 ]; then
    echo "export of $input ($kind) failed with status $status" >&2
    exit 1
  fi
done

results=()
read_with() {
  local venv="$1" reader="$2" out="$work/$3.json"
  # Spark's JVM writes start-up warnings to stderr: kept in a log, shown only on failure.
  if ! "target/venv-$venv/bin/python" scripts/reader_matrix.py read "$reader" "$out" \
      "$work/plain" "$work/partitioned" "$work/repeated" >"$work/read.log" 2>"$work/read.err"; then
    cat "$work/read.log" "$work/read.err" >&2
    echo "reader $3 failed" >&2
    exit 1
  fi
  results+=("$out")
}
read_with readers pyarrow pyarrow
read_with readers pandas pandas
read_with readers polars polars
read_with readers duckdb duckdb
read_with spark353 spark spark353
read_with spark35 spark spark35
read_with spark4 spark spark4
target/venv-readers/bin/python scripts/reader_matrix.py compare "${results[@]}"
