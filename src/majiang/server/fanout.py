"""Fan-out: each connection is sent the table as its seat sees it, once per change, never a stale one.

Frames are built under the table's lock (nobody sees a change before it is stored); sends happen
outside it, one broadcast at a time (no connection gets an older frame after a newer one). A
claim window that bots close at once is *held*: no frame shows it; the change that closes it sends.
A browser client gets, after its first snapshot, only what changed (``views.patch_text``).
"""

from __future__ import annotations

import asyncio
from typing import Any, Protocol

from majiang.server.presence import Connection, Presence
from majiang.server.views import Frame, SeenTable, patch_text, snapshot


class SentTable(SeenTable, Protocol):
    """What the fan-out needs of a table: what its snapshots read, its lock, and its broadcast."""

    lock: asyncio.Lock

    async def _broadcast(self) -> None: ...


class FanOut:
    def __init__(self, table: SentTable, presence: Presence) -> None:
        self.table = table
        self.presence = presence
        self.sending = asyncio.Lock()
        self.holding = False  # a claim window bots close at once: no frame until they have
        # seats whose player shows hints: only they are computed (the advice costs more than the rest of a frame)
        self.hints_wanted: set[int] = set()
        self.hint_cache: dict = {}

    def frames(self) -> dict:
        """This moment's snapshot for every seat that has a connection (and spectators)."""
        seats = {c.seat for c in self.presence.connections}
        return {s: Frame.of(snapshot(self.table, s)) for s in seats}

    async def broadcast(self) -> None:
        if self.holding:
            return  # sent with the change that closes the window
        async with self.sending:
            await self.table._broadcast()

    async def send_frames(self) -> None:
        """Build every seat's frame under the table's lock, then send each connection its change."""
        async with self.table.lock:  # not while a change waits for the store
            if self.holding:  # a window began while this broadcast waited: the change closing it sends
                return
            frames = self.frames()
        for c in list(self.presence.connections):
            frame = frames.get(c.seat)
            if frame is None:
                continue
            message = self.message_for(c, frame)
            if message is not None:
                await self.send(c, message)

    @staticmethod
    def message_for(c: Connection, frame: Frame) -> Any:
        """What ``c`` is sent for ``frame``: a patch, a whole snapshot, or None (nothing it sees changed)."""
        if c.patches and c.last_data is not None:
            message = patch_text(c.last_data, frame.data)
            if message is None:
                return None
        else:
            if frame.text == c.last_sent:
                return None
            message = frame.with_clock()
            c.last_sent = frame.text
        c.last_data = frame.data
        return message

    async def send(self, c: Connection, message: Any) -> None:
        try:
            await c.send(message)
        except Exception:  # noqa: BLE001 - a dead socket is dropped
            self.presence.drop(c)

    async def send_current(self, conn: Connection) -> None:
        """The connection's first snapshot; in a held window none: the broadcast of the change that
        closes it sends this connection (which has no frame yet) its whole snapshot."""
        async with self.sending:
            async with self.table.lock:
                if self.holding:
                    return
                frame = Frame.of(snapshot(self.table, conn.seat))
            conn.last_sent, conn.last_data = frame.text, frame.data
            await conn.send(frame.with_clock())

    async def to_everyone(self, message: dict) -> None:
        """A message that is the same for every connection (a quick chat phrase)."""
        for c in list(self.presence.connections):
            await self.send(c, message)

    def renew_locks(self) -> None:
        """A new event loop (tests' clients): the sending lock of the old one is useless here."""
        if not self.sending.locked():
            self.sending = asyncio.Lock()
