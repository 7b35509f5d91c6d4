"""复盘 on the server: a finished hand's review of your own seat only, stored once, rate-limited,
refused while the hand is played; on SQLite and (where it is installed) PostgreSQL."""

from __future__ import annotations

import contextlib
import os
import socket
import time

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("sqlalchemy")
from fastapi.testclient import TestClient  # noqa: E402

from majiang.server.app import create_app  # noqa: E402
from majiang.server.match import MatchState  # noqa: E402
from test_server import _OPEN, _close_clients, make_room, player, started_room  # noqa: E402, F401
from test_server_room import fast, two_hands_four_people, wait_for  # noqa: E402


def review_client(url: str, per_minute: int = 2) -> TestClient:
    """A server whose reviews are cheap (2 samples a decision: the tests need their shape, not their depth)."""
    c = TestClient(create_app(url, bot_delay=0.0, review_budget=2, reviews_per_minute=per_minute))
    c.__enter__()
    _OPEN.append(c)
    return c


def review(c, code, hand, who, method="get"):
    return getattr(c, method)(f"/api/rooms/{code}/games/{hand}/review", headers={"X-Token": who["token"]})


def until_done(c, code, hand, who, seconds=60.0):
    end = time.monotonic() + seconds
    while True:
        r = review(c, code, hand, who)
        if r.status_code == 200:
            return r.json()
        assert r.status_code == 202 and r.json()["status"] in ("queued", "running"), r.text
        assert time.monotonic() < end, "the review never finished"
        time.sleep(0.05)


def check_reviews(c, url):
    code, (a, b, cc, d) = two_hands_four_people(c)
    stranger = player(c, "zed")
    reviews = c.app.state.server.reviews
    # nobody asked yet
    r = review(c, code, 0, a)
    assert r.status_code == 404 and r.json()["code"] == "review.not_requested"
    # a played seat 0 of hand 1 (index 0): theirs to ask for
    first = review(c, code, 0, a, "post")
    assert first.status_code in (200, 202) and first.json()["seat"] == 0
    done = until_done(c, code, 0, a)
    assert done["status"] == "done" and done["seat"] == 0
    got = done["review"]
    assert got["seat"] == 0 and got["budget"] == 2 and 0 <= (got["match_rate"] or 0) <= 1 and got["total_loss"] >= 0
    frames = c.get(f"/api/rooms/{code}/games/0/frames").json()["frames"]
    for dec in got["decisions"]:
        assert {"index", "played", "best", "loss", "severity", "options", "frame"} <= set(dec)
        assert 0 <= dec["frame"] < len(frames)
        assert frames[dec["frame"] + 1]["label"].startswith("seat 0: ")  # the action that followed is seat 0's
    assert reviews.computed == 1
    # stored once: asking again, or another worker on the same database, computes nothing
    again = review(c, code, 0, a, "post")
    assert again.status_code == 200 and again.json()["review"] == got
    assert reviews.computed == 1
    # a sat hand 2 out (rotate): no seat of theirs to review; d sat hand 1 out
    for hand, who in ((1, a), (0, d)):
        for method in ("get", "post"):
            r = review(c, code, hand, who, method)
            assert r.status_code == 403 and r.json()["code"] == "review.not_your_seat", (hand, method)
    # a stranger (a spectator) sees nothing; b sees only their own seat's, never a's
    for method in ("get", "post"):
        r = review(c, code, 0, stranger, method)
        assert r.status_code == 403 and r.json()["code"] == "review.not_your_seat"
    r = review(c, code, 0, b)
    assert r.status_code == 404 and r.json()["code"] == "review.not_requested"
    assert c.get(f"/api/rooms/{code}/games/0/review").status_code == 401  # nobody: who are you?
    # the rate: b may start 2 a minute (stored ones and ones under way cost nothing)
    assert review(c, code, 0, b, "post").status_code in (200, 202)
    assert review(c, code, 0, b, "post").status_code in (200, 202)  # the same one again: free
    assert review(c, code, 1, b, "post").status_code in (200, 202)
    until_done(c, code, 0, b)
    mine = until_done(c, code, 1, b)
    assert mine["seat"] == 1 and mine["review"]["seat"] == 1
    reviews.jobs.clear()
    with c.app.state.store.engine.begin() as conn:  # forget b's stored review of hand 2, to ask again
        conn.exec_driver_sql("DELETE FROM hand_reviews WHERE seat = 1")
    r = review(c, code, 1, b, "post")
    assert r.status_code == 429 and r.json()["code"] == "rate.reviews" and r.json()["params"] == {"per_minute": 2}
    # a second server on the same database answers from the store
    other = review_client(url)
    r = review(other, code, 0, a, "post")
    assert r.status_code == 200 and r.json()["review"] == got and other.app.state.server.reviews.computed == 0
    # a hand in play is never reviewed
    live = make_room(c, a["token"], variant="sichuan")
    c.post(f"/api/rooms/{live}/start", headers={"X-Token": a["token"]})
    for method in ("get", "post"):
        r = review(c, live, 0, a, method)
        assert r.status_code == 409 and r.json()["code"] == "review.hand_not_finished"
    r = review(c, live, 5, a, "post")
    assert r.status_code == 404 and r.json()["code"] == "replay.not_found"
    assert review(c, "000000", 0, a, "post").status_code == 404


def test_reviews_of_own_seat_stored_once_and_limited(tmp_path):
    url = f"sqlite:///{tmp_path / 'db'}.sqlite3"
    check_reviews(review_client(url), url)


def test_reviews_on_postgresql():
    pytest.importorskip("psycopg")
    import test_server_postgres as pg  # skips this module's test where PostgreSQL is not installed

    with contextlib.contextmanager(pg.cluster)("54331") as url:
        check_reviews(review_client(url), url)


def test_a_review_computed_in_the_bot_workers_is_the_one_a_thread_computes():
    """The process pool's path: the job and its answer cross to a worker and back (the same seed,
    the same review)."""
    import asyncio

    from majiang import Game
    from majiang.bots import GreedyAgent
    from majiang.engine.log import game_records
    from majiang.play.runner import play_hand
    from majiang.server.bots import BotRunner
    from majiang.server.reviews import Reviews, compute

    records = game_records(play_hand(Game("sichuan", seed=7), [GreedyAgent(s) for s in range(4)]))
    from majiang.server.priority import current_priority

    runner = BotRunner(1)
    reviews = Reviews(None, runner, budget=2)
    try:
        pooled = asyncio.run(reviews._compute(records, 2, 5))
        # the reviews' own process, beside the bots' one, at the lowest priority there is
        assert reviews.own is not None and reviews.own.workers == reviews.at_once == 1 and reviews.own.idle
        priority = reviews.own.pool.submit(current_priority).result(timeout=30)
        assert priority == ("idle" if hasattr(os, "SCHED_IDLE") else "nice 19")
        assert runner.pool.submit(current_priority).result(timeout=30) != priority  # the bots' is not lowered
    finally:
        reviews.close()
        runner.close()
    assert pooled == compute(records, 2, 2, 5) and pooled["seat"] == 2


def one_finished_hand(c, who):
    """A one-hand Kawuxing room of ``who`` and two bots, played to the end (``who`` in 托管)."""
    code = make_room(c, who["token"], variant="kawuxing")
    c.post(f"/api/rooms/{code}/start", headers={"X-Token": who["token"]})
    table = fast(c, code, turn=0.02, claim=0.02, ready=0.05)
    with c.websocket_connect(f"/ws/{code}", headers={"X-Token": who["token"]}):
        wait_for(lambda: table.state.match is MatchState.FINISHED, seconds=60)
    return code


def stored_reviews(url: str) -> list[tuple]:
    from sqlalchemy import create_engine, text

    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            return [tuple(r) for r in conn.execute(text("SELECT game, seat, budget FROM hand_reviews"))]
    finally:
        engine.dispose()


def gone(pid: int) -> bool:
    """The process has ended (a zombie nobody reaps yet counts: it runs nothing)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] == "Z"
    except FileNotFoundError:
        return True


@pytest.mark.parametrize("workers", [1, 0])
def test_a_server_stopping_mid_review_stops_at_once_and_stores_nothing_of_it(tmp_path, workers):
    """A review far too long to finish (the highest budget) is cut short by the server's stop: the
    stop is prompt, the review's process is gone, nothing of it is stored, and the next server
    computes it anew when asked (the stored state is as if it had never been asked for)."""
    from majiang.play.review import MAX_BUDGET

    url = f"sqlite:///{tmp_path / 'stop'}.sqlite3"
    c = TestClient(create_app(url, bot_delay=0.0, bot_workers=workers, review_budget=MAX_BUDGET))
    c.__enter__()
    try:
        a = player(c, "a")
        code = one_finished_hand(c, a)
        assert review(c, code, 0, a, "post").status_code == 202
        wait_for(lambda: review(c, code, 0, a).json()["status"] == "running")
        time.sleep(0.5)  # well into it
        reviews = c.app.state.server.reviews
        pids = list(reviews.own.pool._processes) if workers else []
        assert pids and all(not gone(p) for p in pids) or not workers
    finally:
        began = time.monotonic()
        c.__exit__(None, None, None)
        took = time.monotonic() - began
    # a thread's review ends at its next decision: at this budget, seconds of one core
    assert took < (5.0 if workers else 30.0), f"the server took {took:.1f} s to stop"
    assert all(gone(p) for p in pids)
    assert stored_reviews(url) == []
    again = review_client(url)
    r = review(again, code, 0, a)
    assert r.status_code == 404 and r.json()["code"] == "review.not_requested"
    assert review(again, code, 0, a, "post").status_code == 202
    assert until_done(again, code, 0, a)["review"]["budget"] == 2
    assert [budget for _, _, budget in stored_reviews(url)] == [2]


def test_majiang_serve_stopped_mid_review_exits_at_once_and_leaves_nothing(tmp_path):
    """``majiang serve`` as a process, as the load bench stops it: SIGTERM while a review far too long
    to finish computes in its idle process (which the bots' pool shares a forkserver with) ends the
    server and every process it started within seconds, and nothing of the review is stored."""
    import json
    import signal
    import subprocess
    import sys
    from pathlib import Path

    httpx = pytest.importorskip("httpx")
    ws_client = pytest.importorskip("websockets.sync.client")
    from majiang.play.review import MAX_BUDGET

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    db = f"sqlite:///{tmp_path / 'serve.sqlite3'}"
    env = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parents[1] / "src"), HOME=str(tmp_path))
    proc = subprocess.Popen([sys.executable, "-m", "majiang", "serve", "--port", str(port), "--db", db,
                             "--bot-workers", "2", "--bot-delay", "0", "--review-budget", str(MAX_BUDGET)],
                            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    try:
        wait_for(lambda: proc.poll() is None and _answers(httpx, base), seconds=60)
        me = httpx.post(base + "/api/players", json={"name": "ana"}).json()
        who = {"X-Token": me["token"]}
        code = httpx.post(base + "/api/rooms", json={"variant": "kawuxing", "hands": 1, "bots": "greedy",
                                                     "timers": {"pace": "fast"}}, headers=who).json()["code"]
        httpx.post(base + f"/api/rooms/{code}/start", json={}, headers=who)
        with ws_client.connect(base.replace("http", "ws") + f"/ws/{code}", additional_headers=who,
                               open_timeout=10) as ws:
            while True:  # seat 0 plays the hand to its end: a win when it has one, else the first legal action
                msg = json.loads(ws.recv(timeout=60))
                if msg["type"] != "snapshot":
                    continue
                if msg["settlement"] is not None:
                    break
                legal = (msg["view"] or {}).get("legal") or []
                if legal:
                    wins = [a for a in legal if a["type"] == "win"]
                    ws.send(json.dumps({"type": "action", "seq": msg["seq"], "action": (wins or legal)[0]}))
        path = base + f"/api/rooms/{code}/games/0/review"
        assert httpx.post(path, json={}, headers=who).status_code == 202
        wait_for(lambda: httpx.get(path, headers=who).json()["status"] == "running", seconds=30)
        time.sleep(1.0)  # well into it
        started = descendants(proc.pid)
        # the review's process: at idle priority (/proc's policy field: 5 is SCHED_IDLE), busy with it
        policies = {p: int(Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()[38]) for p in started}
        assert sorted(policies.values()).count(5) == 1, policies
        began = time.monotonic()
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=30)
        took = time.monotonic() - began
        wait_for(lambda: all(gone(p) for p in started), seconds=10)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=20)
    assert took < 10.0, f"the server took {took:.1f} s to stop"
    assert stored_reviews(db) == []


def descendants(pid: int) -> set[int]:
    """Every process under ``pid`` (read from /proc)."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            with contextlib.suppress(OSError):
                with open(f"/proc/{entry}/stat") as f:
                    children.setdefault(int(f.read().rsplit(")", 1)[1].split()[1]), []).append(int(entry))
    found, todo = set(), [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            found.add(child)
            todo.append(child)
    return found


def _answers(httpx, base: str) -> bool:
    try:
        return httpx.get(base + "/api/server", timeout=2).status_code == 200
    except httpx.HTTPError:
        return False


def test_a_review_process_that_died_fails_its_review_and_the_next_gets_a_fresh_one(tmp_path):
    """A review process killed (out of memory, an operator) fails the review it had, never every
    review after it: asking again computes on fresh processes."""
    import signal

    c = TestClient(create_app(f"sqlite:///{tmp_path / 'died'}.sqlite3", bot_delay=0.0, bot_workers=1,
                              review_budget=2))
    c.__enter__()
    _OPEN.append(c)
    a = player(c, "a")
    first, second = one_finished_hand(c, a), one_finished_hand(c, a)
    review(c, first, 0, a, "post")
    assert until_done(c, first, 0, a)["status"] == "done"
    reviews = c.app.state.server.reviews
    for pid in list(reviews.own.pool._processes):
        os.kill(pid, signal.SIGKILL)
    time.sleep(0.5)
    review(c, second, 0, a, "post")
    failed = until_done(c, second, 0, a)
    assert failed["status"] == "failed" and failed["error"] == "review.failed"
    assert review(c, second, 0, a, "post").status_code in (200, 202)  # asking again tries again
    assert until_done(c, second, 0, a)["status"] == "done" and reviews.computed == 2
