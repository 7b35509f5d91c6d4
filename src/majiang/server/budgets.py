"""Per-address budgets a worker keeps by itself, router or not (docs/SECURITY.md, Limits).

- Room codes: a request for a room by code takes one of the address's misses *before* the room is
  looked up, and gives it back when the room exists; so a burst of simultaneous guesses gets at
  most the budget's number of lookups, not one per request. Past the budget every room is refused
  (429), hit or miss. A miss is marked ``x-majiang-miss`` so the router can count misses for all
  workers at once (deploy/haproxy.cfg).
- Costly routes (replays, a room's hand logs, the analysis, the QR code): an address has at most
  ``COSTLY_AT_ONCE`` of them in flight and ``COSTLY_PER_MINUTE`` a minute (429 past either), so no
  address can keep a worker's threads or its event loop busy.

A refusal waits ``REFUSAL_PAUSE`` before it is sent: a client that asks again at once, in a loop,
then asks a few times a second instead of thousands, and the refusals themselves cost the event
loop nothing worth measuring (benchmarks/bench_replay_flood.py).
"""

from __future__ import annotations

import asyncio
import json
import re

from majiang.server.errors import Refusal, RefusalCode, http_body
from majiang.server.security import RateLimit

COSTLY_AT_ONCE = 4
COSTLY_PER_MINUTE = 120
REFUSAL_PAUSE = 1.0  # seconds
MISS_HEADER = (b"x-majiang-miss", b"1")
_COSTLY = re.compile(r"^/api/(analyze$|rooms/[^/]+/(games(/|$)|qr\.svg$))")


def costly(path: str) -> bool:
    """
    >>> [costly(p) for p in ("/api/analyze", "/api/rooms/123456/games/0/frames", "/api/rooms/123456", "/")]
    [True, True, False, False]
    """
    return _COSTLY.match(path) is not None


class AddressBudgets:
    """ASGI middleware for the two budgets above (HTTP only: the websocket counts its own misses
    in ``sockets.open_table``, the same way)."""

    def __init__(self, app, code_misses: RateLimit, costly_per_minute: int = COSTLY_PER_MINUTE,
                 costly_at_once: int = COSTLY_AT_ONCE, pause: float = REFUSAL_PAUSE) -> None:
        self.app = app
        self.pause = pause
        self.code_misses = code_misses
        self.costly = RateLimit(costly_per_minute, 60.0)
        self.at_once = costly_at_once
        self.in_flight: dict[str, int] = {}

    async def __call__(self, scope, receive, send):
        path = scope.get("path", "")
        if scope["type"] != "http" or not path.startswith("/api/"):
            return await self.app(scope, receive, send)
        address = scope["client"][0] if scope.get("client") else "?"
        expensive = costly(path)
        if expensive:
            if self.in_flight.get(address, 0) >= self.at_once or not self.costly.allow(address):
                return await self.refuse(send, "rate.costly")
        taken = None
        if path.startswith("/api/rooms/"):
            taken = self.code_misses.take(address)
            if taken is None:
                return await self.refuse(send, "rate.room_code_misses")
        status = None

        async def watch(message):
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
                if status == 404 and taken is not None:
                    message = dict(message, headers=list(message.get("headers", [])) + [MISS_HEADER])
            await send(message)

        if expensive:
            self.in_flight[address] = self.in_flight.get(address, 0) + 1
        try:
            await self.app(scope, receive, watch)
        finally:
            if taken is not None and status != 404:
                self.code_misses.give_back(address, taken)  # the room exists: not a miss
            if expensive:
                self.in_flight[address] -= 1
                if not self.in_flight[address]:
                    del self.in_flight[address]

    async def refuse(self, send, code: RefusalCode) -> None:
        await asyncio.sleep(self.pause)
        await _reply(send, 429, code)


async def _reply(send, status: int, code: RefusalCode) -> None:
    body = json.dumps(http_body(Refusal(code, status))).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
})
    await send({"type": "http.response.body", "body": body})
