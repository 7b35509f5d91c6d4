"""The server's guards (issue #13): bounded and validated input, the session cookie and origin
checks, limits a public server needs, durable acknowledgements, decision timers and 托管, ready-up,
renaming. Each test pins one finding; the browser-side ones are in test_e2e.py."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import shutil
import subprocess
import time

import pytest

pytest.importorskip("fastapi")
from fastapi.testclient import TestClient  # noqa: E402
from sqlalchemy.exc import OperationalError  # noqa: E402

from majiang.server.app import MAX_OPEN_ROOMS, create_app  # noqa: E402
from majiang.server.clock import TableSettings  # noqa: E402
from majiang.server.store import Store, StoreError  # noqa: E402
from serving import serving  # noqa: E402
from test_server import _OPEN, _close_clients, make_room, play_to_end, player  # noqa: E402, F401


def client(tmp_path, **kw):
    """One event loop for all the client's sockets (see ``test_server.client``)."""
    c = TestClient(create_app(f"sqlite:///{tmp_path / 'g'}.sqlite3", bot_delay=0.0, **kw))
    c.__enter__()
    _OPEN.append(c)
    return c


def first_decision(ws):
    snap = ws.receive_json()
    while not (snap.get("view") and snap["view"].get("legal")):
        snap = ws.receive_json()
    return snap


# -- bounded, validated input -----------------------------------------------------------------

def test_http_bad_input_is_a_4xx_never_a_500(tmp_path):
    c = client(tmp_path)
    me = player(c)
    h = {"X-Token": me["token"]}
    bad_rooms = [
        {"variant": "sichuan", "options": {"variant": "kawuxing"}},
        {"variant": "sichuan", "options": {"preset": "modern"}},
        {"variant": ["sichuan"]},
        {"variant": {"x": 1}},
        {"variant": "sichuan", "preset": ["chengdu"]},
        {"variant": "sichuan", "stake": float("inf")},
        {"variant": "sichuan", "hands": 1e300},
        {"variant": "sichuan", "hands": True},
        {"variant": "sichuan", "options": {"cap_fan": [1, 2]}},
        {"variant": "sichuan", "options": {"Cap": 3}},
        {"variant": "sichuan", "options": {"cap_fan": "x" * 5000}},
        {"variant": "sichuan", "options": [1]},
        {"variant": "sichuan", "timers": {"turn_seconds": 0}},
        {"variant": "sichuan", "timers": {"nap": 5}},
        {"variant": "sichuan", "bots": ["strong"]},
    ]
    for data in bad_rooms:
        r = c.post("/api/rooms", content=json.dumps(data), headers={**h, "Content-Type": "application/json"})
        assert 400 <= r.status_code < 500, (data, r.status_code, r.text)
        assert "x" * 100 not in r.text  # nothing sent is echoed back at length
    assert c.get("/static/" + "a" * 5000 + ".js").status_code == 404
    assert c.get("/static/..%2Fapp.py").status_code == 404
    assert c.get("/api/rooms/" + "A" * 5000).status_code == 404
    assert c.get("/api/analyze", params={"hand": "1" * 5000, "variant": "kawuxing"}).status_code == 400
    assert c.get("/api/history", params={"before": "inf"}, headers=h).status_code == 400
    deep = "[" * 100000 + "]" * 100000
    assert c.post("/api/players", content=deep, headers={"Content-Type": "application/json"}).status_code in (400, 413)
    r = c.get("/api/history", params={"limit": "<script>"}, headers=h)
    assert r.status_code == 422 and "<script>" not in r.text  # the framework's errors do not echo either
    assert c.post("/api/players", content=b"x" * 100_000).status_code == 413


@pytest.mark.parametrize("name", ["a\u202eevil", "bell\x07", "new\nline", "zero\u200bwidth", "", " " * 5, "x" * 25, 7,
                                  "\u3164", "\u2800", "a" + "\u0301" * 23])
def test_names_are_printable_text(tmp_path, name):
    c = client(tmp_path)
    assert c.post("/api/players", json={"name": name}).status_code == 400


def test_websocket_input_is_bounded_and_never_echoed(tmp_path):
    c = client(tmp_path)
    me = player(c)
    code = make_room(c, me["token"])
    c.post(f"/api/rooms/{code}/start", headers={"X-Token": me["token"]})
    with c.websocket_connect(f"/ws/{code}", headers={"X-Token": me["token"]}) as ws:
        snap = first_decision(ws)
        huge = json.dumps({"type": "action", "action": {"type": "discard", "tile": "1p" * 5_000_000}})
        ws.send_text(huge)
        reply = ws.receive_json()
        assert reply["type"] == "error" and "too large" in reply["message"] and len(json.dumps(reply)) < 200
        ws.send_text("[" * 1020 + "]" * 1020)  # deeper than the parser goes
        assert ws.receive_json()["message"] == "messages are JSON objects"
        ws.send_bytes(b"\x00\x01binary")
        assert "binary" in ws.receive_json()["message"]
        ws.send_json({"type": "action", "seq": snap["seq"], "action": {"type": "discard", "tile": "<script>" * 3}})
        reply = ws.receive_json()
        assert "bad tile" in reply["message"] and "<script>" not in reply["message"]
        ws.send_json({"type": "<b>" * 50})
        reply = ws.receive_json()
        assert "unknown message type" in reply["message"] and "<b>" not in reply["message"]
        ws.send_json({"type": "ping"})
        assert ws.receive_json() == {"type": "pong"}  # the socket is still there
        # and the decision is still open, unchanged
        ws.send_json({"type": "action", "seq": snap["seq"], "action": snap["view"]["legal"][0]})
        assert ws.receive_json()["type"] == "snapshot"


# -- tokens, cookies, headers, origins ----------------------------------------------------------

def test_the_token_is_an_httponly_cookie_and_pages_get_a_strict_policy(tmp_path):
    c = client(tmp_path)
    r = c.post("/api/players", json={"name": "ana"})
    cookie = r.headers["set-cookie"]
    assert "majiang_token=" in cookie and "HttpOnly" in cookie
    assert "SameSite=strict" in cookie.replace("Strict", "strict")
    assert c.get("/api/me").json()["name"] == "ana"  # the cookie alone says who you are
    page = c.get("/")
    csp = page.headers["content-security-policy"]
    assert "script-src 'self'" in csp and "frame-ancestors 'none'" in csp and "unsafe-inline" not in csp
    assert page.headers["x-content-type-options"] == "nosniff" and page.headers["referrer-policy"] == "no-referrer"
    script = c.get("/static/app.js").headers  # a subresource: no policy of its own (it would do nothing)
    assert script["x-content-type-options"] == "nosniff" and "content-security-policy" not in script
    assert c.get("/static/nothing.svg").headers["content-security-policy"] == csp  # anything else keeps it
    assert "onclick=" not in page.text and "<script>" not in page.text.replace("<script src=", "")
    js = c.get("/static/app.js").text
    assert "localStorage.setItem(\"majiang.token\"" not in js and "?token=" not in js


def test_the_opener_policy_goes_only_to_origins_a_browser_trusts(tmp_path):
    """Cross-Origin-Opener-Policy is honoured only from https or localhost: a LAN address over http
    would have it reported as ignored on every load, so it is not sent there (issue 47)."""
    c = client(tmp_path)
    coop = "cross-origin-opener-policy"
    assert coop not in c.get("/", headers={"host": "192.168.1.20:8000"}).headers
    assert coop not in c.get("/static/app.js", headers={"host": "mahjong.lan"}).headers
    assert c.get("/", headers={"host": "localhost:8000"}).headers[coop] == "same-origin"
    assert c.get("/", headers={"host": "127.0.0.1:8000"}).headers[coop] == "same-origin"
    assert c.get("/", headers={"host": "[::1]:8000"}).headers[coop] == "same-origin"
    assert c.get("/", headers={"host": "mahjong.example", "x-forwarded-proto": "https"}).headers[coop] == "same-origin"
    # the guard's own refusals too
    assert coop not in c.get("/api/rooms/NOPE%41", headers={"host": "192.168.1.20"}).headers
    assert c.get("/api/rooms/NOPE%41", headers={"host": "localhost"}).headers[coop] == "same-origin"
    https = TestClient(c.app, base_url="https://mahjong.example")
    assert https.get("/").headers[coop] == "same-origin"


def test_other_sites_cannot_use_the_cookie(tmp_path):
    c = client(tmp_path)
    me = player(c)
    code = make_room(c, me["token"])
    evil = {"Origin": "https://evil.example", "X-Token": me["token"]}
    assert c.post(f"/api/rooms/{code}/start", headers=evil).status_code == 403
    assert c.post("/api/rooms", json={"variant": "sichuan"}, headers=evil).status_code == 403
    from starlette.websockets import WebSocketDisconnect
    with pytest.raises(WebSocketDisconnect):
        with c.websocket_connect(f"/ws/{code}", headers=evil) as ws:
            ws.receive_json()
    ok = {"Origin": "http://testserver", "X-Token": me["token"]}
    with c.websocket_connect(f"/ws/{code}", headers=ok) as ws:
        assert ws.receive_json()["seat"] == 0


def test_a_request_crosses_to_a_thread_only_to_read_the_database(tmp_path, monkeypatch):
    """FastAPI runs a plain ``def`` dependency in its thread pool: only the one that reads the
    database (the token's player) is one; the origin check and the server's state run on the loop."""
    import fastapi.dependencies.utils as dependencies

    hops, real = [], dependencies.run_in_threadpool

    async def counting(call, *args, **kwargs):
        hops.append(call.__name__)
        return await real(call, *args, **kwargs)

    monkeypatch.setattr(dependencies, "run_in_threadpool", counting)
    c = client(tmp_path)
    me = player(c)
    code = make_room(c, me["token"])
    hops.clear()
    assert c.post(f"/api/rooms/{code}/ready", headers={"X-Token": me["token"]}).status_code == 200
    assert hops == ["optional_player"]


def test_sign_in_with_a_token_and_rename_keeps_the_history(tmp_path):
    c = client(tmp_path)
    me = player(c, "old name")
    code = make_room(c, me["token"])
    r = c.post("/api/session", json={"token": me["token"]})
    assert r.json() == {"id": me["id"], "name": "old name"} and "majiang_token" in r.headers["set-cookie"]
    assert c.post("/api/me", json={"name": "新名字"}).json() == {"id": me["id"], "name": "新名字"}
    hist = c.get("/api/history").json()
    assert [h["room"] for h in hist] == [code]
    assert c.post("/api/session", json={"token": "guess"}).status_code == 401


# -- limits ------------------------------------------------------------------------------------

def test_rooms_per_host_are_limited(tmp_path):
    c = client(tmp_path)
    me = player(c)
    for _ in range(MAX_OPEN_ROOMS):
        make_room(c, me["token"])
    r = c.post("/api/rooms", json={"variant": "sichuan"}, headers={"X-Token": me["token"]})
    assert r.status_code == 429 and "unfinished" in r.json()["error"]


def test_history_is_paginated(tmp_path):
    store = Store(f"sqlite:///{tmp_path / 'h'}.sqlite3")
    host = {"id": "p1", "name": "ana"}
    codes = []
    for _ in range(25):
        seats = [{"player": "p1", "name": "ana", "bot": None}] + [{"player": None, "name": None, "bot": "greedy"}] * 2
        codes.append(store.create_room("kawuxing", {"variant": "kawuxing"}, 1, 1, host, seats))
        time.sleep(0.002)
    first = store.history("p1", limit=10)
    second = store.history("p1", before=first[-1]["created"], limit=10)
    third = store.history("p1", before=second[-1]["created"], limit=10)
    assert [r["room"] for r in first + second + third] == codes[::-1]
    with store.engine.connect() as conn:  # the page is read through the player's index
        plan = " ".join(str(r) for r in conn.exec_driver_sql(
            "EXPLAIN QUERY PLAN SELECT room FROM room_players WHERE player = 'p1' ORDER BY created DESC LIMIT 10"))
    assert "ix_room_players_player_created" in plan


def test_a_table_with_no_connected_human_pauses_and_idle_tables_leave_memory(tmp_path):
    with contextlib.nullcontext(client(tmp_path)) as c:
        me = player(c)
        code = make_room(c, me["token"], variant="sichuan")
        c.post(f"/api/rooms/{code}/start", headers={"X-Token": me["token"]})
        time.sleep(0.5)  # nobody is at the table: the bots do not play it
        table = c.app.state.tables.live[code]
        before = len(table.game.events)
        time.sleep(0.5)
        assert len(table.game.events) == before and table.paused
        tables = c.app.state.tables
        assert tables.evict_idle(now=time.time() + 3600) == [code] and code not in tables.live
        with c.websocket_connect(f"/ws/{code}", headers={"X-Token": me["token"]}) as ws:
            final = play_to_end(ws, 0)  # it comes back from the store and plays on
        assert final["settlement"] is not None


# -- durability --------------------------------------------------------------------------------

def failing_saves(table, count):
    """Make the next ``count`` stores of the table's actions fail as a full disk would."""
    real = table.store.append
    state = {"left": count}

    def save(batch):
        if state["left"] > 0:
            state["left"] -= 1
            with table.store._write():
                raise OperationalError("INSERT", {}, Exception("database or disk is full"))
        return real(batch)

    table.store.append = save
    return state


def assert_stored_is_played(table, code):
    """What the table has played is exactly what is stored (read once the table is still: a bot's
    move may be between its apply and its store at any single instant)."""
    for _ in range(100):
        events = list(table.game.events)
        stored = table.store.games_of(code)[-1]["records"][1:]
        if stored == events and not table.lock.locked():
            return
        time.sleep(0.05)
    assert stored == events


def test_an_action_that_cannot_be_stored_is_refused_and_changes_nothing(tmp_path):
    with contextlib.nullcontext(client(tmp_path)) as c:
        me = player(c)
        code = make_room(c, me["token"])
        c.post(f"/api/rooms/{code}/start", headers={"X-Token": me["token"]})
        with c.websocket_connect(f"/ws/{code}", headers={"X-Token": me["token"]}) as ws:
            snap = first_decision(ws)
            table = c.app.state.tables.live[code]
            events = list(table.game.events)
            failing_saves(table, 1)
            action = snap["view"]["legal"][0]
            ws.send_json({"type": "action", "seq": snap["seq"], "action": action})
            reply = ws.receive_json()
            assert reply["type"] == "error" and "could not store" in reply["message"]
            assert table.game.events == events  # the game is as it was stored
            assert table.clock.decision_no[0] == snap["seq"]  # the same decision, still open
            ws.send_json({"type": "action", "seq": snap["seq"], "action": action})  # the retry is taken
            after = ws.receive_json()
            assert after["type"] == "snapshot" and len(table.game.events) > len(events)
        assert_stored_is_played(table, code)  # what was acknowledged is exactly what is stored


def test_bots_wait_out_a_database_outage(tmp_path):
    with contextlib.nullcontext(client(tmp_path)) as c:
        me, friend = player(c), player(c, "friend")
        code = make_room(c, me["token"], variant="sichuan")
        c.post(f"/api/rooms/{code}/join", headers={"X-Token": friend["token"]})
        c.post(f"/api/rooms/{code}/ready", headers={"X-Token": friend["token"]})  # 准备
        c.post(f"/api/rooms/{code}/start", headers={"X-Token": me["token"]})
        table = c.app.state.tables.get(code)
        state = failing_saves(table, 3)  # the next three stores fail: bots retry, then go on
        with c.websocket_connect(f"/ws/{code}", headers={"X-Token": me["token"]}) as ws:
            final = play_to_end(ws, 0)
        assert state["left"] == 0 and final["settlement"] is not None
        assert_stored_is_played(table, code)


def test_the_last_hand_and_the_rooms_end_are_one_write(tmp_path):
    with contextlib.nullcontext(client(tmp_path)) as c:
        me = player(c)
        code = make_room(c, me["token"], variant="kawuxing", hands=1)
        c.post(f"/api/rooms/{code}/start", headers={"X-Token": me["token"]})
        table = c.app.state.tables.get(code)
        calls = []
        real = table.store.append

        def save(batch):
            calls.extend(item.room_status for item in batch)
            return real(batch)

        table.store.append = save
        with c.websocket_connect(f"/ws/{code}", headers={"X-Token": me["token"]}) as ws:
            play_to_end(ws, 0)
        assert calls[-1] == "finished" and calls.count("finished") == 1
        assert table.store.room(code)["status"] == "finished"


def test_a_full_disk_refuses_the_action_and_the_table_goes_on_after(tmp_path):
    mount = tmp_path / "small"
    mount.mkdir()
    if shutil.which("mount") is None or os.geteuid() != 0 or subprocess.run(
            ["mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", str(mount)], capture_output=True, timeout=60).returncode:
        pytest.skip("needs root to mount a small tmpfs")
    try:
        c = TestClient(create_app(f"sqlite:///{mount / 'db'}.sqlite3", bot_delay=0.0))
        with c:
            me = player(c)
            code = make_room(c, me["token"])
            c.post(f"/api/rooms/{code}/start", headers={"X-Token": me["token"]})
            with c.websocket_connect(f"/ws/{code}", headers={"X-Token": me["token"]}) as ws:
                snap = first_decision(ws)
                table = c.app.state.tables.live[code]
                events = list(table.game.events)
                filler = mount / "filler"
                # fill the disk (unbuffered: close has nothing left to write)
                with open(filler, "wb", buffering=0) as f:
                    try:
                        while True:
                            f.write(b"\0" * 65536)
                            f.flush()
                    except OSError:
                        pass
                big = json.dumps({"x": "y" * 300_000})  # a log line the full disk cannot take
                table.game.events.append({"type": "note", "pad": big})
                ws.send_json({"type": "action", "seq": snap["seq"], "action": snap["view"]["legal"][0]})
                reply = ws.receive_json()
                assert reply["type"] == "error" and "could not store" in reply["message"]
                assert table.game.events == events
                filler.unlink()
                ws.send_json({"type": "action", "seq": snap["seq"], "action": snap["view"]["legal"][0]})
                assert ws.receive_json()["type"] == "snapshot"
    finally:
        subprocess.run(["umount", "-l", str(mount)], capture_output=True, timeout=60)


# -- timers, 托管, ready-up -----------------------------------------------------------------------

def fast_timers(c, code, seconds=0.3):
    table = c.app.state.tables.get(code)
    table.settings = TableSettings(turn_seconds=seconds, claim_seconds=seconds, ready_seconds=seconds)
    return table


def test_a_player_who_never_acts_is_played_by_tuoguan_and_takes_back_the_seat(tmp_path):
    with contextlib.nullcontext(client(tmp_path)) as c:
        me = player(c)
        # several hands: a bot may win before this seat has missed two turns, and the next hand's
        # turns then count on (with one hand the match ended there and no frame came again)
        code = make_room(c, me["token"], variant="kawuxing", hands=8, timers={"turn_seconds": 5, "claim_seconds": 3})
        c.post(f"/api/rooms/{code}/start", headers={"X-Token": me["token"]})
        fast_timers(c, code)
        with c.websocket_connect(f"/ws/{code}", headers={"X-Token": me["token"]}) as ws:
            snap = first_decision(ws)
            assert snap["you"]["deadline"] > snap["now"]  # the countdown the page shows
            while not snap["room"]["auto"][0]:  # we do nothing: the timer runs out
                snap = ws.receive_json()
            assert snap["room"]["auto"][0]
            ws.send_json({"type": "auto", "on": False})  # the player is back
            snap = ws.receive_json()
            while snap["room"]["auto"][0]:
                snap = ws.receive_json()
            assert not snap["room"]["auto"][0]


def test_next_hand_waits_for_every_seated_human_to_be_ready(tmp_path):
    with contextlib.nullcontext(client(tmp_path)) as c:
        a, b = player(c, "a"), player(c, "b")
        code = make_room(c, a["token"], variant="kawuxing", hands=2)
        c.post(f"/api/rooms/{code}/join", headers={"X-Token": b["token"]})
        c.post(f"/api/rooms/{code}/ready", headers={"X-Token": b["token"]})  # 准备
        c.post(f"/api/rooms/{code}/start", headers={"X-Token": a["token"]})
        table = c.app.state.tables.get(code)
        table.settings = TableSettings(turn_seconds=30, claim_seconds=30, ready_seconds=600)
        import threading
        with c.websocket_connect(f"/ws/{code}", headers={"X-Token": a["token"]}) as wa, \
                c.websocket_connect(f"/ws/{code}", headers={"X-Token": b["token"]}) as wb:
            ends = {}
            other = threading.Thread(target=lambda: ends.setdefault(1, play_to_end(wb, 1)))
            other.start()
            ends[0] = play_to_end(wa, 0)
            other.join(60)
            assert ends[0]["room"]["ready"] == [False, False, True]  # the bot is ready at once
            assert not any(table.state.auto)
            wa.send_json({"type": "ready"})
            time.sleep(0.3)
            assert table.hand_index == 0 and table.state.ready[:2] == (True, False)  # b is still reading
            wb.send_json({"type": "ready"})
            for _ in range(200):
                if table.hand_index == 1:
                    break
                time.sleep(0.02)
            assert table.hand_index == 1


def test_serve_prints_where_friends_can_connect():
    from majiang.cli.serve import lan_urls
    assert lan_urls("127.0.0.1", 8000) == []
    assert lan_urls("192.0.2.7", 8000) == ["http://192.0.2.7:8000/"]
    assert all(u.startswith("http://") and not u.startswith("http://127.") for u in lan_urls("0.0.0.0", 8000))


def test_store_errors_are_typed():
    assert issubclass(StoreError, Exception)


def test_an_unanswered_claim_is_passed_without_showing_tuoguan(tmp_path):
    """托管 switched on in a claim window would tell everyone that this seat could claim."""
    with contextlib.nullcontext(client(tmp_path)) as c:
        me = player(c)
        code = make_room(c, me["token"], variant="sichuan", hands=1)
        c.post(f"/api/rooms/{code}/start", headers={"X-Token": me["token"]})
        table = fast_timers(c, code, seconds=0.2)
        table.settings = TableSettings(turn_seconds=60, claim_seconds=0.2, ready_seconds=60)
        ignored = 0
        with c.websocket_connect(f"/ws/{code}", headers={"X-Token": me["token"]}) as ws:
            while True:
                snap = ws.receive_json()
                if snap["type"] != "snapshot":
                    continue
                assert not snap["room"]["auto"][0]
                if snap["settlement"] is not None:
                    break
                legal = snap["view"]["legal"]
                if snap["view"]["phase"] in ("claim", "rob") and legal:
                    ignored += 1  # say nothing: the claim timer runs out
                    continue
                if legal:
                    wins = [a for a in legal if a["type"] == "win"]
                    ws.send_json({"type": "action", "seq": snap["seq"], "action": (wins or legal)[-1]})
        records = table.store.games_of(code)[-1]["records"]
        if ignored:
            assert any(r["type"] == "action" and r["seat"] == 0 and r["action"]["type"] == "pass" for r in records)


def test_bots_think_in_worker_processes(tmp_path):
    """``majiang serve`` runs the bots' decisions in a pool of processes, off the event loop."""
    with TestClient(create_app(f"sqlite:///{tmp_path / 'w'}.sqlite3", bot_delay=0.0, bot_workers=1)) as c:
        runner = c.app.state.tables.runner
        assert runner.pool is not None
        me = player(c)
        code = make_room(c, me["token"], variant="sichuan", bots="strong")
        c.post(f"/api/rooms/{code}/start", headers={"X-Token": me["token"]})
        with c.websocket_connect(f"/ws/{code}", headers={"X-Token": me["token"]}) as ws:
            final = play_to_end(ws, 0)
        assert sum(final["settlement"]["totals"]) == 0
        pids = {f.result() for f in [runner.pool.submit(os.getpid) for _ in range(3)]}
        assert os.getpid() not in pids


def test_a_client_that_stops_reading_holds_up_nobody(tmp_path):
    """A spectator whose socket never reads fills only its own outbox (and is dropped); the table
    plays on for everyone else. Real sockets, so the kernel's buffers fill as they would."""
    HANDS = 24
    import asyncio
    import base64
    import socket

    import websockets

    app = create_app(f"sqlite:///{tmp_path / 'slow'}.sqlite3", bot_delay=0.0)
    with serving(app) as port:
        import urllib.request

        def post(path, body, token=None):  # over the real server: one event loop, as in production
            req = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=json.dumps(body).encode(),
                                         headers={"Content-Type": "application/json", "X-Token": token or ""})
            with urllib.request.urlopen(req, timeout=30) as r:
                return json.loads(r.read())

        me = post("/api/players", {"name": "reader"})
        code = post("/api/rooms", {"variant": "sichuan", "hands": HANDS, "bots": "greedy"}, me["token"])["code"]
        post(f"/api/rooms/{code}/start", {}, me["token"])
        stuck = socket.socket()
        stuck.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1024)
        stuck.connect(("127.0.0.1", port))
        key = base64.b64encode(os.urandom(16))
        stuck.sendall(b"GET /ws/" + code.encode() + b" HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
                      b"Connection: Upgrade\r\nSec-WebSocket-Key: " + key + b"\r\nSec-WebSocket-Version: 13\r\n\r\n")
        # ... and never reads again

        async def watch() -> int:
            """Our own seat in 托管 (bots play it at full speed); we read every frame."""
            async with websockets.connect(f"ws://127.0.0.1:{port}/ws/{code}",
                                          additional_headers={"X-Token": me["token"]}, max_size=2 ** 22) as ws:
                await ws.send(json.dumps({"type": "auto", "on": True}))
                while True:
                    try:
                        msg = json.loads(await asyncio.wait_for(ws.recv(), 20))
                    except TimeoutError:
                        t = app.state.tables.live[code]
                        raise AssertionError(f"the table went silent in hand {t.hand_index} with connections "
                                             f"{[c.seat for c in t.presence.connections]}") from None
                    if msg.get("type") == "snapshot" and msg["room"]["match_over"]:
                        return msg["room"]["hand_index"] + 1
                    if msg.get("type") == "snapshot" and msg["settlement"] and not msg["you"]["ready"]:
                        await ws.send(json.dumps({"type": "ready"}))  # all of us in 托管: the table waits for it

        assert asyncio.run(watch()) == HANDS  # ~2 MB of frames: more than the kernel buffers for the stuck one
        stuck.close()


def test_requests_must_name_this_server(tmp_path):
    """Against DNS rebinding: a page on another name that resolves here gets nothing."""
    c = TestClient(create_app(f"sqlite:///{tmp_path / 'h'}.sqlite3", allowed_hosts=["127.0.0.1", "testserver"]))
    assert c.get("/api/me").status_code == 200
    r = c.post("/api/players", json={"name": "dns"},
               headers={"Host": "rebind.example:8000", "Origin": "http://rebind.example:8000"})
    assert r.status_code == 421
    from starlette.websockets import WebSocketDisconnect
    with pytest.raises(WebSocketDisconnect):
        with c.websocket_connect("/ws/ABC", headers={"Host": "rebind.example"}) as ws:
            ws.receive_json()


def test_a_table_whose_humans_are_all_in_tuoguan_stops_between_hands(tmp_path):
    with contextlib.nullcontext(client(tmp_path)) as c:
        me = player(c)
        code = make_room(c, me["token"], variant="kawuxing", hands=3)
        c.post(f"/api/rooms/{code}/start", headers={"X-Token": me["token"]})
        with c.websocket_connect(f"/ws/{code}", headers={"X-Token": me["token"]}) as ws:
            ws.receive_json()
            ws.send_json({"type": "auto", "on": True})  # and then nobody does anything
            snap = ws.receive_json()
            while snap.get("settlement") is None:
                snap = ws.receive_json()
            time.sleep(0.5)
            table = c.app.state.tables.live[code]
            assert table.hand_index == 0  # no second hand without someone's 准备
            ws.send_json({"type": "ready"})
            for _ in range(100):
                if table.hand_index == 1:
                    break
                time.sleep(0.02)
            assert table.hand_index == 1


def test_a_bot_pool_whose_worker_died_is_replaced(tmp_path):
    """A killed bot process breaks a process pool for good: the runner replaces it and answers."""
    import os
    import signal

    from majiang.engine import Game
    from majiang.games.rules import rules_for
    from majiang.server.bots import BotRunner, _warm

    game = Game(rules_for("sichuan", "chengdu"), seed=1)
    seat = game.pending_seats()[0]
    runner = BotRunner(1)

    async def go():
        legal = game.legal_actions(seat)
        first = await runner.decide("greedy", 7, game.observation(seat), legal)
        pid = await asyncio.get_running_loop().run_in_executor(runner.pool, _warm)
        os.kill(pid, signal.SIGKILL)
        await asyncio.sleep(0.5)
        again = await runner.decide("greedy", 7, game.observation(seat), legal)
        return first, again, legal

    try:
        first, again, legal = asyncio.run(go())
    finally:
        runner.close()
    assert first in legal and again == first and runner.restarts == 1


def test_the_server_runs_the_full_garbage_collection_on_its_own_clock(tmp_path):
    """``majiang serve``'s collector: young objects in collections sized to pause briefly, nothing
    older automatically (the middle generation's collections paused 1,000 tables for 120-170 ms),
    the full collection only on its timer (not the default trigger that pauses a filling server
    again and again); Python's policy is back when the app stops."""
    import gc
    import time

    from fastapi.testclient import TestClient

    from majiang.server.app import create_app
    from majiang.server.collector import YoungSizer

    before, hooks = gc.get_threshold(), list(gc.callbacks)
    with TestClient(create_app(f"sqlite:///{tmp_path / 'gc'}.sqlite3", full_gc_seconds=0.05)) as c:
        assert c.get("/").status_code == 200
        young, middle, old = gc.get_threshold()
        assert young <= 10_000 and middle >= 10 ** 9 and old >= 10 ** 9 and gc.get_freeze_count() > 0
        assert any(isinstance(h, YoungSizer) for h in gc.callbacks)
        full = gc.get_stats()[2]["collections"]
        time.sleep(0.5)
        c.get("/")
        assert gc.get_stats()[2]["collections"] > full  # the timer ran full collections
    assert gc.get_threshold() == before and gc.get_freeze_count() == 0 and gc.callbacks == hooks


def test_young_collections_shrink_after_a_long_pause_and_grow_back_after_short_ones():
    """The young generation follows the pauses: a third smaller after one over the target (down to
    the least), a tenth larger after one under a quarter of it (up to the most), unchanged between."""
    import gc

    from majiang.server.collector import YoungSizer

    before = gc.get_threshold()
    try:
        sizer = YoungSizer(pause=0.004, smallest=700, largest=10_000)
        assert sizer.threshold == 10_000
        sizer.resize(0.030)
        assert sizer.threshold == 6_666 and gc.get_threshold()[0] == 6_666 and gc.get_threshold()[1] >= 10 ** 9
        for _ in range(20):
            sizer.resize(0.030)
        assert sizer.threshold == 700
        sizer.resize(0.002)  # between a quarter of the target and the target: kept
        assert sizer.threshold == 700
        sizer.resize(0.0005)
        assert sizer.threshold == 771
        for _ in range(100):
            sizer.resize(0.0001)
        assert sizer.threshold == 10_000
        ticks = iter([1.0, 1.010])  # the hook times a young collection by its start and stop
        sizer.clock = lambda: next(ticks)
        sizer("start", {"generation": 0})
        sizer("stop", {"generation": 0})
        assert sizer.threshold == 6_666
        sizer("stop", {"generation": 2})  # a full collection (the timer's) says nothing of young ones
        assert sizer.threshold == 6_666
    finally:
        gc.set_threshold(*before)


def test_unicode_digits_are_a_clear_400(tmp_path):
    """Issue #29: "²" and "①" pass ``str.isdigit`` but not ``int``: a 400 naming the field, not a 500."""
    c = client(tmp_path)
    h = {"X-Token": player(c)["token"]}
    for field in ("stake", "hands"):
        for digits in ("²", "①", "٣", "1²"):
            r = c.post("/api/rooms", json={"variant": "sichuan", field: digits}, headers=h)
            assert r.status_code == 400 and field in r.json()["error"], (field, digits, r.status_code, r.text)
    assert c.post("/api/rooms", json={"variant": "sichuan", "stake": "12", "hands": " 2"}, headers=h).status_code == 200


def test_replies_never_echo_what_was_sent(tmp_path):
    """Issue #29: an option's value is not quoted back in the 400, nor a long ``seq`` in the refusal."""
    c = client(tmp_path)
    me = player(c)
    h = {"X-Token": me["token"]}
    for value in ("<img src=x onerror=1>", "9" * 30, "<b>"):
        for variant, option in (("sichuan", "cap_fan"), ("kawuxing", "cap"), ("kawuxing", "piao"), ("sichuan", "x")):
            r = c.post("/api/rooms", json={"variant": variant, "options": {option: value}}, headers=h)
            assert r.status_code == 400 and value not in r.text, (option, value, r.text)
    code = make_room(c, me["token"])
    c.post(f"/api/rooms/{code}/start", headers=h)
    with c.websocket_connect(f"/ws/{code}", headers=h) as ws:
        snap = first_decision(ws)
        seq = int("7" * 1500)
        ws.send_text(json.dumps({"type": "action", "seq": seq, "action": snap["view"]["legal"][0]}))
        reply = ws.receive_json()
        assert reply["type"] == "error" and "stale" in reply["message"] and "777" not in reply["message"]
        assert len(json.dumps(reply)) < 200


def test_a_replay_is_built_once_and_builds_are_budgeted_per_address(tmp_path, monkeypatch):
    """Issue #29: anonymous replay requests cost a build (an observation per step) once per
    finished hand; repeats are served as built, and one address gets only so many builds a minute."""
    from majiang.engine import log as engine_log
    from majiang.server import app as server_app
    c = client(tmp_path)
    me = player(c)
    code = make_room(c, me["token"], variant="sichuan")
    c.post(f"/api/rooms/{code}/start", headers={"X-Token": me["token"]})
    with c.websocket_connect(f"/ws/{code}", headers={"X-Token": me["token"]}) as ws:
        play_to_end(ws, 0)
    builds = []
    real = engine_log.game_from_start
    monkeypatch.setattr(engine_log, "game_from_start", lambda *a, **k: builds.append(1) or real(*a, **k))
    first = c.get(f"/api/rooms/{code}/games/0/frames").json()
    for _ in range(30):
        assert c.get(f"/api/rooms/{code}/games/0/frames").json() == first
    assert len(builds) == 1
    answers = [c.get(f"/api/rooms/{code}/games/{k}/frames").status_code for k in range(1, 40)]
    assert answers[:server_app.REPLAY_BUILDS_PER_MINUTE - 1] == [404] * (server_app.REPLAY_BUILDS_PER_MINUTE - 1)
    assert set(answers[server_app.REPLAY_BUILDS_PER_MINUTE - 1:]) == {429}
    assert c.get(f"/api/rooms/{code}/games/0/frames").status_code == 200  # built already: still served


def test_a_room_path_written_another_way_is_refused_by_the_worker(tmp_path):
    """Issue #29: the router hashes the raw path; a worker refuses a percent-encoded room path, so
    a room is reached on the one worker its code hashes to."""
    c = client(tmp_path)
    me = player(c)
    code = make_room(c, me["token"])
    other = "%" + format(ord(code[0]), "02X") + code[1:]
    assert c.get(f"/api/rooms/{code}").status_code == 200
    assert c.get(f"/api/rooms/{other}").status_code == 404
    assert c.post(f"/api/rooms/{other}/join", headers={"X-Token": me["token"]}).status_code == 404
    from starlette.websockets import WebSocketDisconnect
    with pytest.raises(WebSocketDisconnect):
        with c.websocket_connect(f"/ws/{other}") as ws:
            ws.receive_json()
    assert code not in c.app.state.tables.live


def test_a_store_call_that_raises_stopiteration_fails_instead_of_hanging(tmp_path):
    """asyncio cannot put a StopIteration into a future: unconverted, the awaiting caller never wakes."""
    import asyncio

    from majiang.server.store import Store
    from majiang.server.store_async import AsyncStore

    def exhausted():
        return next(iter(()))

    store = Store(f"sqlite:///{tmp_path / 'db'}.sqlite3")
    store.renew_leases = lambda codes, seconds: exhausted()  # the renewals' own thread is guarded alike
    aio = AsyncStore(store)
    try:
        with pytest.raises(RuntimeError, match="StopIteration"):
            asyncio.run(asyncio.wait_for(aio.call(exhausted), 10))
        with pytest.raises(RuntimeError, match="StopIteration"):
            asyncio.run(asyncio.wait_for(aio.renew(["123456"], 10.0), 10))
    finally:
        aio.close()


def test_the_bots_pace_is_a_room_option_normal_unless_chosen(tmp_path):
    """Issue 47: bots discarding every 0.3-1.3 s were too fast for a new player. A room's
    ``timers.pace`` (fast / normal / slow) scales the server's bot delay, normal by default; a
    pace not declared is refused by its code, and the page's form offers exactly the declared ones."""
    import re

    from majiang.server.clock import DEFAULT_PACE, PACES
    from majiang.server.live_table import LiveTable

    assert DEFAULT_PACE == "normal" and PACES["fast"] == 1.0 < PACES["normal"] < PACES["slow"]
    assert TableSettings().pace == "normal" and TableSettings.from_json({}).to_json()["pace"] == "normal"
    assert TableSettings.from_json({"pace": "slow"}).bot_delay(0.4) == pytest.approx(1.6)
    assert TableSettings.from_json({"pace": "fast"}).bot_delay(0.4) == pytest.approx(0.4)
    c = client(tmp_path)
    me = player(c)
    for bad in ("warp", 3, None):
        r = c.post("/api/rooms", json={"variant": "kawuxing", "timers": {"pace": bad}},
                   headers={"X-Token": me["token"]})
        assert r.status_code == 400 and r.json()["code"] == "timers.bad_pace", r.text
    default = make_room(c, me["token"])
    slow = make_room(c, me["token"], timers={"turn_seconds": 20, "pace": "slow"})
    assert c.get(f"/api/rooms/{default}").json()["timers"]["pace"] == "normal"
    assert c.get(f"/api/rooms/{slow}").json()["timers"] == {"turn_seconds": 20.0, "claim_seconds": 8.0,
                                                           "ready_seconds": 30.0, "pace": "slow"}
    store = Store(f"sqlite:///{tmp_path / 'g'}.sqlite3")
    table = LiveTable(store, store.room(slow), bot_delay=0.4)
    assert table.clock.bot_delay == pytest.approx(1.6)  # each bot's wait, jittered ±25% about it
    page = open(os.path.join(os.path.dirname(__file__), "..", "..", "src", "majiang", "server", "static", "index.html"),
                encoding="utf-8").read()
    select = re.search(r'<select id="pace">(.*?)</select>', page).group(1)
    assert re.findall(r'value="(\w+)"', select) == list(PACES)
    assert re.search(r'value="(\w+)"[^>]*selected', select).group(1) == DEFAULT_PACE
