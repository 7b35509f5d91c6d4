"""复盘 on the server: a finished hand's review of the asking person's own seat, computed once in
processes of the reviews' own at idle CPU priority and served from the store after that.

``POST /api/rooms/{code}/games/{hand}/review`` asks for it, ``GET`` the same path polls: the answer
is ``{"status", "seat", ...}`` with ``status`` one of ``queued`` (waiting for a free slot; ``ahead``
says how many are before it), ``running`` (``seconds`` since it started, ``decisions`` the seat's
actions in the hand), ``done`` (with ``review``: ``HandReview.to_json`` whose decisions also carry
``frame``, the replay's frame showing the position at that decision) or ``failed`` (with
``error``, a refusal's ``code``; asking again tries again).

Who may: only a person who played a seat of that hand, by the hand's own lineup (``games.lineup``:
who sat where in *that* hand, not who sits there now), and only for that seat; a spectator, the
bench and another seat's player are refused (``review.not_your_seat``), as is a hand still in play
(``review.hand_not_finished``: nothing is computed or shown while it is played).

What it costs: a review is ``review_hand`` at ``budget`` samples a decision (the CPU budget of a
request: a whole hand of one seat in a few seconds of one core with the native engine), never on
the event loop: in processes of the reviews' own (``at_once`` of them: half the bot workers, at
least one; a thread where the bots have none), at the lowest CPU priority the system has
(``priority.lower_priority``: Linux's SCHED_IDLE, else nice 19). A review so computes only on a core
that the server, its bots and everything else on the machine leave idle: it takes no CPU from a
live table (what it still costs one is the hardware the cores share: docs/BENCHMARKS.md), and it
waits for spare time rather than taking any (a machine busy to the last cycle would slow it to a
crawl, never stop it: SCHED_IDLE still gets a sliver). The rest wait in order. A person may start
``per_minute`` reviews a minute (``rate.reviews``); asking for one already stored, queued or
running costs nothing. A review is stored once per (hand, seat) (``hand_reviews``, revision 0008):
a second request, by the same person or after a restart, is answered from the store without
computing. A server that stops cuts its reviews short at once (their processes are stopped; a
thread's review stops at its next decision): nothing of them is stored, and asking again after the
restart computes them anew.
"""

from __future__ import annotations

import asyncio
import functools
import json
import logging
import threading
import time
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import insert, select

from majiang.core.errors import MajiangError
from majiang.server import seating
from majiang.server.bots import BotRunner
from majiang.server.db import StoreError, game_lines, games, hand_reviews
from majiang.server.errors import Refusal
from majiang.server.quiet import TableActivity, wait_for_tables
from majiang.server.rooms import room_or_404
from majiang.server.security import RateLimit
from majiang.server.store import Store
from majiang.server.store_async import AsyncStore

log = logging.getLogger("majiang.server")

REVIEWS_PER_MINUTE = 3  # reviews one person may start a minute (stored ones cost nothing)
JOBS_KEPT = 256  # reviews queued, running or failed that this worker remembers
# samples a decision when the native engine does not load: the search in Python is 30-60x slower, so
# the default budget would take minutes; this keeps a hand's review near ten seconds of one core (the
# review states its budget, and its noise is counted as such)
PYTHON_BUDGET = 8


# -- the store's part ------------------------------------------------------------------------------

def finished_hand(store: Store, code: str, hand: int) -> dict | None:
    """One stored hand of a room: ``id``, ``finished``, ``lineup`` (the seat ledger, parsed) and
    ``records`` (its log, only when finished); None when the room has no such hand."""
    with store.engine.connect() as conn:
        row = conn.execute(select(games.c.id, games.c.finished, games.c.lineup, games.c.log, games.c.hand_index)
                           .where(games.c.room == code, games.c.hand_index == hand)).mappings().first()
        if row is None:
            return None
        out = dict(row)
        out["lineup"] = json.loads(out["lineup"]) if out["lineup"] else None
        records = [json.loads(x) for x in out.pop("log").splitlines() if x]  # before revision 0004
        if out["finished"]:
            records += [json.loads(line) for (line,) in conn.execute(
                select(game_lines.c.line).where(game_lines.c.game == out["id"]).order_by(game_lines.c.n))]
        out["records"] = records
    return out


def stored_review(store: Store, game: int, seat: int) -> dict | None:
    """The stored review of ``seat`` in hand ``game`` (``games.id``), or None."""
    with store.engine.connect() as conn:
        text = conn.execute(select(hand_reviews.c.review).where(
            hand_reviews.c.game == game, hand_reviews.c.seat == seat)).scalar_one_or_none()
    return json.loads(text) if text else None


def store_review(store: Store, game: int, seat: int, review: dict, budget: int) -> None:
    """Store a review once: one stored meanwhile (another worker's) is kept as it is."""
    if stored_review(store, game, seat) is not None:
        return
    try:
        with store._write() as conn:
            conn.execute(insert(hand_reviews).values(game=game, seat=seat, review=json.dumps(review),
                                                     budget=budget, created=time.time()))
    except StoreError:
        if stored_review(store, game, seat) is None:  # not the other worker's row: the database failed
            raise


# -- the computation (in a worker process) ---------------------------------------------------------

class Stopped(Exception):
    """A review cut short because the server stops (a thread's review: processes are just stopped)."""


def compute(records: list[dict], seat: int, budget: int, seed: int, stop: threading.Event | None = None,
            activity: TableActivity | None = None) -> dict:
    """The review as JSON, each decision with ``frame``: the replay's frame (``replays.build_replay``:
    the deal, then one a logged action) that shows the position when the decision was made.
    ``stop``: once set, the review ends at its next decision (``Stopped``). It waits while the
    server's tables are busy (``quiet``): ``activity``'s in a thread of the server, the process's own
    in a review process."""
    from majiang.play.review import review_hand

    def progress(done: int, total: int) -> None:
        if stop is not None and stop.is_set():
            raise Stopped(f"stopped after {done} of {total} decisions")

    pause = functools.partial(activity.wait_for_quiet, stop) if activity is not None else wait_for_tables
    review = review_hand(records, seat, budget=budget, seed=seed, progress=progress, pause=pause).to_json()
    frames, before = 0, {}
    for i, r in enumerate(records):
        before[i] = frames
        if r.get("type") == "action":
            frames += 1
    for d in review["decisions"]:
        d["frame"] = before.get(d["index"], 0)
    return review


# -- the service -----------------------------------------------------------------------------------

@dataclass
class Job:
    """A review this worker was asked for and has not stored yet (or could not make)."""

    seat: int
    decisions: int
    status: str = "queued"  # queued, running, failed
    started: float = 0.0
    error: str | None = None
    task: Any = field(default=None, repr=False)


class Reviews:
    """``budget``: samples a decision (``review_hand``'s; None: its default, or ``PYTHON_BUDGET``
    without the native engine); ``per_minute``: reviews a person may start a minute; ``at_once``:
    reviews computed together (None: half the runner's workers, at least one)."""

    def __init__(self, store: Store, runner: BotRunner, budget: int | None = None,
                 per_minute: int = REVIEWS_PER_MINUTE, at_once: int | None = None,
                 activity: TableActivity | None = None) -> None:
        from majiang.bots.base import native_engine
        from majiang.play.review import DEFAULT_BUDGET

        self.store, self.runner = store, runner
        if budget is None:
            budget = DEFAULT_BUDGET if native_engine() is not None else PYTHON_BUDGET
        self.budget = budget
        self.rate = RateLimit(per_minute, 60.0)
        self.at_once = at_once if at_once is not None else max(1, runner.workers // 2)
        self.own: BotRunner | None = None  # the reviews' own idle processes, made at the first review
        self.activity = activity or TableActivity(0.0)  # the tables reviews wait for (``quiet``)
        self.stop = threading.Event()  # set when the server stops: a thread's review ends
        self.jobs: dict[tuple[int, int], Job] = {}  # (games.id, seat) -> not stored yet
        self.queue: list[tuple[int, int]] = []  # waiting, in order
        # (room code, hand, player id) -> the job's key, for whoever asked: their polls while it is
        # computed are answered without the database (a finished hand's seats never change)
        self.asked: dict[tuple[str, int, Any], tuple[int, int]] = {}
        self.computed = 0  # reviews computed by this worker (a stored one is never computed again)
        self._slots: asyncio.Semaphore | None = None

    @property
    def aio(self) -> AsyncStore:
        return AsyncStore.shared(self.store)

    async def _hand_and_seat(self, code: str, hand: int, player: dict) -> tuple[dict, int]:
        """The finished hand and the seat ``player`` played in it, or the refusal that says why not."""
        room = await self.aio.call(room_or_404, self.store, code)
        found = await self.aio.call(finished_hand, self.store, code, hand)
        if found is None:
            raise Refusal("replay.not_found", status=404)
        if not found["finished"]:
            raise Refusal("review.hand_not_finished", status=409)
        lineup = seating.hand_lineups([found], room)[hand]
        seats = [i for i, s in enumerate(lineup.seats) if s.get("player") == player["id"]]
        if not seats:
            raise Refusal("review.not_your_seat", status=403)
        return found, seats[0]

    def _answer(self, key: tuple[int, int], job: Job) -> dict:
        out: dict[str, Any] = {"status": job.status, "seat": job.seat, "decisions": job.decisions}
        if job.status == "queued":
            out["ahead"] = self.queue.index(key) if key in self.queue else 0
        elif job.status == "running":
            out["seconds"] = round(time.monotonic() - job.started, 1)
            out["waiting"] = self.activity.waiting()  # for the tables: they come first (``quiet``)
        elif job.status == "failed":
            out["error"] = job.error
        return out

    async def fetch(self, code: str, hand: int, player: dict) -> dict:
        """GET: the review of the person's own seat, or how far it is; ``review.not_requested``
        when nobody asked for it yet."""
        key = self.asked.get((code, hand, player["id"]))
        job = self.jobs.get(key) if key is not None else None
        if job is not None:  # a poll while it is computed: loading and checking the hand again costs the loop
            return self._answer(key, job)
        found, seat = await self._hand_and_seat(code, hand, player)
        key = (found["id"], seat)
        job = self.jobs.get(key)
        if job is not None:
            return self._answer(key, job)
        review = await self.aio.call(stored_review, self.store, found["id"], seat)
        if review is None:
            raise Refusal("review.not_requested", status=404)
        return {"status": "done", "seat": seat, "review": review}

    async def request(self, code: str, hand: int, player: dict) -> dict:
        """POST: the stored review, or one queued (or already under way) for the person's own seat."""
        found, seat = await self._hand_and_seat(code, hand, player)
        key = (found["id"], seat)
        job = self.jobs.get(key)
        if job is not None and job.status != "failed":
            return self._answer(key, job)
        review = await self.aio.call(stored_review, self.store, found["id"], seat)
        if review is not None:
            return {"status": "done", "seat": seat, "review": review}
        if self.rate.take(player["id"]) is None:
            raise Refusal("rate.reviews", status=429, per_minute=self.rate.count)
        mine = sum(1 for r in found["records"] if r.get("type") == "action" and r.get("seat") == seat)
        job = self.jobs[key] = Job(seat, mine)
        self.asked[(code, hand, player["id"])] = key
        self.queue.append(key)
        self._forget_old()
        job.task = asyncio.get_running_loop().create_task(self._run(key, job, found["records"]))
        return self._answer(key, job)

    def _forget_old(self) -> None:
        """Failed reviews are forgotten first once this worker remembers too many."""
        for key in [k for k, j in self.jobs.items() if j.status == "failed"][:max(0, len(self.jobs) - JOBS_KEPT)]:
            del self.jobs[key]
        if len(self.asked) > 2 * JOBS_KEPT:
            self.asked = {who: key for who, key in self.asked.items() if key in self.jobs}

    async def _run(self, key: tuple[int, int], job: Job, records: list[dict]) -> None:
        if self._slots is None:
            self._slots = asyncio.Semaphore(self.at_once)
        try:
            async with self._slots:
                self.queue.remove(key)
                job.status, job.started = "running", time.monotonic()
                review = await self._compute(records, job.seat, key[0])
                self.computed += 1
                await self.aio.call(store_review, self.store, key[0], job.seat, review, self.budget)
            del self.jobs[key]  # the store answers from now on
        except asyncio.CancelledError:
            self.jobs.pop(key, None)
            raise
        except StoreError:
            job.status, job.error = "failed", "store.not_stored"
        except (MajiangError, BrokenProcessPool, ValueError, RuntimeError, Stopped) as exc:
            log.warning("review of hand %s seat %d failed: %s", key[0], job.seat, exc)
            job.status, job.error = "failed", "review.failed"
        finally:
            if key in self.queue:
                self.queue.remove(key)

    async def _compute(self, records: list[dict], seat: int, seed: int) -> dict:
        """The review computed off the event loop: in the reviews' own idle processes, else (a runner
        without processes: tests, tiny servers) a thread."""
        if self.runner.workers == 0:
            return await asyncio.to_thread(compute, records, seat, self.budget, seed, self.stop, self.activity)
        if self.own is None:  # made at the first review: a server nobody asks for one has no such process
            self.own = BotRunner(self.at_once, idle=True, activity=self.activity)
        own = self.own
        try:
            return await asyncio.get_running_loop().run_in_executor(
                own.pool, compute, records, seat, self.budget, seed)
        except BrokenProcessPool:
            # a review process died (killed, out of memory): a broken pool refuses everything after,
            # so the next review gets fresh processes (this one fails: asking again tries again)
            if self.own is own:
                self.own = None
                own.close()
            raise

    def close(self) -> None:
        """Cut every review short, at once: its task is cancelled (nothing is stored; its job is
        forgotten, so that asking again computes it anew), a thread's review ends at its next
        decision, and the processes are stopped (``BotRunner.close``: SIGTERM, then SIGKILL)."""
        self.stop.set()
        for job in self.jobs.values():
            if job.task is not None and not job.task.done():
                job.task.cancel()
        if self.own is not None:
            self.own.close()
            self.own = None
