"""One websocket at a table: who it is (a seat, or a spectator), its bounded outbox and the writer
that empties it, and the reader that turns each message into a table's call.

The path of one action: ``Session.read`` takes the frame (a flood is dropped by the ``Bucket``),
``handle`` parses it with ``protocol.parse_client`` (size bounded first) into a typed message,
and calls the table (``LiveTable.act``); the table applies and stores it, then broadcasts, and
every connection's ``Session.enqueue`` queues its seat's snapshot or patch for its writer.
"""

from __future__ import annotations

import asyncio
import contextlib
import time

from fastapi import WebSocket, WebSocketDisconnect

from majiang.core.errors import MajiangError
from majiang.server import protocol
from majiang.server.errors import InfrastructureError, Refusal, ws_error, ws_refusal
from majiang.server.live_table import LiveTable
from majiang.server.presence import Connection
from majiang.server.rooms import CODE
from majiang.server.security import Bucket
from majiang.server.state import AppState, address_of, token_of
from majiang.server.store import StoreError
from majiang.server.tables import Elsewhere
from majiang.server.views import Frame

OUTBOX = 256  # messages waiting for a client that reads slowly; past it older snapshots are dropped
SEND_TIMEOUT = 15.0  # seconds one frame may take to leave; a client stuck longer is dropped
FLOOD_CLOSE = 200  # messages dropped in a flood (none 10 s apart) before the socket is closed
FLOOD_WARN_GAP = 5.0  # seconds between two "slow down" errors
PONG = {"type": "pong"}


async def handle(table: LiveTable, seat: int | None, raw: str | None, size: int) -> dict | None:
    """One client message; returns the reply to send, if any. Never echoes what was sent."""
    msg = protocol.parse_client(raw, size)
    if isinstance(msg, Refusal):
        return ws_error(msg)
    if isinstance(msg, protocol.Ping):
        return PONG
    try:
        if seat is None:
            raise Refusal("seat.spectator")
        table.working()  # a player's message: reviews wait (``quiet``)
        await dispatch(table, seat, msg)
    except StoreError:  # the action was taken in hand and not kept: say so, not only "unavailable"
        return ws_refusal("store.not_stored")
    except InfrastructureError as exc:  # never its own text (it names tables, workers, the database)
        return ws_refusal(exc.code)
    except MajiangError as exc:
        return ws_error(exc)
    return None


async def dispatch(table: LiveTable, seat: int, msg) -> None:
    """A seated player's message, to the table's method for it."""
    if isinstance(msg, protocol.Act):
        await table.act(seat, msg.action.as_dict(), msg.seq)
    elif isinstance(msg, protocol.Ready):
        await table.set_ready(seat)
    elif isinstance(msg, protocol.Auto):
        await table.set_auto(seat, msg.on)
    elif isinstance(msg, protocol.Chat):
        await table.chat(seat, msg.phrase)
    elif isinstance(msg, protocol.Dissolve):
        await table.vote_dissolve(seat, msg.agree)
    elif isinstance(msg, protocol.Hints):
        await table.set_hints(seat, msg.on)


async def open_table(websocket: WebSocket, state: AppState, code: str) -> LiveTable | None:
    """The table a socket asks for; None (the socket told why and closed) when there is none."""
    address = address_of(websocket)
    misses = state.limits.code_misses
    taken = misses.take(address)  # a miss counted before the lookup, given back if the room exists
    if taken is None:
        await websocket.send_json(ws_refusal("rate.room_code_misses"))
        await websocket.close(code=1008)
        return None
    try:
        table = await state.tables.obtain(code) if CODE.fullmatch(code) else None
    except (Elsewhere, StoreError):
        misses.give_back(address, taken)
        await websocket.send_json(ws_refusal("table.moving_reconnect"))
        await websocket.close(code=1013)  # try again later: the page reconnects by itself
        return None
    if table is None:
        await websocket.send_json(ws_refusal("room.not_found"))
        await websocket.close()
    else:
        misses.give_back(address, taken)
    return table


class Session:
    """Everything for one client goes through its own bounded outbox, written by its own task: a
    client that reads slowly gets only the newest snapshot, and one that stops reading is dropped
    when a frame has waited ``SEND_TIMEOUT``; neither ever holds up the table."""

    def __init__(self, websocket: WebSocket, table: LiveTable, seat: int | None, player: str | None) -> None:
        self.websocket, self.table = websocket, table
        self.outbox: asyncio.Queue = asyncio.Queue(maxsize=OUTBOX)
        self.writing = asyncio.ensure_future(self.write())
        self.reading = asyncio.ensure_future(self.read())
        self.conn = Connection(self.enqueue, seat, player, kick=self.reading.cancel,
                               patches=websocket.query_params.get("patches") == "1")

    @property
    def seat(self) -> int | None:
        """The seat this socket plays now: the table reseats its connections when a friend who waited
        for the next hand sits down, or a four-person room swaps who sits out (no reload needed)."""
        return self.conn.seat

    async def write(self) -> None:
        while True:
            msg = await self.outbox.get()  # a snapshot's text (made once per frame), or a message
            async with asyncio.timeout(SEND_TIMEOUT):  # no task per message, unlike wait_for
                await (self.websocket.send_text(msg) if isinstance(msg, str) else self.websocket.send_json(msg))

    async def enqueue(self, msg: dict | str) -> None:
        if self.writing.done():
            raise ConnectionError("this client is gone")
        outbox = self.outbox
        if outbox.full():  # behind: only the newest view matters, as a whole snapshot
            waiting = [outbox.get_nowait() for _ in range(outbox.qsize())]
            for m in [m for m in waiting if not isinstance(m, str)][-(OUTBOX // 2):]:
                outbox.put_nowait(m)
            # frames were dropped (patches among them): the client gets the table as it stands,
            # whole, whatever this message is (``last_data`` already holds the newest frame)
            if any(isinstance(m, str) for m in waiting) and self.conn.last_data is not None:
                outbox.put_nowait(Frame(self.conn.last_data).with_clock())
                if isinstance(msg, str):
                    return  # a frame: the whole snapshot just queued includes it
        outbox.put_nowait(msg)

    async def read(self) -> None:
        bucket = Bucket()
        warned = last_drop = 0.0
        dropped = 0
        while True:
            message = await self.websocket.receive()
            if message["type"] == "websocket.disconnect":
                return
            raw = message.get("text")
            size = len(raw) if raw is not None else len(message.get("bytes") or b"")
            if not bucket.allow(min(size, protocol.MAX_MESSAGE)):  # a flood is dropped without a word ...
                now = time.monotonic()
                dropped = dropped + 1 if now - last_drop < 10 else 1
                last_drop = now
                if dropped > FLOOD_CLOSE:
                    return  # ... and a client that keeps on is closed
                if now - warned > FLOOD_WARN_GAP:
                    warned = now
                    await self.enqueue(ws_refusal("rate.too_many_messages"))
                continue
            reply = await handle(self.table, self.seat, raw, size)
            if reply is not None:
                await self.enqueue(reply)

    async def run(self) -> None:
        """Until the client goes (or stops reading, or floods): then the table forgets it."""
        self.table.connect(self.conn)
        try:
            await self.table.send_current(self.conn)
            await asyncio.wait({self.writing, self.reading}, return_when=asyncio.FIRST_COMPLETED)
        except (WebSocketDisconnect, ConnectionError):
            pass
        finally:
            self.table.disconnect(self.conn)
            for task in (self.writing, self.reading):
                task.cancel()
                # a socket that closed mid-send ends its task with that error, perhaps only after
                # the cancel: retrieved here, so it is not logged as an unretrieved exception
                task.add_done_callback(lambda t: t.cancelled() or t.exception())
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.websocket.close(code=1008), 2)


async def serve(websocket: WebSocket, state: AppState, code: str) -> None:
    """An accepted socket at the table ``code``: seated if its player has a seat there, else watching."""
    table = await open_table(websocket, state, code)
    if table is None:
        return
    player = await state.aio.player_by_token(token_of(websocket))
    seat = None
    if player is not None:
        ids = [s.get("player") for s in table.room["seats"]]
        if player["id"] in ids:
            seat = ids.index(player["id"])
    await Session(websocket, table, seat, player["id"] if player else None).run()
