#!/usr/bin/env bash
# Builds the Python package (crates/chessbits-py) into an abi3 wheel with maturin, installs it in a
# fresh venv with pytest and python-chess, and runs its tests (crates/chessbits-py/tests: the
# bundled corpus against python-chess, hostile input, the docstring examples) and mypy's stubtest
# (chessbits.pyi against the module).
#
# Needs Rust and python3 (3.9 or newer, with venv and pip) and PyPI; maturin is installed in a
# venv of its own under target/. PYTHON picks the interpreter (default python3).
set -euo pipefail
cd "$(dirname "$0")/.."

python="${PYTHON:-python3}"
build_venv=target/py-build-venv
test_venv=target/py-venv-test
pip_flags=(--quiet --disable-pip-version-check)

if [ ! -x "$build_venv/bin/maturin" ]; then
  "$python" -m venv "$build_venv"
  "$build_venv/bin/pip" install "${pip_flags[@]}" "maturin>=1.7,<2"
fi

rm -f target/wheels/chessbits-*.whl
(cd crates/chessbits-py && "../../$build_venv/bin/maturin" build --release --quiet --out ../../target/wheels)
wheels=(target/wheels/chessbits-*.whl)
wheel="${wheels[0]}"

# A fresh venv every time: the wheel must install with nothing but its declared dependencies.
rm -rf "$test_venv"
"$python" -m venv "$test_venv"
"$test_venv/bin/pip" install "${pip_flags[@]}" "$wheel" pytest chess==1.11.2 mypy==2.4.1
# -p no:cacheprovider: no .pytest_cache in the source tree.
"$test_venv/bin/python" -m pytest -q -p no:cacheprovider crates/chessbits-py/tests
# The type stubs against the module as built: every name, signature and class as it is.
(cd target && "../$test_venv/bin/python" -m mypy.stubtest chessbits \
  --mypy-config-file ../crates/chessbits-py/pyproject.toml \
  --allowlist ../crates/chessbits-py/stubtest-allowlist.txt)
echo "wheel: $wheel ($(du -k "$wheel" | cut -f1) KiB)"
