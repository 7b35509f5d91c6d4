"""A real server for the tests that need real sockets (the browser tests, a slow reader's kernel
buffers): an ASGI app served by uvicorn in a thread on a free port of 127.0.0.1."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextmanager
def serving(app, start_within: float = 10.0) -> Iterator[int]:
    """Serve ``app`` until the block ends; yields the port. Fails if the server has not started in
    ``start_within`` seconds, and stops it (at most 5 s) on the way out."""
    import uvicorn

    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + start_within
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            server.should_exit = True
            raise AssertionError(f"the test server did not start within {start_within} s")
        time.sleep(0.05)
    try:
        yield port
    finally:
        server.should_exit = True
        thread.join(timeout=5)
