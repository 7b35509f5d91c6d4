#!/usr/bin/env bash
# Try the production shape on one machine: a throwaway PostgreSQL, the schema upgrade (the deploy
# step), two workers sharing the database, and HAProxy sending each room to one worker
# (deploy/haproxy.cfg). Open the printed address; Ctrl-C stops everything and deletes the database.
#
#   deploy/run-local.sh                      # router on 127.0.0.1:8000, workers on 8001 and 8002
#   PORT=9000 SERVE_ARGS="--bot-delay 0.2" deploy/run-local.sh
#   MAJIANG_TLS="ssl crt /path/site.pem" deploy/run-local.sh   # the router speaks https
#
# Needs PostgreSQL's server binaries (Debian: apt-get install postgresql), haproxy (2.6 or newer)
# and majiang with its web and postgres extras at the locked releases
# (pip install -c requirements/server.lock -e '.[web,postgres]'). Run as root,
# PostgreSQL runs as the postgres user. Kill a worker (kill -9 <pid>, printed below) to watch its
# rooms move to the other one; start it again with the printed command.
set -euo pipefail

PYTHON=${PYTHON:-python3}
PORT=${PORT:-8000}
W1_PORT=${W1_PORT:-8001}
W2_PORT=${W2_PORT:-8002}
PGPORT=${PGPORT:-54330}
SERVE_ARGS=${SERVE_ARGS:-}
HERE=$(cd "$(dirname "$0")" && pwd)

PGBIN=${PGBIN:-$( (pg_config --bindir 2>/dev/null || ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1) )}
[ -x "$PGBIN/initdb" ] || { echo "run-local: PostgreSQL's initdb not found (set PGBIN)" >&2; exit 1; }
command -v haproxy >/dev/null || { echo "run-local: haproxy not found" >&2; exit 1; }

RUN=$(mktemp -d /tmp/majiang-local-XXXXXX)
chmod 777 "$RUN"
as_pg() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
PIDS=()
cleanup() {
    trap - EXIT
    trap "" INT TERM  # a second signal (Ctrl-C twice, timeout(1)) must not cut the cleanup short
    for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
    for pid in "${PIDS[@]}"; do wait "$pid" 2>/dev/null || true; done
    as_pg "$PGBIN/pg_ctl" -D "$RUN/pg" -m fast stop >/dev/null 2>&1 || true
    rm -rf "$RUN"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

as_pg "$PGBIN/initdb" -D "$RUN/pg" -A trust -U postgres >/dev/null
as_pg "$PGBIN/pg_ctl" -D "$RUN/pg" -l "$RUN/postgres.log" -o "-p $PGPORT -k $RUN -c listen_addresses=''" -w start >/dev/null
as_pg "$PGBIN/psql" -q -h "$RUN" -p "$PGPORT" -U postgres -c "CREATE DATABASE majiang" >/dev/null
URL="postgresql://postgres@/majiang?host=$RUN&port=$PGPORT"

"$PYTHON" -m majiang db upgrade --db "$URL"   # the deploy step: once, before the workers start

wait_port() {
    for _ in $(seq 100); do
        (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null && return 0
        sleep 0.1
    done
    echo "run-local: nothing listens on port $1" >&2; return 1
}
for i in 1 2; do
    port_var=W${i}_PORT
    cmd=("$PYTHON" -m majiang serve --port "${!port_var}" --db "$URL" --worker-id "w$i")
    read -ra extra <<<"$SERVE_ARGS"
    cmd+=("${extra[@]}")
    "${cmd[@]}" >"$RUN/w$i.log" 2>&1 &
    PIDS+=($!)
    echo "run-local: worker w$i pid $! port ${!port_var} (log $RUN/w$i.log; restart: ${cmd[*]@Q})"
done
wait_port "$W1_PORT"
wait_port "$W2_PORT"

MAJIANG_TLS=${MAJIANG_TLS:-} MAJIANG_BIND=127.0.0.1:$PORT MAJIANG_WORKER1=127.0.0.1:$W1_PORT MAJIANG_WORKER2=127.0.0.1:$W2_PORT \
    haproxy -db -f "$HERE/haproxy.cfg" >"$RUN/haproxy.log" 2>&1 &
PIDS+=($!)
echo "run-local: router pid $! (log $RUN/haproxy.log)"
wait_port "$PORT"
echo "run-local: database $URL"
echo "run-local: open http${MAJIANG_TLS:+s}://127.0.0.1:$PORT/ (Ctrl-C stops everything)"
wait
