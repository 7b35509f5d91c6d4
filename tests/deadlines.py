"""Waits with a deadline for the tests: a wait that cannot end fails in seconds, naming what it waited
for, instead of holding the run until pytest-timeout's global limit (pyproject.toml) ends it.

Starlette's test websocket waits for ever in ``receive()``; tests/conftest.py gives every receive
``WEBSOCKET_DEADLINE`` (``give_test_websockets_a_deadline``, before each test once the test client is
imported), and a test that knows its message comes sooner says so with ``receive_json_within``.
(Playwright's waits have their own: 30 s by default.)
"""

from __future__ import annotations

import json
from typing import Any

import anyio

# Generous: the longest a test's server is silent is a timer the test set running out (up to 90 s: a
# claim window of 60 s in test_server_tuoguan, a ready timer of 90 s in test_server), on a busy machine.
WEBSOCKET_DEADLINE = 150.0


async def _next_message(ws: Any, seconds: float) -> dict:
    with anyio.fail_after(seconds):
        return await ws._send_rx.receive()


def receive_within(ws: Any, seconds: float) -> dict:
    """The next ASGI message a Starlette test websocket ``ws`` sends, or an AssertionError after
    ``seconds``."""
    try:
        return ws.portal.call(_next_message, ws, seconds)
    except TimeoutError:
        raise AssertionError(f"no message on the websocket within {seconds:g} s") from None


def receive_json_within(ws: Any, seconds: float) -> Any:
    """``ws.receive_json()`` that fails after ``seconds`` instead of waiting for ever."""
    message = receive_within(ws, seconds)
    ws._raise_on_close(message)  # a close raises WebSocketDisconnect, as receive_json does
    return json.loads(message["text"] if message.get("text") is not None else message["bytes"])


def give_test_websockets_a_deadline(seconds: float = WEBSOCKET_DEADLINE) -> None:
    """Every Starlette test websocket's ``receive`` (so ``receive_json``, ``receive_text`` and the
    connect's accept) fails after ``seconds`` of silence. Nothing happens without Starlette."""
    try:
        from starlette.testclient import WebSocketTestSession
    except ImportError:
        return
    if getattr(WebSocketTestSession.receive, "deadline", None) is not None:
        return  # given already

    def receive(self: Any) -> dict:
        return receive_within(self, seconds)

    receive.deadline = seconds  # type: ignore[attr-defined]  (tests/house/test_deadlines.py checks it holds)

    WebSocketTestSession.receive = receive  # type: ignore[method-assign]
