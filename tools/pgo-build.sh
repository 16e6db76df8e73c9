#!/usr/bin/env bash
# A profile-guided build of vhsim's native module, installed into the virtual environment
# (`make install-pgo`; docs/performance.md "A profile-guided build"). Opt-in: the default
# install (`make install`) is the plain release build.
#
#   1. build the module instrumented (rustc -Cprofile-generate);
#   2. run tools/pgo_train.py with it: the benchmark's scenarios, a Lim & Jang congested run and
#      a shared cell of 1,000 users, which record the hot branches and calls;
#   3. merge the recorded profiles (llvm-profdata, from `rustup component add llvm-tools`);
#   4. build again with the profile (rustc -Cprofile-use) and install that wheel.
#
# Environment: PYTHON (default .venv/bin/python), LLVM_PROFDATA (default: the toolchain's),
# PGO_DIR (default target/pgo; its data/ is made afresh each time).
set -euo pipefail
cd "$(dirname "$0")/.."

PYTHON="${PYTHON:-.venv/bin/python}"
PGO_DIR="$(mkdir -p "${PGO_DIR:-target/pgo}" && cd "${PGO_DIR:-target/pgo}" && pwd)"
PROFDATA="${LLVM_PROFDATA:-$(find "$(rustc --print sysroot)" -name llvm-profdata -type f 2>/dev/null | head -n 1)}"
if [ -z "$PROFDATA" ] || [ ! -x "$PROFDATA" ]; then
  echo "error: llvm-profdata not found (it must match rustc's LLVM); install it with:" >&2
  echo "       rustup component add llvm-tools   (or set LLVM_PROFDATA=/path/to/llvm-profdata)" >&2
  exit 1
fi
"$PYTHON" -m maturin --version >/dev/null 2>&1 || "$PYTHON" -m pip install -q 'maturin>=1.5,<2'

rm -rf "$PGO_DIR/data" "$PGO_DIR/instrumented" "$PGO_DIR/wheels-instrumented" "$PGO_DIR/wheels"
export CARGO_TARGET_DIR="$PGO_DIR/target"

echo "pgo: 1/4 instrumented build"
RUSTFLAGS="-Cprofile-generate=$PGO_DIR/data" "$PYTHON" -m maturin build --release -o "$PGO_DIR/wheels-instrumented"
"$PYTHON" -m zipfile -e "$PGO_DIR"/wheels-instrumented/*.whl "$PGO_DIR/instrumented"

echo "pgo: 2/4 training runs (tools/pgo_train.py)"
PYTHONPATH="$PGO_DIR/instrumented" "$PYTHON" tools/pgo_train.py

echo "pgo: 3/4 merging the profiles"
"$PROFDATA" merge -o "$PGO_DIR/merged.profdata" "$PGO_DIR"/data/*.profraw

echo "pgo: 4/4 build with the profile, install"
RUSTFLAGS="-Cprofile-use=$PGO_DIR/merged.profdata" "$PYTHON" -m maturin build --release -o "$PGO_DIR/wheels"
"$PYTHON" -m pip install -q --force-reinstall --no-deps "$PGO_DIR"/wheels/*.whl
echo "pgo: installed $(ls "$PGO_DIR"/wheels/*.whl)"
