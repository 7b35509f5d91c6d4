"""Rooms as a service: making one, seating a player, starting, 准备 and 再来一局. The routes parse
and answer; what happens is here, testable with a store and a ``Tables`` and no app."""

from __future__ import annotations

import contextlib
import re
import time
from dataclasses import dataclass

from majiang.core.errors import MajiangError
from majiang.core.variants import get_variant
from majiang.games.rules import rules_for, rules_to_json
from majiang.server import sitout
from majiang.server.errors import Refusal, rules_params, without_values
from majiang.server.store_async import AsyncStore
from majiang.server.clock import TableSettings
from majiang.server.tables import Tables
from majiang.server.requests import NewRoom
from majiang.server.store import Store

MAX_OPEN_ROOMS = 5  # rooms a player hosts that are not finished
MAX_ROOMS_PER_HOUR = 30
CODE = re.compile(r"[A-Z0-9]{1,16}")
LOCAL_HOST = re.compile(r"^(127\.|localhost(:|$)|\[::1\])")


def room_or_404(store: Store, code: str) -> dict:
    room = store.room(code) if CODE.fullmatch(code) else None
    if room is None:
        raise Refusal("room.not_found", status=404)
    return room


def room_summary(code: str, room: dict) -> dict:
    """GET /api/rooms/{code}: what the lobby shows of a room (no player's id)."""
    ids = [s["player"] for s in room["seats"]]
    four = (room["settings"] or {}).get("four") or {}
    return {"code": code, "variant": room["variant"], "status": room["status"], "hands": room["hands"],
            "stake": room["stake"], "preset": room["rules"].get("preset"),
            "timers": TableSettings.from_json(room["settings"] or None).to_json(),
            "host_seat": ids.index(room["host"]) if room["host"] in ids else None,
            "sit_out": four.get("rule"), "bench": (four.get("bench") or {}).get("name"),
            "seats": [{"name": s["name"], "bot": s["bot"], "taken": bool(s["player"])} for s in room["seats"]]}


def check_hosting(store: Store, player: dict) -> None:
    """A player hosts at most ``MAX_OPEN_ROOMS`` unfinished rooms and makes ``MAX_ROOMS_PER_HOUR`` an hour."""
    unfinished, recent = store.open_rooms_hosted(player["id"], since=time.time() - 3600)
    if unfinished >= MAX_OPEN_ROOMS or recent >= MAX_ROOMS_PER_HOUR:
        raise Refusal("rate.rooms_hosted", status=429, unfinished=unfinished, max_open=MAX_OPEN_ROOMS,
                      max_per_hour=MAX_ROOMS_PER_HOUR)


def new_room(store: Store, host: dict, req: NewRoom) -> str:
    """A room with the host in seat 0 and bots in the others; returns its code (the same
    ``create_key`` again answers the same room)."""
    try:
        rules = rules_for(req.variant, req.preset, **req.options)
    except (TypeError, ValueError) as exc:
        raise Refusal("rules.invalid_option", **rules_params(exc)) from None
    plays = get_variant(req.variant).players
    people = plays if req.people is None else req.people
    if people not in sitout.people_for(plays):  # a three-player game: four friends, three play a hand
        raise Refusal("room.bad_people_four" if plays == 3 else "room.bad_people", plays=plays)
    check_hosting(store, host)
    seats = [{"player": host["id"], "name": host["name"], "bot": None}] + \
        [{"player": None, "name": None, "bot": req.bots} for _ in range(plays - 1)]
    settings = req.timers.to_json() | ({"four": sitout.new_state(req.sit_out)} if people > plays else {})
    return store.create_room(req.variant, rules_to_json(rules), req.stake, req.hands, host, seats, settings,
                             create_key=req.create_key)


def invite_url(host: str | None, scheme: str, share_urls: list[str], code: str) -> str:
    """The link friends open: on a machine's own address (127.0.0.1) the first address the others
    on the network can reach, as ``majiang serve`` printed it; else the address in use."""
    host = host or "127.0.0.1"
    local = LOCAL_HOST.match(host) is not None
    base = share_urls[0].rstrip("/") if local and share_urls else f"{scheme}://{host}"
    return f"{base}/?room={code}"


def only_local(host: str | None, share_urls: list[str]) -> bool:
    """Whether an invite can only be opened on this machine (no address on the network to share)."""
    return not share_urls and LOCAL_HOST.match(host or "") is not None


@dataclass(frozen=True)
class Seated:
    """Where a join put a player: ``how`` is "seat" (seated now), "next_hand" (a bot's seat from
    the next hand on) or "bench" (a four-person room's fourth, sitting out until swapped in)."""

    seat: int
    how: str

    def to_json(self) -> dict:
        return {"seat": self.seat} | ({self.how: True} if self.how != "seat" else {})


def seat_for(room: dict, player: dict) -> tuple[str, int | None]:
    """Where a join puts a player: ("own", seat) already theirs (a seat, the next hand's, the
    bench: 3); ("seat", i) a free seat (or one a rematch keeps for them); ("next", None) a bot's
    seat from the next hand, found by the live table; ("bench", 3) a four-person room's fourth;
    409 when there is none or the match is over."""
    seats = room["seats"]
    for i, s in enumerate(seats):
        if s["player"] == player["id"] or (s.get("next") or {}).get("player") == player["id"]:
            return "own", i
    four = (room.get("settings") or {}).get("four")
    bench = (four or {}).get("bench") or {}
    if bench.get("player") == player["id"]:
        return "own", len(seats)  # sitting out: the bench is "seat" 3
    if room["status"] == "playing":
        return "next", None
    if room["status"] != "lobby":
        raise Refusal("match.over", status=409)
    mine = [i for i, s in enumerate(seats) if not s["player"] and s.get("for") == player["id"]]
    free = [i for i, s in enumerate(seats) if not s["player"] and not s.get("for")]
    if mine or free:
        return "seat", (mine or free)[0]
    if four is not None and not bench:
        return "bench", len(seats)
    raise Refusal("seat.table_full", status=409)


def _own(room: dict, player: dict, i: int) -> Seated:
    """A seat the player already had, named: the bench, a seat from the next hand, or a seat."""
    seats = room["seats"]
    if i >= len(seats):
        return Seated(i, "bench")
    if (seats[i].get("next") or {}).get("player") == player["id"]:
        return Seated(i, "next_hand")
    return Seated(i, "seat")


async def take_seat(aio: AsyncStore, tables: Tables, room: dict, player: dict) -> Seated:
    """Seat a player: their own seat if they have one (or one a rematch keeps for them), else the
    first free seat nobody is expected in; during a match a bot's seat from the next hand on; at
    a four-person Kawuxing table, the bench once the three seats have players."""
    code = room["code"]
    kind, i = seat_for(room, player)
    if kind == "own":
        return _own(room, player, i)
    # many workers: the seat is written by the worker that drives the table (it keeps the seats);
    # a match in play: the live table keeps a seat for the next hand
    live = await tables.obtain(code) if tables.worker or room["status"] == "playing" else tables.live.get(code)
    async with live.lock if live is not None else contextlib.nullcontext():
        # read again, under the table's lock: while this waited, another join or the start may
        # have changed the room (seats written from the first read would be stale)
        room = await aio.call(room_or_404, aio.store, code)
        kind, i = seat_for(room, player)
        if kind == "own":
            return _own(room, player, i)
        seated = await _seat(aio, live, room, player, kind, i)
    if live is not None:
        await live.broadcast()
    return seated


async def _seat(aio: AsyncStore, live, room: dict, player: dict, kind: str, i: int | None) -> Seated:
    """The seat written (under the live table's lock, if there is a live table)."""
    code, four = room["code"], (room.get("settings") or {}).get("four")
    if kind == "next":
        i = await live.reserve_seat(player) if live is not None else None
        if i is not None:
            return Seated(i, "next_hand")
        if four is None or four.get("bench"):
            raise Refusal("seat.none_left", status=409)
        kind = "bench"
    if kind == "bench":
        settings = dict(room.get("settings") or {})
        settings["four"] = {**four, "bench": {"player": player["id"], "name": player["name"]}}
        await aio.take_bench(code, player, settings, lease=code)
        if live is not None:
            live.room_changed(settings=settings)
        return Seated(len(room["seats"]), "bench")
    seats = room["seats"]
    seats[i] = {"player": player["id"], "name": player["name"], "bot": None}
    await aio.take_seat(code, i, player, seats, lease=code)
    if live is not None:
        live.room_changed(seats=seats)
    return Seated(i, "seat")


def seat_of(room: dict, player: dict, code: str, status: int = 403) -> int:
    """The seat a player has in a room, or the refusal ``code``."""
    ids = [s.get("player") for s in room["seats"]]
    if player["id"] not in ids:
        raise Refusal(code, status=status)
    return ids.index(player["id"])


async def start(tables: Tables, room: dict, player: dict) -> tuple[int, dict]:
    """The host deals the first hand once every seated human is ready (准备); until then, or until
    the ready timer runs out, the room waits (``room.starting`` in the snapshots). Returns the
    HTTP status (202 while it waits) and the answer."""
    if room["host"] != player["id"]:
        raise Refusal("start.not_host", status=403)
    if room["status"] != "lobby":
        return 200, {"status": room["status"]}
    table = await tables.obtain(room["code"])
    status = await table.ask_start()
    if status == "lobby":
        return 202, {"status": "lobby", "waiting_for": table.waiting_for()}
    return 200, {"status": status}


async def ready(tables: Tables, room: dict, player: dict) -> dict:
    """准备 over HTTP (the websocket's {"type": "ready"} does the same)."""
    seat = seat_of(room, player, "ready.not_seated")
    table = await tables.obtain(room["code"])
    await table.set_ready(seat)
    return {"ready": True, "status": table.room["status"]}


async def rematch(aio: AsyncStore, tables: Tables, room: dict, player: dict) -> dict:
    """再来一局 after the match: a new room with the same rules, stake, hands and timers, every
    player in the seat they had (kept for them until they come), bots in the bots' seats. The
    first player to ask opens it; the others are offered it (``room.rematch``) and join it here."""
    seat = seat_of(room, player, "rematch.not_player")
    if room["status"] != "finished":
        raise Refusal("match.not_over", status=409)
    table = await tables.obtain(room["code"])
    async with table.rematch_lock:  # one new room per match: a second ask waits, then joins it
        if table.rematch is None:
            await aio.call(check_hosting, aio.store, player)
            new = await aio.create_room(room["variant"], room["rules"], room["stake"], room["hands"], player,
                                        rematch_seats(room, player), room["settings"] or None)
            await table.offer_rematch({"code": new, "by": seat})
            return {"code": new, "seat": seat}
        new = table.rematch["code"]
    seated = await take_seat(aio, tables, await aio.call(room_or_404, aio.store, new), player)
    return {"code": new, "seat": seated.seat}


def rematch_seats(room: dict, player: dict) -> list[dict]:
    """The rematch's seats: the asker seated, each other player's seat kept for them (a bot holds
    it until they come), the bots where the bots were."""
    level = next((s["bot"] for s in room["seats"] if s.get("bot")), "greedy")
    out = []
    for s in room["seats"]:
        p = s.get("player")
        if p == player["id"]:
            out.append({"player": p, "name": player["name"], "bot": None})
        elif p:
            out.append({"player": None, "name": None, "bot": level, "for": p})
        else:
            out.append({"player": None, "name": None, "bot": s.get("bot") or level})
    return out
