#!/usr/bin/env bash
# Install the project with its test extras into .venv and run the whole test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
PY="${PYTHON:-python3.11}"
command -v "$PY" >/dev/null 2>&1 || PY=python3
[ -x .venv/bin/python ] || "$PY" -m venv .venv
.venv/bin/python -m pip install -q --upgrade pip >/dev/null
# the server's dependencies at the releases the lock names (requirements/server.lock): what CI tests
# is what a deployed server runs; scripts/test_newest.sh tries the newest releases pyproject allows
.venv/bin/python -m pip install -q -c requirements/server.lock -e '.[test]'
# The optional native engine (Rust, no crates to download) and the compiled hand analysis (the same
# build) are built when cargo is here, so their tests run; without cargo they are skipped and
# everything else runs on the Python engine and analysis.
CARGO="$(command -v cargo || true)"
[ -n "$CARGO" ] || [ ! -x "$HOME/.cargo/bin/cargo" ] || CARGO="$HOME/.cargo/bin/cargo"
if [ -n "$CARGO" ]; then
  CARGO="$CARGO" .venv/bin/python -m majiang.native build --quiet
fi
exec .venv/bin/python -m pytest "$@"
