"""Rooms: make one, look at one, its invite (link and QR code), join, start, 准备, 再来一局."""

from __future__ import annotations

import io

from fastapi import APIRouter, Depends, Request
from fastapi.responses import JSONResponse, Response

from majiang.server import rooms
from majiang.server.requests import NewRoom, parse
from majiang.server.state import AppState, app_state, current_player, json_body, same_site

router = APIRouter()


@router.post("/api/rooms")
async def new_room(data: dict = Depends(json_body), host: dict = Depends(current_player),
                   state: AppState = Depends(app_state)):
    return {"code": await state.aio.call(rooms.new_room, state.store, host, parse(NewRoom, data))}


@router.get("/api/rooms/{code}")
def get_room(code: str, state: AppState = Depends(app_state)):
    return rooms.room_summary(code, rooms.room_or_404(state.store, code))


@router.get("/api/rooms/{code}/invite")
def invite(code: str, request: Request, state: AppState = Depends(app_state)):
    rooms.room_or_404(state.store, code)
    host = request.headers.get("host")
    return {"url": rooms.invite_url(host, request.url.scheme, state.share_urls, code),
            "local_only": rooms.only_local(host, state.share_urls)}


@router.get("/api/rooms/{code}/qr.svg")
def invite_qr(code: str, request: Request, state: AppState = Depends(app_state)):
    """The invite link as a QR code (segno), for friends at the same table to scan from the host's screen."""
    import segno

    rooms.room_or_404(state.store, code)
    url = rooms.invite_url(request.headers.get("host"), request.url.scheme, state.share_urls, code)
    out = io.BytesIO()
    segno.make(url, error="m").save(out, kind="svg", scale=6, border=2, xmldecl=False, dark="#10231b",
                                    light="#ffffff")
    return Response(out.getvalue(), media_type="image/svg+xml", headers={"cache-control": "no-store"})


@router.post("/api/rooms/{code}/join", dependencies=[Depends(same_site)])
async def join(code: str, player: dict = Depends(current_player), state: AppState = Depends(app_state)):
    room = await state.aio.call(rooms.room_or_404, state.store, code)
    seated = await rooms.take_seat(state.aio, state.tables, room, player)
    return seated.to_json()


@router.post("/api/rooms/{code}/start", dependencies=[Depends(same_site)])
async def start(code: str, player: dict = Depends(current_player), state: AppState = Depends(app_state)):
    room = await state.aio.call(rooms.room_or_404, state.store, code)
    status, answer = await rooms.start(state.tables, room, player)
    return answer if status == 200 else JSONResponse(answer, status_code=status)


@router.post("/api/rooms/{code}/ready", dependencies=[Depends(same_site)])
async def ready(code: str, player: dict = Depends(current_player), state: AppState = Depends(app_state)):
    room = await state.aio.call(rooms.room_or_404, state.store, code)
    return await rooms.ready(state.tables, room, player)


@router.post("/api/rooms/{code}/rematch", dependencies=[Depends(same_site)])
async def rematch(code: str, player: dict = Depends(current_player), state: AppState = Depends(app_state)):
    room = await state.aio.call(rooms.room_or_404, state.store, code)
    return await rooms.rematch(state.aio, state.tables, room, player)
