"""Load: many concurrent tables on one server, each with a websocket client playing a seat.

    pip install -e '.[web]' websockets
    python benchmarks/bench_server.py [--tables 200] [--variant kawuxing] [--two-workers] [--json]

Starts `majiang serve` on a free loopback port with a temporary SQLite database, creates the
tables over HTTP, then plays one hand at every table at once: the client at seat 0 answers each
decision with the first legal action (a win if there is one), bots take the other seats. Reports
the action round trip (sending an action until the snapshot that shows it) at p50/p99, hands
finished, and errors, which must be zero. Bounded: it stops after --timeout seconds.

With --two-workers it adds a row for two workers on one PostgreSQL behind HAProxy on the same
machine, started by deploy/run-local.sh (needs PostgreSQL's binaries and haproxy). With --base URL
it measures a server already running there instead, for example two workers on one
PostgreSQL behind HAProxy (start them with deploy/run-local.sh and SERVE_ARGS="--new-players 100000",
since every client then comes from one address).

Then the same again while one more client floods the server (huge messages, and small ones as fast
as it can send): the two rows side by side show what a flood costs everyone else's tables.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request


def free_port() -> int:
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def post(base: str, path: str, body: dict, token: str | None = None) -> dict:
    req = urllib.request.Request(base + path, data=json.dumps(body).encode(), method="POST",
                                 headers={"Content-Type": "application/json", "X-Token": token or ""})
    with urllib.request.urlopen(req, timeout=30) as r:
        return json.loads(r.read())


async def play_table(base_ws: str, code: str, token: str, latencies: list, errors: list) -> bool:
    import websockets

    async with websockets.connect(f"{base_ws}/ws/{code}", additional_headers={"X-Token": token},
                                  max_size=2 ** 22) as ws:
        sent_at = None
        last = None
        while True:
            msg = json.loads(await ws.recv())
            if msg["type"] == "error":
                if "too many" in msg["message"] and last is not None:
                    await asyncio.sleep(0.1)  # rate-limited: not an error of the server, say it again
                    await ws.send(last)
                    continue
                errors.append(msg["message"])
                sent_at = None
                continue
            if msg["type"] != "snapshot":
                continue
            if sent_at is not None:  # a seat is sent a frame only when what it sees changed: this one
                latencies.append(time.perf_counter() - sent_at)
                sent_at = None
            if msg["settlement"] is not None:
                return True
            legal = (msg["view"] or {}).get("legal") or []
            if legal and sent_at is None:
                wins = [a for a in legal if a["type"] == "win"]
                sent_at = time.perf_counter()
                last = json.dumps({"type": "action", "seq": msg["seq"], "action": (wins or legal)[0]})
                await ws.send(last)


def flood_until_terminated(url: str) -> None:
    import signal

    counts = {"bytes": 0, "messages": 0, "closed": None}
    stop = asyncio.Event()

    async def go():
        asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)
        await flood(url, stop, counts)

    asyncio.run(go())
    print(json.dumps(counts), flush=True)


async def flood(url: str, stop: asyncio.Event, counts: dict) -> None:
    """A hostile spectator: 1 MB messages, then 2 KB ones and pings as fast as the socket takes
    them; closed by the server, it connects again and goes on until the run ends."""
    import websockets

    big = "[" + "1," * 500_000 + "1]"
    medium = '{"type":"ping","pad":"' + "x" * 2000 + '"}'
    while not stop.is_set():
        try:
            async with websockets.connect(url, max_size=2 ** 22) as ws:
                while not stop.is_set():
                    await ws.send(big)
                    counts["bytes"] += len(big)
                    for _ in range(100):
                        await ws.send(medium)
                        await ws.send('{"type":"ping"}')
                        counts["messages"] += 2
                        counts["bytes"] += len(medium) + 15
                    await asyncio.sleep(0)
        except Exception:  # noqa: BLE001 - the server closes a flooding client: that is the point
            counts["closed"] = (counts["closed"] or 0) + 1
            await asyncio.sleep(0.01)


async def one_run(base: str, args, flooding: bool) -> dict:
    ws_base = base.replace("http", "ws", 1)
    tables = []
    for i in range(args.tables):
        p = post(base, "/api/players", {"name": f"load{i}"})
        code = post(base, "/api/rooms", {"variant": args.variant, "hands": 1, "bots": "greedy"}, p["token"])["code"]
        post(base, f"/api/rooms/{code}/start", {}, p["token"])
        tables.append((code, p["token"]))
    latencies: list[float] = []
    errors: list[str] = []
    flooder = None
    if flooding:  # its own process, so that its sending does not slow the measuring clients here
        flooder = subprocess.Popen([sys.executable, __file__, "--flood-ws", f"{ws_base}/ws/{tables[0][0]}"],
                                   stdout=subprocess.PIPE, text=True)
        await asyncio.sleep(1.0)
    start = time.perf_counter()
    results = await asyncio.wait_for(asyncio.gather(
        *(play_table(ws_base, c, t, latencies, errors) for c, t in tables),
        return_exceptions=True), timeout=args.timeout)
    elapsed = time.perf_counter() - start
    counts = {"bytes": 0, "messages": 0, "closed": None}
    if flooder is not None:
        flooder.terminate()
        out, _ = flooder.communicate(timeout=30)
        if out.strip():
            counts = json.loads(out.strip().splitlines()[-1])
    finished = sum(1 for r in results if r is True)
    failures = [repr(r) for r in results if isinstance(r, Exception)]
    lat = sorted(latencies)
    pct = lambda q: lat[min(len(lat) - 1, int(q * len(lat)))] * 1000 if lat else float("nan")  # noqa: E731
    return {"tables": args.tables, "flood": flooding, "finished": finished, "seconds": elapsed, "actions": len(lat),
            "p50_ms": pct(0.50), "p99_ms": pct(0.99), "mean_ms": statistics.mean(lat) * 1000 if lat else None,
            "errors": len(errors) + len(failures), "error_samples": (errors + failures)[:3],
            "flood_sent_mb": counts["bytes"] / 1e6, "flood_messages": counts["messages"],
            "flooder_closed_by_server": counts["closed"]}


async def two_workers(args) -> dict:
    """The same load through the router of deploy/run-local.sh: two workers, one PostgreSQL."""
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    port = free_port()
    env = dict(os.environ, PYTHON=sys.executable, PORT=str(port), W1_PORT=str(free_port()),
               W2_PORT=str(free_port()), PGPORT=str(free_port()),
               SERVE_ARGS=f"--bot-delay {args.bot_delay} --new-players {10 * args.tables + 10} "
                        f"--sockets-per-address {2 * args.tables + 10}")
    if os.path.isdir(os.path.join(root, "src", "majiang")):
        env["PYTHONPATH"] = os.path.join(root, "src") + os.pathsep + env.get("PYTHONPATH", "")
    script = subprocess.Popen(["bash", os.path.join(root, "deploy", "run-local.sh")], env=env, text=True,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        for line in script.stdout:
            if line.startswith("run-local: open "):
                break
        else:
            raise RuntimeError("deploy/run-local.sh did not start")
        row = await one_run(f"http://127.0.0.1:{port}", args, flooding=False)
        row["label"] = "two workers behind the router"
        return row
    finally:
        script.terminate()
        script.wait(timeout=60)


async def run(args) -> list[dict]:
    if args.base:
        rows = [await one_run(args.base, args, flooding=False)]
        if not args.no_flood:
            rows.append(await one_run(args.base, args, flooding=True))
        return rows
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    db = os.path.join(tempfile.mkdtemp(), "load.sqlite3")
    server = subprocess.Popen([sys.executable, "-m", "majiang", "serve", "--port", str(port), "--db",
                               f"sqlite:///{db}", "--bot-delay", str(args.bot_delay),
                               "--new-players", str(10 * args.tables + 10),
                               "--sockets-per-address", str(2 * args.tables + 10)],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(100):
            try:
                urllib.request.urlopen(base + "/", timeout=1)
                break
            except OSError:
                await asyncio.sleep(0.1)
        rows = [await one_run(base, args, flooding=False)]
        if not args.no_flood:
            rows.append(await one_run(base, args, flooding=True))
    finally:
        server.terminate()
        server.wait(timeout=10)
    if args.two_workers:
        rows.append(await two_workers(args))
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tables", type=int, default=200)
    ap.add_argument("--variant", default="kawuxing", choices=["kawuxing", "sichuan"])
    ap.add_argument("--bot-delay", type=float, default=0.05)
    ap.add_argument("--timeout", type=float, default=600)
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--no-flood", action="store_true", help="skip the run with a flooding client")
    ap.add_argument("--base", metavar="URL", help="measure the server already running at URL (e.g. the router "
                    "of deploy/run-local.sh) instead of starting one")
    ap.add_argument("--two-workers", action="store_true", help="add a row for two workers on one PostgreSQL "
                    "behind HAProxy (deploy/run-local.sh)")
    ap.add_argument("--flood-ws", help=argparse.SUPPRESS)  # the flooding client's own process
    args = ap.parse_args()
    if args.flood_ws:
        flood_until_terminated(args.flood_ws)
        return
    rows = asyncio.run(run(args))
    if args.json:
        print(json.dumps(rows, indent=2))
        return
    where = f"the server at {args.base}" if args.base else f"one server, loopback, bots {args.bot_delay} s"
    print(f"{args.tables} concurrent {args.variant} tables on {where}:")
    print(f"{'':<28}{'finished':>9}{'seconds':>9}{'p50 ms':>9}{'p99 ms':>9}{'actions':>9}{'errors':>8}")
    for r in rows:
        label = r.get("label") or ("with one client flooding" if r["flood"] else "quiet")
        print(f"{label:<28}{r['finished']:>9}{r['seconds']:>9.1f}{r['p50_ms']:>9.1f}{r['p99_ms']:>9.1f}"
              f"{r['actions']:>9}{r['errors']:>8}")
        if r["flood"]:
            print(f"  (the flooder sent {r['flood_sent_mb']:.0f} MB and {r['flood_messages']} small messages; "
                  f"the server closed it {r['flooder_closed_by_server'] or 0} times and it came back)")


if __name__ == "__main__":
    main()
