"""What players do at a live table, and its connections: mixed into ``LiveTable``.

Every command either changes nothing (a ``MajiangError`` says why) or changes the table, stores the
change (the journal, or the awaitable store), and only then tells everyone (``broadcast``). What the
room decides (托管, 准备, the 解散 vote, the rematch offer) is a ``room.step`` command
(``LiveTable.command``); a move in the hand changes the engine game (``TableDriver._apply``).
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

from majiang.server import room as rm
from majiang.server.actions import parse_action
from majiang.server.errors import Refusal
from majiang.server.presence import CHAT_GAP, Connection
from majiang.server.store import StoreError
from majiang.server.views import snapshot

CHAT_PHRASES = ("hello", "hurry", "nice", "thanks", "oops", "again", "bye",
                "laugh", "cry", "angry", "thumb", "flower")


class PlayerCommands:
    # -- views and connections -------------------------------------------------------------------

    def view(self, seat: int | None) -> dict:
        return snapshot(self, seat)

    async def broadcast(self) -> None:
        await self.fanout.broadcast()

    async def _broadcast(self) -> None:
        await self.fanout.send_frames()

    async def send_current(self, conn: Connection) -> None:
        await self.fanout.send_current(conn)

    def connect(self, conn: Connection) -> None:
        if self.paused and conn.seat is not None and self.human(conn.seat):
            self.clock.restart()  # back from a pause: the clocks start again, they did not run meanwhile
            self.running.over_at = time.time()
        self.presence.arrive(conn)
        if conn.seat is not None and self.state.auto[conn.seat] and not self.state.match.over:
            # back: 托管 ends at once, and everyone sees it (after a held window, which 托管 answers)
            if self.command_now(rm.Back(conn.seat, self.fanout.holding)):
                asyncio.get_running_loop().create_task(self.broadcast())
        self.running.last_activity = time.time()
        self.poke()  # the driver stores the state that changed

    def disconnect(self, conn: Connection) -> None:
        self.presence.leave(conn)
        self.running.last_activity = time.time()
        self.poke()

    # -- what players do -------------------------------------------------------------------------

    async def act(self, seat: int, action: Any, seq: int | None) -> None:
        """A player's action: refused with a ``MajiangError`` (nothing changes) or applied, stored,
        then shown to everyone."""
        async with self.lock:
            g = self.game
            rm.step(self.state, rm.Act(seat), time.time())  # the room takes moves only while a hand is in play
            if self.room["status"] != "playing" or g is None:
                raise Refusal("match.not_started")
            if g.over:
                raise Refusal("hand.over")
            if self._pending_of(seat) is None:
                raise Refusal("action.no_decision")  # names nobody else
            if seq != self.clock.decision_no[seat]:
                raise Refusal("action.stale", decision=self.clock.decision_no[seat])  # not what was sent
            await self._apply(seat, parse_action(action))
            if self.state.auto[seat] or self.state.missed[seat]:  # the player is back: 托管 ends
                self.command_now(rm.Back(seat))
                try:
                    await self._save(self.state)
                except StoreError:
                    pass  # the action is stored; the driver stores this once the database is back
        await self.broadcast()
        self.poke()

    async def set_auto(self, seat: int, on: bool) -> None:
        """托管 asked for (the button) or ended (any tap on the page while it plays for you)."""
        async with self.lock:
            await self.command(rm.SetAuto(seat, bool(on), self.fanout.holding))
        await self.broadcast()
        self.poke()

    async def chat(self, seat: int, phrase: Any) -> None:
        """A quick phrase or emoji, shown by the speaker's seat to everyone at the table."""
        if not isinstance(phrase, str) or phrase not in CHAT_PHRASES:
            raise Refusal("chat.unknown_phrase")
        now = time.monotonic()
        if now - self.presence.chat_at[seat] < CHAT_GAP:
            return  # too soon: dropped quietly
        self.presence.chat_at[seat] = now
        await self.fanout.to_everyone({"type": "chat", "seat": seat, "phrase": phrase})

    async def vote_dissolve(self, seat: int, agree: bool) -> None:
        """解散: a seated player asks to end the match; it ends when every seated human agrees, any
        refusal cancels the vote, and it lapses after ``room.DISSOLVE_SECONDS``."""
        async with self.lock:
            await self.command(rm.CastVote(seat, bool(agree)))
        await self.broadcast()
        self.poke()

    async def set_hints(self, seat: int, on: bool) -> None:
        """Whether this seat's player shows hints (the page says so on connecting and on its toggle)."""
        wanted = self.fanout.hints_wanted
        if on == (seat in wanted):
            return
        if on:
            wanted.add(seat)
        else:
            wanted.discard(seat)
        await self.broadcast()

    async def set_ready(self, seat: int) -> None:
        """准备: before the first hand (the deal waits for every human's) or for the next hand."""
        async with self.lock:
            await self.command(rm.Ready(seat))
        await self.broadcast()
        self.poke()  # the host may have asked to start already

    async def offer_rematch(self, code: str, by: int) -> None:
        """The rematch offer (the room a player opened), stored before anyone is shown it."""
        async with self.lock:
            await self.command(rm.OfferRematch(code, by))
        await self.broadcast()
