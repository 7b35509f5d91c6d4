"""What each connection is sent: one seat's snapshot of a live table, and nothing more.

A seat sees its own hand, its own options and its own decision's deadline; everyone sees the public
table. During a claim window (after a discard, or an added kong that could be robbed) a seat with no
decision gets the same frame whether or not anybody can claim: the server shows that moment for
every discard (``Game.on_window``), and the frame carries no option, timer or sequence number of
anyone else. A seat is sent a frame only when its content changed, so the count of frames says
nothing either.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from majiang.core.errors import MajiangError
from majiang.core.tiles import Tile

if TYPE_CHECKING:  # pragma: no cover
    from majiang.server.live import LiveTable



@dataclass(frozen=True)
class Frame:
    """A snapshot and its JSON text (compared to send each change once)."""

    data: dict
    text: str

    @classmethod
    def of(cls, data: dict) -> "Frame":
        return cls(data, json.dumps(data, ensure_ascii=False, sort_keys=True, separators=(",", ":")))

    def with_clock(self) -> str:
        """The snapshot's text with the server's clock (ms), so deadlines count down right on any
        device: the text made once is sent as is, never serialised again."""
        return f'{self.text[:-1]},"now":{int(time.time() * 1000)}}}'


def _ms(t: float | None) -> int | None:
    return None if t is None else int(t * 1000)


def snapshot(table: "LiveTable", seat: int | None, window: str | None = None) -> dict:
    g = table.game
    view = g.observation(seat) if g is not None else None
    deciding = False
    if view is not None:
        if window is not None:  # the instant a discard (or added kong) could be claimed by someone
            view["phase"] = window
            view.pop("drawn", None)
            if seat is not None:
                view["legal"] = []
        deciding = bool(view.get("legal"))
    hints = None
    if g is not None and seat in table.hints_wanted and not g.over and g.phase not in ("exchange", "void"):
        hints = _hints(table, seat, view)
    clock = None
    phase = view["phase"] if view is not None else None
    if g is not None and not g.over and window is None and phase == "turn":
        clock = {"seat": g.current, "deadline": _ms(table.deadline(g.current))}
    elif g is not None and g.over and table.room["status"] == "playing":
        clock = {"seat": None, "deadline": _ms(table.over_at + table.settings.ready_seconds)}
    elif table.room["status"] == "lobby" and table.start_asked is not None:  # the first hand's 准备 timer
        clock = {"seat": None, "deadline": _ms(table.start_asked + table.settings.ready_seconds)}
    you = None
    if seat is not None:
        you = {"seat": seat, "auto": table.auto[seat],
               "deadline": _ms(table.deadline(seat)) if deciding else None,
               "ready": table.is_ready(seat)}
    room = table.room
    names = [s.get("name") or (f"bot {i} ({s.get('bot')})" if s.get("bot") else "empty")
             for i, s in enumerate(room["seats"])]
    over = g is not None and g.over
    return {"type": "snapshot", "seq": table.decision_no[seat] if seat is not None else None, "room": {
        "code": table.code, "variant": room["variant"], "preset": table.rules.preset,
        "hands": room["hands"], "hand_index": table.hand_index, "status": room["status"],
        "names": names, "humans": [table.human(s) for s in range(table.n)],
        "connected": [table.human(s) and table.present(s) for s in range(table.n)],
        "host_seat": table.host_seat, "stake": room.get("stake", 1), "match_totals": table.totals(),
        "auto": list(table.auto), "ready": [table.is_ready(s) for s in range(table.n)] if over or room["status"] == "lobby" else None,
        "timers": table.settings.to_json(), "clock": clock,
        "waiting_next": over and room["status"] == "playing", "match_over": room["status"] == "finished",
        "dissolve": table.dissolve_view(), "dissolved": table.dissolved,
        "starting": table.start_asked is not None and room["status"] == "lobby", "rematch": table.rematch},
        "seat": seat, "you": you, "view": view, "hints": hints, "dice": list(g.dice) if g is not None else None,
        "settlement": g.settlement() if over else None}


def _hints(table: "LiveTable", seat: int, view: dict) -> dict | None:
    g = table.game
    me = view["players"][seat]
    # what the hints depend on: the seat's tiles, what it can see, and which discards it may make
    key = (id(g), seat, me.get("hand"), json.dumps(me["melds"]), json.dumps(view.get("visible"), sort_keys=True),
           tuple(sorted(str(a.tile) for a in g.legal_actions(seat) if a.type in ("discard", "declare"))))
    cache = table.hint_cache
    if key not in cache:  # computed when one of those changes, not for every frame
        if len(cache) > 32:
            cache.clear()
        cache[key] = _compute_hints(g, seat)
    return cache[key]


def _compute_hints(g: Any, seat: int) -> dict | None:
    """Discard advice on one's turn (only discards the rules allow, 定缺 included); otherwise the
    waits and how many of each this seat cannot see."""
    from majiang.core.analysis import discard_advice, effective_tiles
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
            legal = {a.tile for a in g.legal_actions(seat) if a.type in ("discard", "declare")}
            advice = [o for o in discard_advice(hand, g.variant, g.seats[seat].void, visible=visible) if o.tile in legal]
            return {"discards": [o.to_json() for o in advice[:5]]} if advice else None
        s, eff = effective_tiles(hand, g.variant, g.seats[seat].void)
    except MajiangError:
        return None
    own = hand.all_counts()
    if s != 0:
        return {"shanten": s}
    return {"shanten": 0, "waits": [{"tile": str(t), "left": max(0, 4 - own[t] - visible[t])} for t in eff]}
