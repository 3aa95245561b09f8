# Sourced by the Spark scripts (scripts/spark_example.sh, scripts/spark_index.sh), from the
# repository root: the venv of scripts/python_package.sh (built by it when absent) with pyspark
# and pandas added (pyspark's mapInArrow insists on pandas, though unused), Java (installs
# openjdk-17-jre-headless with apt-get when root and Java is missing), and the CLI:
# CHESSBITS=path/to/chessbits picks it (default: the debug build).
# Sets: venv, python, CHESSBITS, PYSPARK_PYTHON (the Python workers must run the venv's
# interpreter: chessbits is installed there).

venv=target/py-venv-test
pip_flags=(--quiet --disable-pip-version-check)

if ! "$venv/bin/python" -c "import chessbits" 2>/dev/null; then
  scripts/python_package.sh
fi
if ! "$venv/bin/python" -c "import pyspark, pandas; assert pyspark.__version__ == '3.5.3'" 2>/dev/null; then
  "$venv/bin/pip" install "${pip_flags[@]}" pyspark==3.5.3 pandas==2.2.3
fi

if ! command -v java >/dev/null 2>&1; then
  if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
    apt-get update -qq && apt-get install -y -qq openjdk-17-jre-headless >/dev/null
  else
    echo "Spark needs Java (8, 11 or 17): install openjdk-17-jre-headless or set PATH" >&2
    exit 1
  fi
fi
echo "java: $(java -version 2>&1 | head -n 1)"

if [ -z "${CHESSBITS:-}" ]; then
  cargo build --quiet -p chessbits-cli
  CHESSBITS=target/debug/chessbits
fi

export PYSPARK_PYTHON="$PWD/$venv/bin/python"
python="$venv/bin/python"
