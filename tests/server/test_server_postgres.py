"""The same server code on PostgreSQL: a throwaway cluster started for this module.

Skipped unless Debian's postgresql and the psycopg driver are installed (``.ci/run`` installs both).
"""

import glob
import os
import shutil
import subprocess
import tempfile
import time

import pytest

pytest.importorskip("psycopg")
pytest.importorskip("fastapi")
INITDB = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
if not INITDB or shutil.which("runuser") is None or os.geteuid() != 0:
    pytest.skip("needs Debian's postgresql (and root to run it as the postgres user)", allow_module_level=True)
BIN = os.path.dirname(INITDB[-1])

from fastapi.testclient import TestClient  # noqa: E402

from deadlines import receive_json_within  # noqa: E402
from majiang.server.app import create_app  # noqa: E402
from test_server import make_room, play_to_end, player  # noqa: E402


def as_postgres(*cmd):
    # no pipes: the server started by pg_ctl would hold them open
    return subprocess.run(["runuser", "-u", "postgres", "--", *cmd], check=True, stdout=subprocess.DEVNULL,
                          stderr=subprocess.DEVNULL, timeout=60)


PG: dict = {}


@pytest.fixture(scope="module")
def pg_url():
    yield from cluster("54329")


def cluster(port: str):
    """A throwaway PostgreSQL cluster on ``port`` with the schema upgraded: yields its URL."""
    root = tempfile.mkdtemp(prefix="majiang-pg-")
    os.chmod(root, 0o777)
    data = os.path.join(root, "data")
    as_postgres(f"{BIN}/initdb", "-D", data, "-A", "trust", "-U", "postgres")
    as_postgres(f"{BIN}/pg_ctl", "-D", data, "-l", os.path.join(root, "log"), "-o",
                f"-p {port} -k {root} -c listen_addresses=''", "-w", "start")
    try:
        for _ in range(50):
            r = subprocess.run(["runuser", "-u", "postgres", "--", f"{BIN}/psql", "-h", root, "-p", port,
                                "-c", "CREATE DATABASE majiang"], capture_output=True, text=True, timeout=30)
            if r.returncode == 0:
                break
            time.sleep(0.2)
        url = f"postgresql://postgres@/majiang?host={root}&port={port}"  # as a user would write it
        from majiang.cli.main import main
        from majiang.server.store import SchemaError
        with pytest.raises(SchemaError, match="majiang db upgrade"):
            create_app(url)  # a shared database is upgraded by the deploy step, not by a worker
        assert main(["db", "upgrade", "--db", url]) == 0
        PG["ctl"] = lambda *args: as_postgres(f"{BIN}/pg_ctl", "-D", data, "-l", os.path.join(root, "log"), "-o",
                                              f"-p {port} -k {root} -c listen_addresses=''", "-w", *args)
        yield url
    finally:
        subprocess.run(["runuser", "-u", "postgres", "--", f"{BIN}/pg_ctl", "-D", data, "-m", "immediate", "stop"],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=60)
        shutil.rmtree(root, ignore_errors=True)


def test_whole_hand_and_resume_on_postgresql(pg_url):
    with TestClient(create_app(pg_url, bot_delay=0.0)) as c:
        me = player(c)
        code = make_room(c, me["token"], variant="sichuan")
        c.post(f"/api/rooms/{code}/start", headers={"X-Token": me["token"]})
        with c.websocket_connect(f"/ws/{code}", headers={"X-Token": me["token"]}) as ws:
            final = play_to_end(ws, 0)
        assert sum(final["settlement"]["totals"]) == 0
    # a second server on the same database sees the finished match and its history
    with TestClient(create_app(pg_url, bot_delay=0.0)) as c2:
        assert c2.get(f"/api/rooms/{code}").json()["status"] == "finished"
        assert c2.get("/api/history", headers={"X-Token": me["token"]}).json()[0]["room"] == code


def test_an_action_during_a_database_outage_is_refused_and_the_table_goes_on(pg_url):
    from test_server_guards import first_decision
    with TestClient(create_app(pg_url, bot_delay=0.0)) as c:
        me = player(c)
        code = make_room(c, me["token"], variant="kawuxing")
        c.post(f"/api/rooms/{code}/start", headers={"X-Token": me["token"]})
        with c.websocket_connect(f"/ws/{code}", headers={"X-Token": me["token"]}) as ws:
            snap = first_decision(ws)
            table = c.app.state.tables.live[code]
            events = list(table.game.events)
            PG["ctl"]("-m", "fast", "stop")  # PostgreSQL goes away for a few seconds
            try:
                ws.send_json({"type": "action", "seq": snap["seq"], "action": snap["view"]["legal"][0]})
                reply = receive_json_within(ws, 30)  # (it once hung here for pytest-timeout's 300 s)
                assert reply["type"] == "error" and "could not store" in reply["message"]
                assert table.game.events == events
            finally:
                PG["ctl"]("start")
            ws.send_json({"type": "action", "seq": snap["seq"], "action": snap["view"]["legal"][0]})
            assert receive_json_within(ws, 30)["type"] == "snapshot"
            final = play_to_end(ws, 0)
        assert sum(final["settlement"]["totals"]) == 0
        from test_server_guards import assert_stored_is_played
        assert_stored_is_played(table, code)


def test_a_lease_row_locked_by_a_stalled_worker_stalls_no_other(pg_url):
    """Issue #29: a worker stalled inside a write (here: an open transaction holding its lease row,
    as a journal paused inside ``Store.append`` would) must not freeze another worker asking for
    that table: its event loop answers everything meanwhile (the health check within a bound); the
    stalled lease is not renewed, so its holder steps down after the lease time and the other
    worker takes the table once the row is free."""
    import threading

    from sqlalchemy import create_engine, text

    from majiang.server.db_url import normalise_url

    lease = 2.0
    apps = [create_app(pg_url, bot_delay=0.0, worker_id=w, lease_seconds=lease) for w in ("a", "b")]
    with TestClient(apps[0]) as a, TestClient(apps[1]) as b:
        me = player(a)
        h = {"X-Token": me["token"]}
        code = make_room(a, me["token"], variant="sichuan")
        assert a.post(f"/api/rooms/{code}/start", headers=h).json() == {"status": "playing"}
        assert code in a.app.state.tables.live
        engine = create_engine(normalise_url(pg_url))
        conn = engine.connect()
        tx = conn.begin()
        conn.execute(text("SELECT code FROM table_leases WHERE code = :c FOR UPDATE"), {"c": code})
        answers: list = []

        def watch():  # a client of this room reached b: b asks for the table
            with b.websocket_connect(f"/ws/{code}", headers=h) as ws:
                answers.append(ws.receive_json())

        asking = threading.Thread(target=watch, daemon=True)
        try:
            asking.start()
            slowest = 0.0
            t_end = time.monotonic() + lease + 1.5
            while time.monotonic() < t_end:
                took: list = []
                t0 = time.monotonic()
                check = threading.Thread(target=lambda: took.append(b.get("/api/server").status_code), daemon=True)
                check.start()
                check.join(timeout=3.0)
                slowest = max(slowest, time.monotonic() - t0)
                assert took == [200], "b's event loop is stalled on the locked lease row"
                time.sleep(0.2)
            assert slowest < 1.0
            assert code not in a.app.state.tables.live  # a could not renew: it stepped down
        finally:
            tx.rollback()  # the stalled worker's transaction ends (PostgreSQL ends it after the lease time)
            conn.close()
            engine.dispose()
            asking.join(timeout=lease + 5)  # before the clients close: its socket ends first
        assert answers and answers[0]["type"] == "snapshot", answers
        assert b.app.state.store.lease_of(code)["worker"] == "b" and code in b.app.state.tables.live
