"""History and replays: your matches (战绩), a room's finished hands, one hand step by step."""

from __future__ import annotations

import math

from fastapi import APIRouter, Depends, Request
from fastapi.responses import Response
from starlette.concurrency import run_in_threadpool

from majiang.server import assets, replays, rooms
from majiang.server.errors import Refusal
from majiang.server.state import AppState, address_of, app_state, known_player, optional_player

router = APIRouter()
MAX_HISTORY_PAGE = 50


@router.get("/api/history")
def history(request: Request, before: float | None = None, limit: int = 20, state: AppState = Depends(app_state)):
    if before is not None and not math.isfinite(before):
        raise Refusal("history.bad_before")
    player = known_player(optional_player(request, state))
    return state.store.history(player["id"], before=before, limit=max(1, min(MAX_HISTORY_PAGE, limit)))


@router.get("/api/rooms/{code}/games")
def room_games(code: str, state: AppState = Depends(app_state)):
    return replays.room_games(state.store, code, rooms.room_or_404(state.store, code))


@router.get("/api/rooms/{code}/games/{hand}/frames")
async def replay_frames(code: str, hand: int, request: Request, state: AppState = Depends(app_state)):
    """A finished hand, step by step: built once (in a thread) and kept encoded, then sent as its
    bytes (gzip when accepted; 304 to a matching ETag); an address may have only so many built a
    minute. A finished hand never changes: browsers keep it."""
    replay = state.replays.kept_one(code, hand)
    if replay is None:
        replay = await run_in_threadpool(state.replays.encoded, state.store, code, hand, address_of(request))
    status, body, headers = assets.encoded(replay.data, replay.gzipped, "application/json", replay.etag,
                                           assets.IMMUTABLE, request.headers)
    kind = headers.pop("content-type", None)
    return Response(body, status_code=status, media_type=kind, headers=headers)
