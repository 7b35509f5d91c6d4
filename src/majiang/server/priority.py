"""The review processes' CPU priority: the lowest the system has, taken before anything else.

A review process's initializer is ``idle_worker``. It lives in this small module, beside the
forkserver's preloaded ``orphans``, so that a fresh process drops its priority before it imports
anything heavy: importing the bots' module and the review's (about half a second of one core) then
already happens at idle priority, never beside a live table at the bots' priority.
"""

from __future__ import annotations

import contextlib
import os

from majiang.server.orphans import watch_parent
from majiang.server.quiet import TableActivity, review_process


def lower_priority() -> str:
    """Put this process at the lowest CPU priority the system has, and say which it got: ``idle``
    (Linux's SCHED_IDLE: it runs when a core would otherwise idle, and a runnable process of any
    other priority takes the core from it at once) or ``nice`` (nice 19, where SCHED_IDLE is not
    available, e.g. macOS: it still yields the cores to the server and the bots nearly always)."""
    try:
        os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))  # type: ignore[attr-defined]
        return "idle"
    except (AttributeError, OSError):
        with contextlib.suppress(OSError):
            os.nice(19 - os.nice(0))
        return "nice"


def idle_worker(activity: TableActivity | None = None) -> None:
    """The initializer of an idle runner's process: it watches its parent (a thread of its own, left
    at the usual priority: Linux sets a policy per thread), then yields the cores; ``activity``: the
    server's tables, which its reviews wait for (``quiet``)."""
    watch_parent()
    lower_priority()
    review_process(activity)


def current_priority() -> str:
    """This process's scheduling: ``idle``, or ``nice N`` (tests ask the workers)."""
    policy = getattr(os, "sched_getscheduler", lambda pid: None)(0)
    if policy is not None and policy == getattr(os, "SCHED_IDLE", None):
        return "idle"
    return f"nice {os.nice(0)}"
