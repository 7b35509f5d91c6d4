"""Live tables: the engine game of each room, driven by its match (``match``), clock (``clock``),
presence and 托管 (``presence``), 准备 (``readiness``), votes (``votes``), bots (``table_bots``) and
fan-out to its connections (``fanout``). docs/ARCHITECTURE.md draws the parts and one action's path.

Only this module touches a running ``Game``. An action changes the game, then the hand's new log
lines go to the journal (written off the event loop, many tables per transaction) and are awaited;
only when the store has them is anyone told, and no frame is built meanwhile (frames are built under
the table's lock). If the store fails, the game is rebuilt from the log as it was stored before and
the action is refused, so what players saw is what a restart has. The match's own state (托管,
准备, the pending start, the dissolve vote, the rematch offer) is stored the same way (``state_json``)
and a restart resumes it with the deal.

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
from typing import Any

from majiang.engine import Game, first_dealer
from majiang.engine.log import game_records, rebuild, record_line
from majiang.games.rules import rules_from_json
from majiang.server.bots import BotRunner
from majiang.server.clock import ABSENT_AFTER, AUTO_DELAY, BOT_DELAY, DecisionClock, TableSettings
from majiang.server.commands import CHAT_GAP, PlayerCommands
from majiang.server.driver import TableDriver
from majiang.server.fanout import FanOut
from majiang.server.journal import Journal, outcome
from majiang.server.match import Ledger, Match, MatchState
from majiang.server.presence import Presence
from majiang.server.readiness import ReadyCheck
from majiang.server.seating import Deal, Lineup, Seating, hand_lineups, step
from majiang.server.store import Append, Store, StoreError
from majiang.server.store_async import AsyncStore
from majiang.server.table_bots import as_table_bot, seat_bots
from majiang.server.table_state import StoredMatchState
from majiang.server.votes import DissolveVote

log = logging.getLogger("majiang.server")



class LiveTable(PlayerCommands, TableDriver, StoredMatchState):
    def __init__(self, store: Store, room: dict, bot_delay: float = BOT_DELAY, absent_after: float = ABSENT_AFTER,
                 settings: TableSettings | None = None, runner: BotRunner | None = None,
                 journal: Journal | None = None) -> None:
        self.store = store
        self.aio = AsyncStore.shared(store)
        self.journal = journal or Journal.shared(store)
        self.game_id: int | None = None  # the stored hand the journal appends to
        self.runner = runner or BotRunner(0)
        self.room = room
        self.code = room["code"]
        self.rules = rules_from_json(room["rules"])
        self.n = len(room["seats"])
        self.settings = settings or TableSettings.from_json(room.get("settings") or {})
        self.bot_delay = bot_delay
        self.auto_delay = AUTO_DELAY * bot_delay / BOT_DELAY  # tests that hurry the bots hurry 托管 too
        self.absent_after = absent_after
        self.lock = asyncio.Lock()
        self.game: Game | None = None
        self.hand_index = 0
        self.dealer = 0
        self.presence = Presence(self.n, self.human)
        self.readiness = ReadyCheck(self.n, self.presence)
        self.clock = DecisionClock(self.n, self.settings.bot_delay(bot_delay))  # the room's pace
        self.votes = DissolveVote(self.n, self.human)
        self.fanout = FanOut(self, self.presence)
        self.ledger = Ledger()
        self.lineup: Lineup | None = None  # who sits where in the hand in play (the seat ledger)
        self.match = Match(room)
        self.bots = self._seat_bots(room["seats"])
        self.rematch_offer: dict | None = None  # {"code", "by"}: the room a player opened to play again
        self.rematch_lock = asyncio.Lock()  # one new room per match, while making it awaits the store
        self.over_at = 0.0  # wall-clock second the hand ended (the ready timer runs from it)
        self.retry_at = 0.0  # after a failed store, bots and timers wait until then
        self.failures = 0
        self.last_activity = time.time()
        self.closed = False
        self._log_lines: list[str] = []
        self._wake: asyncio.Event | None = None
        self._task: asyncio.Task | None = None
        self.chat_at = [-CHAT_GAP] * self.n  # monotonic second of each seat's last quick message
        # seats whose player shows hints: only they are computed (the advice costs more than the rest of a frame)
        self.hints_wanted: set[int] = set()
        self.hint_cache: dict = {}
        self.on_lost: Any = None  # called with the code when a write finds the lease gone
        self.load_state(room.get("match_state"))

    def _seat_bots(self, seats: list[dict]) -> list:
        # the seeds come from this module's ``secrets`` (the tests fix them there)
        return seat_bots(seats, self.runner, self.code, secrets.randbits)

    # -- the parts' state as the table names it -------------------------------------------------

    @property
    def bots(self) -> list:
        return self._bots

    @bots.setter
    def bots(self, bots: list) -> None:
        """Any bots (agents, (level, seed), ``TableBot``s): each is adapted to the one interface here."""
        self._bots = [as_table_bot(b, self.runner, self.code) for b in bots]

    @property
    def rematch(self) -> dict | None:
        return self.rematch_offer

    @rematch.setter
    def rematch(self, offer: dict | None) -> None:
        """Set by the rematch route: stored by the driver at once (``offer_rematch`` awaits it)."""
        self.rematch_offer = offer
        self.poke()

    @property
    def dissolved(self) -> bool:
        return self.match.state is MatchState.DISSOLVED

    @property
    def finished_totals(self) -> list[int]:
        """The points over the finished hands of whoever sits in each seat now."""
        return [self.ledger.of(k) for k in self.seat_keys()]

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
        ids = [s.get("player") for s in self.room["seats"]]
        return ids.index(self.room["host"]) if self.room.get("host") in ids else None

    def waiting_for(self) -> list[int]:
        return self.readiness.waiting_for(self.host_seat)

    def is_ready(self, seat: int) -> bool:
        return self.readiness.is_ready(seat)

    def _all_away(self) -> bool:
        return self.readiness.all_away()

    def bot_plays(self, seat: int) -> bool:
        return not self.human(seat) or self.presence.auto[seat]

    def _answers_at_once(self, seat: int) -> bool:
        """In a claim window: a bot, 托管, or a player who is not there (passed at once)."""
        return self.bot_plays(seat) or not self.present(seat)

    # -- lifecycle -------------------------------------------------------------------------------

    async def ask_start(self) -> str:
        """The host asks to deal the first hand: dealt at once when every seated human is ready,
        otherwise when the last one is, or when the ready timer (``ready_seconds``) runs out."""
        if self.match.state not in (MatchState.WAITING, MatchState.READY_CHECK):
            return self.room["status"]
        if not self.waiting_for():
            await self.begin()
            return self.room["status"]
        if self.readiness.start_asked is None:
            await self._change(lambda: setattr(self.readiness, "start_asked", time.time()))
            self.match.to(MatchState.READY_CHECK)
        await self.broadcast()
        self.poke()
        return "lobby"

    async def begin(self) -> None:
        """Deal the first hand: stored before the room says it is playing (a StoreError changes nothing)."""
        async with self.lock:
            if self.match.state not in (MatchState.WAITING, MatchState.READY_CHECK):
                return
            room = await self.aio.room(self.code) or self.room
            _, lineup = step(Seating.of_room(room), Deal())
            before, old_room = self.state_json(), self.room
            try:
                self.room, self.match.room = room, room
                self.bots = self._seat_bots(room["seats"])
                self.hand_index = 0
                game = self._deal(first=True)
                self.readiness.start_asked = None
                text = self.state_json()
                # the room playing, its match state, the first hand and its lineup: one transaction
                await self._store_new_hand(game, self.aio.start_hand, lineup,
                                           {"status": "playing", "match_state": text})
            except StoreError:
                self.room, self.match.room, self.game = old_room, old_room, None
                self._restore(before)
                raise
            self.lineup = lineup
            self.game, self._stored_state = game, text
            self.match.to(MatchState.PLAYING)
            self._track_decisions()
        await self.broadcast()
        self.poke()

    def start(self, room: dict) -> None:
        """Deal the first hand of a room already playing (the caller stored its status; waits on the
        database on the caller's thread: the server's start is ``begin``)."""
        self.room, self.match.room = room, room
        self.bots = self._seat_bots(room["seats"])
        if self.game is None:
            self.hand_index = 0
            game = self._deal(first=True)
            self._store_new_hand_now(game)
            self.game = game
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
            self._log_lines = [record_line(r) for r in last["records"]]
            self.game_id = last["id"]
            self.game = rebuild(last["records"])
            self.hand_index = last["hand_index"]
            self.lineup = lineups[self.hand_index]
            self.dealer = self.game.dealer
            self.over_at = time.time()
            if self.game.over and self.hand_index + 1 >= self.room["hands"] and self.room["status"] == "playing":
                # a log from before the one-transaction end
                self.store.update_room(self.code, status="finished", lease=self.code)
                self.room["status"] = "finished"
        elif self.room["status"] == "playing":
            game = self._deal(first=True)
            self._store_new_hand_now(game)
            self.game = game
        self.load_state(self.room.get("match_state"))
        self._track_decisions()

    def _deal(self, first: bool = False) -> Game:
        # Each hand has its own seed from the OS's randomness, stored only in its log: no hand (nor
        # anything served) says anything about another hand's wall.
        seed = secrets.token_hex(16)
        dice = None
        if first:  # 第一局随机确定庄家: two dice, kept in the first hand's log
            self.dealer, dice = first_dealer(seed, self.n, self.rules)
        return Game(self.rules, seed=seed, hand_index=self.hand_index, dealer=self.dealer, dealer_dice=dice)

    def _store_new_hand_now(self, game: Game) -> None:
        lineup = Lineup.of(self.room["seats"], (self.four or {}).get("bench"))
        lines = [record_line(r) for r in game_records(game)]
        self.game_id = self.store.start_hand(self.code, game.hand_index, lines, lease=self.code,
                                             lineup=lineup.to_json())
        self._log_lines, self.lineup = lines, lineup
        self.readiness.reset()

    async def _store_new_hand(self, game: Game, start_hand, lineup: Lineup, room_values: dict) -> None:
        """A new hand's first lines stored (``start_hand``: the awaitable store's) before it is dealt,
        with its lineup and what the deal changes in the room, in one transaction."""
        lines = [record_line(r) for r in game_records(game)]
        self.game_id = await start_hand(self.code, game.hand_index, lines, lease=self.code,
                                        lineup=lineup.to_json(), room_values=room_values)
        self._log_lines = lines
        self.readiness.reset()

    async def _store_change(self) -> tuple[BaseException | None, bool]:
        """Append the change's log lines through the journal and wait for them (see ``outcome``);
        on an error nothing was stored and the caller rolls back."""
        g = self.game
        assert g is not None and self.game_id is not None
        new = tuple(record_line(r) for r in g.events[len(self._log_lines) - 1:])
        finishing = g.over and self.hand_index + 1 >= self.room["hands"]
        item = Append(self.code, self.game_id, len(self._log_lines), new, finished=g.over,
                      totals=tuple(g.totals()) if g.over else None,
                      room_status="finished" if finishing else None, lease=self.code)
        error, cancelled = await outcome(self.journal.submit(item))
        if error is None:
            self._log_lines.extend(new)
            if g.over:
                self.match.to(MatchState.FINISHED if finishing else MatchState.BETWEEN_HANDS)
                self.over_at = time.time()
        return error, cancelled

    async def _rollback(self) -> None:
        """The store refused a change: the game goes back to what the store holds (replayed in the
        pool, off the event loop)."""
        records = [json.loads(line) for line in self._log_lines]
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
