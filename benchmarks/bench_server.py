"""Load: many concurrent tables on one server, each with a websocket client playing a seat.

    pip install -e '.[web]' websockets
    python benchmarks/bench_server.py [--tables 200] [--variant kawuxing] [--json]

Starts `majiang serve` on a free loopback port with a temporary SQLite database, creates the
tables over HTTP, then plays one hand at every table at once: the client at seat 0 answers each
decision with the first legal action (a win if there is one), bots take the other seats. Reports
the action round trip (sending an action until the snapshot that shows it) at p50/p99, hands
finished, and errors, which must be zero. Bounded: it stops after --timeout seconds.
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

    async with websockets.connect(f"{base_ws}/ws/{code}?token={token}", max_size=2 ** 22) as ws:
        sent_at = None
        sent_seq = None
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
            if sent_at is not None and msg["seq"] > sent_seq:
                latencies.append(time.perf_counter() - sent_at)
                sent_at = None
            if msg["settlement"] is not None:
                return True
            legal = (msg["view"] or {}).get("legal") or []
            if legal and sent_at is None:
                wins = [a for a in legal if a["type"] == "win"]
                sent_seq = msg["seq"]
                sent_at = time.perf_counter()
                last = json.dumps({"type": "action", "seq": msg["seq"], "action": (wins or legal)[0]})
                await ws.send(last)


async def run(args) -> dict:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    db = os.path.join(tempfile.mkdtemp(), "load.sqlite3")
    server = subprocess.Popen([sys.executable, "-m", "majiang", "serve", "--port", str(port), "--db",
                               f"sqlite:///{db}", "--bot-delay", str(args.bot_delay)],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(100):
            try:
                urllib.request.urlopen(base + "/api/docs", timeout=1)
                break
            except OSError:
                await asyncio.sleep(0.1)
        tables = []
        for i in range(args.tables):
            p = post(base, "/api/players", {"name": f"load{i}"})
            code = post(base, "/api/rooms", {"variant": args.variant, "hands": 1, "bots": "greedy"}, p["token"])["code"]
            post(base, f"/api/rooms/{code}/start", {}, p["token"])
            tables.append((code, p["token"]))
        latencies: list[float] = []
        errors: list[str] = []
        start = time.perf_counter()
        results = await asyncio.wait_for(asyncio.gather(
            *(play_table(f"ws://127.0.0.1:{port}", c, t, latencies, errors) for c, t in tables),
            return_exceptions=True), timeout=args.timeout)
        elapsed = time.perf_counter() - start
        finished = sum(1 for r in results if r is True)
        failures = [repr(r) for r in results if isinstance(r, Exception)]
        lat = sorted(latencies)
        pct = lambda q: lat[min(len(lat) - 1, int(q * len(lat)))] * 1000 if lat else float("nan")  # noqa: E731
        return {"tables": args.tables, "finished": finished, "seconds": elapsed, "actions": len(lat),
                "p50_ms": pct(0.50), "p99_ms": pct(0.99), "mean_ms": statistics.mean(lat) * 1000 if lat else None,
                "errors": len(errors) + len(failures), "error_samples": (errors + failures)[:3]}
    finally:
        server.terminate()
        server.wait(timeout=10)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tables", type=int, default=200)
    ap.add_argument("--variant", default="kawuxing", choices=["kawuxing", "sichuan"])
    ap.add_argument("--bot-delay", type=float, default=0.05)
    ap.add_argument("--timeout", type=float, default=600)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    out = asyncio.run(run(args))
    if args.json:
        print(json.dumps(out, indent=2))
        return
    print(f"{out['tables']} concurrent {args.variant} tables on one server, loopback: {out['finished']} hands "
          f"finished in {out['seconds']:.1f} s")
    print(f"action round trip: p50 {out['p50_ms']:.1f} ms, p99 {out['p99_ms']:.1f} ms over {out['actions']} actions; "
          f"errors {out['errors']}")


if __name__ == "__main__":
    main()
