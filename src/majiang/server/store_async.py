"""The store as awaitables: every call runs in a bounded pool of threads, never on the event loop.

``await AsyncStore(store).room(code)`` is ``store.room(code)`` run in the pool: a caller that awaits
each call before the next keeps its order, and a write is acknowledged (the await returns) only
once it is committed, exactly as the synchronous call. The pool is bounded, so a stalled database
holds a few threads, never the loop. Lease renewals have a thread of their own (``renewals``):
they are never queued behind a slow load or a slow route.
"""

from __future__ import annotations

import asyncio
import functools
import weakref
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Callable

from majiang.server.store import Store

_SHARED: "weakref.WeakKeyDictionary[Store, AsyncStore]" = weakref.WeakKeyDictionary()


def _no_stop_iteration(call: Callable) -> Any:
    """``call()``, with a StopIteration it raises turned into a RuntimeError: asyncio cannot set a
    StopIteration on a future, so the awaiting request would wait forever instead of failing."""
    try:
        return call()
    except StopIteration as exc:
        raise RuntimeError(f"{getattr(call, 'func', call)!r} raised StopIteration") from exc


class AsyncStore:
    def __init__(self, store: Store, threads: int = 4) -> None:
        self.store = store
        self.threads = threads
        self._pool: ThreadPoolExecutor | None = None
        self._renewals: ThreadPoolExecutor | None = None

    @classmethod
    def shared(cls, store: Store) -> "AsyncStore":
        """The one async boundary of ``store`` (its pool is shared by every table and route)."""
        found = _SHARED.get(store)
        if found is None:
            found = _SHARED[store] = cls(store)
        return found

    async def call(self, fn: Callable, *args: Any, **kwargs: Any) -> Any:
        """``fn(*args, **kwargs)`` in the pool (any blocking work: the store's calls, a replay)."""
        if self._pool is None:
            self._pool = ThreadPoolExecutor(self.threads, thread_name_prefix="majiang-db")
        call = functools.partial(fn, *args, **kwargs) if kwargs else functools.partial(fn, *args)
        return await asyncio.get_running_loop().run_in_executor(self._pool, _no_stop_iteration, call)

    async def renew(self, codes: list[str], seconds: float) -> dict[str, str | None]:
        """``Store.renew_leases`` on the renewals' own thread (and, on PostgreSQL, connection)."""
        if self._renewals is None:
            self._renewals = ThreadPoolExecutor(1, thread_name_prefix="majiang-leases")
        return await asyncio.get_running_loop().run_in_executor(
            self._renewals, _no_stop_iteration, functools.partial(self.store.renew_leases, codes, seconds))

    def __getattr__(self, name: str) -> Callable:
        method = getattr(self.store, name)
        if not callable(method) or name.startswith("_"):
            raise AttributeError(name)

        async def awaitable(*args: Any, **kwargs: Any) -> Any:
            return await self.call(method, *args, **kwargs)

        awaitable.__name__ = name
        awaitable.__doc__ = method.__doc__
        return awaitable

    def close(self) -> None:
        for pool in (self._pool, self._renewals):
            if pool is not None:
                pool.shutdown(wait=False, cancel_futures=True)
        self._pool = self._renewals = None
