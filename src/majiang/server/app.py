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
  POST /api/rooms/{code}/games/{hand}/review -> 复盘 of your own seat in that finished hand: queued (202),
                                                then polled with GET until {"status": "done", "review"}
  GET  /api/analyze?hand=…&variant=…         -> the analysis core's answer
  GET  /api/server                           -> addresses friends on the same network can open
  GET  /api/rules-schema                     -> each variant's presets and options (the room form)
Websocket /ws/{code} (the cookie or X-Token seats you; without one you watch): its messages are
``protocol``'s models, published as data/protocol.schema.json (docs/PROTOCOL.md).

Every refusal carries a stable ``code`` and its ``params`` beside the English text (``errors``).
The routes live in ``routes/`` by resource and call the services (``rooms``, ``replays``); what
they share is one ``state.AppState``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException

from majiang.core.errors import MajiangError
from majiang.server import collector, quiet
from majiang.server.bots import BotRunner
from majiang.server.budgets import AddressBudgets
from majiang.server.clock import ABSENT_AFTER, BOT_DELAY
from majiang.server.errors import InfrastructureError, Refusal, RefusalCode, http_body, unavailable
from majiang.server.protocol import MAX_MESSAGE  # noqa: F401 - its old home
from majiang.server.requests import BOT_LEVELS, whole  # noqa: F401 - their old home
from majiang.server.reviews import REVIEWS_PER_MINUTE, Reviews
from majiang.server.rooms import MAX_OPEN_ROOMS, MAX_ROOMS_PER_HOUR  # noqa: F401 - their old home
from majiang.server.routes import history, players, reviews, rooms, site, tables
from majiang.server.security import Guard, RateLimit
from majiang.server.state import MAX_SOCKETS_PER_ADDRESS, REPLAY_BUILDS_PER_MINUTE, AppState, Limits  # noqa: F401 - REPLAY_BUILDS_PER_MINUTE: its old home
from majiang.server.store import LEASE_SECONDS, Store
from majiang.server.tables import Tables

log = logging.getLogger("majiang.server")

def default_db_url() -> str:
    path = os.path.join(os.path.expanduser("~"), ".majiang", "majiang.sqlite3")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    return f"sqlite:///{path}"


def new_worker_id() -> str:
    """A name for this worker process, unique among the workers sharing a database."""
    import secrets
    import socket

    return f"{socket.gethostname()[:40]}-{os.getpid()}-{secrets.token_hex(3)}"


_noted_python_engine = False


def note_python_engine(native_built: bool | None = None) -> str | None:
    """Log once per process, at the server's start, that the native engine does not load (and
    why: not built, or numpy missing): the greedy bots (普通, 托管) then decide in Python on the
    event loop and 大师 (``expert``) thinks 30-60x slower in the bot workers. Returns the line
    logged (None when it loads or when said already).

    >>> import logging; logging.disable(logging.WARNING)
    >>> note_python_engine(native_built=False).startswith("majiang: the bots think in Python")
    True
    >>> note_python_engine(native_built=False) is None  # once
    True
    >>> logging.disable(logging.NOTSET)
    """
    global _noted_python_engine
    from majiang.bots.base import native_engine, native_engine_missing

    if native_built is None:
        native_built = native_engine() is not None
    if native_built or _noted_python_engine:
        return None
    _noted_python_engine = True
    line = ("majiang: the bots think in Python (the same moves; 大师/expert 30-60x slower, greedy on the "
            f"event loop): {native_engine_missing()}")
    log.warning(line)
    return line


def create_app(db_url: str | None = None, bot_delay: float = BOT_DELAY, absent_after: float = ABSENT_AFTER,
               share_urls: list[str] | None = None, new_players_per_10min: int = 20,
               bot_workers: int = 0, allowed_hosts: list[str] | None = None, worker_id: str | None = None,
               lease_seconds: float = LEASE_SECONDS, upgrade: bool | None = None,
               sockets_per_address: int = MAX_SOCKETS_PER_ADDRESS, full_gc_seconds: float | None = None,
               code_misses_per_10min: int = 60, review_budget: int | None = None,
               reviews_per_minute: int = REVIEWS_PER_MINUTE, review_hold: float = quiet.HOLD) -> FastAPI:
    """``bot_workers``: processes that run the bots' decisions (0: a thread of this process).
    ``allowed_hosts``: the host names requests may use (None: any; ``majiang serve`` sets them).
    ``worker_id``: this worker's name among many on one database (tables are then leased, see
    ``live.Tables``); by default none for an SQLite file (one process), a fresh one otherwise.
    ``upgrade``: upgrade the schema on opening (default: only an SQLite file; see ``store.Store``).
    ``sockets_per_address``: open websockets one client address may hold (a load test from one
    machine raises it). ``full_gc_seconds``: take the server process's garbage collection in hand
    (``majiang serve`` does; see ``collector``). ``code_misses_per_10min``: unknown room codes an
    address may ask for before it is refused every room for a while (docs/SECURITY.md).
    ``review_budget``: samples a decision of a 复盘 (None: ``review_hand``'s default);
    ``reviews_per_minute``: 复盘 one person may start a minute (``reviews``); ``review_hold``:
    seconds a table's event keeps reviews waiting (``quiet``; 0: reviews beside busy tables)."""
    url = db_url or default_db_url()
    if worker_id is None and not url.startswith("sqlite"):
        worker_id = new_worker_id()
    store = Store(url, upgrade=upgrade, worker=worker_id)
    store.lease_seconds = lease_seconds
    activity = quiet.TableActivity(review_hold)
    live = Tables(store, bot_delay, absent_after, BotRunner(bot_workers), worker=worker_id,
                  lease_seconds=lease_seconds, activity=activity)
    limits = Limits(new_players=RateLimit(new_players_per_10min, 600.0),
                    code_misses=RateLimit(code_misses_per_10min, 600.0))
    state = AppState(store, live, limits, share_urls=list(share_urls or []), sockets_per_address=sockets_per_address)
    state.reviews = Reviews(store, live.runner, budget=review_budget, per_minute=reviews_per_minute,
                            activity=activity)
    app = FastAPI(title="majiang", docs_url=None, redoc_url=None,
                  lifespan=_lifespan(live, full_gc_seconds, state.reviews))
    app.state.server = state
    app.state.store, app.state.tables, app.state.worker = store, live, worker_id
    app.state.code_misses = limits.code_misses
    for router in (players.router, rooms.router, tables.router, history.router, reviews.router, site.router):
        app.include_router(router)
    _answer_refusals(app)
    # plain ASGI middleware (no BaseHTTPMiddleware: an exception inside one escapes as a 500)
    app.add_middleware(AddressBudgets, code_misses=limits.code_misses)
    app.add_middleware(Guard, hosts=allowed_hosts)
    return app


def _lifespan(tables: Tables, full_gc_seconds: float | None, reviews: Reviews | None = None):
    @contextlib.asynccontextmanager
    async def lifespan(app):
        async def sweep():  # tables nobody is at leave memory (they come back from the store)
            while True:
                await asyncio.sleep(30)
                tables.evict_idle()
        loop = asyncio.get_event_loop()
        tasks = [loop.create_task(sweep())]
        if tables.worker:
            tasks.append(loop.create_task(tables.keep_leases()))
        if full_gc_seconds:
            tasks.append(loop.create_task(collector.collect(full_gc_seconds)))
        note_python_engine()
        tables.runner.warm()
        yield
        for task in tasks:
            task.cancel()
        if reviews is not None:
            reviews.close()
        tables.close()
        tables.store.close()
    return lifespan


def _answer_refusals(app: FastAPI) -> None:
    """Every refusal as JSON with its code and parameters beside the English text; every failure
    of the server's own machinery (``InfrastructureError``: the database, a table's lease) as 503."""

    @app.exception_handler(MajiangError)
    async def _refused(request: Request, exc: MajiangError):
        return JSONResponse(http_body(exc), status_code=exc.status if isinstance(exc, Refusal) else 400)

    @app.exception_handler(InfrastructureError)
    async def _unavailable(request: Request, exc: InfrastructureError):
        return JSONResponse(unavailable(exc), status_code=503)

    @app.exception_handler(RequestValidationError)
    async def _bad_parameters(request: Request, exc: RequestValidationError):
        where = sorted({".".join(str(x) for x in e.get("loc", ())[1:]) or "request" for e in exc.errors()})
        # never what was sent: the names of the parameters only
        return JSONResponse(http_body(Refusal("request.invalid", fields=", ".join(where)[:100])), status_code=422)

    @app.exception_handler(HTTPException)
    async def _http_error(request: Request, exc: HTTPException):  # FastAPI's own: no such route, method
        codes: dict[int, RefusalCode] = {404: "request.no_route", 405: "request.bad_method"}
        code = codes.get(exc.status_code, "request.refused")
        return JSONResponse(http_body(Refusal(code), text=str(exc.detail)), status_code=exc.status_code)

