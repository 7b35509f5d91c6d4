"""Tables: the unfinished rooms you are seated at (回到牌桌), and the websocket of a table."""

from __future__ import annotations

from fastapi import APIRouter, Depends, WebSocket

from majiang.server import sockets
from majiang.server.budgets import MISS_HEADER
from majiang.server.rooms import CODE
from majiang.server.security import same_origin
from majiang.server.state import AppState, address_of, app_state, current_player
from majiang.server.store import StoreError

router = APIRouter()


@router.get("/api/tables")
def my_tables(player: dict = Depends(current_player), state: AppState = Depends(app_state)):
    """The unfinished rooms you are seated at, newest first: the lobby's way back to the table."""
    return state.store.seated_rooms(player["id"])


@router.websocket("/ws/{code}")
async def table_socket(websocket: WebSocket, code: str):
    state: AppState = websocket.app.state.server
    if not same_origin(websocket.headers.get("origin"), websocket.headers.get("host")):
        await websocket.close(code=1008)  # another site's page: refused before the handshake
        return
    address = address_of(websocket)
    if state.open_sockets.get(address, 0) >= state.sockets_per_address:
        await websocket.close(code=1008)  # one address, too many open sockets
        return
    state.open_sockets[address] = state.open_sockets.get(address, 0) + 1
    try:
        # a code that does not exist is marked in the handshake, for the router to count it for
        # every worker (budgets.MISS_HEADER); ``sockets.open_table`` counts it here and says why
        missing = await _unknown_code(state, code)
        await websocket.accept(headers=[MISS_HEADER] if missing else None)
        await sockets.serve(websocket, state, code)
    finally:
        state.open_sockets[address] -= 1
        if not state.open_sockets[address]:
            del state.open_sockets[address]


async def _unknown_code(state: AppState, code: str) -> bool:
    """Whether no room has this code (a live table is one; a store that fails says nothing)."""
    if code in state.tables.live:
        return False
    if not CODE.fullmatch(code):
        return True
    try:
        return await state.aio.call(state.store.room, code) is None
    except StoreError:
        return False
