"""The page's files, read once and prepared for the wire: gzip-compressed, fingerprinted and
validated, so a first visit on a phone moves little and a repeat visit almost nothing.

Every reference the page makes to its own files (``/static/NAME`` in index.html, ``from
"./NAME.js"`` between modules) carries ``?v=`` the fingerprint of all of them together: a file
asked for with the current fingerprint never changes and is cached for a year (``immutable``);
index.html and a file asked for without it are revalidated (``no-cache``) by their ETag, a 304
when nothing changed. Text is gzip-compressed once, at start, for a client that accepts it.

The service worker (``sw.js``, served at ``/sw.js`` so that its scope is the whole page) is no file of
the page: it is written for each fingerprint with that fingerprint and the files' versioned URLs, so
a new fingerprint is a new worker, which keeps the new files and drops the old (docs/PLAYING.md).
"""

from __future__ import annotations

import gzip
import hashlib
import json
import os
import re
from dataclasses import dataclass
from importlib import resources

STATIC_TYPES = {".js": "text/javascript; charset=utf-8", ".css": "text/css; charset=utf-8",
                ".svg": "image/svg+xml", ".html": "text/html; charset=utf-8", ".png": "image/png",
                ".webmanifest": "application/manifest+json; charset=utf-8"}
IMMUTABLE = "public, max-age=31536000, immutable"
REVALIDATE = "no-cache"
_MODULE_REF = re.compile(r"""((?:\bfrom|^import)\s*["'])\./([\w.-]+\.js)(["'])""", re.M)
_PAGE_REF = re.compile(r"""(["'])/static/([\w.-]+)(["'])""")
SERVICE_WORKER = "sw.js"
# the one line of sw.js the server writes: the fingerprint and the files to keep under it
_WORKER_BUILD = re.compile(r"^const BUILD = .*$", re.M)


@dataclass(frozen=True)
class Asset:
    """One file as served: its bytes, their gzip (None when it would not be smaller), its type and ETag."""

    data: bytes
    gzipped: bytes | None
    kind: str
    etag: str


def prepare(data: bytes, kind: str) -> Asset:
    compressible = kind.startswith(("text/", "image/svg", "application/"))  # JSON, the manifest, scripts
    packed = gzip.compress(data, compresslevel=9, mtime=0) if compressible else None
    if packed is not None and len(packed) >= len(data):
        packed = None
    return Asset(data, packed, kind, '"' + hashlib.sha256(data).hexdigest()[:20] + '"')


def fingerprinted(files: dict[str, bytes], version: str) -> dict[str, bytes]:
    """The files with every reference to one of them versioned.

    >>> fingerprinted({"a.js": b'import { x } from "./b.js";', "b.js": b""}, "v1")["a.js"]
    b'import { x } from "./b.js?v=v1";'
    >>> fingerprinted({"index.html": b'<script src="/static/a.js">', "a.js": b""}, "v1")["index.html"]
    b'<script src="/static/a.js?v=v1">'
    """
    def module(m: re.Match) -> str:
        return f"{m[1]}./{m[2]}?v={version}{m[3]}" if m[2] in files else m[0]

    def page(m: re.Match) -> str:
        return f"{m[1]}/static/{m[2]}?v={version}{m[3]}" if m[2] in files else m[0]

    out = {}
    for name, data in files.items():
        if name.endswith(".js"):
            data = _MODULE_REF.sub(module, data.decode("utf-8")).encode("utf-8")
        elif name.endswith((".html", ".webmanifest")):
            data = _PAGE_REF.sub(page, data.decode("utf-8")).encode("utf-8")
        out[name] = data
    return out


@dataclass(frozen=True)
class Build:
    """The page's files as served (name -> Asset), their fingerprint, and the service worker that keeps them."""

    files: dict[str, Asset]
    version: str
    worker: Asset


def worker_script(template: bytes, version: str, urls: list[str]) -> bytes:
    """sw.js with its BUILD line written: this fingerprint and the URLs its cache keeps.

    >>> worker_script(b'const BUILD = {"version": "", "files": []};\\nrest', "v1", ["/static/a.js?v=v1"])
    b'const BUILD = {"version": "v1", "files": ["/static/a.js?v=v1"]};\\nrest'
    """
    line = "const BUILD = " + json.dumps({"version": version, "files": urls}) + ";"
    text, found = _WORKER_BUILD.subn(lambda _: line, template.decode("utf-8"), count=1)
    if not found:
        raise ValueError("sw.js has no 'const BUILD = ...' line for the server to write")
    return text.encode("utf-8")


def build(raw: dict[str, bytes]) -> Build:
    """The page's files and its service worker from their sources (name -> bytes, sw.js among them)."""
    digest = hashlib.sha256()
    for name, data in sorted(raw.items()):
        digest.update(name.encode() + b"\0" + hashlib.sha256(data).digest())
    version = digest.hexdigest()[:12]
    page = {n: d for n, d in raw.items() if n != SERVICE_WORKER}
    ready = fingerprinted(page, version)
    files = {n: prepare(d, STATIC_TYPES[os.path.splitext(n)[1]]) for n, d in ready.items()}
    # every file but the page itself (which is revalidated at "/", never kept by the worker)
    urls = [f"/static/{n}?v={version}" for n in sorted(page) if n != "index.html"]
    worker = prepare(worker_script(raw[SERVICE_WORKER], version, urls), STATIC_TYPES[".js"])
    return Build(files, version, worker)


def sources() -> dict[str, bytes]:
    """The page's files as they lie in the package (name -> bytes)."""
    static = resources.files("majiang").joinpath("server/static")
    return {f.name: f.read_bytes() for f in sorted(static.iterdir(), key=lambda f: f.name)
            if os.path.splitext(f.name)[1] in STATIC_TYPES and f.is_file()}


def load() -> Build:
    """The page's files, their fingerprint and their service worker, read from the package."""
    return build(sources())


def accepts_gzip(accept_encoding: str | None) -> bool:
    """
    >>> accepts_gzip("gzip, deflate, br"), accepts_gzip("br"), accepts_gzip("gzip;q=0"), accepts_gzip(None)
    (True, False, False, False)
    """
    for part in (accept_encoding or "").lower().split(","):
        name, _, params = part.strip().partition(";")
        if name.strip() in ("gzip", "*"):
            q = params.strip()
            return not (q.startswith("q=") and q[2:].strip() in ("0", "0.0", "0.00", "0.000"))
    return False


def not_modified(if_none_match: str | None, etag: str) -> bool:
    """
    >>> not_modified('"a", "b"', '"b"'), not_modified('W/"b"', '"b"'), not_modified(None, '"b"')
    (True, True, False)
    """
    if not if_none_match:
        return False
    tags = [t.strip().removeprefix("W/") for t in if_none_match.split(",")]
    return "*" in tags or etag in tags


def encoded(data: bytes, gzipped: bytes | None, kind: str, etag: str, cache: str, headers) -> tuple[int, bytes, dict]:
    """(status, body, headers) for a request's ``headers``: 304 when its ETag matches, the gzip
    when it accepts one."""
    out = {"etag": etag, "cache-control": cache, "vary": "accept-encoding", "content-type": kind}
    if not_modified(headers.get("if-none-match"), etag):
        del out["content-type"]
        return 304, b"", out
    if gzipped is not None and accepts_gzip(headers.get("accept-encoding")):
        out["content-encoding"] = "gzip"
        return 200, gzipped, out
    return 200, data, out
