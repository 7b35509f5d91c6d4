#!/usr/bin/env bash
# Run the README's first command exactly as written, in a throwaway copy of this checkout (its own
# .venv, a fresh HOME for the SQLite file), then check the game it serves (scripts/smoke_check.py),
# stop it and make sure nothing it started is left running. A dependency the first command lacks
# fails here, not on a new user's machine. Prints how long each step took.
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
( cd "$work/majiang" && HOME="$work/home" MAJIANG_PORT="$port" PIP_DISABLE_PIP_VERSION_CHECK=1 \
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

# The plain install (no extras, not editable): every command documented without an extra works.
python3 -m venv "$work/plain"
"$work/plain/bin/pip" install -q "$work/majiang" >"$work/pip.log" 2>&1 || { tail -20 "$work/pip.log"; exit 1; }
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

# A built wheel, installed with the web extra (not editable), serves the page, its static files and
# its database migrations.
"$work/plain/bin/pip" wheel -q --no-deps -w "$work/wheel" "$work/majiang" >"$work/pip.log" 2>&1 \
  || { tail -20 "$work/pip.log"; exit 1; }
python3 -m venv "$work/wheelenv"
"$work/wheelenv/bin/pip" install -q "$(ls "$work"/wheel/*.whl)[web]" >"$work/pip.log" 2>&1 || { tail -20 "$work/pip.log"; exit 1; }
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
