"""The tables first (server/quiet.py): a 复盘 waits while the live tables work, in a thread of the
server and in the reviews' own processes alike, and finishes once they are quiet."""

from __future__ import annotations

import threading
import time

import pytest

from majiang.server.quiet import TableActivity, wait_for_tables


def test_a_mark_holds_a_waiter_for_its_hold_and_no_longer():
    tables = TableActivity(0.2)
    assert not tables.waiting() and tables.wait_for_quiet() == 0.0  # never marked: nothing to wait for
    tables.busy()
    assert tables.waiting()
    began = time.monotonic()
    slept = tables.wait_for_quiet()
    took = time.monotonic() - began
    assert 0.15 <= took < 1.0 and slept > 0.1, (took, slept)
    assert not tables.waiting() and tables.wait_for_quiet() == 0.0
    stop = threading.Event()
    stop.set()
    tables.busy()
    assert tables.wait_for_quiet(stop) == 0.0  # a stopping server's review does not wait
    off = TableActivity(0.0)  # --review-quiet-ms 0: reviews beside busy tables
    off.busy()
    assert not off.waiting() and off.wait_for_quiet() == 0.0
    assert wait_for_tables() == 0.0  # outside a review process: no tables to wait for


def keep_busy(tables: TableActivity, stop: threading.Event) -> threading.Thread:
    """A table at work, as fast as the server could mark it, until ``stop``."""

    def work() -> None:
        while not stop.is_set():
            tables.busy()
            time.sleep(0.002)

    thread = threading.Thread(target=work, daemon=True)
    thread.start()
    return thread


def test_a_review_process_sees_the_marks_of_the_server_that_made_it():
    """The mark is memory shared with the review processes (passed as they start): a process waits
    while this one marks, and not once it stops."""
    from majiang.server.bots import BotRunner

    tables = TableActivity(0.05)
    runner = BotRunner(1, idle=True, activity=tables)
    stop = threading.Event()
    try:
        assert runner.pool.submit(wait_for_tables).result(timeout=60) == 0.0  # started; quiet
        worker = keep_busy(tables, stop)
        time.sleep(0.05)
        waiting = runner.pool.submit(wait_for_tables)
        time.sleep(0.6)
        assert not waiting.done()  # it waits as long as the tables work
        stop.set()
        worker.join()
        assert waiting.result(timeout=30) >= 0.4
    finally:
        stop.set()
        runner.close()


pytest.importorskip("fastapi")
pytest.importorskip("sqlalchemy")
from fastapi.testclient import TestClient  # noqa: E402

from majiang.server.app import create_app  # noqa: E402
from test_server import player  # noqa: E402
from test_server_reviews import one_finished_hand, review, until_done  # noqa: E402
from test_server_room import wait_for  # noqa: E402


@pytest.mark.parametrize("workers", [0, 1])
def test_a_review_waits_while_a_table_works_says_so_and_finishes_once_it_is_quiet(tmp_path, workers):
    """A hand's actions mark the tables busy; a review asked for while a table keeps working waits
    (its poll says ``waiting``) and stays unfinished; once the table is quiet it is done."""
    c = TestClient(create_app(f"sqlite:///{tmp_path / 'quiet'}.sqlite3", bot_delay=0.0, bot_workers=workers,
                              review_budget=2, review_hold=0.05))
    c.__enter__()
    stop = threading.Event()
    try:
        a = player(c, "a")
        code = one_finished_hand(c, a)
        tables = c.app.state.server.reviews.activity
        assert tables.hold == 0.05 and tables._until.value > 0  # the hand's actions marked the tables
        worker = keep_busy(tables, stop)
        assert review(c, code, 0, a, "post").status_code == 202
        wait_for(lambda: review(c, code, 0, a).json().get("waiting") is True, seconds=30)
        time.sleep(1.5)  # a review of 2 samples a decision takes well under a second when let be
        held = review(c, code, 0, a)
        assert held.status_code == 202 and held.json()["status"] == "running" and held.json()["waiting"], held.text
        stop.set()
        worker.join()
        done = until_done(c, code, 0, a)
        assert done["status"] == "done" and done["review"]["budget"] == 2
    finally:
        stop.set()
        c.__exit__(None, None, None)
