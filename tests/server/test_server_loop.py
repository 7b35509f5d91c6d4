"""Nothing blocks the event loop, on PostgreSQL (the deployment many workers share): one table's
write held for seconds leaves another table's round trips fast, and a worker whose database is
slow keeps renewing its leases, or steps down cleanly when it cannot.

Skipped unless Debian's postgresql and the psycopg driver are installed (as test_server_postgres).
"""

from __future__ import annotations

import socket
import threading
import time

import pytest
from fastapi.testclient import TestClient  # noqa: E402
from sqlalchemy import create_engine, text  # noqa: E402

from majiang.server.app import create_app  # noqa: E402
from majiang.server.db_url import normalise_url  # noqa: E402
from majiang.server.presence import Connection  # noqa: E402
from majiang.server.store_async import AsyncStore  # noqa: E402
from test_server import make_room, player  # noqa: E402
from test_server_postgres import cluster  # noqa: E402 (skips this module too when PostgreSQL is missing)


def free_port() -> str:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return str(s.getsockname()[1])


@pytest.fixture(scope="module")
def pg():
    yield from cluster(free_port())


class Held:
    """Another session holding rows (or a table) locked until ``release``."""

    def __init__(self, url: str, sql: str, params: dict | None = None) -> None:
        self.engine = create_engine(normalise_url(url))
        self.conn = self.engine.connect()
        self.tx = self.conn.begin()
        self.conn.execute(text(sql), params or {})
        self.since = time.monotonic()

    def release(self) -> float:
        self.tx.rollback()
        self.conn.close()
        self.engine.dispose()
        return time.monotonic() - self.since


def round_trips(ws, count: int) -> list[float]:
    """Answer ``count`` decisions with their first legal action, timing each from the send to the
    first frame after it (the action stored and fanned out); 准备 between hands."""
    took: list[float] = []
    sent_at = None
    while len(took) < count:
        msg = ws.receive_json()
        assert msg["type"] != "error", msg
        if msg["type"] != "snapshot":
            continue
        if sent_at is not None:
            took.append(time.monotonic() - sent_at)
            sent_at = None
        if msg["settlement"] is not None and not msg["you"]["ready"]:
            ws.send_json({"type": "ready"})
        elif msg["view"] and msg["view"].get("legal"):
            legal = msg["view"]["legal"]
            action = next((a for a in legal if a["type"] == "win"), legal[0])
            sent_at = time.monotonic()
            ws.send_json({"type": "action", "seq": msg["seq"], "action": action})
    return took


def test_one_tables_held_write_leaves_another_tables_round_trips_fast(pg, monkeypatch):
    from majiang.server.security import Bucket

    # this client answers as fast as the server does: past a player's message budget
    monkeypatch.setattr(Bucket.__init__, "__defaults__", (1000.0, 1000.0, 1e6, 1e6))
    app = create_app(pg, bot_delay=0.0, worker_id="w1")
    with TestClient(app) as c:
        a, b = player(c, "a"), player(c, "b")
        held_code = make_room(c, a["token"], variant="sichuan", hands=8)
        # enough hands that the match outlasts every round trip below (a fast box answers hundreds in 3 s)
        code = make_room(c, b["token"], variant="sichuan", hands=64)
        for room, who in ((held_code, a), (code, b)):
            assert c.post(f"/api/rooms/{room}/start", headers={"X-Token": who["token"]}).json()["status"] == "playing"
        held_table = c.app.state.tables.live[held_code]

        async def attend():  # its player is there, in 托管: its bots keep trying to write
            async def shown(message):
                pass
            held_table.connect(Connection(shown, 0, a["id"]))
            await held_table.set_auto(0, True)

        c.portal.call(attend)
        while len(held_table.game.events) < 5:
            time.sleep(0.05)
        with c.websocket_connect(f"/ws/{code}", headers={"X-Token": b["token"]}) as ws:
            calm = sorted(round_trips(ws, 20))  # before: the same round trips with nothing held
            hold = Held(pg, "SELECT code FROM table_leases WHERE code = :c FOR UPDATE", {"c": held_code})
            try:
                time.sleep(0.5)  # the held table's next write is waiting on its row by now
                stuck_at = len(held_table.game.events)
                took = round_trips(ws, 50)
                while time.monotonic() - hold.since < 3.0:  # held for several seconds in all
                    took += round_trips(ws, 1)
                assert len(held_table.game.events) <= stuck_at + 1  # nothing of it was stored meanwhile
            finally:
                held_for = hold.release()
        took.sort()
        p99 = took[int(len(took) * 0.99) - 1]
        print(f"nothing held: median {calm[10] * 1000:.1f} ms, max {calm[-1] * 1000:.1f} ms")
        print(f"held {held_for:.1f} s; {len(took)} round trips: median {took[len(took) // 2] * 1000:.1f} ms, "
              f"p99 {p99 * 1000:.1f} ms, max {took[-1] * 1000:.1f} ms")
        # a loop blocked by the held write would show the whole hold (seconds); 100 ms at p99 is the
        # bound the issue names, kept with room for a loaded two-core box
        assert held_for >= 3.0 and p99 < min(0.25, held_for / 10), (p99, took[-5:])


def test_a_worker_whose_database_is_slow_keeps_renewing_its_leases_or_steps_down(pg):
    lease = 1.0
    app = create_app(pg, bot_delay=0.0, worker_id="w2", lease_seconds=lease)
    with TestClient(app) as c:
        me = player(c)
        h = {"X-Token": me["token"]}
        code = make_room(c, me["token"], variant="sichuan")
        c.post(f"/api/rooms/{code}/start", headers=h)
        store, tables = c.app.state.store, c.app.state.tables
        assert code in tables.live
        # slow queries fill the store's whole pool: the renewals have a thread and a connection of their own
        aio = AsyncStore.shared(store)

        def slow():
            with store.engine.connect() as conn:
                conn.execute(text("SELECT pg_sleep(3)"))

        busy = [aio._pool.submit(slow) for _ in range(aio.threads)]
        before = store.lease_of(code)["expires"]
        time.sleep(2.0)
        assert not all(f.done() for f in busy)  # still stalled
        assert store.lease_of(code)["expires"] > before + 1.0 and code in tables.live  # renewed on time
        t0 = time.monotonic()
        assert c.get("/api/server").status_code == 200 and time.monotonic() - t0 < 0.5  # the loop answers
        for f in busy:
            f.result(timeout=10)

        # the lease table itself locked away: no renewal can reach it, so the worker steps down
        kicked = threading.Event()

        def watch():
            with c.websocket_connect(f"/ws/{code}", headers=h) as ws:
                try:
                    while True:
                        ws.receive_json()
                except Exception:  # noqa: BLE001 - closed: the worker stepped down from the table
                    kicked.set()

        watcher = threading.Thread(target=watch, daemon=True)
        watcher.start()
        time.sleep(0.5)
        hold = Held(pg, "LOCK TABLE table_leases IN ACCESS EXCLUSIVE MODE")
        try:
            end = time.monotonic() + lease + 4.0
            while code in tables.live and time.monotonic() < end:
                t0 = time.monotonic()
                assert c.get("/api/server").status_code == 200
                assert time.monotonic() - t0 < 0.5  # the loop answers while the renewals wait
                time.sleep(0.1)
            assert code not in tables.live  # stepped down
            assert kicked.wait(5.0)  # its sockets were closed: they reconnect (through the router)
        finally:
            hold.release()
        watcher.join(timeout=5)
        # the database is back: the table is taken again and plays on from what was stored
        with c.websocket_connect(f"/ws/{code}", headers=h) as ws:
            msg = ws.receive_json()
            while msg["type"] != "snapshot":
                msg = ws.receive_json()
        assert code in tables.live and store.lease_of(code)["worker"] == "w2"

