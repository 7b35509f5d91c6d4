"""Live tables: the engine game of each room, its connections, bots, decision timers and 托管.

Only this module touches a running ``Game``. An action changes the game, then the hand's new log
lines go to the journal (written off the event loop, many tables per transaction) and are awaited;
only when the store has them is anyone told, and no frame is built meanwhile (frames are built under
the table's lock). If the store fails, the game is rebuilt from the log as it was stored before and
the action is refused, so what players saw is what a restart has.

Each table is driven by one task: it plays the bots' decisions, runs every seated human's decision
timer, deals the next hand once everyone is ready (准备), and pauses while no seated human is connected.

托管 (auto-play) is for a player who is really gone: a missed timer plays that one decision safely
(win if it can, else the drawn tile goes out; a claim is passed) and the player is warned; 托管 takes
the seat after ``MISSES_BEFORE_AUTO`` missed decisions in a row or a lost connection, and ends at once
on any action, tap or reconnect. It never makes a choice that is the player's: it wins when it can,
discards, passes, but does not 亮倒/唱歌/跳舞, kong or pong, and does not say 准备 for a player who is
not connected. A table whose humans are all in 托管 or away plays at a person's pace and waits between
hands for one of them.
"""

from __future__ import annotations

import asyncio
import json
import logging
import random
import secrets
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from majiang.bots import make_agent
from majiang.bots.native_greedy import NativeGreedyAgent
from majiang.bots.native_greedy import available as native_greedy_available
from majiang.core.errors import IllegalActionError, MajiangError
from majiang.engine import Action, Game, first_dealer
from majiang.engine.log import game_records, rebuild, record_line
from majiang.games.rules import rules_from_json
from majiang.server import sitout
from majiang.server.bots import BotRunner
from majiang.server.errors import Refusal
from majiang.server.journal import Journal, outcome
from majiang.server.store import LEASE_SECONDS, Append, LeaseLost, Store, StoreError
from majiang.server.views import Frame, patch_text, snapshot

log = logging.getLogger("majiang.server")

BOT_DELAY = 0.4  # seconds a bot "thinks" on its turn, so people can follow
ABSENT_AFTER = 5.0  # seconds after a disconnect before 托管 plays a seat that has to decide
WINDOWS = ("claim", "rob")
FROZEN_DELAY = 2.5  # seconds before a declared (frozen) hand plays its turn by itself
IN_PLACE = ("random",)  # bot levels that decide on the event loop (microseconds), not in the pool
MISSES_BEFORE_AUTO = 2  # missed decisions in a row before 托管 takes the seat
AUTO_DELAY = 1.5  # seconds a seat in 托管 waits on its turn: a table of absent players goes at a person's pace


@dataclass(frozen=True)
class TableSettings:
    """Per-room decision timers (seconds), chosen when the room is made."""

    turn_seconds: float = 15.0  # discard, kong, win on one's own turn; 换三张 and 定缺
    claim_seconds: float = 8.0  # 胡 / 碰 / 杠 / 过 on another's discard, and robbing a kong
    ready_seconds: float = 30.0  # reading the settlement before 准备 is pressed for you

    LIMITS = {"turn_seconds": (5, 300), "claim_seconds": (3, 120), "ready_seconds": (5, 600)}
    ROOM_STATE = ("four",)  # kept beside the timers in the room's settings: a four-person room's bench (sitout)

    @classmethod
    def from_json(cls, data: Any) -> "TableSettings":
        """Validated settings; raises ``MajiangError`` naming the bad field.

        >>> TableSettings.from_json({"turn_seconds": 20}).turn_seconds
        20.0
        >>> TableSettings.from_json({"turn_seconds": 1})
        Traceback (most recent call last):
        majiang.Refusal: turn_seconds must be a number from 5 to 300
        """
        if data is None:
            return cls()
        if not isinstance(data, dict):
            raise Refusal("timers.not_object")
        values = {}
        for key, value in data.items():
            if key in cls.ROOM_STATE:
                continue
            if key not in cls.LIMITS:
                raise Refusal("timers.unknown", choices=", ".join(cls.LIMITS))
            lo, hi = cls.LIMITS[key]
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not lo <= value <= hi:
                raise Refusal("timers.out_of_range", timer=key, lo=lo, hi=hi)
            values[key] = float(value)
        return cls(**values)

    def to_json(self) -> dict:
        return {"turn_seconds": self.turn_seconds, "claim_seconds": self.claim_seconds,
                "ready_seconds": self.ready_seconds}


# Quick chat: phrase and emoji ids only (the client words them); no free text travels.
CHAT_PHRASES = ("hello", "hurry", "nice", "thanks", "oops", "again", "bye",
                "laugh", "cry", "angry", "thumb", "flower")
CHAT_GAP = 2.0  # seconds between two messages of one seat; sooner ones are dropped without a word
DISSOLVE_SECONDS = 60.0  # a 解散 vote lapses after this
DISSOLVE_GAP = 30.0  # one seat starts at most one vote in this many seconds


@dataclass(eq=False)
class Connection:
    """One websocket: what it may see (its seat, or ``None`` for a spectator) and what it was sent."""

    send: Any  # async callable taking a message (a dict) or a snapshot's text (a str)
    seat: int | None
    player: str | None
    last_sent: str = ""  # the last snapshot sent, to send each seat a change once, never a repeat
    kick: Any = None  # a callable that closes the socket (its table moved to another worker)
    patches: bool = False  # after the first snapshot, send only what changed (the browser client)
    last_data: dict | None = None  # the last snapshot as this client holds it (patches apply to it)

    def __hash__(self) -> int:
        return id(self)


class LiveTable:
    def __init__(self, store: Store, room: dict, bot_delay: float = BOT_DELAY, absent_after: float = ABSENT_AFTER,
                 settings: TableSettings | None = None, runner: BotRunner | None = None,
                 journal: Journal | None = None) -> None:
        self.store = store
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
        self.connections: list[Connection] = []
        self.lock = asyncio.Lock()
        self.game: Game | None = None
        self.finished_totals: list[int] = [0] * self.n
        self.by_person: dict[str, int] = {}  # a four-person room: each person's points so far (sitout)
        self.hand_index = 0
        self.dealer = 0
        self.bots = self._make_bots()
        self.auto = [False] * self.n  # 托管: a bot decides for this human seat until it acts again
        self.missed = [0] * self.n  # decisions in a row this seat's timer ran out on (托管 at MISSES_BEFORE_AUTO)
        self.ready = [False] * self.n  # 准备 for the next hand
        self.over_at = 0.0  # wall-clock second the hand ended (the ready timer runs from it)
        self.decision_no = [0] * self.n  # bumps at each new decision of a seat: stale answers are refused
        self.decision_at = [0.0] * self.n  # wall-clock second that decision began
        self._pending_ref: list[Any] = [None] * self.n
        self.absent_since: dict[int, float] = {}
        self.retry_at = 0.0  # after a failed store, bots and timers wait until then
        self.failures = 0
        self.last_activity = time.time()
        self.closed = False
        self._log_lines: list[str] = []
        self._wake: asyncio.Event | None = None
        self._task: asyncio.Task | None = None
        self._sending = asyncio.Lock()
        self._holding = False  # a claim window bots close at once: no frame until they have (see _apply)
        # seats whose 托管 ends once the held window closes: it answers the window it was never shown
        self._auto_ends: set[int] = set()
        self.bot_wait = [bot_delay] * self.n  # this decision's pause for a bot, jittered
        self.chat_at = [-CHAT_GAP] * self.n  # monotonic second of each seat's last quick message
        self.dissolve: dict | None = None  # a 解散 vote: {"by": seat, "votes": {seat: True}, "until": t}
        self.dissolve_started = [-DISSOLVE_GAP] * self.n
        self.dissolved = False
        # seats whose player shows hints: only they are computed (the advice costs more than the rest of a frame)
        self.hints_wanted: set[int] = set()
        self.hint_cache: dict = {}
        self.start_asked: float | None = None  # when the host asked to deal the first hand (准备 timer)
        self.rematch: dict | None = None  # {"code", "by"}: the room a player opened to play again
        self.on_lost: Any = None  # called with the code when a write finds the lease gone

    def _make_bots(self) -> list:
        """(level, seed) per seat, decided by the runner's workers; an agent object decides in place
        (``random``, whose choice among the legal actions costs less than sending it away; ``greedy``
        in one native library call when the native engine is built; tests). Fresh randomness per
        table: nobody replays a bot's tie-breaks."""
        bots: list = []
        for s in self.room["seats"]:
            level, seed = s.get("bot") or "greedy", secrets.randbits(32)
            if level == "greedy" and native_greedy_available():
                bots.append(NativeGreedyAgent(seed))
            else:
                bots.append(make_agent(level, seed=seed) if level in IN_PLACE else (level, seed))
        return bots

    # -- who is who ------------------------------------------------------------------------------

    def human(self, seat: int) -> bool:
        return bool(self.room["seats"][seat].get("player"))

    def present(self, seat: int) -> bool:
        return any(c.seat == seat for c in self.connections)

    @property
    def paused(self) -> bool:
        """No seated human is connected: bots wait rather than play a table nobody is at."""
        humans = [s for s in range(self.n) if self.human(s)]
        return bool(humans) and not any(self.present(s) for s in humans)

    @property
    def host_seat(self) -> int | None:
        ids = [s.get("player") for s in self.room["seats"]]
        return ids.index(self.room["host"]) if self.room.get("host") in ids else None

    def waiting_for(self) -> list[int]:
        """Seated humans, the host aside (starting is the host's 准备), not yet ready in the lobby."""
        host = self.host_seat
        return [s for s in range(self.n) if self.human(s) and s != host and not self.ready[s]]

    # -- lifecycle -------------------------------------------------------------------------------

    async def ask_start(self) -> str:
        """The host asks to deal the first hand: dealt at once when every seated human is ready,
        otherwise when the last one is, or when the ready timer (``ready_seconds``) runs out."""
        if self.room["status"] != "lobby":
            return self.room["status"]
        if self.start_asked is None:
            self.start_asked = time.time()
        if not self.waiting_for():
            await self.begin()
            return "playing"
        await self.broadcast()
        self.poke()
        return "lobby"

    async def begin(self) -> None:
        """Deal the first hand: stored before the room says it is playing (a StoreError changes nothing)."""
        async with self.lock:
            if self.room["status"] != "lobby":
                return
            room = self.store.room(self.code) or self.room
            room["status"] = "playing"
            extra = {}
            four = (room.get("settings") or {}).get("four")
            if four is not None:  # the first hand's lineup: who plays where, who sits out
                four = {**four, "lineups": [sitout.lineup(room["seats"], four.get("bench"))]}
                room["settings"] = {**room["settings"], "four": four}
                extra["settings"] = json.dumps(room["settings"])
            try:
                self.start(room)
                self.store.update_room(self.code, status="playing", lease=self.code, **extra)
            except StoreError:
                room["status"] = "lobby"
                self.room, self.game = room, None
                raise
            self.start_asked = None
        await self.broadcast()
        self.poke()

    def start(self, room: dict) -> None:
        """The host started the match: seats are final; deal the first hand (dealer by dice)."""
        self.room = room
        self.bots = self._make_bots()
        if self.game is None:
            self.hand_index = 0
            self.game = self._store_new_hand(self._deal(first=True))
            self._track_decisions()

    def resume(self) -> None:
        """Rebuild from the stored logs: finished hands give totals; the last one is replayed."""
        self.finished_totals = [0] * self.n
        self.game = None
        stored = self.store.games_of(self.code)
        for g in stored[:-1]:
            for i, v in enumerate(g["totals"] or []):
                self.finished_totals[i] += v
        if self.four is not None:
            self.by_person = sitout.person_totals(self.four["lineups"],
                                                  {g["hand_index"]: g["totals"] or [] for g in stored[:-1]})
        if stored:
            last = stored[-1]
            self._log_lines = [record_line(r) for r in last["records"]]
            self.game_id = last["id"]
            self.game = rebuild(last["records"])
            self.hand_index = last["hand_index"]
            self.dealer = self.game.dealer
            self.over_at = time.time()
            if self.game.over and self.hand_index + 1 >= self.room["hands"] and self.room["status"] == "playing":
                # a log from before the one-transaction end
                self.store.update_room(self.code, status="finished", lease=self.code)
                self.room["status"] = "finished"
        elif self.room["status"] == "playing":
            self.game = self._store_new_hand(self._deal(first=True))
        self._track_decisions()

    def _deal(self, first: bool = False) -> Game:
        # Each hand has its own seed from the OS's randomness, stored only in its log: no hand (nor
        # anything served) says anything about another hand's wall.
        seed = secrets.token_hex(16)
        dice = None
        if first:  # 第一局随机确定庄家: two dice, kept in the first hand's log
            self.dealer, dice = first_dealer(seed, self.n, self.rules)
        return Game(self.rules, seed=seed, hand_index=self.hand_index, dealer=self.dealer, dealer_dice=dice)

    def _store_new_hand(self, game: Game) -> Game:
        lines = [record_line(r) for r in game_records(game)]
        self.game_id = self.store.start_hand(self.code, game.hand_index, lines, lease=self.code)
        self._log_lines = lines
        self.ready = [False] * self.n
        return game

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
            if finishing:
                self.room["status"] = "finished"
            if g.over:
                self.over_at = time.time()
        return error, cancelled

    def _rollback(self) -> None:
        """The store refused a change: the game goes back to what the store holds."""
        self.game = rebuild([json.loads(line) for line in self._log_lines], check=False)
        self._pending_ref = [self._pending_of(s) for s in range(self.n)]  # the same decisions, not new ones

    @property
    def four(self) -> dict | None:
        """A four-person Kawuxing room's sit-out state (``sitout``), else None."""
        return (self.room.get("settings") or {}).get("four")

    def totals(self) -> list[int]:
        """Match totals so far, times the room's stake: per seat, or in a four-person room the
        points of the person sitting there now."""
        cur = self.game.totals() if self.game is not None else [0] * self.n
        stake = self.room.get("stake", 1)
        if self.four is not None:
            seats = self.room["seats"]
            return [(self.by_person.get(sitout.person(s, i), 0) + c) * stake for i, (s, c) in enumerate(zip(seats, cur))]
        return [(a + b) * stake for a, b in zip(self.finished_totals, cur)]

    def resting(self) -> dict | None:
        """Who sits out this hand in a four-person room, with their match total."""
        four = self.four
        if four is None or not four.get("bench"):
            return None
        bench = four["bench"]
        return {"name": bench["name"], "total": self.by_person.get(bench["player"], 0) * self.room.get("stake", 1),
                "rule": four["rule"]}

    # -- decisions -------------------------------------------------------------------------------

    def _pending_of(self, seat: int):
        g = self.game
        if g is None or g.over or seat in g.responses:
            return None
        return g.pending.get(seat)

    def _track_decisions(self) -> None:
        """A seat's decision is new when the engine made a new list of options for it."""
        now = time.time()
        for s in range(self.n):
            ref = self._pending_of(s)
            if ref is not None and ref is not self._pending_ref[s]:
                self.decision_no[s] += 1
                self.decision_at[s] = now
                # ±25%: a bot's few milliseconds of thinking in a claim window stay lost in the noise
                self.bot_wait[s] = self.bot_delay * random.uniform(0.75, 1.25)
            self._pending_ref[s] = ref

    async def _apply(self, seat: int, action: Action) -> None:
        """Apply and store one action; on a store failure the game is as before and ``StoreError``
        is raised. Called holding the table's lock."""
        g = self.game
        assert g is not None
        if self.closed:  # handed to another worker: this copy of the table must not move on
            raise LeaseLost("this table moved to another server")
        try:
            g.apply(seat, action)
        except IllegalActionError:
            raise  # the engine refused it: nothing changed
        except Exception:
            log.exception("table %s: applying %s failed", self.code, action)
            self._rollback()  # whatever the engine did half-way is undone from the stored log
            raise Refusal("action.not_applied") from None
        error, cancelled = await self._store_change()
        if error is not None:
            self._rollback()
            if cancelled:
                raise asyncio.CancelledError
            raise error
        self._track_decisions()
        self.last_activity = time.time()
        g = self.game
        pending = g.pending_seats()
        # A claim window that bots (or absent players) close at once is not shown: its frame would
        # differ from a discard nobody can claim only in being there. Each seat is sent the table as
        # it stands after the change (one frame, however many windows the change passed through), so
        # nobody can tell a discard that somebody could have claimed from one nobody could.
        self._holding = g.phase in WINDOWS and bool(pending) and all(self._answers_at_once(s) for s in pending)
        if not self._holding and self._auto_ends:  # 托管 asked off during a held window: off now
            for s in self._auto_ends:
                self.auto[s], self.missed[s] = False, 0
            self._auto_ends.clear()
        if cancelled:  # the task awaiting the store was cancelled: the table is whole, now let it end
            raise asyncio.CancelledError

    def time_limit(self, seat: int) -> float:
        g = self.game
        return self.settings.claim_seconds if g is not None and g.phase in WINDOWS else self.settings.turn_seconds

    def deadline(self, seat: int) -> float | None:
        """When a human seat's current decision is taken by 托管 (wall-clock seconds)."""
        if self._pending_of(seat) is None or not self.human(seat) or self.auto[seat]:
            return None
        return self.decision_at[seat] + self.time_limit(seat)

    # -- views ----------------------------------------------------------------------------------

    def view(self, seat: int | None) -> dict:
        return snapshot(self, seat)

    def _frames(self) -> dict:
        """This moment's snapshot for every seat that has a connection (and spectators)."""
        seats = {c.seat for c in self.connections}
        return {s: Frame.of(snapshot(self, s)) for s in seats}

    async def broadcast(self) -> None:
        if self._holding:
            return  # sent with the change that closes the window
        async with self._sending:  # one broadcast at a time: no connection gets an older frame after a newer one
            await self._broadcast()

    async def _broadcast(self) -> None:
        async with self.lock:  # not while a change waits for the store: nobody sees it before it is stored
            if self._holding:  # a window began while this broadcast waited: the change closing it sends
                return
            frames = self._frames()
        for c in list(self.connections):
            frame = frames.get(c.seat)
            if frame is None:
                continue
            if c.patches and c.last_data is not None:
                message = patch_text(c.last_data, frame.data)
                if message is None:
                    continue  # nothing this seat sees changed
            else:
                if frame.text == c.last_sent:
                    continue
                message = frame.with_clock()
                c.last_sent = frame.text
            c.last_data = frame.data
            try:
                await c.send(message)
            except Exception:  # noqa: BLE001 - a dead socket is dropped
                if c in self.connections:
                    self.connections.remove(c)

    async def send_current(self, conn: Connection) -> None:
        """The connection's first snapshot; in a held window none: the broadcast of the change that
        closes it sends this connection (which has no frame yet) its whole snapshot."""
        async with self._sending:
            async with self.lock:
                if self._holding:
                    return
                frame = Frame.of(snapshot(self, conn.seat))
            conn.last_sent, conn.last_data = frame.text, frame.data
            await conn.send(frame.with_clock())

    # -- connections -----------------------------------------------------------------------------

    def connect(self, conn: Connection) -> None:
        if self.paused and conn.seat is not None and self.human(conn.seat):
            now = time.time()  # back from a pause: the clocks start again, they did not run meanwhile
            self.decision_at = [now] * self.n
            self.over_at = now
        self.connections.append(conn)
        if conn.seat is not None:
            self.absent_since.pop(conn.seat, None)
            if self.auto[conn.seat] and self._holding:
                self._auto_ends.add(conn.seat)  # after the held window, which 托管 answers
            elif self.auto[conn.seat]:  # back: 托管 ends at once, and everyone sees it
                self.auto[conn.seat] = False
                self.missed[conn.seat] = 0
                asyncio.get_running_loop().create_task(self.broadcast())
        self.last_activity = time.time()
        self.poke()

    def _seat_connections(self, seats: list[dict]) -> None:
        """New seats (friends who waited for this hand, or a four-person room's swap): every open page
        sees from its player's seat now (or, sitting this hand out, as a spectator); a seat's 托管 and
        missed timers were its last player's."""
        old = [s.get("player") for s in self.room["seats"]]
        self.room["seats"] = seats
        self.bots = self._make_bots()
        ids = [s.get("player") for s in seats]
        for i in range(self.n):
            if ids[i] != old[i]:
                self.auto[i], self.missed[i] = False, 0
        for c in self.connections:
            if c.player is None:
                continue
            seat = ids.index(c.player) if c.player in ids else None
            if seat != c.seat:
                c.seat = seat
                c.last_sent, c.last_data = "", None  # a whole snapshot for what it sees now
        for i in range(self.n):
            if self.human(i) and not self.present(i):
                self.absent_since.setdefault(i, time.time())
            else:
                self.absent_since.pop(i, None)

    def disconnect(self, conn: Connection) -> None:
        if conn in self.connections:
            self.connections.remove(conn)
        if conn.seat is not None and not self.present(conn.seat):
            self.absent_since[conn.seat] = time.time()
        self.last_activity = time.time()
        self.poke()

    # -- what players do -------------------------------------------------------------------------

    async def act(self, seat: int, action: Any, seq: int | None) -> None:
        """A player's action: refused with a ``MajiangError`` (nothing changes) or applied, stored,
        then shown to everyone."""
        async with self.lock:
            g = self.game
            if self.room["status"] != "playing" or g is None:
                raise Refusal("match.not_started")
            if g.over:
                raise Refusal("hand.over")
            if self._pending_of(seat) is None:
                raise Refusal("action.no_decision")  # names nobody else
            if seq != self.decision_no[seat]:
                raise Refusal("action.stale", decision=self.decision_no[seat])  # not what was sent
            await self._apply(seat, parse_action(action))
            self.auto[seat] = False  # the player is back: 托管 ends
            self.missed[seat] = 0
        await self.broadcast()
        self.poke()

    async def set_auto(self, seat: int, on: bool) -> None:
        """托管 asked for (the button) or ended (any tap on the page while it plays for you)."""
        if not on and self._holding and self.auto[seat]:
            self._auto_ends.add(seat)  # the window nobody was shown is still 托管's to answer
            return
        self.auto[seat] = bool(on)
        self.missed[seat] = 0
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
        for c in list(self.connections):
            try:
                await c.send({"type": "chat", "seat": seat, "phrase": phrase})
            except Exception:  # noqa: BLE001 - a dead socket is dropped
                if c in self.connections:
                    self.connections.remove(c)

    def dissolve_view(self) -> dict | None:
        """The open 解散 vote as everyone sees it (None when there is none or it lapsed)."""
        d = self.dissolve
        if d is None or time.time() >= d["until"]:
            return None
        return {"by": d["by"], "votes": [d["votes"].get(s) if self.human(s) else None for s in range(self.n)],
                "deadline": int(d["until"] * 1000)}

    async def vote_dissolve(self, seat: int, agree: bool) -> None:
        """解散: a seated player asks to end the match; it ends when every seated human agrees, any
        refusal cancels the vote, and it lapses after ``DISSOLVE_SECONDS``."""
        if self.room["status"] != "playing":
            raise Refusal("dissolve.not_playing")
        now = time.time()
        if self.dissolve is not None and now >= self.dissolve["until"]:
            self.dissolve = None
        if self.dissolve is None:
            if not agree:
                raise Refusal("dissolve.no_vote")
            if time.monotonic() - self.dissolve_started[seat] < DISSOLVE_GAP:
                raise Refusal("dissolve.too_soon")
            self.dissolve_started[seat] = time.monotonic()
            self.dissolve = {"by": seat, "votes": {}, "until": now + DISSOLVE_SECONDS}
        if not agree:
            self.dissolve = None
        else:
            self.dissolve["votes"][seat] = True
            if all(self.dissolve["votes"].get(s) for s in range(self.n) if self.human(s)):
                async with self.lock:
                    self.store.update_room(self.code, status="finished", lease=self.code)  # StoreError: nothing changes
                    self.room["status"] = "finished"
                    self.dissolved = True
                    self.dissolve = None
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
        g = self.game
        if self.room["status"] == "lobby":  # 准备 before the first hand: the deal waits for every human's
            self.ready[seat] = True
            await self.broadcast()
            self.poke()  # the host may have asked to start already
            return
        if g is None or not g.over or self.room["status"] != "playing":
            raise Refusal("ready.no_next_hand")
        self.ready[seat] = True
        await self.broadcast()
        self.poke()

    async def seat_next_hand(self, player: dict) -> int | None:
        """A friend who arrives during the match takes a bot's seat from the next hand on (the bot
        finishes this one; the seat's score so far stays the seat's). Returns the seat (the one already
        kept for them if they asked before), or None when no bot seat is left."""
        async with self.lock:
            i = self.reserve_next_hand(player)
        await self.broadcast()
        return i

    def reserve_next_hand(self, player: dict) -> int | None:
        """``seat_next_hand`` for a caller that holds the table's lock (nothing is broadcast)."""
        seats = self.room["seats"]
        for i, s in enumerate(seats):
            if s.get("player") == player["id"] or (s.get("next") or {}).get("player") == player["id"]:
                return i
        free = [i for i, s in enumerate(seats) if not s.get("player") and not s.get("next") and not s.get("for")]
        if not free or self.room["status"] != "playing":
            return None
        i = free[0]
        new = [dict(s) for s in seats]
        new[i]["next"] = {"player": player["id"], "name": player["name"]}
        self.store.take_seat(self.code, i, player, new, lease=self.code)  # StoreError: nothing changes
        self.room["seats"] = new
        return i

    def _next_lineup(self, seats: list[dict], g: Game) -> tuple[list[dict], dict | None]:
        """A four-person room: who sits out the next hand (``sitout``), and the room's settings with
        the new bench and lineup (None: not such a room)."""
        four = self.four
        if four is None:
            return seats, None
        four = dict(four)
        if four.get("bench") and all(s.get("player") for s in seats):
            rests = sitout.rester(four["rule"], self.hand_index, g.next_dealer(), self.n)
            seats, four["bench"] = sitout.swap(seats, four["bench"], rests)
        four["lineups"] = list(four["lineups"]) + [sitout.lineup(seats, four.get("bench"))]
        return seats, {**(self.room.get("settings") or {}), "four": four}

    def _seat_arrivals(self) -> list[dict] | None:
        """The seats with a friend waiting for the next hand, given to them (None: nobody waits)."""
        seats = self.room["seats"]
        if not any(s.get("next") for s in seats):
            return None
        return [{"player": s["next"]["player"], "name": s["next"]["name"], "bot": None} if s.get("next") else s
                for s in seats]

    async def next_hand(self) -> None:
        """Deal the next hand (stored first: on a store failure nothing changes)."""
        async with self.lock:
            g = self.game
            if g is None or not g.over or self.room["status"] != "playing":
                return
            old = (self.hand_index, self.dealer)
            arrivals = self._seat_arrivals()
            seats, settings = self._next_lineup(arrivals if arrivals is not None else self.room["seats"], g)
            changed = {"seats": seats} if seats is not self.room["seats"] else {}
            if settings is not None:
                changed["settings"] = json.dumps(settings)
            self.hand_index, self.dealer = self.hand_index + 1, g.next_dealer()
            try:
                if changed:
                    self.store.update_room(self.code, lease=self.code, **changed)
                new = self._store_new_hand(self._deal())
            except StoreError:
                self.hand_index, self.dealer = old
                raise
            if self.four is not None:  # the finished hand's points go to the people who played it
                played = self.four["lineups"][old[0]] if old[0] < len(self.four["lineups"]) else []
                for key, v in sitout.person_totals([played], {0: g.totals()}).items():
                    self.by_person[key] = self.by_person.get(key, 0) + v
            if settings is not None:
                self.room["settings"] = settings
            if "seats" in changed:
                self._seat_connections(seats)
            for i, v in enumerate(g.totals()):
                self.finished_totals[i] += v
            self.game = new
            self._track_decisions()
        await self.broadcast()

    # -- the table's driver ----------------------------------------------------------------------

    def poke(self) -> None:
        """Something changed: the driver looks again (and starts if it was not running)."""
        if self.closed:
            return
        loop = asyncio.get_running_loop()
        if self._task is not None and self._task.get_loop() is not loop:  # a new event loop (tests' clients)
            self._task.cancel()
            self._task = self._wake = None
            if not self.lock.locked():
                self.lock = asyncio.Lock()
            if not self._sending.locked():
                self._sending = asyncio.Lock()
        if self._wake is None:
            self._wake = asyncio.Event()
        self._wake.set()
        if self._task is None or self._task.done():
            self._task = loop.create_task(self._run())


    def close(self, kick: bool = False) -> None:
        """Stop the driver; with ``kick``, close every socket too (they reconnect, through the router,
        to the worker that drives the table now)."""
        self.closed = True
        if self._task is not None:
            self._task.cancel()
        if kick:
            for c in list(self.connections):
                if c.kick is not None:
                    c.kick()

    async def _run(self) -> None:
        assert self._wake is not None
        while not self.closed:
            self._wake.clear()
            try:
                delay = await self._tick()
            except LeaseLost:
                self.closed = True  # another worker drives this table now; Tables drops this copy
                if self.on_lost is not None:
                    self.on_lost(self.code)
                return
            except StoreError:
                self.failures += 1
                delay = min(10.0, 0.25 * 2 ** self.failures)  # the database is away: try again later
                self.retry_at = time.time() + delay
            except Exception:  # noqa: BLE001 - one table's fault must not end its driver silently
                log.exception("table %s: driver error", self.code)
                delay = 1.0
            if delay is not None and delay <= 0:
                await asyncio.sleep(0)  # let the sockets (and other tables) have the loop between moves
                continue
            try:
                async with asyncio.timeout(delay):  # no task per wait, unlike wait_for
                    await self._wake.wait()
            except TimeoutError:
                pass

    async def _tick(self) -> float | None:
        """Do what is due now; return how long until something else is due (None: until poked)."""
        now = time.time()
        if now < self.retry_at:
            return self.retry_at - now
        if self.room["status"] == "lobby" and self.start_asked is not None:
            due = self.start_asked + self.settings.ready_seconds
            if not self.waiting_for() or now >= due:
                await self.begin()  # everyone is ready, or the ready timer ran out
                self.failures = 0
                return 0
            return due - now
        g = self.game
        # a held window is closed even at a paused table (a client connecting meanwhile waits for it)
        if g is None or self.room["status"] != "playing" or (self.paused and not self._holding):
            return None
        if g.over:
            if self._all_away():
                return None  # everyone is away in 托管: the next hand waits for someone's 准备
            due = self.over_at + self.settings.ready_seconds
            if all(self.is_ready(s) for s in range(self.n)) or now >= due:
                await self.next_hand()
                self.failures = 0
                return 0
            return due - now
        due_list = []
        for s in g.pending_seats():
            if self.bot_plays(s):
                # windows: no pause that says who could claim; 托管 at a person's pace on its turns
                wait = 0.0 if g.phase in WINDOWS else self.auto_delay if self.auto[s] else self.bot_wait[s]
                due_list.append((self.decision_at[s] + wait, s, "auto" if self.auto[s] else None))
            elif g.phase in WINDOWS and not self.present(s):
                due_list.append((now, s, "pass"))  # nobody there to claim: passed at once, no pause
            elif g.seats[s].declared and g.phase == "turn":
                # a frozen (亮倒/唱歌/跳舞) hand plays its drawn tile after the same pause whether or
                # not it could also kong, so the pause tells nobody about a hidden triplet
                due_list.append((self.decision_at[s] + FROZEN_DELAY, s, "frozen"))
            else:
                when = self.decision_at[s] + self.time_limit(s)
                why = "pass" if g.phase in WINDOWS else "timeout"
                if not self.present(s):
                    # never connected, or gone: 托管 after the grace, counted from the later of the two
                    gone = max(self.absent_since.get(s, 0.0), self.decision_at[s]) + self.absent_after
                    if gone < when:
                        when, why = gone, "away"
                due_list.append((when, s, why))
        if not due_list:
            return None
        when, seat, why = min(due_list, key=lambda d: (d[0], d[1]))
        if when > now:
            return when - now
        if why == "away":
            self.auto[seat] = True  # the connection is lost: 托管 until the player is back
            why = "auto"
        elif why == "timeout":
            # one missed timer plays that decision safely and warns the player; 托管 only after
            # MISSES_BEFORE_AUTO in a row. A claim left unanswered is passed and not counted: 托管
            # switched on then would show everyone that this seat had a claim to make.
            self.missed[seat] += 1
            if self.missed[seat] >= MISSES_BEFORE_AUTO:
                self.auto[seat] = True
            why = "safe"
        await self._bot_act(seat, default=why)
        self.failures = 0
        return 0

    def is_ready(self, seat: int) -> bool:
        """准备 for the next hand: said so, or a bot, or in 托管 with the page open (unless every human
        is away); never for a player who is not connected (the ready timer deals without them)."""
        return self.ready[seat] or not self.human(seat) or (
            self.auto[seat] and self.present(seat) and not self._all_away())

    def _all_away(self) -> bool:
        """Every seated human is in 托管 or gone and none has said 准备: bots alone would play the match
        out while nobody watches, so the next hand waits for one of them."""
        humans = [s for s in range(self.n) if self.human(s)]
        return bool(humans) and all((self.auto[s] or not self.present(s)) and not self.ready[s] for s in humans)

    def bot_plays(self, seat: int) -> bool:
        return not self.human(seat) or self.auto[seat]

    def _answers_at_once(self, seat: int) -> bool:
        """In a claim window: a bot, 托管, or a player who is not there (passed at once)."""
        return self.bot_plays(seat) or not self.present(seat)

    async def _bot_choice(self, seat: int, g: Game, legal: list) -> Action:
        bot = self.bots[seat]
        try:
            obs = g.observation(seat) if getattr(bot, "needs_observation", True) else None
            if isinstance(bot, tuple):
                try:  # a searching bot keeps to the table's timer: half of it, then strong decides
                    action = await asyncio.wait_for(self.runner.decide(bot[0], bot[1], obs, legal),
                                                    self.time_limit(seat) / 2)
                except asyncio.TimeoutError:
                    log.warning("table %s: %s bot at seat %d overran its time; strong decides", self.code,
                                bot[0], seat)
                    action = await self.runner.decide("strong", bot[1], obs, legal)
            elif hasattr(bot, "act_in_game"):
                action = bot.act_in_game(g, seat, legal)
            else:
                action = bot.act(obs, legal)
            if action in legal:
                return action
            log.error("table %s: bot at seat %d chose an illegal action", self.code, seat)
        except Exception:  # noqa: BLE001 - a failing bot still moves the table on
            log.exception("table %s: bot at seat %d failed", self.code, seat)
        return legal[0]

    async def _bot_act(self, seat: int, default: str | None = None) -> None:
        """A bot's decision for ``seat``. ``default``: "pass" passes a claim; "frozen" plays a declared
        hand's turn (win if it can, else discard the tile just drawn); "safe" is a missed timer's move
        and "auto" is 托管's (see ``player_default``); None: a bot seat, which decides everything."""
        g = self.game
        decision = self._pending_of(seat)
        if g is None or g.over or decision is None:
            return
        legal = g.legal_actions(seat)
        action = None
        choices = legal
        if default == "pass":
            action = next((a for a in legal if a.type == "pass"), None)
        elif default == "frozen":
            action = next((a for a in legal if a.type == "win"), None) or next(
                (a for a in legal if a.type == "discard" and a.tile == g.last_draw), None)
        elif default in ("safe", "auto"):
            action, choices = player_default(legal, g.last_draw if g.phase == "turn" else None, default == "safe")
        if action is None:  # the bot thinks outside the table's lock (and off the event loop)
            action = await self._bot_choice(seat, g, choices)
        async with self.lock:
            if self.game is not g or self._pending_of(seat) is not decision:
                return  # the table moved on while the bot thought
            await self._apply(seat, action)  # a StoreError leaves the game unchanged; the driver retries
        await self.broadcast()

    def room_changed(self, seats: list[dict] | None = None, settings: dict | None = None) -> None:
        """The room's seats or settings as the store now has them (a join in the lobby, the bench
        taken): written by the caller, which holds the table's lock, before it broadcasts."""
        if seats is not None:
            self.room["seats"] = seats
        if settings is not None:
            self.room["settings"] = settings


def player_default(legal: list, drawn: Any, safe: bool) -> tuple[Action | None, list]:
    """What is played for a person who did not decide: (the action, or None to let the seat's bot
    choose among the returned choices). A win is taken whenever the rules offer one (every app's
    托管 does); otherwise only moves that decide nothing for the player: a claim is passed, and on
    one's turn a plain discard (``safe``: the tile just drawn, as a missed timer plays it; 托管: the
    bot's pick among the discards), never a kong, a pong or a 亮倒/唱歌/跳舞. 换三张 and 定缺 have no
    neutral move: the bot chooses.

    >>> from majiang.engine import Action
    >>> from majiang.core.tiles import Tile
    >>> legal = [Action("discard", Tile.parse("5p")), Action("discard", Tile.parse("7s")),
    ...          Action("declare", Tile.parse("7s"))]
    >>> player_default(legal, Tile.parse("7s"), safe=True)[0]
    Action(type='discard', tile=7s, tiles=(), suit=None)
    >>> [str(a.tile) for a in player_default(legal, Tile.parse("7s"), safe=False)[1]]
    ['5p', '7s']
    """
    win = next((a for a in legal if a.type == "win"), None)
    if win is not None:
        return win, legal
    passing = next((a for a in legal if a.type == "pass"), None)
    if passing is not None:
        return passing, legal
    discards = [a for a in legal if a.type == "discard"]
    if not discards:
        return None, legal  # 换三张 / 定缺
    if safe:
        drawn_out = next((a for a in discards if a.tile == drawn), None)
        return drawn_out or discards[-1], discards
    return None, discards


def parse_action(data: Any) -> Action:
    """A client's action, checked for shape without echoing what it sent."""
    from majiang.engine import ACTION_TYPES

    if not isinstance(data, dict) or not isinstance(data.get("type"), str) or data["type"] not in ACTION_TYPES:
        raise Refusal("action.malformed", types=", ".join(ACTION_TYPES))
    tile, tiles = data.get("tile"), data.get("tiles", [])
    if tile is not None and (not isinstance(tile, str) or len(tile) > 8):
        raise Refusal("action.bad_tile")
    if not isinstance(tiles, list) or len(tiles) > 4 or not all(isinstance(t, str) and len(t) <= 8 for t in tiles):
        raise Refusal("action.bad_tiles")
    try:
        return Action.from_json(data)
    except MajiangError:
        raise Refusal("action.bad_tile_name") from None


class Elsewhere(MajiangError):
    """Another worker drives this table (its lease has not expired nor been handed over yet)."""


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
    live: dict[str, LiveTable] = field(default_factory=dict)
    idle_after: float = 120.0  # seconds without a connection before a table leaves memory
    worker: str | None = None
    lease_seconds: float = LEASE_SECONDS
    moving: set[str] = field(default_factory=set)  # tables being handed over to another worker
    db_threads: int = 4  # the pool that takes, renews and gives up leases and resumes tables
    _db: ThreadPoolExecutor | None = None
    _loading: dict = field(default_factory=dict)  # code -> the future of its table being loaded
    renewed_at: float = field(default_factory=time.monotonic)  # the last renewal that reached the database

    def get(self, code: str) -> LiveTable | None:
        """The live table (None: no such room); ``Elsewhere`` if another worker holds its lease.
        Waits on the database on the caller's thread: the server uses ``obtain``."""
        if code in self.live:
            return self.live[code]
        if code in self.moving:
            raise Elsewhere(f"table {code} is being handed over")
        return self._adopt(code, self._load(code))

    async def off_loop(self, fn, *args):
        """``fn(*args)`` in the database pool (bounded: a stalled database holds a few threads,
        never the event loop)."""
        if self._db is None:
            self._db = ThreadPoolExecutor(self.db_threads, thread_name_prefix="majiang-db")
        return await asyncio.get_running_loop().run_in_executor(self._db, fn, *args)

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
        table.on_lost = self.lost
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
                          journal=Journal.shared(self.store))
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
            held = await self.off_loop(self.store.renew_leases, codes, self.lease_seconds)
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
                if not t.connections and now - t.last_activity >= self.idle_after and not t.lock.locked()]
        for code in gone:
            self.live.pop(code).close()
        if gone and self.worker is not None:
            try:
                self.store.release_leases(gone)
            except StoreError:
                pass  # they expire
        return gone

    def close(self) -> None:
        for t in self.live.values():
            t.close(kick=self.worker is not None)
        if self.worker is not None:
            try:
                self.store.release_leases()  # the other workers take these tables at once
            except StoreError:
                pass
        Journal.shared(self.store).close()
        if self._db is not None:
            self._db.shutdown(wait=False, cancel_futures=True)
        self.runner.close()
