"""The server process's garbage collection: young collections sized to pause briefly, nothing
older collected automatically, the full collection on a timer.

A collection pauses every table at once, for as long as it takes to walk the objects it looks at.
Each table's newest state (its views, its observation cache, the frame each connection patches
from) is young and alive at any moment, so a young collection's pause grows with the number of
tables and with how much was made since the last one. With Python's thresholds raised to 10,000
(the earlier policy), 1,000 tables paid 30-60 ms at every young collection and 120-170 ms at every
collection of the middle generation: the action round trip's p99 (bench_server.py). Python's
default full collection walks everything and fired again and again while a server filled
(p99 460 ms).

So: what start-up made is frozen out of the collector; the young generation's size follows the
pauses (``YoungSizer``: smaller when a collection took longer than ``PAUSE``, larger again when
well under it: 10,000 objects on a small server, about 1,000 at 1,000 tables); what outlives a
young collection is never walked again automatically (no middle or old generation collections;
reference counting still frees an object the moment it is unused, as always); and the full
collection, which also frees the cycles that outlived a young one, runs only on its timer: one
pause in minutes.
"""

from __future__ import annotations

import asyncio
import gc
import time

PAUSE = 0.004  # seconds a young collection should take at most
YOUNG_MIN, YOUNG_MAX = 700, 10_000  # net new objects between young collections (Python's default: 700)
NEVER = 1_000_000_000
PYTHON_THRESHOLDS = gc.get_threshold()


class YoungSizer:
    """A ``gc.callbacks`` hook: after each young collection, the young generation is made smaller
    (by a third) if it paused longer than ``pause``, larger (by a tenth) if under a quarter of it."""

    def __init__(self, pause: float = PAUSE, smallest: int = YOUNG_MIN, largest: int = YOUNG_MAX,
                 clock=time.perf_counter) -> None:
        self.pause, self.smallest, self.largest, self.clock = pause, smallest, largest, clock
        self.threshold = largest
        self._began = 0.0

    def apply(self) -> None:
        gc.set_threshold(self.threshold, NEVER, NEVER)

    def __call__(self, phase: str, info: dict) -> None:
        if info.get("generation") != 0:
            return
        if phase == "start":
            self._began = self.clock()
            return
        self.resize(self.clock() - self._began)

    def resize(self, took: float) -> None:
        """The next young generation's size after a collection that took ``took`` seconds."""
        size = self.threshold
        if took > self.pause:
            size = max(self.smallest, size * 2 // 3)
        elif took < self.pause / 4:
            size = min(self.largest, size + size // 10 + 1)
        if size != self.threshold:
            self.threshold = size
            self.apply()


def take_over() -> YoungSizer:
    """This process collects by the policy above from now on (until ``give_back``)."""
    gc.collect()
    gc.freeze()
    sizer = YoungSizer()
    sizer.apply()
    gc.callbacks.append(sizer)
    return sizer


def give_back(sizer: YoungSizer) -> None:
    """Python's own policy again."""
    gc.callbacks.remove(sizer)
    gc.set_threshold(*PYTHON_THRESHOLDS)
    gc.unfreeze()


async def collect(full_every: float) -> None:
    """The policy above for as long as this task runs (the app's lifespan), with the full
    collection every ``full_every`` seconds; Python's after."""
    sizer = take_over()
    try:
        while True:
            await asyncio.sleep(full_every)
            gc.collect()
    finally:
        give_back(sizer)
