"""复盘: a finished hand's review of your own seat, asked for (POST) and polled (GET)."""

from __future__ import annotations

from fastapi import APIRouter, Depends
from fastapi.responses import JSONResponse

from majiang.server.state import AppState, app_state, current_player, same_site

router = APIRouter()


def _answered(body: dict) -> JSONResponse:
    """200 with the review once done (or failed), 202 while it is queued or running."""
    return JSONResponse(body, status_code=202 if body["status"] in ("queued", "running") else 200)


@router.post("/api/rooms/{code}/games/{hand}/review", dependencies=[Depends(same_site)])
async def request_review(code: str, hand: int, player: dict = Depends(current_player),
                         state: AppState = Depends(app_state)):
    return _answered(await state.reviews.request(code, hand, player))


@router.get("/api/rooms/{code}/games/{hand}/review")
async def fetch_review(code: str, hand: int, player: dict = Depends(current_player),
                       state: AppState = Depends(app_state)):
    return _answered(await state.reviews.fetch(code, hand, player))
