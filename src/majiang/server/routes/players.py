"""Players: make one (and its cookie), sign in with a token, who am I, rename."""

from __future__ import annotations

from fastapi import APIRouter, Depends, Request
from fastapi.responses import JSONResponse

from majiang.server.errors import Refusal
from majiang.server.requests import NewPlayer, SignIn, parse
from majiang.server.security import COOKIE, clean_name
from majiang.server.state import AppState, address_of, app_state, current_player, json_body, optional_player

router = APIRouter()
COOKIE_SECONDS = 10 * 365 * 86400


def with_cookie(response: JSONResponse, request: Request, token: str) -> JSONResponse:
    response.set_cookie(COOKIE, token, max_age=COOKIE_SECONDS, httponly=True, samesite="strict",
                        secure=request.url.scheme == "https", path="/")
    return response


@router.post("/api/players")
async def new_player(request: Request, data: dict = Depends(json_body), state: AppState = Depends(app_state)):
    name = clean_name(parse(NewPlayer, data).name)
    if not state.limits.new_players.allow(address_of(request)):
        raise Refusal("rate.new_players", status=429)
    pid, token = await state.aio.create_player(name)
    return with_cookie(JSONResponse({"id": pid, "name": name, "token": token}), request, token)


@router.post("/api/session")
async def sign_in(request: Request, data: dict = Depends(json_body), state: AppState = Depends(app_state)):
    token = parse(SignIn, data).token
    p = await state.aio.player_by_token(token)
    if p is None:
        raise Refusal("player.unknown_token", status=401)
    return with_cookie(JSONResponse({"id": p["id"], "name": p["name"]}), request, token)


@router.get("/api/me")
async def me(player: dict | None = Depends(optional_player)):
    # nobody yet is an answer, not an error
    return {"id": player["id"], "name": player["name"]} if player else {"id": None, "name": None}


@router.post("/api/me")
async def rename(data: dict = Depends(json_body), player: dict = Depends(current_player),
                 state: AppState = Depends(app_state)):
    name = clean_name(parse(NewPlayer, data).name)
    await state.aio.rename_player(player["id"], name)
    return {"id": player["id"], "name": name}
