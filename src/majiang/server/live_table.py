"""Live tables: the engine game of each room, driven by the room's one transition (``room.step``),
its clock (``clock``), presence (``presence``), bots (``table_bots``) and fan-out to its connections
(``fanout``). docs/ARCHITECTURE.md draws the parts and one command's path.

Every change to the room (a join, the start, 准备, 托管, a missed timer, a 解散 vote, a deal, a
hand's end, the rematch offer) is a command: ``room.step`` answers the new state and the effects to
store, ``command`` stores them (in one transaction where they go together: a deal with the room's
change) and only then adopts the new state and tells anyone. A refusal or a failed store leaves
the state as it was. Moves in the hand change the engine game; the hand's new log lines go to the
journal (written off the event loop, many tables per transaction) and are awaited; if the store
fails the game is rebuilt from the log as stored, so what players saw is what a restart has.

Each table is driven by one task: it plays the bots' decisions, runs every seated human's decision
timer, deals the next hand once everyone is ready (准备), and pauses while no seated human is connected.

托管 never makes a choice that is the player's: it wins when it can, discards, passes, but does not
亮倒/唱歌/跳舞, kong or pong, and does not say 准备 for a player who is not connected.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
import time
from dataclasses import dataclass, field
from typing import Any

from majiang.engine import Game, first_dealer
from majiang.engine.log import game_records, rebuild, record_line
from majiang.games.rules import rules_from_json
from majiang.server import room as rm
from majiang.server.bots import BotRunner
from majiang.server.clock import ABSENT_AFTER, AUTO_DELAY, BOT_DELAY, DecisionClock, TableSettings
from majiang.server.commands import PlayerCommands
from majiang.server.driver import TableDriver
from majiang.server.fanout import FanOut
from majiang.server.journal import Journal, outcome
from majiang.server.match import Ledger, MatchState
from majiang.server.presence import Presence
from majiang.server.quiet import TableActivity
from majiang.server.seating import Join, Lineup, Seated, hand_lineups
from majiang.server.store import Append, Store
from majiang.server.store_async import AsyncStore
from majiang.server.table_bots import as_table_bot, seat_bots

log = logging.getLogger("majiang.server")


@dataclass
class Timing:
    """How long the table's bots think, 托管 waits, and a lost connection may stay away."""

    bot_delay: float = BOT_DELAY
    auto_delay: float = AUTO_DELAY
    absent_after: float = ABSENT_AFTER


@dataclass
class HandLog:
    """The hand in play as stored: its id for the journal, and its log lines so far."""

    game_id: int | None = None
    lines: list[str] = field(default_factory=list)


@dataclass
class Running:
    """The driver's own bookkeeping: its task and wake-up, when it may try again after a failure, and
    the server's mark of its tables' work."""

    task: asyncio.Task | None = None
    wake: asyncio.Event | None = None
    closed: bool = False
    retry_at: float = 0.0  # after a failed store, bots and timers wait until then
    failures: int = 0
    over_at: float = 0.0  # wall-clock second the hand ended (the ready timer runs from it)
    last_activity: float = field(default_factory=time.time)
    on_lost: Any = None  # called with the code when a write finds the lease gone
    activity: TableActivity | None = None  # the server's tables, marked busy as this one works (``quiet``)


class LiveTable(PlayerCommands, TableDriver):
    def __init__(self, store: Store, room: dict, bot_delay: float = BOT_DELAY, absent_after: float = ABSENT_AFTER,
                 settings: TableSettings | None = None, runner: BotRunner | None = None,
                 journal: Journal | None = None, activity: TableActivity | None = None) -> None:
        self.store = store
        self.journal = journal or Journal.shared(store)
        self.runner = runner or BotRunner(0)
        self.room = room
        self.rules = rules_from_json(room["rules"])
        self.settings = settings or TableSettings.from_json(room.get("settings") or {})
        # tests that hurry the bots hurry 托管 too
        self.timing = Timing(bot_delay, AUTO_DELAY * bot_delay / BOT_DELAY, absent_after)
        self.lock = asyncio.Lock()
        self.game: Game | None = None
        self.hand = HandLog()
        self.state = rm.RoomState.of_room(room, now=time.time())  # the room's rules' state (``room.step``)
        self.saved = self.state.to_json()  # the match state as stored
        self.presence = Presence(len(room["seats"]), self.human)
        self.clock = DecisionClock(self.n, self.settings.bot_delay(bot_delay))  # the room's pace
        self.fanout = FanOut(self, self.presence)
        self.ledger = Ledger()
        self.lineup: Lineup | None = None  # who sits where in the hand in play (the seat ledger)
        self.bots = self._seat_bots(room["seats"])
        self.rematch_lock = asyncio.Lock()  # one new room per match, while making it awaits the store
        self.running = Running(activity=activity)

    def _seat_bots(self, seats: list[dict]) -> list:
        # the seeds come from this module's ``secrets`` (the tests fix them there)
        return seat_bots(seats, self.runner, self.code, secrets.randbits)

    # -- what the table is -------------------------------------------------------------------------

    @property
    def code(self) -> str:
        return self.room["code"]

    @property
    def n(self) -> int:
        return len(self.room["seats"])

    @property
    def aio(self) -> AsyncStore:
        return AsyncStore.shared(self.store)

    @property
    def hand_index(self) -> int:
        return self.game.hand_index if self.game is not None else 0

    @property
    def closed(self) -> bool:
        return self.running.closed

    @property
    def match_state(self) -> MatchState:
        return self.state.match

    @property
    def bots(self) -> list:
        return self._bots

    @bots.setter
    def bots(self, bots: list) -> None:
        """Any bots (agents, (level, seed), ``TableBot``s): each is adapted to the one interface here."""
        self._bots = [as_table_bot(b, self.runner, self.code) for b in bots]

    @property
    def rematch(self) -> dict | None:
        """The rematch offer (the room a player opened to play again), or None."""
        return self.state.rematch

    @property
    def dissolved(self) -> bool:
        return self.state.dissolved

    @property
    def by_person(self) -> dict[str, int]:
        """Each person's (and each seat's bot's) points over the finished hands they played."""
        return self.ledger.by_person

    def seat_keys(self) -> list[str]:
        """Who sits in each seat in the hand in play, as the seat ledger names them."""
        if self.lineup is not None:
            return self.lineup.keys()
        return Lineup.of(self.room["seats"]).keys()

    # -- who is who ------------------------------------------------------------------------------

    def human(self, seat: int) -> bool:
        return bool(self.room["seats"][seat].get("player"))

    def present(self, seat: int) -> bool:
        return self.presence.present(seat)

    @property
    def paused(self) -> bool:
        return self.presence.paused

    @property
    def host_seat(self) -> int | None:
        return self.state.host_seat

    def waiting_for(self) -> list[int]:
        return rm.waiting_for(self.state)

    def is_ready(self, seat: int) -> bool:
        return rm.is_ready(self.state, seat, self.presence.seats_present())

    def everyone_ready(self) -> bool:
        return rm.everyone_ready(self.state, self.presence.seats_present())

    def all_away(self) -> bool:
        return rm.all_away(self.state, self.presence.seats_present())

    def auto(self, seat: int) -> bool:
        """托管: a bot decides for this human seat until it acts again."""
        return self.state.auto[seat]

    def bot_plays(self, seat: int) -> bool:
        return not self.human(seat) or self.state.auto[seat]

    def _answers_at_once(self, seat: int) -> bool:
        """In a claim window: a bot, 托管, or a player who is not there (passed at once)."""
        return self.bot_plays(seat) or not self.present(seat)

    def dissolve_view(self) -> dict | None:
        """The open 解散 vote as everyone sees it (None when there is none or it lapsed)."""
        return rm.vote_view(self.state, time.time())

    # -- the room's commands -----------------------------------------------------------------------

    async def command(self, cmd: rm.Command) -> tuple[rm.Effect, ...]:
        """Apply one room command (``room.step``) and store its effects; the new state is adopted only
        once they are stored (a ``Refusal`` or ``StoreError`` changes nothing). The caller holds the
        table's lock."""
        new, effects = rm.step(self.state, cmd, time.time())
        for effect in effects:
            if isinstance(effect, rm.Save):
                await self._save(new)
            elif isinstance(effect, rm.TakeSeat):
                settings = ({**(self.room.get("settings") or {}), **effect.settings}
                            if effect.settings is not None else None)
                player = {"id": cmd.player, "name": cmd.name}  # (a TakeSeat answers a Join)
                await self.aio.take_seat(self.code, effect.seated.seat, player, effect.seats, lease=self.code,
                                         settings=settings)
                if settings is not None:
                    self.room["settings"] = settings
            elif isinstance(effect, rm.StartHand):
                await self._start_hand(new, effect)
            elif isinstance(effect, rm.EndMatch):
                text = new.to_json()
                await self.aio.update_room(self.code, status="finished", lease=self.code, match_state=text)
                self.saved = text
        self._adopt(new)
        return effects

    def command_now(self, cmd: rm.Command) -> bool:
        """A command whose only effect is storing the match state, adopted at once and stored by the
        driver (a reconnect ends 托管 before the next write; the driver stores it). Returns whether
        anything changed."""
        new, effects = rm.step(self.state, cmd, time.time())
        assert all(isinstance(e, rm.Save) for e in effects), effects
        changed = new != self.state
        self._adopt(new)
        return changed

    def _adopt(self, new: rm.RoomState) -> None:
        """The room's state after a stored command; the room's row as this table holds it follows."""
        old, self.state = self.state, new
        self.room["status"] = new.seating.status
        if new.seating.seats != old.seating.seats:
            self.room["seats"] = new.room_seats()
        if new.seating.bench != old.seating.bench and new.seating.rule is not None:
            self.room["settings"] = new.seating.settings(self.room.get("settings"))

    async def _save(self, new: rm.RoomState) -> None:
        """Store the match state if it changed (one write of a table in flight at a time: the caller
        holds the lock)."""
        text = new.to_json()
        if text == self.saved:
            return
        item = Append(self.code, self.hand.game_id or 0, len(self.hand.lines), (), match_state=text, lease=self.code)
        error, cancelled = await outcome(self.journal.submit(item))
        if error is None:
            self.saved = text
        if cancelled:
            raise asyncio.CancelledError
        if error is not None:
            raise error

    async def save_if_changed(self) -> None:
        """The driver stores what changed without a write of its own (a reconnect's end of 托管)."""
        if self.running.closed or self.state.to_json() == self.saved:
            return
        async with self.lock:
            await self._save(self.state)

    async def join(self, player: dict) -> Seated:
        """A person joins (``seating``'s rules through ``room.step``): stored in one transaction (with
        the history's index) before anyone is told. The caller holds the table's lock."""
        effects = await self.command(Join(player["id"], player["name"]))
        return next(e.seated if isinstance(e, rm.TakeSeat) else e for e in effects
                    if isinstance(e, (rm.TakeSeat, Seated)))

    # -- lifecycle -------------------------------------------------------------------------------

    async def ask_start(self) -> str:
        """The host asks to deal the first hand: dealt at once when every seated human is ready,
        otherwise when the last one is, or when the ready timer (``ready_seconds``) runs out."""
        if self.state.match not in (MatchState.WAITING, MatchState.READY_CHECK):
            return self.room["status"]
        async with self.lock:
            await self.command(rm.AskStart())
        await self.broadcast()
        self.poke()
        return self.room["status"]

    async def begin(self) -> None:
        """Deal the first hand: stored before the room says it is playing (a StoreError changes nothing)."""
        async with self.lock:
            await self.command(rm.StartDue())
        await self.broadcast()
        self.poke()

    async def _start_hand(self, new: rm.RoomState, effect: rm.StartHand) -> None:
        """Deal and store a hand: its first lines, its lineup, the room's change and the match state in
        one transaction; only then is it the table's."""
        old = self.game
        first = old is None or self.state.match in (MatchState.WAITING, MatchState.READY_CHECK)
        game = self._deal(first, None if first else old)
        values = {**effect.room_values, "match_state": new.to_json()}
        await self._store_new_hand(game, self.aio.start_hand, effect.lineup, values)
        self.saved = values["match_state"]
        if not first:  # the finished hand's points go to whoever played it (the seat ledger)
            self.ledger.add(self.lineup.everyone() if self.lineup is not None else self.seat_keys(), old.totals())
        self.lineup = effect.lineup
        if "seats" in effect.room_values or first:
            self.room["seats"] = new.room_seats()
            self.bots = self._seat_bots(self.room["seats"])
            self._seat_connections(effect.reseated)
        self.game = game
        self._track_decisions()

    def start(self, room: dict) -> None:
        """Deal the first hand of a room already playing (the caller stored its status; waits on the
        database on the caller's thread: the server's start is ``begin``)."""
        self.room = room
        self.bots = self._seat_bots(room["seats"])
        if self.game is None:
            lobby = rm.RoomState.of_room({**room, "status": "lobby"})
            new, (effect,) = rm.step(lobby, rm.StartDue(), time.time())
            game = self._deal(first=True)
            lines = [record_line(r) for r in game_records(game)]
            self.hand.game_id = self.store.start_hand(self.code, game.hand_index, lines, lease=self.code,
                                                      lineup=effect.lineup.to_json())
            self.hand.lines, self.lineup = lines, effect.lineup
            self.state, self.game = new, game
            self._track_decisions()

    def resume(self) -> None:
        """Rebuild from the stored logs: finished hands give totals; the last one is replayed (run
        off the event loop: ``Tables`` loads tables in its pool)."""
        self.game = None
        stored = self.store.games_of(self.code)
        lineups = hand_lineups(stored, self.room)
        self.ledger = Ledger()
        for g in stored[:-1]:
            self.ledger.add(lineups[g["hand_index"]].everyone(), g["totals"] or [])
        if stored:
            last = stored[-1]
            self.hand = HandLog(last["id"], [record_line(r) for r in last["records"]])
            self.game = rebuild(last["records"])
            self.lineup = lineups[self.game.hand_index]
            self.running.over_at = time.time()
            if (self.game.over and self.game.hand_index + 1 >= self.room["hands"]
                    and self.room["status"] == "playing"):  # a log from before the one-transaction end
                self.store.update_room(self.code, status="finished", lease=self.code)
                self.room["status"] = "finished"
        self.state = rm.RoomState.of_room(self.room, self.game.hand_index if self.game is not None else -1,
                                          self.game is not None and self.game.over, time.time())
        self.saved = self.state.to_json() if self.room.get("match_state") is None else self.room["match_state"]
        if self.game is None and self.room["status"] == "playing":
            self.start(self.room)
        self._track_decisions()

    def _deal(self, first: bool = False, after: Game | None = None) -> Game:
        # Each hand has its own seed from the OS's randomness, stored only in its log: no hand (nor
        # anything served) says anything about another hand's wall.
        seed = secrets.token_hex(16)
        if first:  # 第一局随机确定庄家: two dice, kept in the first hand's log
            dealer, dice = first_dealer(seed, self.n, self.rules)
            return Game(self.rules, seed=seed, hand_index=0, dealer=dealer, dealer_dice=dice)
        assert after is not None
        return Game(self.rules, seed=seed, hand_index=after.hand_index + 1, dealer=after.next_dealer())

    async def _store_new_hand(self, game: Game, start_hand, lineup: Lineup, room_values: dict) -> None:
        """A new hand's first lines stored (``start_hand``: the awaitable store's) before it is dealt,
        with its lineup and what the deal changes in the room, in one transaction."""
        lines = [record_line(r) for r in game_records(game)]
        game_id = await start_hand(self.code, game.hand_index, lines, lease=self.code,
                                   lineup=lineup.to_json(), room_values=room_values)
        self.hand = HandLog(game_id, lines)

    async def _store_change(self) -> tuple[BaseException | None, bool]:
        """Append the change's log lines through the journal and wait for them (see ``outcome``);
        on an error nothing was stored and the caller rolls back."""
        g = self.game
        assert g is not None and self.hand.game_id is not None
        lines = self.hand.lines
        new = tuple(record_line(r) for r in g.events[len(lines) - 1:])
        finishing = g.over and g.hand_index + 1 >= self.room["hands"]
        item = Append(self.code, self.hand.game_id, len(lines), new, finished=g.over,
                      totals=tuple(g.totals()) if g.over else None,
                      room_status="finished" if finishing else None, lease=self.code)
        error, cancelled = await outcome(self.journal.submit(item))
        if error is None:
            lines.extend(new)
            if g.over:  # stored with the hand's last lines: the room's status among them
                self._adopt(rm.step(self.state, rm.HandOver(), time.time())[0])
                self.running.over_at = time.time()
        return error, cancelled

    async def _rollback(self) -> None:
        """The store refused a change: the game goes back to what the store holds (replayed in the
        pool, off the event loop)."""
        records = [json.loads(line) for line in self.hand.lines]
        self.game = await self.aio.call(rebuild, records, check=False)
        self.clock.keep([self._pending_of(s) for s in range(self.n)])  # the same decisions, not new ones

    @property
    def four(self) -> dict | None:
        """A four-person Kawuxing room's sit-out state (``sitout``), else None."""
        return (self.room.get("settings") or {}).get("four")

    def totals(self) -> list[int]:
        """Match totals so far, times the room's stake: per seat, or in a four-person room the
        points of the person sitting there now. A hand cut short by 解散 counts for nothing: the
        dissolved match's total is its finished hands', as its summary and the history say."""
        cut_short = self.dissolved and self.game is not None and not self.game.over
        cur = self.game.totals() if self.game is not None and not cut_short else [0] * self.n
        stake = self.room.get("stake", 1)
        return [t * stake for t in self.ledger.seat_totals(self.seat_keys(), cur)]

    def resting(self) -> dict | None:
        """Who sits out this hand in a four-person room, with their match total."""
        four = self.four
        if four is None or not four.get("bench"):
            return None
        bench = four["bench"]
        return {"name": bench["name"], "total": self.ledger.of(bench["player"]) * self.room.get("stake", 1),
                "rule": four["rule"]}
