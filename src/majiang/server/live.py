"""Live tables: the engine game of each room, its connections, bots and 托管 (bots for absent players).

Only this module touches a running ``Game``. Every accepted action is saved (the hand's whole event
log) before anyone is told, so a restart resumes from the database exactly where it stopped.
"""

from __future__ import annotations

import asyncio
import json
import time
from dataclasses import dataclass, field
from typing import Any

from ..agents import make_agent
from ..engine import Action, Game, first_dealer
from ..errors import IllegalActionError, MajiangError
from ..tiles import Tile
from ..log import game_records, rebuild
from ..rules import rules_from_json
from .store import Store

BOT_DELAY = 0.4  # seconds a bot "thinks", so people can follow
ABSENT_AFTER = 30.0  # seconds before a bot plays for a seat whose player has gone (托管)


@dataclass
class Connection:
    send: Any  # async callable taking a dict
    seat: int | None  # None: a spectator
    player: str | None
    tokens: float = 60.0
    last: float = field(default_factory=time.monotonic)

    def allow(self, rate: float = 30.0, burst: float = 60.0) -> bool:
        """Token bucket: ``rate`` messages a second, bursts of ``burst``."""
        now = time.monotonic()
        self.tokens = min(burst, self.tokens + (now - self.last) * rate)
        self.last = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


class LiveTable:
    def __init__(self, store: Store, room: dict, bot_delay: float = BOT_DELAY, absent_after: float = ABSENT_AFTER) -> None:
        self.store = store
        self.room = room
        self.code = room["code"]
        self.rules = rules_from_json(room["rules"])
        self.n = len(room["seats"])
        self.bot_delay = bot_delay
        self.absent_after = absent_after
        self.connections: list[Connection] = []
        self.lock = asyncio.Lock()
        self.seq = 0
        self.game: Game | None = None
        self.finished_totals: list[int] = [0] * self.n
        self.hand_index = 0
        self.dealer = 0
        self.bots = [make_agent(s.get("bot") or "greedy", seed=i) for i, s in enumerate(room["seats"])]
        self.absent_since: dict[int, float] = {}
        self._task: asyncio.Task | None = None
        self.waiting_next = False

    # -- lifecycle ---------------------------------------------------------------------------

    def start(self, room: dict) -> None:
        """The host started the match: seats are final; deal the first hand."""
        self.room = room
        self.bots = [make_agent(s.get("bot") or "greedy", seed=i) for i, s in enumerate(room["seats"])]
        if self.game is None:
            self.hand_index, self.dealer = 0, first_dealer(room["seed"], self.n)[0]  # 第一局随机确定庄家
            self.new_hand()
        self.seq += 1

    def resume(self) -> None:
        """Rebuild from the stored logs: finished hands give totals; an unfinished one is replayed."""
        self.finished_totals = [0] * self.n  # every hand before the current one
        self.game = None
        stored = self.store.games_of(self.code)
        for g in stored[:-1]:
            for i, v in enumerate(g["totals"] or []):
                self.finished_totals[i] += v
        if stored:
            last = stored[-1]
            self.game = rebuild(last["records"])
            self.hand_index = last["hand_index"]
            self.dealer = self.game.dealer
            self.waiting_next = self.game.over
        else:
            self.new_hand()

    def new_hand(self) -> None:
        self.game = Game(self.rules, seed=self.room["seed"], hand_index=self.hand_index, dealer=self.dealer)
        self.waiting_next = False
        self.save()

    def save(self) -> None:
        """Store the hand's log; only records added since the last save are serialised."""
        g = self.game
        if getattr(self, "_saved_game", None) is not g:
            self._saved_game, self._log_lines = g, []
        lines = self._log_lines
        records = game_records(g) if not lines else g.events[len(lines) - 1:]
        lines.extend(json.dumps(r, ensure_ascii=False, separators=(",", ":")) for r in records)
        self.store.save_game_text(self.code, g.hand_index, "\n".join(lines), g.over,
                                  g.totals() if g.over else None)

    def totals(self) -> list[int]:
        """Match totals so far, times the room's stake."""
        cur = self.game.totals() if self.game is not None else [0] * self.n
        stake = self.room.get("stake", 1)
        return [(a + b) * stake for a, b in zip(self.finished_totals, cur)]

    # -- views ---------------------------------------------------------------------------------

    def view(self, seat: int | None) -> dict:
        g = self.game
        view = g.observation(seat) if g is not None else None
        hints = None
        if g is not None and seat is not None and not g.over and g.phase not in ("exchange", "void"):
            hints = self._hints(seat)
        names = [s.get("name") or (f"bot {i} ({s.get('bot')})" if s.get("bot") else "empty")
                 for i, s in enumerate(self.room["seats"])]
        return {"type": "snapshot", "seq": self.seq, "room": {
            "code": self.code, "variant": self.room["variant"], "preset": self.rules.preset,
            "hands": self.room["hands"], "hand_index": self.hand_index, "status": self.room["status"],
            "names": names, "stake": self.room.get("stake", 1), "match_totals": self.totals(),
            "waiting_next": self.waiting_next, "match_over": self.room["status"] == "finished"},
            "seat": seat, "view": view, "hints": hints,
            "settlement": g.settlement() if g is not None and g.over else None}

    def _hints(self, seat: int) -> dict | None:
        key = (id(self.game), len(self.game.events), seat)
        if getattr(self, "_hint_key", None) != key:  # one computation per decision, not per broadcast
            self._hint_key, self._hint = key, self._compute_hints(seat)
        return self._hint

    def _compute_hints(self, seat: int) -> dict | None:
        """Discard advice on one's turn; otherwise the waits and how many of each are unseen."""
        from ..analysis import discard_advice, effective_tiles
        g = self.game
        hand = g.hand(seat)
        visible = [0] * 30
        obs = g.observation(seat)
        for p in obs["players"]:
            for t, claimed in zip(p["discards"], p["claimed"]):
                if not claimed:
                    visible[Tile.parse(t)] += 1
            if p["seat"] != seat:
                for m in p["melds"]:
                    if m["tile"] is not None:
                        visible[Tile.parse(m["tile"])] += 4 if m["kind"] != "pong" else 3
        try:
            if hand.concealed_count % 3 == 2:
                advice = discard_advice(hand, g.variant, g.void[seat], visible=visible)
                return {"discards": [o.to_json() for o in advice[:5]]}
            s, eff = effective_tiles(hand, g.variant, g.void[seat])
        except MajiangError:
            return None
        own = hand.all_counts()
        if s != 0:
            return {"shanten": s}
        return {"shanten": 0, "waits": [{"tile": str(t), "left": max(0, 4 - own[t] - visible[t])} for t in eff]}

    async def broadcast(self) -> None:
        for c in list(self.connections):
            try:
                await c.send(self.view(c.seat))
            except Exception:  # noqa: BLE001 - a dead socket is dropped
                self.connections.remove(c)

    # -- actions -----------------------------------------------------------------------------

    async def act(self, seat: int, action: dict, seq: int | None) -> None:
        """Apply a player's action (raises MajiangError with a clear message; nothing changes)."""
        async with self.lock:
            g = self.game
            if self.room["status"] != "playing" or g is None:
                raise MajiangError("the match has not started")
            if seq is not None and seq != self.seq:
                raise MajiangError(f"stale action: sequence {seq}, the table is at {self.seq}")
            g.apply(seat, Action.from_json(action))
            self._after_change()
        await self.broadcast()
        self.kick()

    def _after_change(self) -> None:
        self.seq += 1
        self.save()
        if self.game.over:
            self.waiting_next = True
            if self.hand_index + 1 >= self.room["hands"]:
                self.room["status"] = "finished"
                self.store.update_room(self.code, status="finished")

    async def next_hand(self) -> None:
        async with self.lock:
            if not (self.game and self.game.over) or self.room["status"] == "finished":
                return
            for i, v in enumerate(self.game.totals()):
                self.finished_totals[i] += v
            self.dealer = self.game.next_dealer()
            self.hand_index += 1
            self.new_hand()
            self.seq += 1
        await self.broadcast()
        self.kick()

    def human_present(self, seat: int) -> bool:
        return any(c.seat == seat for c in self.connections)

    def bot_plays(self, seat: int) -> bool:
        s = self.room["seats"][seat]
        if not s.get("player"):
            return True
        g = self.game
        if g is not None and g.declared[seat] and not g.over:
            legal = g.legal_actions(seat)
            if len(legal) == 1 and legal[0].type == "discard":
                return True  # a frozen (亮倒/唱歌/跳舞) hand discards what it drew by itself
        if self.human_present(seat):
            self.absent_since.pop(seat, None)
            return False
        since = self.absent_since.setdefault(seat, time.monotonic())
        return time.monotonic() - since >= self.absent_after

    def kick(self) -> None:
        """Make sure the bot loop runs when a bot (or 托管) must act."""
        if self._task is None or self._task.done():
            self._task = asyncio.get_event_loop().create_task(self._bot_loop())

    async def _bot_loop(self) -> None:
        while True:
            g = self.game
            if g is None or self.room["status"] != "playing":
                return
            if g.over:
                if self.room["status"] == "playing" and all(self.bot_plays(s) for s in range(self.n)):
                    await asyncio.sleep(self.bot_delay)
                    await self.next_hand()
                    continue
                return
            seats = [s for s in g.pending_seats() if self.bot_plays(s)]
            if not seats:
                if any(self.room["seats"][s].get("player") and not self.human_present(s) for s in g.pending_seats()):
                    await asyncio.sleep(min(1.0, self.absent_after))  # an absent player: 托管 after absent_after
                    continue
                return
            await asyncio.sleep(self.bot_delay)
            async with self.lock:
                if self.game is not g or g.over:
                    continue
                seat = seats[0]
                if seat not in g.pending_seats():
                    continue
                agent = self.bots[seat]
                try:
                    g.apply(seat, agent.act(g.observation(seat), g.legal_actions(seat)))
                except IllegalActionError:  # pragma: no cover - agents only pick legal actions
                    g.apply(seat, g.legal_actions(seat)[0])
                self._after_change()
            await self.broadcast()


class Tables:
    """All live tables of a server."""

    def __init__(self, store: Store, bot_delay: float = BOT_DELAY, absent_after: float = ABSENT_AFTER) -> None:
        self.store = store
        self.bot_delay = bot_delay
        self.absent_after = absent_after
        self.live: dict[str, LiveTable] = {}

    def get(self, code: str) -> LiveTable | None:
        if code in self.live:
            return self.live[code]
        room = self.store.room(code)
        if room is None:
            return None
        table = LiveTable(self.store, room, self.bot_delay, self.absent_after)
        if room["status"] in ("playing", "finished"):
            table.resume()
        self.live[code] = table
        return table

    def resume_all(self) -> list[str]:
        codes = [r["code"] for r in self.store.rooms_with_status("playing")]
        for code in codes:
            self.get(code)
        return codes
