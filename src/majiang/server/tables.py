"""The table registry: every live table of a server, and (many workers on one database) the leases
that say which worker drives which table."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from dataclasses import dataclass, field

from majiang.server.bots import BotRunner
from majiang.server.clock import ABSENT_AFTER, BOT_DELAY
from majiang.server.errors import InfrastructureError
from majiang.server.journal import Journal
from majiang.server.live_table import LiveTable
from majiang.server.quiet import TableActivity
from majiang.server.store import LEASE_SECONDS, Store, StoreError
from majiang.server.store_async import AsyncStore

log = logging.getLogger("majiang.server")


class Elsewhere(InfrastructureError):
    """Another worker drives this table (its lease has not expired nor been handed over yet)."""

    code = "table.moving"


@dataclass
class Tables:
    """All live tables of a server; tables nobody is at leave memory and come back from the store.

    With a ``worker`` id (many workers on one database), a table is live here only while this worker
    holds its lease: taken when the table is first needed (``obtain`` waits for a lease another
    worker holds to be handed over or to expire), renewed by ``keep_leases``, given up when the table
    leaves memory or another worker asks for it (the router sends the room's clients there), and the
    table is dropped at once if the lease was taken over. A table taken over resumes from its stored
    log, exactly as after a restart.

    Nothing here waits on the database on the event loop: taking a lease and resuming a table
    (``obtain``), renewing and giving up leases run in a small pool of threads of their own, and a
    lease row another transaction holds is passed over, never waited for (``Store.take_lease``). A
    worker that cannot renew a lease for its lease time steps down from that table (its sockets are
    closed; they reconnect through the router)."""

    store: Store
    bot_delay: float = BOT_DELAY
    absent_after: float = ABSENT_AFTER
    runner: BotRunner = field(default_factory=BotRunner)
    activity: TableActivity | None = None  # marked as the tables work: reviews wait for them (``quiet``)
    live: dict[str, LiveTable] = field(default_factory=dict)
    idle_after: float = 120.0  # seconds without a connection before a table leaves memory
    worker: str | None = None
    lease_seconds: float = LEASE_SECONDS
    moving: set[str] = field(default_factory=set)  # tables being handed over to another worker
    aio: AsyncStore | None = None  # the awaitable store whose pool takes and gives up leases and resumes tables
    _loading: dict = field(default_factory=dict)  # code -> the future of its table being loaded
    renewed_at: float = field(default_factory=time.monotonic)  # the last renewal that reached the database

    def __post_init__(self) -> None:
        if self.aio is None:
            self.aio = AsyncStore.shared(self.store)

    def get(self, code: str) -> LiveTable | None:
        """The live table (None: no such room); ``Elsewhere`` if another worker holds its lease.
        Waits on the database on the caller's thread: the server uses ``obtain``."""
        if code in self.live:
            return self.live[code]
        if code in self.moving:
            raise Elsewhere(f"table {code} is being handed over")
        return self._adopt(code, self._load(code))

    async def off_loop(self, fn, *args):
        """``fn(*args)`` in the store's pool (bounded: a stalled database holds a few threads,
        never the event loop)."""
        return await self.aio.call(fn, *args)

    async def _get_off_loop(self, code: str) -> LiveTable | None:
        """``get`` with its database work in the pool; requests for one table share one load."""
        if code in self.live:
            return self.live[code]
        if code in self.moving:
            raise Elsewhere(f"table {code} is being handed over")
        loading = self._loading.get(code)
        if loading is None:
            loading = self._loading[code] = asyncio.ensure_future(self.off_loop(self._load, code))
            loading.add_done_callback(lambda done: self._loaded(code, done))
        return self._adopt(code, await asyncio.shield(loading))

    def _loaded(self, code: str, done: asyncio.Future) -> None:
        self._loading.pop(code, None)
        if not done.cancelled() and done.exception() is None:
            self._adopt(code, done.result())  # even if every request that wanted it went away

    def _adopt(self, code: str, table: LiveTable | None) -> LiveTable | None:
        if table is None or code in self.live:
            return self.live.get(code)
        table.running.on_lost = self.lost
        self.live[code] = table
        return table

    def _load(self, code: str) -> LiveTable | None:
        """The room's table taken (its lease) and resumed from the store; not yet live."""
        room = self.store.room(code)
        if room is None:
            return None
        if self.worker is not None:
            taken, holder = self.store.take_lease(code, self.lease_seconds)
            if not taken:
                raise Elsewhere(f"table {code} is driven by {holder}")
            room = self.store.room(code) or room  # as stored once the lease is ours
        table = LiveTable(self.store, room, self.bot_delay, self.absent_after, runner=self.runner,
                          journal=Journal.shared(self.store), activity=self.activity)
        if room["status"] in ("playing", "finished"):
            table.resume()
        return table

    async def obtain(self, code: str, wait: float | None = None) -> LiveTable | None:
        """``get``, waiting (up to the lease time and a little) for another worker's lease to be
        handed over or to expire; ``Elsewhere`` after that."""
        deadline = time.monotonic() + (self.lease_seconds + 3.0 if wait is None else wait)
        while True:
            try:
                return await self._get_off_loop(code)
            except (Elsewhere, StoreError):  # a StoreError: two workers inserted the lease at once
                if time.monotonic() >= deadline:
                    raise
            await asyncio.sleep(0.25)

    def lost(self, code: str) -> None:
        """Another worker took this table over (or this one could not renew its lease): drop our copy
        and close its sockets."""
        table = self.live.pop(code, None)
        if table is not None:
            log.warning("table %s: taken over by another worker", code)
            table.close(kick=True)

    async def hand_over(self, code: str) -> None:
        """Another worker asks for this table (its clients reach that worker now): stop, then free it."""
        table = self.live.pop(code, None)
        if table is None:
            return
        self.moving.add(code)
        try:
            async with table.lock:  # not in the middle of an action
                table.close(kick=True)
            await self.off_loop(self.store.release_leases, [code])
        finally:
            self.moving.discard(code)

    async def keep_leases(self) -> None:
        """Renew this worker's leases a few times per lease time; drop the tables taken over; hand
        over the ones another worker asks for."""
        while True:
            await asyncio.sleep(self.lease_seconds / 4)
            await self.renew()

    async def renew(self) -> None:
        codes = list(self.live)
        try:
            held = await self.aio.renew(codes, self.lease_seconds)  # its own thread: never behind a slow load
        except StoreError:
            # the database is away (writes are refused meanwhile): try again, and past the lease time
            # step down, since another worker may have taken these tables by now
            if time.monotonic() - self.renewed_at > self.lease_seconds:
                for code in codes:
                    self.lost(code)
            return
        self.renewed_at = time.monotonic()
        for code in codes:
            if code not in held:
                self.lost(code)
            elif held[code] is not None and held[code] != self.worker:
                try:
                    await self.hand_over(code)
                except StoreError:
                    pass

    def evict_idle(self, now: float | None = None) -> list[str]:
        """Drop tables with no connection for ``idle_after`` seconds (finished, paused or lobby)."""
        now = time.time() if now is None else now
        gone = [code for code, t in self.live.items()
                if not t.presence.connections and now - t.running.last_activity >= self.idle_after
                and not t.lock.locked()]
        for code in gone:
            self.live.pop(code).close()
        if gone and self.worker is not None:
            self._release_soon(gone)
        return gone

    def _release_soon(self, codes: list[str]) -> None:
        """Give up these leases off the event loop (on it, when called from another thread: tests)."""
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            loop = None
        if loop is None:
            with contextlib.suppress(StoreError):
                self.store.release_leases(codes)
            return

        async def release() -> None:
            with contextlib.suppress(StoreError):  # they expire
                await self.aio.release_leases(codes)
        loop.create_task(release())

    def close(self) -> None:
        for t in self.live.values():
            t.close(kick=self.worker is not None)
        if self.worker is not None:
            try:
                self.store.release_leases()  # the other workers take these tables at once
            except StoreError:
                pass
        Journal.shared(self.store).close()
        self.aio.close()
        self.runner.close()
