"""The room keeps straight who sits where, in which hand: a friend who sits down mid-match plays
their first hand without a reload, a late joiner's record holds only their hands, joins racing each
other or the start go through the room's one owner, a deal is stored whole or not at all, a carried
解散 takes no more moves, a rematch keeps its players' seats, replays name who played that hand, and
a host's room limit holds against simultaneous creates."""

from __future__ import annotations

import asyncio
import contextlib
import threading
import time
from dataclasses import replace

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("sqlalchemy")

from majiang.server import rooms  # noqa: E402
from majiang.server.clock import TableSettings  # noqa: E402
from majiang.server.match import MatchState  # noqa: E402
from majiang.server.requests import NewRoom, parse  # noqa: E402
from majiang.server.store import Store, StoreError  # noqa: E402
from majiang.server.tables import Tables  # noqa: E402
from test_server import _OPEN, _close_clients, client, make_room, player, started_room  # noqa: E402, F401


def wait_for(condition, seconds=30.0):
    end = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < end, "timed out"
        time.sleep(0.01)


def fast(c, code, turn=300.0, claim=300.0, ready=600.0):
    table = c.app.state.tables.get(code)
    table.settings = TableSettings(turn_seconds=turn, claim_seconds=claim, ready_seconds=ready)
    return table


def play_hand(ws, seat, first=None, deadline=60.0):
    """Answer this seat's decisions (a win first) until the hand's settlement, starting with the
    snapshot ``first`` if one was read already; every refusal is returned, with how many actions
    the seat made."""
    refusals, acted, end = [], 0, time.monotonic() + deadline
    while time.monotonic() < end:
        msg, first = (first, None) if first is not None else (ws.receive_json(), None)
        if msg["type"] == "error":
            refusals.append(msg["code"])
            continue
        if msg["type"] != "snapshot":
            continue
        assert msg["seat"] == seat
        if msg["settlement"] is not None:
            return refusals, acted
        legal = msg["view"]["legal"] if msg["view"] else []
        if legal:
            wins = [a for a in legal if a["type"] == "win"]
            ws.send_json({"type": "action", "seq": msg["seq"], "action": (wins or legal)[0]})
            acted += 1
    raise AssertionError("no settlement")


def seat_me(ws, deadline=60.0, ready=None):
    """The socket's snapshots until one seats it (the next hand dealt); ``ready``: a socket that
    says 准备 when a hand ends (a table of players in 托管 waits for one)."""
    end = time.monotonic() + deadline
    while time.monotonic() < end:
        msg = ws.receive_json()
        if msg.get("type") == "snapshot" and msg["seat"] is not None:
            return msg
        if ready is not None and msg.get("type") == "snapshot" and msg["settlement"] is not None:
            ready.send_json({"type": "ready"})
    raise AssertionError("never seated")


def test_a_friend_seated_from_the_next_hand_plays_it_without_reconnecting(tmp_path):
    c = client(tmp_path)
    a, b = player(c, "a"), player(c, "b")
    code = make_room(c, a["token"], variant="kawuxing", hands=3)
    c.post(f"/api/rooms/{code}/start", headers={"X-Token": a["token"]})
    table = fast(c, code, ready=0.3)
    assert c.post(f"/api/rooms/{code}/join", headers={"X-Token": b["token"]}).json() == {"seat": 1, "next_hand": True}
    with c.websocket_connect(f"/ws/{code}", headers={"X-Token": a["token"]}) as wa, \
            c.websocket_connect(f"/ws/{code}", headers={"X-Token": b["token"]}) as wb:
        wa.send_json({"type": "auto", "on": True})  # the host's seat plays itself
        first = seat_me(wb, ready=wa)
        assert first["seat"] == 1 and table.hand_index == 1
        refusals, acted = play_hand(wb, 1, first)  # the same socket: no reload
        assert refusals == [] and acted > 0
        # their 解散 vote counts too (a seated player's, not a spectator's)
        wb.send_json({"type": "dissolve", "agree": True})
        wait_for(lambda: table.dissolve_view() is not None or table.state.match is MatchState.DISSOLVED)
        assert table.dissolve_view() is None or table.dissolve_view()["by"] == 1


def test_a_late_joiner_s_record_holds_only_the_hands_they_played(tmp_path):
    c = client(tmp_path)
    a, b = player(c, "a"), player(c, "b")
    code = make_room(c, a["token"], variant="kawuxing", hands=2)
    c.post(f"/api/rooms/{code}/start", headers={"X-Token": a["token"]})
    table = fast(c, code, ready=0.2)
    c.post(f"/api/rooms/{code}/join", headers={"X-Token": b["token"]})
    with c.websocket_connect(f"/ws/{code}", headers={"X-Token": a["token"]}) as wa, \
            c.websocket_connect(f"/ws/{code}", headers={"X-Token": b["token"]}) as wb:
        wa.send_json({"type": "auto", "on": True})
        play_hand(wb, 1, seat_me(wb, ready=wa))
    wait_for(lambda: table.state.match is MatchState.FINISHED)
    games = c.get(f"/api/rooms/{code}/games").json()
    assert [g["hand_index"] for g in games] == [0, 1]
    people = games[0]["people"]
    assert people[:3] == ["a", "bot 1", "bot 2"] and people[3] == "b"  # the bot and the friend are two
    assert games[0]["lineup"] == [0, 1, 2] and games[1]["lineup"] == [0, 3, 2]
    first, second = games[0]["totals"], games[1]["totals"]
    history = {r["room"]: r for r in c.get("/api/history", headers={"X-Token": b["token"]}).json()}[code]
    assert history["names"][history["seat"]] == "b" and history["totals"][history["seat"]] == second[1]
    assert history["totals"][history["names"].index(None)] == first[1]  # bot 1 keeps its own hand
    host = {r["room"]: r for r in c.get("/api/history", headers={"X-Token": a["token"]}).json()}[code]
    assert host["totals"][host["seat"]] == first[0] + second[0]
    # the live table's match row: the seat shows the person there now, not the bot's points
    assert table.totals()[1] == second[1]


def _fresh(tmp_path, variant="sichuan", people=None):
    store = Store(f"sqlite:///{tmp_path / 'r.sqlite3'}")
    tables = Tables(store, 0.0)
    host, *others = (dict(zip(("id", "token"), store.create_player(n)), name=n) for n in ("h", "x", "y", "z", "w"))
    body = {"variant": variant} | ({"people": people} if people else {})
    code = rooms.new_room(store, host, parse(NewRoom, body))
    return store, tables, host, others, code


def test_simultaneous_joins_to_a_room_not_in_memory_each_get_their_own_seat(tmp_path):
    store, tables, host, others, code = _fresh(tmp_path)
    assert code not in tables.live  # just created: nobody has opened it

    async def joins():
        return await asyncio.gather(*(rooms.take_seat(tables.aio, tables, store.room(code), p) for p in others[:3]))

    try:
        seated = asyncio.run(joins())
    finally:
        tables.close()
    assert sorted(s.seat for s in seated) == [1, 2, 3]
    stored = [s["player"] for s in store.room(code)["seats"]]
    assert sorted(stored[1:]) == sorted(p["id"] for p in others[:3]) and stored[0] == host["id"]
    for p, s in zip(others, seated):  # each one's history lists the match at their own seat
        assert store.history(p["id"])[0]["seat"] == s.seat


def test_a_join_racing_the_start_is_seated_in_the_hand_or_from_the_next_one_never_both(tmp_path):
    for attempt in range(4):
        (tmp_path / str(attempt)).mkdir()
        store, tables, host, others, code = _fresh(tmp_path / str(attempt))
        friend = others[0]

        async def race():
            table = await tables.obtain(code)
            seated, _ = await asyncio.gather(rooms.take_seat(tables.aio, tables, store.room(code), friend),
                                             table.ask_start())
            if table.state.match is MatchState.READY_CHECK:  # seated first: the deal waits for their 准备
                assert seated.how == "seat" and table.waiting_for() == [seated.seat] and not store.games_of(code)
                await table.set_ready(seated.seat)
                await table.begin()
            return seated

        try:
            seated = asyncio.run(race())
            table = tables.live[code]
            lineup = store.games_of(code)[0]["lineup"]
            if seated.how == "seat":  # seated before the deal: they play the first hand
                assert lineup["seats"][seated.seat]["player"] == friend["id"] and table.human(seated.seat)
            else:  # after it: a bot plays this hand, the seat is theirs from the next one
                assert seated.how == "next_hand" and lineup["seats"][seated.seat]["player"] is None
                assert not table.human(seated.seat)
                assert store.room(code)["seats"][seated.seat]["next"]["player"] == friend["id"]
        finally:
            tables.close()


def test_a_four_person_deal_is_stored_whole_or_not_at_all(tmp_path, monkeypatch):
    """The sit-out swap, the lineup and the new hand are one transaction: a failure leaves the
    room as it was, and the deal after it swaps once."""
    c = client(tmp_path)
    code, ps = started_room(c, "abcd", ready="bc", variant="kawuxing", hands=3, people=4, sit_out="rotate")
    table = fast(c, code, turn=0.02, claim=0.02, ready=600)  # missed timers play the hand out
    store = c.app.state.store
    with c.websocket_connect(f"/ws/{code}", headers={"X-Token": ps[0]["token"]}):
        wait_for(lambda: table.game.over and table.state.match is MatchState.BETWEEN_HANDS)
    seats_before, bench_before = store.room(code)["seats"], store.room(code)["settings"]["four"]["bench"]
    real = store.start_hand
    calls = []

    def failing(*args, **kw):
        calls.append(kw)
        raise StoreError("the database went away")

    monkeypatch.setattr(store, "start_hand", failing)
    with pytest.raises(StoreError):
        c.portal.call(table.next_hand)
    assert calls and "seats" in calls[0]["room_values"]  # the swap was part of the failed transaction
    assert store.room(code)["seats"] == seats_before and store.room(code)["settings"]["four"]["bench"] == bench_before
    assert table.hand_index == 0 and [s["player"] for s in table.room["seats"]] == [s["player"] for s in seats_before]
    monkeypatch.setattr(store, "start_hand", real)
    # a restart here resumes the finished hand with its seats; its next deal swaps once
    c.app.state.tables.live.pop(code).close()
    again = c.app.state.tables.get(code)
    assert again.hand_index == 0 and [s["player"] for s in again.room["seats"]] == [s["player"] for s in seats_before]
    c.portal.call(again.next_hand)
    games = store.games_of(code)
    assert [g["hand_index"] for g in games] == [0, 1]
    first, second = (g["lineup"] for g in games)
    resting = first["seats"][0]["player"]  # rotate: seat 0 rests after hand 0
    assert second["bench"]["player"] == resting and second["seats"][0]["player"] == first["bench"]["player"]
    assert [x["player"] for x in second["seats"][1:]] == [x["player"] for x in first["seats"][1:]]


def test_no_move_is_stored_after_a_dissolve_carried(tmp_path):
    c = client(tmp_path)
    a = player(c, "a")
    code = make_room(c, a["token"], variant="sichuan", hands=2)
    c.post(f"/api/rooms/{code}/start", headers={"X-Token": a["token"]})
    table = fast(c, code)
    store = c.app.state.store
    with c.websocket_connect(f"/ws/{code}", headers={"X-Token": a["token"]}) as ws:
        ws.send_json({"type": "dissolve", "agree": True})
        wait_for(lambda: table.state.match is MatchState.DISSOLVED)
        lines = len(store.games_of(code)[-1]["records"])
        # a bot whose decision was in flight when the vote carried: its move is dropped
        g = table.game
        for seat in g.pending_seats():
            c.portal.call(table._bot_act, seat)
    assert len(store.games_of(code)[-1]["records"]) == lines


def test_a_rematch_seat_is_kept_when_its_host_deals_at_once(tmp_path):
    c = client(tmp_path)
    code, (a, b) = started_room(c, "ab", variant="kawuxing", hands=1)
    table = fast(c, code, turn=0.02, claim=0.02)
    with c.websocket_connect(f"/ws/{code}", headers={"X-Token": a["token"]}):
        wait_for(lambda: table.state.match is MatchState.FINISHED)
    new = c.post(f"/api/rooms/{code}/rematch", headers={"X-Token": a["token"]}).json()["code"]
    assert c.app.state.store.room(new)["seats"][1]["for"] == b["id"]
    assert c.post(f"/api/rooms/{new}/start", headers={"X-Token": a["token"]}).json() == {"status": "playing"}
    joined = c.post(f"/api/rooms/{code}/rematch", headers={"X-Token": b["token"]}).json()
    assert joined == {"code": new, "seat": 1}  # their kept seat, from the rematch's next hand
    assert c.app.state.store.room(new)["seats"][1]["next"]["player"] == b["id"]
    # nobody else is given it meanwhile
    d = player(c, "d")
    other = c.post(f"/api/rooms/{new}/join", headers={"X-Token": d["token"]}).json()
    assert other["seat"] != 1


def test_two_rematch_joins_at_once_keep_both(tmp_path):
    store, tables, host, others, code = _fresh(tmp_path)
    x, y = others[:2]

    async def play():
        for p in (x, y):
            await rooms.take_seat(tables.aio, tables, store.room(code), p)
        table = await tables.obtain(code)
        for seat in (1, 2):
            await table.set_ready(seat)
        await table.ask_start()
        async with table.lock:
            table.state = replace(table.state, match=MatchState.FINISHED)
        store.update_room(code, status="finished")
        offer = await rooms.rematch(tables.aio, tables, store.room(code), host)
        return offer, await asyncio.gather(*(rooms.rematch(tables.aio, tables, store.room(code), p) for p in (x, y)))

    try:
        offer, joined = asyncio.run(play())
    finally:
        tables.close()
    new = offer["code"]
    assert {j["code"] for j in joined} == {new} and sorted(j["seat"] for j in joined) == [1, 2]
    seats = store.room(new)["seats"]
    assert [seats[1]["player"], seats[2]["player"]] == [x["id"], y["id"]]


def two_hands_four_people(c):
    """A four-person Kawuxing room of two hands played to its end, everyone at the table and in 托管
    (a table nobody seated is at pauses): a sits out hand 2, d hand 1. Returns the code and a, b, c, d."""
    code, ps = started_room(c, "abcd", ready="bc", variant="kawuxing", hands=2, people=4, sit_out="rotate")
    table = fast(c, code, turn=0.02, claim=0.02, ready=0.05)
    with contextlib.ExitStack() as stack:
        ws = [stack.enter_context(c.websocket_connect(f"/ws/{code}", headers={"X-Token": p["token"]})) for p in ps]
        wait_for(lambda: table.hand_index == 1 or (table.game.over and table.state.match is MatchState.BETWEEN_HANDS))
        ws[0].send_json({"type": "ready"})  # players in 托管 only: the next hand waits for one's 准备
        wait_for(lambda: table.state.match is MatchState.FINISHED, seconds=60)
    return code, ps


def test_a_replay_names_who_played_that_hand(tmp_path):
    c = client(tmp_path)
    code, _ = two_hands_four_people(c)
    first = c.get(f"/api/rooms/{code}/games/0/frames").json()
    second = c.get(f"/api/rooms/{code}/games/1/frames").json()
    assert first["names"] == ["a", "b", "c"]
    assert second["names"] == ["d", "b", "c"]  # a rested in hand 2 (rotate): d played seat 0


def test_simultaneous_creates_keep_a_host_within_the_room_limit(tmp_path):
    store = Store(f"sqlite:///{tmp_path / 'l.sqlite3'}")
    host = dict(zip(("id", "token"), store.create_player("h")), name="h")
    answers = []

    def create():
        try:
            answers.append(rooms.new_room(store, host, parse(NewRoom, {"variant": "kawuxing"})))
        except rooms.Refusal as refusal:
            answers.append(refusal.code)

    threads = [threading.Thread(target=create) for _ in range(40)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    made = [a for a in answers if a != "rate.rooms_hosted"]
    assert len(made) == rooms.MAX_OPEN_ROOMS and store.open_rooms_hosted(host["id"])[0] == rooms.MAX_OPEN_ROOMS
