"""The page and its files, and the small read-only answers it asks for: the rules' schema, the
analysis core, the addresses to share."""

from __future__ import annotations

import os
from importlib import resources

from fastapi import APIRouter, Depends
from fastapi.responses import Response

from majiang.games import GAMES
from majiang.server.errors import Refusal
from majiang.server.state import AppState, app_state

router = APIRouter()
STATIC_TYPES = {".js": "text/javascript; charset=utf-8", ".css": "text/css; charset=utf-8",
                ".svg": "image/svg+xml", ".html": "text/html; charset=utf-8"}
MAX_ANALYZED_HAND = 64  # characters


def _load_files() -> dict[str, tuple[bytes, str]]:
    """The page's files, read once: name -> (bytes, content type)."""
    static = resources.files("majiang").joinpath("server/static")
    files = {}
    for f in static.iterdir():
        ext = os.path.splitext(f.name)[1]
        if ext in STATIC_TYPES and f.is_file():
            files[f.name] = (f.read_bytes(), STATIC_TYPES[ext])
    return files


FILES = _load_files()


@router.get("/")
def index():
    data, kind = FILES["index.html"]
    return Response(data, media_type=kind, headers={"cache-control": "no-cache"})


@router.get("/favicon.ico")
def favicon():
    data, kind = FILES["favicon.svg"]
    return Response(data, media_type=kind)


@router.get("/static/{name}")
def static_file(name: str):
    if name not in FILES:
        raise Refusal("file.not_found", status=404)
    data, kind = FILES[name]
    return Response(data, media_type=kind, headers={"cache-control": "no-cache"})


@router.get("/api/analyze")
def analyze(hand: str, variant: str, void: str | None = None):
    from majiang.core.analysis import analyze_hand
    if len(hand) > MAX_ANALYZED_HAND or variant not in GAMES or void not in (None, "m", "p", "s"):
        raise Refusal("analyze.bad_request", choices=" or ".join(GAMES))
    return analyze_hand(hand, variant, [], void, [0] * 30)


@router.get("/api/rules-schema")
def get_rules_schema():
    from majiang.server.schema import rules_schema
    return rules_schema()


@router.get("/api/server")
def server_info(state: AppState = Depends(app_state)):
    return {"share_urls": list(state.share_urls)}
