"""The server's guards: response headers, bounded request bodies, the session cookie, the origin
check, player names, and rate limits for the things a visitor can create.

See docs/SECURITY.md for what each kind of visitor can see and do.
"""

from __future__ import annotations

import json
import logging
import time
import unicodedata
from collections import deque
from urllib.parse import urlsplit

from majiang.server.errors import Refusal, RefusalCode, http_body

log = logging.getLogger("majiang.server")
COOKIE = "majiang_token"
MAX_BODY = 16 * 1024  # bytes: the largest request this API needs is a few hundred
MAX_NAME = 24
BLANK_LOOKING = set("\u115f\u1160\u3164\uffa0\u2800")  # fillers and blanks that are letters or signs

# default-src 'self' is also the policy of the service worker (worker-src falls back to script-src,
# then to it) and of the manifest (manifest-src falls back to it): /sw.js and the manifest are allowed
# without naming them, which would add bytes to every response (tests/page/test_page_weight.py).
HEADERS = [
    (b"content-security-policy",
     b"default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
     b"font-src 'self'; media-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; "
     b"form-action 'self'"),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),
    (b"permissions-policy", b"camera=(), microphone=(), geolocation=()"),
]
# Browsers honour Cross-Origin-Opener-Policy only from a trustworthy origin (https, or localhost) and
# report it as ignored on every load elsewhere (a LAN address over http): sent only where it applies.
COOP = (b"cross-origin-opener-policy", b"same-origin")
LOOPBACK_NAMES = ("localhost", "127.0.0.1", "::1")


def trustworthy_origin(scope) -> bool:
    """Whether the request's origin is one a browser trusts: https (also as a TLS proxy forwards
    it), or a loopback name."""
    if scope.get("scheme") in ("https", "wss"):
        return True
    headers = dict(scope.get("headers", []))
    if headers.get(b"x-forwarded-proto", b"").split(b",")[0].strip().lower() == b"https":
        return True
    host = headers.get(b"host", b"").decode("latin-1").lower()
    name = host.rsplit(":", 1)[0] if not host.endswith("]") else host
    name = name.strip("[]")
    return name in LOOPBACK_NAMES or name.endswith(".localhost") or name.startswith("127.")


# A script or style sheet the page loads is never a document: a browser applies a policy, framing
# and feature rules only to documents and workers, so these go without them (on a phone's first
# visit they were a tenth of the bytes). nosniff stays: it is what keeps a script a script.
SUBRESOURCE_HEADERS = [h for h in HEADERS if h[0] in (b"x-content-type-options", b"referrer-policy")]
SUBRESOURCE_SUFFIXES = (".js", ".css")


def headers_for(scope) -> list:
    """The security headers of a response to this request."""
    path = scope.get("path", "")
    if path.startswith("/static/") and path.endswith(SUBRESOURCE_SUFFIXES):
        return SUBRESOURCE_HEADERS
    return HEADERS + [COOP] if trustworthy_origin(scope) else HEADERS


GONE = object()


class Guard:
    """ASGI middleware: security headers on every response, and request bodies bounded before
    anything reads them (413 past ``MAX_BODY``, declared or chunked: the body is read whole, up
    to the limit, before the app runs; nothing of it is echoed)."""

    def __init__(self, app, max_body: int = MAX_BODY, hosts: list[str] | None = None) -> None:
        self.app = app
        self.max_body = max_body
        self.hosts = None if hosts is None or "*" in hosts else {h.lower().strip("[]") for h in hosts}

    def host_allowed(self, scope) -> bool:
        """Against DNS rebinding: a request must name this server (``--allowed-host``)."""
        if self.hosts is None:
            return True
        host = next((v.decode("latin-1") for k, v in scope.get("headers", []) if k == b"host"), "")
        name = host.rsplit(":", 1)[0] if not host.endswith("]") else host
        return name.lower().strip("[]") in self.hosts

    async def __call__(self, scope, receive, send):
        if scope["type"] == "websocket" and not (self.host_allowed(scope) and canonical_path(scope)):
            return await send({"type": "websocket.close", "code": 1008})
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        if not self.host_allowed(scope):
            return await _reply(send, 421, "request.bad_host", scope)
        if not canonical_path(scope):
            return await _reply(send, 404, "room.not_found", scope)
        for name, value in scope.get("headers", []):
            if name == b"content-length":
                try:
                    too_big = int(value) > self.max_body
                except ValueError:
                    too_big = True
                if too_big:
                    log.warning("majiang: a request body over %d bytes refused (413)", self.max_body)
                    return await _reply(send, 413, "request.too_large", scope)
        body = await self.read_body(receive)
        if body is GONE:
            return  # the client left before its body was in: nobody to answer
        if body is None:
            log.warning("majiang: a request body over %d bytes refused (413)", self.max_body)
            return await _reply(send, 413, "request.too_large", scope)
        delivered = False

        async def replay_receive():
            # the body as one message, read whole before the app ran (a chunked body has no length
            # to check first); then the client's own messages (a disconnect)
            nonlocal delivered
            if not delivered:
                delivered = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        async def send_with_headers(message):
            if message["type"] == "http.response.start":
                message = dict(message)
                message["headers"] = list(message.get("headers", [])) + headers_for(scope)
            await send(message)

        await self.app(scope, replay_receive, send_with_headers)

    async def read_body(self, receive):
        """The request's body, at most ``max_body`` bytes: None past it (nothing more is read, and
        no exception has to find its way out through the app's middleware), ``GONE`` when the
        client left first."""
        parts, seen = [], 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                return GONE
            chunk = message.get("body", b"")
            seen += len(chunk)
            if seen > self.max_body:
                return None
            parts.append(chunk)
            if not message.get("more_body", False):
                return b"".join(parts)


ROOM_PATHS = ("/ws/", "/api/rooms/")


def canonical_path(scope) -> bool:
    """A room's path as the router hashes it: the router sends each room to one worker by the raw
    path, so a room path written another way (percent-encoded: ``/ws/AB%43D``) would reach the room
    on another worker and pull its table there. Such a path is refused (as HAProxy refuses it too).

    >>> canonical_path({"path": "/ws/ABCD", "raw_path": b"/ws/AB%43D"}), canonical_path({"path": "/ws/ABCD"})
    (False, True)
    """
    raw = scope.get("raw_path")
    if raw is None or not scope.get("path", "").startswith(ROOM_PATHS):
        return True
    return b"%" not in raw


async def _reply(send, status: int, code: RefusalCode, scope) -> None:
    body = json.dumps(http_body(Refusal(code, status))).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
                + headers_for(scope)})
    await send({"type": "http.response.body", "body": body})


def same_origin(origin: str | None, host: str | None) -> bool:
    """A browser's ``Origin`` must name this server (no Origin: not a browser page, allowed).

    >>> same_origin("http://127.0.0.1:8000", "127.0.0.1:8000"), same_origin("https://evil.example", "a:1")
    (True, False)
    >>> same_origin(None, "a:1"), same_origin("null", "a:1")
    (True, False)
    """
    if origin is None:
        return True
    try:
        netloc = urlsplit(origin).netloc
    except ValueError:
        return False
    return bool(netloc) and netloc == (host or "")


def clean_name(value) -> str:
    """A player name: 1–24 printable characters (no control, format or bidi characters).

    >>> clean_name("  阿明 ")
    '阿明'
    >>> clean_name("a\\u202eb")
    Traceback (most recent call last):
    majiang.Refusal: a name is printable text (no control or direction characters)
    """
    if not isinstance(value, str):
        raise Refusal("name.not_text", max=MAX_NAME)
    name = unicodedata.normalize("NFC", value).strip()
    if not 1 <= len(name) <= MAX_NAME:
        raise Refusal("name.bad_length", max=MAX_NAME)
    if not all(ch.isprintable() for ch in name):
        raise Refusal("name.not_printable")
    marks = sum(unicodedata.category(ch) in ("Mn", "Me") for ch in name)
    visible = [ch for ch in name if unicodedata.category(ch)[0] in "LNPS" and ch not in BLANK_LOOKING]
    if not visible or marks > len(visible):
        raise Refusal("name.blank")
    return name


class RateLimit:
    """At most ``count`` events per ``window`` seconds per key (in memory, per process)."""

    def __init__(self, count: int, window: float) -> None:
        self.count = count
        self.window = window
        self.seen: dict[str, deque] = {}

    def take(self, key: str, now: float | None = None) -> float | None:
        """Counts one event now and returns its time (to ``give_back``), or None past the budget.

        >>> r = RateLimit(1, 60.0); t = r.take("a"); r.take("a") is None
        True
        >>> r.give_back("a", t); r.take("a") is not None
        True
        """
        now = time.monotonic() if now is None else now
        return now if self.allow(key, now) else None

    def give_back(self, key: str, when: float) -> None:
        """Takes back an event ``take`` counted (it turned out not to be one: a room that exists)."""
        q = self.seen.get(key)
        if q is not None and when in q:
            q.remove(when)

    def allow(self, key: str, now: float | None = None) -> bool:
        now = time.monotonic() if now is None else now
        q = self.seen.setdefault(key, deque())
        while q and now - q[0] > self.window:
            q.popleft()
        if len(q) >= self.count:
            return False
        q.append(now)
        if len(self.seen) > 10000:  # forget the quiet ones
            for k in [k for k, v in self.seen.items() if not v]:
                del self.seen[k]
        return True


class Bucket:
    """A websocket's budget: messages and bytes per second, with bursts."""

    def __init__(self, messages: float = 10.0, burst: float = 40.0, bytes_per_s: float = 4096.0,
                 byte_burst: float = 16384.0) -> None:
        self.rates = (messages, bytes_per_s)
        self.bursts = (burst, byte_burst)
        self.level = [burst, byte_burst]
        self.last = time.monotonic()

    def allow(self, size: int) -> bool:
        now = time.monotonic()
        dt, self.last = now - self.last, now
        for i in range(2):
            self.level[i] = min(self.bursts[i], self.level[i] + dt * self.rates[i])
        if self.level[0] < 1 or self.level[1] < size:
            return False
        self.level[0] -= 1
        self.level[1] -= size
        return True
