"""Load: many concurrent tables on one server, each with a websocket client playing a seat.

    pip install -e '.[web]' websockets
    python benchmarks/bench_server.py [--tables 200] [--variant kawuxing] [--two-workers] [--json]

Starts `majiang serve` on a free loopback port with a temporary SQLite database, creates the
tables over HTTP, then plays one hand at every table at once: the client at seat 0 answers each
decision with the first legal action (a win if there is one), bots take the other seats. Reports
the action round trip (sending an action until the snapshot that shows it) at p50/p99, also
counted only once every client has its table (the crowd of connections at the start aside), how
long that took, hands finished, and errors, which must be zero. Bounded: it stops after --timeout seconds.

With --two-workers it adds a row for two workers on one PostgreSQL behind HAProxy on the same
machine, started by deploy/run-local.sh (needs PostgreSQL's binaries and haproxy). With --base URL
it measures a server already running there instead, for example two workers on one
PostgreSQL behind HAProxy (start them with deploy/run-local.sh and SERVE_ARGS="--new-players 100000",
since every client then comes from one address).

With --reviews N, N more hands are played first (one player each) and, as the load starts, each
player asks for the 复盘 of their hand: up to N reviews queued or computing in the server's review
processes (idle CPU priority, and only while the tables are quiet: server/quiet.py) while the tables
play (the row counts those done during the load and after it, and their CPU is counted in the
pool's), printed under the same load without reviews on the same server, run first: a table's
latency should not move. --review-quiet-ms 0 runs them beside the busy tables.

Then the same again while one more client floods the server (huge messages, and small ones as fast
as it can send): the two rows side by side show what a flood costs everyone else's tables.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
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


async def play_table(base_ws: str, code: str, token: str, latencies: list, errors: list,
                     think: float = 0.0, seated: list | None = None) -> bool:
    """Play seat 0 to the end of the hand like a person: ``think`` seconds (±50%) before each answer."""
    import random

    import websockets

    from majiang.server.views import patch

    async with websockets.connect(f"{base_ws}/ws/{code}?patches=1", additional_headers={"X-Token": token},
                                  max_size=2 ** 22) as ws:
        sent_at = None
        last = None
        snap = None
        while True:
            msg = json.loads(await ws.recv())
            if msg["type"] == "patch":  # as the browser client: only what changed, after the first snapshot
                msg = snap = patch(snap, msg["patch"])
            elif msg["type"] == "snapshot":
                snap = msg
            if msg["type"] == "error":
                # by its code; revisions before the error codes said it only in words
                if (msg.get("code") == "rate.too_many_messages" or "too many" in msg["message"]) and last is not None:
                    await asyncio.sleep(0.1)  # rate-limited: not an error of the server, say it again
                    await ws.send(last)
                    continue
                errors.append(msg["message"])
                sent_at = None
                continue
            if msg["type"] != "snapshot":
                continue
            if snap is msg and seated is not None:  # the first frame: this client is at its table
                seated.append(time.perf_counter())
                seated = None
            if sent_at is not None:  # a seat is sent a frame only when what it sees changed: this one
                latencies.append((sent_at, time.perf_counter() - sent_at))
                sent_at = None
            if msg["settlement"] is not None:
                return True
            legal = (msg["view"] or {}).get("legal") or []
            if legal and sent_at is None:
                wins = [a for a in legal if a["type"] == "win"]
                if think > 0:
                    await asyncio.sleep(think * random.uniform(0.5, 1.5))
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


def get(base: str, path: str, token: str) -> dict:
    req = urllib.request.Request(base + path, headers={"X-Token": token})
    with urllib.request.urlopen(req, timeout=30) as r:
        return json.loads(r.read())


async def finished_hands(base: str, args, n: int) -> list[tuple[str, str]]:
    """``n`` one-hand rooms played to the end at once (one player each, answering at once): their
    (code, token), for their players to ask for a review."""
    ws_base = base.replace("http", "ws", 1)
    rooms = []
    for i in range(n):
        p = post(base, "/api/players", {"name": f"rev{i}"})
        code = post(base, "/api/rooms", {"variant": args.variant, "hands": 1, "bots": "greedy",
                                         "timers": {"pace": "fast"}}, p["token"])["code"]
        post(base, f"/api/rooms/{code}/start", {}, p["token"])
        rooms.append((code, p["token"]))
    await asyncio.gather(*(play_table(ws_base, c, t, [], [], 0.0) for c, t in rooms))
    return rooms


async def keep_reviews(base: str, hands: list[tuple[str, str]], done: list[float]) -> None:
    """Ask for every hand's review at once, then poll each until it is done (``done``: when each was)."""
    start = time.perf_counter()
    every = max(1.0, 0.6 * len(hands))  # all polls together within the server's costly-route budget of an address

    async def one(code: str, token: str) -> None:
        path = f"/api/rooms/{code}/games/0/review"
        got = await asyncio.to_thread(post, base, path, {}, token)
        while got["status"] in ("queued", "running"):
            await asyncio.sleep(every)
            got = await asyncio.to_thread(get, base, path, token)
        if got["status"] == "done":
            done.append(time.perf_counter() - start)

    await asyncio.gather(*(one(c, t) for c, t in hands), return_exceptions=True)


async def one_run(base: str, args, flooding: bool, tables_n: int, pid: int | None = None) -> dict:
    ws_base = base.replace("http", "ws", 1)
    reviewed = await finished_hands(base, args, args.reviews) if getattr(args, "reviews", 0) else []
    rss_before = rss_mb(pid)
    tables = []
    for i in range(tables_n):
        p = post(base, "/api/players", {"name": f"load{i}"})
        room = {"variant": args.variant, "hands": 1, "bots": "greedy"}
        try:  # the bots at the server's bot delay itself (pace 快), as servers before the pace option played
            code = post(base, "/api/rooms", room | {"timers": {"pace": "fast"}}, p["token"])["code"]
        except urllib.error.HTTPError as exc:
            if exc.code != 400:
                raise
            code = post(base, "/api/rooms", room, p["token"])["code"]  # a server without the option
        post(base, f"/api/rooms/{code}/start", {}, p["token"])
        tables.append((code, p["token"]))
    latencies: list[tuple[float, float]] = []  # (sent at, round trip)
    seated: list[float] = []  # when each client had its first frame
    errors: list[str] = []
    flooder = None
    if flooding:  # its own process, so that its sending does not slow the measuring clients here
        flooder = subprocess.Popen([sys.executable, __file__, "--flood-ws", f"{ws_base}/ws/{tables[0][0]}"],
                                   stdout=subprocess.PIPE, text=True)
        await asyncio.sleep(1.0)
    peak = [rss_before]

    async def watch_memory() -> None:
        while True:
            peak[0] = max(peak[0], rss_mb(pid))
            await asyncio.sleep(1.0)

    lags: list[float] = []  # how late this process's own loop ran a 5 ms timer: the clients' part of a round trip

    async def watch_own_loop() -> None:
        while True:
            due = time.perf_counter() + 0.005
            await asyncio.sleep(0.005)
            lags.append(time.perf_counter() - due)

    watcher = asyncio.ensure_future(watch_memory())
    lag_watcher = asyncio.ensure_future(watch_own_loop())
    reviews_done: list[float] = []
    reviewer = asyncio.ensure_future(keep_reviews(base, reviewed, reviews_done)) if reviewed else None
    cpu_before = cpu_seconds(pid)
    sys_before = system_seconds(pid)
    start = time.perf_counter()
    try:
        results = await asyncio.wait_for(asyncio.gather(
            *(play_table(ws_base, c, t, latencies, errors, args.think, seated) for c, t in tables),
            return_exceptions=True), timeout=args.timeout)
    finally:
        watcher.cancel()
        lag_watcher.cancel()
    elapsed = time.perf_counter() - start
    reviews_during = len(reviews_done)
    if reviewer is not None:  # the reviews the load held back finish once it ends: how long after
        await asyncio.wait([reviewer], timeout=args.review_wait)
        reviewer.cancel()
    cpu_after = cpu_seconds(pid)
    sys_cpu = system_seconds(pid) - sys_before
    loop_cpu = cpu_after.get(pid, 0.0) - cpu_before.get(pid, 0.0)
    pool_cpu = sum(v - cpu_before.get(k, 0.0) for k, v in cpu_after.items() if k != pid)
    counts = {"bytes": 0, "messages": 0, "closed": None}
    if flooder is not None:
        flooder.terminate()
        out, _ = flooder.communicate(timeout=30)
        if out.strip():
            counts = json.loads(out.strip().splitlines()[-1])
    finished = sum(1 for r in results if r is True)
    failures = [repr(r) for r in results if isinstance(r, Exception)]
    lat = sorted(dt for _, dt in latencies)
    # once every client had its first frame: the steady load, without the crowd of connections at the start
    all_seated = max(seated) if len(seated) == len(tables) else float("inf")
    steady = sorted(dt for at, dt in latencies if at >= all_seated)
    return {"tables": tables_n, "flood": flooding, "finished": finished, "seconds": elapsed, "actions": len(lat),
            "p50_ms": percentile(lat, 0.50), "p99_ms": percentile(lat, 0.99),
            "mean_ms": statistics.mean(lat) * 1000 if lat else None,
            "seated_s": all_seated - start if seated else None,
            "steady_p50_ms": percentile(steady, 0.50), "steady_p99_ms": percentile(steady, 0.99),
            "client_lag_p99_ms": percentile(sorted(lags), 0.99),
            "errors": len(errors) + len(failures), "error_samples": (errors + failures)[:3],
            "kb_per_table": (peak[0] - rss_before) * 1024 / tables_n if pid else None,
            # the server's CPU (its event loop's process, then the bot pool) per hand played: how much
            # one core can carry, whatever else shares the machine during the run
            "server_cpu_ms_per_hand": 1000 * loop_cpu / max(1, finished) if pid else None,
            "pool_cpu_ms_per_hand": 1000 * pool_cpu / max(1, finished) if pid else None,
            # of the server process's, the kernel's part (system calls, waking threads)
            "server_sys_ms_per_hand": 1000 * sys_cpu / max(1, finished) if pid else None,
            "flood_sent_mb": counts["bytes"] / 1e6, "flood_messages": counts["messages"],
            "flooder_closed_by_server": counts["closed"],
            "reviews": len(reviewed), "reviews_done": reviews_during, "reviews_done_after": len(reviews_done),
            "reviews_last_s": max(reviews_done) if reviews_done else None, "load_s": elapsed}


def percentile(sorted_seconds: list[float], q: float) -> float:
    """The q-th quantile of sorted round trips, in milliseconds (nan for none)."""
    if not sorted_seconds:
        return float("nan")
    return sorted_seconds[min(len(sorted_seconds) - 1, int(q * len(sorted_seconds)))] * 1000


def cpu_seconds(pid: int | None) -> dict[int, float]:
    """CPU seconds (user + system) so far of the server and each process under it (the bot pool)."""
    if pid is None:
        return {}
    tick = os.sysconf("SC_CLK_TCK")
    out = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        out[int(name)] = ((int(fields[11]) + int(fields[12])) / tick, int(fields[1]))  # fields[1]: the parent
    tree, grew = {pid}, True
    while grew:  # the server, its bot pool's forkserver and the pool's workers
        more = {p for p, (_, parent) in out.items() if parent in tree} - tree
        tree |= more
        grew = bool(more)
    return {p: out[p][0] for p in tree if p in out}


def system_seconds(pid: int | None) -> float:
    """System CPU seconds so far of the server process alone (0 when it is not ours to read)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return int(f.read().rsplit(")", 1)[1].split()[12]) / os.sysconf("SC_CLK_TCK")
    except (OSError, TypeError):
        return 0.0


def rss_mb(pid: int | None) -> float:
    """Resident memory of the server process (MB; 0 when it is not ours to read)."""
    if pid is None:
        return 0.0
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


async def two_workers(args, tables_n: int) -> dict:
    """The same load through the router of deploy/run-local.sh: two workers, one PostgreSQL."""
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    port = free_port()
    env = dict(os.environ, PYTHON=sys.executable, PORT=str(port), W1_PORT=str(free_port()),
               W2_PORT=str(free_port()), PGPORT=str(free_port()),
               SERVE_ARGS=f"--bot-delay {args.bot_delay} --new-players {10 * tables_n + 10} "
                        f"--sockets-per-address {2 * tables_n + 10}")
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
        row = await one_run(f"http://127.0.0.1:{port}", args, False, tables_n)
        row["label"] = "two workers behind the router"
        return row
    finally:
        script.terminate()
        script.wait(timeout=60)


def baseline_source(rev: str) -> str:
    """The ``src`` tree of an earlier revision of this repository, to run its server beside this one,
    with its own native engine and compiled analysis built as a checkout of it would have them (the
    Rust module from ``majiang.native build``, or before it a C extension from ``build_ext``; without
    them its bots would run in Python, in a pool of processes on another core, which is not the
    server that revision ships). Whatever cannot be built is said, and left out."""
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    out = tempfile.mkdtemp(prefix="bench-base-")
    archive = subprocess.run(["git", "-C", root, "archive", rev, "src", "native", "setup.py", "pyproject.toml",
                              "README.md"], capture_output=True, check=True).stdout
    subprocess.run(["tar", "-x", "-C", out], input=archive, check=True)
    # the revision's own build command knows where its crate is and where the library goes
    cargo = os.environ.get("CARGO") or shutil.which("cargo") or os.path.expanduser("~/.cargo/bin/cargo")
    built = subprocess.run([sys.executable, "-m", "majiang.native", "build", "--quiet"], capture_output=True,
                           text=True, env=dict(os.environ, CARGO=cargo, PYTHONPATH=os.path.join(out, "src")))
    if built.returncode != 0:
        print(f"baseline {rev}: its native engine could not be built ({built.stderr.strip()[-200:]}); "
              "its bots run in Python", file=sys.stderr)
    ext = subprocess.run([sys.executable, "setup.py", "-q", "build_ext", "--inplace"], cwd=out,  # (none: no-op)
                         capture_output=True, text=True, env=dict(os.environ, MAJIANG_NATIVE="0"))
    if ext.returncode != 0:
        print(f"baseline {rev}: its C extension could not be built: {ext.stderr.strip()[-200:]}", file=sys.stderr)
    return os.path.join(out, "src")


async def one_server(args, tables_n: int, src: str | None, label: str) -> list[dict]:
    """Start ``majiang serve`` (from ``src``, else the installed package) on SQLite and measure it."""
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    db = os.path.join(tempfile.mkdtemp(), "load.sqlite3")
    env = dict(os.environ)
    if src is not None:
        env["PYTHONPATH"] = src + os.pathsep + env.get("PYTHONPATH", "")
    quiet = [] if args.review_quiet_ms is None or src is not None else ["--review-quiet-ms", str(args.review_quiet_ms)]
    server = subprocess.Popen([sys.executable, "-m", "majiang", "serve", "--port", str(port), "--db",
                               f"sqlite:///{db}", "--bot-delay", str(args.bot_delay),
                               "--new-players", str(10 * tables_n + 10),
                               "--sockets-per-address", str(2 * tables_n + 10)] + quiet,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    rows = []
    try:
        for _ in range(100):
            try:
                urllib.request.urlopen(base + "/", timeout=1)
                break
            except OSError:
                await asyncio.sleep(0.1)
        # with --reviews, the same load without them first, on the same server: the reference beside
        for reviews in ([0, args.reviews] if args.reviews else [0]):
            run_args = argparse.Namespace(**{**vars(args), "reviews": reviews})
            rows.append(await one_run(base, run_args, False, tables_n, server.pid))
            if not args.no_flood:
                rows.append(await one_run(base, run_args, True, tables_n, server.pid))
    finally:
        server.terminate()
        server.wait(timeout=30)
    for r in rows:
        with_reviews = f", {r['reviews']} reviews asked" if r["reviews"] else (", no reviews" if args.reviews else "")
        r["label"] = label + with_reviews + (", one client flooding" if r["flood"] else "")
    return rows


SPREAD = ("seconds", "p50_ms", "p99_ms", "seated_s", "steady_p50_ms", "steady_p99_ms", "client_lag_p99_ms",
          "server_cpu_ms_per_hand", "server_sys_ms_per_hand", "pool_cpu_ms_per_hand", "kb_per_table")


def summarise(runs: list[dict]) -> list[dict]:
    """One row per server and load of repeated runs: each measure's median, with its min and max
    in ``<measure>_range``; the counts are summed."""
    rows: dict[tuple, list[dict]] = {}
    for r in runs:
        rows.setdefault((r["label"], r["flood"]), []).append(r)
    out = []
    for group in rows.values():
        row = dict(group[-1], repeats=len(group))
        for key in ("finished", "actions", "errors"):
            row[key] = sum(r[key] for r in group)
        for key in SPREAD:
            values = [r[key] for r in group if r.get(key) is not None]
            if values:
                row[key] = statistics.median(values)
                row[key + "_range"] = (min(values), max(values))
        out.append(row)
    return out


async def run(args) -> list[dict]:
    counts = [int(n) for n in str(args.tables).split(",")]
    if args.base:
        rows = []
        for n in counts:
            rows.append(await one_run(args.base, args, False, n, args.server_pid))
            if not args.no_flood:
                rows.append(await one_run(args.base, args, True, n, args.server_pid))
        return rows
    rows = []
    base_src = baseline_source(args.baseline) if args.baseline else None
    servers = [(None, "this server")] + ([(base_src, f"server at {args.baseline}")] if base_src else [])
    for n in counts:
        runs: list[dict] = []
        for k in range(args.repeat):
            # interleaved, and each revision first in turn, so that a drift of the machine's load
            # during the run falls on both alike
            for src, label in (servers if k % 2 == 0 else servers[::-1]):
                runs += await one_server(args, n, src, label)
        rows += summarise(runs) if args.repeat > 1 else runs
    if args.two_workers:
        row = await two_workers(args, counts[-1])
        rows.append(row)
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tables", default="200", help="concurrent tables; a comma list (200,1000) gives a row "
                    "for each, each on a fresh server (default 200)")
    ap.add_argument("--variant", default="kawuxing", choices=["kawuxing", "sichuan"])
    ap.add_argument("--bot-delay", type=float, default=0.4, help="the server's bot pause (default 0.4 s, "
                    "as `majiang serve`)")
    ap.add_argument("--think", type=float, default=1.0, help="the human's think time before each answer, "
                    "seconds ±50%% (default 1; 0 answers at once and saturates the server)")
    ap.add_argument("--baseline", metavar="REV", help="also measure the server of this git revision (e.g. "
                    "1ac8ae7, before the store and bot changes) on the same load, row beside row")
    ap.add_argument("--repeat", type=int, default=1, metavar="K", help="measure each server K times, "
                    "interleaved with the baseline's runs, and print the median (min-max) of each measure")
    ap.add_argument("--timeout", type=float, default=900)
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--no-flood", action="store_true", help="skip the run with a flooding client")
    ap.add_argument("--reviews", type=int, default=0, metavar="N", help="keep N 复盘 in flight: N more hands "
                    "played first, their reviews asked for as the load starts (computed at idle priority)")
    ap.add_argument("--review-quiet-ms", type=float, metavar="MS", help="the served server's --review-quiet-ms "
                    "(default: serve's own; 0: reviews beside the busy tables, at idle priority only)")
    ap.add_argument("--review-wait", type=float, default=180.0, metavar="SEC", help="with --reviews: how long after "
                    "the load to wait for the reviews it held back (default 180)")
    ap.add_argument("--base", metavar="URL", help="measure the server already running at URL (e.g. the router "
                    "of deploy/run-local.sh) instead of starting one")
    ap.add_argument("--server-pid", type=int, metavar="PID", help="with --base: the server's process, to count "
                    "its CPU per hand (e.g. two revisions' servers measured at the same time by two runs)")
    ap.add_argument("--two-workers", action="store_true", help="add a row for two workers on one PostgreSQL "
                    "behind HAProxy (deploy/run-local.sh)")
    ap.add_argument("--flood-ws", help=argparse.SUPPRESS)  # the flooding client's own process
    args = ap.parse_args()
    if args.flood_ws:
        flood_until_terminated(args.flood_ws)
        return
    # The clients of 1,000 tables live in this one process: its own full garbage collections would
    # stall every client's reading at once and be measured as the server's latency (a real client
    # is one browser per player), so this process collects as `majiang serve` does.
    from majiang.server import collector

    collector.take_over()
    rows = asyncio.run(run(args))
    if args.json:
        print(json.dumps(rows, indent=2))
        return
    where = f"the server at {args.base}" if args.base else f"one server on SQLite, loopback, bots {args.bot_delay} s"
    print(f"concurrent {args.variant} tables on {where}; one client per table thinking {args.think} s ±50%:")
    print(f"{'':<44}{'tables':>7}{'finished':>9}{'seconds':>8}{'p50 ms':>8}{'p99 ms':>8}{'actions':>8}"
          f"{'errors':>7}{'KB/table':>9}{'CPU ms/hand':>12}")
    for r in rows:
        label = r.get("label") or ("with one client flooding" if r["flood"] else "quiet")
        kb = f"{r['kb_per_table']:>9.0f}" if r.get("kb_per_table") is not None else f"{'':>9}"
        cpu = (f"{r['server_cpu_ms_per_hand']:>6.0f}+{r['pool_cpu_ms_per_hand']:<5.0f}"
               if r.get("server_cpu_ms_per_hand") is not None else f"{'':>12}")
        print(f"{label:<44}{r['tables']:>7}{r['finished']:>9}{r['seconds']:>8.1f}{r['p50_ms']:>8.1f}"
              f"{r['p99_ms']:>8.1f}{r['actions']:>8}{r['errors']:>7}{kb}{cpu}")
        if r.get("seated_s") is not None:
            print(f"  (every client had its table {r['seated_s']:.1f} s in; after that: "
                  f"p50 {r['steady_p50_ms']:.1f} ms, p99 {r['steady_p99_ms']:.1f} ms; "
                  f"this process's own loop ran late by {r['client_lag_p99_ms']:.1f} ms at p99)")
        if r.get("repeats", 1) > 1:
            spread = ", ".join(f"{key} {r[key + '_range'][0]:.1f}-{r[key + '_range'][1]:.1f}"
                               for key in SPREAD if key + "_range" in r)
            print(f"  (median of {r['repeats']} runs; counts summed; min-max: {spread})")
        if r.get("reviews"):
            last = (f"; the last {r['reviews_last_s']:.1f} s after they were asked for, the load having lasted "
                    f"{r['load_s']:.1f} s" if r.get("reviews_last_s") is not None else "")
            print(f"  ({r['reviews']} reviews asked for as the load started: {r['reviews_done']} done during it, "
                  f"{r.get('reviews_done_after', r['reviews_done'])} in all{last})")
        if r["flood"]:
            print(f"  (the flooder sent {r['flood_sent_mb']:.0f} MB and {r['flood_messages']} small messages; "
                  f"the server closed it {r['flooder_closed_by_server'] or 0} times and it came back)")
    print("CPU ms/hand: the server process (event loop, store, frames) + its bot pool, per hand played;\n"
          "a core carries about 1000 / that many hands a second, whatever else shares the machine.")


if __name__ == "__main__":
    main()
