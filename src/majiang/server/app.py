"""The ASGI app: HTTP API for players and rooms, a websocket per seat, and the browser client.

Who you are is an HttpOnly cookie (``majiang_token``) set when you make a player; scripts may send
the token as an ``X-Token`` header instead. It never rides in a URL.

HTTP (JSON; bodies of at most 16 KB):
  POST /api/players {"name"}                 -> {"id", "name", "token"} and the cookie
  POST /api/session {"token"}                -> {"id", "name"} and the cookie (sign in with a token)
  GET  /api/me                               -> {"id", "name"}
  POST /api/me {"name"}                      -> rename yourself; your history stays yours
  POST /api/rooms {"variant", "preset", "options", "stake", "hands", "bots", "timers", "create_key"}
                                             -> {"code"} (six digits; the same create_key again answers
                                                the same room: a double tap makes one)
  POST /api/rooms/{code}/join                -> {"seat"} (in the lobby: seated now; during a match: a bot's
                                                seat from the next hand on, {"seat", "next_hand": true})
  GET  /api/tables                           -> the unfinished rooms you are seated at (回到牌桌)
  GET  /api/rooms/{code}/invite              -> {"url"}: the link friends open
  GET  /api/rooms/{code}/qr.svg              -> that link as a QR code
  POST /api/rooms/{code}/start  (host only)  -> {"status": "playing"}, or 202 {"status": "lobby",
                                                "waiting_for": [seats]}: dealt when they are ready (准备)
                                                or the ready timer runs out
  POST /api/rooms/{code}/ready  (a player)   -> 准备 (before the first hand, or between hands)
  POST /api/rooms/{code}/rematch (a player)  -> {"code", "seat"}: 再来一局, same rules and seats
  GET  /api/rooms/{code}                     -> room, seats, status
  GET  /api/history?before=&limit=           -> a page of your matches (战绩), newest first
  GET  /api/rooms/{code}/games               -> finished hands' logs (replays)
  GET  /api/rooms/{code}/games/{hand}/frames -> a finished hand step by step
  GET  /api/analyze?hand=…&variant=…         -> the analysis core's answer
  GET  /api/server                           -> addresses friends on the same network can open
  GET  /api/rules-schema                     -> each variant's presets and options (the room form)
Websocket /ws/{code} (the cookie or X-Token seats you; without one you watch). Server -> client:
{"type": "snapshot", …} when what your seat sees changes, {"type": "error", "message"} for a
refused message. With ``?patches=1`` (the browser client) only the first snapshot is whole (and any
after the client fell behind); each change after it is {"type": "patch", "patch": …, "now": ms},
applied as ``views.patch`` does. Client -> server (JSON text, at most 2 KB): {"type": "action", "seq": n,
"action": {...}}, {"type": "ready"} (准备 for the next hand, or in the lobby for the first), {"type": "auto", "on": bool} (托管),
{"type": "chat", "phrase": id} (a quick phrase or emoji id from ``live.CHAT_PHRASES``, at most one per
2 s per seat; everyone gets {"type": "chat", "seat", "phrase"}), {"type": "dissolve", "agree": bool}
(解散: start or answer a vote; the match ends when every seated human agrees, lapses after 60 s;
shown as ``room.dissolve``), {"type": "ping"}.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import logging
import math
import os
import re
import threading
import time
from importlib import resources

from fastapi import FastAPI, HTTPException, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response

from majiang.core.errors import MajiangError
from majiang.core.variants import get_variant
from majiang.games import GAMES
from majiang.games.rules import rules_for, rules_to_json
from majiang.server import sitout
from majiang.server.bots import BotRunner
from majiang.server.live import (
    ABSENT_AFTER,
    BOT_DELAY,
    Connection,
    Elsewhere,
    Tables,
    TableSettings,
)
from majiang.server.security import (
    COOKIE,
    Bucket,
    Guard,
    RateLimit,
    clean_name,
    same_origin,
)
from majiang.server.store import LEASE_SECONDS, Store, StoreError
from majiang.server.store_async import AsyncStore
from majiang.server.views import Frame, PatchText

log = logging.getLogger("majiang.server")

BOT_LEVELS = ("random", "greedy", "strong", "expert")
MAX_MESSAGE = 2048  # characters of one websocket message: an action needs about a hundred
MAX_SOCKETS_PER_ADDRESS = 32  # open websockets from one client address
OUTBOX = 256  # messages waiting for a client that reads slowly; past it older snapshots are dropped
SEND_TIMEOUT = 15.0  # seconds one frame may take to leave; a client stuck longer is dropped
MAX_OPEN_ROOMS = 5  # rooms a player hosts that are not finished
MAX_ROOMS_PER_HOUR = 30
REPLAYS_KEPT = 64  # finished hands' replays kept built (a hand never changes once finished)
REPLAY_BUILDS_PER_MINUTE = 20  # replays one address may have built (a cached one costs nothing)
CODE = re.compile(r"[A-Z0-9]{1,16}")
CREATE_KEY = re.compile(r"[A-Za-z0-9_-]{8,40}")
OPTION = re.compile(r"[a-z_][a-z0-9_]{0,31}")
STATIC_TYPES = {".js": "text/javascript; charset=utf-8", ".css": "text/css; charset=utf-8",
                ".svg": "image/svg+xml", ".html": "text/html; charset=utf-8"}


def default_db_url() -> str:
    path = os.path.join(os.path.expanduser("~"), ".majiang", "majiang.sqlite3")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    return f"sqlite:///{path}"


def new_worker_id() -> str:
    """A name for this worker process, unique among the workers sharing a database."""
    import secrets
    import socket

    return f"{socket.gethostname()[:40]}-{os.getpid()}-{secrets.token_hex(3)}"


def whole(value, name: str, lo: int, hi: int) -> int:
    """A whole number in [lo, hi] from JSON (an int, or a string of ASCII digits); else a clear 400.
    (``str.isdigit`` also accepts "²" or "①", which ``int`` refuses.)"""
    if isinstance(value, str) and len(value) < 12:
        digits = value.strip().removeprefix("-")
        if digits.isascii() and digits.isdigit():
            value = int(value)
    if isinstance(value, float) and math.isfinite(value) and value.is_integer():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise HTTPException(400, f"{name} must be a whole number from {lo} to {hi}")
    return value


def without_values(message: str) -> str:
    """A rules error as a reply: what the rules accept, never the value that was sent (the rules'
    messages end with ", got <value>" for the command line).

    >>> without_values("option cap: expected a whole number, got '<img>'")
    'option cap: expected a whole number'
    """
    return message.split(", got ", 1)[0][:600]


_noted_python_engine = False


def note_python_engine(native_built: bool | None = None) -> str | None:
    """Log once per process, at the server's start, that the native engine is not built: the
    greedy bots (普通, 托管) then decide in Python on the event loop and 大师 (``expert``) thinks
    30-60x slower in the bot workers. Returns the line logged (None when built or said already).

    >>> import logging; logging.disable(logging.WARNING)
    >>> "python -m majiang.native build" in note_python_engine(native_built=False)
    True
    >>> note_python_engine(native_built=False) is None  # once
    True
    >>> logging.disable(logging.NOTSET)
    """
    global _noted_python_engine
    if native_built is None:
        from majiang.bots.base import native_engine

        native_built = native_engine() is not None
    if native_built or _noted_python_engine:
        return None
    _noted_python_engine = True
    line = ("majiang: the native engine is not built, so the bots think in Python (the same moves; "
            "大师/expert 30-60x slower, greedy on the event loop): build it with python -m majiang.native build")
    log.warning(line)
    return line


async def gc_policy(full_every: float) -> None:
    """The server's garbage collection. Python's full collection walks every object, and its
    default trigger fires again and again while a server fills with tables: with 1,000 tables that
    is a pause of several hundred milliseconds for every player at once (bench_server.py measured
    the action round trip's p99 at 460 ms with it, 80 ms without). So what start-up made is frozen
    out of the collector, young objects are collected as usual (less often), and the full
    collection runs only here, every ``full_every`` seconds: one pause in minutes, not several a
    minute. Reference counting frees everything that is not in a cycle at once, as always."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(10_000, 20, 1_000_000_000)
    try:
        while True:
            await asyncio.sleep(full_every)
            gc.collect()
    finally:
        gc.set_threshold(*DEFAULT_GC_THRESHOLDS)
        gc.unfreeze()


DEFAULT_GC_THRESHOLDS = gc.get_threshold()


def create_app(db_url: str | None = None, bot_delay: float = BOT_DELAY, absent_after: float = ABSENT_AFTER,
               share_urls: list[str] | None = None, new_players_per_10min: int = 20,
               bot_workers: int = 0, allowed_hosts: list[str] | None = None, worker_id: str | None = None,
               lease_seconds: float = LEASE_SECONDS, upgrade: bool | None = None,
               sockets_per_address: int = MAX_SOCKETS_PER_ADDRESS, full_gc_seconds: float | None = None,
               code_misses_per_10min: int = 60) -> FastAPI:
    """``bot_workers``: processes that run the bots' decisions (0: a thread of this process).
    ``allowed_hosts``: the host names requests may use (None: any; ``majiang serve`` sets them).
    ``worker_id``: this worker's name among many on one database (tables are then leased, see
    ``live.Tables``); by default none for an SQLite file (one process), a fresh one otherwise.
    ``upgrade``: upgrade the schema on opening (default: only an SQLite file; see ``store.Store``).
    ``sockets_per_address``: open websockets one client address may hold (a load test from one
    machine raises it). ``full_gc_seconds``: take the server process's garbage collection in hand
    (``majiang serve`` does; see ``gc_policy``)."""
    url = db_url or default_db_url()
    if worker_id is None and not url.startswith("sqlite"):
        worker_id = new_worker_id()
    store = Store(url, upgrade=upgrade, worker=worker_id)
    store.lease_seconds = lease_seconds
    store_async = AsyncStore.shared(store)  # the store's calls as awaitables, in a bounded pool
    tables = Tables(store, bot_delay, absent_after, BotRunner(bot_workers), worker=worker_id,
                    lease_seconds=lease_seconds)
    new_players = RateLimit(new_players_per_10min, 600.0)  # per client address
    # Room codes are six digits: an address that asks for codes that do not exist is refused every
    # room for a while once it missed ``code_misses_per_10min`` times (docs/SECURITY.md: why that is enough)
    code_misses = RateLimit(code_misses_per_10min, 600.0)
    replay_builds = RateLimit(REPLAY_BUILDS_PER_MINUTE, 60.0)  # per client address
    replays: dict = {}  # (code, hand) -> the replay, oldest first (a small LRU)
    building = threading.Lock()  # one replay built at a time: the others wait here, not on the CPU

    @contextlib.asynccontextmanager
    async def lifespan(app):
        async def sweep():  # tables nobody is at leave memory (they come back from the store)
            while True:
                await asyncio.sleep(30)
                tables.evict_idle()
        sweeper = asyncio.get_event_loop().create_task(sweep())
        leases = asyncio.get_event_loop().create_task(tables.keep_leases()) if tables.worker else None
        collector = asyncio.get_event_loop().create_task(gc_policy(full_gc_seconds)) if full_gc_seconds else None
        note_python_engine()
        tables.runner.warm()
        yield
        sweeper.cancel()
        if collector is not None:
            collector.cancel()
        if leases is not None:
            leases.cancel()
        tables.close()

    app = FastAPI(title="majiang", docs_url=None, redoc_url=None, lifespan=lifespan)
    app.state.store = store
    app.state.tables = tables
    app.state.worker = worker_id

    @app.exception_handler(MajiangError)
    async def _bad_input(request: Request, exc: MajiangError):
        if isinstance(exc, Elsewhere):
            return JSONResponse({"error": "this room's table is moving between servers: try again in a moment"},
                                status_code=503)
        if isinstance(exc, StoreError):
            return JSONResponse({"error": "the database is unavailable: nothing was changed, try again"},
                                status_code=503)
        return JSONResponse({"error": str(exc)}, status_code=400)

    @app.exception_handler(RequestValidationError)
    async def _bad_parameters(request: Request, exc: RequestValidationError):
        where = sorted({".".join(str(x) for x in e.get("loc", ())[1:]) or "request" for e in exc.errors()})
        return JSONResponse({"error": f"bad {', '.join(where)[:100]}"}, status_code=422)  # never what was sent

    @app.exception_handler(HTTPException)
    async def _http_error(request: Request, exc: HTTPException):
        return JSONResponse({"error": exc.detail, "detail": exc.detail}, status_code=exc.status_code)

    def token_of(request) -> str | None:
        return request.headers.get("x-token") or request.cookies.get(COOKIE)

    def player_of(request) -> dict:
        p = store.player_by_token(token_of(request))
        if p is None:
            raise HTTPException(401, "no player: make one first (or send your X-Token)")
        return p

    def check_origin(request: Request) -> None:
        if not same_origin(request.headers.get("origin"), request.headers.get("host")):
            raise HTTPException(403, "requests from other sites are refused")

    async def body(request: Request) -> dict:
        check_origin(request)
        if request.headers.get("content-type", "").split(";")[0].strip().lower() != "application/json":
            raise HTTPException(415, "send JSON (Content-Type: application/json)")
        raw = await request.body()
        try:
            data = json.loads(raw)
        except (ValueError, RecursionError):
            raise HTTPException(400, "the request body must be JSON") from None
        if not isinstance(data, dict):
            raise HTTPException(400, "the request body must be a JSON object")
        return data

    def with_cookie(response: JSONResponse, request: Request, token: str) -> JSONResponse:
        response.set_cookie(COOKIE, token, max_age=10 * 365 * 86400, httponly=True, samesite="strict",
                            secure=request.url.scheme == "https", path="/")
        return response

    @app.post("/api/players")
    async def new_player(request: Request):
        data = await body(request)
        name = clean_name(data.get("name", ""))
        if not new_players.allow(request.client.host if request.client else "?"):
            raise HTTPException(429, "too many new players from this address: try again later")
        pid, token = await store_async.create_player(name)
        return with_cookie(JSONResponse({"id": pid, "name": name, "token": token}), request, token)

    @app.post("/api/session")
    async def sign_in(request: Request):
        data = await body(request)
        token = data.get("token")
        p = await store_async.player_by_token(token if isinstance(token, str) else None)
        if p is None:
            raise HTTPException(401, "unknown token")
        return with_cookie(JSONResponse({"id": p["id"], "name": p["name"]}), request, token)

    @app.get("/api/me")
    async def me(request: Request):
        p = await store_async.player_by_token(token_of(request))  # nobody yet is an answer, not an error
        return {"id": p["id"], "name": p["name"]} if p else {"id": None, "name": None}

    @app.post("/api/me")
    async def rename(request: Request):
        data = await body(request)
        p = player_of(request)
        name = clean_name(data.get("name", ""))
        await store_async.rename_player(p["id"], name)
        return {"id": p["id"], "name": name}

    @app.post("/api/rooms")
    async def new_room(request: Request):
        data = await body(request)
        host = player_of(request)
        variant = data.get("variant")
        if not isinstance(variant, str) or variant not in GAMES:
            raise HTTPException(400, "variant must be kawuxing or sichuan")
        preset = data.get("preset")
        if preset is not None and (not isinstance(preset, str) or preset not in GAMES[variant].presets):
            raise HTTPException(400, f"preset must be one of {', '.join(GAMES[variant].presets)}")
        options = data.get("options") or {}
        if not isinstance(options, dict) or len(options) > 40:
            raise HTTPException(400, "options must be an object of option: value")
        for key, value in options.items():
            if not OPTION.fullmatch(key) or key in ("variant", "preset"):
                raise HTTPException(400, "options are named in lower case (see docs/RULES.md); "
                                    "variant and preset are fields of their own")
            ok = isinstance(value, (str, bool, int)) or (isinstance(value, float) and math.isfinite(value))
            if not ok or (isinstance(value, str) and len(value) > 32):
                raise HTTPException(400, f"option {key} must be a number, true/false or a short word")
        try:
            rules = rules_for(variant, preset, **options)
        except (TypeError, ValueError) as exc:
            message = without_values(str(exc)) if isinstance(exc, MajiangError) else "bad options"
            raise HTTPException(400, message) from None
        stake = whole(data.get("stake", 1), "stake", 1, 1000)
        hands = whole(data.get("hands", 4), "hands", 1, 64)
        bots = data.get("bots", "greedy")
        if not isinstance(bots, str) or bots not in BOT_LEVELS:
            raise HTTPException(400, f"bots must be one of {', '.join(BOT_LEVELS)}")
        settings = TableSettings.from_json(data.get("timers"))
        plays = get_variant(variant).players
        people = whole(data.get("people", plays), "people", 2, 4)
        if people != plays and not (plays == 3 and people == 4):  # Kawuxing: four friends, three play a hand
            raise HTTPException(400, f"people is {plays}" + (" or 4 (three play each hand, one sits out)"
                                                             if plays == 3 else ""))
        sit_out = data.get("sit_out", "winner")
        if sit_out not in sitout.RULES:
            raise HTTPException(400, f"sit_out is one of {', '.join(sitout.RULES)}")
        unfinished, recent = await store_async.open_rooms_hosted(host["id"], since=time.time() - 3600)
        if unfinished >= MAX_OPEN_ROOMS or recent >= MAX_ROOMS_PER_HOUR:
            raise HTTPException(429, f"you host {unfinished} unfinished rooms (at most {MAX_OPEN_ROOMS}, "
                                f"{MAX_ROOMS_PER_HOUR} new an hour): finish one first")
        n = get_variant(variant).players
        seats = [{"player": host["id"], "name": host["name"], "bot": None}] + \
            [{"player": None, "name": None, "bot": bots} for _ in range(n - 1)]
        create_key = data.get("create_key")
        if create_key is not None and (not isinstance(create_key, str) or not CREATE_KEY.fullmatch(create_key)):
            raise HTTPException(400, "create_key is 8 to 40 letters, digits, - or _")
        room_settings = settings.to_json() | ({"four": sitout.new_state(sit_out)} if people > plays else {})
        code = await store_async.create_room(variant, rules_to_json(rules), stake, hands, host, seats, room_settings,
                                 create_key=create_key)
        return {"code": code}

    @app.get("/api/tables")
    def my_tables(request: Request):
        """The unfinished rooms you are seated at, newest first: the lobby's way back to the table."""
        return store.seated_rooms(player_of(request)["id"])

    def invite_url(request: Request, code: str) -> str:
        """The link friends open: on a machine's own address (127.0.0.1) the first address the others
        on the network can reach, as ``majiang serve`` printed it; else the address in use."""
        host = request.headers.get("host") or "127.0.0.1"
        local = re.match(r"^(127\.|localhost(:|$)|\[::1\])", host) is not None
        base = share_urls[0].rstrip("/") if local and share_urls else f"{request.url.scheme}://{host}"
        return f"{base}/?room={code}"

    @app.get("/api/rooms/{code}/invite")
    def invite(code: str, request: Request):
        room_or_404(code)
        return {"url": invite_url(request, code), "local_only": not share_urls and re.match(
            r"^(127\.|localhost(:|$)|\[::1\])", request.headers.get("host") or "") is not None}

    @app.get("/api/rooms/{code}/qr.svg")
    def invite_qr(code: str, request: Request):
        """The invite link as a QR code (segno), for friends at the same table to scan from the host's screen."""
        import io

        import segno

        room_or_404(code)
        out = io.BytesIO()
        segno.make(invite_url(request, code), error="m").save(out, kind="svg", scale=6, border=2, xmldecl=False,
                                                             dark="#10231b", light="#ffffff")
        return Response(out.getvalue(), media_type="image/svg+xml", headers={"cache-control": "no-store"})

    def room_or_404(code: str) -> dict:
        room = store.room(code) if CODE.fullmatch(code) else None
        if room is None:
            raise HTTPException(404, "no such room")
        return room

    @app.get("/api/rooms/{code}")
    def get_room(code: str):
        room = room_or_404(code)
        ids = [s["player"] for s in room["seats"]]
        return {"code": code, "variant": room["variant"], "status": room["status"], "hands": room["hands"],
                "stake": room["stake"], "preset": room["rules"].get("preset"),
                "timers": TableSettings.from_json(room["settings"] or None).to_json(),
                "host_seat": ids.index(room["host"]) if room["host"] in ids else None,
                "sit_out": ((room["settings"] or {}).get("four") or {}).get("rule"),
                "bench": (((room["settings"] or {}).get("four") or {}).get("bench") or {}).get("name"),
                "seats": [{"name": s["name"], "bot": s["bot"], "taken": bool(s["player"])} for s in room["seats"]]}

    @app.post("/api/rooms/{code}/join")
    async def join(code: str, request: Request):
        check_origin(request)
        player = player_of(request)
        seat = await take_seat(room_or_404(code), player)
        seats = (room_or_404(code))["seats"]
        if seat >= len(seats):
            return {"seat": seat, "bench": True}  # a four-person room's fourth: sits out until swapped in
        if (seats[seat].get("next") or {}).get("player") == player["id"]:
            return {"seat": seat, "next_hand": True}  # a bot's seat, from the next hand on
        return {"seat": seat}

    async def take_seat(room: dict, player: dict) -> int:
        """Seat a player: their own seat if they have one (or one a rematch keeps for them), else the
        first free seat nobody is expected in; during a match a bot's seat from the next hand on; at
        a four-person Kawuxing table, the bench once the three seats have players."""
        code = room["code"]
        kind, i = seat_for(room, player)
        if kind == "own":
            return i
        # many workers: the seat is written by the worker that drives the table (it keeps the seats);
        # a match in play: the live table keeps a seat for the next hand
        live = await tables.obtain(code) if tables.worker or room["status"] == "playing" else tables.live.get(code)
        async with live.lock if live is not None else contextlib.nullcontext():
            # read again, under the table's lock: while this waited, another join or the start may
            # have changed the room (seats written from the first read would be stale)
            room = room_or_404(code)
            kind, i = seat_for(room, player)
            four = (room.get("settings") or {}).get("four")
            if kind == "own":
                return i
            if kind == "next":
                i = await live.reserve_seat(player) if live is not None else None
                if i is None and four is not None and not four.get("bench"):
                    kind, i = "bench", len(room["seats"])
                elif i is None:
                    raise HTTPException(409, "every seat has a player: watch the match as a spectator")
            if kind == "bench":
                settings = dict(room.get("settings") or {})
                settings["four"] = {**four, "bench": {"player": player["id"], "name": player["name"]}}
                await store_async.take_bench(code, player, settings, lease=code)
                if live is not None:
                    live.room["settings"] = settings
            elif kind == "seat":
                seats = room["seats"]
                seats[i] = {"player": player["id"], "name": player["name"], "bot": None}
                await store_async.take_seat(code, i, player, seats, lease=code)
                if live is not None:
                    live.room["seats"] = seats
        if live is not None:
            await live.broadcast()
        return i

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
            raise HTTPException(409, "the match is over")
        mine = [i for i, s in enumerate(seats) if not s["player"] and s.get("for") == player["id"]]
        free = [i for i, s in enumerate(seats) if not s["player"] and not s.get("for")]
        if mine or free:
            return "seat", (mine or free)[0]
        if four is not None and not bench:
            return "bench", len(seats)
        raise HTTPException(409, "the table is full")

    @app.post("/api/rooms/{code}/start")
    async def start(code: str, request: Request):
        """The host deals the first hand once every seated human is ready (准备); until then, or until
        the ready timer runs out, the room waits (``room.starting`` in the snapshots)."""
        check_origin(request)
        player = player_of(request)
        room = room_or_404(code)
        if room["host"] != player["id"]:
            raise HTTPException(403, "only the host starts the match")
        if room["status"] != "lobby":
            return {"status": room["status"]}
        table = await tables.obtain(code)
        status = await table.ask_start()
        if status == "lobby":
            return JSONResponse({"status": "lobby", "waiting_for": table.waiting_for()}, status_code=202)
        return {"status": status}

    @app.post("/api/rooms/{code}/ready")
    async def ready(code: str, request: Request):
        """准备 over HTTP (the websocket's {"type": "ready"} does the same)."""
        check_origin(request)
        player = player_of(request)
        room = room_or_404(code)
        ids = [s.get("player") for s in room["seats"]]
        if player["id"] not in ids:
            raise HTTPException(403, "only a seated player gets ready")
        table = await tables.obtain(code)
        await table.set_ready(ids.index(player["id"]))
        return {"ready": True, "status": table.room["status"]}

    @app.post("/api/rooms/{code}/rematch")
    async def rematch(code: str, request: Request):
        """再来一局 after the match: a new room with the same rules, stake, hands and timers, every
        player in the seat they had (kept for them until they come), bots in the bots' seats. The
        first player to ask opens it; the others are offered it (``room.rematch``) and join it here."""
        check_origin(request)
        player = player_of(request)
        room = room_or_404(code)
        ids = [s.get("player") for s in room["seats"]]
        if player["id"] not in ids:
            raise HTTPException(403, "only the players of this match can ask for a rematch")
        if room["status"] != "finished":
            raise HTTPException(409, "the match is not over yet")
        table = await tables.obtain(code)
        if table.rematch is None:  # no await from this check to setting it: one new room per match
            unfinished, recent = store.open_rooms_hosted(player["id"], since=time.time() - 3600)
            if unfinished >= MAX_OPEN_ROOMS or recent >= MAX_ROOMS_PER_HOUR:
                raise HTTPException(429, f"you host {unfinished} unfinished rooms: finish one first")
            level = next((s["bot"] for s in room["seats"] if s.get("bot")), "greedy")
            seats = [{"player": p, "name": player["name"], "bot": None} if p == player["id"] else
                     {"player": None, "name": None, "bot": level, "for": p} if p else
                     {"player": None, "name": None, "bot": s.get("bot") or level}
                     for p, s in zip(ids, room["seats"])]
            new = store.create_room(room["variant"], room["rules"], room["stake"], room["hands"], player, seats,
                                    room["settings"] or None)
            table.rematch = {"code": new, "by": ids.index(player["id"])}
            await table.broadcast()
            return {"code": new, "seat": ids.index(player["id"])}
        new = table.rematch["code"]
        return {"code": new, "seat": await take_seat(room_or_404(new), player)}

    @app.get("/api/rooms/{code}/games")
    def room_games(code: str):
        room = room_or_404(code)
        out = [{"hand_index": g["hand_index"], "records": g["records"], "totals": g["totals"]}
               for g in store.games_of(code, finished_only=True)]
        four = (room.get("settings") or {}).get("four")
        if four is not None and four.get("lineups"):  # four friends: who played each hand, by person
            names = {sitout.person(s, i): s.get("name") or f"bot {i}" for i, s in enumerate(room["seats"])}
            if four.get("bench"):
                names[four["bench"]["player"]] = four["bench"]["name"]
            order = list(dict.fromkeys(k for line in four["lineups"] for k in line if k is not None))
            for g in out:
                line = four["lineups"][g["hand_index"]] if g["hand_index"] < len(four["lineups"]) else []
                g["people"] = [names.get(k, "?") for k in order]
                g["lineup"] = [order.index(k) if k in order else None for k in line[:len(g["totals"] or [])]]
        return out

    @app.get("/api/rooms/{code}/games/{hand}/frames")
    def replay_frames(code: str, hand: int, request: Request):
        """A finished hand, step by step: built once (an observation per step costs a fifth of a
        second) and kept; an address may have only so many built a minute."""
        key = (code, hand)
        with building:
            if key in replays:
                replays[key] = replays.pop(key)  # the most recently used stays longest
                return replays[key]
            room = room_or_404(code)
            if not replay_builds.allow(request.client.host if request.client else "?"):
                raise HTTPException(429, "too many replays from this address: try again in a minute")
            built = build_replay(code, hand, room)
            replays[key] = built
            while len(replays) > REPLAYS_KEPT:
                replays.pop(next(iter(replays)))
            return built

    def build_replay(code: str, hand: int, room: dict) -> dict:
        """A finished hand, step by step: the table after each action, every hand shown."""
        from majiang.engine import Action
        from majiang.engine.log import game_from_start
        stored = [g for g in store.games_of(code, finished_only=True) if g["hand_index"] == hand]
        if not stored:
            raise HTTPException(404, "no such finished hand in this room")
        records = stored[0]["records"]
        game = game_from_start(records[0])

        def frame(label):
            view = game.observation(None)
            for s, p in enumerate(view["players"]):
                p["hand"] = "".join(str(t) for t in game.hand(s).tiles)
            return {"label": label, "view": view}

        frames = [frame("deal")]
        for r in records[1:]:
            if r["type"] == "action":
                action = Action.from_json(r["action"])
                game.apply(int(r["seat"]), action)
                frames.append(frame(f"seat {r['seat']}: {action}"))
        return {"code": code, "hand": hand, "names": [s["name"] or f"bot {i}" for i, s in enumerate(room["seats"])],
                "frames": frames, "settlement": game.settlement()}

    @app.get("/api/history")
    def history(request: Request, before: float | None = None, limit: int = 20):
        if before is not None and not math.isfinite(before):
            raise HTTPException(400, "before is the created time of the last row you have")
        return store.history(player_of(request)["id"], before=before, limit=max(1, min(50, limit)))

    @app.get("/api/analyze")
    def analyze(hand: str, variant: str, void: str | None = None):
        from majiang.core.analysis import analyze_hand
        if len(hand) > 64 or variant not in GAMES or void not in (None, "m", "p", "s"):
            raise HTTPException(400, "hand is up to 64 characters, variant kawuxing or sichuan, void m, p or s")
        return analyze_hand(hand, variant, [], void, [0] * 30)

    @app.get("/api/rules-schema")
    def get_rules_schema():
        from majiang.server.schema import rules_schema
        return rules_schema()

    @app.get("/api/server")
    def server_info():
        return {"share_urls": list(share_urls or [])}

    open_sockets: dict[str, int] = {}

    @app.websocket("/ws/{code}")
    async def ws(websocket: WebSocket, code: str):
        if not same_origin(websocket.headers.get("origin"), websocket.headers.get("host")):
            await websocket.close(code=1008)  # another site's page: refused before the handshake
            return
        address = websocket.client.host if websocket.client else "?"
        if open_sockets.get(address, 0) >= sockets_per_address:
            await websocket.close(code=1008)  # one address, too many open sockets
            return
        open_sockets[address] = open_sockets.get(address, 0) + 1
        try:
            await websocket.accept()
            await serve_socket(websocket, code)
        finally:
            open_sockets[address] -= 1
            if not open_sockets[address]:
                del open_sockets[address]

    async def serve_socket(websocket: WebSocket, code: str) -> None:
        address = websocket.client.host if websocket.client else "?"
        if code_misses.exhausted(address):
            await websocket.send_json({"type": "error", "message": "too many unknown room codes from this address"})
            await websocket.close(code=1008)
            return
        try:
            table = await tables.obtain(code) if CODE.fullmatch(code) else None
        except (Elsewhere, StoreError):
            await websocket.send_json({"type": "error", "message": "this table is moving between servers: "
                                       "reconnecting"})
            await websocket.close(code=1013)  # try again later: the page reconnects by itself
            return
        if table is None:
            code_misses.allow(address)
            await websocket.send_json({"type": "error", "message": "no such room"})
            await websocket.close()
            return
        player = await store_async.player_by_token(websocket.headers.get("x-token") or websocket.cookies.get(COOKIE))
        seat = None
        if player is not None:
            ids = [s.get("player") for s in table.room["seats"]]
            if player["id"] in ids:
                seat = ids.index(player["id"])
        # Everything for this client goes through its own bounded outbox, written by its own task:
        # a client that reads slowly gets only the newest snapshot, and one that stops reading is
        # dropped when a frame has waited SEND_TIMEOUT; neither ever holds up the table.
        outbox: asyncio.Queue = asyncio.Queue(maxsize=OUTBOX)

        async def writer() -> None:
            while True:
                msg = await outbox.get()  # a snapshot's text (made once per frame), or a message
                async with asyncio.timeout(SEND_TIMEOUT):  # no task per message, unlike wait_for
                    await (websocket.send_text(msg) if isinstance(msg, str) else websocket.send_json(msg))

        async def enqueue(msg: dict | str) -> None:
            if writing.done():
                raise ConnectionError("this client is gone")
            if outbox.full():  # behind: only the newest view matters, as a whole snapshot
                waiting = [outbox.get_nowait() for _ in range(outbox.qsize())]
                for m in [m for m in waiting if not isinstance(m, str)][-(OUTBOX // 2):]:
                    outbox.put_nowait(m)
                # frames were dropped (patches among them): the client gets the table as it stands,
                # whole, whatever this message is (``last_data`` already holds the newest frame)
                if any(isinstance(m, str) for m in waiting) and conn.last_data is not None:
                    outbox.put_nowait(Frame(conn.last_data).with_clock())
                    if isinstance(msg, str):
                        return  # a frame: the whole snapshot just queued includes it
            outbox.put_nowait(msg)

        async def reader() -> None:
            bucket = Bucket()
            warned = last_drop = 0.0
            dropped = 0
            while True:
                message = await websocket.receive()
                if message["type"] == "websocket.disconnect":
                    return
                raw = message.get("text")
                size = len(raw) if raw is not None else len(message.get("bytes") or b"")
                if not bucket.allow(min(size, MAX_MESSAGE)):  # a flood is dropped without a word ...
                    now = time.monotonic()
                    dropped = dropped + 1 if now - last_drop < 10 else 1
                    last_drop = now
                    if dropped > 200:
                        return  # ... and a client that keeps on is closed
                    if now - warned > 5:
                        warned = now
                        await enqueue({"type": "error", "message": "too many messages: slow down"})
                    continue
                reply = await handle(table, seat, raw, size)
                if reply is not None:
                    await enqueue(reply)

        writing = asyncio.ensure_future(writer())
        reading = asyncio.ensure_future(reader())
        conn = Connection(enqueue, seat, player["id"] if player else None, kick=reading.cancel,
                          patches=websocket.query_params.get("patches") == "1")
        table.connect(conn)
        try:
            await table.send_current(conn)
            await asyncio.wait({writing, reading}, return_when=asyncio.FIRST_COMPLETED)
        except (WebSocketDisconnect, ConnectionError):
            pass
        finally:
            table.disconnect(conn)
            for task in (writing, reading):
                task.cancel()
                # a socket that closed mid-send ends its task with that error, perhaps only after
                # the cancel: retrieved here, so it is not logged as an unretrieved exception
                task.add_done_callback(lambda t: t.cancelled() or t.exception())
            with contextlib.suppress(Exception):
                await asyncio.wait_for(websocket.close(code=1008), 2)

    async def handle(table, seat: int | None, raw: str | None, size: int) -> dict | None:
        """One client message; returns the reply to send, if any. Never echoes what was sent."""
        if raw is None:
            return {"type": "error", "message": "messages are JSON text, not binary"}
        if size > MAX_MESSAGE:
            return {"type": "error", "message": f"message too large (at most {MAX_MESSAGE} characters)"}
        try:
            msg = json.loads(raw)
        except (ValueError, RecursionError):
            return {"type": "error", "message": "messages are JSON objects"}
        if not isinstance(msg, dict):
            return {"type": "error", "message": "messages are JSON objects"}
        kind = msg.get("type")
        try:
            if kind == "ping":
                return {"type": "pong"}
            if seat is None:
                raise MajiangError("spectators watch: they cannot act")
            if kind == "action":
                seq = msg.get("seq")
                if isinstance(seq, bool) or not isinstance(seq, int):
                    raise MajiangError("seq must be a whole number: the decision you answer (the snapshot's seq)")
                await table.act(seat, msg.get("action"), seq)
            elif kind in ("ready", "next"):
                await table.set_ready(seat)
            elif kind == "auto":
                await table.set_auto(seat, msg.get("on") is True)
            elif kind == "chat":
                await table.chat(seat, msg.get("phrase"))
            elif kind == "dissolve":
                await table.vote_dissolve(seat, msg.get("agree") is True)
            elif kind == "hints":
                await table.set_hints(seat, msg.get("on") is True)
            else:
                raise MajiangError("unknown message type (action, ready, auto, chat, dissolve, hints, ping)")
        except StoreError:
            return {"type": "error", "message": "the server could not store that: nothing changed, try again"}
        except MajiangError as exc:
            return {"type": "error", "message": str(exc)}
        return None

    static = resources.files("majiang").joinpath("server/static")
    files = {}
    for f in static.iterdir():
        ext = os.path.splitext(f.name)[1]
        if ext in STATIC_TYPES and f.is_file():
            files[f.name] = (f.read_bytes(), STATIC_TYPES[ext])

    @app.get("/")
    def index():
        data, kind = files["index.html"]
        return Response(data, media_type=kind, headers={"cache-control": "no-cache"})

    @app.get("/favicon.ico")
    def favicon():
        data, kind = files["favicon.svg"]
        return Response(data, media_type=kind)

    @app.get("/static/{name}")
    def static_file(name: str):
        if name not in files:
            raise HTTPException(404, "no such file")
        data, kind = files[name]
        return Response(data, media_type=kind, headers={"cache-control": "no-cache"})

    @app.middleware("http")
    async def room_code_guesses(request: Request, call_next):
        """A room asked for by code: refused while the address is out of misses; a miss counts."""
        path = request.url.path
        if not path.startswith("/api/rooms/"):
            return await call_next(request)
        address = request.client.host if request.client else "?"
        if code_misses.exhausted(address):
            return JSONResponse({"error": "too many unknown room codes from this address: try again later"},
                                status_code=429)
        response = await call_next(request)
        if response.status_code == 404:
            code_misses.allow(address)
        return response

    app.state.code_misses = code_misses
    app.add_middleware(Guard, hosts=allowed_hosts)
    return app
