"""Many workers on one database, in one process: each live table is driven by the one worker that
holds its lease; another worker asks for it and gets it handed over; a worker whose lease was taken
can store nothing more. (Worker processes behind HAProxy: tests/server/test_server_workers.py.)"""

import time

import pytest

pytest.importorskip("fastapi")

from fastapi.testclient import TestClient  # noqa: E402
from starlette.websockets import WebSocketDisconnect  # noqa: E402

from majiang.server.app import create_app  # noqa: E402
from test_server import make_room, play_to_end, player  # noqa: E402
from test_server_guards import assert_stored_is_played, first_decision  # noqa: E402

LEASE = 1.2


@pytest.fixture
def workers(tmp_path):
    url = f"sqlite:///{tmp_path / 'shared'}.sqlite3"
    apps = [TestClient(create_app(url, bot_delay=0.0, worker_id=w, lease_seconds=LEASE)) for w in ("a", "b")]
    for c in apps:
        c.__enter__()
    yield apps
    for c in apps:
        c.__exit__(None, None, None)


def test_a_table_moves_to_the_worker_that_asks_and_plays_on_there(workers):
    a, b = workers
    me = player(a)
    h = {"X-Token": me["token"]}
    code = make_room(a, me["token"], variant="sichuan")  # any worker makes rooms and serves the lobby
    assert b.get(f"/api/rooms/{code}").json()["status"] == "lobby"
    assert a.post(f"/api/rooms/{code}/start", headers=h).json() == {"status": "playing"}
    assert a.app.state.store.lease_of(code)["worker"] == "a"
    with a.websocket_connect(f"/ws/{code}", headers=h) as ws_a:
        snap = first_decision(ws_a)
        ws_a.send_json({"type": "action", "seq": snap["seq"], "action": snap["view"]["legal"][0]})
        played = None
        while played is None or played["seq"] == snap["seq"] and played["view"]["legal"]:
            played = ws_a.receive_json()
        events = list(a.app.state.tables.live[code].game.events)
        t0 = time.monotonic()
        with b.websocket_connect(f"/ws/{code}", headers=h) as ws_b:  # b waits for a to hand it over
            first = ws_b.receive_json()
            waited = time.monotonic() - t0
            assert first["type"] == "snapshot" and waited < LEASE + 3  # a hand-over, not an expiry
            assert code not in a.app.state.tables.live and a.app.state.store.lease_of(code)["worker"] == "b"
            with pytest.raises(WebSocketDisconnect):  # a closed its socket: the page reconnects (to b)
                for _ in range(100):
                    ws_a.receive_json()
            table = b.app.state.tables.live[code]
            assert table.game.events[:len(events)] == events  # resumed from the log: nothing lost
            final = play_to_end(ws_b, 0) if first["settlement"] is None else first
        assert sum(final["settlement"]["totals"]) == 0
        assert_stored_is_played(table, code)
    assert a.get("/api/history", headers=h).json()[0]["room"] == code  # history from any worker


def test_a_worker_whose_lease_was_taken_stores_nothing_more(workers):
    a, b = workers
    me = player(a)
    h = {"X-Token": me["token"]}
    code = make_room(a, me["token"], variant="kawuxing")
    a.post(f"/api/rooms/{code}/start", headers=h)
    with a.websocket_connect(f"/ws/{code}", headers=h) as ws:
        snap = first_decision(ws)
        table = a.app.state.tables.live[code]
        events = list(table.game.events)
        stored = a.app.state.store.games_of(code)[-1]["records"]
        with b.app.state.store.engine.begin() as conn:  # as if a had stalled past its lease and b took it
            conn.exec_driver_sql("UPDATE table_leases SET worker = 'b' WHERE code = ?", (code,))
        ws.send_json({"type": "action", "seq": snap["seq"], "action": snap["view"]["legal"][0]})
        reply = ws.receive_json()
        assert reply["type"] == "error" and "could not store" in reply["message"]
        assert table.game.events == events and a.app.state.store.games_of(code)[-1]["records"] == stored
        deadline = time.monotonic() + 3 * LEASE
        while code in a.app.state.tables.live and time.monotonic() < deadline:
            time.sleep(0.05)
        assert code not in a.app.state.tables.live and table.closed  # no second driver left behind


def test_a_worker_shut_down_gives_its_tables_up_at_once(workers):
    a, b = workers
    me = player(a)
    h = {"X-Token": me["token"]}
    code = make_room(a, me["token"], variant="sichuan")
    a.post(f"/api/rooms/{code}/start", headers=h)
    assert a.app.state.store.lease_of(code)["worker"] == "a"
    a.__exit__(None, None, None)  # a clean stop releases every lease
    assert a.app.state.store.lease_of(code) is None
    a.__enter__()
    assert b.app.state.tables.get(code) is not None  # taken at once: no waiting for an expiry
    assert b.app.state.store.lease_of(code)["worker"] == "b"
    with b.websocket_connect(f"/ws/{code}", headers=h) as ws:
        assert ws.receive_json()["type"] == "snapshot"


def slowed_obtain(tables, delays: list[float]):
    """``tables.obtain`` that first waits ``delays.pop(0)`` seconds (while there are any): the wait
    a join has on a worker that does not hold the table yet."""
    import asyncio
    real = tables.obtain

    async def obtain(code, wait=None):
        if delays:
            await asyncio.sleep(delays.pop(0))
        return await real(code, wait)
    tables.obtain = obtain


def test_joins_that_waited_for_the_table_never_write_stale_seats(tmp_path):
    """Issue #29: two joins that both waited for the table get two seats (or one is refused), and a
    join that waited while the host started is refused: the room is read again after the wait."""
    import threading
    c = TestClient(create_app(f"sqlite:///{tmp_path / 'j'}.sqlite3", bot_delay=0.0, worker_id="a",
                              lease_seconds=LEASE))
    with c:
        host, ana, bo = player(c, "host"), player(c, "ana"), player(c, "bo")
        code = make_room(c, host["token"], variant="kawuxing")
        slowed_obtain(c.app.state.tables, [0.5, 0.5])
        answers: dict = {}

        def join(who, room):
            answers[who["name"]] = c.post(f"/api/rooms/{room}/join", headers={"X-Token": who["token"]})
        threads = [threading.Thread(target=join, args=(p, code)) for p in (ana, bo)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=20)
        seats = sorted(r.json()["seat"] for r in answers.values() if r.status_code == 200)
        assert seats == [1, 2], {k: r.text for k, r in answers.items()}
        stored = c.get(f"/api/rooms/{code}").json()["seats"]
        assert sorted(s["name"] for s in stored) == ["ana", "bo", "host"]

        late = make_room(c, host["token"], variant="kawuxing")
        slowed_obtain(c.app.state.tables, [1.0])
        t = threading.Thread(target=join, args=(ana, late))
        t.start()
        time.sleep(0.3)  # the join waits for the table ...
        assert c.post(f"/api/rooms/{late}/start", headers={"X-Token": host["token"]}).json() == {"status": "playing"}
        t.join(timeout=20)  # ... and finds the match started: a bot's seat from the next hand, not this one's
        assert answers["ana"].json() == {"seat": 1, "next_hand": True}, answers["ana"].text
        room = c.get(f"/api/rooms/{late}").json()
        assert [s["taken"] for s in room["seats"]] == [True, False, False]
