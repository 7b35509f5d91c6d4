"""Slow and silent HTTP clients: uvicorn closes a kept-alive connection that stays idle for its
``timeout_keep_alive``, but waits without end for the head of a request (a connection that sends
nothing, or a header line now and then). Each such connection holds an open file; enough of them
lock everyone else out. ``with_head_timeout`` gives uvicorn's own protocol a deadline for that head.
"""

from __future__ import annotations

import asyncio

HEAD_SECONDS = 10.0  # from a connection (or the end of its last response) to a request's whole head
KEEP_ALIVE_SECONDS = 5  # an idle kept-alive connection is closed after this (uvicorn's own timer)


def with_head_timeout(seconds: float = HEAD_SECONDS) -> type[asyncio.Protocol]:
    """uvicorn's HTTP protocol (httptools or h11, as it would choose) that closes a connection whose
    request head has not arrived ``seconds`` after it was opened or its previous response ended.
    A connection upgraded to a websocket is left alone (its protocol is another one then)."""
    from uvicorn.protocols.http.auto import AutoHTTPProtocol

    class HeadTimeoutProtocol(AutoHTTPProtocol):  # type: ignore[misc, valid-type]
        head_seconds = seconds
        _head_timer: asyncio.TimerHandle | None = None

        def connection_made(self, transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            self._start_head_timer()

        def data_received(self, data: bytes) -> None:
            if self._head_timer is None and self._waiting_for_head():
                self._start_head_timer()  # a new request after a response: its head has a deadline too
            super().data_received(data)

        def connection_lost(self, exc) -> None:
            if self._head_timer is not None:
                self._head_timer.cancel()
                self._head_timer = None
            super().connection_lost(exc)

        def _waiting_for_head(self) -> bool:
            return self.cycle is None or self.cycle.response_complete

        def _start_head_timer(self) -> None:
            self._head_timer = self.loop.call_later(self.head_seconds, self._head_late, self.cycle)

        def _head_late(self, cycle_then) -> None:
            self._head_timer = None
            transport = self.transport
            if transport.is_closing() or transport.get_protocol() is not self:
                return  # closed already, or a websocket now
            if self.cycle is cycle_then and self._waiting_for_head():
                transport.close()  # no request began since the deadline was set

    return HeadTimeoutProtocol
