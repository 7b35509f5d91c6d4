#!/usr/bin/env bash
# The server's guard tests on the newest releases pyproject.toml's open ranges allow, in their own
# throwaway venv (.venv-newest, outside git): the lock (requirements/server.lock) keeps a deployed
# server from changing under its users; this says when the newest releases would break a guard
# (bodies past the limit, the Host guard, room codes, the page's files), before the lock is moved.
set -euo pipefail
cd "$(dirname "$0")/.."
PY="${PYTHON:-python3.11}"
command -v "$PY" >/dev/null 2>&1 || PY=python3
[ -x .venv-newest/bin/python ] || "$PY" -m venv .venv-newest
.venv-newest/bin/python -m pip install -q --upgrade --upgrade-strategy eager -e '.[web]' pytest pytest-timeout hypothesis httpx
exec .venv-newest/bin/python -m pytest -q -p no:cacheprovider tests/server/test_server_network.py \
    tests/server/test_server_guards.py::test_http_bad_input_is_a_4xx_never_a_500 \
    tests/server/test_server_guards.py::test_requests_must_name_this_server \
    tests/server/test_server_guards.py::test_other_sites_cannot_use_the_cookie \
    tests/server/test_server_guards.py::test_replies_never_echo_what_was_sent "$@"
