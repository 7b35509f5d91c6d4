#!/usr/bin/env bash
# Run the README's first command exactly as written, in a throwaway copy of this checkout (its own
# .venv, a fresh HOME for the SQLite file), then check the game it serves (scripts/smoke_check.py),
# stop it and make sure nothing it started is left running. A dependency the first command lacks
# fails here, not on a new user's machine. Prints how long each step took. Then one wheel built from
# the copy: installed plain (every extra-free command; where no cargo can be found, the native engine
# it ships plays expert), and with the web extra (it serves the game).
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/home" "$work/majiang"
# the files of this checkout as they are (tracked and new, nothing ignored): what a clone holds
git ls-files -co --exclude-standard -z | tar --null -T - -cf - | tar -xf - -C "$work/majiang"
# the first line of the README's first ```sh block is the first command
first="$(awk '/^```sh/{f=1;next} f{print; exit}' README.md)"
[ -n "$first" ] || { echo "smoke: no first command in README.md"; exit 1; }
port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')"
echo "smoke: $first   (port $port)"
start=$(date +%s)
# rustup's cargo finds its toolchains under the real HOME (RUSTUP_HOME), not the fresh one
rustup_home="${RUSTUP_HOME:-$HOME/.rustup}"
( cd "$work/majiang" && HOME="$work/home" RUSTUP_HOME="$rustup_home" MAJIANG_PORT="$port" \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    setsid bash -c "echo \$\$ >'$work/pgid'; $first" >"$work/serve.log" 2>&1 ) &
launcher=$!
up() { python3 -c "import urllib.request,sys; urllib.request.urlopen(sys.argv[1], timeout=5)" "http://127.0.0.1:$port/" 2>/dev/null; }
for _ in $(seq 1 600); do
  if up; then break; fi
  if ! kill -0 "$launcher" 2>/dev/null; then echo "smoke: the first command exited:"; tail -30 "$work/serve.log"; exit 1; fi
  sleep 1
done
up || { echo "smoke: no page after 10 minutes"; tail -30 "$work/serve.log"; exit 1; }
served=$(date +%s)
echo "smoke: page served $((served - start)) s after the first command began (install included)"
# where the first command could find cargo (setup.py's rule: CARGO, PATH, the fresh HOME's ~/.cargo),
# it built the native engine into the checkout's package; without cargo it went on without one
if [ -n "${CARGO:-}" ] || command -v cargo >/dev/null; then
  "$work/majiang/.venv/bin/python" -c 'from majiang import native; assert native.available(), native.unavailable_reason()' \
    || { echo "smoke: cargo is here but the first command built no native engine"; exit 1; }
  "$work/majiang/.venv/bin/python" -c 'from majiang.core import analysis; assert analysis.rust is not None' \
    || { echo "smoke: cargo is here but the first command built no compiled hand analysis"; exit 1; }
  echo "smoke: the first command built the native engine and the hand analysis' module (cargo found)"
else
  echo "smoke: no cargo found, so the first command installed without the native engine"
fi
"$work/majiang/.venv/bin/python" "$root/scripts/smoke_check.py" "http://127.0.0.1:$port" \
  || { tail -30 "$work/serve.log"; exit 1; }
echo "smoke: a bot hand played through $(( $(date +%s) - start )) s after the first command began"
# stop it as a user does (Ctrl-C reaches the whole process group), then nothing may be left
pgid="$(cat "$work/pgid")"  # setsid: the command's own process group, all that it started
kill -INT -- "-$pgid" 2>/dev/null || true
for _ in $(seq 1 30); do pgrep -g "$pgid" >/dev/null || break; sleep 0.5; done
if pgrep -g "$pgid" >/dev/null; then
  echo "smoke: processes left after stopping the server:"; ps -o pid,cmd -g "$pgid"; kill -KILL -- "-$pgid"; exit 1
fi
echo "smoke: stopped cleanly"

# One wheel, built as a release builds it (where cargo is, the native engine goes inside), for the
# three installs below: a user's `pip install majiang` gets a wheel too.
python3 -m venv "$work/plain"
"$work/plain/bin/pip" wheel -q --no-deps -w "$work/wheel" "$work/majiang" >"$work/pip.log" 2>&1 \
  || { tail -20 "$work/pip.log"; exit 1; }
wheel="$(ls "$work"/wheel/*.whl)"

# The plain install (no extras, not editable): every command documented without an extra works.
"$work/plain/bin/pip" install -q "$wheel" >"$work/pip.log" 2>&1 || { tail -20 "$work/pip.log"; exit 1; }
plain=(
  "analyze 1112345678999p --variant kawuxing"
  "score 1122334456677p --win 5p --variant kawuxing"
  "simulate --variant sichuan --games 3 --seed 1 --log $work/logs"
  "arena --variant kawuxing --bots strong,greedy,greedy --games 2 --workers 1"
  "play --help"
)
for cmd in "${plain[@]}"; do
  ( cd "$work" && HOME="$work/home" "$work/plain/bin/majiang" $cmd >"$work/plain.log" 2>&1 ) \
    || { echo "smoke: 'majiang $cmd' fails after the plain install:"; tail -5 "$work/plain.log"; exit 1; }
done
HOME="$work/home" "$work/plain/bin/majiang" replay "$(ls "$work"/logs/*.jsonl | head -1)" >/dev/null \
  || { echo "smoke: 'majiang replay' fails after the plain install"; exit 1; }
echo "smoke: the plain install runs analyze, score, simulate, replay, arena and play"

# The plain install where no cargo can be found: the native engine the wheel ships loads (numpy comes
# with every install) and expert searches in it (a Python-engine expert would say so, and take
# minutes, not seconds). A wheel built without cargo has no engine: its arena says so once.
nocargo="$(python3 -c 'import os; print(os.pathsep.join(d for d in os.environ["PATH"].split(os.pathsep) if d and not os.path.exists(os.path.join(d, "cargo"))))')"
mkdir -p "$work/home3"
if python3 -c 'import sys, zipfile; sys.exit(not any("majiang_native." in n for n in zipfile.ZipFile(sys.argv[1]).namelist()))' "$wheel"; then
  ( cd "$work" && env -u CARGO PATH="$nocargo" HOME="$work/home3" "$work/plain/bin/python" -c '
import shutil, sys
from majiang import native
from majiang.bots import make_agent
assert shutil.which("cargo") is None, "cargo is still on PATH"
assert native.available(), native.unavailable_reason()
assert str(native.library_path()).startswith(sys.prefix), native.library_path()
assert make_agent("expert").native is native, "expert does not take the native engine"
from majiang.core import analysis
assert str(analysis.rust.__file__).startswith(sys.prefix), "the wheel ships no compiled hand analysis"
' && env -u CARGO PATH="$nocargo" HOME="$work/home3" timeout 120 "$work/plain/bin/majiang" arena \
      --variant sichuan --bots expert,greedy,greedy,greedy --games 2 --workers 1 --seed 1 >"$work/fast.log" 2>&1 ) \
    || { echo "smoke: the wheel's native engine does not serve expert without cargo:"; tail -5 "$work/fast.log"; exit 1; }
  if grep -q "runs in Python" "$work/fast.log"; then echo "smoke: expert took the Python engine:"; cat "$work/fast.log"; exit 1; fi
  echo "smoke: the plain install ships the native engine: expert plays on it with no cargo anywhere"
else
  ( cd "$work" && HOME="$work/home3" "$work/plain/bin/majiang" arena --variant kawuxing \
      --bots expert:play=strong,greedy,greedy --games 2 --workers 2 >/dev/null 2>"$work/plain.err" ) \
    || { echo "smoke: an expert arena fails after the plain install:"; tail -5 "$work/plain.err"; exit 1; }
  [ "$(wc -l <"$work/plain.err")" = 1 ] && grep -q "runs in Python" "$work/plain.err" \
    || { echo "smoke: the plain install's arena should say once that expert runs in Python:"; cat "$work/plain.err"; exit 1; }
  echo "smoke: no cargo where the wheel was built, so it has no native engine (expert says so once)"
fi

# The same wheel, installed with the web extra (not editable), serves the page, its static files
# and its database migrations.
python3 -m venv "$work/wheelenv"
"$work/wheelenv/bin/pip" install -q "$wheel[web]" >"$work/pip.log" 2>&1 || { tail -20 "$work/pip.log"; exit 1; }
port2="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')"
mkdir -p "$work/home2"
( cd "$work" && HOME="$work/home2" setsid bash -c "echo \$\$ >'$work/pgid2'; exec '$work/wheelenv/bin/majiang' serve --port $port2" \
    >"$work/wheel.log" 2>&1 ) &
for _ in $(seq 1 120); do
  if python3 -c "import urllib.request,sys; urllib.request.urlopen(sys.argv[1], timeout=5)" "http://127.0.0.1:$port2/" 2>/dev/null; then break; fi
  sleep 0.5
done
"$work/wheelenv/bin/python" "$root/scripts/smoke_check.py" "http://127.0.0.1:$port2" || { tail -30 "$work/wheel.log"; exit 1; }
kill -INT -- "-$(cat "$work/pgid2")" 2>/dev/null || true
for _ in $(seq 1 30); do pgrep -g "$(cat "$work/pgid2")" >/dev/null || break; sleep 0.5; done
echo "smoke: the wheel serves the game (page, static files, migrations)"
