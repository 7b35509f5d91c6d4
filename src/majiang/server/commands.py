"""What players do at a live table, and its connections: mixed into ``LiveTable``.

Every command either changes nothing (a ``MajiangError`` says why) or changes the table, stores the
change (the journal, or the awaitable store), and only then tells everyone (``broadcast``).
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

from majiang.server.actions import parse_action
from majiang.server.errors import Refusal
from majiang.server.match import MatchState
from majiang.server.presence import Connection
from majiang.server.seating import Join, Seated, Seating, step
from majiang.server.store import StoreError
from majiang.server.views import snapshot

CHAT_GAP = 2.0  # seconds between two messages of one seat; sooner ones are dropped without a word
CHAT_PHRASES = ("hello", "hurry", "nice", "thanks", "oops", "again", "bye",
                "laugh", "cry", "angry", "thumb", "flower")


class PlayerCommands:
    # -- views and connections -------------------------------------------------------------------

    def view(self, seat: int | None) -> dict:
        return snapshot(self, seat)

    def _frames(self) -> dict:
        return self.fanout.frames()

    async def broadcast(self) -> None:
        await self.fanout.broadcast()

    async def _broadcast(self) -> None:
        await self.fanout.send_frames()

    async def send_current(self, conn: Connection) -> None:
        await self.fanout.send_current(conn)

    def connect(self, conn: Connection) -> None:
        if self.paused and conn.seat is not None and self.human(conn.seat):
            self.clock.restart()  # back from a pause: the clocks start again, they did not run meanwhile
            self.over_at = time.time()
        self.presence.arrive(conn)
        if conn.seat is not None and self.presence.auto[conn.seat]:  # back: 托管 ends at once, and everyone sees it
            if self.presence.end_auto(conn.seat, self.fanout.holding):  # (after a held window, which 托管 answers)
                asyncio.get_running_loop().create_task(self.broadcast())
        self.last_activity = time.time()
        self.poke()  # the driver stores the state that changed

    def disconnect(self, conn: Connection) -> None:
        self.presence.leave(conn)
        self.last_activity = time.time()
        self.poke()

    # -- what players do -------------------------------------------------------------------------

    async def act(self, seat: int, action: Any, seq: int | None) -> None:
        """A player's action: refused with a ``MajiangError`` (nothing changes) or applied, stored,
        then shown to everyone."""
        async with self.lock:
            g = self.game
            if not self.match.state.in_play or self.room["status"] != "playing" or g is None:
                raise Refusal("match.not_started")
            if g.over:
                raise Refusal("hand.over")
            if self._pending_of(seat) is None:
                raise Refusal("action.no_decision")  # names nobody else
            if seq != self.clock.decision_no[seat]:
                raise Refusal("action.stale", decision=self.clock.decision_no[seat])  # not what was sent
            await self._apply(seat, parse_action(action))
            if self.presence.auto[seat] or self.presence.missed[seat]:  # the player is back: 托管 ends
                self.presence.auto[seat], self.presence.missed[seat] = False, 0
                try:
                    await self._save_state()
                except StoreError:
                    pass  # the action is stored; the driver stores this once the database is back
        await self.broadcast()
        self.poke()

    async def set_auto(self, seat: int, on: bool) -> None:
        """托管 asked for (the button) or ended (any tap on the page while it plays for you)."""
        if not on and self.fanout.holding and self.presence.auto[seat]:
            self.presence.ending.add(seat)  # the window nobody was shown is still 托管's to answer
            return

        def change() -> None:
            self.presence.auto[seat], self.presence.missed[seat] = bool(on), 0
        await self._change(change)
        await self.broadcast()
        self.poke()

    async def chat(self, seat: int, phrase: Any) -> None:
        """A quick phrase or emoji, shown by the speaker's seat to everyone at the table."""
        if not isinstance(phrase, str) or phrase not in CHAT_PHRASES:
            raise Refusal("chat.unknown_phrase")
        now = time.monotonic()
        if now - self.chat_at[seat] < CHAT_GAP:
            return  # too soon: dropped quietly
        self.chat_at[seat] = now
        await self.fanout.to_everyone({"type": "chat", "seat": seat, "phrase": phrase})

    def dissolve_view(self) -> dict | None:
        """The open 解散 vote as everyone sees it (None when there is none or it lapsed)."""
        return self.votes.view()

    async def vote_dissolve(self, seat: int, agree: bool) -> None:
        """解散: a seated player asks to end the match; it ends when every seated human agrees, any
        refusal cancels the vote, and it lapses after ``DISSOLVE_SECONDS``."""
        if not self.match.state.in_play:
            raise Refusal("dissolve.not_playing")
        async with self.lock:
            before = self.state_json()
            if self.votes.cast(seat, agree):  # a MajiangError: nothing changed
                self.votes.carried()
                text = self.state_json(dissolved=True)
                try:
                    await self.aio.update_room(self.code, status="finished", lease=self.code, match_state=text)
                except StoreError:
                    self._restore(before)
                    raise
                self._stored_state = text
                self.match.to(MatchState.DISSOLVED)
            else:
                await self._save_state(before)
        await self.broadcast()
        self.poke()

    async def set_hints(self, seat: int, on: bool) -> None:
        """Whether this seat's player shows hints (the page says so on connecting and on its toggle)."""
        if on == (seat in self.hints_wanted):
            return
        if on:
            self.hints_wanted.add(seat)
        else:
            self.hints_wanted.discard(seat)
        await self.broadcast()

    async def set_ready(self, seat: int) -> None:
        """准备: before the first hand (the deal waits for every human's) or for the next hand."""
        state = self.match.state
        if state not in (MatchState.WAITING, MatchState.READY_CHECK):
            g = self.game
            if g is None or not g.over or state is not MatchState.BETWEEN_HANDS:
                raise Refusal("ready.no_next_hand")

        def change() -> None:
            self.readiness.ready[seat] = True
        await self._change(change)
        await self.broadcast()
        self.poke()  # the host may have asked to start already

    async def offer_rematch(self, offer: dict) -> None:
        """The rematch offer (the room a player opened), stored before anyone is shown it."""
        await self._change(lambda: setattr(self, "rematch_offer", offer))
        await self.broadcast()

    async def join(self, player: dict) -> Seated:
        """A person joins (``seating.step``'s ``Join``): the seats and the bench as this table keeps
        them, the change stored in one transaction (with the history's index) before anyone is
        told. The caller holds the table's lock; a refusal or a ``StoreError`` changes nothing."""
        seating, seated = step(Seating.of_room(self.room, self.hand_index), Join(player["id"], player["name"]))
        if not seated.changed:
            return seated
        bench_changed = seating.bench != Seating.of_room(self.room).bench
        settings = seating.settings(self.room.get("settings")) if bench_changed else None
        seats = [dict(s) for s in seating.seats]
        await self.aio.take_seat(self.code, seated.seat, player, seats, lease=self.code, settings=settings)
        self.room["seats"] = seats
        if settings is not None:
            self.room["settings"] = settings
        return seated
