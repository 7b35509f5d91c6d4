"""What the routes share: the store, the live tables and the limits, in one object the app holds
(``app.state.server``), and the FastAPI dependencies that hand it and the caller to a route."""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from fastapi import Depends, Request
from starlette.requests import HTTPConnection

from majiang.server.errors import Refusal
from majiang.server.replays import Replays
from majiang.server.reviews import Reviews
from majiang.server.security import COOKIE, RateLimit, same_origin
from majiang.server.store import Store
from majiang.server.store_async import AsyncStore
from majiang.server.tables import Tables

REPLAY_BUILDS_PER_MINUTE = 20  # replays one address may have built (a cached one costs nothing)
MAX_SOCKETS_PER_ADDRESS = 32  # open websockets from one client address


@dataclass
class Limits:
    """Per client address, in memory: new players, and room codes that do not exist (six digits:
    an address that asks for too many is refused every room for a while; docs/SECURITY.md says why
    that is enough)."""

    new_players: RateLimit
    code_misses: RateLimit


@dataclass
class AppState:
    store: Store
    tables: Tables
    limits: Limits
    share_urls: list[str] = field(default_factory=list)
    sockets_per_address: int = MAX_SOCKETS_PER_ADDRESS
    open_sockets: dict[str, int] = field(default_factory=dict)  # client address -> open websockets
    replays: Replays = field(default_factory=lambda: Replays(RateLimit(REPLAY_BUILDS_PER_MINUTE, 60.0)))
    reviews: Reviews | None = None  # 复盘 (set by ``create_app``: it needs the bot runner)


    @property
    def aio(self) -> AsyncStore:
        """The store's calls as awaitables (a bounded pool): an async route never waits on it."""
        return AsyncStore.shared(self.store)


# The dependencies that do no I/O are ``async def``: FastAPI runs a plain ``def`` dependency in its
# thread pool, a thread hop each (starting a room made four); ``optional_player`` reads the
# database, so it stays a plain function, off the event loop.

async def app_state(conn: HTTPConnection) -> AppState:
    return conn.app.state.server


def address_of(conn: HTTPConnection) -> str:
    return conn.client.host if conn.client else "?"


def token_of(conn: HTTPConnection) -> str | None:
    """The caller's token: the X-Token header (scripts) or the cookie (the page)."""
    return conn.headers.get("x-token") or conn.cookies.get(COOKIE)


def optional_player(conn: HTTPConnection, state: AppState = Depends(app_state)) -> dict | None:
    return state.store.player_by_token(token_of(conn))


def known_player(player: dict | None) -> dict:
    if player is None:
        raise Refusal("player.unknown", status=401)
    return player


async def current_player(player: dict | None = Depends(optional_player)) -> dict:
    return known_player(player)


def check_same_site(request: Request) -> None:
    """Refuses a request another site's page made (a browser names it in ``Origin``)."""
    if not same_origin(request.headers.get("origin"), request.headers.get("host")):
        raise Refusal("request.other_origin", status=403)


async def same_site(request: Request) -> None:
    check_same_site(request)


async def json_body(request: Request) -> dict:
    """The request's JSON object, from this site only (the Guard bounded its size already)."""
    check_same_site(request)
    if request.headers.get("content-type", "").split(";")[0].strip().lower() != "application/json":
        raise Refusal("request.not_json", status=415)
    raw = await request.body()
    try:
        data = json.loads(raw)
    except (ValueError, RecursionError):
        raise Refusal("request.bad_json") from None
    if not isinstance(data, dict):
        raise Refusal("request.not_object")
    return data
