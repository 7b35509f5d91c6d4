#!/usr/bin/env bash
# Regenerate the screenshots of the README and docs/PLAYING.md (docs/screenshots/) from the browser
# tests. The normal test run writes its screenshots to a scratch folder, so it never rewrites these
# tracked files.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x .venv/bin/python ] || bash scripts/test.sh --co -q >/dev/null
MAJIANG_SCREENSHOTS="$PWD/docs/screenshots" exec .venv/bin/python -m pytest tests/page/test_e2e.py -q "$@"
