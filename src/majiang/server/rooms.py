"""Rooms as a service: making one, seating a player, starting, 准备 and 再来一局. The routes parse
and answer; what happens is here, testable with a store and a ``Tables`` and no app."""

from __future__ import annotations

import re
import time

from majiang.core.variants import get_variant
from majiang.games.rules import rules_for, rules_to_json
from majiang.server import sitout
from majiang.server.clock import TableSettings
from majiang.server.errors import Refusal, RefusalCode, rules_params
from majiang.server.requests import NewRoom
from majiang.server.seating import Join, Seated, Seating, step
from majiang.server.store import HostLimit, Store
from majiang.server.store_async import AsyncStore
from majiang.server.tables import Tables

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
    return create_room(store, host, req.variant, rules_to_json(rules), req.stake, req.hands, seats, settings,
                       create_key=req.create_key)


def create_room(store: Store, host: dict, variant: str, rules: dict, stake: int, hands: int, seats: list[dict],
                settings: dict | None, create_key: str | None = None) -> str:
    """The room inserted, the host's limits counted in the same transaction (``HostLimit``)."""
    try:
        return store.create_room(variant, rules, stake, hands, host, seats, settings, create_key=create_key,
                                 limits=(MAX_OPEN_ROOMS, MAX_ROOMS_PER_HOUR))
    except HostLimit as exc:
        raise Refusal("rate.rooms_hosted", status=429, unfinished=exc.unfinished, max_open=MAX_OPEN_ROOMS,
                      max_per_hour=MAX_ROOMS_PER_HOUR) from None


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


async def take_seat(aio: AsyncStore, tables: Tables, room: dict, player: dict) -> Seated:
    """Seat a player (``seating.step``'s ``Join``): their own place if they have one, a seat a rematch
    keeps for them, else the first free seat nobody is expected in; during a match a bot's seat from
    the next hand on; at a four-person Kawuxing table, the bench once the three seats have players.

    Every join goes through the room's one owner, its live table (loaded if it is not in memory;
    with many workers, on the worker holding its lease), under its lock: concurrent joins, a join
    racing the start and a rematch's joins are applied one after another to the seats as they are."""
    seating = Seating.of_room(room)
    place = seating.place_of(player["id"])
    if place is not None and place[0] != "kept":  # already theirs: nothing to change
        return step(seating, Join(player["id"], player["name"]))[1]
    live = await tables.obtain(room["code"])
    if live is None:
        raise Refusal("room.not_found", status=404)
    async with live.lock:
        seated = await live.join(player)
    if seated.changed:
        await live.broadcast()
    return seated


def seat_of(room: dict, player: dict, code: RefusalCode, status: int = 403) -> int:
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
            new = await aio.call(create_room, aio.store, player, room["variant"], room["rules"], room["stake"],
                                 room["hands"], rematch_seats(room, player), rematch_settings(room))
            await table.offer_rematch(new, seat)
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


def rematch_settings(room: dict) -> dict | None:
    """The rematch's settings: the same timers and sit-out rule; a four-person room's fourth is
    offered a place as any other player is (nobody sits out yet)."""
    settings = dict(room.get("settings") or {})
    if "four" in settings:
        settings["four"] = sitout.new_state(settings["four"]["rule"])
    return settings or None
