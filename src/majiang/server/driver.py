"""The table's driver: one task per table that plays what is due (bots, 托管, timers), deals the next
hand once everyone is ready, and applies and stores every action (``_apply``).

Mixed into ``LiveTable``: it reads the table's parts (the room's state, clock, presence) and holds
the table's lock around every change; what the room decides (a missed timer, 托管 for a lost
connection, the first deal and the next) is a ``room.step`` command (``LiveTable.command``). When
something is due is ``clock.seat_due``'s rule.
"""

from __future__ import annotations

import asyncio
import logging
import time

from majiang.core.errors import IllegalActionError
from majiang.engine import Action, Game
from majiang.engine.safety import safe_choices, unsafe_tiles
from majiang.server import room as rm
from majiang.server import sitout
from majiang.server.actions import player_default
from majiang.server.clock import WINDOWS, SeatFacts, earliest, seat_due
from majiang.server.errors import Refusal
from majiang.server.match import MatchState
from majiang.server.store import LeaseLost, StoreError

log = logging.getLogger("majiang.server")

# what a due decision plays (see ``_bot_act``): None lets the seat's bot decide everything
PLAYS = {"bot": None, "auto": "auto", "away": "auto", "pass": "pass", "frozen": "frozen", "timeout": "safe"}
# uvloop's (libuv's) timers count whole milliseconds of a clock read once per turn of the loop, so a
# wait can end up to a millisecond before its time; without this the driver would look again and
# again, a few microseconds apart, until the wall clock caught up (about 15 looks per bot move)
TIMER_SLACK = 0.0015


class TableDriver:
    # -- the driver ------------------------------------------------------------------------------

    def poke(self) -> None:
        """Something changed: the driver looks again (and starts if it was not running)."""
        run = self.running
        if run.closed:
            return
        loop = asyncio.get_running_loop()
        if run.task is not None and run.task.get_loop() is not loop:  # a new event loop (tests' clients)
            run.task.cancel()
            run.task = run.wake = None
            if not self.lock.locked():
                self.lock = asyncio.Lock()
            self.fanout.renew_locks()
        if run.wake is None:
            run.wake = asyncio.Event()
        run.wake.set()
        if run.task is None or run.task.done():
            run.task = loop.create_task(self._run())

    def close(self, kick: bool = False) -> None:
        """Stop the driver; with ``kick``, close every socket too (they reconnect, through the router,
        to the worker that drives the table now)."""
        self.running.closed = True
        if self.running.task is not None:
            self.running.task.cancel()
        if kick:
            for c in list(self.presence.connections):
                if c.kick is not None:
                    c.kick()

    async def _run(self) -> None:
        run = self.running
        assert run.wake is not None
        while not run.closed:
            run.wake.clear()
            try:
                delay = await self._tick()
            except LeaseLost:
                run.closed = True  # another worker drives this table now; Tables drops this copy
                if run.on_lost is not None:
                    run.on_lost(self.code)
                return
            except StoreError:
                run.failures += 1
                delay = min(10.0, 0.25 * 2 ** run.failures)  # the database is away: try again later
                run.retry_at = time.time() + delay
            except Exception:  # noqa: BLE001 - one table's fault must not end its driver silently
                log.exception("table %s: driver error", self.code)
                delay = 1.0
            if delay is not None and delay <= 0:
                await asyncio.sleep(0)  # let the sockets (and other tables) have the loop between moves
                continue
            try:
                async with asyncio.timeout(None if delay is None else delay + TIMER_SLACK):  # no task per wait
                    await run.wake.wait()
            except TimeoutError:
                pass

    async def _tick(self) -> float | None:
        """Do what is due now; return how long until something else is due (None: until poked)."""
        now = time.time()
        if now < self.running.retry_at:
            return self.running.retry_at - now
        await self.save_if_changed()
        state = self.state.match
        if state is MatchState.READY_CHECK:
            return await self._tick_ready_check(now)
        g = self.game
        # a held window is closed even at a paused table (a client connecting meanwhile waits for it)
        if g is None or not state.in_play or (self.paused and not self.fanout.holding):
            return None
        if g.over:
            return await self._tick_between_hands(now)
        return await self._tick_decisions(g, now)

    async def _tick_ready_check(self, now: float) -> float:
        """The first hand is dealt when every seated human is ready, or when the ready timer ran out."""
        asked = self.state.start_asked
        due = (asked if asked is not None else now) + self.settings.ready_seconds
        if not self.waiting_for() or now >= due:
            await self.begin()
            self.running.failures = 0
            return 0
        return due - now

    async def _tick_between_hands(self, now: float) -> float | None:
        if self.all_away():
            return None  # everyone is away in 托管: the next hand waits for someone's 准备
        due = self.running.over_at + self.settings.ready_seconds
        if self.everyone_ready() or now >= due:
            await self.next_hand()
            self.running.failures = 0
            return 0
        return due - now

    async def _tick_decisions(self, g: Game, now: float) -> float | None:
        pending = g.pending_seats()
        if not pending:
            return None
        due = earliest([seat_due(self._facts(g, s), now) for s in pending])
        if due.when > now:
            return due.when - now
        if due.why in ("away", "timeout"):
            await self._take_over(due.seat, due.why)
        await self._bot_act(due.seat, default=PLAYS[due.why])
        self.running.failures = 0
        return 0

    def _facts(self, g: Game, s: int) -> SeatFacts:
        # read from the parts themselves: this runs for every waiting seat each time the table is looked at
        presence, clock, timing = self.presence, self.clock, self.timing
        return SeatFacts(s, g.phase, self.bot_plays(s), self.state.auto[s], presence.present(s),
                         bool(g.seats[s].declared), clock.decision_at[s], self.settings.time_limit(g.phase),
                         clock.bot_wait[s], timing.auto_delay, presence.absent_since.get(s, 0.0), timing.absent_after)

    async def _take_over(self, seat: int, why: str) -> None:
        """托管 for a lost connection, or one more missed timer (托管 after enough): stored first."""
        async with self.lock:
            await self.command(rm.TimedOut(seat, away=why == "away"))

    # -- decisions -------------------------------------------------------------------------------

    def _pending_of(self, seat: int):
        g = self.game
        if g is None or g.over or seat in g.responses:
            return None
        return g.pending.get(seat)

    def _track_decisions(self) -> None:
        self.clock.track([self._pending_of(s) for s in range(self.n)])

    def time_limit(self, seat: int) -> float:
        return self.settings.time_limit(self.game.phase if self.game is not None else None)

    def deadline(self, seat: int) -> float | None:
        """When a human seat's current decision is taken by 托管 (wall-clock seconds)."""
        if self._pending_of(seat) is None or not self.human(seat) or self.state.auto[seat]:
            return None
        return self.clock.decision_at[seat] + self.time_limit(seat)

    async def _bot_choice(self, seat: int, g: Game, legal: list) -> Action:
        try:
            action = await self.bots[seat].decide(g, seat, legal, self.time_limit(seat))
            if action in legal:
                return action
            log.error("table %s: bot at seat %d chose an illegal action", self.code, seat)
        except Exception:  # noqa: BLE001 - a failing bot still moves the table on
            log.exception("table %s: bot at seat %d failed", self.code, seat)
        return safe_choices(legal, unsafe_tiles(g, seat))[0]  # never into a shown wait

    async def _bot_act(self, seat: int, default: str | None = None) -> None:
        """A bot's decision for ``seat``. ``default``: "pass" passes a claim; "frozen" plays a declared
        hand's turn (win if it can, else discard the tile just drawn); "safe" is a missed timer's move
        and "auto" is 托管's (see ``player_default``); None: a bot seat, which decides everything."""
        g = self.game
        decision = self._pending_of(seat)
        if g is None or g.over or decision is None:
            return
        legal = g.legal_actions(seat)
        action, choices = None, legal
        if default == "pass":
            action = next((a for a in legal if a.type == "pass"), None)
        elif default == "frozen":
            action = next((a for a in legal if a.type == "win"), None) or next(
                (a for a in legal if a.type == "discard" and a.tile == g.last_draw), None)
        elif default in ("safe", "auto"):
            action, choices = player_default(legal, g.last_draw if g.phase == "turn" else None, default == "safe",
                                             unsafe_tiles(g, seat))
        if action is None:  # the bot thinks outside the table's lock (and off the event loop)
            self.working()
            action = await self._bot_choice(seat, g, choices)
        async with self.lock:
            moved = self.game is not g or self._pending_of(seat) is not decision
            if moved or self.state.match is not MatchState.PLAYING:
                return  # the table moved on while the bot thought (a 解散 carried, say)
            await self._apply(seat, action)  # a StoreError leaves the game unchanged; the driver retries
        await self.broadcast()

    async def _apply(self, seat: int, action: Action) -> None:
        """Apply and store one action; on a store failure the game is as before and ``StoreError``
        is raised. Called holding the table's lock."""
        g = self.game
        assert g is not None
        self.working()
        if self.running.closed:  # handed to another worker: this copy of the table must not move on
            raise LeaseLost("this table moved to another server")
        if self.state.match is not MatchState.PLAYING:  # 解散 carried while this waited for the lock
            raise Refusal("match.over" if self.state.match.over else "hand.over")
        try:
            g.apply(seat, action)
        except IllegalActionError:
            raise  # the engine refused it: nothing changed
        except Exception:
            log.exception("table %s: applying %s failed", self.code, action)
            await self._rollback()  # whatever the engine did half-way is undone from the stored log
            raise Refusal("action.not_applied") from None
        error, cancelled = await self._store_change()
        if error is not None:
            await self._rollback()
            if cancelled:
                raise asyncio.CancelledError
            raise error
        self._track_decisions()
        self.running.last_activity = time.time()
        self._hold_or_send(self.game)
        if cancelled:  # the task awaiting the store was cancelled: the table is whole, now let it end
            raise asyncio.CancelledError

    def working(self) -> None:
        """This table works now (a player's message, a bot asked, an action applied): the server's
        reviews wait until it has been quiet a moment (``quiet``)."""
        if self.running.activity is not None:
            self.running.activity.busy()

    def _hold_or_send(self, g: Game) -> None:
        """A claim window that bots (or absent players) close at once is not shown: its frame would
        differ from a discard nobody can claim only in being there. Each seat is sent the table as
        it stands after the change (one frame, however many windows the change passed through), so
        nobody can tell a discard that somebody could have claimed from one nobody could."""
        pending = g.pending_seats()
        self.fanout.holding = g.phase in WINDOWS and bool(pending) and all(self._answers_at_once(s) for s in pending)
        if not self.fanout.holding and self.state.ending:
            self.command_now(rm.WindowClosed())  # 托管 asked off during the held window: off now

    # -- between hands ---------------------------------------------------------------------------

    async def next_hand(self) -> None:
        """Deal the next hand. Who sits where is ``room.step``'s ``NextHand`` (friends who waited sit
        down, a rematch seat's owner takes it, a four-person room swaps who sits out); the room's
        change, the new hand and its lineup are stored in one transaction, so a failure (or a crash)
        leaves the finished hand and its seats as they were, and a retry deals the same way."""
        async with self.lock:
            g = self.game
            if g is None or not g.over or self.state.match is not MatchState.BETWEEN_HANDS:
                return
            await self.command(rm.NextHand(winner=sitout.resting_winner(g)))
        await self.broadcast()

    def _seat_connections(self, reseated: tuple[int, ...] | list[int]) -> None:
        """New seats (friends who waited for this hand, a rematch seat's owner, or a four-person room's
        swap): every open page sees from its player's seat now (or, sitting this hand out, as a
        spectator), told by a whole snapshot; who is away is counted from now."""
        ids = [s.get("player") for s in self.room["seats"]]
        for c in self.presence.connections:
            if c.player is None:
                continue
            seat = ids.index(c.player) if c.player in ids else None
            if seat != c.seat:
                c.seat = seat
                c.last_sent, c.last_data = "", None  # a whole snapshot for what it sees now
        self.presence.reseat()
