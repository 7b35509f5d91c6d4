"""The tables first: a 复盘 computes only in the moments the live tables leave free.

Reviews already run at the lowest CPU priority (``priority``), and that keeps them off a core the
tables want. It does not keep them off the core beside it, and a core is not all a process has:
on a small machine (two virtual CPUs that are one physical core, a shared cache) a review busy on
the other CPU slowed a live table's answers by a third at the 99th percentile (``bench_server.py
--reviews``). So the tables say when they work, and a review waits for them:

* the server marks its tables busy (``TableActivity.busy``) when a player's message arrives, a bot
  is asked to decide and an action is applied: busy for ``hold`` seconds from then, which covers
  the answer, its storing and its fan-out;
* a review calls ``TableActivity.wait_for_quiet`` between pieces of its search of about a
  millisecond each (``review_hand``'s ``pause``), and sleeps while the tables are busy.

A table's answer then shares the machine with at most the millisecond of review work already under
way when it arrived. A machine whose tables never pause for ``hold`` gives reviews no time until
they do: its players come first, and the review's progress says it is waiting for them. The mark
is one number in memory shared with the review processes (``time.monotonic`` is one clock for
every process of the machine), so marking costs the tables nothing. ``hold`` 0 turns the wait off
(a machine with cores to spare: the idle priority is enough there).
"""

from __future__ import annotations

import ctypes
import multiprocessing
import threading
import time

HOLD = 0.005  # seconds a table's event keeps reviews waiting: an action's answer, store and fan-out
LONGEST_SLEEP = 0.05  # a waiting review looks again at least this often (a stop, a longer hold)


class TableActivity:
    """When the live tables last worked, shared with the processes that compute reviews (passed to
    them as they start: ``review_process``)."""

    def __init__(self, hold: float = HOLD) -> None:
        self.hold = max(0.0, float(hold))
        self._until = multiprocessing.RawValue(ctypes.c_double, 0.0)  # monotonic time the tables are busy to

    def busy(self) -> None:
        """The tables work now: reviews wait until ``hold`` seconds from now."""
        if self.hold:
            self._until.value = time.monotonic() + self.hold

    def waiting(self) -> bool:
        """Whether a review would wait now."""
        return self.hold > 0 and self._until.value > time.monotonic()

    def wait_for_quiet(self, stop: threading.Event | None = None) -> float:
        """Sleep while the tables are busy (or until ``stop`` is set); the seconds slept."""
        slept = 0.0
        while self.hold and (stop is None or not stop.is_set()):
            left = self._until.value - time.monotonic()
            if left <= 0:
                break
            pause = min(left, LONGEST_SLEEP)
            time.sleep(pause)
            slept += pause
        return slept


_this_process: TableActivity | None = None  # a review process's view of its server's tables


def review_process(activity: TableActivity | None) -> None:
    """Part of a review process's initializer (``priority.idle_worker``): the server's tables it
    waits for."""
    global _this_process
    _this_process = activity


def wait_for_tables() -> float:
    """In a review process: wait while the server's tables are busy (nothing without a server); the
    seconds waited."""
    return _this_process.wait_for_quiet() if _this_process is not None else 0.0
