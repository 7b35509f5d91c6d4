"""The page and its files, and the small read-only answers it asks for: the rules' schema, the
analysis core, the addresses to share."""

from __future__ import annotations

from fastapi import APIRouter, Depends, Request
from fastapi.responses import Response

from majiang.games import GAMES
from majiang.server import assets
from majiang.server.errors import Refusal
from majiang.server.state import AppState, app_state

router = APIRouter()
MAX_ANALYZED_HAND = 64  # characters
BUILD = assets.load()  # read and compressed once (``assets``)
ASSETS, VERSION = BUILD.files, BUILD.version
FILES = {n: (a.data, a.kind) for n, a in ASSETS.items()}  # name -> (bytes, content type): its old shape


def _serve(request: Request, name: str, cache: str) -> Response:
    return _send(request, BUILD.files[name], cache)


def _send(request: Request, a: assets.Asset, cache: str) -> Response:
    status, body, headers = assets.encoded(a.data, a.gzipped, a.kind, a.etag, cache, request.headers)
    kind = headers.pop("content-type", None)
    return Response(body, status_code=status, media_type=kind, headers=headers)


@router.get("/")
async def index(request: Request):
    return _serve(request, "index.html", assets.REVALIDATE)


@router.get("/favicon.ico")
async def favicon(request: Request):
    return _serve(request, "favicon.svg", assets.REVALIDATE)


@router.get("/sw.js")
async def service_worker(request: Request):
    """The service worker, at the root so that its scope is the whole page; revalidated, never kept
    long: the browser compares it on each visit, and a new fingerprint in it is the page's update."""
    return _send(request, BUILD.worker, assets.REVALIDATE)


@router.get("/static/{name}")
async def static_file(name: str, request: Request, v: str | None = None):
    """A file of the page: kept a year when asked for by the current fingerprint, else revalidated."""
    build = BUILD
    if name not in build.files:
        raise Refusal("file.not_found", status=404)
    return _serve(request, name, assets.IMMUTABLE if v == build.version else assets.REVALIDATE)


@router.get("/api/analyze")
def analyze(hand: str, variant: str, void: str | None = None):
    from majiang.core.analysis import analyze_hand
    if len(hand) > MAX_ANALYZED_HAND or variant not in GAMES or void not in (None, "m", "p", "s"):
        raise Refusal("analyze.bad_request", choices=" or ".join(GAMES))
    return analyze_hand(hand, variant, [], void, [0] * 30)


@router.get("/api/rules-schema")
async def get_rules_schema(request: Request):
    """The games' declarations: compressed once while they stay the same, revalidated by their ETag."""
    import json

    from majiang.server.schema import rules_schema
    global _SCHEMA
    data = json.dumps(rules_schema(), ensure_ascii=False).encode("utf-8")
    if _SCHEMA is None or _SCHEMA.data != data:
        _SCHEMA = assets.prepare(data, "application/json")
    a = _SCHEMA
    status, body, headers = assets.encoded(a.data, a.gzipped, a.kind, a.etag, assets.REVALIDATE, request.headers)
    kind = headers.pop("content-type", None)
    return Response(body, status_code=status, media_type=kind, headers=headers)


_SCHEMA: assets.Asset | None = None


@router.get("/api/server")
def server_info(state: AppState = Depends(app_state)):
    return {"share_urls": list(state.share_urls)}
