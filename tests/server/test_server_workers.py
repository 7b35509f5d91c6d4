"""Two worker processes on one PostgreSQL behind HAProxy, started by deploy/run-local.sh: rooms made
through either worker are played to the end through the router; a worker killed with SIGKILL in the
middle of a hand loses no acknowledged action, its table comes up on the other worker within the
lease time and the client reconnects to it; the worker started again takes new tables.

Skipped without PostgreSQL's binaries, haproxy, psycopg or the websockets client.
"""

import glob
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("psycopg")
pytest.importorskip("fastapi")
httpx = pytest.importorskip("httpx")
ws_client = pytest.importorskip("websockets.sync.client")
if not glob.glob("/usr/lib/postgresql/*/bin/initdb") and shutil.which("pg_config") is None:
    pytest.skip("needs PostgreSQL's server binaries", allow_module_level=True)
if shutil.which("haproxy") is None:
    pytest.skip("needs haproxy", allow_module_level=True)
if os.geteuid() == 0 and shutil.which("runuser") is None:
    pytest.skip("needs runuser to run PostgreSQL as root", allow_module_level=True)

from sqlalchemy import create_engine, text  # noqa: E402

from majiang.server.db_url import normalise_url  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
LEASE = 3.0
# the dead worker's lease, HAProxy's health check (inter 1 s, fall 2), the page's retry, and slack
# for a loaded machine (measured: about LEASE + 0.2 s)
FAILOVER = LEASE + 6.0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Cluster:
    def __init__(self) -> None:
        self.ports = {"PORT": free_port(), "W1_PORT": free_port(), "W2_PORT": free_port(), "PGPORT": free_port()}
        env = dict(os.environ, PYTHON=sys.executable, PYTHONPATH=str(ROOT / "src"),
                   SERVE_ARGS=f"--bot-workers 0 --bot-delay 0.05 --lease-seconds {LEASE:g}",
                   **{k: str(v) for k, v in self.ports.items()})
        self.env = env
        self.proc = subprocess.Popen(["bash", str(ROOT / "deploy" / "run-local.sh")], env=env, text=True,
                                     stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True)
        self.pids: dict[str, int] = {}
        self.lines: list[str] = []
        try:
            self._wait_until_up()
        except BaseException:
            self.proc.send_signal(signal.SIGTERM)  # the script stops what it started
            self.proc.wait(timeout=60)
            raise
        self.base = f"http://127.0.0.1:{self.ports['PORT']}"
        self.http = httpx.Client(base_url=self.base, timeout=20)
        self.db = create_engine(normalise_url(self.url))
        self.started: list[subprocess.Popen] = []

    def _wait_until_up(self) -> None:
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError("run-local.sh stopped:\n" + "".join(self.lines))
            self.lines.append(line)
            if line.startswith("run-local: worker "):
                name, pid = line.split()[2], int(line.split()[4])
                self.pids[name] = pid
            if line.startswith("run-local: database "):
                self.url = line.split()[2]
            if line.startswith("run-local: open "):
                break
        else:
            raise RuntimeError("run-local.sh did not start:\n" + "".join(self.lines))

    def owner(self, code: str) -> str | None:
        with self.db.connect() as conn:
            row = conn.execute(text("SELECT worker FROM table_leases WHERE code = :c"), {"c": code}).first()
        return row[0] if row else None

    def stored_actions(self, code: str, seat: int) -> list[dict]:
        with self.db.connect() as conn:
            game = conn.execute(text("SELECT id FROM games WHERE room = :c ORDER BY hand_index DESC"),
                                {"c": code}).scalar()
            lines = conn.execute(text("SELECT line FROM game_lines WHERE game = :g ORDER BY n"), {"g": game}).scalars()
            records = [json.loads(x) for x in lines]
        return [r["action"] for r in records if r.get("type") == "action" and int(r["seat"]) == seat]

    def start_worker(self, name: str) -> None:
        port = self.ports["W1_PORT" if name == "w1" else "W2_PORT"]
        cmd = [sys.executable, "-m", "majiang", "serve", "--port", str(port), "--db", self.url, "--worker-id", name,
               "--bot-workers", "0", "--bot-delay", "0.05", "--lease-seconds", f"{LEASE:g}"]
        self.started.append(subprocess.Popen(cmd, env=self.env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        self.pids[name] = self.started[-1].pid

    def close(self) -> None:
        self.http.close()
        self.db.dispose()
        for p in self.started:
            p.terminate()
            p.wait(timeout=20)
        self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            os.killpg(self.proc.pid, signal.SIGKILL)


@pytest.fixture(scope="module")
def cluster():
    c = Cluster()
    try:
        yield c
    finally:
        c.close()


def new_player(cluster, name="ana") -> dict:
    r = cluster.http.post("/api/players", json={"name": name})
    assert r.status_code == 200, r.text
    return r.json()


def new_room(cluster, token: str, variant="sichuan") -> str:
    h = {"X-Token": token}
    r = cluster.http.post("/api/rooms", json={"variant": variant, "hands": 1, "bots": "greedy"}, headers=h)
    assert r.status_code == 200, r.text
    code = r.json()["code"]
    assert cluster.http.post(f"/api/rooms/{code}/start", headers=h).json() == {"status": "playing"}
    return code


def open_socket(url: str, token: str):
    try:  # websockets 16+: a connection kept open outside a with block says so
        return ws_client.connect(url, additional_headers={"X-Token": token}, open_timeout=5, legacy=True)
    except TypeError:
        return ws_client.connect(url, additional_headers={"X-Token": token}, open_timeout=5)


def connect(cluster, code: str, token: str, within: float = 20.0):
    """A websocket to the room through the router, retried as the page retries (every 0.5 s); returns
    it with its first snapshot."""
    url = cluster.base.replace("http", "ws") + f"/ws/{code}"
    deadline = time.monotonic() + within
    while True:
        try:
            ws = open_socket(url, token)
            while True:
                msg = json.loads(ws.recv(timeout=within))
                if msg["type"] == "snapshot":
                    return ws, msg
                if msg["type"] == "error":
                    raise ConnectionError(msg["message"])
        except Exception:  # noqa: BLE001 - refused, closed, moving: try again
            if time.monotonic() >= deadline:
                raise
            time.sleep(0.5)


class Player:
    """Answers every decision with the first legal action (a win when there is one); ``acked`` is
    every action the server acknowledged (a later frame shows the decision answered)."""

    def __init__(self, ws, first: dict) -> None:
        self.ws = ws
        self.snap = first
        self.sent: tuple[int, dict] | None = None
        self.acked: list[dict] = []

    def see(self, msg: dict) -> None:
        if msg["type"] != "snapshot":
            return
        if self.sent is not None and (msg["seq"] != self.sent[0] or not (msg["view"] or {}).get("legal")):
            self.acked.append(self.sent[1])
            self.sent = None
        self.snap = msg

    def step(self) -> bool:
        """Answer the current decision if there is one; False once the hand is settled."""
        msg = self.snap
        if msg["settlement"] is not None:
            return False
        legal = (msg["view"] or {}).get("legal") or []
        if legal and (self.sent is None or self.sent[0] != msg["seq"]):
            action = next((a for a in legal if a["type"] == "win"), legal[0])
            self.sent = (msg["seq"], action)
            self.ws.send(json.dumps({"type": "action", "seq": msg["seq"], "action": action}))
        self.see(json.loads(self.ws.recv(timeout=30)))
        return True

    def play(self, decisions: int | None = None) -> dict:
        while self.step():
            if decisions is not None and len(self.acked) >= decisions:
                break
        return self.snap


def test_rooms_through_either_worker_are_played_to_the_end(cluster):
    # the router hashes room codes, so rooms are made until each worker owns one (a handful at most:
    # five in a row on one worker happened in CI), and one room per worker is played to the end
    played = {}
    for i in range(24):
        me = new_player(cluster, f"p{i}")
        code = new_room(cluster, me["token"], "sichuan" if i % 2 else "kawuxing")
        owner = cluster.owner(code)
        if owner in played:
            continue
        ws, first = connect(cluster, code, me["token"])
        with ws:
            final = Player(ws, first).play()
        assert sum(final["settlement"]["totals"]) == 0 and final["room"]["match_over"]
        played[owner] = code
        if len(played) == 2:
            break
    assert set(played) == {"w1", "w2"}  # both workers drove tables
    # history and room lists from any worker (round robin)
    for _ in range(2):
        assert cluster.http.get(f"/api/rooms/{code}").json()["status"] == "finished"


def test_a_killed_worker_loses_no_acknowledged_action_and_its_table_moves(cluster):
    me = new_player(cluster, "kim")
    code = new_room(cluster, me["token"], "sichuan")
    victim = cluster.owner(code)
    ws, first = connect(cluster, code, me["token"])
    p = Player(ws, first)
    p.play(decisions=4)
    assert p.snap["settlement"] is None and len(p.acked) >= 4
    acked = list(p.acked)
    if (p.snap["view"] or {}).get("legal"):  # one more, sent and not waited for: it may or may not be stored
        p.ws.send(json.dumps({"type": "action", "seq": p.snap["seq"], "action": p.snap["view"]["legal"][0]}))
    os.kill(cluster.pids[victim], signal.SIGKILL)
    killed = time.monotonic()
    ws.close()
    ws, first = connect(cluster, code, me["token"], within=30)  # the page's reconnection
    moved = time.monotonic() - killed
    assert moved < FAILOVER, f"the table came back after {moved:.1f}s"
    survivor = cluster.owner(code)
    assert survivor not in (None, victim)
    stored = cluster.stored_actions(code, 0)
    assert stored[:len(acked)] == acked  # every acknowledged action is in the log, in order
    with ws:
        final = Player(ws, first).play()
    assert sum(final["settlement"]["totals"]) == 0
    assert cluster.stored_actions(code, 0)[:len(acked)] == acked
    print(f"failover: table back on {survivor} {moved:.2f}s after SIGKILL of {victim}")

    # the killed worker comes back: the router sends it its share of new rooms, and it takes them
    cluster.start_worker(victim)
    deadline = time.monotonic() + 30
    taken = None
    while taken is None and time.monotonic() < deadline:
        time.sleep(1.0)
        host = new_player(cluster, "back")
        for _ in range(4):
            room = new_room(cluster, host["token"], "kawuxing")
            if cluster.owner(room) == victim:
                taken = (host, room)
                break
            ws, first = connect(cluster, room, host["token"])  # finish it (5 unfinished rooms per host)
            with ws:
                Player(ws, first).play()
    assert taken is not None, f"{victim} took no new table after it came back"
    ws, first = connect(cluster, taken[1], taken[0]["token"])
    with ws:
        final = Player(ws, first).play()
    assert sum(final["settlement"]["totals"]) == 0 and cluster.owner(taken[1]) == victim


def test_a_page_reconnects_across_a_failover_without_a_reload(cluster):
    """The browser client at a table whose worker is killed: the page reconnects through the router
    by itself, gets the table from the other worker, and was never reloaded."""
    playwright_api = pytest.importorskip("playwright.sync_api")
    chromium = shutil.which("chromium") or "/usr/bin/chromium"
    if not os.path.exists(chromium):
        pytest.skip("Debian's chromium is not installed")
    from majiang.server.security import COOKIE

    me = new_player(cluster, "pat")
    code = new_room(cluster, me["token"], "kawuxing")
    victim = cluster.owner(code)
    with playwright_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=["--headless", "--no-sandbox", "--disable-gpu"])
        try:
            context = browser.new_context(viewport={"width": 390, "height": 844})
            context.add_cookies([{"name": COOKIE, "value": me["token"], "url": cluster.base}])
            page = context.new_page()
            page.goto(f"{cluster.base}/?room={code}")

            def until(expression: str, seconds: float = 30.0):
                deadline = time.monotonic() + seconds
                while time.monotonic() < deadline:
                    value = page.evaluate(expression)
                    if value:
                        return value
                    page.wait_for_timeout(50)
                raise AssertionError(f"timed out waiting for {expression}")

            until("+(document.body.dataset.frames || 0) > 0")
            page.evaluate("window.sameDocument = true")  # gone if the page is ever reloaded
            before = int(page.evaluate("+document.body.dataset.frames"))
            os.kill(cluster.pids[victim], signal.SIGKILL)
            killed = time.monotonic()
            until(f"+document.body.dataset.frames > {before}", FAILOVER + 10)
            deadline = time.monotonic() + FAILOVER
            while cluster.owner(code) in (None, victim) and time.monotonic() < deadline:
                time.sleep(0.2)
            assert cluster.owner(code) not in (None, victim)
            until("document.querySelectorAll('#table .seat').length === 3")
            assert page.evaluate("window.sameDocument === true")  # reconnected in place, no reload
            print(f"browser failover: the page had the table again {time.monotonic() - killed:.2f}s after SIGKILL")
        finally:
            browser.close()
    cluster.start_worker(victim)  # for any test after this one
