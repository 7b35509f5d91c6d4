"""托管 only for a player who is gone, the hint that says 胡, and the friends' flow on the server:
idempotent rooms, six-digit codes, the invite link and its QR code, 回到牌桌, a seat from the next hand."""

from __future__ import annotations

import random
import time
from dataclasses import replace

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("sqlalchemy")

from majiang.engine import Game  # noqa: E402
from majiang.games.rules import rules_for  # noqa: E402
from majiang.server import sitout  # noqa: E402
from majiang.server.actions import player_default  # noqa: E402
from majiang.server.clock import MISSES_BEFORE_AUTO, TableSettings  # noqa: E402
from majiang.server.match import MatchState  # noqa: E402
from majiang.server.views import _compute_hints  # noqa: E402
from test_server import _OPEN, _close_clients, client, make_room, player, started_room  # noqa: E402, F401

NEUTRAL = {"discard", "win", "pass", "exchange", "void"}


def decisions(variant: str, preset: str | None, hands: int, seed: int):
    """Every (game, seat, legal) met while greedy players play ``hands`` hands, with a random action
    one time in five (claims and declarations get taken too)."""
    from majiang.bots import make_agent

    rng = random.Random(seed)
    greedy = make_agent("greedy", seed=seed)
    for h in range(hands):
        g = Game(rules_for(variant, preset), seed=f"{seed}-{h}")
        steps = 0
        while not g.over and steps < 2000:
            seat = g.pending_seats()[0]
            legal = g.legal_actions(seat)
            yield g, seat, legal
            g.apply(seat, rng.choice(legal) if rng.random() < 0.2 else greedy.act(g.observation(seat), legal))
            steps += 1


@pytest.mark.parametrize("variant,preset", [("kawuxing", None), ("kawuxing", "xiangyang"), ("sichuan", None),
                                            ("sichuan", "modern")])
def test_tuoguan_and_a_missed_timer_never_make_a_players_choice(variant, preset):
    """It wins when it can, passes claims, discards; never a kong, pong or 亮倒/唱歌/跳舞."""
    seen = set()
    for g, seat, legal in decisions(variant, preset, hands=12, seed=3):
        for safe in (True, False):
            action, choices = player_default(legal, g.last_draw, safe)
            made = [action] if action is not None else choices
            assert all(a.type in NEUTRAL for a in made), (legal, made)
            if any(a.type == "win" for a in legal):
                assert action is not None and action.type == "win"
            elif any(a.type == "pass" for a in legal):
                assert action.type == "pass"
            seen |= {a.type for a in legal}
    assert {"pong", "discard", "pass"} <= seen  # the positions did offer claims to refuse


@pytest.mark.parametrize("variant", ["kawuxing", "sichuan"])
def test_the_hint_never_advises_a_discard_while_a_win_is_legal(variant):
    wins = 0
    for g, seat, legal in decisions(variant, None, hands=30, seed=11):
        if any(a.type == "win" for a in legal):
            wins += 1
            assert _compute_hints(g, seat) == {"win": True}
    assert wins >= 5


def fast(c, code, turn=0.4, claim=0.4, ready=600.0):
    table = c.app.state.tables.get(code)
    table.settings = TableSettings(turn_seconds=turn, claim_seconds=claim, ready_seconds=ready)
    return table


def test_one_missed_timer_plays_the_drawn_tile_and_warns_two_in_a_row_start_tuoguan(tmp_path):
    c = client(tmp_path)
    me = player(c)
    code = make_room(c, me["token"], variant="kawuxing", timers={"turn_seconds": 300, "claim_seconds": 120})
    c.post(f"/api/rooms/{code}/start", headers={"X-Token": me["token"]})
    table = fast(c, code, turn=0.3, claim=60)
    with c.websocket_connect(f"/ws/{code}", headers={"X-Token": me["token"]}) as ws:
        misses = []
        while len(misses) < MISSES_BEFORE_AUTO:
            snap = ws.receive_json()
            if snap.get("type") != "snapshot" or snap["settlement"] is not None:
                continue
            you = snap["you"]
            if not misses or you["missed"] != misses[-1]:
                misses.append(you["missed"])
                if you["missed"] == 1:
                    assert not snap["room"]["auto"][0]  # warned, not in 托管
            if you["missed"] >= MISSES_BEFORE_AUTO:
                break
            if snap["room"]["auto"][0]:
                break
        while not table.state.auto[0]:
            time.sleep(0.05)
        assert table.state.missed[0] == MISSES_BEFORE_AUTO
        ws.send_json({"type": "auto", "on": False})  # any tap on the page
        deadline = time.monotonic() + 15  # (in a held claim window, once 托管 has answered it)
        while table.state.auto[0] and time.monotonic() < deadline:
            time.sleep(0.02)
        assert not table.state.auto[0] and table.state.missed[0] == 0, (table.fanout.holding, table.state.match)


def test_an_action_resets_the_count_of_missed_timers(tmp_path):
    c = client(tmp_path)
    me = player(c)
    code = make_room(c, me["token"], variant="kawuxing")
    c.post(f"/api/rooms/{code}/start", headers={"X-Token": me["token"]})
    table = fast(c, code, turn=300, claim=300)
    table.state = replace(table.state, missed=(1, 0, 0))
    with c.websocket_connect(f"/ws/{code}", headers={"X-Token": me["token"]}) as ws:
        snap = ws.receive_json()
        while not (snap.get("view") and snap["view"].get("legal")):
            snap = ws.receive_json()
        ws.send_json({"type": "action", "seq": snap["seq"], "action": snap["view"]["legal"][0]})
        for _ in range(100):
            if table.state.missed[0] == 0:
                break
            time.sleep(0.02)
    assert table.state.missed[0] == 0


def test_tuoguan_says_ready_only_for_a_player_who_is_there_and_an_absent_table_waits(tmp_path):
    c = client(tmp_path)
    code, (a, b) = started_room(c, "ab", variant="kawuxing", hands=2)
    table = c.app.state.tables.get(code)
    table.state = replace(table.state, auto=(True, True, False))
    assert not table.is_ready(0) and not table.is_ready(1)  # nobody connected: no 准备 said for them
    assert table.all_away()  # every human in 托管 or gone: the next hand waits for one of them
    table.state = replace(table.state, ready=(False, True, False))
    assert not table.all_away()


def test_a_reconnect_ends_tuoguan(tmp_path):
    c = client(tmp_path)
    me = player(c)
    code = make_room(c, me["token"], variant="sichuan")
    c.post(f"/api/rooms/{code}/start", headers={"X-Token": me["token"]})
    table = c.app.state.tables.get(code)
    table.state = replace(table.state, auto=(True,) + table.state.auto[1:])
    with c.websocket_connect(f"/ws/{code}", headers={"X-Token": me["token"]}) as ws:
        snap = ws.receive_json()
        while snap.get("type") != "snapshot":
            snap = ws.receive_json()
        assert not table.state.auto[0]


def test_a_double_tap_makes_one_room_and_codes_are_six_digits(tmp_path):
    c = client(tmp_path)
    me = player(c)
    h = {"X-Token": me["token"]}
    body = {"variant": "kawuxing", "hands": 1, "create_key": "k1-abcdefgh"}
    first, again = (c.post("/api/rooms", json=body, headers=h).json()["code"] for _ in range(2))
    assert first == again and len(first) == 6 and first.isdigit()
    other = c.post("/api/rooms", json=body | {"create_key": "k2-abcdefgh"}, headers=h).json()["code"]
    assert other != first
    for bad in ("short", "x" * 41, "<img src=x>", 5):
        r = c.post("/api/rooms", json=body | {"create_key": bad}, headers=h)
        assert r.status_code == 400 and "<img" not in r.text


def test_the_invite_link_its_qr_code_and_the_tables_one_sits_at(tmp_path):
    c = client(tmp_path)
    me = player(c)
    code = make_room(c, me["token"], variant="sichuan")
    r = c.get(f"/api/rooms/{code}/invite", headers={"host": "127.0.0.1:8000"})
    assert r.json()["url"] == f"http://127.0.0.1:8000/?room={code}" and r.json()["local_only"]
    svg = c.get(f"/api/rooms/{code}/qr.svg")
    assert svg.status_code == 200 and svg.headers["content-type"].startswith("image/svg+xml") and b"<svg" in svg.content
    assert c.get("/api/rooms/999999/qr.svg").status_code == 404
    rows = c.get("/api/tables", headers={"X-Token": me["token"]}).json()
    assert [x["room"] for x in rows] == [code] and rows[0]["seat"] == 0


def test_a_friend_who_joins_mid_match_takes_a_bots_seat_at_the_next_hand(tmp_path):
    c = client(tmp_path)
    a, b = player(c, "a"), player(c, "b")
    code = make_room(c, a["token"], variant="kawuxing", hands=2)
    c.post(f"/api/rooms/{code}/start", headers={"X-Token": a["token"]})
    table = fast(c, code, turn=300, claim=300, ready=0.3)
    r = c.post(f"/api/rooms/{code}/join", headers={"X-Token": b["token"]}).json()
    assert r == {"seat": 1, "next_hand": True}
    again = c.post(f"/api/rooms/{code}/join", headers={"X-Token": b["token"]}).json()
    assert again == r  # asking twice keeps the one seat
    assert not table.human(1) and table.room["seats"][1]["next"]["name"] == "b"
    assert [x["room"] for x in c.get("/api/tables", headers={"X-Token": b["token"]}).json()] == [code]
    with c.websocket_connect(f"/ws/{code}", headers={"X-Token": a["token"]}) as wa, \
            c.websocket_connect(f"/ws/{code}", headers={"X-Token": b["token"]}) as wb:
        wa.send_json({"type": "auto", "on": True})  # the host's seat plays itself to the end of the hand
        seat, deadline = None, time.monotonic() + 60
        while time.monotonic() < deadline:
            snap = wb.receive_json()
            if snap.get("type") == "snapshot" and snap["seat"] is not None:
                seat = snap["seat"]
                break
            if snap.get("type") == "snapshot" and snap["settlement"] is not None and not table.state.ready[0]:
                wa.send_json({"type": "ready"})  # a table of players all in 托管 waits for one's 准备
        assert seat == 1 and table.human(1) and table.hand_index == 1
        assert c.app.state.store.room(code)["seats"][1]["player"] == b["id"]


def test_guessing_room_codes_is_cut_off_after_a_few_misses(tmp_path):
    from fastapi.testclient import TestClient

    from majiang.server.app import create_app

    c = TestClient(create_app(f"sqlite:///{tmp_path / 'g.sqlite3'}", bot_delay=0.0, code_misses_per_10min=5))
    c.__enter__()
    _OPEN.append(c)
    me = player(c)
    code = make_room(c, me["token"], variant="kawuxing")
    assert c.get(f"/api/rooms/{code}").status_code == 200  # hits cost nothing
    for guess in range(5):
        assert c.get(f"/api/rooms/{100000 + guess}").status_code == 404
    assert c.get(f"/api/rooms/{code}").status_code == 429  # out of misses: no answer, hit or miss
    with c.websocket_connect(f"/ws/{code}") as ws:
        assert "too many unknown room codes" in ws.receive_json()["message"]


def wait_for(condition, seconds=30.0):
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.02)


@pytest.mark.parametrize("rule", ["winner", "rotate"])
def test_four_friends_at_a_kawuxing_table_take_turns_sitting_out(tmp_path, rule):
    import contextlib as cl

    c = client(tmp_path)
    ps = [player(c, n) for n in "abcd"]
    code = make_room(c, ps[0]["token"], variant="kawuxing", hands=4, people=4, sit_out=rule)
    seats = [c.post(f"/api/rooms/{code}/join", headers={"X-Token": p["token"]}).json()["seat"] for p in ps[1:]]
    assert seats == [1, 2, 3]  # the fourth sits out the first hand
    room = c.get(f"/api/rooms/{code}").json()
    assert room["bench"] == "d" and room["sit_out"] == rule
    assert [x["room"] for x in c.get("/api/tables", headers={"X-Token": ps[3]["token"]}).json()] == [code]
    for p in ps[1:3]:
        c.post(f"/api/rooms/{code}/ready", headers={"X-Token": p["token"]})
    c.post(f"/api/rooms/{code}/start", headers={"X-Token": ps[0]["token"]})
    table = fast(c, code, turn=0.2, claim=0.2, ready=600)
    # each deal as the driver makes it: the players go to 托管 (their timers run out), and 托管 says
    # 准备 for a player who is there, so a hand may follow the last one within milliseconds; what the
    # test compares is read at the deal itself, not by a poll that could fall on either side of it
    deals: list[dict] = []
    deal = table.next_hand

    async def recorded_deal() -> None:
        g, index = table.game, table.hand_index
        seen = {"before": [s["name"] for s in table.room["seats"]], "resting": table.four["bench"]["name"],
                "rests": sitout.resting_winner(g) if rule == "winner" else index % 3, "totals": g.totals()}
        await deal()
        if table.hand_index == index + 1:
            deals.append(seen | {"after": [s["name"] for s in table.room["seats"]],
                                 "bench": table.four["bench"]["name"], "by_person": dict(table.by_person),
                                 "resting_now": table.resting()["name"]})

    table.next_hand = recorded_deal
    with cl.ExitStack() as stack:
        for p in ps:
            stack.enter_context(c.websocket_connect(f"/ws/{code}", headers={"X-Token": p["token"]}))
        for hand in range(3):
            # 准备 once the finished hand is stored (a page's settlement comes only then), unless
            # 托管 has said it already and the next hand is dealt
            wait_for(lambda: len(deals) > hand or (table.game is not None and table.game.over
                                                  and table.state.match is MatchState.BETWEEN_HANDS))
            if len(deals) <= hand:
                for p in ps:
                    c.post(f"/api/rooms/{code}/ready", headers={"X-Token": p["token"]})
            wait_for(lambda: len(deals) > hand)
            d = deals[hand]
            before, after, rests = d["before"], d["after"], d["rests"]
            assert after[rests] == d["resting"] and d["bench"] == before[rests]
            assert [a for i, a in enumerate(after) if i != rests] == [b for i, b in enumerate(before) if i != rests]
            assert sum(d["by_person"].values()) == 0 and len(d["by_person"]) == 4
            assert d["resting_now"] == before[rests]
            assert sum(d["totals"]) == 0
        stored = c.app.state.store.room(code)
        assert stored["settings"]["four"]["bench"] == table.four["bench"]  # a restart resumes who sits out
        # the seat ledger: every hand stored with who sat where
        assert [g["lineup"] is not None for g in c.app.state.store.games_of(code)] == [True] * 4
    # who rested each hand, and each person's points, come back from the store alone
    from majiang.server.tables import Tables
    again = Tables(c.app.state.store).get(code)
    assert again.by_person == table.by_person or again.hand_index == table.hand_index


def test_the_history_of_a_four_person_room_counts_each_person_over_the_hands_they_played(tmp_path):
    from majiang.server.store import Store

    store = Store(f"sqlite:///{tmp_path / 'h.sqlite3'}")
    ps = [{"id": store.create_player(n)[0], "name": n} for n in "abcd"]
    seats = [{"player": p["id"], "name": p["name"], "bot": None} for p in ps[:3]]
    lineups = [[ps[0]["id"], ps[1]["id"], ps[2]["id"], ps[3]["id"]],
               [ps[3]["id"], ps[1]["id"], ps[2]["id"], ps[0]["id"]]]
    settings = {"four": {"rule": "winner", "bench": {"player": ps[0]["id"], "name": "a"}, "lineups": lineups}}
    code = store.create_room("kawuxing", {}, 1, 2, ps[0], [dict(s) for s in seats], settings)
    store.update_room(code, seats=[{"player": ps[3]["id"], "name": "d", "bot": None}] + seats[1:])
    for h, totals in enumerate([[4, -2, -2], [3, -3, 0]]):
        gid = store.start_hand(code, h, ["{}"])
        from majiang.server.store import Append
        store.append([Append(code, gid, 1, ("{}",), finished=True, totals=tuple(totals))])
    row = store.history(ps[0]["id"])[0]
    assert row["names"] == ["a", "b", "c", "d"] and row["totals"] == [4, -5, -2, 3] and row["seat"] == 0


def test_only_a_kawuxing_room_takes_four_people(tmp_path):
    c = client(tmp_path)
    me = player(c)
    h = {"X-Token": me["token"]}
    sichuan = c.post("/api/rooms", json={"variant": "sichuan"}, headers=h).json()["code"]
    assert "four" not in c.app.state.store.room(sichuan)["settings"]  # four seats, nobody sits out
    assert c.post("/api/rooms", json={"variant": "sichuan", "people": 5}, headers=h).status_code == 400
    assert c.post("/api/rooms", json={"variant": "kawuxing", "people": 4, "sit_out": "x"}, headers=h).status_code == 400
    kawuxing = c.post("/api/rooms", json={"variant": "kawuxing", "people": 4}, headers=h).json()["code"]
    assert c.app.state.store.room(kawuxing)["settings"]["four"]["rule"] == "winner"


def test_a_whole_hand_of_missed_timers_and_tuoguan_never_discards_into_a_shown_wait(tmp_path):
    """Issue #47: a timed-out turn discarded 六条 into a shown 听 六九条, 托管 白板 into a shown
    白板. A player who never acts plays a whole hand by missed timers and then 托管; replayed,
    no discard of theirs (nor of the bots) hits a shown wait while a safe one was legal."""
    from majiang.engine.safety import deals_in, unsafe_tiles

    c = client(tmp_path)
    me = player(c)
    code = make_room(c, me["token"], variant="kawuxing")
    c.post(f"/api/rooms/{code}/start", headers={"X-Token": me["token"]})
    table = fast(c, code, turn=0.02, claim=0.02)
    with c.websocket_connect(f"/ws/{code}", headers={"X-Token": me["token"]}) as ws:
        deadline = time.time() + 120
        while not (table.game is not None and table.game.over) and time.time() < deadline:
            ws.receive_json()
    g = table.game
    assert g is not None and g.over
    replay = Game(g.rules, seed=g.seed, hand_index=g.hand_index, dealer=g.dealer, wall=list(g.wall), dice=g.dice,
                  dealer_dice=g.dealer_dice)
    mine = 0
    for seat, action in g.actions:
        legal = replay.legal_actions(seat)
        if replay.phase == "turn":
            unsafe = unsafe_tiles(replay, seat)
            assert not deals_in(action, legal, unsafe), (seat, action)
            mine += seat == 0
        replay.apply(seat, action)
    # seat 0 played its turns by timers, then 托管; a hand meets a shown wait to avoid about one
    # time in two (the seeded deals of tests/engine/test_safety.py put player_default to it hundreds of times)
    assert mine and table.state.auto[0]
