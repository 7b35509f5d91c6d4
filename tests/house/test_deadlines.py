"""tests/deadlines.py: a test websocket that falls silent fails the wait in the seconds given."""

import time

import pytest

pytest.importorskip("starlette")
from starlette.applications import Starlette  # noqa: E402
from starlette.routing import WebSocketRoute  # noqa: E402
from starlette.testclient import TestClient, WebSocketTestSession  # noqa: E402
from starlette.websockets import WebSocketDisconnect  # noqa: E402

from deadlines import WEBSOCKET_DEADLINE, receive_json_within  # noqa: E402


async def once_then_silent(ws):
    await ws.accept()
    await ws.send_json({"type": "hello"})
    if (await ws.receive_json())["type"] == "close me":
        await ws.close()
        return
    await ws.receive()  # waits for a message the test never sends (then the disconnect)


APP = Starlette(routes=[WebSocketRoute("/ws", once_then_silent)])


def test_a_silent_websocket_fails_the_wait_after_its_deadline():
    with TestClient(APP) as c, c.websocket_connect("/ws") as ws:
        assert receive_json_within(ws, 5) == {"type": "hello"}
        ws.send_json({"type": "stay"})
        t0 = time.monotonic()
        with pytest.raises(AssertionError, match="no message on the websocket within 0.3 s"):
            receive_json_within(ws, 0.3)
        assert time.monotonic() - t0 < 5


def test_a_close_ends_the_wait_as_receive_json_does():
    with TestClient(APP) as c, c.websocket_connect("/ws") as ws:
        receive_json_within(ws, 5)
        ws.send_json({"type": "close me"})
        with pytest.raises(WebSocketDisconnect):
            receive_json_within(ws, 5)


def test_every_test_websocket_waits_at_most_the_deadline():
    """tests/conftest.py gave every receive (receive_json's too) the deadline."""
    assert WebSocketTestSession.receive.deadline == WEBSOCKET_DEADLINE
