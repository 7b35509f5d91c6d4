"""The journal: hands' new log lines written off the event loop, many tables in one transaction.

A table that changed submits its new lines and awaits them: the action is acknowledged (anyone is
told) only once the line is committed. One thread takes whatever waits (up to ``max_batch`` items)
and stores it in one transaction (``Store.append``), so under load a commit serves many tables and
the event loop never waits on the database. An item whose table another worker took over fails
alone (``LeaseLost``); a failed transaction fails every item in it (``StoreError``), and each table
rolls back to what it stored before.

On PostgreSQL a few threads write (``writers``), so one table whose write is held (a stalled
session holding its rows, a slow disk) holds up only the tables in its own batch, never the next
batches; and a batch does not wait for a lease row another transaction holds: it stores the
others and writes that table's item on its own afterwards (``Append.waits``, ``LeaseBusy``). Order is
kept because a table has at most one item in flight (it awaits each under its lock).
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import queue
import threading
import weakref
from typing import Any

from majiang.server.store import Append, LeaseBusy, Store, StoreError

log = logging.getLogger("majiang.server")

_SHARED: "weakref.WeakKeyDictionary[Store, Journal]" = weakref.WeakKeyDictionary()


class Journal:
    def __init__(self, store: Store, max_batch: int = 256, writers: int | None = None) -> None:
        self.store = store
        self.max_batch = max_batch
        # SQLite has one writer at a time anyway (more threads would only cost more commits)
        self.writers = writers or (4 if store.engine.dialect.name == "postgresql" else 1)
        self._queue: queue.SimpleQueue = queue.SimpleQueue()
        self._threads: list[threading.Thread] = []
        self._lock = threading.Lock()
        self._gathered: dict[Any, list] = {}  # per event loop: what this turn of it submitted
        self.batches = 0  # transactions committed or failed (for tests and the benchmark)
        self.items = 0

    @classmethod
    def shared(cls, store: Store) -> "Journal":
        """The one journal of ``store`` (tables made without one share it)."""
        journal = _SHARED.get(store)
        if journal is None:
            journal = _SHARED[store] = cls(store)
        return journal

    def submit(self, item: Append) -> asyncio.Future:
        """Queue ``item``; the future ends when it is stored (or with the ``StoreError`` that refused it).
        What one turn of the event loop submits is handed to the thread at once, at the end of that
        turn: one wake-up of the thread for many tables, not one each."""
        loop = asyncio.get_running_loop()
        future = loop.create_future()
        gathered = self._gathered.get(loop)
        if gathered is None:
            gathered = self._gathered[loop] = []
            loop.call_soon(self._hand_over, loop)
        gathered.append((item, future, loop))
        return future

    def _hand_over(self, loop) -> None:
        gathered = self._gathered.pop(loop, None)
        if gathered:
            if len(self._threads) < self.writers or not all(t.is_alive() for t in self._threads):
                self._start()
            self._queue.put(gathered)

    def _start(self) -> None:
        with self._lock:
            self._threads = [t for t in self._threads if t.is_alive()]
            while len(self._threads) < self.writers:
                thread = threading.Thread(target=self._run, name="majiang-journal", daemon=True)
                thread.start()
                self._threads.append(thread)

    def close(self) -> None:
        """Stop the threads once what is queued is written."""
        with self._lock:
            threads, self._threads = [t for t in self._threads if t.is_alive()], []
        for _ in threads:
            self._queue.put(None)
        for thread in threads:
            thread.join(timeout=10)

    def _run(self) -> None:
        while True:
            first = self._queue.get()
            if first is None:
                return
            batch = list(first)
            stop = False
            while len(batch) < self.max_batch:
                try:
                    more = self._queue.get_nowait()
                except queue.Empty:
                    break
                if more is None:
                    stop = True
                    break
                batch.extend(more)
            self._write(batch)
            if stop:
                return

    def _write(self, batch: list[tuple[Append, asyncio.Future, Any]]) -> None:
        items = [item for item, _, _ in batch]
        outcome = self._append(items)
        if len(items) > 1 and all(type(e) is StoreError for e in outcome):
            # the whole transaction failed: one bad item must not fail the others, so each alone
            outcome = [self._append([item])[0] for item in items]
        self.batches += 1
        self.items += len(batch)
        busy = [(entry, None) for entry, error in zip(batch, outcome) if isinstance(error, LeaseBusy)]
        self._settle([(entry, error) for entry, error in zip(batch, outcome) if not isinstance(error, LeaseBusy)])
        for i, (entry, _) in enumerate(busy):  # the others are told first; these wait for their row alone
            busy[i] = (entry, self._append([dataclasses.replace(entry[0], waits=True)])[0])
        self._settle(busy)

    def _settle(self, done: list) -> None:
        by_loop: dict[Any, list] = {}
        for (_, future, loop), error in done:
            by_loop.setdefault(loop, []).append((future, error))
        for loop, settled in by_loop.items():  # one wake-up of each event loop for the whole batch
            try:
                loop.call_soon_threadsafe(_settle, settled)
            except RuntimeError:  # that event loop is closed (its server stopped): nobody waits
                pass

    def _append(self, items: list[Append]) -> list[BaseException | None]:
        try:
            return list(self.store.append(items))
        except StoreError as exc:
            return [exc] * len(items)
        except Exception as exc:  # noqa: BLE001 - whatever failed, nothing was committed: say so to each table
            log.exception("journal: a batch of %d failed", len(items))
            return [StoreError(f"the database could not store this ({type(exc).__name__})")] * len(items)


def _settle(settled: list[tuple[asyncio.Future, BaseException | None]]) -> None:
    for future, error in settled:
        if future.done():
            continue
        if error is None:
            future.set_result(None)
        else:
            future.set_exception(error)


async def outcome(future: asyncio.Future) -> tuple[BaseException | None, bool]:
    """Wait for a submitted item to its end even if the awaiting task is cancelled meanwhile: a table
    must know whether its change was stored before it does anything else. Returns (the error that
    refused it or None, whether the task was cancelled meanwhile: the caller raises that after)."""
    cancelled = False
    while not future.done():
        try:
            await asyncio.wait({future})
        except asyncio.CancelledError:
            cancelled = True
    return future.exception(), cancelled
