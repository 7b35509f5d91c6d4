"""Bot decisions away from the event loop.

The event loop only validates, stores and fans out; a bot's thinking (a ``strong`` look-ahead
takes tens of milliseconds) runs in a pool of worker processes sized to the cores, so one table's
bot never delays another table's players. With ``workers=0`` (tests, tiny servers) decisions run
in a thread, which still lets the loop serve sockets between a bot's steps.
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import os
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from majiang.bots import make_agent
from majiang.engine import Action
from majiang.server.orphans import watch_parent

_AGENTS: dict[tuple[str, int], Any] = {}  # per worker process: one agent per (level, seed)


def decide(level: str, seed: int, observation: dict, legal: list[dict]) -> dict:
    """One decision of a bot (runs in a worker): the chosen action as JSON."""
    agent = _AGENTS.get((level, seed))
    if agent is None:
        if len(_AGENTS) > 4096:
            _AGENTS.clear()
        agent = _AGENTS[(level, seed)] = make_agent(level, seed=seed)
    actions = [Action.from_json(a) for a in legal]
    return agent.act(observation, actions).to_json()


def _warm() -> int:
    return os.getpid()


class BotRunner:
    def __init__(self, workers: int = 0) -> None:
        self.workers = workers
        self.pool: ProcessPoolExecutor | None = None
        self.restarts = 0  # pools replaced after a worker died
        if workers > 0:
            self.pool = self._new_pool()

    def _new_pool(self) -> ProcessPoolExecutor:
        methods = multiprocessing.get_all_start_methods()
        context = multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")
        if context.get_start_method() == "forkserver":
            # the forkserver watches the server too (orphans.py): nothing outlives a killed server
            os.environ["MAJIANG_FORKSERVER_WATCH"] = "1"
            context.set_forkserver_preload(["majiang.server.orphans"])
        return ProcessPoolExecutor(self.workers, mp_context=context, initializer=watch_parent)

    def warm(self) -> None:
        """Start the workers now rather than at the first bot decision."""
        if self.pool is not None:
            for _ in range(self.workers):
                self.pool.submit(_warm)

    async def decide(self, level: str, seed: int, observation: dict, legal: list[Action]) -> Action:
        legal_json = [a.to_json() for a in legal]
        if self.pool is None:
            chosen = await asyncio.to_thread(decide, level, seed, observation, legal_json)
        else:
            pool = self.pool
            try:
                chosen = await asyncio.get_running_loop().run_in_executor(
                    pool, decide, level, seed, observation, legal_json)
            except BrokenProcessPool:
                # a worker died (killed, out of memory): a broken pool refuses everything after, so
                # replace it (once, whoever notices first) and ask again, rather than fail every bot
                # of every table from now on
                if self.pool is pool:
                    self.pool = self._new_pool()
                    self.restarts += 1
                    _stop_pool(pool)
                chosen = await asyncio.get_running_loop().run_in_executor(
                    self.pool, decide, level, seed, observation, legal_json)
        return Action.from_json(chosen)

    def close(self) -> None:
        """Stop the pool's processes and the forkserver that made them: a stopped server leaves no
        process behind (a worker blocked on its queue would never see the server exit, and the
        forkserver and resource tracker live as long as any worker)."""
        if self.pool is not None:
            _stop_pool(self.pool)
            self.pool = None
            from multiprocessing import forkserver
            server = getattr(forkserver, "_forkserver", None)
            if server is not None and getattr(server, "_forkserver_pid", None) is not None:
                with contextlib.suppress(Exception):
                    server._stop()  # the next pool (tests make many) starts another one


def _stop_pool(pool: ProcessPoolExecutor) -> None:
    """Shut ``pool`` down without waiting for a decision in progress (its table no longer needs it)."""
    processes = list((getattr(pool, "_processes", None) or {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    for p in processes:
        with contextlib.suppress(Exception):
            p.terminate()
    for p in processes:
        with contextlib.suppress(Exception):
            p.join(timeout=2)
