"""What each connection is sent: one seat's snapshot of a live table, and nothing more.

A seat sees its own hand, its own options and its own decision's deadline; everyone sees the public
table. A seat is sent the table as it stands after each change (one frame, however many claim
windows the change passed through): a claim window that bots or absent players close at once is
never shown, so a discard somebody could have claimed looks exactly like one nobody could; a
window that waits for a person shows the same frame to everyone without a decision, with no
option, timer or sequence number of anyone else. A seat is sent a frame only when its content
changed, so the count of frames says nothing either.
"""

from __future__ import annotations

import json
import time
from typing import Any, Protocol

from majiang.core.errors import MajiangError
from majiang.core.tiles import Tile


class SeenTable(Protocol):
    """What a snapshot reads of a live table (``live_table.LiveTable`` is one): the views name no
    table class, so the server's modules import one way (live_table → fanout → views)."""

    code: str
    n: int
    game: Any
    room: dict
    rules: Any
    settings: Any
    state: Any  # room.RoomState
    running: Any  # live_table.Running
    clock: Any
    fanout: Any
    hand_index: int
    host_seat: int | None
    rematch: dict | None
    dissolved: bool
    four: dict | None

    def human(self, seat: int) -> bool: ...
    def present(self, seat: int) -> bool: ...
    def is_ready(self, seat: int) -> bool: ...
    def deadline(self, seat: int) -> float | None: ...
    def dissolve_view(self) -> dict | None: ...
    def totals(self) -> list[int]: ...
    def resting(self) -> dict | None: ...



class Frame:
    """A snapshot, and its JSON text made when first needed (compared to send each change once)."""

    __slots__ = ("data", "_text")

    def __init__(self, data: dict) -> None:
        self.data = data
        self._text: str | None = None

    @classmethod
    def of(cls, data: dict) -> "Frame":
        return cls(data)

    @property
    def text(self) -> str:
        if self._text is None:
            self._text = _dumps(self.data)
        return self._text

    def with_clock(self) -> str:
        """The snapshot's text with the server's clock (ms), so deadlines count down right on any
        device: the text made once is sent as is, never serialised again."""
        return f'{self.text[:-1]},"now":{int(time.time() * 1000)}}}'


class PatchText(str):
    """A patch message's text (a client that falls behind gets a whole snapshot instead of these)."""


try:  # every frame is serialised: orjson does it about eight times faster, to the same text
    import orjson

    def _dumps(data: Any) -> str:
        return orjson.dumps(data, option=orjson.OPT_SORT_KEYS).decode()
except ImportError:  # pragma: no cover - installs from before it joined the web extra
    def _dumps(data: Any) -> str:
        return json.dumps(data, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


DELETED = "~"  # a patch's list of keys gone from an object
ITEMS = "[]"  # a patch of a list that kept its length: {index: patch or value}


def diff(old: Any, new: Any) -> Any:
    """What turns ``old`` into ``new`` (both JSON values), for ``patch``; None when they are equal.

    Objects are patched key by key (a key that went is listed under ``"~"``), lists that kept their
    length item by item (under ``"[]"``), anything else is replaced. Whether a value in a patch is a
    nested patch or a whole new value, the client tells from what it holds: a nested patch only ever
    goes where both sides are objects (or equal-length lists).

    >>> old = {"a": 1, "b": {"c": [1, 2], "d": None}, "e": 5}
    >>> new = {"a": 1, "b": {"c": [1, 3], "d": "x"}}
    >>> diff(old, new)
    {'b': {'c': {'[]': {'1': 3}}, 'd': 'x'}, '~': ['e']}
    >>> patch(old, diff(old, new)) == new and diff(new, new) is None
    True
    """
    if old == new:
        return None
    if isinstance(old, dict) and isinstance(new, dict):
        out: dict = {}
        for k, v in new.items():
            if k not in old:
                out[k] = v
            elif old[k] != v:
                out[k] = diff(old[k], v)
        gone = [k for k in old if k not in new]
        if gone:
            out[DELETED] = gone
        return out
    if isinstance(old, list) and isinstance(new, list) and len(old) == len(new):
        return {ITEMS: {str(i): diff(a, b) for i, (a, b) in enumerate(zip(old, new)) if a != b}}
    return new


def patch(old: Any, change: Any) -> Any:
    """``old`` with ``change`` (from ``diff``) applied: what the browser client does (tests use it)."""
    if isinstance(old, dict) and isinstance(change, dict):
        out = {k: v for k, v in old.items() if k not in change.get(DELETED, ())}
        for k, v in change.items():
            if k != DELETED:
                out[k] = patch(old.get(k), v) if k in old else v
        return out
    if isinstance(old, list) and isinstance(change, dict) and ITEMS in change:
        out_list = list(old)
        for i, v in change[ITEMS].items():
            out_list[int(i)] = patch(old[int(i)], v)
        return out_list
    return change


def patch_text(old: dict, new: dict) -> PatchText | None:
    """The patch message from one snapshot to the next (None: nothing changed), with the clock."""
    change = diff(old, new)
    if change is None:
        return None
    return PatchText(_dumps({"type": "patch", "patch": change, "now": int(time.time() * 1000)}))


def _ms(t: float | None) -> int | None:
    return None if t is None else int(t * 1000)


def snapshot(table: SeenTable, seat: int | None) -> dict:
    g = table.game
    view = g.observation(seat) if g is not None else None
    deciding = bool(view.get("legal")) if view is not None else False
    hints = None
    if g is not None and seat in table.fanout.hints_wanted and not g.over and g.phase not in ("exchange", "void"):
        hints = _hints(table, seat, view)
    declare_waits = None
    if deciding and any(a["type"] in ("declare", "sing") for a in view["legal"]):
        declare_waits = _declare_waits(table, seat, view)
    clock = None
    phase = view["phase"] if view is not None else None
    if g is not None and not g.over and phase == "turn":
        clock = {"seat": g.current, "deadline": _ms(table.deadline(g.current))}
    elif g is not None and g.over and table.room["status"] == "playing":
        clock = {"seat": None, "deadline": _ms(table.running.over_at + table.settings.ready_seconds)}
    elif table.room["status"] == "lobby" and table.state.start_asked is not None:  # the first hand's 准备 timer
        clock = {"seat": None, "deadline": _ms(table.state.start_asked + table.settings.ready_seconds)}
    you = None
    if seat is not None:
        you = {"seat": seat, "auto": table.state.auto[seat], "missed": table.state.missed[seat],
               "deadline": _ms(table.deadline(seat)) if deciding else None,
               "ready": table.is_ready(seat)}
    room = table.room
    names = [s.get("name") or (f"bot {i} ({s.get('bot')})" if s.get("bot") else "empty")
             for i, s in enumerate(room["seats"])]
    over = g is not None and g.over
    return {"type": "snapshot", "seq": table.clock.decision_no[seat] if seat is not None else None, "room": {
        "code": table.code, "variant": room["variant"], "preset": table.rules.preset,
        "hands": room["hands"], "hand_index": table.hand_index, "status": room["status"],
        "names": names, "humans": [table.human(s) for s in range(table.n)],
        "connected": [table.human(s) and table.present(s) for s in range(table.n)],
        "host_seat": table.host_seat, "stake": room.get("stake", 1), "match_totals": table.totals(),
        "auto": list(table.state.auto),
        "ready": [table.is_ready(s) for s in range(table.n)] if over or room["status"] == "lobby" else None,
        "timers": table.settings.to_json(), "clock": clock,
        "waiting_next": over and room["status"] == "playing", "match_over": room["status"] == "finished",
        "dissolve": table.dissolve_view(), "dissolved": table.dissolved,
        "starting": table.state.start_asked is not None and room["status"] == "lobby", "rematch": table.rematch,
        # friends who take a bot's seat from the next hand on (their names, by seat)
        "joining": [(s.get("next") or {}).get("name") for s in room["seats"]],
        # a four-person Kawuxing room: who sits this hand out (name, match total, the rule), else None
        "resting": table.resting(), "four": table.four is not None},
        "seat": seat, "you": you, "view": view, "hints": hints, "declare_waits": declare_waits,
        "received": _received(g, seat) if g is not None and seat is not None else None,
        "dice": list(g.dice) if g is not None else None,
        "settlement": g.settlement() if over else None,
        "end_waits": _end_waits(table) if over else None}


def _received(g: Any, seat: int) -> dict | None:
    """换三张: the three tiles this seat was passed and where from, until its first discard.

    Only the seat's own: the tiles are in its hand now, and the seat they came from follows from the
    dice (the engine's ``exchanged`` event records the step), so nothing of another hand is told."""
    if g.over or g.phase in ("exchange",) or g.seats[seat].discards:
        return None
    step = next((e["step"] for e in g.events if e.get("type") == "exchanged"), None)
    if step is None:
        return None
    giver = (seat - step) % g.n
    passed = g.seats[giver].exchange_choice
    if not passed:
        return None
    # seats run counter-clockwise seen from above: passing to the next seat (下家) is counter-clockwise
    direction = "across" if g.n == 4 and step == 2 else ("counterclockwise" if step == 1 else "clockwise")
    return {"tiles": [str(t) for t in passed], "from_seat": giver, "direction": direction}


def _hints(table: SeenTable, seat: int, view: dict) -> dict | None:
    g = table.game
    me = view["players"][seat]
    # what the hints depend on: the seat's tiles, what it can see, and which discards it may make
    key = (id(g), seat, me.get("hand"), json.dumps(me["melds"]), json.dumps(view.get("visible"), sort_keys=True),
           tuple(sorted(str(a.tile) for a in g.legal_actions(seat) if a.type in ("discard", "declare"))))
    cache = table.fanout.hint_cache
    if key not in cache:  # computed when one of those changes, not for every frame
        if len(cache) > 32:
            cache.clear()
        cache[key] = _compute_hints(g, seat)
    return cache[key]


def _end_waits(table: SeenTable) -> list[list[str] | None]:
    """The hand's end, for the check at the wall's end (查大叫, 查花猪, also in 血战 after wins): each
    seat still playing, its waits (empty: not ready); None for a seat that won and left. Sent only
    once the hand is over, when every hand is shown anyway."""
    from majiang.core.analysis import waits

    g = table.game
    key = ("end", id(g))
    cache = table.fanout.hint_cache
    if key not in cache:
        if len(cache) > 32:
            cache.clear()
        out: list[list[str] | None] = []
        for s in range(g.n):
            hand = g.hand(s)
            if g.seats[s].out or hand.concealed_count % 3 != 1:
                out.append(None if g.seats[s].out else [])
                continue
            try:
                out.append([str(t) for t in waits(hand, g.variant, g.seats[s].void)])
            except MajiangError:
                out.append([])
        cache[key] = out
    return cache[key]


def _declare_waits(table: SeenTable, seat: int, view: dict) -> dict:
    """For each tile a declaration (亮倒 / 唱歌 / 跳舞) may discard: the waits it leaves and how many of
    each this seat cannot see, so the choice shows what it commits to and what declaring reveals."""
    from majiang.core.analysis import waits

    g = table.game
    key = ("declare", id(g), seat, view["players"][seat].get("hand"), json.dumps(view.get("visible"), sort_keys=True))
    cache = table.fanout.hint_cache
    if key not in cache:
        if len(cache) > 32:
            cache.clear()
        hand = g.hand(seat)
        unseen = _unseen(g, seat)
        out = {}
        for a in g.legal_actions(seat):
            if a.type in ("declare", "sing") and str(a.tile) not in out:
                try:
                    tiles = waits(hand.remove(int(a.tile)), g.variant, g.seats[seat].void)
                except MajiangError:
                    tiles = []
                out[str(a.tile)] = [{"tile": str(t), "left": unseen[t]} for t in tiles]
        cache[key] = out
    return cache[key]


def _visible(g: Any, seat: int) -> list[int]:
    """Per tile kind, the copies this seat sees outside its own tiles: the ponds and others' shown melds."""
    visible = [0] * 30
    for p in g.observation(seat)["players"]:
        for t, claimed in zip(p["discards"], p["claimed"]):
            if not claimed:
                visible[Tile.parse(t)] += 1
        if p["seat"] != seat:
            for m in p["melds"]:
                if m["tile"] is not None:
                    visible[Tile.parse(m["tile"])] += 4 if m["kind"] != "pong" else 3
    return visible


def _unseen(g: Any, seat: int) -> list[int]:
    """Per tile kind, the copies this seat cannot see (not in its hand or melds, the ponds or shown melds)."""
    visible, own = _visible(g, seat), g.hand(seat).all_counts()
    return [max(0, 4 - own[t] - visible[t]) for t in range(30)]


def _compute_hints(g: Any, seat: int) -> dict | None:
    """Discard advice on one's turn (only discards the rules allow, 定缺 included); otherwise the
    waits and how many of each this seat cannot see."""
    from majiang.core.analysis import discard_advice, effective_tiles
    from majiang.engine.safety import safe_choices, unsafe_tiles
    hand = g.hand(seat)
    visible = _visible(g, seat)
    legal_now = g.legal_actions(seat)
    if any(a.type == "win" for a in legal_now):
        # a win on offer outranks any discard advice: the hint says 胡 (the page names the tile)
        return {"win": True}
    try:
        if hand.concealed_count % 3 == 2:
            legal = {a.tile for a in safe_choices(legal_now, unsafe_tiles(g, seat))  # no shown wait
                     if a.type in ("discard", "declare")}
            advice = [o for o in discard_advice(hand, g.variant, g.seats[seat].void, visible=visible)
                      if o.tile in legal]
            return {"discards": [o.to_json() for o in advice[:5]]} if advice else None
        s, eff = effective_tiles(hand, g.variant, g.seats[seat].void)
    except MajiangError:
        return None
    own = hand.all_counts()
    if s != 0:
        return {"shanten": s}
    return {"shanten": 0, "waits": [{"tile": str(t), "left": max(0, 4 - own[t] - visible[t])} for t in eff]}
