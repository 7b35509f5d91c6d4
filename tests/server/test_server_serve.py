"""``majiang serve`` as a process (issue #29): connections that send nothing, or a request head a
line at a time, are closed after the head timeout while a websocket lives on; SIGTERM stops the
server and every process it started (the bot pool's forkserver, its resource tracker)."""

import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("fastapi")
httpx = pytest.importorskip("httpx")
ws_client = pytest.importorskip("websockets.sync.client")

ROOT = Path(__file__).resolve().parents[2]
HEAD = 1.0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def descendants(pid: int) -> set[int]:
    """Every living process under ``pid`` (read from /proc)."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            ppid = int(stat.rsplit(")", 1)[1].split()[1])
            children.setdefault(ppid, []).append(int(entry))
    found, todo = set(), [pid]
    while todo:
        for c in children.get(todo.pop(), []):
            found.add(c)
            todo.append(c)
    return found


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


@pytest.fixture
def served(tmp_path):
    port = free_port()
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src"), HOME=str(tmp_path))
    proc = subprocess.Popen([sys.executable, "-m", "majiang", "serve", "--port", str(port), "--db",
                             f"sqlite:///{tmp_path / 's.sqlite3'}", "--bot-workers", "2", "--bot-delay", "0",
                             "--head-timeout", str(HEAD)], env=env, stdout=subprocess.DEVNULL,
                            stderr=open(tmp_path / "serve.err", "wb"))  # noqa: SIM115 - the process holds it
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while True:
        try:
            if httpx.get(base + "/api/server", timeout=2).status_code == 200:
                break
        except httpx.HTTPError:
            pass
        assert proc.poll() is None and time.monotonic() < deadline, "majiang serve did not start"
        time.sleep(0.2)
    yield proc, port, base
    if proc.poll() is None:
        proc.kill()
        proc.wait(timeout=20)


def closed_within(sock: socket.socket, seconds: float, drip: bytes = b"") -> float | None:
    """Seconds until the server closed ``sock`` (None: still open after ``seconds``); with ``drip``,
    one more header line is sent every 0.2 s meanwhile."""
    t0 = time.monotonic()
    sock.settimeout(0.2)
    while time.monotonic() - t0 < seconds:
        try:
            if sock.recv(4096) == b"":
                return time.monotonic() - t0
        except TimeoutError:
            pass
        except OSError:
            return time.monotonic() - t0
        if drip:
            try:
                sock.sendall(drip)
            except OSError:
                return time.monotonic() - t0
    return None


def test_silent_and_slow_connections_are_closed_and_websockets_are_not(served):
    proc, port, base = served
    silent = socket.create_connection(("127.0.0.1", port))
    slow = socket.create_connection(("127.0.0.1", port))
    slow.sendall(b"GET /api/server HTTP/1.1\r\nHost: 127.0.0.1\r\n")
    with silent, slow:
        took = closed_within(silent, HEAD + 4)
        assert took is not None and took < HEAD + 2, "a connection that sends nothing stays open"
        took = closed_within(slow, HEAD + 4, drip=b"X-Slow: 1\r\n")
        assert took is not None and took < HEAD + 2, "a head sent a line at a time keeps its connection"
    me = httpx.post(base + "/api/players", json={"name": "ana"}).json()
    code = httpx.post(base + "/api/rooms", json={"variant": "sichuan", "hands": 1},
                      headers={"X-Token": me["token"]}).json()["code"]
    url = base.replace("http", "ws") + f"/ws/{code}"
    with ws_client.connect(url, additional_headers={"X-Token": me["token"]}, open_timeout=5) as ws:
        assert json.loads(ws.recv(timeout=5))["type"] == "snapshot"
        time.sleep(HEAD + 1)  # past the head timeout: an open websocket is not a slow request
        ws.send(json.dumps({"type": "ping"}))
        assert json.loads(ws.recv(timeout=5)) == {"type": "pong"}
    assert proc.poll() is None


def stop_and_find_leftovers(proc, stop, settle: float) -> list[int]:
    """Wait for the bot pool to start, stop the server with ``stop``, and return the processes of
    its pool still alive ``settle`` seconds later (killed, so a failing test leaves none)."""
    deadline = time.monotonic() + 20
    while len(descendants(proc.pid)) < 3 and time.monotonic() < deadline:
        time.sleep(0.2)  # the bot pool starts with the server (its forkserver and workers)
    started = descendants(proc.pid)
    assert started, "the bot pool started no process"
    stop()
    assert proc.wait(timeout=30) is not None
    deadline = time.monotonic() + settle
    while any(alive(p) for p in started) and time.monotonic() < deadline:
        time.sleep(0.2)
    left = [p for p in started if alive(p)]
    for p in left:
        os.kill(p, signal.SIGKILL)
    return left


def test_sigterm_leaves_no_process_behind(served):
    proc, port, base = served
    left = stop_and_find_leftovers(proc, lambda: proc.send_signal(signal.SIGTERM), settle=10)
    assert not left, "processes of the stopped server are still running"


def test_sigkill_leaves_no_process_behind(served):
    """Killed outright (no handler runs), the server's bot pool still ends: its forkserver and
    workers watch their parent and exit once it is gone (server/orphans.py)."""
    proc, port, base = served
    left = stop_and_find_leftovers(proc, proc.kill, settle=15)
    assert not left, "processes of the killed server are still running"


def test_a_chunked_body_past_the_limit_is_a_413_and_one_log_line(served, tmp_path):
    """Issue #46: a 17 KB body sent in chunks (no Content-Length) to the real server: 413, and the
    server's log says so in one line, no traceback."""
    proc, port, base = served
    body = b"".join(b"%x\r\n%s\r\n" % (1024, b" " * 1024) for _ in range(17)) + b"0\r\n\r\n"
    with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
        s.sendall(b"POST /api/players HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                  b"Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n" + body)
        answer = b""
        while chunk := s.recv(65536):
            answer += chunk
    assert answer.startswith(b"HTTP/1.1 413"), answer[:200]
    assert httpx.get(base + "/api/server", timeout=5).status_code == 200  # and it serves on
    time.sleep(0.3)
    log = (tmp_path / "serve.err").read_text(errors="replace")
    lines = [line for line in log.splitlines() if "(413)" in line]
    assert len(lines) == 1 and "Traceback" not in log, log[-2000:]
