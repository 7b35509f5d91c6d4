"""kill -9 at any moment: a four-person Kawuxing room (the sit-out rotates every hand) is played by
a server process that is killed with SIGKILL at random moments, again and again, each time resumed
by a new process on the same database. After every kill, what is stored is whole: hands numbered
without a gap, each with its lineup, the room's seats and bench those of the last hand dealt (the
swap and the new hand are one transaction), finished hands' points summing to zero; and at the end
each person's match total is the sum over the hands they played, by the lineups.

Run as a script, this file is the server process: ``python test_server_crash.py DB CODE``.
"""

from __future__ import annotations

import asyncio
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

HANDS = 4
MOVE_DELAY = 0.02  # the bots' pause (托管 plays at a twentieth of the usual): a hand takes a few seconds


# -- the server process ---------------------------------------------------------------------------


async def _serve(db: str, code: str) -> None:
    from majiang.server.errors import Refusal
    from majiang.server.match import MatchState
    from majiang.server.presence import Connection
    from majiang.server.store import Store
    from majiang.server.tables import Tables

    store = Store(f"sqlite:///{db}")
    tables = Tables(store, MOVE_DELAY)
    table = await tables.obtain(code)

    async def nothing(message) -> None:
        return None

    people = [s["player"] for s in table.room["seats"]] + [table.four["bench"]["player"]]
    for p in people:  # every person's page is open (a connection follows its player to a new seat)
        ids = [s.get("player") for s in table.room["seats"]]
        table.connect(Connection(nothing, ids.index(p) if p in ids else None, p))
    print("ready", flush=True)  # loaded and resumed: the parent's kill counts from here
    while table.room["status"] != "finished":
        state = table.state
        for s in range(table.n):
            if state.match.in_play and table.human(s) and not state.auto[s]:
                await table.set_auto(s, True)  # 托管 plays every person's turns at once
        if table.room["status"] == "lobby":
            for s in range(1, table.n):
                await table.set_ready(s)
            await table.ask_start()
        elif table.state.match is MatchState.BETWEEN_HANDS:
            for s in range(table.n):
                if not table.state.ready[s]:
                    try:
                        await table.set_ready(s)
                    except Refusal:
                        pass  # the next hand was dealt meanwhile
        await asyncio.sleep(0.005)
    tables.close()


# -- the test -------------------------------------------------------------------------------------


def _check_stored(store, code: str, finished: bool = False) -> list[dict]:
    """What is stored after a kill is whole; returns the hands."""
    room = store.room(code)
    games = store.games_of(code)
    assert [g["hand_index"] for g in games] == list(range(len(games)))  # no gap, no hand twice
    for g in games:
        lineup = g["lineup"]
        assert lineup is not None and len(lineup["seats"]) == 3 and lineup["bench"]  # each hand its lineup
        people = [x["player"] for x in lineup["seats"]] + [lineup["bench"]["player"]]
        assert None not in people and len(set(people)) == 4  # a person one place a hand
        if g["finished"]:
            assert sum(g["totals"]) == 0
    if games:  # the room's seats are the last deal's: the swap was stored with its hand
        last = games[-1]["lineup"]
        assert [s["player"] for s in room["seats"]] == [x["player"] for x in last["seats"]]
        assert room["settings"]["four"]["bench"]["player"] == last["bench"]["player"]
        assert room["status"] in ("playing", "finished")
        for g in games[:-1]:
            assert g["finished"]  # a new hand only after the last one ended
    if finished:
        assert room["status"] == "finished" and len(games) == HANDS and all(g["finished"] for g in games)
    return games


def _run(db: Path, code: str, kill_after: float | None) -> None:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(Path(__file__).resolve().parents[2] / "src"),
                                                       os.environ.get("PYTHONPATH", "")]))
    proc = subprocess.Popen([sys.executable, __file__, str(db), code], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        if kill_after is None:
            _, err = proc.communicate(timeout=240)
            assert proc.returncode == 0, err.decode()[-2000:]
            return
        ready = proc.stdout.readline()  # (the process's start-up and the table's resume are not the point)
        assert ready == b"ready\n" or proc.poll() is not None, ready
        try:
            proc.wait(timeout=kill_after)
        except subprocess.TimeoutExpired:
            proc.send_signal(signal.SIGKILL)  # kill -9: no cleanup, whatever write was in flight
        proc.wait(timeout=30)
        assert proc.returncode in (0, -signal.SIGKILL), proc.stderr.read().decode()[-2000:]
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        proc.stdout.close()
        proc.stderr.close()


def test_kill_9_at_random_moments_leaves_every_hand_whole_and_each_person_their_own_points(tmp_path):
    pytest.importorskip("sqlalchemy")
    pytest.importorskip("fastapi")
    from majiang.server import rooms
    from majiang.server.requests import NewRoom, parse
    from majiang.server.store import Store

    db = tmp_path / "crash.sqlite3"
    store = Store(f"sqlite:///{db}")
    host, *others = (dict(zip(("id", "token"), store.create_player(n)), name=n) for n in "abcd")
    body = {"variant": "kawuxing", "people": 4, "sit_out": "rotate", "hands": HANDS, "bots": "greedy"}
    code = rooms.new_room(store, host, parse(NewRoom, body))

    async def seat_everyone():
        from majiang.server.tables import Tables
        tables = Tables(store, 0.0)
        try:
            for p in others:
                await rooms.take_seat(tables.aio, tables, store.room(code), p)
        finally:
            tables.close()
    asyncio.run(seat_everyone())

    rng = random.Random(45)
    kills = 0
    deadline = time.monotonic() + 150
    while store.room(code)["status"] != "finished" and kills < 8 and time.monotonic() < deadline:
        _run(db, code, kill_after=rng.uniform(0.1, 2.5))
        kills += 1
        _check_stored(store, code)
    _run(db, code, kill_after=None)  # the last process plays the match out
    games = _check_stored(store, code, finished=True)
    assert kills >= 3

    # each person's total is the sum over the hands they played, by each hand's lineup
    expected: dict[str, int] = {}
    for g in games:
        for x, points in zip(g["lineup"]["seats"], g["totals"]):
            expected[x["player"]] = expected.get(x["player"], 0) + points
    for p in [host, *others]:  # 战绩: each person's row in the match record
        row = next(r for r in store.history(p["id"]) if r["room"] == code)
        assert row["names"][row["seat"]] == p["name"] and row["totals"][row["seat"]] == expected[p["id"]]
    assert sum(expected.values()) == 0 and sum(len(g["records"]) > 1 for g in games) == HANDS

if __name__ == "__main__":
    asyncio.run(_serve(sys.argv[1], sys.argv[2]))
