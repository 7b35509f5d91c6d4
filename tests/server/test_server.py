"""The web game's API and websocket protocol: whole games, hidden tiles, bad input, restarts."""

import contextlib
import json
import time

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("sqlalchemy")
from fastapi.testclient import TestClient  # noqa: E402

from majiang.server.app import create_app  # noqa: E402

_OPEN: list[TestClient] = []


@pytest.fixture(autouse=True)
def _close_clients():
    yield
    while _OPEN:
        _OPEN.pop().__exit__(None, None, None)


def client(tmp_path, name="db"):
    """A client with one event loop for all its sockets, as a real server has (without ``with``
    each websocket gets its own loop, and the table's locks would be shared across loops)."""
    c = TestClient(create_app(f"sqlite:///{tmp_path / name}.sqlite3", bot_delay=0.0))
    c.__enter__()
    _OPEN.append(c)
    return c


def player(c, name="ana"):
    r = c.post("/api/players", json={"name": name})
    assert r.status_code == 200
    c.cookies.clear()  # these tests say who they are with X-Token; without it a client watches
    return r.json()


def make_room(c, token, variant="kawuxing", hands=1, **extra):
    r = c.post("/api/rooms", json={"variant": variant, "hands": hands, "bots": "greedy"} | extra,
               headers={"X-Token": token})
    assert r.status_code == 200, r.text
    return r.json()["code"]


def started_room(c, names="ab", ready=None, **room):
    """A room its host (the first name) made and started with friends seated: the others join and
    those named in ``ready`` (all of them unless given) say 准备. Returns the code and the players,
    host first."""
    people = [player(c, name) for name in names]
    code = make_room(c, people[0]["token"], **room)
    for p in people[1:]:
        assert c.post(f"/api/rooms/{code}/join", headers={"X-Token": p["token"]}).status_code == 200
    for name, p in zip(names[1:], people[1:]):
        if ready is None or name in ready:
            assert c.post(f"/api/rooms/{code}/ready", headers={"X-Token": p["token"]}).status_code == 200
    assert c.post(f"/api/rooms/{code}/start", headers={"X-Token": people[0]["token"]}).status_code == 200
    return code, people


def assert_no_hidden(snapshot, seat):
    view = snapshot["view"]
    if view is None:
        return
    assert "wall" not in json.dumps(view)
    for p in view["players"]:
        if p["seat"] != seat and view["phase"] != "over":
            assert "hand" not in p
            for m in p["melds"]:
                if m["kind"] == "concealed_kong":
                    assert m["tile"] is None
    if view["phase"] != "over" and seat is not None and view["current"] != seat:
        assert "drawn" not in view


def play_to_end(ws, seat, limit=4000):
    """Answer every decision with the first legal action (a win when there is one)."""
    import time
    last = None
    sent = None
    for _ in range(limit):
        msg = ws.receive_json()
        if msg["type"] == "error" and "too many" in msg["message"] and sent is not None:
            time.sleep(0.1)  # rate-limited: say it again, slower
            ws.send_json(sent)
            continue
        if msg["type"] != "snapshot":
            continue
        assert_no_hidden(msg, seat)
        last = msg
        if msg["settlement"] is not None:
            return msg
        legal = msg["view"]["legal"] if msg["view"] else []
        if legal:
            wins = [a for a in legal if a["type"] == "win"]
            sent = {"type": "action", "seq": msg["seq"], "action": (wins or legal)[0]}
            ws.send_json(sent)
    raise AssertionError(f"no settlement; last {last and last['view']['phase']}")


@pytest.mark.parametrize("variant", ["kawuxing", "sichuan"])
def test_whole_hand_against_bots_and_no_hidden_tile_leaves(tmp_path, variant):
    c = client(tmp_path)
    me = player(c)
    code = make_room(c, me["token"], variant=variant)
    assert c.post(f"/api/rooms/{code}/start", headers={"X-Token": me["token"]}).json() == {"status": "playing"}
    with c.websocket_connect(f"/ws/{code}", headers={"X-Token": me["token"]}) as ws:
        final = play_to_end(ws, 0)
    s = final["settlement"]
    assert sum(s["totals"]) == 0 and final["room"]["match_over"]
    hist = c.get("/api/history", headers={"X-Token": me["token"]}).json()
    assert hist[0]["room"] == code and hist[0]["hands"] == 1
    games = c.get(f"/api/rooms/{code}/games").json()
    assert len(games) == 1 and games[0]["records"][0]["type"] == "start"


def test_two_players_share_a_table_and_spectators_see_no_hand(tmp_path):
    c = client(tmp_path)
    a, b = player(c, "a"), player(c, "b")
    code = make_room(c, a["token"], variant="sichuan")
    assert c.post(f"/api/rooms/{code}/join", headers={"X-Token": b["token"]}).json() == {"seat": 1}
    c.post(f"/api/rooms/{code}/ready", headers={"X-Token": b["token"]})  # 准备
    room = c.get(f"/api/rooms/{code}").json()
    assert [s["taken"] for s in room["seats"]] == [True, True, False, False]
    c.post(f"/api/rooms/{code}/start", headers={"X-Token": a["token"]})
    with c.websocket_connect(f"/ws/{code}") as spectator:
        snap = spectator.receive_json()
        assert snap["seat"] is None and all("hand" not in p for p in snap["view"]["players"])
        assert "legal" not in snap["view"]


def test_bad_messages_get_clear_errors_and_change_nothing(tmp_path):
    c = client(tmp_path)
    me = player(c)
    code = make_room(c, me["token"])
    c.post(f"/api/rooms/{code}/start", headers={"X-Token": me["token"]})
    with c.websocket_connect(f"/ws/{code}", headers={"X-Token": me["token"]}) as ws:
        snap = ws.receive_json()
        while not snap["view"]["legal"]:
            snap = ws.receive_json()
        seq = snap["seq"]
        for bad, fragment in [("not json", "JSON"), ("[1, 2]", "JSON objects"),
                              (json.dumps({"type": "shout"}), "unknown message type"),
                              (json.dumps({"type": "action", "seq": seq - 1, "action": {"type": "pass"}}), "stale"),
                              (json.dumps({"type": "action", "seq": seq, "action": {"type": "pong", "tile": "9z"}}),
                               "bad tile"),
                              (json.dumps({"type": "action", "seq": seq, "action": {"type": "kong", "tile": "1p"}}),
                               "not legal"),
                              (json.dumps({"type": "action", "seq": "x", "action": {}}), "seq")]:
            ws.send_text(bad)
            reply = ws.receive_json()
            assert reply["type"] == "error" and fragment in reply["message"], (bad, reply)
        ws.send_json({"type": "ping"})
        assert ws.receive_json() == {"type": "pong"}
        # the state is unchanged: the same decision is still open at the same sequence number
        ws.send_json({"type": "action", "seq": seq, "action": snap["view"]["legal"][0]})
        nxt = ws.receive_json()
        assert nxt["type"] == "snapshot" and nxt["view"] != snap["view"]
        assert nxt["seq"] == seq or nxt["view"]["legal"]  # the number moves with this seat's next decision


def test_http_validation(tmp_path):
    c = client(tmp_path)
    assert c.post("/api/players", json={"name": ""}).status_code == 400
    assert c.post("/api/players", content=b"{oops", headers={"Content-Type": "application/json"}).status_code == 400
    assert c.post("/api/players", content=b'{"name": "x"}', headers={"Content-Type": "text/plain"}).status_code == 415
    me = player(c)
    assert c.post("/api/rooms", json={"variant": "x"}, headers={"X-Token": me["token"]}).status_code == 400
    assert c.post("/api/rooms", json={"variant": "sichuan"}, headers={"X-Token": "guess"}).status_code == 401
    r = c.post("/api/rooms", json={"variant": "sichuan", "options": {"cap_fan": "lots"}},
               headers={"X-Token": me["token"]})
    assert r.status_code == 400 and "cap_fan" in r.json()["error"]
    assert c.get("/api/rooms/NOPE").status_code == 404
    other = player(c, "bob")
    code = make_room(c, me["token"])
    assert c.post(f"/api/rooms/{code}/start", headers={"X-Token": other["token"]}).status_code == 403
    assert c.get("/api/analyze", params={"hand": "1112345678999p", "variant": "kawuxing"}).json()["shanten"] == 0


def test_restart_resumes_from_the_stored_log(tmp_path):
    from majiang.engine.log import rebuild
    from majiang.server.store import Store

    url = f"sqlite:///{tmp_path / 'shared'}.sqlite3"
    with TestClient(create_app(url, bot_delay=0.0)) as c:
        me = player(c)
        code = make_room(c, me["token"], variant="kawuxing", hands=2)
        c.post(f"/api/rooms/{code}/start", headers={"X-Token": me["token"]})
        with c.websocket_connect(f"/ws/{code}", headers={"X-Token": me["token"]}) as ws:
            snap = ws.receive_json()
            while not snap["view"]["legal"]:
                snap = ws.receive_json()
            ws.send_json({"type": "action", "seq": snap["seq"], "action": snap["view"]["legal"][0]})
            ws.receive_json()
    # the server is gone; what it stored must rebuild to exactly the game it was running
    stored = Store(url).games_of(code)[-1]
    game = rebuild(stored["records"])
    with TestClient(create_app(url, bot_delay=1.5)) as c2:  # bots wait: we look before they move
        with c2.websocket_connect(f"/ws/{code}", headers={"X-Token": me["token"]}) as ws:
            snap = ws.receive_json()
            assert snap["view"]["players"][0]["hand"] == game.observation(0)["players"][0]["hand"]
            assert [p["discards"] for p in snap["view"]["players"]] == \
                [p["discards"] for p in game.observation(0)["players"]]
            assert snap["view"]["tiles_left"] == game.tiles_left


def test_absent_player_is_played_by_a_bot(tmp_path):
    url = f"sqlite:///{tmp_path / 'away'}.sqlite3"
    with TestClient(create_app(url, bot_delay=0.0, absent_after=0.05)) as c:
        me, friend = player(c), player(c, "friend")
        code = make_room(c, me["token"], variant="kawuxing")
        assert c.post(f"/api/rooms/{code}/join", headers={"X-Token": friend["token"]}).json() == {"seat": 1}
        c.post(f"/api/rooms/{code}/ready", headers={"X-Token": friend["token"]})  # 准备
        c.post(f"/api/rooms/{code}/start", headers={"X-Token": me["token"]})
        # the friend never connects: 托管 plays seat 1 (shown to everyone) while seat 0 plays on
        with c.websocket_connect(f"/ws/{code}", headers={"X-Token": me["token"]}) as ws:
            final = play_to_end(ws, 0)
        assert final["room"]["auto"][1] and not final["room"]["auto"][0]
        games = c.get(f"/api/rooms/{code}/games").json()
        assert len(games) == 1 and sum(games[0]["totals"]) == 0
        frames = c.get(f"/api/rooms/{code}/games/0/frames").json()
        assert frames["frames"][0]["label"] == "deal" and len(frames["frames"]) >= 2
        assert all("hand" in p for p in frames["frames"][-1]["view"]["players"])
        assert c.get(f"/api/rooms/{code}/games/5/frames").status_code == 404


def test_room_options_and_hints(tmp_path):
    c = client(tmp_path)
    me = player(c)
    code = make_room(c, me["token"], variant="kawuxing", options={"cap": "8", "haidi": "both"})
    c.post(f"/api/rooms/{code}/start", headers={"X-Token": me["token"]})
    with c.websocket_connect(f"/ws/{code}", headers={"X-Token": me["token"]}) as ws:
        snap = ws.receive_json()
        assert snap["hints"] is None  # hints are computed only for a player who shows them
        ws.send_json({"type": "hints", "on": True})
        # our turn; an answer to a claim sent with a seq that moved on meanwhile comes back as an error
        while not (snap.get("view") and any(a["type"] == "discard" for a in snap["view"]["legal"]) and snap["hints"]):
            legal = snap["view"]["legal"] if snap.get("view") else []
            if legal and not any(a["type"] == "discard" for a in legal):
                ws.send_json({"type": "action", "seq": snap["seq"], "action": legal[-1]})
            snap = ws.receive_json()
        assert snap["view"]["rules"]["cap"] == 8 and snap["view"]["rules"]["haidi"] == "both"
        hints = snap["hints"]
        assert hints["discards"] and all({"tile", "shanten", "effective_count"} <= set(d) for d in hints["discards"])
        ws.send_json({"type": "hints", "on": False})
        while snap.get("hints") is not None or snap.get("type") != "snapshot":
            snap = ws.receive_json()


def test_a_flood_is_dropped_quietly_and_the_connection_lives(tmp_path, monkeypatch):
    from majiang.server.security import Bucket
    # a slow refill (2 messages/s, burst 40): a loaded machine that takes seconds to deliver the
    # flood must not refill the budget under it, and one second's pause still earns a reply
    monkeypatch.setattr(Bucket.__init__, "__defaults__", (2.0, 40.0, 4096.0, 16384.0))
    c = client(tmp_path)
    code = make_room(c, player(c)["token"])
    with c.websocket_connect(f"/ws/{code}") as ws:
        ws.receive_json()
        for _ in range(100):
            ws.send_json({"type": "ping"})
        ws.send_json({"type": "ping", "last": True})
        time.sleep(1.0)
        ws.send_json({"type": "ping"})  # after a pause the connection answers again
        replies = []
        while True:
            r = ws.receive_json()
            replies.append(r)
            if len(replies) > 1 and r.get("type") == "pong" and sum(x.get("type") == "pong" for x in replies) > 40:
                break
    errors = [r for r in replies if r.get("type") == "error"]
    assert len(errors) == 1 and "too many" in errors[0]["message"]  # one word, not one per message
    assert 40 <= sum(r.get("type") == "pong" for r in replies) < 100


def test_rules_schema_offers_only_what_the_rules_accept_and_rooms_take_it(tmp_path):
    """The room form is built from /api/rules-schema: every choice it offers makes a room."""
    from majiang.games.rules import rules_for
    c = client(tmp_path)
    schema = c.get("/api/rules-schema").json()
    assert set(schema) == {"kawuxing", "sichuan"}
    assert schema["kawuxing"]["players"] == 3 and schema["sichuan"]["players"] == 4
    assert schema["sichuan"]["presets"]["modern"]["exchange_three"] is True
    names = {o["name"] for o in schema["sichuan"]["options"]}
    assert {"exchange_three", "call_transfer", "blood_river", "cap_fan", "self_draw_bonus"} <= names
    assert "base" not in names and "rounds" not in names and "preset" not in names
    for variant, s in schema.items():
        for o in s["options"]:
            for value in (o.get("choices") or [True, False]):
                rules_for(variant, None, **{o["name"]: "none" if value is None else value})
    ana = player(c)
    code = make_room(c, ana["token"], "kawuxing", preset="suizhou", options={"cap": "none", "piao": 2})
    assert c.get(f"/api/rooms/{code}").json()["preset"] == "suizhou"
    r = c.post("/api/rooms", json={"variant": "sichuan", "options": {"blood_river": True, "blood_battle": False}},
               headers={"X-Token": ana["token"]})
    assert r.status_code == 400 and "blood_river" in r.json()["error"]


def _until(ws, pred, limit=400):
    for _ in range(limit):
        msg = ws.receive_json()
        if pred(msg):
            return msg
    raise AssertionError("the awaited message never came")


def test_quick_chat_and_a_dissolve_vote_between_two_players(tmp_path):
    """Quick chat carries phrase ids only, rate-limited; 解散 needs every seated human's yes."""
    with contextlib.nullcontext(client(tmp_path)) as c:  # one event loop for every socket
        a, b = player(c, "a"), player(c, "b")
        code = make_room(c, a["token"], variant="sichuan", hands=4, timers={"turn_seconds": 300, "claim_seconds": 120})
        c.post(f"/api/rooms/{code}/join", headers={"X-Token": b["token"]})
        c.post(f"/api/rooms/{code}/ready", headers={"X-Token": b["token"]})  # 准备
        c.post(f"/api/rooms/{code}/start", headers={"X-Token": a["token"]})
        with c.websocket_connect(f"/ws/{code}", headers={"X-Token": a["token"]}) as wa, \
                c.websocket_connect(f"/ws/{code}", headers={"X-Token": b["token"]}) as wb, \
                c.websocket_connect(f"/ws/{code}") as watcher:
            for ws in (wb, watcher):  # a socket is at the table once its first snapshot came (a chat is not replayed)
                _until(ws, lambda m: m["type"] == "snapshot")
            wa.send_json({"type": "chat", "phrase": "hello"})
            assert _until(wb, lambda m: m["type"] == "chat") == {"type": "chat", "seat": 0, "phrase": "hello"}
            assert _until(watcher, lambda m: m["type"] == "chat")["phrase"] == "hello"
            wa.send_json({"type": "chat", "phrase": "nice"})  # too soon: dropped without a word
            wa.send_json({"type": "chat", "phrase": "<b>hi</b>"})
            err = _until(wa, lambda m: m["type"] == "error")
            assert err["message"] == "unknown phrase"
            watcher.send_json({"type": "chat", "phrase": "hello"})
            assert "spectators" in _until(watcher, lambda m: m["type"] == "error")["message"]
            # a refusal cancels the vote
            wa.send_json({"type": "dissolve", "agree": True})
            snap = _until(wb, lambda m: m["type"] == "snapshot" and m["room"]["dissolve"])
            assert snap["room"]["dissolve"]["by"] == 0 and snap["room"]["dissolve"]["votes"][:2] == [True, None]
            wb.send_json({"type": "dissolve", "agree": False})
            _until(wa, lambda m: m["type"] == "snapshot" and m["room"]["dissolve"] is None)
            wa.send_json({"type": "dissolve", "agree": True})  # asking again at once is refused
            assert "wait" in _until(wa, lambda m: m["type"] == "error")["message"]
            # every seated human says yes: the match ends
            wb.send_json({"type": "dissolve", "agree": True})
            _until(wa, lambda m: m["type"] == "snapshot" and m["room"]["dissolve"] and m["room"]["dissolve"]["by"] == 1)
            wa.send_json({"type": "dissolve", "agree": True})
            end = _until(wb, lambda m: m["type"] == "snapshot" and m["room"]["match_over"])
            assert end["room"]["dissolved"] and end["room"]["status"] == "finished"
        assert c.get(f"/api/rooms/{code}").json()["status"] == "finished"


def test_ready_up_in_the_lobby_is_shown_to_everyone(tmp_path):
    with contextlib.nullcontext(client(tmp_path)) as c:  # one event loop for both sockets
        a, b = player(c, "a"), player(c, "b")
        code = make_room(c, a["token"], variant="kawuxing")
        c.post(f"/api/rooms/{code}/join", headers={"X-Token": b["token"]})
        with c.websocket_connect(f"/ws/{code}", headers={"X-Token": a["token"]}) as wa, \
                c.websocket_connect(f"/ws/{code}", headers={"X-Token": b["token"]}) as wb:
            assert _until(wa, lambda m: m["type"] == "snapshot")["room"]["ready"] == [False, False, True]
            wb.send_json({"type": "ready"})
            ready = _until(wa, lambda m: m["type"] == "snapshot" and m["room"]["ready"][1])["room"]["ready"]
            assert ready == [False, True, True]
        c.post(f"/api/rooms/{code}/start", headers={"X-Token": a["token"]})
        with c.websocket_connect(f"/ws/{code}", headers={"X-Token": b["token"]}) as wb:
            # a fresh hand: asked again at its end
            assert _until(wb, lambda m: m["type"] == "snapshot")["room"]["ready"] is None


def test_the_first_hand_waits_until_every_seated_human_is_ready(tmp_path):
    """准备 before the first hand is the server's rule, not only the page's: the host's start deals
    only once every seated human said ready (or the ready timer ran out)."""
    from majiang.server.clock import TableSettings
    with contextlib.nullcontext(client(tmp_path)) as c:
        a, b = player(c, "a"), player(c, "b")
        code = make_room(c, a["token"], variant="kawuxing", timers={"ready_seconds": 600})
        c.post(f"/api/rooms/{code}/join", headers={"X-Token": b["token"]})
        with c.websocket_connect(f"/ws/{code}", headers={"X-Token": a["token"]}) as wa, \
                c.websocket_connect(f"/ws/{code}", headers={"X-Token": b["token"]}) as wb:
            r = c.post(f"/api/rooms/{code}/start", headers={"X-Token": a["token"]})
            assert r.status_code == 202 and r.json() == {"status": "lobby", "waiting_for": [1]}
            snap = _until(wb, lambda m: m["type"] == "snapshot" and m["room"]["starting"])
            assert snap["view"] is None and snap["room"]["clock"]["deadline"] is not None
            time.sleep(0.3)
            assert c.get(f"/api/rooms/{code}").json()["status"] == "lobby"  # not dealt: b is not ready
            assert c.get(f"/api/rooms/{code}/games").json() == []
            assert c.post(f"/api/rooms/{code}/start", headers={"X-Token": a["token"]}).status_code == 202  # still
            wb.send_json({"type": "ready"})
            snap = _until(wa, lambda m: m["type"] == "snapshot" and m["view"] is not None)
            assert snap["room"]["status"] == "playing" and not snap["room"]["starting"]
        assert c.get(f"/api/rooms/{code}").json()["status"] == "playing"
        # a friend who never says ready: the ready timer deals without them
        code = make_room(c, a["token"], variant="kawuxing")
        c.post(f"/api/rooms/{code}/join", headers={"X-Token": b["token"]})
        c.app.state.tables.get(code).settings = TableSettings(ready_seconds=0.3)
        assert c.post(f"/api/rooms/{code}/start", headers={"X-Token": a["token"]}).status_code == 202
        for _ in range(100):
            if c.get(f"/api/rooms/{code}").json()["status"] == "playing":
                break
            time.sleep(0.05)
        assert c.get(f"/api/rooms/{code}").json()["status"] == "playing"
        # alone with bots, or everyone ready: dealt at once
        code = make_room(c, a["token"], variant="kawuxing")
        c.post(f"/api/rooms/{code}/join", headers={"X-Token": b["token"]})
        assert c.post(f"/api/rooms/{code}/ready", headers={"X-Token": b["token"]}).json()["ready"] is True
        assert c.post(f"/api/rooms/{code}/start", headers={"X-Token": a["token"]}).json() == {"status": "playing"}


def test_a_rematch_offers_the_others_a_new_room_in_the_same_seats(tmp_path):
    """再来一局: the first to ask opens a room with the same rules; the others are told its code over
    their socket and come back to their own seats; the bots' seats stay the bots'."""
    with contextlib.nullcontext(client(tmp_path)) as c:
        a, b, z = player(c, "a"), player(c, "b"), player(c, "zed")
        code = make_room(c, a["token"], variant="kawuxing", hands=4, stake=2, options={"cap": 16},
                         bots="strong", timers={"turn_seconds": 40, "claim_seconds": 20, "ready_seconds": 90})
        c.post(f"/api/rooms/{code}/join", headers={"X-Token": b["token"]})
        c.post(f"/api/rooms/{code}/ready", headers={"X-Token": b["token"]})
        c.post(f"/api/rooms/{code}/start", headers={"X-Token": a["token"]})
        assert c.post(f"/api/rooms/{code}/rematch", headers={"X-Token": a["token"]}).status_code == 409  # not over
        with c.websocket_connect(f"/ws/{code}", headers={"X-Token": a["token"]}) as wa, \
                c.websocket_connect(f"/ws/{code}", headers={"X-Token": b["token"]}) as wb:
            wa.send_json({"type": "dissolve", "agree": True})  # the quickest end of a match
            _until(wb, lambda m: m["type"] == "snapshot" and m["room"]["dissolve"])
            wb.send_json({"type": "dissolve", "agree": True})
            _until(wa, lambda m: m["type"] == "snapshot" and m["room"]["match_over"])
            assert c.post(f"/api/rooms/{code}/rematch", headers={"X-Token": z["token"]}).status_code == 403
            made = c.post(f"/api/rooms/{code}/rematch", headers={"X-Token": b["token"]}).json()
            assert made["seat"] == 1
            offer = _until(wa, lambda m: m["type"] == "snapshot" and m["room"]["rematch"])["room"]["rematch"]
            assert offer == {"code": made["code"], "by": 1}
        new = made["code"]
        old_room, room = c.get(f"/api/rooms/{code}").json(), c.get(f"/api/rooms/{new}").json()
        for k in ("variant", "preset", "hands", "stake", "timers"):
            assert room[k] == old_room[k], k
        assert c.app.state.store.room(new)["rules"] == c.app.state.store.room(code)["rules"]
        assert room["status"] == "lobby" and room["host_seat"] == 1
        # a stranger takes the bots' free seat, never the one kept for a
        assert c.post(f"/api/rooms/{new}/join", headers={"X-Token": z["token"]}).json() == {"seat": 2}
        c.post(f"/api/rooms/{new}/join", headers={"X-Token": z["token"]})
        assert c.post(f"/api/rooms/{code}/rematch", headers={"X-Token": a["token"]}).json() == {"code": new, "seat": 0}
        assert [s["name"] for s in c.get(f"/api/rooms/{new}").json()["seats"]] == ["a", "b", "zed"]
        # a second rematch room is never made: the offer stands
        assert c.post(f"/api/rooms/{code}/rematch", headers={"X-Token": a["token"]}).json()["code"] == new
        # with nobody else, bots take the same empty seats at the bots' level
        lone = make_room(c, a["token"], variant="sichuan", bots="random")
        c.post(f"/api/rooms/{lone}/start", headers={"X-Token": a["token"]})
        with c.websocket_connect(f"/ws/{lone}", headers={"X-Token": a["token"]}) as wa:
            wa.send_json({"type": "dissolve", "agree": True})
            _until(wa, lambda m: m["type"] == "snapshot" and m["room"]["match_over"])
        again = c.post(f"/api/rooms/{lone}/rematch", headers={"X-Token": a["token"]}).json()["code"]
        assert [s["bot"] for s in c.get(f"/api/rooms/{again}").json()["seats"]] == [None, "random", "random", "random"]
        history = c.get("/api/history", headers={"X-Token": b["token"]}).json()
        assert {r["room"]: r["seat"] for r in history}.get(new, 1) == 1
